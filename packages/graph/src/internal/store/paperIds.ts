/**
 * Paper ids are unique per file: the id a document proposes (its arXiv id or
 * DOI, else its file stem) is kept unless another file's paper already holds
 * it, in which case the file gets a stable suffix (a hash of its resolved
 * path). So `a/paper.pdf` and `b/paper.pdf` are two papers, a changed file
 * keeps its id (same path), and a re-run finds every file unchanged.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as nodePath from "node:path"
import { Paper, PaperId } from "@kg/core/Domain"
import type { DuckDbError, DuckDbService } from "../../DuckDb.js"

const resolved = (source: string): string => (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) ? source : nodePath.resolve(source))

/** The suffixed id of a file whose proposed id another file's paper holds. @internal */
export const suffixedId = (candidate: string, source: string): string =>
  `${candidate}-${createHash("sha256").update(resolved(source)).digest("hex").slice(0, 8)}`

/**
 * The id `paper` is stored under: its own when free or held by the same file
 * (same resolved source path), else {@link suffixedId}. `claimed` holds the
 * ids given to other files earlier in this run (id -> resolved source), for
 * papers not written yet. `storedSource`, when given, answers for the store instead of a query (a run's memo of
 * the papers table).
 *
 * @internal
 */
export const assignPaperId = (
  db: DuckDbService,
  paper: Paper,
  claimed: Map<string, string>,
  storedSource?: (id: string) => string | undefined
): Effect.Effect<Paper, DuckDbError> =>
  Effect.gen(function*() {
    const source = resolved(paper.source)
    const holder = (id: string) =>
      Effect.gen(function*() {
        const inRun = claimed.get(id)
        if (inRun !== undefined) return inRun
        if (storedSource !== undefined) {
          const stored = storedSource(id)
          return stored === undefined ? undefined : resolved(stored)
        }
        const rows = yield* db.query<{ source_path: string }>("SELECT source_path FROM papers WHERE paper_id = $1", [id])
        return rows[0] === undefined ? undefined : resolved(rows[0].source_path)
      })
    let id: string = paper.id
    const first = yield* holder(id)
    if (first !== undefined && first !== source) {
      id = suffixedId(paper.id, paper.source)
      // A (vanishingly unlikely) clash of the suffix itself: extend it with the content hash.
      const second = yield* holder(id)
      if (second !== undefined && second !== source) id = `${id}-${paper.contentHash.slice(0, 8)}`
    }
    claimed.set(id, source)
    return id === paper.id ? paper : new Paper({ ...paper, id: PaperId.make(id) })
  })
