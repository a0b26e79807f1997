/**
 * A one-page PDF with text placed where a paper's layout puts it: each item
 * a string at (x, y) in a font size, optionally rotated (the arXiv side
 * stamp). Helvetica, so pdf.js knows the widths. For tests of page-1
 * metadata on layouts the shared PDFs do not have.
 */
export interface PlacedText {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly size: number
  readonly rotated?: boolean
}

const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`)

export const layoutPdf = (items: ReadonlyArray<PlacedText>, info: Readonly<Record<string, string>> = {}): Uint8Array => {
  const content = items.map((i) =>
    `BT /F1 ${i.size} Tf ${i.rotated === true ? `0 1 -1 0 ${i.x} ${i.y}` : `1 0 0 1 ${i.x} ${i.y}`} Tm (${esc(i.text)}) Tj ET`
  ).join("\n")
  const objs = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< ${Object.entries(info).map(([k, v]) => `/${k} (${esc(v)})`).join(" ")} >>`
  ]
  let out = "%PDF-1.4\n"
  const offsets: Array<number> = []
  objs.forEach((o, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(out)
}

/** Lines of body text under y, at 10 pt, enough to make 10 pt the body size. */
export const bodyText = (fromY: number, lines = 25): ReadonlyArray<PlacedText> =>
  Array.from({ length: lines }, (_, i) => ({
    text: "We study the problem in detail and report results on several benchmarks with careful analysis.",
    x: 72,
    y: fromY - i * 12,
    size: 10
  }))
