/**
 * `kg publish --to <dir>`: checkpoint the store, copy it with its retrieval index into a new snapshot folder, check
 * the copy, and switch `current.json` to it (see `@kg/graph/Publish`).
 */
import type * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Publish from "@kg/graph/Publish"
import type { config as publishConfig } from "../commands/publish.js"
import * as Layers from "../Layers.js"
import { flag, withSettings } from "../internal/settings.js"

/** The parsed options and arguments of `kg publish`. @since 0.1.0 */
export type PublishArgs = Command.Command.ParseConfig<typeof publishConfig>

export const publish = (args: PublishArgs) =>
  withSettings(args.config, { db: flag(args.db) }, (settings) =>
    Effect.gen(function*() {
      const keep = Option.getOrUndefined(args.keep)
      if (keep !== undefined && (!Number.isInteger(keep) || keep < 1)) {
        return yield* Effect.fail(new Error(`--keep must be a whole number of at least 1, got ${keep}`))
      }
      const done = yield* Publish.publish({ to: args.to, keep })
      const m = done.manifest
      if (args.json) return yield* Console.log(JSON.stringify({ ...m, dir: done.dir, removed: done.removed, millis: done.millis }))
      yield* Console.log(
        `Published ${settings.db.value} as snapshot ${m.snapshot} in ${done.dir} (${m.papers} papers, ${m.claims} claims, ` +
          `${(m.bytes / 1e6).toFixed(1)} MB) in ${(done.millis / 1000).toFixed(1)}s; current.json points at it` +
          (done.removed.length > 0 ? `; removed ${done.removed.length} older snapshot(s)` : "")
      )
      yield* Console.log(`Serve it: kg serve --read-only --db ${done.dir}`)
    }).pipe(Effect.provide(Layers.storeLayer(settings.db.value, { mustExist: true }))))
