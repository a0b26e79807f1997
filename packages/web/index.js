// The built page of @kg/web (dist/, made by `pnpm build`: scripts/build-web.mjs). Plain JavaScript so that it is
// never bundled into another file: its location is the package's own.
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

/** The folder of the built page (index.html, app.js, app.css, favicon.svg, pdf.js worker and data). */
export const webRoot = fileURLToPath(new URL("./dist/", import.meta.url))

/** Whether the page has been built. */
export const isBuilt = () => existsSync(new URL("./dist/index.html", import.meta.url))
