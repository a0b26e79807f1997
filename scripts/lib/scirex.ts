/**
 * The SciREX papers of `shared/data/papers/related` and their gold
 * (`related_gold.jsonl`: each paper's salient entities with every surface
 * form the paper uses for them, and their SciREX types), and the one split
 * used by the entity scripts: a paper falls in the development half or the
 * held-out half by a hash of its SciREX document id. Rules are chosen on the
 * development half only.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { halfOf, sharedDataDir, type Split } from "./shared.js"

/** `shared/data/papers/` beside the repository (a worktree may sit one level deeper), or `$KG_SHARED_DATA/papers/`. */
export const papersDir: string = sharedDataDir("papers")

export type { Split }

/** The side of a SciREX document. */
export const splitOf = (docId: string): Split => halfOf(`scirex-doc-${docId}`)

/** One salient entity of a paper: SciREX's canonical name, its type (null: not typed), its surface forms with counts. */
export interface SalientEntity {
  readonly entity: string
  readonly type: "Method" | "Task" | "Material" | "Metric" | null
  readonly surface_forms: Readonly<Record<string, number>>
}

export interface GoldPaper {
  readonly doc_id: string
  readonly salient_entities: ReadonlyArray<SalientEntity>
}

export interface ScirexPaper {
  readonly docId: string
  /** kg's paper id (the markdown's front matter `id`). */
  readonly paperId: string
  readonly file: string
  readonly text: string
  readonly gold: GoldPaper
}

/** The papers of `dir` (markdown with front matter naming the SciREX sha) with their gold from `goldFile`. */
export const loadPapers = (
  dir: string = join(papersDir, "related"),
  goldFile: string = join(papersDir, "related_gold.jsonl")
): ReadonlyArray<ScirexPaper> => {
  const gold = new Map<string, GoldPaper>()
  for (const line of readFileSync(goldFile, "utf8").split("\n")) {
    if (line.trim() === "") continue
    const g = JSON.parse(line) as GoldPaper
    gold.set(g.doc_id, g)
  }
  const out: Array<ScirexPaper> = []
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".md")).sort()) {
    const text = readFileSync(join(dir, f), "utf8")
    const docId = f.replace(/\.md$/u, "")
    const g = gold.get(docId)
    if (g === undefined) continue
    const paperId = /^id:\s*"?([^"\s]+)"?\s*$/mu.exec(text)?.[1] ?? docId
    out.push({ docId, paperId, file: join(dir, f), text, gold: g })
  }
  return out
}

/** One group of a clean gold entity: forms that name one thing (`docs/entities.md`, "What is one thing"). */
export interface CleanGroup {
  readonly name: string
  readonly forms: ReadonlyArray<string>
  readonly why?: string
}

/** One row of `scripts/data/scirex-entities-clean.jsonl`: a SciREX gold entity split into groups. */
export interface CleanEntity {
  readonly doc_id: string
  readonly entity: string
  readonly groups: ReadonlyArray<CleanGroup>
  readonly dropped: ReadonlyArray<{ readonly form: string; readonly why: string }>
}

/** The clean gold's rows (`scripts/data/scirex-entities-clean.jsonl` by default). */
export const readCleanGold = (file: string): ReadonlyArray<CleanEntity> =>
  readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l, i) => {
    const row = JSON.parse(l) as CleanEntity
    if (typeof row.doc_id !== "string" || !Array.isArray(row.groups)) throw new Error(`${file}:${i + 1}: not a clean gold row`)
    return row
  })

/**
 * The clean gold as clusters per kg paper id: each group is one gold entity (groups of one name within a paper are
 * one), its forms cleaned by `clean` as the raw views clean theirs. Papers without rows have no clusters.
 */
export const cleanClusters = (
  rows: ReadonlyArray<CleanEntity>,
  papers: ReadonlyArray<ScirexPaper>,
  clean: (form: string) => string
): Map<string, Map<string, ReadonlyArray<string>>> => {
  const byDoc = new Map(papers.map((p) => [p.docId, p.paperId]))
  const out = new Map<string, Map<string, ReadonlyArray<string>>>()
  for (const row of rows) {
    const paper = byDoc.get(row.doc_id)
    if (paper === undefined) continue
    const clusters = out.get(paper) ?? new Map<string, ReadonlyArray<string>>()
    out.set(paper, clusters)
    for (const g of row.groups) {
      const forms = g.forms.map(clean).filter((f) => f !== "")
      clusters.set(g.name, Array.from(new Set([...(clusters.get(g.name) ?? []), ...forms])))
    }
  }
  for (const [paper, clusters] of out) if (clusters.size === 0) out.delete(paper)
  return out
}

/** One gold result of `related_gold.jsonl`: a score of a method on a dataset and metric. */
export interface GoldResult {
  readonly Material: string
  readonly Metric: string
  readonly score: string | number
}

/** The gold results file, one paper a line (`doc_id`, `results`). */
export const readGoldResults = (file: string): ReadonlyArray<{ readonly doc_id: string; readonly results: ReadonlyArray<GoldResult> }> =>
  readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l))

/** kg's paper id of a SciREX document (`scirex-` and the first 12 characters of its id). */
export const scirexPaperId = (docId: string): string => `scirex-${docId.slice(0, 12)}`

/**
 * Which gold results a store states: for each distinct (dataset, metric, score) of a paper, whether the score occurs
 * in a stored claim's quote of the paper (`stated`), in the paper's stored text (`inText`), and the scores in the
 * text that no claim states (`misses`).
 */
export const goldResultRecall = (
  gold: ReturnType<typeof readGoldResults>,
  quotesOf: (paperId: string) => ReadonlyArray<string>,
  textOf: (paperId: string) => string
) => {
  let total = 0, stated = 0, inText = 0, statedInText = 0
  const misses: Array<string> = []
  for (const g of gold) {
    const pid = scirexPaperId(g.doc_id)
    const quotes = quotesOf(pid)
    const text = textOf(pid)
    const seen = new Set<string>()
    for (const r of g.results) {
      const score = String(r.score).replace(/%$/, "").trim()
      const key = `${r.Material}|${r.Metric}|${score}`
      if (seen.has(key)) continue
      seen.add(key)
      total++
      const number = new RegExp(`(?<![\\d.])${score.replace(/\./g, "\\.")}(?![\\d])`)
      const found = quotes.some((q) => number.test(q))
      if (found) stated++
      if (number.test(text)) {
        inText++
        if (found) statedInText++
        else misses.push(`${pid} ${r.Material} ${r.Metric} ${score}`)
      }
    }
  }
  return { total, stated, inText, statedInText, misses }
}
