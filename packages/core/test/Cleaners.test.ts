/**
 * The cleaners applied to labels from LLM answers run in (near) linear time: hostile labels of 200 KB are
 * cleaned in well under a second each (before, a 1 MB label pinned a core for minutes in cleanLabel's regular
 * expressions, and leading articles were cut one at a time in canonicalName, mentionWords and normalizeLabel).
 * The linear cleanLabel and normalizeLabel give the same results as the regular-expression versions they
 * replaced (kept here as references, run on short strings only). Labels are also bounded in length before
 * they reach any cleaner (StructuredOutput's answer bounds); these tests hold without that bound.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as EntityCache from "../src/EntityCache.js"
import * as EntityName from "../src/EntityName.js"
import * as NlpService from "../src/NlpService.js"
import * as Effect from "effect/Effect"

// The regular-expression cleanLabel EntityName used before (quadratic on long runs): the reference.
const OLD_EDGE = /^[\s"'`“”‘’[\]{}<>.,;:!?*_|•·]+|[\s"'`“”‘’[\]{}<>.,;:!?*_|•·]+$/gu

const balanced = (s: string): string => {
  let out = s
  for (;;) {
    const opens = (out.match(/\(/g) ?? []).length
    const closes = (out.match(/\)/g) ?? []).length
    if (out.startsWith("(") && out.endsWith(")") && opens === closes && matchingClose(out) === out.length - 1) {
      out = out.slice(1, -1).trim()
      continue
    }
    if (opens < closes && out.endsWith(")")) {
      out = out.slice(0, -1).trim()
      continue
    }
    if (opens > closes && out.startsWith("(")) {
      out = out.slice(1).trim()
      continue
    }
    return out
  }
}

const matchingClose = (s: string): number => {
  let depth = 0
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "(") depth++
    else if (s[i] === ")") {
      depth--
      if (depth === 0) return i
    }
  }
  return -1
}

/**
 * One line of clean text: NFC; a line-end hyphen between two lower-case
 * letters is joined (`convolu-\ntional` -> `convolutional`) unless the left
 * part is already a compound (`state-of-the-\nart` keeps its hyphen); other
 * line breaks and runs of whitespace become one space; quotes, brackets and
 * punctuation at either end (and unbalanced parentheses) are dropped.
 *
 * @since 0.1.0
 * @category labels
 */
const referenceCleanLabel = (raw: string): string => {
  let s = raw.normalize("NFC").replace(/[\u00AD\u200B-\u200D\uFEFF]/g, "")
  s = s.replace(/([\p{L}-]*\p{Ll})-[ \t]*\r?\n\s*(\p{Ll})/gu, (_m, left: string, right: string) =>
    left.includes("-") ? `${left}-${right}` : `${left}${right}`)
  s = s.replace(/\s+/gu, " ").trim()
  for (;;) {
    const next = balanced(s.replace(OLD_EDGE, "").trim())
    if (next === s) return s
    s = next
  }
}

// The regular-expression EntityCache.normalizeLabel used before (quadratic on long runs): the reference.
const REF_LEADING_ARTICLE = /^(?:the|a|an)\s+/
const REF_EDGE_PUNCT = /^[\s"'`“”‘’()[\]{}<>.,;:!?*_]+|[\s"'`“”‘’()[\]{}<>.,;:!?*_]+$/g
const REF_DASHES = /[\u2010-\u2015\u2212-]/g

const refSingular = (word: string): string => {
  if (word.length <= 3 || /\d/.test(word)) return word
  if (/ies$/.test(word)) return word.slice(0, -3) + "y"
  if (/(?:ss|us|is|ous|sis)$/.test(word)) return word
  if (/(?:ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2)
  if (/s$/.test(word)) return word.slice(0, -1)
  return word
}

const referenceNormalize = (label: string): string => {
  let s = label.normalize("NFKC").normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC")
  s = s.toLowerCase().replace(REF_DASHES, " ").replace(/\s+/g, " ")
  // Every step below only shortens the string, so iterating to a fixed point
  // terminates and makes the function idempotent whatever the input.
  for (;;) {
    let next = s.replace(REF_EDGE_PUNCT, "").replace(REF_LEADING_ARTICLE, "").trim()
    const words = next.split(" ")
    const last = words.length - 1
    if (words[last] !== "") words[last] = refSingular(words[last]!)
    next = words.join(" ")
    if (next === s) return s
    s = next
  }
}


const alphabet = fc.constantFrom(
  "a", "b", "x", "A", "é", "𝑥", "-", "\n", " ", "\t", "(", ")", ".", ",", "\"", "[", "]", "*", "•", "\u00AD", "1"
)

describe("linear cleaners give the results of the regular-expression versions", () => {
  it("cleanLabel gives the labels of the regular-expression version it replaced (property, short strings)", () => {
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 30 }), (raw) => {
        expect(EntityName.cleanLabel(raw)).toBe(referenceCleanLabel(raw))
      }),
      { numRuns: 3000 }
    )
  })

  it("EntityCache.normalizeLabel gives the labels of the regular-expression version it replaced (property)", () => {
    const words = fc.constantFrom("the", "a", "an", "The", "networks", "bus", "classes", "x", "")
    const seps = fc.constantFrom(" ", "  ", ".", "\"", "(", ")", "-", "–", "*", "\n", "")
    const label = fc.array(fc.tuple(words, seps), { maxLength: 8 }).map((parts) => parts.map(([w, s]) => w + s).join(""))
    fc.assert(
      fc.property(fc.oneof(label, fc.string({ unit: alphabet, maxLength: 30 })), (raw) => {
        expect(EntityCache.normalizeLabel(raw)).toBe(referenceNormalize(raw))
      }),
      { numRuns: 3000 }
    )
  })

  it("cleanLabel keeps its documented behaviour", () => {
    expect(EntityName.cleanLabel("convolu-\ntional  networks")).toBe("convolutional networks")
    expect(EntityName.cleanLabel("state-of-the-\nart")).toBe("state-of-the-art")
    expect(EntityName.cleanLabel("  \"(BERT)\". ")).toBe("BERT")
    expect(EntityName.cleanLabel("(ResNet-50")).toBe("ResNet-50")
    expect(EntityName.cleanLabel("ResNet (deep))")).toBe("ResNet (deep)")
    expect(EntityName.cleanLabel("𝑥-\nvalue")).toBe("𝑥value")
  })
})

/** Strings built to make backtracking regular expressions and shrink-by-one loops quadratic. */
const SIZE = 200_000
const hostileLabels: ReadonlyArray<readonly [string, string]> = [
  ["a run of lower-case letters", "a".repeat(SIZE)],
  ["letters then a line-end hyphen", "a".repeat(SIZE) + "-\n"],
  ["letters and hyphens", "a-".repeat(SIZE / 2)],
  ["hyphen and newline pairs", "a-\n".repeat(SIZE / 3)],
  ["whitespace then a letter", " ".repeat(SIZE) + "x"],
  ["edge punctuation inside", "a" + ".".repeat(SIZE) + "b"],
  ["edge punctuation around", ".".repeat(SIZE / 2) + "x" + ".".repeat(SIZE / 2)],
  ["unbalanced opening parentheses", "(".repeat(SIZE) + "x"],
  ["unbalanced closing parentheses", "x" + ")".repeat(SIZE)],
  ["nested parentheses", "(".repeat(SIZE / 2) + "x" + ")".repeat(SIZE / 2)],
  ["alternating parenthesis and dot", "(.".repeat(SIZE / 2) + "x"],
  ["articles", "the ".repeat(SIZE / 4) + "model"],
  ["words", "deep learning method ".repeat(SIZE / 21)],
  ["parenthetical definitions", "Long Short Term Memory (LSTM) ".repeat(SIZE / 30)],
  ["brackets", "a(b[c".repeat(SIZE / 5)],
  ["one long word", "x".repeat(SIZE) + " (X)"],
  ["plural endings", "networks".repeat(SIZE / 8)]
]

/**
 * The budget of one call on a 200 KB string. Linear cleaners take tens to hundreds of milliseconds (more on a loaded
 * machine); the quadratic ones they replace took 30 s to minutes on these strings (canonicalName 114 s on
 * "a-a-a-...", cleanLabel 14 minutes on 1 MB), so the budget separates them with room for a busy CI machine.
 */
const BUDGET_MS = 3_000

const timed = (f: () => unknown): number => {
  const started = performance.now()
  f()
  return performance.now() - started
}

describe("cleaners of LLM answers on hostile strings (200 KB each)", () => {
  const cleaners: ReadonlyArray<readonly [string, (s: string) => unknown]> = [
    ["cleanLabel", EntityName.cleanLabel],
    ["canonicalName", EntityName.canonicalName],
    ["entityKey", EntityName.entityKey],
    ["namedForms", EntityName.namedForms],
    ["splitDefinition", EntityName.splitDefinition],
    ["mentionWords", EntityName.mentionWords],
    ["paperKeys", EntityName.paperKeys],
    ["EntityCache.normalizeLabel", EntityCache.normalizeLabel],
    ["EntityCache.keyOf", EntityCache.keyOf],
    ["EntityCache.entityIri", EntityCache.entityIri]
  ]
  for (const [name, clean] of cleaners) {
    it(`${name} runs in well under a second on each (budget ${BUDGET_MS} ms for loaded machines)`, () => {
      for (const [what, label] of hostileLabels) {
        expect(timed(() => clean(label)), `${name} on ${what}`).toBeLessThan(BUDGET_MS)
      }
    }, 120_000)
  }

  it("property: cleanLabel on random long strings of a hostile alphabet stays fast", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(alphabet, fc.integer({ min: 1, max: 20_000 })), { minLength: 1, maxLength: 20 }), (runs) => {
        const label = runs.map(([c, n]) => c.repeat(n)).join("")
        expect(timed(() => EntityName.cleanLabel(label))).toBeLessThan(BUDGET_MS)
      }),
      { numRuns: 40 }
    )
  }, 120_000)
})

describe("the wink NlpService on one long word", () => {
  // wink's tokenizer is quadratic in a token's length (64 K characters took 20 s): long runs are broken first.
  const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
  it("tokenizes and chunks 200 KB without whitespace in bounded time, offsets into the original text", () => {
    nlp.tokenize("warm up")
    const word = "x".repeat(150_000) + "é".repeat(50_000)
    const started = performance.now()
    const tokens = nlp.tokenize(word)
    const chunks = nlp.chunkText(word, { maxTokens: 512, overlapTokens: 100 })
    expect(performance.now() - started).toBeLessThan(BUDGET_MS * 2)
    expect(tokens.length).toBeGreaterThan(1_000)
    for (const t of tokens.slice(0, 50)) expect(word.slice(t.start, t.end)).toBe(t.text)
    for (const c of chunks) expect(word.slice(c.start, c.end)).toBe(c.text)
    // Prose is untouched: the same tokens as before.
    expect(nlp.tokenize("Dropout reduces overfitting.").map((t) => t.text)).toEqual(["Dropout", "reduces", "overfitting", "."])
  }, 120_000)
})
