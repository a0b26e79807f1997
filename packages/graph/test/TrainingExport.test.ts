import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { ExtractionResult } from "@kg/core/Domain"
import * as NlpService from "@kg/core/NlpService"
import * as EmbeddingsLive from "@kg/extraction/EmbeddingsLive"
import * as Extractor from "@kg/extraction/Extractor"
import * as Shacl from "@kg/extraction/Shacl"
import { DuckDb, type DuckDbService } from "../src/DuckDb.js"
import * as Extract from "../src/Extract.js"
import { surfaceForm } from "../src/internal/export/training.js"
import * as Store from "../src/Store.js"
import * as TrainingExport from "../src/TrainingExport.js"

const paper = (id: string) => fileURLToPath(new URL(`../../../testdata/papers/md/${id}.md`, import.meta.url))

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "kg-training-test-"))
process.on("exit", () => fs.rmSync(workDir, { recursive: true, force: true }))

/** 2212.11791 a second time under another id: same chunk texts, another paper. */
const duplicatePaper = () => {
  const file = path.join(workDir, "duplicate.md")
  const text = fs.readFileSync(paper("2212.11791"), "utf8").replace('id: "arXiv:2212.11791"', 'id: "arXiv:9999.00001"')
  fs.writeFileSync(file, text)
  return file
}

const storeLayer = (file: string) => Store.layer({ path: file, embeddingDimension: 100, embeddingModel: "hashed-test" })

let built: Promise<string> | undefined
const baseStore = () => {
  const file = path.join(workDir, "base.duckdb")
  built ??= Effect.runPromise(
    Extract.runExtraction([paper("2212.11791"), paper("2212.11808"), duplicatePaper()], {}, () => Effect.void).pipe(
      Effect.provide(
        Layer.mergeAll(Extractor.layerOffline, Shacl.layer(), storeLayer(file)).pipe(
          Layer.provideMerge(Layer.merge(NlpService.layer, EmbeddingsLive.Test))
        )
      ),
      Effect.as(file)
    )
  )
  return built
}

let copies = 0
const withStore = <A, E>(f: (db: DuckDbService, dir: string) => Effect.Effect<A, E, DuckDb>) =>
  Effect.flatMap(
    Effect.promise(async () => {
      const base = await baseStore()
      const dir = fs.mkdtempSync(path.join(workDir, `copy-${++copies}-`))
      const file = path.join(dir, "kg.duckdb")
      fs.copyFileSync(base, file)
      if (fs.existsSync(`${base}.wal`)) fs.copyFileSync(`${base}.wal`, `${file}.wal`)
      return { dir, file }
    }),
    ({ dir, file }) => Effect.flatMap(DuckDb, (db) => f(db, dir)).pipe(Effect.provide(storeLayer(file)))
  )

const readLines = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "")

/** Make the extraction run look like a teacher's (an Anthropic model). */
const asTeacher = (db: DuckDbService) =>
  db.run("UPDATE runs SET provider = 'anthropic', model = 'claude-teacher', settings = '{\"ontology\": \"/x/research.ttl\"}'")

describe("TrainingExport", () => {
  it.live("exports nothing from offline runs unless asked to", () =>
    withStore((_db, dir) =>
      Effect.gen(function*() {
        const out = path.join(dir, "none.jsonl")
        const summary = yield* TrainingExport.exportTrainingData(out)
        expect(summary.records).toBe(0)
        expect(summary.runs).toEqual([])
        expect(readLines(out)).toEqual([])
        const all = yield* TrainingExport.exportTrainingData(out, { includeOffline: true })
        expect(all.records).toBeGreaterThan(10)
        expect(all.runs.map((r) => r.provider)).toEqual(["offline"])
      })
    ))

  it.live("writes one decodable record per distinct chunk text of the teacher runs", () =>
    withStore((db, dir) =>
      Effect.gen(function*() {
        yield* asTeacher(db)
        const out = path.join(dir, "train.jsonl")
        const summary = yield* TrainingExport.exportTrainingData(out, { pageSize: 7 })
        const lines = readLines(out)
        expect(lines.length).toBe(summary.records)
        const chunkCount = (yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM chunks"))[0]!.n
        const distinct = (yield* db.query<{ n: number }>("SELECT count(DISTINCT text)::INTEGER AS n FROM chunks"))[0]!.n
        expect(summary.chunksConsidered).toBe(chunkCount)
        expect(summary.records).toBe(distinct)
        expect(summary.duplicates).toBe(chunkCount - distinct)
        expect(summary.duplicates).toBeGreaterThanOrEqual(8) // the duplicated paper's chunks
        const records = lines.map(TrainingExport.decodeLine)
        expect(new Set(records.map((r) => r.input)).size).toBe(records.length)
        // The duplicate's chunks are exported once, from one paper or the other.
        expect(new Set(records.map((r) => r.paperId))).toEqual(
          new Set(["arXiv:2212.11791", "arXiv:2212.11808", "arXiv:9999.00001"].filter((p) =>
            records.some((r) => r.paperId === p)
          ))
        )
        let claims = 0
        for (const r of records) {
          expect(r).toMatchObject({ provider: "anthropic", model: "claude-teacher", ontologyId: "research" })
          // The target is the LLM output contract.
          expect(() =>
            Schema.decodeUnknownSync(ExtractionResult)({
              entities: r.entities,
              relations: r.relations,
              claims: r.claims
            })
          ).not.toThrow()
          for (const c of r.claims) expect(r.input).toContain(c.evidence)
          const names = new Set(r.entities.map((e) => e.label))
          for (const rel of r.relations) {
            expect(names.has(rel.subject) || r.input.toLowerCase().includes(rel.subject.toLowerCase())).toBe(true)
          }
          expect(r.paperRecord?.studied.length).toBeGreaterThan(0)
          claims += r.claims.length
        }
        expect(claims).toBe(summary.claims)
        expect(claims).toBeGreaterThan(0)
        expect(fs.readdirSync(dir).filter((f) => f.includes(".partial"))).toEqual([])
      })
    ))

  it.live("filters by provider and model, and leaves out failed chunks and retracted papers", () =>
    withStore((db, dir) =>
      Effect.gen(function*() {
        yield* asTeacher(db)
        const out = path.join(dir, "f.jsonl")
        expect((yield* TrainingExport.exportTrainingData(out, { provider: "openai" })).records).toBe(0)
        expect((yield* TrainingExport.exportTrainingData(out, { model: "other" })).records).toBe(0)
        const all = yield* TrainingExport.exportTrainingData(out, { provider: "anthropic", model: "claude-teacher" })
        const failed = (yield* db.query<{ chunk_id: string; text: string }>(
          "SELECT chunk_id, text FROM chunks WHERE paper_id = 'arXiv:2212.11808' ORDER BY ordinal LIMIT 1"
        ))[0]!
        yield* db.run("INSERT INTO failed_chunks VALUES (NULL, 'arXiv:2212.11808', $1, 'scripted failure')", [
          failed.chunk_id
        ])
        const afterFailure = yield* TrainingExport.exportTrainingData(out)
        expect(afterFailure.records).toBe(all.records - 1)
        expect(readLines(out).map(TrainingExport.decodeLine).some((r) => r.chunkId === failed.chunk_id)).toBe(false)
        yield* db.run("UPDATE papers SET retracted = true WHERE paper_id = 'arXiv:2212.11808'")
        const retracted = yield* TrainingExport.exportTrainingData(out)
        expect(readLines(out).map(TrainingExport.decodeLine).some((r) => r.paperId === "arXiv:2212.11808")).toBe(false)
        expect(retracted.records).toBeLessThan(afterFailure.records)
      })
    ))

  it.live("fails with a clear error on an unwritable path and leaves no partial file", () =>
    withStore((_db, dir) =>
      Effect.gen(function*() {
        const out = path.join(dir, "missing-dir", "out.jsonl")
        const error = yield* Effect.flip(TrainingExport.exportTrainingData(out, { includeOffline: true }))
        expect(error._tag).toBe("TrainingExportError")
        expect(error.message).toContain("missing-dir")
        expect(fs.existsSync(path.join(dir, "missing-dir"))).toBe(false)
      })
    ))

  it("decodeLine rejects a line that breaks the schema", () => {
    const good = {
      input: "Dropout improves accuracy.",
      ontologyId: "research",
      claims: [],
      entities: [{ label: "Dropout", type: "Method", aliases: [] }],
      relations: [],
      paperRecord: null,
      provider: "anthropic",
      model: "m",
      paperId: "p",
      chunkId: "p#0",
      runId: "r"
    }
    expect(TrainingExport.decodeLine(JSON.stringify(good)).entities[0]!.label).toBe("Dropout")
    expect(() => TrainingExport.decodeLine(JSON.stringify({ ...good, input: "" }))).toThrow()
    expect(() => TrainingExport.decodeLine(JSON.stringify({ ...good, claims: [{ text: "x" }] }))).toThrow()
    expect(() => TrainingExport.decodeLine("{not json")).toThrow()
  })

  it("names an entity as it appears in the chunk", () => {
    expect(surfaceForm("We train a recurrent network (RNN).", "Recurrent Neural Network", ["RNN"])).toBe("RNN")
    expect(surfaceForm("The Transformer wins.", "transformer", [])).toBe("Transformer")
    expect(surfaceForm("Nothing here.", "BERT", ["bert-base"])).toBe("BERT")
  })
})
