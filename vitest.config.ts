import os from "node:os"
import { defineConfig } from "vitest/config"

// Global options of the test run (the projects are in vitest.workspace.ts). Vitest's default is one worker fewer
// than the cores, which is one worker on a 2-core machine: most of the cli project's time is spent waiting on `kg`
// child processes, so two test files at once use the second core.
export default defineConfig({
  test: {
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    minWorkers: 1,
    // A fresh process for every test file (Vitest's default; only this root value counts: vitest.workspace.ts).
    // KG_TEST_REUSE=1 runs a project's files in reused processes instead, to check a project without isolation
    // before turning it on (docs/benchmarks.md, "speed21b").
    poolOptions: { forks: { isolate: process.env["KG_TEST_REUSE"] !== "1" } }
  }
})
