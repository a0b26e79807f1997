/**
 * The graph questions and the research funnel through the real `kg` command:
 * two papers that disagree plus real papers, extracted offline; contradiction
 * edges, contested status, re-grading after `kg retract`, and a research
 * answer whose every citation is a quote on a real page of a stored chunk.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { anthropicMessage, anthropicOk, loopback } from "../../extraction/test/utils/loopback.js"
import { lastJson, queryStore, removeDir, repoRoot, runKg, tempDir } from "./helpers.js"

/** The parts of an Anthropic Messages request the loopback server reads. */
interface AnthropicBody {
  readonly system?: ReadonlyArray<{ readonly text: string }>
  readonly tools?: ReadonlyArray<{ readonly name: string }>
  readonly messages: ReadonlyArray<{ readonly content: string | ReadonlyArray<{ readonly text?: string }> }>
}

const paper = (id: string, year: number, finding: string) =>
  `---\nid: "${id}"\ntitle: "Low-dose aspirin and stroke (${id})"\nauthors: ["Author of ${id}"]\nyear: ${year}\n---\n\n` +
  `# Results\n\nWe followed 4,000 adults for five years. ${finding} Hazard ratios were adjusted for age.\n`

describe("graph questions and research through the CLI", () => {
  let dir = ""
  let db = ""
  const kg = (...args: ReadonlyArray<string>) => runKg([...args, "--db", db])

  beforeAll(async () => {
    dir = tempDir()
    db = path.join(dir, "kg.duckdb")
    const corpus = path.join(dir, "corpus")
    fs.mkdirSync(corpus)
    fs.copyFileSync(path.join(repoRoot, "examples/corpus/2023.eacl-main.121.pdf"), path.join(corpus, "longeval.pdf"))
    fs.writeFileSync(path.join(corpus, "a.md"), paper("trial-a", 2019, "We find that daily low-dose aspirin significantly reduces the risk of stroke in older adults."))
    fs.writeFileSync(path.join(corpus, "b.md"), paper("trial-b", 2021, "We find that daily low-dose aspirin does not reduce the risk of stroke in older adults."))
    const result = await runKg(["extract", corpus, "--db", db, "--json"])
    expect(result.code, result.stderr).toBe(0)
    const summary = lastJson(result) as { papers: number; edges: Record<string, number> }
    expect(summary.papers).toBe(3)
    expect(summary.edges["contradicts"]).toBeGreaterThanOrEqual(1)
  }, 180_000)

  afterAll(() => removeDir(dir))

  it("lists contested claims, and judges a hypothesis that is not stored against the evidence", async () => {
    const contested = lastJson(await kg("claims", "--status", "contested", "--json")) as unknown as ReadonlyArray<{ text: string }>
    expect(contested.map((c) => c.text).sort()).toEqual([
      "We find that daily low-dose aspirin does not reduce the risk of stroke in older adults.",
      "We find that daily low-dose aspirin significantly reduces the risk of stroke in older adults."
    ])
    // in text, each contested claim says the count behind its status: one paper for, one against
    const listed = await kg("claims", "--status", "contested")
    expect(listed.code, listed.stderr).toBe(0)
    const heads = listed.stdout.split("\n").filter((l) => l.startsWith("["))
    expect(heads).toHaveLength(2)
    for (const head of heads) expect(head).toMatch(/^\[contested: 1 paper for, 1 against\] \(role \w+, P\(finding\) [\d.]+\) We find that daily/)
    // an id that names no stored claim is an error, never a hypothesis judged against the evidence
    for (const command of ["claim", "challenges", "counterevidence"]) {
      const missing = await kg(command, "https://w3id.org/kg/id/claim/0000000000000000")
      expect(missing.code, `${command}: ${missing.stdout}`).toBe(1)
      expect(missing.stderr).toContain("No claim in")
      expect(missing.stdout).not.toContain("judged now")
    }
    const challenges = lastJson(await kg("challenges", "aspirin reduces stroke risk", "--json")) as {
      resolution: { by: string }
      papers: ReadonlyArray<{ paperId: string }>
    }
    expect(challenges.resolution.by).toBe("hypothesis")
    expect(challenges.papers.map((p) => p.paperId)).toEqual(["trial-b"])
    const claim = lastJson(await kg("claim", "aspirin does not reduce stroke", "--json")) as {
      resolution: { by: string }
      verdict: string
      supporting: ReadonlyArray<{ paperId: string; quote: string }>
      contradicting: ReadonlyArray<{ paperId: string; quote: string }>
    }
    expect(claim.resolution.by).toBe("hypothesis")
    expect(claim.supporting.map((e) => e.paperId)).toContain("trial-b")
    expect(claim.contradicting.map((e) => e.paperId)).toContain("trial-a")
    // in text, the verdict gives its reason: the papers on each side
    expect((await kg("claim", "aspirin does not reduce stroke")).stdout).toContain("verdict: contested (1 paper for, 1 against)")
    // a stored claim's own words resolve to it, with its edges
    const stored = lastJson(
      await kg("claim", "We find that daily low-dose aspirin does not reduce the risk of stroke in older adults.", "--json")
    ) as { resolution: { by: string }; edges: ReadonlyArray<{ kind: string }> }
    expect(stored.resolution.by).toBe("text")
    expect(stored.edges.some((e) => e.kind === "contradicts")).toBe(true)
    // nothing in the corpus speaks to it: said so, non-zero exit, never an unrelated claim
    const nothing = await kg("counterevidence", "vaccines cause autism")
    expect(nothing.code).not.toBe(0)
    expect(nothing.stderr).toContain("Nothing in")
  }, 180_000)

  it("kg claim names the paper against by its title; kg stats says which edges a status counts", async () => {
    const text = (await kg("claim", "We find that daily low-dose aspirin does not reduce the risk of stroke in older adults.")).stdout
    expect(text).toContain(
      'status: contested (1 paper for, 1 against: contradicted on the same finding by 1 paper (trial-a "Low-dose aspirin and stroke (trial-a)"))'
    )
    // the NLI judge's call in words, once; the contradicting claim's own papers, not read as the papers against
    expect(text).toMatch(/NLI judge: (contradiction|neutral|entailment)/)
    expect(text).not.toMatch(/NLI agreement|nliScore/)
    expect(text).toMatch(/\[contested\] \(in 1 paper, /)
    const stats = await kg("stats")
    expect(stats.code, stats.stderr).toBe(0)
    const edges = stats.stdout.slice(stats.stdout.indexOf("Claim edges (a status counts contradicts, replicates and same_as only):"))
    expect(edges).toMatch(/^Claim edges .*\n {2}contradicts +[1-9]\d*\n {2}replicates +\d+\n {2}same_as +\d+\n/)
    // the JSON is unchanged: the tables and statuses only
    expect(Object.keys(lastJson(await kg("stats", "--json")) as object)).not.toContain("edgeKinds")
  }, 60_000)

  it("research: every citation points at a stored chunk whose text, on that page, contains the quote", async () => {
    const result = await kg("research", "How reliable is human evaluation of faithfulness in long-form summarization?", "--json")
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/Stage 1: searching summaries \.\.\. found \d+ papers?/)
    expect(result.stderr).toMatch(/Stage 2: gathering evidence from \d+ papers? \.\.\. retrieved \d+ chunks?/)
    const answer = JSON.parse(result.stdout) as {
      answer: string
      citations: ReadonlyArray<{ paper_id: string; page: number | null; quote: string }>
      references: ReadonlyArray<{ paper_id: string; title: string }>
      ungrounded: ReadonlyArray<string>
    }
    expect(answer.citations.length).toBeGreaterThan(0)
    const { chunks } = await queryStore<{ chunks: ReadonlyArray<{ paper_id: string; page: number | null; text: string }> }>(db, {
      chunks: "SELECT paper_id, page, text FROM chunks"
    })
    for (const c of answer.citations) {
      expect(c.page).not.toBeNull() // the PDF is page-aware
      const onPage = chunks.filter((ch) => ch.paper_id === c.paper_id && ch.page === c.page)
      expect(onPage.some((ch) => ch.text.includes(c.quote)), `${c.paper_id} p.${c.page}: ${c.quote}`).toBe(true)
    }
    expect(answer.references.map((r) => r.paper_id)).toContain(answer.citations[0]!.paper_id)
  }, 90_000)

  it("research on a question the corpus cannot answer says so and exits non-zero", async () => {
    const result = await kg("research", "What is the boiling point of liquid nitrogen on Jupiter's moons?")
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain("No papers found relevant to")
  }, 60_000)

  it("answers in their shape (a yes/no verdict with its meter, a lookup's value first), as text and JSON, within --papers / --where", async () => {
    const q = "Does daily low-dose aspirin reduce the risk of stroke?"
    const text = await kg("research", q)
    expect(text.code, text.stderr).toBe(0)
    const lines = text.stdout.split("\n")
    expect(lines[0]).toBe("Mixed: 1 finding for, 1 against")
    expect(lines[1]).toBe("[#####-----] 50% for, 50% against")
    expect(text.stdout).toMatch(/\nFor: We find that daily low-dose aspirin significantly reduces/)
    expect(text.stdout).toMatch(/\nAgainst: We find that daily low-dose aspirin does not reduce/)
    const scoped = JSON.parse((await kg("ask", q, "--papers", "trial-b", "--json")).stdout) as {
      shape: { verdict: { answer: string; for: number; against: number } }
      citations: ReadonlyArray<{ paper_id: string }>
    }
    expect(scoped.shape.verdict).toMatchObject({ answer: "no", for: 0, against: 1 })
    expect(new Set(scoped.citations.map((c) => c.paper_id))).toEqual(new Set(["trial-b"]))
    const byYear = await kg("ask", q, "--where", "year<2020 and title~aspirin", "--json")
    expect(byYear.code, byYear.stderr).toBe(0)
    expect((JSON.parse(byYear.stdout) as { shape: { verdict: { answer: string } } }).shape.verdict.answer).toBe("yes")
    const lookup = JSON.parse((await kg("ask", "How many papers on long-form summarization did the LongEval survey cover?", "--json")).stdout) as {
      shape: { type: string; lead: string }
    }
    expect(lookup.shape.type).toBe("lookup")
    expect(lookup.shape.lead).toMatch(/^162 papers/)
    const unknown = await kg("research", q, "--papers", "trial-a,nope")
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr).toContain("no paper with id \"nope\" in the store")
    const syntax = await kg("ask", q, "--where", "year>>2019")
    expect(syntax.code).not.toBe(0)
    expect(syntax.stderr).toContain("--where: a value after year> at character 6")
  }, 120_000)

  it("retract re-grades what depended on the paper, and research leaves it out", async () => {
    const retract = await kg("retract", "trial-b", "--json")
    expect(retract.code, retract.stderr).toBe(0)
    const contested = lastJson(await kg("claims", "--status", "contested", "--json")) as unknown as ReadonlyArray<unknown>
    expect(contested).toEqual([])
    const result = await kg("research", "Does aspirin reduce the risk of stroke?", "--json")
    expect(result.code, result.stderr).toBe(0)
    const answer = JSON.parse(result.stdout) as { citations: ReadonlyArray<{ paper_id: string }> }
    expect(answer.citations.map((c) => c.paper_id)).not.toContain("trial-b")
    expect(answer.citations.map((c) => c.paper_id)).toContain("trial-a")
  }, 90_000)

  it("a second paper asserting a claim makes it established; removing that paper re-grades it", async () => {
    const more = path.join(dir, "more")
    fs.mkdirSync(more)
    fs.writeFileSync(
      path.join(more, "c.md"),
      paper("trial-c", 2022, "We find that daily low-dose aspirin significantly reduces the risk of stroke in older adults.")
    )
    const added = await runKg(["extract", more, "--db", db, "--json"])
    expect(added.code, added.stderr).toBe(0)
    const statusOf = async () => {
      const claims = lastJson(await kg("claims", "--about", "aspirin reduces stroke", "--json")) as unknown as ReadonlyArray<
        { text: string; status: string; livePapers: number }
      >
      return claims.find((c) => c.text.includes("significantly reduces"))
    }
    expect(await statusOf()).toMatchObject({ status: "established", livePapers: 2 })
    const removed = await kg("remove", "trial-c")
    expect(removed.code, removed.stderr).toBe(0)
    expect(await statusOf()).toMatchObject({ status: "preliminary", livePapers: 1 })
  }, 120_000)
})

describe("research with an LLM over the wire (a loopback Anthropic)", () => {
  let dir = ""
  let db = ""

  beforeAll(async () => {
    dir = tempDir()
    db = path.join(dir, "kg.duckdb")
    const corpus = path.join(dir, "corpus")
    fs.mkdirSync(corpus)
    fs.writeFileSync(path.join(corpus, "a.md"), paper("trial-a", 2019, "We find that daily low-dose aspirin significantly reduces the risk of stroke in older adults."))
    fs.writeFileSync(path.join(corpus, "b.md"), paper("trial-b", 2021, "We find that daily low-dose aspirin does not reduce the risk of stroke in older adults."))
    const result = await runKg(["extract", corpus, "--db", db, "--json"])
    expect(result.code, result.stderr).toBe(0)
  }, 120_000)

  afterAll(() => removeDir(dir))

  it.scopedLive("re-ranks, checks, and writes from the findings in the question's shape", () =>
    Effect.gen(function*() {
      const textOf = (body: AnthropicBody) => [
        ...(body.system ?? []).map((b) => b.text),
        ...body.messages.map((m) => typeof m.content === "string" ? m.content : m.content.map((b) => b.text ?? "").join(""))
      ].join("\n")
      const server = yield* loopback((request) => {
        const body = request.json as AnthropicBody
        const tool = body.tools?.[0]?.name ?? "none"
        const text = textOf(body)
        if (text.startsWith("You grade")) {
          // the re-ranker: the trials' passages are relevant, everything else is not
          const ids = Array.from(text.matchAll(/<evidence id="(E\d+)"[^>]*>([\s\S]*?)<\/evidence>/g), (m) => ({ id: m[1]!, aspirin: /aspirin/i.test(m[2]!) }))
          return anthropicOk(anthropicMessage({ toolName: tool, toolInput: { scores: ids.map((e) => ({ id: e.id, score: e.aspirin ? 9 : 1 })) } }))
        }
        const finding = /^F1 \[([^\],]+)(?:, page (\d+))?\](?: \([^)]*\))?: (.*)$/m.exec(text)
        return anthropicOk(anthropicMessage({
          toolName: tool,
          toolInput: {
            sentences: [
              {
                text: "The trials disagree: one finds a reduced risk of stroke, the other none.",
                citations: finding === null ? [] : [{ paper_id: finding[1], page: finding[2] === undefined ? null : Number(finding[2]), quote: finding[3] }]
              },
              { text: "Aspirin also cures headaches in every patient.", citations: [{ paper_id: "trial-a", page: null, quote: "aspirin cures headaches" }] }
            ]
          }
        }))
      })
      const env = { ANTHROPIC_API_KEY: "sk-ant-test-key", ANTHROPIC_BASE_URL: server.url }
      const r = yield* Effect.promise(() =>
        runKg(["research", "Does daily low-dose aspirin reduce the risk of stroke?", "--db", db, "--provider", "anthropic", "--json"], { env })
      )
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).not.toContain("sk-ant-test-key")
      const texts = server.requests.map((q) => textOf(q.json as AnthropicBody))
      expect(texts.length).toBe(2)
      expect(texts[0]).toMatch(/^You grade/)
      expect(texts[1]).toMatch(/yes\/no question: your first sentence says yes, no, or that the findings are mixed/)
      expect(texts[1]).toMatch(/<findings>\nF1 \[trial-[ab]\]/)
      const answer = JSON.parse(r.stdout) as {
        answer: string
        shape: { verdict: { answer: string; for: number; against: number } }
        citations: ReadonlyArray<{ paper_id: string; quote: string }>
        ungrounded: ReadonlyArray<string>
        stages: { evidence: { reranked: boolean; corrective: { before: { score: number } } }; synthesis: { mode: string } }
      }
      expect(answer.stages.evidence.reranked).toBe(true)
      expect(typeof answer.stages.evidence.corrective.before.score).toBe("number")
      expect(answer.stages.synthesis.mode).toBe("llm")
      // the verdict is counted from the findings, the LLM's text follows it; the invented sentence is flagged
      expect(answer.shape.verdict).toMatchObject({ answer: "mixed", for: 1, against: 1 })
      expect(answer.answer.split("\n")[0]).toBe("Mixed: 1 finding for, 1 against")
      expect(answer.answer).toContain("The trials disagree: one finds a reduced risk of stroke, the other none.")
      expect(answer.citations.map((c) => c.paper_id)).toEqual(expect.arrayContaining([expect.stringMatching(/^trial-[ab]$/)]))
      expect(answer.ungrounded).toEqual(["Aspirin also cures headaches in every patient."])
    }), 120_000)

})
