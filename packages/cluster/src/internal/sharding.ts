/**
 * `@effect/cluster` on PostgreSQL, as kg uses it: sharding with the message
 * and runner storage in SQL (`SqlMessageStorage`, `SqlRunnerStorage`: shard
 * locks are PostgreSQL advisory locks held by each runner's connection), runners
 * talking over TCP sockets (`SocketRunner`, msgpack), and runner health checked
 * by pinging. The configuration is explicit (never read from the environment
 * by `@effect/cluster`'s own `layerFromEnv`, which would take `HOST`/`PORT`).
 *
 * @internal
 */
import * as MessageStorage from "@effect/cluster/MessageStorage"
import * as RunnerHealth from "@effect/cluster/RunnerHealth"
import * as Runners from "@effect/cluster/Runners"
import { RunnerAddress } from "@effect/cluster/RunnerAddress"
import type * as RunnerStorage from "@effect/cluster/RunnerStorage"
import type { Sharding } from "@effect/cluster/Sharding"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SocketRunner from "@effect/cluster/SocketRunner"
import * as SqlMessageStorage from "@effect/cluster/SqlMessageStorage"
import * as SqlRunnerStorage from "@effect/cluster/SqlRunnerStorage"
import * as NodeClusterSocket from "@effect/platform-node/NodeClusterSocket"
import * as RpcSerialization from "@effect/rpc/RpcSerialization"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import { ClusterConnectError } from "../ClusterError.js"
import * as Duration from "effect/Duration"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { SocketServerError } from "@effect/platform/SocketServer"

export { ClusterConnectError }

/**
 * Timings of the cluster. They must be the same on every process of a cluster.
 * `lockSeconds`: how long a runner's shard locks and heartbeat last without a
 * refresh (a runner silent that long is gone and its shards move);
 * `healthSeconds`: how often runners ping each other (a runner that does not
 * answer is gone sooner). Environment: `KG_CLUSTER_LOCK_SECONDS` (default 20),
 * `KG_CLUSTER_HEALTH_SECONDS` (default 10).
 *
 * @internal
 */
export interface Timings {
  readonly lockSeconds: number
  readonly healthSeconds: number
}

const envSeconds = (name: string, fallback: number): number => {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === "") return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a number of seconds above 0, got ${JSON.stringify(raw)}`)
  }
  return value
}

/** @internal */
export const timingsFromEnv = (): Timings => ({
  lockSeconds: envSeconds("KG_CLUSTER_LOCK_SECONDS", 20),
  healthSeconds: envSeconds("KG_CLUSTER_HEALTH_SECONDS", 10)
})

/** Shards of the one shard group; the same everywhere. @internal */
export const SHARDS = 128

/** @internal */
export const shardingConfig = (
  runner: { readonly host: string; readonly port: number } | null,
  timings: Timings
): ShardingConfig.ShardingConfig["Type"] => {
  const lock = Duration.millis(Math.round(timings.lockSeconds * 1000))
  return {
    ...ShardingConfig.defaults,
    runnerAddress: runner === null ? Option.none() : Option.some(RunnerAddress.make({ host: runner.host, port: runner.port })),
    runnerListenAddress: Option.none(),
    shardsPerGroup: SHARDS,
    shardLockExpiration: lock,
    shardLockRefreshInterval: Duration.unsafeDivide(lock, 4),
    runnerHealthCheckInterval: Duration.millis(Math.round(timings.healthSeconds * 1000)),
    refreshAssignmentsInterval: Duration.millis(Math.min(3000, Math.max(250, Math.round(timings.lockSeconds * 1000 / 8)))),
    entityMessagePollInterval: Duration.millis(Math.min(5000, Math.max(500, Math.round(timings.lockSeconds * 1000 / 4)))),
    entityReplyPollInterval: Duration.millis(200),
    sendRetryInterval: Duration.millis(100),
    entityMaxIdleTime: Duration.minutes(2),
    entityTerminationTimeout: Duration.seconds(10)
  }
}

/**
 * The PostgreSQL client of a cluster URL (`postgres://user:password@host:port/db`).
 *
 * @internal
 */
export const pgLayer = (url: string): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, ClusterConnectError> =>
  PgClient.layer({
    url: Redacted.make(url),
    applicationName: "kg",
    maxConnections: 8,
    connectTimeout: Duration.seconds(10)
  }).pipe(Layer.mapError((e) => new ClusterConnectError({ address: addressOf(url), detail: causeText(e) })))

/** The address of a URL without its credentials. @internal */
export const addressOf = (url: string): string => {
  try {
    const u = new URL(url)
    u.username = ""
    u.password = ""
    u.search = ""
    return u.toString()
  } catch {
    return "(a URL that does not parse: postgres://user@host:5432/db)"
  }
}

const causeText = (e: SqlError): string => {
  const inner = (e as { readonly cause?: unknown }).cause
  const text = typeof inner === "object" && inner !== null && "message" in inner && typeof inner.message === "string" && inner.message !== ""
    ? inner.message
    : e.message
  // pg's messages name the host and the user, never the password; drop anything that looks like a URL all the same.
  return text.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, "(url)")
}

const storage = <A, E, R>(
  layer: Layer.Layer<A, E, R | MessageStorage.MessageStorage | RunnerStorage.RunnerStorage | ShardingConfig.ShardingConfig | RpcSerialization.RpcSerialization>,
  config: ShardingConfig.ShardingConfig["Type"]
) =>
  layer.pipe(
    Layer.provideMerge(Layer.orDie(SqlMessageStorage.layer)),
    Layer.provide(Layer.orDie(SqlRunnerStorage.layer)),
    Layer.provide(ShardingConfig.layer(config)),
    Layer.provide(RpcSerialization.layerMsgPack)
  )

/**
 * A runner: sharding with a socket server at `host:port`, pinging its peers.
 *
 * @internal
 */
export const runnerLayer = (
  runner: { readonly host: string; readonly port: number },
  timings: Timings
): Layer.Layer<Sharding | Runners.Runners | MessageStorage.MessageStorage, SocketServerError, SqlClient.SqlClient> => {
  const config = shardingConfig(runner, timings)
  const health = RunnerHealth.layerPing.pipe(
    Layer.provide(Runners.layerRpc),
    Layer.provide(NodeClusterSocket.layerClientProtocol)
  )
  const base = SocketRunner.layer.pipe(
    Layer.provide([NodeClusterSocket.layerSocketServer, NodeClusterSocket.layerClientProtocol]),
    Layer.provide(health)
  )
  return storage(base, config) as Layer.Layer<
    Sharding | Runners.Runners | MessageStorage.MessageStorage,
    SocketServerError,
    SqlClient.SqlClient
  >
}

/**
 * A client of the cluster (the writer): it sends messages and reads replies,
 * and holds no shard.
 *
 * @internal
 */
export const clientLayer = (
  timings: Timings
): Layer.Layer<Sharding | Runners.Runners | MessageStorage.MessageStorage, never, SqlClient.SqlClient> => {
  const config = shardingConfig(null, timings)
  const base = SocketRunner.layerClientOnly.pipe(Layer.provide(NodeClusterSocket.layerClientProtocol))
  return storage(base, config) as Layer.Layer<
    Sharding | Runners.Runners | MessageStorage.MessageStorage,
    never,
    SqlClient.SqlClient
  >
}
