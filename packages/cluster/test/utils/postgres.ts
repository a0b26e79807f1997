/**
 * A throwaway PostgreSQL for tests: Debian's `postgresql` package (`/usr/lib/postgresql/<version>/bin`, or the
 * binaries on PATH), a cluster made by `initdb` in a temporary folder, started by `pg_ctl` on a free loopback port
 * with trust authentication, durability off (fsync, synchronous commit), and removed when stopped. As root (CI),
 * initdb and the server run as the `postgres` user the package creates (PostgreSQL refuses to run as root).
 *
 * `.ci/run` installs the package with apt-get when it is missing. {@link startPostgres} gives the reason when it
 * truly cannot start one (no binaries and no way to install them).
 *
 * The policy ({@link requirePostgres}): the cluster tests never skip silently. Without a PostgreSQL they fail, with
 * the reason and the fix, on every machine (CI included); a developer without the package may skip them on purpose
 * with `KG_SKIP_CLUSTER=1`, and the summary then counts them as skipped.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import { createServer } from "node:net"
import * as os from "node:os"
import * as path from "node:path"

export interface TestPostgres {
  /** `postgres://kg@127.0.0.1:<port>/postgres` */
  readonly url: string
  readonly port: number
  /** Run SQL through `psql` (for test set-up and checks); the output, one row per line, columns separated by `|`. */
  readonly psql: (sql: string) => string
  readonly stop: () => void
}

export type Started = { readonly ok: true; readonly pg: TestPostgres } | { readonly ok: false; readonly reason: string }

const binDir = (): string | null => {
  const debian = "/usr/lib/postgresql"
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
    for (const v of versions) {
      const bin = path.join(debian, v, "bin")
      if (fs.existsSync(path.join(bin, "initdb")) && fs.existsSync(path.join(bin, "pg_ctl"))) return bin
    }
  }
  const found = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" })
  const initdb = found.stdout.trim()
  return found.status === 0 && initdb !== "" ? path.dirname(fs.realpathSync(initdb)) : null
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** The uid and gid of the user the server runs as: this process's, or the `postgres` user's when running as root. */
const runAs = (): { readonly uid: number; readonly gid: number } | null | "no-user" => {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return null
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" })
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" })
  if (uid.status !== 0 || gid.status !== 0) return "no-user"
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
}

export const startPostgres = async (): Promise<Started> => {
  const bin = binDir()
  if (bin === null) {
    return { ok: false, reason: "PostgreSQL is not installed (Debian: apt-get install postgresql; .ci/run does it)" }
  }
  const user = runAs()
  if (user === "no-user") {
    return { ok: false, reason: "running as root and there is no `postgres` user to run PostgreSQL as" }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kg-pg-"))
  const data = path.join(dir, "data")
  const as = user === null ? {} : { uid: user.uid, gid: user.gid }
  if (user !== null) fs.chownSync(dir, user.uid, user.gid)
  const run = (cmd: string, args: ReadonlyArray<string>) => {
    const r = spawnSync(path.join(bin, cmd), args, { encoding: "utf8", cwd: dir, ...as, env: { ...process.env, LC_ALL: "C" } })
    return { ok: r.status === 0, output: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error !== undefined ? String(r.error) : ""}` }
  }
  const init = run("initdb", ["-D", data, "-A", "trust", "-U", "kg", "--no-sync", "-E", "UTF8", "--locale=C"])
  if (!init.ok) {
    fs.rmSync(dir, { recursive: true, force: true })
    return { ok: false, reason: `initdb failed: ${init.output.trim().split("\n").slice(-3).join(" ")}` }
  }
  const port = await freePort()
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=300"
  ].join(" ")
  const start = run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "start"])
  if (!start.ok) {
    const log = fs.existsSync(path.join(dir, "server.log")) ? fs.readFileSync(path.join(dir, "server.log"), "utf8") : ""
    fs.rmSync(dir, { recursive: true, force: true })
    return { ok: false, reason: `pg_ctl start failed: ${start.output.trim()} ${log.trim().split("\n").slice(-3).join(" ")}` }
  }
  const psqlBin = fs.existsSync(path.join(bin, "psql")) ? path.join(bin, "psql") : "psql"
  const pg: TestPostgres = {
    url: `postgres://kg@127.0.0.1:${port}/postgres`,
    port,
    psql: (sql) => {
      const r = spawnSync(psqlBin, ["-h", "127.0.0.1", "-p", String(port), "-U", "kg", "-d", "postgres", "-At", "-c", sql], {
        encoding: "utf8"
      })
      if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`)
      return r.stdout.trim()
    },
    stop: () => {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
  return { ok: true, pg }
}

/**
 * A PostgreSQL for a cluster test file, or `null` when the developer skips the cluster tests on purpose
 * (`KG_SKIP_CLUSTER=1`) or none can be started outside CI (then skipped, saying why). Under CI (`CI` set, as
 * `.ci/run` sets it), a PostgreSQL that cannot be started fails the file at once with the reason and what to do.
 */
export const requirePostgres = async (what: string): Promise<TestPostgres | null> => {
  if (process.env["KG_SKIP_CLUSTER"] === "1") {
    console.warn(`KG_SKIP_CLUSTER=1: ${what} skipped`)
    return null
  }
  const started = await startPostgres()
  if (started.ok) return started.pg
  // On a developer's machine without PostgreSQL (the README's `pnpm test` on a fresh machine), as for chromium:
  // skipped, saying why; under CI (`.ci/run` installs it and sets CI) a missing PostgreSQL fails.
  if (process.env["CI"] === undefined) {
    console.warn(`${what} skipped: no PostgreSQL could be started (${started.reason}); install Debian's postgresql ` +
      "package to run them (CI always does)")
    return null
  }
  throw new Error(
    `${what} need a PostgreSQL and none could be started: ${started.reason}. Install Debian's postgresql package ` +
      "(apt-get install postgresql; .ci/run does it), or skip these tests on purpose with KG_SKIP_CLUSTER=1"
  )
}
