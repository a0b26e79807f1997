/**
 * A minimal PDF writer for tests: real PDF 1.4 files (catalog, page tree,
 * one Helvetica text stream per page, xref table, trailer, `%%EOF`) that
 * unpdf reads page by page, so page-aware ingest can be checked against
 * known text per page. Text is wrapped to lines; characters outside
 * printable ASCII are replaced.
 */

const escape = (text: string): string =>
  text.replace(/[^\x20-\x7e]/g, "?").replace(/\\/g, "\\\\").replace(/\(/g, "\\(").replace(/\)/g, "\\)")

/** Words to lines of at most `width` characters. */
export const wrap = (text: string, width = 88): ReadonlyArray<string> => {
  const lines: Array<string> = []
  let line = ""
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line === "" ? word : `${line} ${word}`
    }
  }
  if (line !== "") lines.push(line)
  return lines
}

/**
 * A PDF whose page `i` shows the paragraphs `pages[i]` (wrapped, one text
 * line per `Tj`), with an optional document info dictionary.
 */
export const makePdf = (
  pages: ReadonlyArray<ReadonlyArray<string>>,
  info: { readonly title?: string; readonly author?: string } = {}
): Uint8Array => {
  const objects: Array<string> = []
  const add = (body: string): number => {
    objects.push(body)
    return objects.length
  }
  const catalog = add("") // filled below
  const tree = add("")
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
  const kids: Array<number> = []
  for (const paragraphs of pages) {
    const lines = paragraphs.flatMap((p) => [...wrap(p), ""])
    const ops = ["BT", "/F1 10 Tf", "13 TL", "60 740 Td"]
    for (const line of lines.slice(0, 54)) ops.push(`(${escape(line)}) Tj`, "T*")
    ops.push("ET")
    const stream = ops.join("\n")
    const content = add(`<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`)
    kids.push(add(
      `<< /Type /Page /Parent ${tree} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> ` +
        `/Contents ${content} 0 R >>`
    ))
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${tree} 0 R >>`
  objects[tree - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`
  const infoEntries = [
    info.title !== undefined ? `/Title (${escape(info.title)})` : "",
    info.author !== undefined ? `/Author (${escape(info.author)})` : ""
  ].filter((e) => e !== "")
  const infoObj = infoEntries.length > 0 ? add(`<< ${infoEntries.join(" ")} >>`) : null

  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
  const offsets: Array<number> = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out, "latin1")
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${infoObj !== null ? ` /Info ${infoObj} 0 R` : ""} >>\n`
  out += `startxref\n${xref}\n%%EOF\n`
  return new Uint8Array(Buffer.from(out, "latin1"))
}
