import { defineWorkspace } from "vitest/config"

export default defineWorkspace([
  {
    test: {
      name: "core",
      root: "packages/core",
      include: ["test/**/*.test.ts"],
      setupFiles: ["../../vitest.setup.ts"]
    }
  },
  {
    test: {
      name: "extraction",
      root: "packages/extraction",
      include: ["test/**/*.test.ts"],
      setupFiles: ["../../vitest.setup.ts"],
      testTimeout: 30000
    }
  },
  {
    test: {
      name: "graph",
      root: "packages/graph",
      include: ["test/**/*.test.ts"],
      setupFiles: ["../../vitest.setup.ts"],
      testTimeout: 60000
    }
  },
  {
    test: {
      name: "cli",
      root: "packages/cli",
      include: ["test/**/*.test.ts"],
      setupFiles: ["../../vitest.setup.ts"],
      testTimeout: 120000
    }
  }
])
