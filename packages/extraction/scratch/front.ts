import { getDocumentProxy } from "unpdf"
import * as fs from "node:fs"
import { readFrontPage } from "../src/internal/pdfFrontPage.js"
for (const f of process.argv.slice(2)) {
  const pdf = await getDocumentProxy(new Uint8Array(fs.readFileSync(f)), { verbosity: 0 })
  const page = await pdf.getPage(1)
  const tc = await page.getTextContent()
  const items = (tc.items as any[]).filter((i) => "str" in i).map((i) => ({ str: i.str, x: i.transform[4], y: i.transform[5], width: i.width, size: Math.hypot(i.transform[2], i.transform[3]), rotated: Math.abs(i.transform[1])>1e-6 }))
  const fp = readFrontPage(items)
  console.log(fp.title, fp.authors, fp.smallCaps, fp.lines.slice(0, 12).map((l) => l.size.toFixed(1) + " " + l.text))
}
