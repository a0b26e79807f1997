import { describe, expect, it } from "@effect/vitest"
import { PaperId } from "@kg/core/Domain"
import * as NlpService from "@kg/core/NlpService"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import * as PaperRecordOffline from "../src/PaperRecordOffline.js"

const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))

const paper = (name: string) =>
  readFileSync(new URL(`../../../testdata/papers/md/${name}`, import.meta.url), "utf8")
const titleOf = (text: string) => /^title: "(.*)"$/m.exec(text)?.[1] ?? ""

/** Number of sentences in a field, as the NlpService splits it. */
const sentenceCount = (s: string) => nlp.sentencize(s).length

describe("PaperRecordOffline", () => {
  it("summarises a real paper with sections: what was studied, how, what was found", () => {
    const text = paper("2212.11765.md")
    const r = PaperRecordOffline.paperRecord(nlp, { paperId: PaperId.make("arXiv:2212.11765"), title: titleOf(text), text })
    expect(r.paperId).toBe("arXiv:2212.11765")
    expect(r.provider).toBe("offline")
    // the abstract's statement of purpose
    expect(r.studied).toContain("we build a model to predict ESG ratings from news articles")
    // the methods section's "we use ..." sentences
    expect(r.method).toMatch(/\bWe use\b/)
    expect(r.method).toContain("BERT")
    // a result sentence from the results / conclusion
    expect(r.findings).toMatch(/outperforms|perform better|Results show/)
    for (const field of [r.studied, r.method, r.findings]) {
      expect(field.length).toBeGreaterThan(0)
      expect(sentenceCount(field)).toBeLessThanOrEqual(3)
      expect(field).not.toMatch(/\{\{(cite|formula):/)
    }
    expect(r.domainTags).toContain("esg ratings")
    expect(r.domainTags.length).toBeLessThanOrEqual(5)
  })

  it("fills every field of a paper with only an abstract", () => {
    const text = paper("2212.11739.md")
    const r = PaperRecordOffline.paperRecord(nlp, { paperId: PaperId.make("arXiv:2212.11739"), title: titleOf(text), text })
    expect(r.studied).toContain("we consider interpreting these excesses")
    expect(r.findings).toContain("We conclude that it is difficult")
    expect(r.method.length).toBeGreaterThan(0)
    expect(r.domainTags).toContain("nmssm")
  })

  it("falls back to positions for plain text without headings", () => {
    // a SciERC abstract: no markdown at all
    const text =
      "This paper introduces a robust interactive method for speech understanding . The generalized LR parsing is enhanced in this approach . Parsing proceeds from left to right correcting minor errors . When a very noisy portion is detected , the parser skips that portion using a fake non-terminal symbol . The unidentified portion is resolved by re-utterance of that portion which is parsed very efficiently by using the parse record of the first utterance . The user does not have to speak the whole sentence again . This method is also capable of handling unknown words , which is important in practical systems . Detected unknown words can be incrementally incorporated into the dictionary after the interaction with the user . A pilot system has shown great effectiveness of this approach ."
    const r = PaperRecordOffline.paperRecord(nlp, { paperId: PaperId.make("scierc"), title: "", text })
    expect(r.studied).toContain("This paper introduces a robust interactive method for speech understanding")
    expect(r.findings).toContain("A pilot system has shown great effectiveness")
    expect(r.method.length).toBeGreaterThan(0)
  })

  it("never leaves a field empty when there is a sentence, and is empty for empty text", () => {
    const one = PaperRecordOffline.paperRecord(nlp, {
      paperId: PaperId.make("p"),
      title: "t",
      text: "Graphene sheets were placed on a copper substrate in the chamber."
    })
    expect([one.studied, one.method, one.findings].every((f) => f.length > 0)).toBe(true)
    const none = PaperRecordOffline.paperRecord(nlp, { paperId: PaperId.make("p"), title: "", text: "" })
    expect([none.studied, none.method, none.findings]).toEqual(["", "", ""])
  })

  it.effect("paperRecordEffect reads the NlpService from the context", () =>
    Effect.gen(function*() {
      const text = paper("2212.11739.md")
      const input = { paperId: PaperId.make("x"), title: titleOf(text), text }
      const r = yield* PaperRecordOffline.paperRecordEffect(input)
      expect(r.studied).toBe(PaperRecordOffline.paperRecord(nlp, input).studied)
    }).pipe(Effect.provide(NlpService.layer)))
})
