/**
 * The note a running `kg serve` leaves beside the database it holds (`<db>.serve.json`: process id, URL, start
 * time, whether a token is required; never the token), removed when it stops. Another `kg` command that finds the
 * database locked reads it to say which server holds the file and how to add papers through it.
 *
 * Light on purpose (only `node:fs` and `node:path`): the CLI reads it on any lock error.
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import * as path from "node:path"

/**
 * @since 0.1.0
 * @category models
 */
export interface ServeNote {
  readonly pid: number
  readonly url: string
  readonly db: string
  readonly startedAt: string
  readonly tokenRequired: boolean
}

/**
 * Where the note of a database lives.
 *
 * @since 0.1.0
 * @category utils
 */
export const notePath = (db: string): string => `${path.resolve(db)}.serve.json`

/**
 * Write the note (replacing a stale one).
 *
 * @since 0.1.0
 * @category utils
 */
export const write = (note: ServeNote): void => {
  const file = notePath(note.db)
  const tmp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(tmp, JSON.stringify(note, null, 2) + "\n")
  fs.renameSync(tmp, file)
}

/**
 * Remove the note if it is this process's.
 *
 * @since 0.1.0
 * @category utils
 */
export const remove = (db: string, pid: number = process.pid): void => {
  const note = readRaw(db)
  if (note !== null && note.pid === pid) fs.rmSync(notePath(db), { force: true })
}

const readRaw = (db: string): ServeNote | null => {
  try {
    const v = JSON.parse(fs.readFileSync(notePath(db), "utf8")) as Partial<ServeNote>
    if (typeof v.pid !== "number" || typeof v.url !== "string") return null
    return {
      pid: v.pid,
      url: v.url,
      db: typeof v.db === "string" ? v.db : path.resolve(db),
      startedAt: typeof v.startedAt === "string" ? v.startedAt : "",
      tokenRequired: v.tokenRequired === true
    }
  } catch {
    return null
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * The note of a server that is still running on `db`, or null.
 *
 * @since 0.1.0
 * @category utils
 */
export const read = (db: string): ServeNote | null => {
  const note = readRaw(db)
  return note !== null && alive(note.pid) ? note : null
}

/**
 * What to tell a command that found `db` held by a server: who holds it, and how to add papers or ask through it.
 *
 * @since 0.1.0
 * @category utils
 */
export const heldMessage = (db: string, note: ServeNote): string => {
  const auth = note.tokenRequired ? " -H \"Authorization: Bearer $KG_TOKEN\"" : ""
  return `${db} is held by kg serve (pid ${note.pid}) at ${note.url}, the one process that writes it. ` +
    `Add papers through it: open ${note.url} (Add papers), or ` +
    `curl -X POST${auth} -H 'content-type: application/json' -d '{"paths":["<file or folder>"]}' ${note.url}api/jobs ` +
    `(queries too: ${note.url}api/openapi.json lists the API). Or stop the server (Ctrl-C) and run the command again.`
}
