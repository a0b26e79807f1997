/**
 * Close wording: a *related* link between two statements the finding reader could not align (no subject and outcome
 * both named), when they say much the same thing in the same technical terms. SciFact's claims are often a cited
 * abstract's sentence reworded ("Adult tissue-resident macrophages are seeded before birth" / "major tissue-resident
 * macrophage populations ... are established prior to birth"); the finding reader, which needs a subject and an
 * outcome it can name in both, misses most of them.
 *
 * Trust first: two statements about one topic share words too ("Median follow-up was 6.3 years" / "During 21 046
 * person-years of follow-up (median follow-up, 6.3 years)"; "the baseline strategy of copying unknown words works well
 * for English→German" / "The English dictionary has words while the German has words"). So the link needs
 *
 * - the specificity-weighted cosine of their content stems (`ClaimIdentity.subjectOverlap`, the linker's `subject`
 *   signal: the store's own inverse claim frequency, so a word every claim of the store uses weighs little) at least
 *   `relatedWording`, and
 * - at least {@link MIN_TERMS} shared *terms*, or one rare in the store ({@link RARE_TERM_WEIGHT}): stems that are
 *   specific in the store (weight at least {@link TERM_WEIGHT}) and that neither sentence writes as a common word of
 *   general English (`common-words.json`, the 20,000 most frequent words of wink's corpus: `scripts/gen-common-words.ts`). "bariatric", "pylori",
 *   "ResNet-50", "pooling" are terms; "German", "loss", "median", "follow-up", "quality of life" are not, however
 *   rare in one store.
 *
 * It is a related link (the signals `related: "wording"` and `relatedTo`, the shared terms): visible with its
 * signals, never a same-finding candidate, never counted by a status.
 *
 * @internal
 */
import commonWords from "./common-words.json" with { type: "json" }
import { memoByText } from "@kg/core/Memo"
import { stem } from "../nli/rules.js"
import { stemWords } from "./identityText.js"

/** Shared terms a close-wording link needs. */
export const MIN_TERMS = 2


/**
 * The least store specificity (`ClaimIdentity.specificity`: `log((n + 101) / (df + 1))`) of a term: about one claim
 * in 20 of a store of a thousand claims, one in 3 of a store of a hundred.
 */
export const TERM_WEIGHT = 3

/** The common words as a set, built on first use (not when a command that only imports the linker starts). */
let common: ReadonlySet<string> | undefined
/** The words ranked after the common ones, to `commonWords.known`: general English all the same. */
let lessCommon: ReadonlySet<string> | undefined

/** Whether a lower-cased word is a common word of general English (as written, or without its hyphens). */
export const isCommonWord = (word: string): boolean => {
  common ??= new Set(commonWords.words.split(" "))
  return common.has(word) || common.has(word.replace(/-/g, ""))
}

/**
 * Whether a lower-cased word is a word of general English at all: among the 40,000 most frequent words of wink's
 * corpus ("coarse", "placebo", "randomized", "migraine" are; "mitochondria", "bariatric", "hypospadias" are not).
 */
export const isKnownWord = (word: string): boolean => {
  if (isCommonWord(word)) return true
  lessCommon ??= new Set(commonWords.lessCommon.split(" "))
  return lessCommon.has(word) || lessCommon.has(word.replace(/-/g, ""))
}

/**
 * The least store specificity of a term that is enough alone (instead of {@link MIN_TERMS}): a word at most about one
 * claim in 150 uses ("bariatric", "semaglutide", "hypospadias" in a store of 1,500 claims; no word of a store of 150
 * claims or fewer reaches it, so a small store keeps the two-term rule).
 */
export const RARE_TERM_WEIGHT = 5

/**
 * Whether the shared terms of two statements (most specific first, from {@link sharedTerms}) are enough for a
 * close-wording link: two or more, or one that is rare in the store ({@link RARE_TERM_WEIGHT}) and written as no
 * word of general English in either sentence ({@link isKnownWord}): "hypospadias", "semaglutide", "mitochondria",
 * not "coarse" ("FINE annotations have lower variance than COARSE annotations" / "Training with both fine and coarse
 * data boosts mIoU"), "randomized" or "placebo".
 */
export const enoughTerms = (
  a: string,
  b: string,
  terms: ReadonlyArray<string>,
  weight: (stem: string) => number
): boolean => {
  if (terms.length >= MIN_TERMS) return true
  if (terms.length !== 1 || weight(terms[0]!) < RARE_TERM_WEIGHT) return false
  const forms = [...(formsByStem(a).get(terms[0]!) ?? []), ...(formsByStem(b).get(terms[0]!) ?? [])]
  return forms.length > 0 && !forms.some(isKnownWord)
}

/**
 * The stems of a text with the word forms that write them (lower-cased), for the term test: a stem is a term of a pair
 * only if no form of it in either sentence is a common word ("transplantation" and "transplant" are one stem).
 */
export const formsByStem: (text: string) => ReadonlyMap<string, ReadonlyArray<string>> = memoByText((text) => {
  const out = new Map<string, Array<string>>()
  for (const w of stemWords(text)) {
    if (w.length < 2 || /^\d+(?:[.,]\d+)?$/.test(w)) continue
    const s = stem(w)
    const forms = out.get(s)
    if (forms === undefined) out.set(s, [w])
    else if (!forms.includes(w)) forms.push(w)
  }
  return out
}, 20_000)

/**
 * The shared terms of two statements, most specific first: stems both use (`stemsA` / `stemsB`, the linker's stems
 * of each claim) whose store weight is at least {@link TERM_WEIGHT} and that neither sentence writes as a common word.
 */
export const sharedTerms = (
  a: string,
  b: string,
  stemsA: ReadonlySet<string>,
  stemsB: ReadonlySet<string>,
  weight: (stem: string) => number
): ReadonlyArray<string> => {
  const fa = formsByStem(a), fb = formsByStem(b)
  const out: Array<string> = []
  for (const s of stemsA) {
    if (!stemsB.has(s) || weight(s) < TERM_WEIGHT) continue
    const forms = [...(fa.get(s) ?? []), ...(fb.get(s) ?? [])]
    // a stem only an abbreviation's expansion adds (no form in either sentence) is not read as a term here
    if (forms.length === 0 || forms.some(isCommonWord)) continue
    out.push(s)
  }
  return out.sort((x, y) => weight(y) - weight(x) || (x < y ? -1 : x > y ? 1 : 0))
}

/**
 * The terms a close-wording link names: the shared terms as the sentences write them, case kept (at most three); a term
 * the first sentence only reaches through an abbreviation is written as the second writes it.
 */
export const termNames = (a: string, terms: ReadonlyArray<string>, b = ""): string => {
  const fa = formsByStem(a), fb = formsByStem(b)
  const written = (form: string, text: string): string => {
    const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "iu").exec(text)?.[0] ?? form
  }
  return terms.slice(0, 3).map((s) => {
    const inA = fa.get(s)?.[0]
    if (inA !== undefined) return written(inA, a)
    const inB = fb.get(s)?.[0]
    return inB === undefined ? s : written(inB, b)
  }).join(", ")
}
