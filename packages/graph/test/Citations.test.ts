import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { canonical, containsQuote } from "../src/internal/research/citations.js"

/** The character-by-character definition `canonical` is an optimised form of. */
const reference = (text: string): string =>
  Array.from(text.replace(/(\p{L})-\n(\p{Ll})/gu, "$1$2"))
    .map((c) => (/\s/.test(c) ? " " : /[“”„″]/.test(c) ? "\"" : /[‘’‚′]/.test(c) ? "'" : /[‐‑‒–—―−]/.test(c) ? "-" : c))
    .join("")
    .replace(/ +/g, " ")
    .trim()

const pieces = fc.constantFrom("a", "B", "é", " ", "  ", "\n", "\t", "\u00a0", "-", "-\n", "“", "”", "‘", "’", "–", "—", "−", "x", "1", ".", "🙂")

describe("canonical", () => {
  it.prop("equals the character-by-character definition", [fc.array(pieces, { maxLength: 40 }).map((p) => p.join(""))], ([text]) => {
    expect(canonical(text)).toBe(reference(text))
  })

  it("joins a line-end hyphenation and normalises quotes, dashes and spaces", () => {
    expect(canonical("  the hyphen-\nated “word” – ok\u00a0 ")).toBe("the hyphenated \"word\" - ok")
    expect(containsQuote("We saw the hyphen-\nated “word” – twice.", "hyphenated \"word\" - twice")).toBe(true)
    expect(containsQuote("We saw the hyphen-\nated “word” – twice.", "hyphenated word")).toBe(false)
  })
})
