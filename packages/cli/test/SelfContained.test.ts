/**
 * The test suite reads only files inside the repository: on a fresh clone of
 * the repository alone (no `../shared`), every test finds its data under
 * `testdata/` or a package's `test/fixtures/`. This scans the test sources for
 * paths that would leave the repository.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { repoRoot } from "./helpers.js"

const testSources = (): ReadonlyArray<string> => {
  const out: Array<string> = []
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules") continue
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (/\.(ts|mjs|js)$/.test(entry.name)) out.push(full)
    }
  }
  for (const pkg of fs.readdirSync(path.join(repoRoot, "packages"))) {
    const test = path.join(repoRoot, "packages", pkg, "test")
    if (fs.existsSync(test)) walk(test)
  }
  for (const f of ["vitest.globalSetup.ts", "vitest.setup.ts", "vitest.workspace.ts"]) out.push(path.join(repoRoot, f))
  return out
}

/** Relative paths resolved against a test file (`new URL("../..", import.meta.url)`, `path.join(repoRoot, "..")`). */
const escapes = (file: string, source: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (const m of source.matchAll(/new URL\(\s*[`"']((?:\.\.?\/)+[^`"'$]*)/g)) {
    const target = path.resolve(path.dirname(file), m[1]!)
    if (path.relative(repoRoot, target).startsWith("..")) found.push(m[1]!)
  }
  for (const m of source.matchAll(/path\.(?:join|resolve)\(\s*repoRoot\s*,\s*[`"']([^`"'$]*)/g)) {
    if (path.relative(repoRoot, path.resolve(repoRoot, m[1]!)).startsWith("..")) found.push(m[1]!)
  }
  if (new RegExp(`["'\`]/work/|${"shared"}/${"data"}/`).test(source)) found.push("an absolute path or the shared data folder")
  return found
}

describe("the test suite is self-contained", () => {
  it("no test source points outside the repository", () => {
    // this file's own literals are examples for the check below
    const files = testSources().filter((f) => f !== fileURLToPath(import.meta.url))
    expect(files.length).toBeGreaterThan(50)
    const offenders = files.flatMap((f) =>
      escapes(f, fs.readFileSync(f, "utf8")).map((p) => `${path.relative(repoRoot, f)}: ${p}`)
    )
    expect(offenders).toEqual([])
  })

  it("the check itself catches a path to ../shared", () => {
    const file = path.join(repoRoot, "packages/cli/test/x.test.ts")
    const outside = ["..", "..", "..", "..", "shared", "data", "a.jsonl"].join("/")
    expect(escapes(file, `new URL("${outside}", import.meta.url)`).length).toBeGreaterThan(0)
    expect(escapes(file, `path.join(repoRoot, "../x")`)).toHaveLength(1)
    expect(escapes(file, `new URL("../../../testdata/a.jsonl", import.meta.url)`)).toHaveLength(0)
  })
})
