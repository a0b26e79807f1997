/**
 * Builds the packages (`tsc -b`, incremental), the bundled `kg` command and the workbench page once before the
 * tests, so tests that run `kg` or a script as a child process, or load the page, run what the sources say. Skipped with `KG_SKIP_BUILD=1`.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

let built = false

export default function setup(): void {
  if (built || process.env["KG_SKIP_BUILD"] === "1") return
  built = true
  const root = fileURLToPath(new URL(".", import.meta.url))
  execFileSync(process.execPath, [fileURLToPath(new URL("./node_modules/typescript/bin/tsc", import.meta.url)), "-b", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit"
  })
  execFileSync(process.execPath, ["scripts/build-cli-bundle.mjs"], { cwd: root, stdio: "inherit" })
  execFileSync(process.execPath, ["scripts/build-web.mjs"], { cwd: root, stdio: "inherit" })
}
