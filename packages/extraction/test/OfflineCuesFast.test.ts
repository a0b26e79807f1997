import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { attributionOf } from "../src/internal/offline/attribution.js"
import { findValues, hasAsciiDigit, metricMatcher, metricMatches } from "../src/internal/offline/claims.js"
import { textCounts } from "../src/internal/offline/text.js"

// The cheaper forms of the claim rules (one pass per sentence, groups tried only where a match can start, scans for
// the characters a pattern needs before running it) must answer exactly as the patterns they replace.

const papers = fileURLToPath(new URL("../../../testdata/papers/md", import.meta.url))
const sentences: ReadonlyArray<string> = fs.readdirSync(papers).sort().slice(0, 12).flatMap((f) =>
  fs.readFileSync(path.join(papers, f), "utf8").split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim() !== "")
)

const byPattern = (s: string) => Array.from(s.matchAll(metricMatcher), (m) => ({ text: m[1] ?? m[0], index: m.index! }))

/** Pieces that make metric names, their neighbours and the at-sign form, in any case. */
const piece = fc.constantFrom(
  "accuracy", "Accuracy", "ACCURACY", "BLEU", "bleu", "F1", "F1-score", "f1", "top-1 accuracy", "error rate", "error rates",
  "word error rate", "mAP", "MAP", "R^2", "p-value", "P@10", "recall@5", "x@", "@3", "-", " ", "  ", ".", ",", "(", ")",
  "é", "𝑥", "9", "ROUGE-L", "ROUGE", "kappa", "Kappa", "KAPPA", "mIoU", "IoU", "loss", "losses", "gloss", "\u00a0", "_"
)

describe("the claim rules' cheaper passes", () => {
  it("finds the metric names the whole pattern finds, on real sentences and on generated ones", () => {
    expect(sentences.length).toBeGreaterThan(2000)
    let found = 0
    for (const s of sentences) {
      const fast = metricMatches(s)
      expect(fast).toEqual(byPattern(s))
      found += fast.length
    }
    expect(found).toBeGreaterThan(50)
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const s = pieces.join("")
        expect(metricMatches(s)).toEqual(byPattern(s))
      }),
      { numRuns: 4000 }
    )
    expect(metricMatches("BLEU of 28.4 and top-1 accuracy, P@10; not pre-BLEU nor BLEUs")).toEqual([
      { text: "BLEU", index: 0 },
      { text: "top-1 accuracy", index: 17 },
      { text: "P@10", index: 33 }
    ])
  })

  it("finds no value in a sentence without an ASCII digit, and the pattern's values otherwise", () => {
    expect(hasAsciiDigit("no digits here: ٣ (an Arabic-Indic three)")).toBe(false)
    expect(hasAsciiDigit("a 3")).toBe(true)
    expect(findValues("Accuracy improves by a large margin.")).toEqual([])
    expect(findValues("Accuracy improves by 4.5 % (p < 0.01).").map((v) => v.text)).toEqual(["4.5 %", "p < 0.01"])
  })

  it("attributes the same sentences as without the scans for citation and et al. words", () => {
    // the patterns of offline/attribution.ts, always run (the rule before the scans)
    const CITE_WORDS = ["{{cite:", "[reference]"]
    let attributed = 0
    for (const s of [
      ...sentences,
      "Smith et al. showed that depth helps.",
      "As shown by Smith et\tal. (2019), depth helps.",
      "Depth helps [reference].",
      "Depth helps (Smith and Lee, 2019).",
      "Depth helps, as in huang2016stochasticdepth.",
      "Depth helps [3, 5-7].",
      "Previous studies have shown that depth helps."
    ]) {
      const a = attributionOf(s)
      if (a !== null) attributed++
      // a sentence with none of the characters a marker needs is never attributed to a citation
      if (!CITE_WORDS.some((w) => s.includes(w)) && !hasAsciiDigit(s) && !/et\s+al/.test(s) && a !== null) {
        expect(a).toBe("earlier work (unnamed)")
      }
    }
    expect(attributed).toBeGreaterThan(100)
    expect(attributionOf("Smith et al. showed that depth helps.")).toBe("Smith et al.")
    expect(attributionOf("As shown by Smith et\tal. (2019), depth helps.")).toBe("Smith et al. (2019)")
    expect(attributionOf("Depth helps (Smith and Lee, 2019).")).toBe("Smith and Lee, 2019")
    expect(attributionOf("Depth helps [3, 5-7].")).toBe("[3, 5-7]")
    expect(attributionOf("Depth helps, as in huang2016stochasticdepth.")).toBe("huang2016stochasticdepth")
    expect(attributionOf("Depth helps {{cite:ab12}}.")).toBe("cite:ab12")
  })

  it("counts words, letters, tokens and numeric tokens as the regular expressions do", () => {
    const byPatterns = (t: string) => {
      const tokens = t.split(/\s+/).filter((x) => x.length > 0)
      return {
        words: (t.match(/[\p{L}][\p{L}'-]*/gu) ?? []).length,
        letters: (t.match(/\p{L}/gu) ?? []).length,
        tokens: tokens.length,
        numeric: tokens.filter((x) => /^[-+−]?[\d.,]+%?$/.test(x)).length
      }
    }
    for (const s of sentences) expect(textCounts(s)).toEqual(byPatterns(s))
    const part = fc.constantFrom(
      "a", "Z", "é", "ß", "𝑥", "\ud835", "\udc65", "中", "\u0301", "'", "-", "−", "+", "1", "0.5", ",", ".", "%", "%%", " ",
      "  ", "\t", "\n", "\u00a0", "\u2009", "\u2028", "\ufeff", "\u3000", "x-y", "don't", "|", "(", "_"
    )
    fc.assert(
      fc.property(fc.array(part, { maxLength: 16 }), (parts) => {
        const t = parts.join("")
        expect(textCounts(t)).toEqual(byPatterns(t))
      }),
      { numRuns: 5000 }
    )
    expect(textCounts("Accuracy is 91.2 % on -3 of 1,000 images (x-y's 𝑥).")).toEqual({
      words: 7,
      letters: 24,
      tokens: 11,
      numeric: 3
    })
  })
})
