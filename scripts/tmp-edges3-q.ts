import * as Effect from "effect/Effect"
import { DuckDb } from "../packages/graph/src/DuckDb.js"
import * as Kg from "../packages/graph/src/Kg.js"
const sql = process.argv[3]!
const rows = await Effect.runPromise(Effect.gen(function*() { return yield* (yield* DuckDb).query<Record<string, unknown>>(sql) }).pipe(Effect.provide(Kg.layerStore({ db: process.argv[2]!, readOnly: true }))))
for (const r of rows) console.log(JSON.stringify(r))
