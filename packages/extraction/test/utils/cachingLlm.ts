/**
 * A loopback Anthropic Messages API that simulates prompt caching, for cost
 * tests and benchmarks. Tokens are counted with an approximate tokenizer
 * (words cut into pieces of at most 10 letters, numbers into groups of 3
 * digits, every other non-space character one token). The cache works as the
 * API documents it: the prefix up to a `cache_control` breakpoint (tools,
 * then system, then messages) is cached when it is at least the model's
 * minimum cacheable length; a request whose prefix is cached reads it
 * (`cache_read_input_tokens`), else writes it (`cache_creation_input_tokens`);
 * `input_tokens` is the rest.
 *
 * The answers are deterministic extractions of the chunk in the prompt: its
 * first sentence as a claim (quoted verbatim), a capitalised word as an
 * entity, and a record for the record tools.
 */
import { createHash } from "node:crypto"
import { type Handler, type RecordedRequest, type Reply, respond } from "./loopback.js"

/** Approximate token count. */
export const approxTokens = (text: string): number => (text.match(/[A-Za-z]{1,10}|\d{1,3}|[^\sA-Za-z\d]/g) ?? []).length

/** Anthropic's minimum cacheable prefix by model. */
export const minCacheable = (model: string): number =>
  /^claude-(opus-4-[5-9]|haiku-4)/.test(model) ? 4096 : /^claude-sonnet-4-[6-9]/.test(model) ? 2048 : 1024

/** Totals the simulator saw. */
export interface SimulatedTotals {
  calls: number
  inputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  outputTokens: number
  /** Calls per tool name (`text` for calls without a tool). */
  readonly byTool: Record<string, number>
}

interface Block {
  readonly text: string
  readonly breakpoint: boolean
}

const blocksOf = (body: Record<string, unknown>): ReadonlyArray<Block> => {
  const blocks: Array<Block> = []
  for (const tool of (body["tools"] as Array<Record<string, unknown>> | undefined) ?? []) {
    const { cache_control, ...rest } = tool
    blocks.push({ text: JSON.stringify(rest), breakpoint: cache_control !== undefined })
  }
  const system = body["system"]
  if (typeof system === "string") blocks.push({ text: system, breakpoint: false })
  else {
    for (const s of (system as Array<Record<string, unknown>> | undefined) ?? []) {
      blocks.push({ text: String(s["text"] ?? ""), breakpoint: s["cache_control"] !== undefined })
    }
  }
  for (const m of (body["messages"] as Array<Record<string, unknown>> | undefined) ?? []) {
    const content = m["content"]
    if (typeof content === "string") blocks.push({ text: content, breakpoint: false })
    else {
      for (const c of (content as Array<Record<string, unknown>>) ?? []) {
        blocks.push({ text: String(c["text"] ?? JSON.stringify(c)), breakpoint: c["cache_control"] !== undefined })
      }
    }
  }
  return blocks
}

const firstSentence = (text: string): string => {
  const match = /[^.!?\n]{20,}?[.!?](?=\s|$)/.exec(text)
  return (match?.[0] ?? text.slice(0, 200)).trim()
}

/** The deterministic answer of a tool call (`ExtractionResult`, `WholePaperExtraction`, `PaperRecord`, ...). */
export const answerFor = (tool: string | undefined, prompt: string): unknown => {
  if (prompt.includes("<premise>")) return { label: "neutral", confidence: 0.6, reason: "The premise does not decide the hypothesis." }
  const chunk = /<chunk[^>]*>\n([\s\S]*?)\n<\/chunk>/.exec(prompt)?.[1] ?? /<paper[^>]*>\n([\s\S]*?)\n<\/paper>/.exec(prompt)?.[1] ?? prompt
  const sentence = firstSentence(chunk)
  const word = /\b[A-Z][a-zA-Z]{3,}\b/.exec(chunk.slice(1))?.[0] ?? "Study"
  const record = {
    studied: sentence.slice(0, 300),
    method: `The paper uses ${word}.`,
    findings: sentence.slice(0, 300),
    domainTags: ["science"]
  }
  const extraction = {
    entities: [{ label: word, type: "Method", aliases: [] }],
    relations: [],
    claims: sentence.length >= 20
      ? [{
        text: sentence,
        evidence: sentence,
        metric: null,
        value: null,
        conditions: null,
        domainTags: ["science"],
        entities: [word],
        confidence: 0.8
      }]
      : []
  }
  if (tool === "PaperRecord") return record
  if (tool === "WholePaperExtraction") return { ...extraction, record }
  return extraction
}

/**
 * A caching Anthropic. `answer` may replace the default answers; the totals
 * are updated as requests come in.
 */
export const cachingAnthropic = (
  options: { readonly answer?: (tool: string | undefined, prompt: string, request: RecordedRequest) => unknown } = {}
): { readonly handler: Handler; readonly totals: SimulatedTotals; readonly reset: () => void } => {
  const cache = new Set<string>()
  const totals: SimulatedTotals = { calls: 0, inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, byTool: {} }
  const handler: Handler = (request): Reply => {
    const body = request.json as Record<string, unknown> | undefined
    if (body === undefined || request.path !== "/v1/messages") {
      return respond(404, { type: "error", error: { type: "not_found_error", message: "not found" } })
    }
    const model = String(body["model"])
    const blocks = blocksOf(body)
    const minimum = minCacheable(model)
    let cumulative = 0
    let read = 0
    let write = 0
    const hash = createHash("sha256").update(model)
    for (const block of blocks) {
      hash.update("\u0000").update(block.text)
      cumulative += approxTokens(block.text)
      if (!block.breakpoint) continue
      const key = hash.copy().digest("hex")
      if (cache.has(key)) read = cumulative
      else if (cumulative >= minimum) {
        write = cumulative
        cache.add(key)
      }
    }
    const total = cumulative + 8 // role and turn markers
    const creation = write > read ? write - read : 0
    const toolChoice = body["tool_choice"] as { name?: string } | undefined
    const tool = toolChoice?.name
    const messages = (body["messages"] as Array<{ content: unknown }> | undefined) ?? []
    const prompt = typeof messages[0]?.content === "string" ? messages[0].content : ""
    const input = (options.answer ?? ((t, p) => answerFor(t, p)))(tool, prompt, request)
    const outputText = JSON.stringify(input)
    const usage = {
      input_tokens: total - read - creation,
      cache_creation_input_tokens: creation,
      cache_read_input_tokens: read,
      output_tokens: approxTokens(outputText) + 12
    }
    totals.calls++
    totals.inputTokens += usage.input_tokens
    totals.cacheReadTokens += usage.cache_read_input_tokens
    totals.cacheWriteTokens += usage.cache_creation_input_tokens
    totals.outputTokens += usage.output_tokens
    totals.byTool[tool ?? "text"] = (totals.byTool[tool ?? "text"] ?? 0) + 1
    return respond(200, {
      id: `msg_sim_${totals.calls}`,
      type: "message",
      role: "assistant",
      model,
      content: tool !== undefined
        ? [{ type: "tool_use", id: `toolu_sim_${totals.calls}`, name: tool, input }]
        : [{ type: "text", text: outputText }],
      stop_reason: tool !== undefined ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { ...usage, cache_creation: { ephemeral_5m_input_tokens: creation, ephemeral_1h_input_tokens: 0 } }
    })
  }
  const reset = () => {
    cache.clear()
    totals.calls = 0
    totals.inputTokens = 0
    totals.cacheReadTokens = 0
    totals.cacheWriteTokens = 0
    totals.outputTokens = 0
    for (const k of Object.keys(totals.byTool)) delete totals.byTool[k]
  }
  return { handler, totals, reset }
}
