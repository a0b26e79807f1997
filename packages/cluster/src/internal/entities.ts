/**
 * The cluster's two entity types (`@effect/cluster` sharded entities; their
 * messages go through PostgreSQL and the runners' sockets):
 *
 * - `KgPaper`, one entity per paper content hash: `Extract` extracts one paper
 *   of one run and replies with its `PaperWork`. Persisted: the message is
 *   stored before it is delivered, and a runner that dies mid-paper leaves it
 *   unanswered, so the runner that takes over its shards delivers it again. Its
 *   primary key is the run and the paper id: a duplicated send within a run
 *   gets the first reply, never a second extraction.
 * - `KgLlm`, entities named by answer-cache keys: `Generate` asks the model
 *   one request (after checking the shared cache). Not persisted: the caller
 *   (a paper being extracted, or the writer's linking) retries on another
 *   runner when the one it asked goes away. `Probe` answers at once with the
 *   runner's address and load (calls answering or waiting for a model slot):
 *   a caller probes several names of its key (other shards, so other runners)
 *   and sends the call to the least loaded (`clusterLlm.ts`).
 *
 * @internal
 */
import * as ClusterSchema from "@effect/cluster/ClusterSchema"
import * as Entity from "@effect/cluster/Entity"
import * as Rpc from "@effect/rpc/Rpc"
import * as Schema from "effect/Schema"
import { DocumentSchema, PaperWork, UsageSchema } from "../PaperWork.js"

/** @internal */
export class PaperNotExtracted extends Schema.TaggedError<PaperNotExtracted>()("PaperNotExtracted", {
  paperId: Schema.String,
  /** `closed`: the run ended or its writer went away; `failed`: the extraction died. */
  reason: Schema.Literal("closed", "failed"),
  detail: Schema.String
}) {
  override get message(): string {
    return `${this.paperId} was not extracted: ${this.detail}`
  }
}

/** @internal */
export const ExtractRpc = Rpc.make("Extract", {
  payload: {
    runId: Schema.String,
    document: DocumentSchema
  },
  success: PaperWork,
  error: PaperNotExtracted,
  primaryKey: (payload) => `${payload.runId}/${payload.document.paper.id}`
}).annotate(ClusterSchema.Persisted, true)

/** @internal */
export const PaperEntity = Entity.make("KgPaper", [ExtractRpc])

/** @internal */
export const LlmRequestSchema = Schema.Struct({
  system: Schema.String,
  prompt: Schema.String,
  jsonSchema: Schema.optional(Schema.Struct({ name: Schema.String, schema: Schema.Object })),
  history: Schema.optional(Schema.Array(Schema.Struct({ role: Schema.Literal("user", "assistant"), content: Schema.String })))
})

/** @internal */
export class LlmCallFailed extends Schema.TaggedError<LlmCallFailed>()("LlmCallFailed", {
  provider: Schema.String,
  reason: Schema.Literal("http", "timeout", "network", "auth", "invalid_response", "decode", "budget"),
  status: Schema.optional(Schema.Number),
  retryable: Schema.Boolean,
  detail: Schema.String
}) {}

/** @internal */
export const GenerateRpc = Rpc.make("Generate", {
  payload: {
    runId: Schema.String,
    key: Schema.String,
    provider: Schema.Literal("anthropic", "openai"),
    model: Schema.String,
    maxOutputTokens: Schema.Number,
    temperature: Schema.Number,
    request: LlmRequestSchema
  },
  success: Schema.Struct({ text: Schema.String, usage: UsageSchema, cached: Schema.Boolean }),
  error: LlmCallFailed
})

/** The load of the runner that holds this name's shard, at once. @internal */
export const ProbeRpc = Rpc.make("Probe", {
  success: Schema.Struct({
    runner: Schema.String,
    /** Calls answering or waiting for one of its model slots. */
    load: Schema.Number,
    /** Its model slots (`kg worker --concurrency`). */
    slots: Schema.Number
  })
})

/** @internal */
export const LlmEntity = Entity.make("KgLlm", [GenerateRpc, ProbeRpc])
