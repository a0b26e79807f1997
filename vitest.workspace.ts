import { defineWorkspace } from "vitest/config"

// Tests run against the TypeScript sources: the `@kg/source` export condition maps `@kg/<pkg>/<Module>` to
// `src/<Module>.ts` (without it, the compiled `dist/` is used, as for any consumer). The global setup builds
// the packages and the bundled `kg` command once, for the tests that run it as a child process.
const project = (name: string, testTimeout: number) => ({
  resolve: { conditions: ["@kg/source"] },
  ssr: { resolve: { conditions: ["@kg/source"], externalConditions: ["@kg/source"] } },
  test: {
    name,
    root: `packages/${name}`,
    include: ["test/**/*.test.ts"],
    setupFiles: ["../../vitest.setup.ts"],
    globalSetup: ["../../vitest.globalSetup.ts"],
    testTimeout
  }
})

export default defineWorkspace([
  project("core", 5000),
  project("extraction", 30000),
  project("graph", 60000),
  project("cluster", 180000),
  project("server", 120000),
  project("web", 180000),
  project("cli", 120000)
])
