/**
 * Text and vector helpers of claim identity: content-word stems, set
 * overlaps and cosine similarity. Shared by identity, domain tags, the
 * linker's blocking and the graph queries.
 *
 * @internal
 */
import { stem } from "../nli/rules.js"
import { memoByText } from "@kg/core/Memo"

/** Function words and scientific filler that say nothing about what a claim is about. */
const STOP = new Set([
  "a", "an", "the", "of", "in", "on", "for", "to", "and", "or", "with", "by", "at", "from", "as", "is", "are", "was",
  "were", "be", "been", "being", "that", "this", "these", "those", "it", "its", "their", "them", "they", "which",
  "who", "whom", "whose", "than", "then", "we", "our", "us", "has", "have", "had", "having", "can", "could", "may",
  "might", "must", "shall", "should", "will", "would", "also", "such", "into", "onto", "between", "among", "both",
  "not", "no", "nor", "all", "any", "each", "every", "other", "another", "some", "most", "very", "there", "here",
  "after", "before", "during", "when", "where", "while", "whereas", "however", "thus", "therefore", "hence", "so",
  "but", "if", "because", "since", "although", "though", "do", "does", "did", "done", "via", "per", "about", "over",
  "under", "up", "down", "out", "off", "only", "just", "yet", "still", "even", "much", "many", "more", "less", "few",
  "further", "i", "you", "he", "she", "his", "her", "one", "two", "three", "first", "second", "new", "well", "whether",
  "what", "how", "why", "within", "without", "across", "through", "upon", "toward", "towards", "against", "n't",
  "paper", "work", "study", "studies", "show", "shows", "showed", "shown", "demonstrate", "demonstrates",
  "demonstrated", "find", "finds", "found", "result", "results", "suggest", "suggests", "suggested", "indicate",
  "indicates", "indicated", "report", "reports", "reported", "observe", "observed", "propose", "proposed",
  "present", "presented", "approach", "method", "methods", "use", "used", "using", "based", "et", "al", "eg", "ie",
  // placeholders and cross-references left by PDF / LaTeX conversion ("[formula]", "Eq. (REF)", "{{cite:...}}")
  "formula", "formulas", "ref", "refs", "cite", "citation", "eq", "eqs", "equation", "fig", "figs", "figure", "figures",
  "table", "tables", "section", "sections", "appendix", "ie", "cf", "resp", "respectively"
])

/** Lower-cased word tokens (keeps inner hyphens and apostrophes). */
export const words = (text: string): ReadonlyArray<string> =>
  text.toLowerCase().match(/[\p{L}\p{N}]+(?:[-'][\p{L}\p{N}]+)*/gu) ?? []

/**
 * Memo of {@link contentStems} by text: linking compares each claim (and its finding's parts) with many others,
 * and a run stems the same texts again and again (issue 23). Bounded: cleared past `STEMS_MEMO` entries. The sets
 * handed out are shared: callers never change them (they are typed `ReadonlySet`).
 */
/** The distinct content-word stems of a text (remembered: `@kg/core/Memo`). */
export const contentStems: (text: string) => ReadonlySet<string> = memoByText((text) => computeStems(text), 100_000)

/** Greek letters by name, so that "IFN-γ" and "IFN-gamma", "TNF-α" and "TNF-alpha" are one word. */
const GREEK: Readonly<Record<string, string>> = {
  α: "alpha", β: "beta", γ: "gamma", δ: "delta", ε: "epsilon", ζ: "zeta", η: "eta", θ: "theta", ι: "iota", κ: "kappa",
  λ: "lambda", μ: "mu", ν: "nu", ξ: "xi", π: "pi", ρ: "rho", σ: "sigma", ς: "sigma", τ: "tau", υ: "upsilon", φ: "phi",
  χ: "chi", ψ: "psi", ω: "omega"
}

/** {@link words} with each Greek letter written by its name: the words a statement's stems are read from. */
export const stemWords = (text: string): ReadonlyArray<string> => words(text.replace(/[α-ω]/g, (g) => GREEK[g] ?? g))

const computeStems = (text: string): ReadonlySet<string> => {
  const out = new Set<string>()
  for (const w of stemWords(text)) {
    if (STOP.has(w) || w.length < 2 || /^\d+(?:[.,]\d+)?$/.test(w)) continue
    out.add(stem(w))
  }
  return out
}

/** |A ∩ B|. */
export const intersectionSize = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  let n = 0
  for (const x of small) if (large.has(x)) n++
  return n
}

/** Jaccard similarity |A ∩ B| / |A ∪ B| (0 when both are empty). */
export const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  if (a.size === 0 && b.size === 0) return 0
  const i = intersectionSize(a, b)
  return i / (a.size + b.size - i)
}

/** Overlap coefficient |A ∩ B| / min(|A|, |B|) (0 when either is empty). */
export const overlapCoefficient = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  if (a.size === 0 || b.size === 0) return 0
  return intersectionSize(a, b) / Math.min(a.size, b.size)
}

/** Cosine similarity; null when either vector is missing, of another width, or zero. */
export const cosine = (
  a: ArrayLike<number> | null | undefined,
  b: ArrayLike<number> | null | undefined
): number | null => {
  if (a == null || b == null || a.length !== b.length || a.length === 0) return null
  let dot = 0, na = 0, nb = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!, y = b[i]!
    dot += x * y
    na += x * x
    nb += y * y
  }
  if (na === 0 || nb === 0) return null
  return dot / Math.sqrt(na * nb)
}

/** Clamp to [0, 1]. */
export const unit = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0)

/** Round to 4 decimals (stable JSON of signals). */
export const round4 = (x: number): number => Math.round(x * 10000) / 10000
