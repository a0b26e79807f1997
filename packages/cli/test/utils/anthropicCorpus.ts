/**
 * A test file's set-up for runs of the built `kg` against an LLM: SciFact abstracts written as papers in a temporary
 * folder, and the loopback Anthropic server that simulates prompt caching (`cachingAnthropic`), both made before the
 * file's tests and removed after them.
 */
import { afterAll, beforeAll } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as path from "node:path"
import { cachingAnthropic } from "../../../extraction/test/utils/cachingLlm.js"
import { loopback, type LoopbackServer } from "../../../extraction/test/utils/loopback.js"
import { writeAbstracts } from "../../../graph/test/fixtures/costRun.js"
import { removeDir, tempDir } from "../helpers.js"

/** What the set-up made (read inside tests: the fields are set by `beforeAll`). */
export interface AnthropicCorpus {
  /** The temporary folder (stores go here). */
  readonly dir: string
  /** The folder of `n` abstracts. */
  readonly abstracts: string
  readonly server: LoopbackServer
  /** The environment that points `kg --provider anthropic` at the loopback server. */
  readonly env: () => Record<string, string>
}

/** Register the set-up and tear-down of `n` abstracts and the loopback Anthropic server in the calling `describe`. */
export const anthropicCorpus = (prefix: string, n: number): AnthropicCorpus => {
  let scope: Scope.CloseableScope | undefined
  const state = { dir: "", abstracts: "", server: undefined as LoopbackServer | undefined }
  beforeAll(async () => {
    state.dir = tempDir(prefix)
    state.abstracts = path.join(state.dir, "abstracts")
    writeAbstracts(state.abstracts, n)
    scope = await Effect.runPromise(Scope.make())
    state.server = await Effect.runPromise(Scope.extend(loopback(cachingAnthropic().handler), scope))
  })
  afterAll(async () => {
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
    removeDir(state.dir)
  })
  const server = (): LoopbackServer => {
    if (state.server === undefined) throw new Error("anthropicCorpus: read inside a test, after beforeAll")
    return state.server
  }
  return {
    get dir() {
      return state.dir
    },
    get abstracts() {
      return state.abstracts
    },
    get server() {
      return server()
    },
    env: () => ({ ANTHROPIC_API_KEY: "sk-ant-loopback-0123456789abcdef", ANTHROPIC_BASE_URL: server().url })
  }
}
