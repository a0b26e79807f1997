/**
 * Per-paper cost of offline extraction as the store grows (issue 23): short real abstracts (SciFact's corpus and
 * claims, CSAbstruct, SciERC, HotpotQA passages from `shared/data`, each a markdown paper of title + text) are
 * extracted with the bundled CLI (`kg extract`, offline, linking and the index update included, exactly as a user
 * runs it) in batches into one store; each batch's wall time over its papers is the per-paper cost at that store
 * size. The load average is printed beside every batch.
 *
 *   node --import tsx scripts/bench-per-paper.ts [--papers N] [--batch N] [--dir DIR] [--keep] [--cli path/to/kg.mjs]
 *     [--only-write]   (write the corpus files to DIR and stop)
 *
 * `--cli` runs another build of the CLI (e.g. a checkout of main) on the same corpus, for a before/after pair.
 */
import { execFileSync } from "node:child_process"
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

const db = join(dir, "store.duckdb")
rmSync(db, { force: true })
let stored = 0
const rows: Array<Record<string, unknown>> = []
for (const bdir of batches) {
  const load = loadavg()[0]!.toFixed(1)
  const t0 = performance.now()
  const out = execFileSync("node", [cli, "extract", bdir, "--db", db, "--json"], {
    encoding: "utf8",
    env: { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" },
    maxBuffer: 1 << 28
  })
  const ms = performance.now() - t0
  const summary = JSON.parse(out.slice(out.indexOf("{")))
  const n = summary.papers as number
  const row = {
    storeBefore: stored,
    papers: n,
    seconds: +(ms / 1000).toFixed(1),
    msPerPaper: +(ms / Math.max(1, n)).toFixed(1),
    claims: summary.claims,
    edges: summary.edges,
    load,
    loadAfter: loadavg()[0]!.toFixed(1)
  }
  stored += n
  rows.push(row)
  console.log(JSON.stringify(row))
}
const total = rows.reduce((s, r) => s + (r["seconds"] as number), 0)
console.log(`total ${total.toFixed(1)} s for ${stored} papers: ${(1000 * total / stored).toFixed(1)} ms a paper`)
if (!argv.includes("--keep") && arg("dir") === undefined) rmSync(dir, { recursive: true, force: true })
