/**
 * The claim page's badge says the count behind a status as `kg claims` does, statements without evidence included
 * (`statusCount`); its "Why:" line leaves out what the badge already says (`reasonAfterCount`, `src/reason.ts`).
 */
import { describe, expect, it } from "@effect/vitest"
import { reasonAfterCount, statusCount } from "../src/reason.js"

describe("statusCount", () => {
  it("says the papers for and against, and the statements without evidence the status does not count", () => {
    expect(statusCount("contested", 1, 1)).toBe("contested: 1 paper for, 1 against")
    expect(statusCount("established", 3, 0)).toBe("established: 3 papers for")
    // the words of `kg claims` (packages/cli/src/handlers/claims.ts, statusCount) for a note stated twice
    expect(statusCount("preliminary", 0, 0, 2)).toBe("preliminary: 0 papers for, 2 statements without evidence")
    expect(statusCount("preliminary", 1, 0, 1)).toBe("preliminary: 1 paper for, 1 statement without evidence")
    expect(statusCount("contested", 1, 2, 0)).toBe("contested: 1 paper for, 2 against")
  })

  it("is the status alone when no count is known", () => {
    expect(statusCount("preliminary")).toBe("preliminary")
    expect(statusCount("preliminary", undefined, undefined, 2)).toBe("preliminary")
  })
})

describe("reasonAfterCount", () => {
  it("drops the count, keeps the reason", () => {
    expect(reasonAfterCount("1 paper for, 1 against: contradicted on the same finding by 1 paper (p2)"))
      .toBe("Contradicted on the same finding by 1 paper (p2)")
  })

  it("drops the statements without evidence too: the badge says them", () => {
    expect(reasonAfterCount("1 paper for, 0 against (1 statement without evidence): one paper states it, no other paper replicates it"))
      .toBe("One paper states it, no other paper replicates it")
    expect(reasonAfterCount("0 papers for, 0 against (2 statements without evidence): stated on its own, no paper reports it as a finding"))
      .toBe("Stated on its own, no paper reports it as a finding")
  })

  it("leaves a reason without a count as it is, capitalised", () => {
    expect(reasonAfterCount("no source paper")).toBe("No source paper")
  })
})
