import { defineWorkspace } from "vitest/config"

// Tests run against the TypeScript sources: the `@kg/source` export condition maps `@kg/<pkg>/<Module>` to
// `src/<Module>.ts` (without it, the compiled `dist/` is used, as for any consumer). The global setup builds
// the packages and the bundled `kg` command once, for the tests that run it as a child process.
// `groupOrder`: every project is in group 0 and runs with the others. (Until session 21 the cluster project ran after
// them, alone on the machine, because its loopback test asserted a wall-time speed-up of three runners over one: that
// ratio is now measured by scripts/bench-cluster.ts, and the test asserts what does not depend on the machine's load.)
// `isolate: false` (core, extraction, server): the test files of the project share one worker's module cache instead
// of each importing Effect, DuckDB, wink and the packages again (the suite spent 94 s collecting and 16 s in setup for
// 104 files); files still run one at a time. Measured on core + extraction (34 files) back to back, load 17-20 on 2
// cores: 249 s -> 154 s wall (collect 57 -> 27 s, setup 9.6 -> 1.2 s, tests 151 -> 123 s), the same results. Not graph:
// without isolation three of its research/retrieval files fail after the others (some module state of an earlier file
// leaks; not found yet). cli, web and cluster: not verified without isolation (cli spends its time in child processes).
// Measured in session 21 (speed21, docs/benchmarks.md): Vitest 3.2 reads `poolOptions.forks.isolate` from the ROOT
// config only, so with the root's default every test file still gets its own process and this project option changes
// nothing (25 small graph files: the same 89 s CPU with it and without). With the root option off (one process runs a
// project's files one after another) the same 25 files took 72.7 s instead of 116.6 s wall, but in the whole graph
// project state leaked between files of a reused process: Cost.test.ts and RetrievalIndexThreads.test.ts failed with
// "Invalid string length" and a ResearchFocus.test.ts test timed out; not turned on until that leak is found.
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
