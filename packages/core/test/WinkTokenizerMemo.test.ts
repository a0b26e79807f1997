/**
 * wink's tokenizer with each piece's calls remembered (`internal/winkTokenizerMemo.ts`) makes the documents the
 * original tokenizer makes: every token's value, type, spaces, tag, lemma, negation and normal form, and the
 * sentences, on real papers, the first time (pieces recorded) and again (pieces replayed).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import type WinkNlp from "wink-nlp"
import * as Nlp from "../src/NlpService.js"

const papers = readdirSync(new URL("../../../testdata/papers/md/", import.meta.url)).filter((f) => f.endsWith(".md")).sort()
  .slice(0, 6).map((f) => readFileSync(new URL(`../../../testdata/papers/md/${f}`, import.meta.url), "utf8"))

describe("wink's tokenizer with remembered pieces", () => {
  it("makes the same documents as wink's own tokenizer (history-free look-ups in both), recorded and replayed", () => {
    const service = Effect.runSync(Effect.provide(Nlp.NlpService, Nlp.layer))
    // kg's wink is loaded, with the history-free look-ups and the remembering tokenizer installed in the require cache
    expect(service.tokenize("x.w.j. is a word.").length).toBeGreaterThan(0)
    const require = createRequire(new URL("../package.json", import.meta.url))
    const main = require.resolve("wink-nlp")
    const tokenizerPath = join(dirname(main), "tokenizer.js")
    const remembering = require.cache[tokenizerPath]!.exports as unknown
    // a wink with the remembering tokenizer (kg's), and one with wink's own tokenizer loaded afresh
    delete require.cache[main]
    const withMemo = require("wink-nlp") as typeof WinkNlp
    delete require.cache[tokenizerPath]
    delete require.cache[main]
    const original = require("wink-nlp") as typeof WinkNlp
    const own = require.cache[tokenizerPath]!.exports as unknown
    require.cache[tokenizerPath]!.exports = remembering
    delete require.cache[main]
    expect(own).not.toBe(remembering)
    const model = require("wink-eng-lite-web-model") as Parameters<typeof WinkNlp>[0]
    const a = withMemo(model, ["sbd", "negation", "pos"])
    const b = original(model, ["sbd", "negation", "pos"])
    const its = a.its
    const dump = (w: typeof a, text: string) => {
      const doc = w.readDoc(text)
      const t = doc.tokens()
      return {
        value: t.out(its.value),
        type: t.out(its.type),
        spaces: t.out(its.precedingSpaces),
        pos: t.out(its.pos),
        lemma: t.out(its.lemma as unknown as typeof its.value),
        negation: t.out(its.negationFlag),
        normal: t.out(its.normal),
        sentences: doc.sentences().out(its.span)
      }
    }
    // spaces, non-breaking spaces, tabs and new lines before pieces that are split (recorded, then replayed)
    const spaced = "A model,  (see\u00a0Fig.\u20093) e.g. x.w.j.\tTransformer-XL's\u00a0\u00a0F1-score: 91.2%\n\n(i.e., \"quoted\")."
    for (const text of [spaced, spaced.replace(/ /g, "   "), ...papers, ...papers.slice(0, 2)]) {
      const x = dump(a, text)
      expect(x.value.length).toBeGreaterThan(5)
      expect(x).toEqual(dump(b, text))
    }
  })
})
