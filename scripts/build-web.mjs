#!/usr/bin/env node
// Builds the workbench page (packages/web/src) into packages/web/dist/ with esbuild: app.js (code-split, pdf.js
// in its own chunk loaded when a PDF page is first shown), app.css, index.html, favicon.svg, and pdf.js's worker,
// standard fonts and CMaps under pdfjs/ (so the page loads nothing from another origin).
//
//   node scripts/build-web.mjs        (run by `pnpm build`)
import { createRequire } from "node:module"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const webRoot = fileURLToPath(new URL("../packages/web/", import.meta.url))
const src = path.join(webRoot, "src")
const outdir = path.join(webRoot, "dist")
const require = createRequire(new URL("../package.json", import.meta.url))
const esbuild = require("esbuild")
const pdfjsRoot = path.dirname(createRequire(path.join(webRoot, "package.json")).resolve("pdfjs-dist/package.json"))

const started = Date.now()
fs.rmSync(outdir, { recursive: true, force: true })
fs.mkdirSync(outdir, { recursive: true })
await esbuild.build({
  entryPoints: { app: path.join(src, "main.ts") },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "browser",
  target: ["chrome120", "firefox121", "safari17"],
  outdir,
  minify: true,
  sourcemap: "linked",
  chunkNames: "chunks/[name]-[hash]",
  conditions: ["@kg/source"],
  logLevel: "warning",
  legalComments: "linked"
})
for (const f of ["index.html", "favicon.svg", "app.css"]) fs.copyFileSync(path.join(src, f), path.join(outdir, f))
const pdfOut = path.join(outdir, "pdfjs")
fs.mkdirSync(pdfOut, { recursive: true })
fs.copyFileSync(path.join(pdfjsRoot, "build/pdf.worker.min.mjs"), path.join(pdfOut, "pdf.worker.min.mjs"))
for (const dir of ["standard_fonts", "cmaps"]) fs.cpSync(path.join(pdfjsRoot, dir), path.join(pdfOut, dir), { recursive: true })
fs.copyFileSync(path.join(pdfjsRoot, "LICENSE"), path.join(pdfOut, "LICENSE"))
const count = (dir) => fs.readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? count(path.join(dir, e.name)) : 1), 0)
console.error(`built the workbench page into ${path.relative(process.cwd(), outdir)}/ (${count(outdir)} files, ${Date.now() - started} ms)`)
