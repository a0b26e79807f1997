/**
 * Scope of a question: the papers it may be answered from, given as ids
 * (`--papers`) and/or a filter over paper fields (`--where "year>=2019"`).
 *
 * The filter language is small and parsed, never spliced into SQL; it is
 * evaluated in memory over each paper's id, title, authors, year and venue:
 *
 * ```
 * expr  := and ("or" and)*
 * and   := unary ("and" unary)*
 * unary := "not" unary | "(" expr ")" | field op value
 * field := year | venue | author | title | id
 * op    := = | != | < | <= | > | >= | ~ (contains, case-insensitive)
 * value := a number, a "quoted" or 'quoted' string, or a bare word
 * ```
 *
 * `year` compares numbers (a paper without a year matches no comparison);
 * the text fields compare case-insensitively (`author` matches when any
 * author does; `=` on text is equality, `~` containment).
 *
 * @internal
 */

export type Field = "year" | "venue" | "author" | "title" | "id"
export type Op = "=" | "!=" | "<" | "<=" | ">" | ">=" | "~"

export type Filter =
  | { readonly _tag: "and" | "or"; readonly left: Filter; readonly right: Filter }
  | { readonly _tag: "not"; readonly inner: Filter }
  | { readonly _tag: "cmp"; readonly field: Field; readonly op: Op; readonly value: string | number }

/** A paper as the filter sees it. */
export interface ScopePaper {
  readonly paper_id: string
  readonly title: string
  readonly authors: ReadonlyArray<string>
  readonly year: number | null
  readonly venue: string | null
}

/** A filter that does not parse: where and what was expected. */
export class WhereSyntax extends Error {
  constructor(readonly where: string, readonly position: number, readonly expected: string) {
    super(`${expected} at character ${position + 1} of "${where}"`)
  }
}

const FIELDS: ReadonlySet<string> = new Set(["year", "venue", "author", "authors", "title", "id", "paper"])
const OPS: ReadonlyArray<Op> = ["<=", ">=", "!=", "=", "<", ">", "~"]

interface Token {
  readonly kind: "word" | "string" | "number" | "op" | "lparen" | "rparen"
  readonly text: string
  readonly at: number
}

const tokenize = (where: string): ReadonlyArray<Token> => {
  const out: Array<Token> = []
  let i = 0
  while (i < where.length) {
    const c = where[i]!
    if (/\s/.test(c)) {
      i++
      continue
    }
    if (c === "(" || c === ")") {
      out.push({ kind: c === "(" ? "lparen" : "rparen", text: c, at: i })
      i++
      continue
    }
    if (c === "\"" || c === "'") {
      const end = where.indexOf(c, i + 1)
      if (end < 0) throw new WhereSyntax(where, i, `an unclosed ${c}`)
      out.push({ kind: "string", text: where.slice(i + 1, end), at: i })
      i = end + 1
      continue
    }
    if (c === "=" && where[i + 1] === "=") {
      out.push({ kind: "op", text: "=", at: i })
      i += 2
      continue
    }
    const op = OPS.find((o) => where.startsWith(o, i))
    if (op !== undefined) {
      out.push({ kind: "op", text: op, at: i })
      i += op.length
      continue
    }
    if (c === "&" && where[i + 1] === "&") {
      out.push({ kind: "word", text: "and", at: i })
      i += 2
      continue
    }
    if (c === "|" && where[i + 1] === "|") {
      out.push({ kind: "word", text: "or", at: i })
      i += 2
      continue
    }
    const m = /^[^\s()=!<>~"']+/.exec(where.slice(i))
    if (m === null) throw new WhereSyntax(where, i, `an unexpected "${c}"`)
    out.push({ kind: /^-?\d+(\.\d+)?$/.test(m[0]) ? "number" : "word", text: m[0], at: i })
    i += m[0].length
  }
  return out
}

/** Parse a filter; throws {@link WhereSyntax} with the position and what was expected. */
export const parseWhere = (where: string): Filter => {
  if (where.length > 1000) throw new WhereSyntax(where.slice(0, 40), 1000, "a filter of at most 1000 characters")
  const tokens = tokenize(where)
  let pos = 0
  const peek = () => tokens[pos]
  const at = () => tokens[pos]?.at ?? where.length
  const isWord = (t: Token | undefined, w: string) => t !== undefined && t.kind === "word" && t.text.toLowerCase() === w
  let depth = 0
  const parseOr = (): Filter => {
    let left = parseAnd()
    while (isWord(peek(), "or")) {
      pos++
      left = { _tag: "or", left, right: parseAnd() }
    }
    return left
  }
  const parseAnd = (): Filter => {
    let left = parseUnary()
    while (isWord(peek(), "and")) {
      pos++
      left = { _tag: "and", left, right: parseUnary() }
    }
    return left
  }
  const parseUnary = (): Filter => {
    const t = peek()
    if (t === undefined) throw new WhereSyntax(where, at(), "a condition (e.g. year>=2019)")
    if (isWord(t, "not")) {
      pos++
      return { _tag: "not", inner: parseUnary() }
    }
    if (t.kind === "lparen") {
      if (++depth > 20) throw new WhereSyntax(where, t.at, "at most 20 nested parentheses")
      pos++
      const inner = parseOr()
      if (peek()?.kind !== "rparen") throw new WhereSyntax(where, at(), "a closing )")
      pos++
      depth--
      return inner
    }
    if (t.kind !== "word" || !FIELDS.has(t.text.toLowerCase())) {
      throw new WhereSyntax(where, t.at, `a field (year, venue, author, title or id) instead of "${t.text}"`)
    }
    pos++
    const name = t.text.toLowerCase()
    const field: Field = name === "authors" ? "author" : name === "paper" ? "id" : name as Field
    const op = peek()
    if (op === undefined || op.kind !== "op") throw new WhereSyntax(where, at(), `an operator (= != < <= > >= ~) after ${t.text}`)
    pos++
    const v = peek()
    if (v === undefined || (v.kind !== "word" && v.kind !== "string" && v.kind !== "number")) {
      throw new WhereSyntax(where, at(), `a value after ${t.text}${op.text}`)
    }
    pos++
    if (field === "year") {
      if (v.kind !== "number" || !Number.isInteger(Number(v.text))) throw new WhereSyntax(where, v.at, `a year (a whole number) instead of "${v.text}"`)
      if (op.text === "~") throw new WhereSyntax(where, op.at, "a comparison (= != < <= > >=) for year; ~ is for text")
      return { _tag: "cmp", field, op: op.text as Op, value: Number(v.text) }
    }
    if (op.text !== "=" && op.text !== "!=" && op.text !== "~") {
      throw new WhereSyntax(where, op.at, `=, != or ~ for ${field}; ${op.text} compares years`)
    }
    return { _tag: "cmp", field, op: op.text as Op, value: v.text }
  }
  const filter = parseOr()
  if (pos < tokens.length) {
    const t = tokens[pos]!
    throw new WhereSyntax(where, t.at, `"and", "or" or the end instead of "${t.text}"`)
  }
  return filter
}

const textMatch = (op: Op, actual: string | null, value: string): boolean => {
  const a = (actual ?? "").toLowerCase()
  const v = value.toLowerCase()
  if (op === "~") return a.includes(v)
  return op === "=" ? a === v : a !== v
}

/** Whether a paper passes a filter. */
export const matches = (filter: Filter, paper: ScopePaper): boolean => {
  switch (filter._tag) {
    case "and":
      return matches(filter.left, paper) && matches(filter.right, paper)
    case "or":
      return matches(filter.left, paper) || matches(filter.right, paper)
    case "not":
      return !matches(filter.inner, paper)
    case "cmp": {
      const { field, op, value } = filter
      if (field === "year") {
        if (paper.year === null) return false
        const y = paper.year
        const n = value as number
        return op === "=" ? y === n : op === "!=" ? y !== n : op === "<" ? y < n : op === "<=" ? y <= n : op === ">" ? y > n : y >= n
      }
      if (field === "author") {
        const any = paper.authors.some((a) => textMatch(op === "!=" ? "=" : op, a, String(value)))
        return op === "!=" ? !any : any
      }
      const actual = field === "title" ? paper.title : field === "venue" ? paper.venue : paper.paper_id
      return textMatch(op, actual, String(value))
    }
  }
}

/** The filter as text (for stages and messages). */
export const showFilter = (f: Filter): string => {
  switch (f._tag) {
    case "and":
    case "or":
      return `(${showFilter(f.left)} ${f._tag} ${showFilter(f.right)})`
    case "not":
      return `not ${showFilter(f.inner)}`
    case "cmp":
      return `${f.field}${f.op}${typeof f.value === "number" ? f.value : JSON.stringify(f.value)}`
  }
}
