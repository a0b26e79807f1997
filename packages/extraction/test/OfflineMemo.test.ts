import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { endsInPlaceholderKey, findValues, scoreClaim, skipReason } from "../src/internal/offline/claims.js"
import { cleanSentence, memoByText } from "../src/internal/offline/text.js"

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

  it("a structured abstract's 'Setting' label is skipped as an aim; a sentence that opens with the verb is not", () => {
    expect(skipReason("SETTING Community hospitals in three states.")).toBe("aim")
    expect(skipReason("Setting: community hospitals in three states.")).toBe("aim")
    expect(skipReason("Methods of handling attribute values are only briefly summarized.")).toBe("aim")
    // CRF-RNN: the paper's finding about training with T = 10
    expect(skipReason("Setting T = 10 also during training reduced the accuracy, which might be caused by vanishing gradients.")).toBeUndefined()
  })

  it("reads a placeholder's key backwards as the regular expression over the prefix did", () => {
    const re = /\{\{[a-z]+:[0-9a-f-]*$/i
    const piece = fc.constantFrom("{", "{{", "}", ":", "cite", "Formula", "table", "ab12", "9F-", "-", "x", " ", "é", "3.5", "%", "g")
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.nat(), (pieces, at) => {
        const s = pieces.join("")
        const end = s.length === 0 ? 0 : at % (s.length + 1)
        expect(endsInPlaceholderKey(s, end)).toBe(re.test(s.slice(0, end)))
      }),
      { numRuns: 3000 }
    )
    expect(endsInPlaceholderKey("see {{cite:ab12-", 16)).toBe(true)
    expect(endsInPlaceholderKey("see {{:ab12", 11)).toBe(false)
  })

  it("finds the same values in a sentence asked twice, and none inside a placeholder's key", () => {
    const s = "Accuracy rose to 91.2 % {{cite:1234-5678}} (p < 0.05) after 3 epochs, {{formula:12ab}} 2.5 times."
    const first = findValues(s)
    expect(first.map((v) => v.text)).toEqual(["91.2 %", "p < 0.05", "3 epochs", "2.5 times"])
    expect(findValues(s + " ")).toEqual(first)
    expect(findValues(s)).toBe(findValues(s))
  })
})
