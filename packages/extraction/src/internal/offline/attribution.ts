/**
 * Whose finding is a sentence? A sentence that reports another work (a
 * citation marker or "X et al." as the source of the finding, or background
 * stated with a citation and no first-person voice) is a *reported* claim,
 * attributed to the cited work; a sentence in the paper's own voice ("we",
 * "our", "this paper", "here") is the paper's own, whatever it cites.
 *
 * @internal
 */

/**
 * Citation markers: `{{cite:key}}`, `[12]`, `[3, 5-7]`, `(Smith et al., 2019)`, `(Smith and Lee 2020; ...)`, a
 * converter's `[reference]` placeholder (not after "Table", "Fig.", "Section", ...: a cross-reference) and a BibTeX key
 * left in the text (`huang2016stochasticdepth`). A list of cross-references ("Fig. [reference], [reference] and [reference]",
 * "Eqn. ([reference])") is not a citation.
 */
const CITE = /\{\{cite:([^}]*)\}\}|(?<!(?:[Tt]ables?|[Ff]ig(?:ure)?s?\.?|[Ss]ec(?:tion)?s?\.?|[Ee]q(?:uation)?n?s?\.?|[Aa]ppendi(?:x|ces)|[Aa]lgorithms?|[Ll]ines?|§)\s*\(?(?:\[reference\][\s,;&–-]*(?:and|to)?\s*)*)\[reference\]|\b[a-z]{2,}(?:19|20)\d{2}[a-z]{2,}\b|\[\s*\d+(?:\s*[,–-]\s*\d+)*\s*\]|\((?:see\s+)?[A-Z][A-Za-z'-]+(?:\s+et al\.?|\s+(?:and|&)\s+[A-Z][A-Za-z'-]+)?,?\s+\d{4}[a-z]?(?:\s*;\s*[A-Z][A-Za-z'-]+(?:\s+et al\.?|\s+(?:and|&)\s+[A-Z][A-Za-z'-]+)?,?\s+\d{4}[a-z]?)*\)/g

/** "X et al." or "X and Y" used as a name of a work, optionally with a year. */
const ET_AL = /\b((?:[A-Z][A-Za-z'-]+\s+){0,1}[A-Z][A-Za-z'-]+\s+et\s+al\.?(?:\s*\(?\d{4}[a-z]?\)?)?)/

/** Verbs with which a cited source states a finding. */
const REPORTING_VERB =
  /\b(show|shows|showed|shown|find|finds|found|observe|observes|observed|report|reports|reported|demonstrate|demonstrates|demonstrated|argue|argues|argued|suggest|suggests|suggested|note|notes|noted|propose|proposes|proposed|reveal|reveals|revealed|conclude|concludes|concluded|establish|establishes|established|prove|proves|proved|confirm|confirms|confirmed|claim|claims|claimed|point(?:s|ed)? out)\b/i

/** The paper's own voice. */
const OWN_VOICE =
  /\b(we|our|ours|us|this (?:paper|work|study|article|thesis|letter|report)|the present (?:paper|work|study)|here(?:in)?|in this (?:section|paper|work))\b/i

/** Phrases that attribute a statement to earlier work without naming it. */
const PRIOR_WORK =
  /^(?:(?:it )?(?:has|had) (?:been|also been) (?:shown|found|reported|observed|demonstrated|suggested|argued|noted|established|proposed)|(?:previous|prior|earlier|recent|several|many|other|existing|related) (?:work|works|studies|research|papers|authors|literature|experiments|results|findings)|according to\b|as (?:shown|reported|observed|noted|demonstrated|found|suggested|argued|discussed) (?:by|in)\b)/i

/** `ET_AL`'s own words: a sentence without them has no "X et al." (tested first: a plain scan). */
const ET_AL_WORDS = /et\s+al/

/**
 * Whether `CITE` can match: each of its markers has `{{cite:`, `[reference]` or an ASCII digit (a year, a number, a
 * BibTeX key's year), so a sentence with none of them has no citation (checked first: most sentences have none).
 */
const mayCite = (sentence: string): boolean => {
  if (sentence.includes("{{cite:") || sentence.includes("[reference]")) return true
  for (let i = 0; i < sentence.length; i++) {
    const c = sentence.charCodeAt(i)
    if (c >= 48 && c <= 57) return true
  }
  return false
}

const citeKey = (m: RegExpMatchArray): string => {
  if (m[1] !== undefined) return m[1].trim() === "" ? "cited work" : `cite:${m[1].trim()}`
  return m[0].replace(/^\(\s*(?:see\s+)?/, "").replace(/\s*\)$/, "").trim()
}

/**
 * The work a sentence attributes its finding to, or `null` when it is the
 * paper's own (or states no source). `sentence` is the raw sentence, with
 * its citation markers.
 */
export const attributionOf = (sentence: string): string | null => {
  const cites = mayCite(sentence) ? Array.from(sentence.matchAll(CITE)) : []
  const etAl = ET_AL_WORDS.test(sentence) ? ET_AL.exec(sentence) : null
  const own = OWN_VOICE.test(sentence)
  // "He et al. observed that ...", "Smith et al. (2019) show ...": a named work as the subject of a reporting verb
  if (etAl !== null) {
    const after = sentence.slice((etAl.index ?? 0) + etAl[0].length, (etAl.index ?? 0) + etAl[0].length + 80)
    const subjectUse = REPORTING_VERB.test(after.split(/[,;:]/)[0] ?? "") || /^\s*(?:\{\{cite:[^}]*\}\}\s*)?(?:\(\d{4}\)\s*)?(?:have|has|had|also|further|first|recently|previously)?\s*\w+(?:ed|s)\b/.test(after)
    if (subjectUse || !own) return etAl[1]!.replace(/\s+/g, " ").trim()
  }
  if (cites.length === 0) {
    // "Previous studies have shown that ..." with no marker: earlier work, unnamed
    return !own && PRIOR_WORK.test(sentence.trim()) ? "earlier work (unnamed)" : null
  }
  const first = cites[0]!
  const leading = sentence.slice(0, first.index ?? 0).trim()
  // "[12] showed that ...", "{{cite:x}} found ...": the citation is the subject
  if (leading.length === 0 || /^(?:in|as in|following|according to|see)$/i.test(leading)) return citeKey(first)
  // a statement resting on a citation, in no voice of the paper's own: background from the cited work
  return own ? null : citeKey(first)
}
