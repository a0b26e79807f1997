/**
 * PDF specifics of ingest, over unpdf (pdf.js): opening a document safely,
 * per-page text, metadata, a title guess from the largest font on page 1, and
 * light normalisation of extracted text (accents, ligatures, hyphenation,
 * spaces) that is done per page so page offsets stay exact.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { extractText, getDocumentProxy } from "unpdf"
import { splitAuthors } from "./markdown.js"
import { copyrightYear, findArxivStamp, findDoi, findVenue } from "./paperIdentity.js"
import { looksLikePersonName, type PlacedItem, readFrontPage, repairSmallCaps } from "./pdfFrontPage.js"
import type { SkipInfo } from "./text.js"
import { normalizeText } from "./text.js"

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>

/** Text and metadata read from a PDF; `pages[i]` is page i + 1, normalised. @internal */
export interface PdfContent {
  readonly pages: ReadonlyArray<string>
  readonly title: string | null
  readonly authors: ReadonlyArray<string>
  readonly year: number | null
  readonly venue: string | null
  /** `arXiv:<id>` or `doi:<doi>` when the file names the work, else null. */
  readonly workId: string | null
}

// ---------------------------------------------------------------------------
// Text normalisation
// ---------------------------------------------------------------------------

// pdf.js emits LaTeX accents as a spacing mark before the letter ("F¨arber").
const SPACING_TO_COMBINING: Readonly<Record<string, string>> = {
  "\u00A8": "\u0308", // diaeresis
  "\u00B4": "\u0301", // acute
  "\u02C6": "\u0302", // circumflex
  "\u02DC": "\u0303", // tilde
  "\u02C7": "\u030C", // caron
  "\u02D8": "\u0306", // breve
  "\u02DA": "\u030A", // ring
  "\u02D9": "\u0307", // dot above
  "\u02DD": "\u030B", // double acute
  "\u00B8": "\u0327" // cedilla
}
const SPACING_ACCENT = /([\u00A8\u00B4\u02C6\u02DC\u02C7\u02D8\u02DA\u02D9\u02DD\u00B8])(\p{L})/gu

const LIGATURES: Readonly<Record<string, string>> = {
  "\uFB00": "ff",
  "\uFB01": "fi",
  "\uFB02": "fl",
  "\uFB03": "ffi",
  "\uFB04": "ffl",
  "\uFB05": "st",
  "\uFB06": "st"
}

/**
 * Compose a spacing accent followed by a letter into one precomposed letter
 * (`¨a` -> `ä`, `´ı` -> `í`); left unchanged when no single character results.
 *
 * @internal
 */
export const composeAccents = (text: string): string =>
  text.replace(SPACING_ACCENT, (whole, mark: string, letter: string) => {
    const base = letter === "\u0131" ? "i" : letter === "\u0237" ? "j" : letter
    const composed = (base + SPACING_TO_COMBINING[mark]!).normalize("NFC")
    return [...composed].length === 1 ? composed : whole
  })

/** Words seen in a document, lower-cased: plain and hyphenated compounds. @internal */
export interface Vocabulary {
  readonly plain: ReadonlySet<string>
  readonly hyphenated: ReadonlySet<string>
}

/**
 * Collect the vocabulary of a document: whole words only, so neither part of
 * a word split across lines by a hyphen is counted.
 *
 * @internal
 */
export const buildVocabulary = (pages: ReadonlyArray<string>): Vocabulary => {
  const plain = new Set<string>()
  const hyphenated = new Set<string>()
  for (const page of pages) {
    for (const m of page.matchAll(/(?<![\p{L}-]|-\n)\p{L}+(?:-\p{L}+)*(?![\p{L}-])/gu)) {
      const word = m[0].toLowerCase()
      if (word.includes("-")) hyphenated.add(word)
      else plain.add(word)
    }
  }
  return { plain, hyphenated }
}

/**
 * Undo line-end hyphenation (`hyphen-\nated` -> `hyphenated`) where it is
 * safe, using the document's own vocabulary as evidence:
 * - after a compound or a digit (`state-of-the-\nart`, `S2ORC-\nBERT`): keep;
 * - the joined word occurs elsewhere (`GRO-\nBID` -> `GROBID`): join;
 * - not lower-case on both sides (`BERT-\nBase`): keep;
 * - the compound occurs elsewhere (`long-\nform`), a `-ly` adverb
 *   (`automatically-\ndetected`), or both parts are words of the document
 *   (`fine-\ntuned`): keep;
 * - otherwise join.
 * Where the hyphen is kept, only the line break is removed.
 *
 * @internal
 */
export const dehyphenate = (page: string, vocabulary: Vocabulary): string =>
  page.replace(/(\p{L}+)-\n(\p{L}+)/gu, (_whole, left: string, right: string, offset: number, all: string) => {
    const keep = `${left}-${right}`
    if (offset > 0 && /[-\p{N}]/u.test(all[offset - 1]!)) return keep
    const l = left.toLowerCase()
    const r = right.toLowerCase()
    if (vocabulary.plain.has(l + r)) return left + right
    if (!/\p{Ll}$/u.test(left) || !/^\p{Ll}/u.test(right)) return keep
    if (vocabulary.hyphenated.has(`${l}-${r}`)) return keep
    if (l.length >= 6 && l.endsWith("ly")) return keep
    if (l.length >= 3 && r.length >= 3 && vocabulary.plain.has(l) && vocabulary.plain.has(r)) return keep
    return left + right
  })

const prepare = (raw: string): string =>
  normalizeText(composeAccents(raw).replace(/[\uFB00-\uFB06]/g, (c) => LIGATURES[c] ?? c))

/**
 * Normalise the text of one page: the shared text normalisation, accents,
 * ligatures, line-end hyphenation, runs of spaces, trailing spaces, and
 * surrounding blank space.
 *
 * @internal
 */
export const normalizePage = (raw: string, vocabulary: Vocabulary): string => finish(prepare(raw), vocabulary)

/**
 * A footnote starts on its own line with its number glued to its first word ("8An even finer granularity ...",
 * "9https://www.upwork.com/"): pdf.js puts it where the column's text ends, often inside the body's flow ("... on
 * PubMed⏎7We assume ..."), so it becomes a paragraph of its own (its number set apart) and no sentence of the body
 * runs into it.
 */
const FOOTNOTE_LINE = /\n(\d{1,2})(?=[A-Z][a-z]|https?:\/\/|www\.)/g

const finish = (prepared: string, vocabulary: Vocabulary): string =>
  dehyphenate(prepared, vocabulary)
    .replace(FOOTNOTE_LINE, "\n\n$1 ")
    .replace(/[ \u00A0]{2,}/g, " ")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()

/**
 * Normalise all pages of a document (the vocabulary that guides
 * dehyphenation is gathered over the whole document first).
 *
 * @internal
 */
export const normalizePages = (rawPages: ReadonlyArray<string>): ReadonlyArray<string> => {
  const prepared = stripPageNumbers(rawPages.map(prepare))
  const vocabulary = buildVocabulary(prepared)
  return markHeadings(bridgePages(prepared.map((p) => finish(p, vocabulary)), vocabulary))
}

/** A section's name standing alone on its line. */
const NAMED_SECTION =
  /^(?:abstract|introduction|background|related work|methods?|methodology|experiments?|experimental setup|results|discussion|conclusions?|limitations|future work|acknowledge?ments?|references|bibliography|appendix|appendices|ethics statement|ethical considerations|broader impacts?)$/i

/** A numbered heading: "3 Results", "4.2 Partial annotation", "A Background & Terminology". */
const NUMBERED_HEADING = /^(?:(\d{1,2})(?:\.\d{1,2}){0,3}|([A-H])(?:\.\d{1,2}){0,2})\.?\s+(\p{Lu}[\p{L}\p{N}'’&,:()/ -]*)$/u

/** Words a heading does not have (a footnote's or a sentence's). */
const NOT_HEADING = /\b(?:is|are|was|were|be|been|has|have|had|can|could|we|our|this|that|et al|https?|www)\b|[.;!?]$|(?<![\p{L}-])\d/iu

/**
 * Section headings of a PDF's pages, marked as markdown headings (`## 3 Results`) so that the extractor knows the
 * section each sentence sits in, as it does for markdown (without them a PDF's body was read as text of no known
 * section, and the body rules for set-up, pointers and other work never ran on it). A heading is a line of its own:
 * a section's name ("Limitations", "References"), or a section number and at most eight words with no sentence in
 * them ("4.2 Partial annotation", "A Background & Terminology"), whose numbers follow the paper's own order (the next
 * section, or a subsection of the current one: a footnote "20 Used to determine PDF page numbers" breaks the order
 * and is left alone). Text on the same line as a heading, a figure's numbers and a table's rows are never marked.
 *
 * @internal
 */
export const markHeadings = (pages: ReadonlyArray<string>): ReadonlyArray<string> => {
  let section = 0
  let appendix = 0
  return pages.map((page) =>
    page.split("\n").map((line) => {
      const t = line.trim()
      if (t.length < 3 || t.length > 80) return line
      if (NAMED_SECTION.test(t)) return `## ${t}`
      const m = NUMBERED_HEADING.exec(t)
      if (m === null) return line
      const words = m[3]!.trim().split(/\s+/u)
      if (words.length > 8 || NOT_HEADING.test(m[3]!)) return line
      if (m[1] !== undefined) {
        const n = Number(m[1])
        if (n !== section && n !== section + 1) return line
        section = n
      } else {
        const n = m[2]!.charCodeAt(0) - 64
        if (n !== appendix && n !== appendix + 1) return line
        appendix = n
        return `## Appendix ${t}`
      }
      return `## ${t}`
    }).join("\n")
  )
}

/** The longest continuation moved back to the page a sentence starts on (one sentence, in characters). */
const MAX_CONTINUATION = 600

/**
 * A sentence that runs from the foot of one page onto the next is given whole to the page it starts on: where a page
 * ends inside a sentence (no end punctuation; its last line body text, not a footnote or a web address) and the
 * next page opens with its continuation (a lower-case word: "... FINE annotations have lower" / "standard deviation
 * ... ratings)."; or a word hyphenated across the break, "cor-" / "pus contains ..."), the continuation up to the end
 * of its sentence (within its paragraph, at most {@link MAX_CONTINUATION} characters) moves to the end of the first
 * page. Chunks never cross a page, so without this both halves were read as sentences of their own: a finding lost,
 * and two fragments. A next page that opens with anything else (a figure's or a table's text, which pdf.js often puts
 * first, a heading, a capital) is left as it is: the continuation is somewhere on it, but not known where.
 *
 * @internal
 */
export const bridgePages = (pages: ReadonlyArray<string>, vocabulary: Vocabulary): ReadonlyArray<string> => {
  const out = [...pages]
  for (let i = 0; i + 1 < out.length; i++) {
    const head = out[i]!.trimEnd()
    const next = out[i + 1]!.trimStart()
    if (head === "" || next === "") continue
    const lastLine = head.slice(head.lastIndexOf("\n") + 1).trim()
    // a footnote ("20 Used to determine ..."), or a page ending in an address or a number
    if (/^\d{1,3}\s/u.test(lastLine) || /(?:https?:\/\/|www\.)\S*$|\S*[/@]\S*$|[.:;!?"”’)\]\d]$/u.test(head)) continue
    const hyphen = /(\p{L}+)-$/u.exec(head)
    if (hyphen === null && !/[\p{L},]$/u.test(head)) continue
    if (!/^\p{Ll}/u.test(next)) continue
    // the continuation: up to the end of its sentence, inside its paragraph
    const paragraph = next.split(/\n\s*\n/u, 1)[0]!
    const end = /[.!?]["”’)\]]*(?=\s|$)/u.exec(paragraph.slice(0, MAX_CONTINUATION))
    if (end === null) continue
    const piece = paragraph.slice(0, end.index + end[0].length)
    const rest = next.slice(piece.length).trimStart()
    if (hyphen !== null) {
      // the word split by the break, as `dehyphenate` joins one split across lines
      const joined = dehyphenate(`${hyphen[1]}-\n${piece}`, vocabulary)
      out[i] = head.slice(0, hyphen.index) + joined
    } else {
      out[i] = `${head} ${piece.replace(/\s*\n\s*/gu, " ")}`.replace(/ +/gu, " ")
    }
    out[i + 1] = rest
  }
  return out
}

/**
 * Remove running page numbers: the digits at the end (or the start) of each page's text that count up with the pages
 * ("... per annotator.1655" on one page, "... have lower1654" on the page before: pdf.js glues the footer to the last
 * line). Only when at least three pages, and half of them, agree on the numbering (printed number = page index +
 * offset); a page's digits are stripped only where they end (start) with that page's own number, so "93% accuracy"
 * or a table's last cell stays.
 *
 * @internal
 */
export const stripPageNumbers = (pages: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (pages.length < 3) return pages
  let out = pages
  for (const where of ["end", "start"] as const) {
    const run = where === "end" ? /(\d+)\s*$/ : /^\s*(\d+)/
    const numbers = out.map((p) => {
      const m = run.exec(p)
      return m === null || m[1]!.length > 5 ? null : Number(m[1])
    })
    const votes = new Map<number, number>()
    numbers.forEach((n, i) => {
      if (n !== null) votes.set(n - i, (votes.get(n - i) ?? 0) + 1)
    })
    let offset: number | null = null
    let best = 0
    for (const [o, v] of votes) if (v > best || (v === best && offset !== null && o < offset)) [offset, best] = [o, v]
    if (offset === null || best < 3 || best < out.length / 2) continue
    const first = offset
    out = out.map((p, i) => {
      const own = String(first + i)
      const m = run.exec(p)
      if (m === null) return p
      const digits = m[1]!
      if (where === "end") return digits.endsWith(own) ? p.slice(0, m.index + digits.length - own.length).trimEnd() : p
      return digits.startsWith(own) ? p.slice(m.index + m[0].length - digits.length + own.length).trimStart() : p
    })
  }
  return out
}

/**
 * Concatenate pages with `\n\n` and give each page's `[start, end)` offsets in
 * the result (1-based page numbers).
 *
 * @internal
 */
export const joinPages = (
  pages: ReadonlyArray<string>
): { readonly text: string; readonly spans: ReadonlyArray<{ page: number; start: number; end: number }> } => {
  const spans: Array<{ page: number; start: number; end: number }> = []
  let offset = 0
  pages.forEach((p, i) => {
    if (i > 0) offset += 2
    spans.push({ page: i + 1, start: offset, end: offset + p.length })
    offset += p.length
  })
  return { text: pages.join("\n\n"), spans }
}

// ---------------------------------------------------------------------------
// Metadata
// ---------------------------------------------------------------------------

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

const JUNK_TITLE = /^(?:untitled(?:\s+document)?|microsoft word\b.*|.*\.(?:docx?|pdf|tex|dvi|ps|rtf|odt))$/i

const cleanTitle = (raw: unknown): string | null => {
  if (typeof raw !== "string") return null
  const t = normalizeText(raw).replace(/\s+/gu, " ").trim()
  if (t.length < 3 || t.length > 500 || JUNK_TITLE.test(t)) return null
  return t
}

/**
 * Guess the title from page 1: the lines holding the largest font near the
 * top, when that font is clearly larger than the dominant body font (see
 * `pdfFrontPage.titleOf`).
 *
 * @internal
 */
export const titleFromItems = (items: ReadonlyArray<PlacedItem>): string | null => cleanTitle(readFrontPage(items).title)

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

const errorName = (e: unknown): string => (isRecord(e) && typeof e.name === "string" ? e.name : "")
const errorMessage = (e: unknown): string =>
  isRecord(e) && typeof e.message === "string" ? e.message : String(e)

const openFailure = (e: unknown, hasHeader: boolean): SkipInfo => {
  if (errorName(e) === "PasswordException") {
    return {
      kind: "EncryptedPdf",
      reason: "is password-protected; remove the password (e.g. `qpdf --decrypt in.pdf out.pdf`) and ingest it again"
    }
  }
  const header = hasHeader ? "" : "it has no %PDF- header, so it is not a PDF or is badly damaged; "
  return {
    kind: "CorruptPdf",
    reason: `cannot be opened as a PDF (${errorMessage(e)}); ${header}it may be truncated or corrupt: re-download or re-export it`
  }
}

const readFailure = (e: unknown): SkipInfo => ({
  kind: "CorruptPdf",
  reason: `opened as a PDF but its text could not be extracted (${errorMessage(e)}); re-export it (e.g. print to PDF) and try again`
})

const pageOneItems = (pdf: PdfDocument): Effect.Effect<ReadonlyArray<PlacedItem>> =>
  Effect.tryPromise(async () => {
    if (pdf.numPages < 1) return []
    const page = await pdf.getPage(1)
    const content = await page.getTextContent()
    const out: Array<PlacedItem> = []
    for (const item of content.items) {
      if (!("str" in item)) continue
      const t = item.transform.map(Number)
      out.push({
        str: normalizeText(composeAccents(item.str).replace(/[\uFB00-\uFB06]/g, (c) => LIGATURES[c] ?? c)),
        x: t[4] ?? 0,
        y: t[5] ?? 0,
        width: Number.isFinite(item.width) ? item.width : 0,
        size: Math.hypot(t[2] ?? 0, t[3] ?? 0),
        font: item.fontName,
        rotated: Math.abs(t[1] ?? 0) > 1e-6 || Math.abs(t[2] ?? 0) > 1e-6
      })
    }
    return out
  }).pipe(Effect.orElseSucceed((): ReadonlyArray<PlacedItem> => []))

interface InfoMetadata {
  readonly title: string | null
  readonly authors: ReadonlyArray<string>
  /** Every string value of the info dictionary, for identifiers (DOI, arXiv id). */
  readonly strings: string
}

const metadataOf = (pdf: PdfDocument): Effect.Effect<InfoMetadata> =>
  Effect.tryPromise(() => pdf.getMetadata()).pipe(
    Effect.map(({ info }): InfoMetadata => {
      const record: Record<string, unknown> = isRecord(info) ? info : {}
      const author = record.Author
      const strings: Array<string> = []
      const collect = (v: unknown): void => {
        if (typeof v === "string") strings.push(v)
        else if (isRecord(v)) Object.values(v).forEach(collect)
      }
      for (const [k, v] of Object.entries(record)) if (k !== "Author" && k !== "Producer" && k !== "Creator") collect(v)
      return {
        title: cleanTitle(record.Title),
        authors: typeof author === "string" ? splitAuthors(normalizeText(author)) : [],
        strings: strings.join("\n")
      }
    }),
    Effect.orElseSucceed((): InfoMetadata => ({ title: null, authors: [], strings: "" }))
  )

const words = (s: string): Set<string> => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])

/** Whether two titles share most of their words (an info-dictionary title that is a template's placeholder does not). */
const agree = (a: string, b: string): boolean => {
  const x = words(a)
  const y = words(b)
  let common = 0
  for (const w of x) if (y.has(w)) common++
  return common / Math.max(1, Math.min(x.size, y.size)) >= 0.6
}

/** Page-1 DOI: one written as such (`doi:`, `doi.org/`, `DOI`), else one on a header or footer line. */
const pageOneDoi = (page: string, lines: ReadonlyArray<string>): string | null => {
  const marked = /(?:\bdoi\s*:?\s*|doi\.org\/)(10\.\d{4,9}\/\S+)/iu.exec(page)
  if (marked !== null) return findDoi(marked[1]!)
  for (const line of [...lines.slice(0, 4), ...lines.slice(-4)]) {
    const doi = findDoi(line)
    if (doi !== null) return doi
  }
  return null
}

/**
 * What identifies the work and its year and venue: the arXiv stamp (or an
 * arXiv link) on page 1, a DOI in the info dictionary or on page 1; the year
 * and venue from a page-1 venue line, else the arXiv stamp, else a copyright
 * notice.
 *
 * @internal
 */
export const describeWork = (
  pageOne: string,
  lines: ReadonlyArray<string>,
  infoStrings: string
): { readonly workId: string | null; readonly year: number | null; readonly venue: string | null } => {
  const stamp = findArxivStamp(pageOne) ?? findArxivStamp(infoStrings)
  const doi = findDoi(infoStrings) ?? pageOneDoi(pageOne, lines)
  const venueLine = findVenue(lines)
  const workId = stamp !== null ? `arXiv:${stamp.arxivId}` : doi !== null ? `doi:${doi}` : null
  const year = venueLine?.year ?? stamp?.year ?? copyrightYear(pageOne)
  const venue = venueLine?.venue ?? (stamp !== null ? `arXiv${stamp.category === null ? "" : ` [${stamp.category}]`}` : null)
  return { workId, year, venue }
}

/**
 * Open a PDF with pdf.js (quietly), extract normalised per-page text
 * and metadata, and always release the document. Fails with a `SkipInfo` for
 * encrypted, corrupt or over-slow documents.
 *
 * @internal
 */
export const readPdf = (bytes: Uint8Array, hasHeader: boolean, timeout: Duration.DurationInput): Effect.Effect<PdfContent, SkipInfo> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      // pdf.js may take ownership of (detach) the buffer: callers must not use `bytes` afterwards.
      try: () => getDocumentProxy(bytes, { verbosity: 0, stopAtErrors: false }),
      catch: (e) => openFailure(e, hasHeader)
    }),
    (pdf) => Effect.promise(() => pdf.loadingTask.destroy()).pipe(Effect.ignore)
  ).pipe(
    Effect.flatMap((pdf) =>
      Effect.gen(function*() {
        const extracted = yield* Effect.tryPromise({
          try: () => extractText(pdf, { mergePages: false }),
          catch: readFailure
        })
        const meta = yield* metadataOf(pdf)
        const front = readFrontPage(yield* pageOneItems(pdf))
        const pages = normalizePages(extracted.text.map((p) => repairSmallCaps(p, front.smallCaps)))
        const frontTitle = cleanTitle(front.title)
        const title = meta.title !== null && (frontTitle === null || agree(meta.title, frontTitle)) ? meta.title : frontTitle
        const infoAuthors = meta.authors.filter(looksLikePersonName)
        const authors = infoAuthors.length > 0 && infoAuthors.length === meta.authors.length ? meta.authors : front.authors
        const work = describeWork(pages[0] ?? "", front.lines.map((l) => l.text), meta.strings)
        const content: PdfContent = { pages, title, authors, ...work }
        return content
      })
    ),
    Effect.scoped,
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: (): SkipInfo => ({
        kind: "Timeout",
        reason: `took longer than ${Duration.format(Duration.decode(timeout))} to read as a PDF; it may be malformed: re-export it, or raise the PDF timeout`
      })
    })
  )
