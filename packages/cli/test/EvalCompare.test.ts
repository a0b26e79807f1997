/**
 * Prompt A/B (`kg eval extraction --compare`): variants (the offline extractor, and an LLM with two different
 * instructions) scored side by side on the same gold, against a loopback Anthropic API that answers according to
 * the instructions it was given; each variant's instructions reach the system prompt, scores and costs differ as
 * the answers do, and a bad variants file is refused with the file named.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { anthropicMessage, anthropicOk, loopback } from "../../extraction/test/utils/loopback.js"
import { removeDir, repoRoot, runKg, tempDir } from "./helpers.js"

describe("kg eval extraction --compare", () => {
  let dir = ""
  beforeAll(() => {
    dir = tempDir("kg-eval-compare-")
  })
  afterAll(() => removeDir(dir))

  it.scopedLive("scores each variant side by side; each variant's instructions reach the model", () =>
    Effect.gen(function*() {
      const lines = fs.readFileSync(path.join(repoRoot, "testdata/extraction/scierc_dev_flat.jsonl"), "utf8").split("\n").slice(0, 3)
      const gold = lines.map((l) => JSON.parse(l) as { text: string; entities: ReadonlyArray<{ text: string; type: string }> })
      const goldFile = path.join(dir, "gold.jsonl")
      fs.writeFileSync(goldFile, lines.join("\n") + "\n")
      const systems: Array<string> = []
      // A model that follows its instructions: "ANSWER-WELL" returns the gold entities of the text it was given,
      // "ANSWER-NOTHING" returns none.
      const server = yield* loopback((request) => {
        const body = request.json as { system?: unknown; messages: ReadonlyArray<{ content: unknown }>; tools?: ReadonlyArray<{ name: string }> }
        const system = JSON.stringify(body.system ?? "")
        systems.push(system)
        const prompt = JSON.stringify(body.messages)
        const doc = gold.find((g) => prompt.includes(JSON.stringify(g.text.slice(0, 80)).slice(1, -1)))
        const entities = system.includes("ANSWER-WELL") && doc !== undefined
          ? doc.entities.map((e) => ({ label: e.text, type: e.type === "Material" ? "Dataset" : e.type === "Generic" ? "Concept" : e.type, aliases: [] }))
          : []
        return anthropicOk(anthropicMessage({
          toolName: body.tools?.[0]?.name ?? "answer",
          toolInput: { entities, relations: [], claims: [] },
          model: "claude-haiku-4-5"
        }))
      })
      fs.writeFileSync(path.join(dir, "well.txt"), "Extract every entity. ANSWER-WELL")
      fs.writeFileSync(path.join(dir, "nothing.txt"), "Extract nothing. ANSWER-NOTHING")
      const variants = path.join(dir, "variants.json")
      fs.writeFileSync(variants, JSON.stringify([
        { name: "rules", provider: "offline" },
        { name: "well", provider: "anthropic", model: "claude-haiku-4-5", instructions: "well.txt" },
        { name: "nothing", provider: "anthropic", model: "claude-haiku-4-5", instructions: "nothing.txt" }
      ]))
      const env = { ANTHROPIC_API_KEY: "sk-ant-test-key", ANTHROPIC_BASE_URL: server.url }
      const r = yield* Effect.promise(() => runKg(["eval", "extraction", "--gold", goldFile, "--compare", variants, "--json"], { env }))
      expect(r.code, r.stderr).toBe(0)
      const out = JSON.parse(r.stdout) as {
        variants: ReadonlyArray<{ name: string; provider: string; costUsd: number | null; entities: { modes: { untypedLenient: { f1: number } } } }>
      }
      expect(out.variants.map((v) => v.name)).toEqual(["rules", "well", "nothing"])
      const f1 = Object.fromEntries(out.variants.map((v) => [v.name, v.entities.modes.untypedLenient.f1]))
      expect(f1["well"]).toBeGreaterThan(0.9)
      expect(f1["nothing"]).toBe(0)
      expect(f1["rules"]).toBeGreaterThan(0)
      expect(f1["rules"]).toBeLessThan(f1["well"]!)
      expect(out.variants[0]!.costUsd).toBe(0)
      expect(out.variants[1]!.costUsd).toBeGreaterThan(0)
      // three documents per LLM variant, each with its own instructions in the system prompt
      expect(systems.filter((s) => s.includes("ANSWER-WELL"))).toHaveLength(3)
      expect(systems.filter((s) => s.includes("ANSWER-NOTHING"))).toHaveLength(3)
      // the table for people
      const table = yield* Effect.promise(() => runKg(["eval", "extraction", "--gold", goldFile, "--compare", variants], { env }))
      expect(table.code, table.stderr).toBe(0)
      expect(table.stdout).toMatch(/^variant\s+extractor\s+ent F1/m)
      expect(table.stdout).toMatch(/^well\s+anthropic \(claude-haiku-4-5\)\s+\d\.\d{3}/m)
    }), 120_000)

  it("refuses a variants file that is not a list of 2-6 named variants, naming the file", async () => {
    const goldFile = path.join(dir, "gold1.jsonl")
    fs.writeFileSync(goldFile, fs.readFileSync(path.join(repoRoot, "testdata/extraction/scierc_dev_flat.jsonl"), "utf8").split("\n")[0] + "\n")
    const bad = path.join(dir, "bad.json")
    fs.writeFileSync(bad, JSON.stringify([{ name: "only one" }]))
    const r = await runKg(["eval", "extraction", "--gold", goldFile, "--compare", bad])
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain("bad.json")
    fs.writeFileSync(bad, JSON.stringify([{ name: "a", provider: "offline", instructions: "x.txt" }, { name: "b" }]))
    const r2 = await runKg(["eval", "extraction", "--gold", goldFile, "--compare", bad])
    expect(r2.code).not.toBe(0)
    expect(r2.stderr).toMatch(/offline extractor has no prompt/)
  })
})
