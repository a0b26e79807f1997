/**
 * wink's tokenizer with the pieces it cannot look up remembered.
 *
 * wink-nlp's tokenizer (`src/tokenizer.js`, pinned 2.4.0) splits a text on spaces; a piece found in the lexicon is
 * one token, any other piece ("model,", "(see", "{{cite:x}}", "Transformer-XL") goes through a list of category
 * regular expressions, then the punctuation splits and the recursive tokenizer (a dozen global regular expressions
 * over the piece). That is most of wink's time on papers, and the same pieces come back all through a corpus.
 *
 * Once kg made the tokenizer history-free (`nlp.ts`, `installHistoryFreeLookups`: its look-ups see only the model's
 * own lexicon), what a piece becomes depends on the piece alone: the calls the tokenizer makes on the document
 * (`_addToken`, `_addTokenIfInCache` that found the word) are the same every time, except for the preceding spaces
 * (given to the first token) and the non-breaking spaces before the piece (given to every token). So the first time a
 * piece is met, the original tokenizer runs on it (on the real document) and its calls are recorded; afterwards they
 * are replayed, with that occurrence's spaces. The document's tokens, and what wink's cache learns, in the same order,
 * are what the original makes (`NlpService.test.ts` compares both over real papers, token for token).
 *
 * Only used with the history-free look-ups: with wink's own cache a piece's tokens depend on what was parsed before.
 *
 * @internal
 */

/**
 * Where kg's history-free wrapper (`nlp.ts`) leaves wink's own `_addTokenIfInCache` on a document's methods: for a
 * word of the model's lexicon the wrapper's answer is wink's, so a piece known to be one is added with it directly
 * (one look-up instead of the wrapper's two).
 */
export const LEXICON_ADD: unique symbol = Symbol.for("kg/wink-lexicon-add")

/** The per-document methods wink's tokenizer calls (`src/dd-wrapper.js`). */
export interface TokenizerDoc {
  _addToken: (text: string, category: number, precedingSpaces: number, nbsp: string | null) => boolean
  _addTokenIfInCache: (text: string, precedingSpaces: number, nbsp: string | null) => number
  isLexeme: (text: string) => unknown
  clean?: () => void
  [LEXICON_ADD]?: (text: string, precedingSpaces: number, nbsp: string | null) => number
}

/** wink's tokenizer factory (`src/tokenizer.js`): compiled regular expressions and categories in, `tokenize` out. */
export type TokenizerFactory = (
  trex: { readonly helpers: { readonly splitter: RegExp } },
  categories: { readonly unk: number },
  preserve: unknown
) => (doc: TokenizerDoc, text: string) => void

/** wink's cap on preceding spaces; a token after non-breaking spaces gets it (and the spaces themselves). */
const MAX_PRECEDING_SPACES = 65535
/** wink's non-breaking spaces (`tokenizer.js`). */
const NBSP = /[\u00a0\u2002-\u2005\u2009\u200a\u202f\u205f]/
/** Pieces remembered per tokenizer before the memo starts afresh (a piece's record is a few short arrays). */
const MAX_PIECES = 200_000

/**
 * A piece's recorded calls, flat: per call its kind (0 `_addToken`, 1 `_addTokenIfInCache` that added), its text,
 * its category (`_addToken`), whether it got the piece's preceding spaces and whether it got its non-breaking spaces.
 */
interface Recording {
  readonly kinds: Array<number>
  readonly texts: Array<string>
  readonly categories: Array<number>
  readonly spaces: Array<boolean>
  readonly nbsps: Array<boolean>
}

/** The tokenizer factory `original` with each piece's calls remembered (see the module's comment). */
export const memoizingTokenizer = (original: TokenizerFactory): TokenizerFactory => (trex, categories, preserve) => {
  const tokenize = original(trex, categories, preserve)
  const splitter = trex.helpers.splitter
  const unk = categories.unk
  // each piece met: its recorded calls, or `true` for a word of the model's lexicon (wink adds it as one token)
  let memo = new Map<string, Recording | true>()

  /**
   * The original tokenizer on one piece, on the real document, recorded. It is run on the piece after one
   * non-breaking space, so the calls that get the piece's preceding spaces carry wink's cap and those that get its
   * non-breaking spaces carry that space; each call is passed on with this occurrence's own values.
   */
  const record = (doc: TokenizerDoc, piece: string, spaces: number, nbsp: string | null): void => {
    const r: Recording = { kinds: [], texts: [], categories: [], spaces: [], nbsps: [] }
    let exact = true
    const mapSpaces = (ps: number): number => {
      if (ps === MAX_PRECEDING_SPACES) return spaces
      if (ps !== 0) exact = false
      return ps
    }
    const mapNbsp = (n: string | null): string | null => {
      if (n === "\u00a0") return nbsp
      if (n !== null) exact = false
      return n
    }
    const recorder: TokenizerDoc = {
      _addToken: (text, category, ps, n) => {
        r.kinds.push(0)
        r.texts.push(text)
        r.categories.push(category)
        r.spaces.push(ps === MAX_PRECEDING_SPACES)
        r.nbsps.push(n !== null)
        return doc._addToken(text, category, mapSpaces(ps), mapNbsp(n))
      },
      _addTokenIfInCache: (text, ps, n) => {
        const found = doc._addTokenIfInCache(text, mapSpaces(ps), mapNbsp(n))
        if (found !== unk) {
          r.kinds.push(1)
          r.texts.push(text)
          r.categories.push(0)
          r.spaces.push(ps === MAX_PRECEDING_SPACES)
          r.nbsps.push(n !== null)
        }
        return found
      },
      isLexeme: (text) => doc.isLexeme(text)
    }
    tokenize(recorder, "\u00a0" + piece)
    if (!exact) return
    if (memo.size >= MAX_PIECES) memo = new Map()
    memo.set(piece, r)
  }

  const replay = (doc: TokenizerDoc, r: Recording, spaces: number, nbsp: string | null): void => {
    for (let k = 0; k < r.kinds.length; k++) {
      const ps = r.spaces[k] ? spaces : 0
      const n = r.nbsps[k] ? nbsp : null
      if (r.kinds[k] === 0) doc._addToken(r.texts[k]!, r.categories[k]!, ps, n)
      else doc._addTokenIfInCache(r.texts[k]!, ps, n)
    }
  }

  // wink's own loop over the pieces (`tokenizer.js`, `tokenize`), with the remembered pieces replayed. With the
  // history-free look-ups, whether `_addTokenIfInCache` finds a piece depends on the piece alone (a word of the
  // model's lexicon, never one it learnt), and it changes nothing when it does not: a remembered piece skips it.
  return (doc, text) => {
    const lexiconAdd = doc[LEXICON_ADD]
    const pieces = text.split(splitter)
    let spaces = 0
    let nbsp: string | null = null
    for (const t of pieces) {
      if (!t) continue
      const hasNbsp = NBSP.test(t)
      if (t[0] === " " || hasNbsp) {
        spaces = t.length
        if (hasNbsp) {
          nbsp = t
          spaces = MAX_PRECEDING_SPACES
        } else if (spaces > MAX_PRECEDING_SPACES - 1) spaces = MAX_PRECEDING_SPACES - 1
      } else {
        const known = lexiconAdd === undefined ? undefined : memo.get(t)
        if (known === true) lexiconAdd!(t, spaces, nbsp)
        else if (known !== undefined) replay(doc, known, spaces, nbsp)
        else if (doc._addTokenIfInCache(t, spaces, nbsp) === unk) {
          const r = memo.get(t)
          if (r !== undefined && r !== true) replay(doc, r, spaces, nbsp)
          else record(doc, t, spaces, nbsp)
        } else if (lexiconAdd !== undefined) {
          if (memo.size >= MAX_PIECES) memo = new Map()
          memo.set(t, true)
        }
        spaces = 0
        nbsp = null
      }
    }
  }
}
