/**
 * The PostgreSQL driver (`pg` 8) prints deprecation notices that say nothing to a kg user: @effect/cluster's shard
 * lock connection queues a query behind another (`client.query()` while a query runs; pg 8 queues it, as it always
 * has), and a password read from ~/.pgpass (pg 9 will want it passed in). The cluster commands drop those two, and
 * only those; every other warning is printed as usual.
 */
const quiet = [
  "Calling client.query() when the client is already executing a query",
  "pgpass support is deprecated"
]

let installed = false

export const quietPgDeprecations = (): void => {
  if (installed) return
  installed = true
  const emit = process.emitWarning.bind(process) as (...args: Array<unknown>) => void
  process.emitWarning = ((warning: unknown, ...rest: Array<unknown>) => {
    const text = typeof warning === "string" ? warning : warning instanceof Error ? warning.message : ""
    if (quiet.some((q) => text.startsWith(q))) return
    emit(warning, ...rest)
  }) as typeof process.emitWarning
}
