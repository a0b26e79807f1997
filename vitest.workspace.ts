import { defineWorkspace } from "vitest/config"

// Tests run against the TypeScript sources: the `@kg/source` export condition maps `@kg/<pkg>/<Module>` to
// `src/<Module>.ts` (without it, the compiled `dist/` is used, as for any consumer). The global setup builds
// the packages and the bundled `kg` command once, for the tests that run it as a child process.
// `groupOrder`: every project is in group 0 and runs with the others. (Until session 21 the cluster project ran after
// them, alone on the machine, because its loopback test asserted a wall-time speed-up of three runners over one: that
// ratio is now measured by scripts/bench-cluster.ts, and the test asserts what does not depend on the machine's load.)
// Process isolation (checked in vitest 3.2.4's pool code, session 21, docs/benchmarks.md "speed21b"): whether a test
// file gets a fresh process is decided by the ROOT config's `poolOptions.forks.isolate` alone (vitest.config.ts: on,
// the default, unless KG_TEST_REUSE=1). With it on, every file gets its own process and the `isolate` below changes
// nothing. With it off, one process runs a project's files in turn (two at once, one per worker; the workers are
// recycled between projects, and each project waits for the one before it) and the `isolate` below decides only
// whether that process re-imports the sources before each file (`true`) or keeps them (`false`: core, extraction,
// server, which passed that way once, speed21). Modules outside the sources (node_modules: Effect, DuckDB, wink) are
// loaded once a process either way: what they hold outlives a file. That is how the graph project failed in a reused
// process (speed21: 7 of 73 files, "Invalid string length"): wink-eng-lite-web-model nests its custom-entity model one
// JSON level deeper on each `winkNLP(model)`, and each file re-imported the NlpService and built its pipelines again
// (fixed in core/src/internal/nlp.ts, `stableWinkModel`; graph then passed twice in a reused process, with 12-24 %
// less CPU and no less wall time). Not on by default: the cli, web and cluster projects have not been run in a reused
// process (docs/benchmarks.md).
const project = (name: string, testTimeout: number, groupOrder = 0, isolate = true) => ({
  resolve: { conditions: ["@kg/source"] },
  ssr: { resolve: { conditions: ["@kg/source"], externalConditions: ["@kg/source"] } },
  test: {
    name,
    root: `packages/${name}`,
    include: ["test/**/*.test.ts"],
    setupFiles: ["../../vitest.setup.ts"],
    globalSetup: ["../../vitest.globalSetup.ts"],
    testTimeout,
    isolate,
    sequence: { groupOrder }
  }
})

export default defineWorkspace([
  project("core", 5000, 0, false),
  project("extraction", 30000, 0, false),
  project("graph", 60000),
  project("cluster", 180000),
  project("server", 120000, 0, false),
  project("web", 180000),
  project("cli", 120000)
])
