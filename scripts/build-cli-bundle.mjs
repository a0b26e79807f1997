#!/usr/bin/env node
// Bundles the compiled `kg` command (packages/cli/dist/bin.js) into packages/cli/bundle/ with esbuild: effect,
// @effect/* and the @kg/* packages become a few files (code-split at each lazily imported command handler), so a
// start reads ~60 files instead of ~650 modules. Third-party dependencies with native code, data files or their
// own module graphs (DuckDB, wink, unpdf, n3, SHACL, the Anthropic SDK, ...) stay external and are resolved from
// @kg/cli's own dependencies. The library entry points (`@kg/cli`, `@kg/cli/Cli`) stay the unbundled `dist/`.
//
//   node scripts/build-cli-bundle.mjs        (run by `pnpm build`, after `tsc -b`)
import { createRequire } from "node:module"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const cliRoot = fileURLToPath(new URL("../packages/cli/", import.meta.url))
const pkg = JSON.parse(fs.readFileSync(path.join(cliRoot, "package.json"), "utf8"))
// @kg/web stays external: it is the built page, found beside its own package.json at run time.
const inlined = (name) =>
  name === "effect" || name.startsWith("@effect/") || (name.startsWith("@kg/") && name !== "@kg/web")
const external = Object.keys(pkg.dependencies).filter((name) => !inlined(name))

// esbuild is a dependency of tsx and vitest; resolve it from the workspace root.
const require = createRequire(new URL("../package.json", import.meta.url))
const esbuild = require("esbuild")

const outdir = path.join(cliRoot, "bundle")
fs.rmSync(outdir, { recursive: true, force: true })
const started = Date.now()
await esbuild.build({
  // The offline extractor's worker thread is started from `extractorWorker.js` beside the module that starts it
  // (in the bundle, a chunk at its root), so it is an entry point of its own there.
  entryPoints: {
    bin: path.join(cliRoot, "dist/bin.js"),
    extractorWorker: fileURLToPath(new URL("../packages/extraction/dist/internal/offline/extractorWorker.js", import.meta.url)),
    // the retrieval index's worker threads, likewise (`internal/retrieval/indexThreads.ts`)
    indexWorker: fileURLToPath(new URL("../packages/graph/dist/internal/retrieval/indexWorker.js", import.meta.url))
  },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir,
  external,
  mainFields: ["module", "main"],
  sourcemap: "linked",
  logLevel: "warning",
  // Some CommonJS dependencies of @effect/* call require(); give the ESM chunks one.
  banner: { js: "import { createRequire as __kgRequire } from 'node:module'; const require = __kgRequire(import.meta.url);" }
})
const files = fs.readdirSync(outdir).filter((f) => f.endsWith(".js")).length
console.error(`bundled kg into ${path.relative(process.cwd(), outdir)}/ (${files} files, ${Date.now() - started} ms)`)
