import { describe, expect, it } from "@effect/vitest"
import { scoreClaim, skipReason } from "../src/internal/offlineClaims.js"
import { cleanSentence, memoByText } from "../src/internal/offlineText.js"

describe("offline rules remembered by sentence (memoByText)", () => {
  it("computes each text once while it is remembered, and again after the memo is cleared", () => {
    const seen: Array<string> = []
    const f = memoByText((t: string) => {
      seen.push(t)
      return t.length
    }, 2)
    expect([f("ab"), f("ab"), f("abc"), f("ab")]).toEqual([2, 2, 3, 2])
    expect(seen).toEqual(["ab", "abc"])
    // a third text clears the memo (limit 2): the first is computed again
    expect(f("abcd")).toBe(4)
    expect(f("ab")).toBe(2)
    expect(seen).toEqual(["ab", "abc", "abcd", "ab"])
  })

  it("gives the same answers on a repeated sentence, and carries the conditions given with a score", () => {
    const sentence = "Our method improves accuracy by 4.1 % over the baseline {{cite:abc}} on ImageNet (Table 2)."
    const first = { clean: cleanSentence(sentence), skip: skipReason(sentence), score: scoreClaim(sentence) }
    expect(first.clean).not.toContain("{{cite")
    expect(first.score.score).toBeGreaterThan(0)
    expect(first.score.conditions).toBeNull()
    expect({ clean: cleanSentence(sentence), skip: skipReason(sentence), score: scoreClaim(sentence) }).toEqual(first)
    const withConditions = scoreClaim(sentence, "on ImageNet")
    expect(withConditions).toEqual({ ...first.score, conditions: "on ImageNet" })
    // the remembered score is not changed by a call with conditions
    expect(scoreClaim(sentence).conditions).toBeNull()
    expect(skipReason("Table 3: results on the test set.")).toBe("caption")
  })
})
