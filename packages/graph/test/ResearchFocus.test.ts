/**
 * Answers find the fact the store holds: a lookup searches the papers of its best findings again (a value a paper
 * states once, in its introduction, that the funnel's cut-offs left out), and a sentence that two overlapping chunks
 * share is scored in the passage that names more of what the question names. On real papers (testdata/papers/md,
 * unarXive) and a sentence of SciREX's ICNet paper.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as NlpService from "@kg/core/NlpService"
import { DuckDb } from "../src/DuckDb.js"
import * as Extract from "../src/Extract.js"
import { type Candidate, fieldsOf, scoreCandidates } from "../src/internal/research/findings.js"
import { analyse } from "../src/internal/research/question.js"
import { focusPapers, namesUnfound } from "../src/internal/research/shape.js"
import * as Research from "../src/Research.js"
import * as Store from "../src/Store.js"
import { answeringLayer } from "./fixtures/answering.js"

const md = fileURLToPath(new URL("../../../testdata/papers/md", import.meta.url))

const answering = answeringLayer(Store.layer({ path: ":memory:", embeddingDimension: 100, embeddingModel: "hash" }))

/** Every citation is in a stored chunk of its paper and page. */
const checkQuotes = (answer: Research.Answer) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    expect(answer.citations.length).toBeGreaterThan(0)
    for (const c of answer.citations) {
      const rows = yield* db.query<{ text: string }>(
        "SELECT text FROM chunks WHERE paper_id = $1 AND page IS NOT DISTINCT FROM $2",
        [c.paper_id, c.page]
      )
      expect(rows.some((r) => r.text.includes(c.quote)), `${c.paper_id}: ${c.quote}`).toBe(true)
    }
  })

const ESG = "arXiv:2212.11765"

describe("a lookup searches its best findings' papers again", () => {
  it.layer(answering, { timeout: 240_000 })((it) => {
    it.effect("a dataset's size stated once in the introduction leads, in research and in ask", () =>
      Effect.gen(function*() {
        // the ESG paper and eleven others of the sample
        const files = fs.readdirSync(md).filter((f) => f.endsWith(".md")).sort()
        const chosen = [`${ESG.slice(6)}.md`, ...files.filter((f) => !f.startsWith(ESG.slice(6))).slice(0, 11)]
        const summary = yield* Extract.runExtraction(chosen.map((f) => path.join(md, f)), {}, () => Effect.void)
        expect(summary.papers).toBe(12)
        const db = yield* DuckDb
        // the fact is in one chunk of the paper, and no claim quotes it
        const holding = yield* db.query<{ chunk_id: string }>(
          "SELECT chunk_id FROM chunks WHERE paper_id = $1 AND text LIKE '%3,700,000 articles%'",
          [ESG]
        )
        expect(holding.length).toBe(1)
        const quoted = yield* db.query<{ n: number | bigint }>(
          "SELECT count(*) AS n FROM claim_sources WHERE quote LIKE '%3,700,000%'"
        )
        expect(Number(quoted[0]!.n)).toBe(0)
        const q = "How many news articles does the ESG dataset contain?"
        const focusedOf = (answer: Research.Answer) =>
          ((answer.stages["evidence"] ?? answer.stages["retrieval"]) as { focused: { papers: ReadonlyArray<string>; chunks: ReadonlyArray<string> } })
            .focused
        for (const answer of [yield* Research.research(q), yield* Research.ask(q)]) {
          expect(answer.shape.type).toBe("lookup")
          expect(answer.shape.lead).toMatch(/^3,700,000 articles \(.*\) \[arXiv:2212\.11765\]$/)
          expect(answer.sentences[0]!.citations[0]!.quote).toContain("news dataset of over 3,700,000 articles")
          yield* checkQuotes(answer)
          expect(focusedOf(answer).papers[0]).toBe(ESG)
        }
        // ask's layers (the claims, the records) do not read the introduction's passage: the focused search brings it
        const asked = yield* Research.ask(q)
        expect(focusedOf(asked).chunks).toContain(holding[0]!.chunk_id)
        // other shapes do not search again
        const yesno = yield* Research.research("Do news articles predict ESG ratings?")
        expect((yesno.stages["evidence"] as { focused: { papers: ReadonlyArray<string> } }).focused.papers).toEqual([])
      }))
  })
})

describe("the papers a lookup searches again", () => {
  it.effect("those of the best findings about what the question names, best first", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      const q = "What mean IoU does ICNet achieve on Cityscapes?"
      const a = analyse(q)
      const candidate = (paperId: string, quote: string, chunkText = quote): Candidate => ({
        paperId,
        chunkId: `${paperId}#1`,
        page: null,
        quote,
        chunkText,
        claimId: null,
        fields: fieldsOf({ metric: null, value: null, conditions: null }, null),
        layer: "L1",
        retrieval: 1
      })
      const titles = new Map([["dfn", "Learning a Discriminative Feature Network"], ["icnet", "ICNet for Real-Time Semantic Segmentation"], ["other", "Pyramid Scene Parsing"]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [
        candidate("dfn", "We achieve 80.3% mean IoU on Cityscapes."),
        candidate("icnet", "Even for PSPNet, inference takes 18ms for the large images in Cityscapes."),
        candidate("other", "PSPNet reaches 78.4% mean IoU on Cityscapes.")
      ], titles)
      expect(scored[0]!.paperId).toBe("dfn")
      // the best finding is about another model: only ICNet's paper is searched again
      expect(focusPapers(a, scored, titles, 2)).toEqual(["icnet"])
      // a question naming no item: the papers of the best findings, best first, at most `limit`
      const b = analyse("What mean IoU is reached on Cityscapes?")
      const best = scoreCandidates(nlp, () => 1, "What mean IoU is reached on Cityscapes?", b, [
        candidate("dfn", "We achieve 80.3% mean IoU on Cityscapes."),
        candidate("other", "PSPNet reaches 78.4% mean IoU on Cityscapes."),
        candidate("icnet", "ICNet yields 69.5% mean IoU on Cityscapes.")
      ], titles)
      expect(focusPapers(b, best, titles, 2)).toEqual(best.slice(0, 2).map((s) => s.paperId))
      expect(focusPapers(b, best, titles, 1)).toEqual([best[0]!.paperId])
      // nothing scored: nothing to search
      expect(focusPapers(b, [], titles, 2)).toEqual([])
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("a yes/no question searches the papers that name its items when no best finding is about them (answers19)", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // the bug localization review (arXiv:2212.11774): the funnel found the retrosynthesis paper's "best performing"
      const q = "Is the worst performance of CBT better than the best of Tarantula?"
      const a = analyse(q)
      const candidate = (paperId: string, quote: string, chunkText = quote): Candidate => ({
        paperId,
        chunkId: `${paperId}#1`,
        page: null,
        quote,
        chunkText,
        claimId: null,
        fields: fieldsOf({ metric: null, value: null, conditions: null }, null),
        layer: "L1",
        retrieval: 1
      })
      const titles = new Map([["retro", "Mind the Retrosynthesis Gap"], ["bugs", "A literature review on different types of empirically evaluated bug localization approaches"]])
      const other = scoreCandidates(nlp, () => 1, q, a, [
        candidate("retro", "A cause for this could be its single-step accuracy profile, going from the best performing to the worst performing model.")
      ], titles)
      expect(namesUnfound(a, other, titles, 50)).toBe(true)
      // near misses: a finding whose passage names the items; a question that names none
      const significant = "In this comparison the difference between the performance of both approaches is significant."
      const passage = `A comparison between CBT and Tarantula is performed on the software project Apache Ant. ${significant}`
      const found = scoreCandidates(nlp, () => 1, q, a, [candidate("bugs", significant, passage)], titles)
      expect(found.length).toBe(1)
      expect(namesUnfound(a, found, titles, 50)).toBe(false)
      expect(namesUnfound(analyse("Is the worst performance better than the best?"), other, titles, 50)).toBe(false)
    }).pipe(Effect.provide(NlpService.layer)))

  it.effect("a lookup naming nothing (its method in lower case) leads with the finding that has its words", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // scirex-0e37c8f19eef and scirex-09da677bdbba: a value with only the asked quantity led before
      const q = "How much faster do spectral representations of filters make convergence?"
      const a = analyse(q)
      expect(a.names).toEqual([])
      const candidate = (paperId: string, quote: string, retrieval: number): Candidate => ({
        paperId,
        chunkId: `${paperId}#1`,
        page: null,
        quote,
        chunkText: quote,
        claimId: null,
        fields: fieldsOf({ metric: null, value: null, conditions: null }, null),
        layer: "L1",
        retrieval
      })
      const titles = new Map([["spectral", "Spectral Representations for Convolutional Neural Networks"], ["dpn", "Dual Path Networks"]])
      const scored = scoreCandidates(nlp, () => 1, q, a, [
        candidate("dpn", "A deeper DPN further pushes the state-of-the-art single model performance with about 2 times faster training speed.", 1),
        // found lower by the search: the question's words decide, as the names would
        candidate("spectral", "Empirically, in Section 5 we observe that spectral representations of filters leads to a convergence speedup by 2-5 times.", 0)
      ], titles)
      expect(scored.map((s) => [s.paperId, s.value?.phrase])).toEqual([["spectral", "2-5 times"], ["dpn", "2 times faster"]])
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("a sentence two overlapping chunks share", () => {
  it.effect("is scored in the passage that names the question's setting, in either order", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // testdata/papers/related has no ICNet paper: the sentence and its section as they are in SciREX's ICNet paper
      const sentence =
        "ICNet gets much faster inference speed than other methods on this high resolution, reaching the real-time speed of 27.8 fps, 5.7 times faster than the second one."
      const heading = "subsection: CamVid CamVid dataset contains images extracted from high resolution video sequences. "
      const q = "How fast does ICNet run on CamVid?"
      const a = analyse(q)
      const copy = (chunkId: string, chunkText: string): Candidate => ({
        paperId: "icnet",
        chunkId,
        page: chunkId === "icnet#10" ? 5 : 6,
        quote: sentence,
        chunkText,
        claimId: null,
        fields: fieldsOf({ metric: null, value: null, conditions: null }, null),
        layer: "L1",
        retrieval: 0.5
      })
      const inSection = copy("icnet#10", `${heading}${sentence}`)
      const next = copy("icnet#11", `${sentence} Apart from high efficiency, it also accomplishes high quality segmentation.`)
      const titles = new Map([["icnet", "ICNet for Real-Time Semantic Segmentation on High-Resolution Images"]])
      const one = scoreCandidates(nlp, () => 1, q, a, [next, inSection], titles)
      const other = scoreCandidates(nlp, () => 1, q, a, [inSection, next], titles)
      expect(one.length).toBe(1)
      expect(other.length).toBe(1)
      for (const s of [one[0]!, other[0]!]) {
        expect(s.chunkId).toBe("icnet#10")
        expect(s.page).toBe(5)
        // (ICNet in the sentence, CamVid in its section's heading just before it: the setting the section names counts
        // 0.9 of the sentence's own, answers23; in the passage alone it counted half, 0.75)
        expect(s.names).toBeCloseTo(0.9, 6)
      }
      expect(one[0]!.score).toBeCloseTo(other[0]!.score, 9)
      // alone, the next chunk does not name the setting
      expect(scoreCandidates(nlp, () => 1, q, a, [next], titles)[0]!.names).toBeCloseTo(0.5, 6)
    }).pipe(Effect.provide(NlpService.layer)))
})

describe("scoring candidates after others", () => {
  it.effect("equals scoring them all at once, wherever the list is split", () =>
    Effect.gen(function*() {
      const nlp = yield* NlpService.NlpService
      // the sentences of a real paper in overlapping passages of four sentences (each sentence in up to two)
      const text = fs.readFileSync(path.join(md, `${ESG.slice(6)}.md`), "utf8")
      const sentences = nlp.sentencize(text).map((s) => s.text.trim()).filter((s) => s.length > 30).slice(0, 60)
      const candidates: Array<Candidate> = []
      for (let start = 0, n = 0; start < sentences.length; start += 3, n++) {
        const passage = sentences.slice(start, start + 4)
        for (const quote of passage) {
          candidates.push({
            paperId: ESG,
            chunkId: `${ESG}#${n}`,
            page: null,
            quote,
            chunkText: passage.join(" "),
            claimId: null,
            fields: fieldsOf({ metric: null, value: null, conditions: null }, null),
            layer: "L1",
            retrieval: 1 / (1 + n)
          })
        }
      }
      const titles = new Map([[ESG, "Predicting Companies' ESG Ratings from News Articles Using Multivariate Timeseries Analysis"]])
      const idf = (t: string) => 1 + (t.length % 3)
      for (const q of ["How many news articles does the ESG dataset contain?", "Do news articles predict ESG ratings?"]) {
        const a = analyse(q)
        const whole = scoreCandidates(nlp, idf, q, a, candidates, titles)
        expect(whole.length).toBeGreaterThan(20)
        for (const at of [0, 7, 40, candidates.length]) {
          const first = scoreCandidates(nlp, idf, q, a, candidates.slice(0, at), titles)
          const after = scoreCandidates(nlp, idf, q, a, candidates.slice(at), titles, new Map(), first)
          expect(after.map((s) => [s.chunkId, s.quote, s.score])).toEqual(whole.map((s) => [s.chunkId, s.quote, s.score]))
        }
      }
    }).pipe(Effect.provide(NlpService.layer)))
})
