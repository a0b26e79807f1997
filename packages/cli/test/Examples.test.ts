/**
 * The library examples (`examples/library/*.ts`) are documentation that must
 * not rot: each one runs here, as a user would run it, and its output is
 * checked.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { repoRoot, runCommand } from "./helpers.js"

/** Run an example as a user would (`node --import tsx`), killed after 120 s. */
const runExample = (name: string, args: ReadonlyArray<string> = []) =>
  runCommand(process.execPath, ["--import", "tsx", path.join(repoRoot, "examples/library", name), ...args], {
    cwd: repoRoot,
    timeout: 120_000
  })

// One store for the examples that extract the example corpus: the first extracts it, the later ones find every paper
// already stored (as a user re-running an example would) and go on to their own part. Each still extracts what is
// missing, so any one of them runs alone.
const sharedDb = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kg-ex-")), "kg.duckdb")

describe("library examples", () => {
  it("extract-folder: extracts the example corpus through the extraction Stream", async () => {
    const { code, stderr, stdout } = await runExample("extract-folder.ts", ["examples/corpus", sharedDb])
    expect(code, stderr).toBe(0)
    const summary = JSON.parse(stdout.trim().split("\n").pop()!) as { papersWritten: number; claims: number }
    expect(summary.papersWritten).toBe(4)
    expect(summary.claims).toBeGreaterThan(20)
  }, 150_000)

  it("walk-contradictions: two disagreeing papers give contested claims with counter-evidence", async () => {
    const { code, stderr, stdout } = await runExample("walk-contradictions.ts")
    expect(code, stderr).toBe(0)
    expect(stdout).toContain("[contested]")
    expect(stdout).toContain("contradicted by")
    expect(stdout).toMatch(/"contradicts":[1-9]/)
  }, 150_000)

  it("run-l4: the example corpus's four unrelated papers share no topic, so no pattern; a second run is a no-op", async () => {
    const { code, stderr, stdout } = await runExample("run-l4.ts", ["examples/corpus", sharedDb])
    expect(code, stderr).toBe(0)
    // LongEval (summarisation evaluation), integer-only RNNs, adder networks, adversarial text generation: clusters group
    // their claims by wording, but no cluster has a specific entity that claims of two papers share
    expect(stdout).toMatch(/^0 patterns from [1-9]\d* claims \(k = [1-9]\d*\)/m)
    expect(stdout).toContain("no cluster has claims from two papers that share a specific entity")
    expect(stdout).toContain("second run: 0 created, 0 updated")
  }, 150_000)

  it("ask-question: a research answer with citations and references", async () => {
    const { code, stderr, stdout } = await runExample("ask-question.ts", [
      "How reliable is human evaluation of faithfulness in long-form summarization?",
      sharedDb
    ])
    expect(code, stderr).toBe(0)
    expect(stderr).toMatch(/Stage 2: gathering evidence/)
    expect(stdout).toMatch(/\[2023\.eacl-main\.121, page \d+\]/)
    expect(stdout).toContain("references: 2023.eacl-main.121")
  }, 150_000)
})
