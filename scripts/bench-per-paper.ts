/**
 * Per-paper cost of offline extraction as the store grows (issue 23): short real abstracts (SciFact's corpus and
 * claims, CSAbstruct, SciERC, HotpotQA passages from `shared/data`, each a markdown paper of title + text) are
 * extracted with the bundled CLI (`kg extract`, offline, linking and the index update included, exactly as a user
 * runs it) in batches into one store; each batch's wall time over its papers is the per-paper cost at that store
 * size. The load average is printed beside every batch.
 *
 *   node --import tsx scripts/bench-per-paper.ts [--papers N] [--batch N] [--dir DIR] [--keep] [--cli path/to/kg.mjs]
 *     [--pair] [--env K=V,K=V] [--only-write] [--one-run]
 *
 * `--pair` extracts each batch twice, into two stores: one paper per transaction (`KG_WRITE_BATCH=0`) and grouped
 * writes (the default), one right after the other; `--env` adds environment variables to every run; `--only-write`
 * writes the corpus files to DIR and stops; `--one-run` extracts every batch in ONE `kg extract` run (all the batch
 * folders as its paths) into a fresh store, so that a run's fixed cost (start-up, linking's and the index's per-run
 * reads, the checkpoint at close, V8's compilations) is paid once, as by a user extracting a whole corpus. Each line
 * gives wall and CPU time (user + system of every thread, `/usr/bin/time`) and the load average before and after.
 *
 * `--cli` runs another build of the CLI (e.g. a checkout of main) on the same corpus, for a before/after pair.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const argv = process.argv.slice(2)
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : undefined
}
const maxPapers = Number(arg("papers") ?? 5000)
const batch = Number(arg("batch") ?? 500)
const cli = arg("cli") ?? fileURLToPath(new URL("../packages/cli/bin/kg.mjs", import.meta.url))

const shared = [
  process.env["KG_SHARED_DATA"],
  fileURLToPath(new URL("../../shared/data", import.meta.url)),
  fileURLToPath(new URL("../../../shared/data", import.meta.url))
].find((d): d is string => d !== undefined && existsSync(d))
if (shared === undefined) throw new Error("shared/data not found: set KG_SHARED_DATA")

const jsonl = (file: string): Array<any> =>
  readFileSync(join(shared, file), "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l))

interface Doc { readonly id: string; readonly title: string; readonly text: string }
const docs: Array<Doc> = []
for (const d of jsonl("claims/scifact_train_corpus.jsonl")) {
  docs.push({ id: `scifact-doc-${d.doc_id}`, title: d.title, text: d.abstract.join(" ") })
}
for (const f of ["csabstruct/train.jsonl", "csabstruct/dev.jsonl"]) {
  for (const [i, d] of jsonl(f).entries()) {
    const s: Array<string> = d.sentences
    docs.push({ id: `csabstruct-${f.includes("dev") ? "dev" : "train"}-${i}`, title: s[0]!.slice(0, 120), text: s.slice(1).join(" ") })
  }
}
for (const f of ["extraction/scierc_train_flat.jsonl", "extraction/scierc_dev_flat.jsonl"]) {
  for (const d of jsonl(f)) {
    const text: string = d.text
    docs.push({ id: `scierc-${d.doc_key}`, title: text.split(" . ")[0]!.slice(0, 120), text })
  }
}
for (const d of jsonl("multihop/hotpotqa_100_corpus.jsonl")) docs.push({ id: d.passage_id, title: d.title, text: d.text })
for (const c of jsonl("claims/scifact_train_claims.jsonl")) {
  docs.push({ id: `scifact-claim-${c.id}`, title: `SciFact claim ${c.id}`, text: c.claim })
}
// a fixed interleaving, so that every batch mixes the sources
const order = docs.map((d, i) => ({ d, k: (i * 2654435761) % 4294967296 })).sort((a, b) => a.k - b.k).map((x) => x.d)
const seenIds = new Set<string>()
const corpus = order.filter((d) => !seenIds.has(d.id) && seenIds.add(d.id) !== undefined).slice(0, maxPapers)

const dir = arg("dir") ?? mkdtempSync(join(tmpdir(), "kg-bench-per-paper-"))
const yaml = (s: string) => JSON.stringify(s)
const batches: Array<string> = []
for (let b = 0; b * batch < corpus.length; b++) {
  const bdir = join(dir, `batch-${String(b).padStart(3, "0")}`)
  mkdirSync(bdir, { recursive: true })
  for (const d of corpus.slice(b * batch, (b + 1) * batch)) {
    writeFileSync(join(bdir, `${d.id}.md`), `---\nid: ${yaml(d.id)}\ntitle: ${yaml(d.title)}\nyear: 2020\n---\n\n${d.text}\n`)
  }
  batches.push(bdir)
}
console.log(`${corpus.length} papers (of ${docs.length}) in ${batches.length} batches under ${dir}`)
if (argv.includes("--only-write")) process.exit(0)

// `--pair`: every batch also goes, just before, into a second store written one paper per transaction
// (`KG_WRITE_BATCH=0`), so that each size has a before/after pair measured under the same load.
const modes: ReadonlyArray<{ readonly name: string; readonly env: Record<string, string> }> = argv.includes("--pair")
  ? [{ name: "alone", env: { KG_WRITE_BATCH: "0" } }, { name: "grouped", env: {} }]
  : [{ name: "run", env: {} }]
const extraEnv = Object.fromEntries((arg("env") ?? "").split(",").filter((kv) => kv.includes("=")).map((kv) => kv.split("=", 2) as [string, string]))
const stored = new Map<string, number>(modes.map((m) => [m.name, 0]))
const totals = new Map<string, { seconds: number; cpu: number; papers: number }>(modes.map((m) => [m.name, { seconds: 0, cpu: 0, papers: 0 }]))
for (const m of modes) rmSync(join(dir, `${m.name}.duckdb`), { force: true })
const runs = argv.includes("--one-run") ? [batches] : batches.map((b) => [b])
for (const paths of runs) {
  for (const m of modes) {
    const db = join(dir, `${m.name}.duckdb`)
    const load = loadavg()[0]!.toFixed(1)
    const t0 = performance.now()
    // /usr/bin/time gives the child's CPU time (user + system), steadier than wall time on a shared machine
    const res = spawnSync("/usr/bin/time", ["-f", "CPU %U %S", "node", cli, "extract", ...paths, "--db", db, "--json"], {
      encoding: "utf8",
      env: { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", ...extraEnv, ...m.env },
      maxBuffer: 1 << 28
    })
    const ms = performance.now() - t0
    if (res.status !== 0) throw new Error(`kg extract failed (${res.status}): ${res.stderr.slice(-2000)}`)
    const cpuLine = /CPU ([\d.]+) ([\d.]+)/.exec(res.stderr)
    const cpu = cpuLine === null ? NaN : Number(cpuLine[1]) + Number(cpuLine[2])
    const phase = (re: RegExp) => res.stderr.split("\n").find((l) => re.test(l))
    const summary = JSON.parse(res.stdout.slice(res.stdout.indexOf("{")))
    const n = summary.papers as number
    const before = stored.get(m.name)!
    const row = {
      mode: m.name,
      storeBefore: before,
      papers: n,
      seconds: +(ms / 1000).toFixed(1),
      msPerPaper: +(ms / Math.max(1, n)).toFixed(1),
      cpuSeconds: +cpu.toFixed(1),
      cpuMsPerPaper: +((1000 * cpu) / Math.max(1, n)).toFixed(1),
      claims: summary.claims,
      edges: summary.edges,
      indexed: phase(/^indexed:/)?.replace(/^indexed: /, ""),
      load,
      loadAfter: loadavg()[0]!.toFixed(1)
    }
    stored.set(m.name, before + n)
    const t = totals.get(m.name)!
    totals.set(m.name, { seconds: t.seconds + ms / 1000, cpu: t.cpu + cpu, papers: t.papers + n })
    console.log(JSON.stringify(row))
  }
}
for (const [name, t] of totals) {
  console.log(
    `${name}: ${t.seconds.toFixed(1)} s wall, ${t.cpu.toFixed(1)} s CPU for ${t.papers} papers: ` +
      `${(1000 * t.seconds / t.papers).toFixed(1)} ms wall, ${(1000 * t.cpu / t.papers).toFixed(1)} ms CPU a paper`
  )
}
if (!argv.includes("--keep") && arg("dir") === undefined) rmSync(dir, { recursive: true, force: true })
