/**
 * The errors of the cluster that a caller (the CLI, a program) may handle. This module imports nothing but
 * `effect`, so a program's declarations that name these errors do not pull in `@effect/cluster`'s own
 * declarations (which need the DOM library's `Transferable` and `@types/pg` when `skipLibCheck` is off).
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"

/**
 * The cluster's PostgreSQL cannot be reached (or refuses kg): the address without credentials, and why.
 *
 * @since 0.1.0
 * @category errors
 */
export class ClusterConnectError extends Data.TaggedError("ClusterConnectError")<{
  readonly address: string
  readonly detail: string
}> {
  override get message(): string {
    return `cannot connect to the cluster's PostgreSQL at ${this.address}: ${this.detail}. Check --cluster (host, port, ` +
      "database, user), that PostgreSQL accepts connections from this machine, and the password (PGPASSWORD or ~/.pgpass)"
  }
}
