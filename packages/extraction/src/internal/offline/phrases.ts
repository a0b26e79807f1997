/**
 * Base noun phrases from part-of-speech tags, and their ontology types.
 *
 * Tokens joined by `-` or `/` without spaces form one word ("BERT-based",
 * "state-of-the-art"); a phrase is a maximal run of adjectives, nouns, proper
 * nouns, numbers after a name, and participle modifiers, ending in a noun or a
 * proper noun. Evaluative adjectives are stripped from its front; a following
 * "(ACRONYM)" is kept inside the span and the acronym recorded as an alias.
 *
 * @internal
 */
import { abbreviationMatch, isOutputPlural } from "@kg/core/EntityName"
import type { Token } from "@kg/core/NlpService"
import {
  datasetHeads,
  evaluativeModifiers,
  genericHeads,
  languageNames,
  materialHeads,
  methodHeads,
  metricHeads,
  metricNames,
  metricPhrases,
  nominalGerunds,
  normalisedParts,
  type OfflineEntityType,
  relationalParticiples,
  taskHeads,
  unitPattern,
  verbLikeNouns
} from "./lexicon.js"
import { normalizeLabel, overlapsAny, singular, type Span } from "./text.js"
import { contextType } from "./types.js"

/** A word: one token, or several tokens joined by `-` or `/` without spaces. */
export interface Word {
  readonly text: string
  readonly lower: string
  readonly lemma: string
  readonly start: number
  readonly end: number
  /** Universal POS tag; `NOISE` for markup, `NUM` for numbers. */
  readonly pos: string
  readonly negated: boolean
}

/** A noun phrase mention in a sentence: word indices `[first, last]` and its source span. */
export interface Mention {
  readonly first: number
  readonly last: number
  readonly start: number
  readonly end: number
  /** Exact source text of the span. */
  readonly label: string
  readonly norm: string
  readonly type: OfflineEntityType
  readonly aliases: ReadonlyArray<string>
  /** Single generic head ("method", "it"): kept for relation context, never emitted. */
  readonly generic: boolean
  /** Whether the type is decided, by the phrase's words or by its context (else it is a guess). */
  readonly strong?: boolean
  /** Whether the context decided the type. */
  readonly byContext?: boolean
}

const joiners = new Set(["-", "/", "–"])

/** A function word glued by a hyphen to the rest of a dropped formula or number ("the-th", "a-dimensional"). */
const STRIPPED_FORMULA = /^(?:[Tt]he|an?|and|or|[Tt]his|[Oo]ur|[Ii]ts|[Tt]heir|[Ee]ach|[Ee]very)-[a-z]/

/**
 * Groups tokens into words. Tokens overlapping a noise span become `NOISE`
 * words, which break phrases.
 */
export const toWords = (tokens: ReadonlyArray<Token>, noise: ReadonlyArray<Span>): Array<Word> => {
  const words: Array<Word> = []
  let i = 0
  while (i < tokens.length) {
    const t = tokens[i]!
    if (overlapsAny(noise, t.start, t.end)) {
      let j = i
      while (j + 1 < tokens.length && overlapsAny(noise, tokens[j + 1]!.start, tokens[j + 1]!.end)) j++
      const last = tokens[j]!
      words.push({ text: "", lower: "", lemma: "", start: t.start, end: last.end, pos: "NOISE", negated: false })
      i = j + 1
      continue
    }
    // extend over `-`/`/` joiners glued on both sides, and over glued
    // alphanumeric pieces ("3" + "d")
    let j = i
    for (;;) {
      const cur = tokens[j]!
      const next = tokens[j + 1]
      const after = tokens[j + 2]
      // both joins need the next token glued to this one (tested first: most tokens have a space after them)
      if (next === undefined || next.start !== cur.end) break
      const alnumEnd = /[\p{L}\p{N}]$/u.test(cur.text)
      if (
        next !== undefined && after !== undefined && joiners.has(next.text) && next.start === cur.end &&
        after.start === next.end && alnumEnd && /^[\p{L}\p{N}]/u.test(after.text) &&
        !overlapsAny(noise, after.start, after.end)
      ) j += 2
      else if (
        next !== undefined && next.start === cur.end && alnumEnd && /^[\p{L}\p{N}]/u.test(next.text) &&
        !overlapsAny(noise, next.start, next.end)
      ) j += 1
      else break
    }
    // a `+` (or `++`) glued to the end of a word is part of its name: `DeepLabv3+` is a version of its own, not the
    // `DeepLabv3` it improves; `C++` (not when a word follows glued: `BERT+CRF` names two)
    let plusEnd = j
    while (/[\p{L}\p{N}+]$/u.test(tokens[plusEnd]!.text)) {
      const plus = tokens[plusEnd + 1]
      if (plus === undefined || plus.start !== tokens[plusEnd]!.end || !/^\+{1,2}$/u.test(plus.text)) break
      const after = tokens[plusEnd + 2]
      if (after !== undefined && after.start === plus.end && /^[\p{L}\p{N}]/u.test(after.text)) break
      if (overlapsAny(noise, plus.start, plus.end)) break
      plusEnd += 1
    }
    const named = plusEnd > j ? j : -1
    j = plusEnd
    if (j === i) {
      words.push({
        text: t.text,
        lower: t.text.toLowerCase(),
        lemma: t.lemma.toLowerCase(),
        start: t.start,
        end: t.end,
        pos: t.kind === "number" ? "NUM" : STRIPPED_FORMULA.test(t.text) ? "NOISE" : t.pos,
        negated: t.negated
      })
    } else {
      const parts = tokens.slice(i, j + 1)
      // (the word's kind is its last part's before a glued `+`)
      const lastPart = named >= 0 ? tokens[named]! : parts[parts.length - 1]!
      const text = parts.map((p) => p.text).join("")
      const anyProper = parts.some((p) => p.pos === "PROPN")
      const pos = lastPart.pos === "NOUN" || lastPart.pos === "PROPN" || lastPart.pos === "X"
        ? (anyProper ? "PROPN" : "NOUN")
        : lastPart.pos === "NUM" || lastPart.kind === "number"
        ? (anyProper || /^[A-Z]/.test(text) ? "PROPN" : "ADJ")
        : "ADJ"
      words.push({
        text,
        lower: text.toLowerCase(),
        lemma: named >= 0 ? text.toLowerCase() : parts.slice(0, -1).map((p) => p.text.toLowerCase()).join("") + lastPart.lemma.toLowerCase(),
        start: t.start,
        end: parts[parts.length - 1]!.end,
        // "the-th step", "a-dimensional vector", "the-layer ResNet": a function word glued to what is left of a
        // formula or number the source dropped ("the $i$-th", "a $d$-dimensional", "the 110-layer") is no name part
        pos: STRIPPED_FORMULA.test(text) ? "NOISE" : pos,
        negated: parts.some((p) => p.negated)
      })
    }
    i = j + 1
  }
  return fixVerbLikeNouns(words)
}

const determiners = new Set(["the", "a", "an", "these", "those", "their", "its", "our", "his", "her", "this", "that", "each", "every"])

/**
 * Repairs frequent tagging errors of the lite model on scientific prose:
 * - "systems use a language model", "the parser skips that portion": a
 *   noun-tagged verb form after a noun and before a determiner is a verb;
 * - "the paraphrases produced": a verb-tagged word after a determiner is a
 *   noun (participles excepted).
 */
const fixVerbLikeNouns = (words: Array<Word>): Array<Word> =>
  words.map((w, i) => {
    const prev = words[i - 1]
    const next = words[i + 1]
    if (w.pos === "VERB" && prev !== undefined && determiners.has(prev.lower) && !/(ed|ing)$/.test(w.lower)) {
      return { ...w, pos: "NOUN" }
    }
    if (w.pos !== "NOUN" || w.text !== w.lower) return w
    const prevNominal = prev !== undefined && (prev.pos === "NOUN" || prev.pos === "PROPN" || prev.pos === "PRON")
    if (verbLikeNouns.has(w.lower)) {
      const nextStartsNp = next !== undefined &&
        ["DET", "ADJ", "NUM", "PRON", "NOUN", "PROPN", "ADP", "SCONJ"].includes(next.pos)
      return prevNominal && nextStartsNp ? { ...w, pos: "VERB" } : w
    }
    if (
      /[^s]s$/.test(w.lower) && prev !== undefined && (prev.pos === "NOUN" || prev.pos === "PROPN") &&
      !/s$/.test(prev.lower) && next !== undefined && determiners.has(next.lower)
    ) return { ...w, pos: "VERB" }
    return w
  })

const unitWord = new RegExp(`^(${unitPattern})$`)

/**
 * Where the long form of `acronym` starts, for a phrase `words[first..last]` followed by "(acronym)": `first` when
 * the acronym abbreviates the phrase or its last words (Schwartz-Hearst), an earlier word when it needs up to six
 * words just before the phrase within the clause, each giving one of its letters (no comma, colon, semicolon, bracket or full stop among them), else
 * -1.
 */
const definedStart = (words: ReadonlyArray<Word>, first: number, last: number, acronym: string, source: string): number => {
  if (abbreviationMatch(acronym, source.slice(words[first]!.start, words[last]!.end)) !== null) return first
  let lo = first
  while (lo > 0 && first - lo < 6 && !/^[,;:.!?()[\]]$/u.test(words[lo - 1]!.text)) lo--
  if (lo === first) return -1
  const end = words[last]!.end
  const long = abbreviationMatch(acronym, source.slice(words[lo]!.start, end))
  if (long === null) return -1
  // reaching back, the long form's words must give the acronym's letters one by one ("Empirical Methods in Natural
  // Language Processing" is E M N L P; small words such as "in", "over" may be skipped)
  const letters = acronym.replace(/[^\p{L}]/gu, "").toLowerCase()
  const initials = long.split(/[\s-]+/u).filter((w) => w !== "" && !SMALL_WORDS.has(w.toLowerCase())).map((w) => w[0]!.toLowerCase()).join("")
  if (initials !== letters) return -1
  const at = end - long.length
  for (let i = lo; i < first; i++) if (words[i]!.start === at) return i
  return -1
}

/** Words an acronym may skip in its long form. */
const SMALL_WORDS = new Set(["of", "over", "in", "and", "the", "for", "to", "on", "with", "a", "an", "by", "from"])

const isAcronym = (s: string): boolean =>
  s.length >= 2 && s.length <= 12 && /^[A-Z][A-Za-z0-9-]*$/.test(s) && (s.match(/[A-Z]/g) ?? []).length >= 2

const isNominal = (w: Word): boolean => w.pos === "NOUN" || w.pos === "PROPN"

const isParticipleModifier = (words: ReadonlyArray<Word>, i: number): boolean => {
  const w = words[i]!
  if (w.pos !== "VERB" || relationalParticiples.has(w.lower)) return false
  if (!/(ing|ed)$/.test(w.lower)) return false
  const next = words[i + 1]
  const prev = words[i - 1]
  const nextNominalish = next !== undefined && (isNominal(next) || next.pos === "ADJ")
  if (w.lower.endsWith("ed")) {
    // "annotated corpus": needs a determiner/adjective/start before, not a subject noun
    return nextNominalish && (prev === undefined || prev.pos === "DET" || prev.pos === "ADJ" || prev.pos === "ADP" ||
      prev.pos === "PUNCT" || prev.pos === "CCONJ")
  }
  // "-ing": "machine learning approach", "learning rate"
  if (nextNominalish) return true
  // as a head after a noun: "machine learning", "language processing"
  return nominalGerunds.has(w.lower) && prev !== undefined && isNominal(prev) &&
    (next === undefined || !["DET", "PRON", "ADJ", "NUM"].includes(next.pos))
}

const canJoin = (words: ReadonlyArray<Word>, i: number, inPhrase: boolean): boolean => {
  const w = words[i]!
  if (w.pos === "NOISE") return false
  if (w.pos === "NOUN" || w.pos === "PROPN" || w.pos === "ADJ") {
    return !(w.lower === "'s" || w.lower === "et" || w.lower === "al")
  }
  if (w.pos === "X" && /^[A-Z][A-Za-z0-9-]+$/.test(w.text)) return true
  if (w.pos === "NUM") {
    // "WMT 2014", "Section 3": a number only continues a proper noun
    const prev = words[i - 1]
    return inPhrase && prev !== undefined && prev.pos === "PROPN" && /^\d{1,4}$/.test(w.text)
  }
  return isParticipleModifier(words, i)
}

const canEnd = (w: Word): boolean =>
  (isNominal(w) && !relationalParticiples.has(w.lower)) || (w.pos === "X" && /^[A-Z]/.test(w.text)) ||
  (w.pos === "NUM") || (w.pos === "VERB" && nominalGerunds.has(w.lower))

/** Agent nouns of tools: "segmenter", "summarizer", "estimator". */
const agentNoun =
  /(izer|iser|yzer|yser|ifier|ator|coder|parser|tagger|learner|ranker|tracker|checker|matcher|solver|planner|scheduler|detector|predictor|extractor|selector|segmenter|processor|controller|handler|adapter|sampler|builder|converter|transformer|linker|miner|stemmer|chunker|lemmatizer|analy[sz]er|recogni[sz]er|retriever|reranker|encoder|decoder|compiler|interpreter|simulator|optimi[sz]er)s?$/

const metricNameSet = new Set(metricNames.filter((m) => m !== m.toLowerCase()))

/** The ontology type of a phrase, from its head word and lexical cues. */
export const phraseType = (
  words: ReadonlyArray<Word>,
  cues: ReadonlyMap<string, OfflineEntityType>
): OfflineEntityType => phraseTyping(words, cues).type

/**
 * The ontology type of a phrase and whether its words decide it (`strong`: a
 * cue, a metric name, a head that names the kind), or only guess it (an
 * acronym or a capitalised name of no known head, `CIFAR-10`, `SliceNet`:
 * then the mention's context decides, `offline/types.contextType`).
 */
export const phraseTyping = (
  words: ReadonlyArray<Word>,
  cues: ReadonlyMap<string, OfflineEntityType>
): { readonly type: OfflineEntityType; readonly strong: boolean } => {
  const strong = (type: OfflineEntityType) => ({ type, strong: true })
  const phrase = normalizeLabel(words.map((w) => w.text).join(" "))
  const byPhrase = cues.get(phrase)
  if (byPhrase !== undefined) return strong(byPhrase)
  const head = words[words.length - 1]!
  // a hyphenated head is also its last part (`re-identification`, `sequence-to-sequence`)
  const part = /-(\p{L}{4,})$/u.exec(head.lower)?.[1]
  const headKeys = [head.lower, head.lemma, singular(head.lower), ...(part === undefined ? [] : [part, singular(part)])]
  for (const k of headKeys.slice(0, 3)) {
    const c = cues.get(k)
    if (c !== undefined) return strong(c)
  }
  if (metricPhrases.has(phrase)) return strong("Metric")
  if (metricNameSet.has(head.text)) return strong("Metric")
  const has = (set: ReadonlySet<string>) => headKeys.some((k) => set.has(k))
  if (has(metricHeads)) return strong("Metric")
  if (has(datasetHeads)) return strong("Dataset")
  // a normalisation of a network's parts is a technique (`batch normalization`, `layer-normalization`), not a task
  const normalised = /^(?:(.+)-)?normali[sz]ations?$/u.exec(head.lower)
  if (normalised !== null && normalisedParts.has(normalised[1] ?? words[words.length - 2]?.lower ?? "")) return strong("Method")
  // a task word's bare plural names the task's outputs (`All translations are decoded`, `invariance to small
  // translations`), not the task: no vote for a kind
  if (words.length === 1 && isOutputPlural(head.lower)) return { type: "Concept", strong: false }
  if (has(taskHeads)) return strong("Task")
  if (has(methodHeads)) return strong("Method")
  if (has(materialHeads) || has(languageNames)) return strong("Material")
  if (words.length === 1 && isAcronym(head.text)) return { type: ACRONYM_DEFAULT, strong: false }
  // derivational suffixes of unknown heads: agents are methods ("tagger",
  // "estimator"), "-ing" compounds are tasks ("word sense tagging")
  const h = head.lower
  if (agentNoun.test(h)) return strong("Method")
  if (/(ism|isms)$/.test(h)) return strong("Method")
  if (h.endsWith("ing") && words.length > 1) return { type: "Task", strong: false }
  return { type: "Concept", strong: false }
}

/** The type of an acronym whose context says nothing (`Concept`: no evidence, so no vote for a kind). */
const ACRONYM_DEFAULT: OfflineEntityType = "Concept"

/** Words a data set's name is followed by before a citation key repeats the name ("ImageNet dataset imagenet"). */
const DATA_SET_WORDS = new Set(["dataset", "datasets", "data", "set", "corpus", "benchmark", "challenge"])

/** Whether `word` names again what `earlier` names: the same word, or the part before a version ("CIFAR" after "CIFAR-100"). */
const namesAgain = (earlier: Word, word: Word): boolean =>
  earlier.lower === word.lower || earlier.lower.startsWith(`${word.lower}-`)

/**
 * Whether `words[k]` repeats the name just before it in the phrase that starts at `first`: right after it, or after
 * one data-set word. Only nouns and names, two letters or more ("Network in Network" is no repeat: "in" between).
 */
const repeatsName = (words: ReadonlyArray<Word>, first: number, k: number): boolean => {
  const w = words[k]!
  if (w.lower.length < 2 || !isNominal(w)) return false
  const prev = words[k - 1]!
  if (namesAgain(prev, w)) return true
  return k - 2 >= first && DATA_SET_WORDS.has(prev.lower) && namesAgain(words[k - 2]!, w)
}

/**
 * The noun phrase mentions of one sentence's words, left to right.
 */
export const chunkMentions = (
  source: string,
  words: ReadonlyArray<Word>,
  cues: ReadonlyMap<string, OfflineEntityType>
): Array<Mention> => {
  const out: Array<Mention> = []
  let i = 0
  while (i < words.length) {
    if (!canJoin(words, i, false) || words[i]!.pos === "NUM") {
      i++
      continue
    }
    let j = i
    while (j + 1 < words.length && canJoin(words, j + 1, true)) j++
    // "SVHN SVHN", "CIFAR-100 CIFAR", "ImageNet dataset imagenet": a name said again right after itself is a citation
    // key the source printed as a word (or a stutter); the phrase ends before it, and the words from the repeat to
    // the phrase's end start none ("ImageNet ImageNet benchmark" is ImageNet, not also a bare "benchmark")
    let skip = -1
    for (let k = i + 1; k <= j; k++) {
      if (repeatsName(words, i, k)) {
        skip = j + 1
        j = k - 1
        break
      }
    }
    // trim back to a word that can end a phrase
    let last = j
    while (last >= i && !canEnd(words[last]!)) last--
    let first = i
    // strip evaluative modifiers and leading numbers / participles from the front
    while (
      first < last &&
      (evaluativeModifiers.has(words[first]!.lower) || words[first]!.pos === "NUM" ||
        (words[first]!.lower.endsWith("ing") && !nominalGerunds.has(words[first]!.lower)))
    ) first++
    if (last >= first && evaluativeModifiers.has(words[first]!.lower) && first === last) first = last + 1
    // "the state of the art model": `art` ends the evaluative phrase "state of the art", it starts no name
    let stateOfTheArt = false
    for (;;) {
      if (first < last && words[first]!.lower === "state-of-the" && words[first + 1]!.lower === "art") first += 2
      else if (first <= last && isStateOfTheArt(words, first)) first++
      else break
      stateOfTheArt = true
    }
    // "state of the art model performance": the generic head after it is what is state of the art, no part of a name
    // (`model performance` is the performance of the state-of-the-art model)
    if (stateOfTheArt) while (first < last && genericHeads.has(words[first]!.lower)) first++
    // "95 GeV Higgs data": a unit after a number is not part of the phrase
    while (first <= last && first > 0 && words[first - 1]!.pos === "NUM" && unitWord.test(words[first]!.text)) first++
    if (last >= first && !(first === last && words[first]!.pos === "NUM")) {
      let end = last
      let aliases: Array<string> = []
      // "(ACRONYM)" right after the phrase, possibly followed by more nouns
      let defined = -1
      const open = words[end + 1]
      const acr = words[end + 2]
      const close = words[end + 3]
      if (
        open?.text === "(" && acr !== undefined && close?.text === ")" && isAcronym(acr.text) &&
        acr.text.toLowerCase() !== words[end]!.lower &&
        // the acronym abbreviates the phrase, or the phrase with words just before it that it left out
        // ("Empirical Methods in Natural Language Processing (EMNLP)" read as "Natural Language Processing"): the
        // phrase then starts where the long form does (a mention inside those words gives way); an acronym that
        // abbreviates neither is no alias of the phrase
        (defined = definedStart(words, first, last, acr.text, source)) >= 0
      ) {
        if (defined < first) {
          first = defined
          while (out.length > 0 && out[out.length - 1]!.last >= first) out.pop()
        }
        end += 3
        aliases = [acr.text]
        let k = end
        while (k + 1 < words.length && canJoin(words, k + 1, true) && isNominal(words[k + 1]!)) k++
        if (k > end) {
          end = k
          aliases = []
        }
      }
      const span = words.slice(first, end + 1)
      const core = aliases.length > 0 ? words.slice(first, last + 1) : span.filter((w) => w.text !== "(" && w.text !== ")")
      const startChar = words[first]!.start
      const endChar = words[end]!.end
      const label = source.slice(startChar, endChar)
      const norm = normalizeLabel(label)
      const head = words[last]!
      const generic = first === last && (genericHeads.has(head.lower) || genericHeads.has(head.lemma))
      if (norm.length > 1 || isAcronym(label)) {
        const typing = phraseTyping(core, cues)
        out.push({
          first,
          last: end,
          start: startChar,
          end: endChar,
          label,
          norm,
          type: typing.type,
          strong: typing.strong,
          aliases,
          generic
        })
      }
      i = end + 1
    } else {
      i = j + 1
    }
    if (skip > i) i = skip
  }
  return typedByContext(words, mergeTaskOf(source, words, mergeCoordinatedModifiers(source, words, out)))
}

/** Whether `words[i]` is the `art` of "state of the art" (or "state-of-the art"). */
const isStateOfTheArt = (words: ReadonlyArray<Word>, i: number): boolean =>
  words[i]!.lower === "art" &&
  ((words[i - 1]?.lower === "the" && words[i - 2]?.lower === "of" && words[i - 3]?.lower === "state") ||
    words[i - 1]?.lower === "state-of-the")

/** Words that name something: an acronym or a word with an inner capital or a digit, or only capitalised words. */
const isName = (words: ReadonlyArray<Word>): boolean => {
  const parts = words.filter((w) => /[\p{L}\p{N}]/u.test(w.text))
  return parts.length > 0 && (
    parts.some((w) => /^[\p{L}\p{N}]+\p{Lu}|^\p{Lu}{2}|\p{L}.*\p{N}|\p{N}.*\p{L}/u.test(w.text)) ||
    parts.every((w) => /^\p{Lu}/u.test(w.text))
  )
}

/** A weakly typed mention takes the type its context in the sentence gives (`offline/types.contextType`). */
const typedByContext = (words: ReadonlyArray<Word>, mentions: ReadonlyArray<Mention>): Array<Mention> => {
  const heads = new Map<number, Word>()
  for (const m of mentions) heads.set(m.first, words[m.last]!)
  const out: Array<Mention> = []
  for (const m of mentions) {
    // Only a name: the context of a common noun phrase says too little (`trained on features`, `8 categories`).
    if (m.strong !== false || !isName(words.slice(m.first, m.last + 1))) {
      out.push(m)
      continue
    }
    let byContext = contextType(words, m.first, m.last, heads)
    // `on SQuAD and TriviaQA`: a name coordinated after a name typed by its context is of that type
    const before = out[out.length - 1]
    const link = words[m.first - 1]
    if (
      byContext === undefined && before !== undefined && before.last === m.first - 2 && before.byContext === true &&
      link !== undefined && (link.lower === "and" || link.lower === "or" || link.text === ",")
    ) byContext = before.type
    out.push(byContext === undefined ? m : { ...m, type: byContext, strong: true, byContext: true })
  }
  return out
}

/**
 * "estimation of camera motion", "detection of 3D objects": a short task
 * nominalisation followed by "of" and a phrase is one task.
 */
const mergeTaskOf = (source: string, words: ReadonlyArray<Word>, mentions: ReadonlyArray<Mention>): Array<Mention> => {
  const out: Array<Mention> = []
  for (let i = 0; i < mentions.length; i++) {
    const m = mentions[i]!
    const n = mentions[i + 1]
    // (a task word's bare plural is typed no task, `translations`, but heads such a phrase as before:
    // `predictions of future traffic`)
    const outputs = m.first === m.last && isOutputPlural(words[m.first]!.lower)
    if (
      n !== undefined && (m.type === "Task" || outputs) && !m.generic && m.aliases.length === 0 && m.last - m.first <= 1 &&
      n.first === m.last + 2 && words[m.last + 1]!.lower === "of" && !n.generic
    ) {
      const label = source.slice(m.start, n.end)
      const typed = outputs ? { type: "Task" as const, strong: true } : {}
      out.push({ ...m, ...typed, last: n.last, end: n.end, label, norm: normalizeLabel(label), aliases: n.aliases })
      i++
    } else out.push(m)
  }
  return out
}

const isCoordinator = (w: Word | undefined): boolean => w !== undefined && (w.lower === "and" || w.lower === "or")

/**
 * "synthetic and real data", "spoken or written texts": adjectives
 * coordinated in front of a phrase belong to it.
 */
const mergeCoordinatedModifiers = (
  source: string,
  words: ReadonlyArray<Word>,
  mentions: ReadonlyArray<Mention>
): Array<Mention> =>
  mentions.map((m, idx) => {
    if (!isCoordinator(words[m.first - 1])) return m
    let k = m.first - 2
    let first = m.first
    const floor = idx > 0 ? mentions[idx - 1]!.last : -1
    while (k > floor) {
      const w = words[k]!
      if (w.pos === "ADJ" && !evaluativeModifiers.has(w.lower)) {
        first = k
        k--
      } else if (w.text === "," && k - 1 > floor && words[k - 1]!.pos === "ADJ") k--
      else break
    }
    if (first === m.first) return m
    const start = words[first]!.start
    const label = source.slice(start, m.end)
    return { ...m, first, start, label, norm: normalizeLabel(label), generic: false }
  })
