/**
 * The workbench page: the built files of `@kg/web` read once at start (a fixed set: nothing outside it is ever
 * served), with their content types and security headers (no resource from another origin may load).
 *
 * @internal
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".map": "application/json",
  ".bcmap": "application/octet-stream",
  ".pfb": "application/octet-stream",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8"
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": "default-src 'self'; img-src 'self' data: blob:; font-src 'self' data: blob:; " +
    "style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; script-src 'self' 'wasm-unsafe-eval'; " +
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
}

export interface StaticSite {
  readonly root: string
  readonly files: number
  readonly respond: (pathname: string) => HttpServerResponse.HttpServerResponse | null
}

const walk = (dir: string, base: string, out: Map<string, Uint8Array>) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    const rel = base === "" ? entry.name : `${base}/${entry.name}`
    if (entry.isDirectory()) walk(full, rel, out)
    else if (entry.isFile()) out.set(rel, fs.readFileSync(full))
  }
}

/** The site in `root`, or an error message when it is missing (not built). */
export const load = (root: string): StaticSite | string => {
  if (!fs.existsSync(path.join(root, "index.html"))) {
    return `the workbench page is not built (no ${path.join(root, "index.html")}); run \`pnpm build\``
  }
  const files = new Map<string, Uint8Array>()
  walk(root, "", files)
  return {
    root,
    files: files.size,
    respond: (pathname) => {
      let rel: string
      try {
        rel = decodeURIComponent(pathname).replace(/^\/+/, "")
      } catch {
        return null
      }
      if (rel === "") rel = "index.html"
      const bytes = files.get(rel)
      if (bytes === undefined) return null
      const type = TYPES[path.extname(rel).toLowerCase()] ?? "application/octet-stream"
      return HttpServerResponse.uint8Array(bytes, {
        contentType: type,
        headers: {
          ...SECURITY_HEADERS,
          "cache-control": rel === "index.html" ? "no-cache" : "public, max-age=300"
        }
      })
    }
  }
}
