/**
 * A read-only server (`kg serve --read-only`): the workbench on a store opened
 * read-only, either one database file, or a read replica of a publish
 * directory (`kg publish`, `@kg/graph/Publish`) that follows its pointer.
 *
 * A replica opens the snapshot `current.json` names, with its own kg services
 * (store read-only, retrieval index and graph loaded once), and checks the
 * pointer every `pollMillis`. When it names a newer snapshot, the replica opens
 * that one beside the old (the old keeps answering meanwhile), then switches:
 * every request that starts afterwards reads the new snapshot, requests in
 * flight finish on the old one, which is closed when the last of them ends. A
 * snapshot that does not open is reported and skipped; the replica keeps
 * serving the one it has. Nothing is written: extraction jobs are refused
 * (they fail at once, naming the writer to use instead).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as Publish from "@kg/graph/Publish"
import * as Jobs from "./internal/jobs.js"
import * as WorkbenchModule from "./Workbench.js"
import { type KgServices, Workbench, type WorkbenchOptions, type WorkbenchService } from "./Workbench.js"

/**
 * What a read-only server serves.
 *
 * @since 0.1.0
 * @category models
 */
export type Source =
  | { readonly _tag: "File"; readonly db: string }
  | { readonly _tag: "Published"; readonly dir: string }

/**
 * Options of {@link layer}.
 *
 * @since 0.1.0
 * @category models
 */
export interface ReplicaOptions extends Omit<WorkbenchOptions, "extract"> {
  readonly source: Source
  /** The kg services of one database file, opened read-only (the CLI's layers). */
  readonly services: (db: string) => Layer.Layer<KgServices, unknown>
  /** How often a replica reads its pointer (default 1000 ms). */
  readonly pollMillis?: number | undefined
  /** Called when a replica switched to another snapshot, or could not. */
  readonly onEvent?: ((event: ReplicaEvent) => Effect.Effect<void>) | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export type ReplicaEvent =
  | { readonly _tag: "Switched"; readonly snapshot: string; readonly papers: number; readonly millis: number }
  | { readonly _tag: "Skipped"; readonly snapshot: string; readonly reason: string }

interface Generation {
  readonly snapshot: string
  readonly wb: WorkbenchService
  readonly scope: Scope.CloseableScope
  users: number
  retired: boolean
}

const message = (e: unknown): string =>
  typeof e === "object" && e !== null && "message" in e && typeof e.message === "string" ? e.message : String(e)

/**
 * The read-only workbench (see the module header), as the `Workbench` layer
 * `Server.layerApp` serves.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: ReplicaOptions): Layer.Layer<Workbench, unknown> =>
  Layer.scoped(
    Workbench,
    Effect.gen(function*() {
      const outer = yield* Effect.scope
      const onEvent = options.onEvent ?? (() => Effect.void)
      const writer = options.source._tag === "Published"
        ? `the store published to ${options.source.dir}`
        : options.source.db
      // Jobs write: refused on a read-only server, each failing at once with the reason.
      const refusal = () =>
        Effect.fail(
          new Error(
            `this server is read-only (${options.source._tag === "Published" ? "a replica" : "--read-only"}): add papers ` +
              `with kg extract on the process that writes ${writer}${options.source._tag === "Published" ? ", then kg publish" : ""}`
          )
        )
      const jobs = yield* Jobs.make(refusal, refusal, refusal, refusal)

      const open = (snapshot: string, db: string) =>
        Effect.gen(function*() {
          const scope = yield* Scope.make()
          const built = yield* Effect.gen(function*() {
            const context = yield* Layer.buildWithScope(options.services(db), scope)
            return yield* WorkbenchModule.make({ ...options, extract: {} }).pipe(
              Effect.provide(context),
              Effect.provideService(Scope.Scope, scope)
            )
          }).pipe(Effect.onError((cause) => Scope.close(scope, Exit.failCause(cause))))
          return { snapshot, wb: built, scope, users: 0, retired: false } satisfies Generation
        })
      const close = (g: Generation) => Scope.close(g.scope, Exit.void)

      const first = options.source._tag === "File"
        ? yield* open(options.source.db, options.source.db)
        : yield* Effect.flatMap(Publish.readCurrent(options.source.dir), (m) => open(m.snapshot, m.file))
      let current: Generation = first
      yield* Scope.addFinalizer(outer, Effect.suspend(() => close(current)))

      const acquire = Effect.sync(() => {
        const g = current
        g.users++
        return g
      })
      const release = (g: Generation) =>
        Effect.suspend(() => {
          g.users--
          return g.retired && g.users === 0 ? close(g) : Effect.void
        })
      const using = <A, E>(f: (g: Generation) => Effect.Effect<A, E>) => Effect.acquireUseRelease(acquire, f, release)

      if (options.source._tag === "Published") {
        const dir = options.source.dir
        let skipped: string | null = null
        const check = Effect.gen(function*() {
          const pointed = yield* Publish.readCurrent(dir).pipe(Effect.option)
          if (pointed._tag === "None") return
          const m = pointed.value
          if (m.snapshot === current.snapshot || m.snapshot === skipped) return
          const started = Date.now()
          const next = yield* open(m.snapshot, m.file).pipe(Effect.either)
          if (next._tag === "Left") {
            skipped = m.snapshot
            return yield* onEvent({ _tag: "Skipped", snapshot: m.snapshot, reason: message(next.left) })
          }
          const old = current
          current = next.right
          old.retired = true
          if (old.users === 0) yield* close(old)
          yield* onEvent({ _tag: "Switched", snapshot: m.snapshot, papers: m.papers, millis: Date.now() - started })
        })
        yield* check.pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("replica: reading the publish directory failed", cause)),
          Effect.repeat(Schedule.spaced(`${Math.max(50, options.pollMillis ?? 1000)} millis`)),
          Effect.forkIn(outer)
        )
      }

      const service: WorkbenchService = {
        get info() {
          return current.wb.info
        },
        token: first.wb.token,
        readOnly: true,
        arxiv: first.wb.arxiv,
        uploadDir: first.wb.uploadDir,
        maxUploadBytes: first.wb.maxUploadBytes,
        minScore: first.wb.minScore,
        read: (effect) => using((g) => g.wb.read(effect)),
        readAlone: (effect) => using((g) => g.wb.readAlone(effect)),
        write: (effect) => using((g) => g.wb.write(effect)),
        jobs
      }
      return service
    })
  )

/**
 * The snapshot a read-only workbench serves now (for tests and `GET /api/info`'s `db`).
 *
 * @since 0.1.0
 * @category utils
 */
export const servedDb = (wb: WorkbenchService): string => wb.info.db
