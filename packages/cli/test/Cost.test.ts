/**
 * Cost control through the built `kg`: `kg extract --provider anthropic`
 * against the loopback Anthropic that simulates prompt caching, with
 * `--max-input-tokens` (stops, keeps what is stored, says how far it got) and
 * `--max-cost` (needs a price: the built-in table or `prices` in
 * kg.config.json); `kg stats` reports each run's tokens and estimated cost.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { lastJson, runKg } from "./helpers.js"
import { anthropicCorpus } from "./utils/anthropicCorpus.js"

describe.sequential("kg extract with an LLM budget, and kg stats", () => {
  const setup = anthropicCorpus("kg-cost-test-", 8)
  const env = setup.env

  it("--max-input-tokens stops the run at the limit and says how far it got; kg stats reports tokens and cost per run", async () => {
    const db = path.join(setup.dir, "kg.duckdb")
    const stopped = await runKg(
      ["extract", setup.abstracts, "--provider", "anthropic", "--model", "claude-sonnet-4-6", "--max-input-tokens", "12000", "--db", db],
      { env: env() }
    )
    expect(stopped.code, stopped.stderr).toBe(0)
    expect(stopped.stdout).toMatch(/Stopped early: budget reached: .* input-token budget is spent/)
    expect(stopped.stdout).toMatch(/The \d+ paper\(s\) stored so far are kept/)
    expect(stopped.stdout).toMatch(/LLM tokens: [\d,]+ input, [\d,]+ cache reads, [\d,]+ cache writes, [\d,]+ output in \d+ calls; estimated cost \$\d+\.\d{4}/)

    const rest = await runKg(
      ["extract", setup.abstracts, "--provider", "anthropic", "--model", "claude-sonnet-4-6", "--db", db, "--json"],
      { env: env() }
    )
    expect(rest.code, rest.stderr).toBe(0)
    const summary = lastJson(rest)
    expect(summary.stopped).toBeUndefined()
    expect((summary.papers as number) + (summary.papersUnchanged as number)).toBe(8)
    expect(summary.costUsd as number).toBeGreaterThan(0)
    expect(summary.cacheReadTokens as number).toBeGreaterThan(0)

    const stats = await runKg(["stats", "--db", db, "--json"])
    expect(stats.code, stats.stderr).toBe(0)
    const runs = lastJson(stats).runs as ReadonlyArray<Record<string, unknown>>
    expect(runs).toHaveLength(2)
    expect(runs[0]).toMatchObject({ status: "interrupted", provider: "anthropic", model: "claude-sonnet-4-6" })
    expect(runs[0]!.stopped).toMatch(/input-token budget/)
    const first = runs[0]!
    expect((first.inputTokens as number) + (first.cacheReadTokens as number) + (first.cacheWriteTokens as number)).toBeLessThanOrEqual(12000)
    expect(runs[1]).toMatchObject({
      status: "completed",
      inputTokens: summary.inputTokens,
      cacheReadTokens: summary.cacheReadTokens,
      cacheWriteTokens: summary.cacheWriteTokens,
      outputTokens: summary.outputTokens,
      costUsd: summary.costUsd
    })
    const text = await runKg(["stats", "--db", db])
    expect(text.stdout).toMatch(/Runs \(LLM tokens: input \/ cache reads \/ cache writes \/ output; estimated cost\):/)
    expect(text.stdout).toMatch(/anthropic\/claude-sonnet-4-6, \d+ papers: [\d,]+ \/ [\d,]+ \/ [\d,]+ \/ [\d,]+; \$\d+\.\d{4}/)
  })

  it("--max-cost needs a price: unknown models are refused until kg.config.json gives one", async () => {
    const db = path.join(setup.dir, "priced.duckdb")
    const unknown = await runKg(
      ["extract", setup.abstracts, "--provider", "anthropic", "--model", "claude-custom-1", "--max-cost", "0.05", "--db", db],
      { env: env() }
    )
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain("--max-cost needs the price of model claude-custom-1")
    const config = path.join(setup.dir, "kg.config.json")
    fs.writeFileSync(config, JSON.stringify({ prices: { "claude-custom-1": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } } }))
    const priced = await runKg(
      ["extract", setup.abstracts, "--provider", "anthropic", "--model", "claude-custom-1", "--max-cost", "0.05", "--db", db, "--config", config, "--json"],
      { env: env() }
    )
    expect(priced.code, priced.stderr).toBe(0)
    const summary = lastJson(priced)
    expect(summary.costUsd as number).toBeLessThanOrEqual(0.05)
    expect(summary.papers as number).toBeGreaterThan(0)
  })
})
