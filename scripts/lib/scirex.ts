/**
 * The SciREX papers of `shared/data/papers/related` and their gold
 * (`related_gold.jsonl`: each paper's salient entities with every surface
 * form the paper uses for them, and their SciREX types), and the one split
 * used by the entity scripts: a paper falls in the development half or the
 * held-out half by a hash of its SciREX document id. Rules are chosen on the
 * development half only.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** `shared/data/papers/` beside the repository (a worktree may sit one level deeper), or `$KG_SHARED_DATA/papers/`. */
export const papersDir: string = [
  process.env["KG_SHARED_DATA"] === undefined ? undefined : `${process.env["KG_SHARED_DATA"]}/papers/`,
  fileURLToPath(new URL("../../../shared/data/papers/", import.meta.url)),
  fileURLToPath(new URL("../../../../shared/data/papers/", import.meta.url))
].find((d): d is string => d !== undefined && existsSync(d)) ?? fileURLToPath(new URL("../../../shared/data/papers/", import.meta.url))

/** FNV-1a 32-bit hash. */
const fnv1a = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

export type Split = "dev" | "heldout"

/** The side of a SciREX document. */
export const splitOf = (docId: string): Split => (fnv1a(`scirex-doc-${docId}`) % 2 === 0 ? "dev" : "heldout")

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
