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
    const paperId = /^id:\s*(\S+)\s*$/mu.exec(text)?.[1] ?? docId
    out.push({ docId, paperId, file: join(dir, f), text, gold: g })
  }
  return out
}
