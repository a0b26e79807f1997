/**
 * `abbreviations.expansions` finds a short form used as a word without compiling a case-insensitive pattern with
 * letter classes per short form (issue 23: ~2 ms a short form, 3 s of a 400-paper run's linking at 4,000 papers).
 * It must answer exactly as that pattern, `/(?<![\p{L}\p{N}])SFs?(?![\p{L}\p{N}])/iu`, does: checked here against
 * it on random sentences and short forms over an alphabet of the characters where the two could differ (case
 * folds outside ASCII such as the long s and the Kelvin sign, combining marks, characters outside the BMP).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { type Abbreviations, definitions, expansions } from "../src/internal/claims/abbreviations.js"

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** `expansions` as it was written first: one pattern per short form and sentence. */
const reference = (sentence: string, defs: Abbreviations): ReadonlyArray<string> => {
  const out: Array<string> = []
  const lower = sentence.toLowerCase()
  for (const [sf, lfs] of defs) {
    const usesShort = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(sf)}s?(?![\\p{L}\\p{N}])`, "iu").test(sentence)
    for (const lf of lfs) {
      const usesLong = lower.includes(lf.toLowerCase())
      if (usesShort && !usesLong) out.push(lf)
      else if (usesLong && !usesShort) out.push(sf)
    }
  }
  return out
}

const chars = fc.constantFrom(
  "a", "A", "b", "B", "s", "S", "k", "K", "1", "2", "-", " ", ".", "(", ")",
  "\u017f", // long s: folds onto s
  "\u212a", // Kelvin sign: folds onto k
  "\u0345", // combining ypogegrammeni: folds onto a letter
  "\u00e9", "\u00c9", "\u03a3", "\u03c3", "\u03c2", "\u00b5", "\u03bc", "\u0130", "\u0131",
  "\ud801\udc00", "\ud801\udc28", // Deseret capital / small long i (outside the BMP)
  "\u24b6", "\u2160", "\u0301"
)
const text = (max: number) => fc.array(chars, { minLength: 0, maxLength: max }).map((c) => c.join(""))

describe("abbreviations.expansions", () => {
  const short = text(4).filter((s) => s.length > 0)
  it.prop(
    "answers as one case-insensitive pattern per short form",
    [
      fc.array(fc.tuple(short, fc.array(text(6), { maxLength: 2 })), { minLength: 1, maxLength: 3 }),
      text(10),
      text(10),
      fc.boolean(),
      fc.boolean()
    ],
    ([entries, before, after, use, upper]) => {
      const defs: Abbreviations = new Map(entries)
      // half of the sentences use the first short form (in either case), the others are random
      const sf = entries[0]![0]
      const sentence = use ? `${before}${upper ? sf.toUpperCase() : sf.toLowerCase()}${after}` : `${before}${after}`
      expect(expansions(sentence, defs)).toEqual(reference(sentence, defs))
    },
    { fastCheck: { numRuns: 400 } }
  )

  it("reads plurals, case and word edges as the pattern does", () => {
    const defs: Abbreviations = new Map([
      ["cnn", ["convolutional neural network"]],
      ["bat", ["brown adipose tissue"]],
      ["sk", ["spin kinase"]]
    ])
    for (
      const s of [
        "CNNs beat it.", "cnn beats it", "CNNsx fail", "aCNN fails", "the CNN-based model", "BATS", "BAT\u017f", "xBAT",
        "\u212aBAT", "B\u0345AT", "BAT\u0345", "the bat", "Brown adipose tissue (BAT)", "the \u017fk test", "S\u212a", "SKs"
      ]
    ) expect(expansions(s, defs)).toEqual(reference(s, defs))
    expect(expansions("CNNs beat it.", defs)).toEqual(["convolutional neural network"])
    expect(expansions("CNNsx fail", defs)).toEqual([])
    // the long s and the Kelvin sign fold onto ASCII letters
    expect(expansions("the \u017fk test", defs)).toEqual(["spin kinase"])
    expect(expansions("S\u212a", defs)).toEqual(["spin kinase"])
  })

  it("a plural short form is defined by its singular: 'QRNNs' defines 'QRNN' and 'QRNNs' alike", () => {
    const defs = definitions("We introduce quasi-recurrent neural networks (QRNNs), an approach to neural sequence modeling.")
    expect(Array.from(defs.keys())).toEqual(["qrnn"])
    expect(expansions("We found that the QRNN is substantially faster than a standard LSTM.", defs)).toEqual(["quasi-recurrent neural networks"])
    expect(expansions("QRNNs are faster.", defs)).toEqual(["quasi-recurrent neural networks"])
    expect(Array.from(definitions("in vascular smooth muscle cells (VSMCs) of the lesion").keys())).toEqual(["vsmc"])
    expect(Array.from(definitions("rectified linear units (ReLUs) train fast").keys())).toEqual(["relu"])
    // near miss: a short form in capitals that ends in S is no plural
    expect(Array.from(definitions("severe acute respiratory syndrome (SARS) spread").keys())).toEqual(["sars"])
  })
})
