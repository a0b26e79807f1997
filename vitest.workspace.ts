import { defineWorkspace } from "vitest/config"

// Tests run against the TypeScript sources: the `@kg/source` export condition maps `@kg/<pkg>/<Module>` to
// `src/<Module>.ts` (without it, the compiled `dist/` is used, as for any consumer). The global setup builds
// the packages and the bundled `kg` command once, for the tests that run it as a child process.
// `groupOrder`: projects of group 0 run together; the cluster project (group 1) runs after them, alone on the
// machine, because its loopback test asserts a wall-time speed-up of three runners over one.
const project = (name: string, testTimeout: number, groupOrder = 0) => ({
  resolve: { conditions: ["@kg/source"] },
  ssr: { resolve: { conditions: ["@kg/source"], externalConditions: ["@kg/source"] } },
  test: {
    name,
    root: `packages/${name}`,
    include: ["test/**/*.test.ts"],
    setupFiles: ["../../vitest.setup.ts"],
    globalSetup: ["../../vitest.globalSetup.ts"],
    testTimeout,
    sequence: { groupOrder }
  }
})

export default defineWorkspace([
  project("core", 5000),
  project("extraction", 30000),
  project("graph", 60000),
  project("cluster", 180000, 1),
  project("server", 120000),
  project("web", 180000),
  project("cli", 120000)
])
