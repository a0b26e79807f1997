/**
 * The claim page's "Why:" line leaves out the count its badge already gives, and keeps what the badge does not
 * count: statements given on their own, without evidence (`reasonAfterCount`, `src/reason.ts`).
 */
import { describe, expect, it } from "@effect/vitest"
import { reasonAfterCount } from "../src/reason.js"

describe("reasonAfterCount", () => {
  it("drops the count, keeps the reason", () => {
    expect(reasonAfterCount("1 paper for, 1 against: contradicted on the same finding by 1 paper (p2)"))
      .toBe("Contradicted on the same finding by 1 paper (p2)")
  })

  it("keeps the statements without evidence, which the badge does not count", () => {
    expect(reasonAfterCount("1 paper for, 0 against (1 statement without evidence): one paper states it, no other paper replicates it"))
      .toBe("1 statement without evidence; one paper states it, no other paper replicates it")
    expect(reasonAfterCount("0 papers for, 0 against (2 statements without evidence): stated on its own, no paper reports it as a finding"))
      .toBe("2 statements without evidence; stated on its own, no paper reports it as a finding")
  })

  it("leaves a reason without a count as it is, capitalised", () => {
    expect(reasonAfterCount("no source paper")).toBe("No source paper")
  })
})
