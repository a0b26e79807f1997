/**
 * The offline worker thread's work (`internal/offline/prepare.preparePaper`: chunking, every chunk's extraction and
 * the paper record) run in this thread over a corpus, next to wink's default pipeline over the same texts, CPU time
 * of both measured in the same process (the ratio the issue's "offline extraction vs a bare wink pass" asks about,
 * without the main thread, DuckDB or the load of another thread):
 *
 *   node --import tsx --conditions=@kg/source scripts/bench-worker.ts [--rounds N] [--out file.jsonl] [paths...]
 *   node --import tsx scripts/bench-worker.ts --dist ...   (the compiled packages: `pnpm build` first)
 *
 * Each round after the first meets sentences the rules remember from the round before (the worker meets each paper
 * once): compare first rounds, warmed up on other texts with `--warmup DIR`. `--root DIR` times another checkout's
 * sources (e.g. main's, exported beside this one with its node_modules links) the same way.
 * `--wink-only` times only wink's default pipeline (three rounds).
 * `--unshared` runs it without `NlpService.chunkParsed` (one sentence parse of the document for the chunker, a full
 * parse of each chunk, the record's own sentence split of each section: the worker before the shared parse).
 *
 * Default paths: `shared/data/papers/md`. wink runs `readDoc(text).tokens()` with its default pipeline (as
 * `bench-extract.ts` times it), before and after the worker's rounds; the lowest round of each counts. `--out` writes
 * one line per paper (its id, a hash of its prepared answer, and the answer) to compare two versions' answers
 * (`--compare a.jsonl b.jsonl` prints which papers differ and how many chunks, claims and entities differ).
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as NlpService from "@kg/core/NlpService"
import * as Ingest from "@kg/extraction/Ingest"
import type * as Prepare from "../packages/extraction/src/internal/offline/prepare.js"

const argv = process.argv.slice(2)
const option = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : undefined
}

interface Line {
  readonly id: string
  readonly hash: string
  readonly prepared: {
    readonly pieces: ReadonlyArray<{ readonly start: number; readonly end: number }>
    readonly extractions: ReadonlyArray<
      { readonly ok: { readonly entities: ReadonlyArray<unknown>; readonly claims: ReadonlyArray<unknown> } } | { readonly error: string }
    >
    readonly record: unknown
  }
}

const compare = (a: string, b: string) => {
  const read = (f: string) =>
    new Map(fs.readFileSync(f, "utf8").split("\n").filter((l) => l !== "").map((l) => {
      const line = JSON.parse(l) as Line
      return [line.id, line] as const
    }))
  const la = read(a)
  const lb = read(b)
  let same = 0
  const key = (x: unknown) => JSON.stringify(x)
  const multiset = (xs: ReadonlyArray<unknown>) => {
    const m = new Map<string, number>()
    for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1)
    return m
  }
  const diff = (xs: ReadonlyArray<unknown>, ys: ReadonlyArray<unknown>) => {
    const mx = multiset(xs)
    const my = multiset(ys)
    let onlyX = 0
    let onlyY = 0
    for (const [k, n] of mx) onlyX += Math.max(0, n - (my.get(k) ?? 0))
    for (const [k, n] of my) onlyY += Math.max(0, n - (mx.get(k) ?? 0))
    return [onlyX, onlyY] as const
  }
  const totals = { claims: [0, 0, 0, 0], entities: [0, 0, 0, 0], records: 0, pieces: 0 }
  for (const [id, x] of la) {
    const y = lb.get(id)
    if (y === undefined) {
      console.log(`${id}: only in ${a}`)
      continue
    }
    const all = (l: Line, field: "claims" | "entities") =>
      l.prepared.extractions.flatMap((e) => ("ok" in e ? e.ok[field] : []))
    for (const field of ["claims", "entities"] as const) {
      const [ox, oy] = diff(all(x, field), all(y, field))
      const t = totals[field]
      t[0] += all(x, field).length
      t[1] += all(y, field).length
      t[2] += ox
      t[3] += oy
    }
    if (x.hash === y.hash) {
      same++
      continue
    }
    const pieces = key(x.prepared.pieces) === key(y.prepared.pieces)
    const record = key(x.prepared.record) === key(y.prepared.record)
    if (!pieces) totals.pieces++
    if (!record) totals.records++
    const chunks = x.prepared.extractions.filter((e, i) => key(e) !== key(y.prepared.extractions[i])).length
    const [ca, cb] = diff(all(x, "claims"), all(y, "claims"))
    const [ea, eb] = diff(all(x, "entities"), all(y, "entities"))
    console.log(
      `${id}: ${pieces ? "same chunks" : "chunks differ"}, ${chunks} chunk answer(s) differ, claims -${ca} +${cb}, ` +
        `entities -${ea} +${eb}, record ${record ? "same" : "differs"}`
    )
  }
  console.log(`${same} of ${la.size} papers identical; chunking differs in ${totals.pieces}, records in ${totals.records}`)
  console.log(`claims: ${totals.claims[0]} / ${totals.claims[1]}, only in a ${totals.claims[2]}, only in b ${totals.claims[3]}`)
  console.log(`entities: ${totals.entities[0]} / ${totals.entities[1]}, only in a ${totals.entities[2]}, only in b ${totals.entities[3]}`)
}

const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

const main = async () => {
  const cmp = argv.indexOf("--compare")
  if (cmp >= 0) return compare(argv[cmp + 1]!, argv[cmp + 2]!)
  const rounds = Number(option("rounds") ?? 1)
  const out = option("out")
  const positional = argv.filter((a, i) => !a.startsWith("--") && !/^--(rounds|out|warmup|root)$/.test(argv[i - 1] ?? ""))
  const inputs = positional.length > 0
    ? positional.map((p) => path.resolve(p))
    : [fileURLToPath(new URL("../../shared/data/papers/md", import.meta.url))]
  const read = (paths: ReadonlyArray<string>) =>
    Effect.runPromise(
      Ingest.ingest(paths).pipe(
        Stream.filterMap((e) => (e._tag === "Document" ? Option.some(e.doc) : Option.none())),
        Stream.runCollect,
        Effect.map((c) => Array.from(c))
      )
    )
  const docs = await read(inputs)
  const warmup = option("warmup")
  const warmDocs = warmup === undefined ? [] : await read([path.resolve(warmup)])
  const coreRequire = createRequire(new URL("../packages/core/package.json", import.meta.url))
  const winkNLP = coreRequire("wink-nlp") as typeof import("wink-nlp").default
  const winkModel = coreRequire("wink-eng-lite-web-model") as Parameters<typeof import("wink-nlp").default>[0]
  const bare = winkNLP(winkModel)
  const winkRound = () => {
    const t = cpu()
    let tokens = 0
    for (const d of docs) tokens += bare.readDoc(d.text).tokens().length()
    return { seconds: cpu() - t, tokens }
  }
  // `--dist`: the compiled module (named functions in a CPU profile; run without `--conditions=@kg/source`)
  // `--root DIR`: another checkout's sources (its `offline/prepare.ts` and `NlpService.ts`), e.g. main's, to time
  // before and after in the same way
  const root = option("root")
  const { preparePaper } = (await import(
    root !== undefined
      ? path.resolve(root, "packages/extraction/src/internal/offline/prepare.ts")
      : argv.includes("--dist")
      ? "../packages/extraction/dist/internal/offline/prepare.js"
      : "../packages/extraction/src/internal/offline/prepare.js"
  )) as typeof Prepare
  const Nlp = root !== undefined
    ? (await import(path.resolve(root, "packages/core/src/NlpService.ts"))) as typeof NlpService
    : NlpService
  const service = Effect.runSync(Effect.provide(Nlp.NlpService, Nlp.layer))
  // `--unshared`: without `chunkParsed` (the chunker's sentence parse, a full parse per chunk, the record's own split)
  if (argv.includes("--wink-only")) {
    // the baseline alone (for runs of `kg extract` timed by `thread-cpu.mjs`): best of three rounds
    winkRound()
    const rounds = [winkRound().seconds, winkRound().seconds, winkRound().seconds]
    console.log(`wink default pipeline over ${docs.length} papers: ${rounds.map((x) => x.toFixed(2)).join(", ")} s CPU`)
    return
  }
  const nlp = argv.includes("--unshared") ? { ...service, chunkParsed: undefined } : service
  const prepareRound = (write: ((line: string) => void) | null, corpus = docs) => {
    const t = cpu()
    let chunks = 0
    for (const d of corpus) {
      const prepared = preparePaper(nlp, {
        paperId: d.paper.id,
        title: d.paper.title,
        text: d.text,
        pages: d.pages,
        config: NlpService.defaultChunkConfig
      })
      chunks += prepared.pieces.length
      if (write !== null) {
        const json = JSON.stringify(prepared)
        write(JSON.stringify({ id: d.paper.id, hash: createHash("sha256").update(json).digest("hex").slice(0, 16), prepared }))
      }
    }
    return { seconds: cpu() - t, chunks }
  }
  // warm-up: the model and both pipelines loaded, the JIT warm; on other texts (`--warmup DIR`), since the rules
  // remember the sentences met lately and the worker meets each paper once
  winkRound()
  if (warmDocs.length > 0) prepareRound(null, warmDocs)
  const words = docs.reduce((n, d) => n + d.text.split(/\s+/).filter((w) => w !== "").length, 0)
  const winks = [winkRound().seconds]
  const prepares: Array<number> = []
  let chunks = 0
  for (let r = 0; r < rounds; r++) {
    const lines: Array<string> = []
    const round = prepareRound(r === 0 && out !== undefined ? (l) => lines.push(l) : null)
    if (lines.length > 0) fs.writeFileSync(out!, lines.join("\n") + "\n")
    prepares.push(round.seconds)
    chunks = round.chunks
    winks.push(winkRound().seconds)
  }
  const w = Math.min(...winks)
  const p = Math.min(...prepares)
  console.log(`${docs.length} papers, ${words.toLocaleString("en-US")} words, ${chunks} chunks`)
  console.log(`wink default pipeline: ${winks.map((s) => s.toFixed(2)).join(", ")} s CPU`)
  console.log(`worker's work (preparePaper): ${prepares.map((s) => s.toFixed(2)).join(", ")} s CPU`)
  console.log(`ratio (lowest of each): ${(p / w).toFixed(2)} x wink`)
}

void main()
