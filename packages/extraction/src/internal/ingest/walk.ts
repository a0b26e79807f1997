/**
 * File discovery for ingest: walks the given files and folders lazily, in a
 * deterministic order, and reports what it finds as plain data.
 *
 * Folders are walked depth-first with entries sorted by name (code-unit
 * order). Hidden entries (name starting with `.`) and `node_modules` are
 * skipped inside folders; symbolic links are followed, but every folder and
 * file is visited at most once (by real path), which also stops link loops.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { Dirent, Stats } from "node:fs"
import * as fs from "node:fs/promises"
import type { DocumentFormat, SkipKind } from "./text.js"
import { formatOfPath, SUPPORTED_EXTENSIONS } from "./text.js"

/** One thing the walk found. @internal */
export type WalkEntry =
  | { readonly _tag: "File"; readonly path: string; readonly format: DocumentFormat; readonly size: number }
  | {
    readonly _tag: "Problem"
    readonly path: string
    readonly kind: SkipKind
    readonly reason: string
    /** True when the path was given explicitly (not found inside a folder). */
    readonly root: boolean
  }

/** Node error code of a failed fs call (`ENOENT`, `EACCES`, ...). @internal */
export const errnoOf = (e: unknown): string =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : "UNKNOWN"

const describeErrno = (e: unknown): string => {
  const code = errnoOf(e)
  switch (code) {
    case "EACCES":
    case "EPERM":
      return "permission denied; check its permissions"
    case "ELOOP":
      return "is a symbolic link loop; fix or remove the link"
    case "ENAMETOOLONG":
      return "has a name too long for the file system"
    case "ENOTDIR":
      return "has a path component that is not a folder; check the path"
    case "EISDIR":
      return "is a folder, not a file"
    default:
      return `cannot be accessed (${code}: ${e instanceof Error ? e.message : String(e)})`
  }
}

/** A readable reason for a failed stat / read / readdir. @internal */
export const accessProblem = (e: unknown): { readonly kind: SkipKind; readonly reason: string } =>
  errnoOf(e) === "ENOENT"
    ? { kind: "NotFound", reason: "does not exist; check the path (relative paths are resolved from the current folder)" }
    : { kind: "Unreadable", reason: describeErrno(e) }

const joinPath = (dir: string, name: string): string =>
  dir.endsWith("/") || dir.endsWith("\\") ? `${dir}${name}` : `${dir}/${name}`

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

const skippedInFolder = (name: string): boolean => name.startsWith(".") || name === "node_modules"

const stat = (path: string) => Effect.tryPromise({ try: () => fs.stat(path), catch: (e) => e })
const realpath = (path: string) => Effect.tryPromise({ try: () => fs.realpath(path), catch: (e) => e })

const problem = (path: string, root: boolean, info: { readonly kind: SkipKind; readonly reason: string }): WalkEntry => ({
  _tag: "Problem",
  path,
  root,
  ...info
})

/** A file of a type kg does not read, found in a folder: reported, not silently ignored. */
const unsupported = (path: string): WalkEntry => {
  const dot = path.lastIndexOf(".")
  const ext = dot > path.lastIndexOf("/") ? path.slice(dot) : "(no extension)"
  return problem(path, false, {
    kind: "Unsupported",
    reason: `is not a paper kg reads (${ext}; supported: ${SUPPORTED_EXTENSIONS})`
  })
}

/** The mutable per-walk state: real paths already visited. */
interface Visited {
  readonly dirs: Set<string>
  readonly files: Set<string>
}

/** Visit a file once, by its real path. */
const visitReal = (path: string, real: string, format: DocumentFormat, stats: Stats, visited: Visited): Stream.Stream<WalkEntry> => {
  if (visited.files.has(real)) return Stream.empty
  visited.files.add(real)
  return Stream.succeed<WalkEntry>({ _tag: "File", path, format, size: stats.size })
}

const visitFile = (path: string, format: DocumentFormat, stats: Stats, visited: Visited): Stream.Stream<WalkEntry> =>
  Stream.unwrap(
    realpath(path).pipe(
      Effect.map((real) => {
        if (visited.files.has(real)) return Stream.empty
        visited.files.add(real)
        return Stream.succeed<WalkEntry>({ _tag: "File", path, format, size: stats.size })
      }),
      Effect.catchAll((e) => Effect.succeed(Stream.succeed(problem(path, false, accessProblem(e)))))
    )
  )

const walkFolder = (dir: string, root: boolean, visited: Visited): Stream.Stream<WalkEntry> =>
  Stream.unwrap(
    Effect.gen(function*() {
      const real = yield* realpath(dir)
      if (visited.dirs.has(real)) {
        yield* Effect.logDebug(`ingest: ${dir} was already visited (symbolic link loop or repeated path); skipping it`)
        return Stream.empty
      }
      visited.dirs.add(real)
      const entries = yield* Effect.tryPromise({ try: () => fs.readdir(dir, { withFileTypes: true }), catch: (e) => e })
      const kept = entries.filter((d) => !skippedInFolder(d.name)).sort(byName)
      return Stream.fromIterable(kept).pipe(Stream.flatMap((d) => walkChild(joinPath(dir, d.name), d, real, visited)))
    }).pipe(
      Effect.catchAll((e) => {
        const info = accessProblem(e)
        return Effect.succeed(
          Stream.succeed(problem(dir, root, { kind: info.kind, reason: `is a folder that cannot be listed: ${info.reason}` }))
        )
      })
    )
  )

/** A child of a folder whose real path is `realDir`. */
const walkChild = (path: string, dirent: Dirent, realDir: string, visited: Visited): Stream.Stream<WalkEntry> => {
  if (dirent.isDirectory()) return walkFolder(path, false, visited)
  const format = formatOfPath(path)
  if (dirent.isFile() || dirent.isSymbolicLink()) {
    if (format === null && dirent.isFile()) return Stream.succeed(unsupported(path))
    return Stream.unwrap(
      stat(path).pipe(
        Effect.map((stats): Stream.Stream<WalkEntry> => {
          if (stats.isDirectory()) return walkFolder(path, false, visited)
          if (!stats.isFile()) return Stream.empty
          if (format === null) return Stream.succeed(unsupported(path))
          // A regular file (no link) in a folder whose real path is known: its real path is that folder's plus its
          // name, without asking the file system again (one `realpath` a file less).
          return dirent.isFile()
            ? visitReal(path, joinPath(realDir, dirent.name), format, stats, visited)
            : visitFile(path, format, stats, visited)
        }),
        Effect.catchAll((e) =>
          Effect.succeed(
            Stream.succeed(
              problem(
                path,
                false,
                dirent.isSymbolicLink() && errnoOf(e) === "ENOENT"
                  ? { kind: "NotFound", reason: "is a broken symbolic link; fix or remove it" }
                  : accessProblem(e)
              )
            )
          )
        )
      )
    )
  }
  // FIFOs, sockets, devices: never read.
  return Stream.empty
}

const walkRoot = (root: string, visited: Visited): Stream.Stream<WalkEntry> =>
  Stream.unwrap(
    stat(root).pipe(
      Effect.map((stats): Stream.Stream<WalkEntry> => {
        if (stats.isDirectory()) return walkFolder(root, true, visited)
        if (!stats.isFile()) {
          return Stream.succeed(
            problem(root, true, {
              kind: "NotRegularFile",
              reason: "is not a regular file (a device, pipe or socket); give a file or a folder"
            })
          )
        }
        const format = formatOfPath(root)
        if (format === null) {
          return Stream.succeed(
            problem(root, true, {
              kind: "Unsupported",
              reason: `has an unsupported extension; ingest reads ${SUPPORTED_EXTENSIONS} files: convert it or leave it out`
            })
          )
        }
        return visitFile(root, format, stats, visited)
      }),
      Effect.catchAll((e) => Effect.succeed(Stream.succeed(problem(root, true, accessProblem(e)))))
    )
  )

/**
 * Walk the given paths in order. Never fails: missing roots, unreadable
 * folders, broken links and unsupported files (given or found in a folder) are
 * `Problem` entries; hidden files and `node_modules` inside folders are not visited.
 *
 * @internal
 */
export const walk = (roots: ReadonlyArray<string>): Stream.Stream<WalkEntry> =>
  Stream.suspend(() => {
    const visited: Visited = { dirs: new Set(), files: new Set() }
    return Stream.fromIterable(roots).pipe(Stream.flatMap((root) => walkRoot(root, visited)))
  })

/**
 * Check that a root path exists and can be accessed, without walking it.
 *
 * @internal
 */
export const checkRoot = (root: string): Effect.Effect<void, { readonly kind: SkipKind; readonly reason: string }> =>
  stat(root).pipe(Effect.asVoid, Effect.mapError(accessProblem))
