import * as os from "node:os"
import { defineConfig } from "vitest/config"

// The projects are in vitest.workspace.ts. Vitest's default in `run` mode is one test file at a time per CPU but
// one (a single worker on a 2-core machine); most of kg's slow tests wait on child processes (the kg command, servers,
// a browser), so two files at once on such a machine roughly halves the suite's wall time without starving either.
const cpus = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length

export default defineConfig({
  test: {
    maxWorkers: Math.max(2, cpus - 1),
    minWorkers: 1
  }
})
