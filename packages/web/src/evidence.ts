/**
 * The evidence panel: a citation opened on its page. For a PDF the real page is rendered with pdf.js and the quote
 * highlighted on it (located in the page's text layer); for markdown and text, the passage with the quote marked.
 * The extracted text of the page, with the quote marked, is always shown below (what kg actually read).
 */
import { getJson, type PagePassage, url } from "./api.js"
import { clear, h, marked } from "./dom.js"
import { errorBox, loading, paperHref } from "./widgets.js"

type PdfJs = typeof import("pdfjs-dist")
let pdfjs: Promise<PdfJs> | null = null
const loadPdfJs = (): Promise<PdfJs> => {
  if (pdfjs === null) {
    pdfjs = import("pdfjs-dist").then((m) => {
      m.GlobalWorkerOptions.workerSrc = "/pdfjs/pdf.worker.min.mjs"
      return m
    })
  }
  return pdfjs
}

/** Documents already loaded, by URL. */
const documents = new Map<string, Promise<import("pdfjs-dist").PDFDocumentProxy>>()

/** Lower case, compatibility forms (ligatures), no whitespace, no hyphens: robust to how PDF text is split. */
const compact = (s: string): { text: string; map: Array<number> } => {
  let text = ""
  const map: Array<number> = []
  for (let i = 0; i < s.length; i++) {
    const norm = s[i]!.normalize("NFKC").toLowerCase()
    for (const ch of norm) {
      if (/\s/.test(ch) || /[-\u00ad\u2010\u2011]/.test(ch)) continue
      text += ch
      map.push(i)
    }
  }
  return { text, map }
}

/** The part of `haystack` (compacted) holding `quote`, or its longest head found (at least 24 characters). */
export const findQuote = (haystack: string, quote: string): { start: number; end: number } | null => {
  const hay = compact(haystack)
  const q = compact(quote).text
  if (q.length === 0) return null
  const min = Math.min(24, q.length)
  const lengths = [q.length]
  for (let l = q.length; l > min;) {
    l = Math.max(min, Math.floor(l * 0.7))
    lengths.push(l)
  }
  for (const len of lengths) {
    const at = hay.text.indexOf(q.slice(0, len))
    if (at >= 0) return { start: hay.map[at]!, end: hay.map[at + len - 1]! + 1 }
  }
  return null
}

interface TextItem {
  readonly str: string
  readonly transform: ReadonlyArray<number>
  readonly width: number
  readonly height: number
}

const renderPdfPage = async (
  host: HTMLElement,
  fileUrl: string,
  pageNumber: number,
  quote: string | null
): Promise<{ readonly located: boolean }> => {
  const lib = await loadPdfJs()
  let doc = documents.get(fileUrl)
  if (doc === undefined) {
    doc = lib.getDocument({
      url: fileUrl,
      withCredentials: true,
      standardFontDataUrl: "/pdfjs/standard_fonts/",
      cMapUrl: "/pdfjs/cmaps/",
      cMapPacked: true,
      isEvalSupported: false
    }).promise
    documents.set(fileUrl, doc)
  }
  const pdf = await doc
  const page = await pdf.getPage(Math.min(Math.max(1, pageNumber), pdf.numPages))
  const base = page.getViewport({ scale: 1 })
  const width = Math.max(280, Math.min(host.clientWidth || 640, 900))
  const scale = width / base.width
  const viewport = page.getViewport({ scale })
  const ratio = window.devicePixelRatio || 1
  const canvas = h("canvas", { class: "pdf-canvas", "aria-label": `page ${pageNumber} of the PDF` })
  canvas.width = Math.floor(viewport.width * ratio)
  canvas.height = Math.floor(viewport.height * ratio)
  canvas.style.width = `${Math.floor(viewport.width)}px`
  canvas.style.height = `${Math.floor(viewport.height)}px`
  const frame = h("div", { class: "pdf-frame", style: `width:${Math.floor(viewport.width)}px;height:${Math.floor(viewport.height)}px` }, canvas)
  host.append(frame)
  await page.render({ canvas, canvasContext: canvas.getContext("2d")!, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] } as never).promise
  if (quote === null) return { located: false }
  const content = await page.getTextContent()
  const items = (content.items as ReadonlyArray<TextItem | { type: string }>).filter((i): i is TextItem => "str" in i)
  // The page's text as one string, remembering which item each character comes from.
  let text = ""
  const owner: Array<{ item: number; offset: number }> = []
  items.forEach((item, index) => {
    for (let k = 0; k < item.str.length; k++) {
      text += item.str[k]
      owner.push({ item: index, offset: k })
    }
    text += " "
    owner.push({ item: index, offset: item.str.length })
  })
  const hit = findQuote(text, quote)
  if (hit === null) return { located: false }
  // One rectangle per item the quote touches (a share of the item's width for partial items).
  const byItem = new Map<number, { from: number; to: number }>()
  for (let c = hit.start; c < hit.end; c++) {
    const o = owner[c]
    if (o === undefined || o.offset >= items[o.item]!.str.length) continue
    const r = byItem.get(o.item) ?? { from: o.offset, to: o.offset + 1 }
    r.from = Math.min(r.from, o.offset)
    r.to = Math.max(r.to, o.offset + 1)
    byItem.set(o.item, r)
  }
  let first: HTMLElement | null = null
  for (const [index, r] of byItem) {
    const item = items[index]!
    const [a, b, , , e, f] = item.transform as [number, number, number, number, number, number]
    const fontHeight = Math.hypot(a, b) || item.height || 10
    const share = item.str.length === 0 ? 0 : 1 / item.str.length
    const x0 = e + item.width * r.from * share
    const x1 = e + item.width * r.to * share
    const [left, top, right, bottom] = viewport.convertToViewportRectangle([x0, f - fontHeight * 0.25, x1, f + fontHeight * 0.9])
    const box = h("div", {
      class: "pdf-highlight",
      "data-testid": "pdf-highlight",
      style: `left:${Math.min(left, right)}px;top:${Math.min(top, bottom)}px;width:${Math.abs(right - left)}px;height:${Math.abs(bottom - top)}px`
    })
    frame.append(box)
    if (first === null) first = box
  }
  first?.scrollIntoView({ block: "center", behavior: "instant" as ScrollBehavior })
  return { located: byItem.size > 0 }
}

/** The panel element (one per page view). */
export const panel = (): HTMLElement =>
  h("aside", { id: "evidence", class: "evidence", "aria-label": "Evidence", hidden: true, tabindex: -1 })

/** Open a citation in the panel. */
export const openEvidence = async (
  target: HTMLElement,
  citation: { readonly paperId: string; readonly page: number | null; readonly quote: string; readonly chunkId?: string | undefined }
): Promise<void> => {
  target.hidden = false
  clear(target)
  const close = h("button", { class: "close", type: "button", "aria-label": "Close the evidence panel", onclick: () => {
    target.hidden = true
    clear(target)
  } }, "×")
  const heading = h("h2", {}, "Evidence")
  target.append(h("div", { class: "evidence-head" }, heading, close))
  const status = loading("the page")
  target.append(status)
  target.focus()
  try {
    const passage = await getJson<PagePassage>(`/papers/${encodeURIComponent(citation.paperId)}/page`, {
      page: citation.page ?? undefined,
      chunk: citation.page === null ? citation.chunkId : undefined,
      quote: citation.quote
    })
    status.remove()
    heading.textContent = `Evidence: ${passage.title}${passage.page !== null ? `, page ${passage.page}` : ""}`
    target.append(
      h("p", { class: "evidence-meta" },
        h("a", { href: paperHref(passage.paperId) }, passage.paperId),
        passage.pages !== null && passage.page !== null ? ` · page ${passage.page} of ${passage.pages}` : "",
        ` · ${passage.format}`),
      h("blockquote", { class: "quote" }, `“${citation.quote}”`)
    )
    const extracted = h("div", { class: "passage", "data-testid": "passage" },
      marked(passage.text, passage.highlights, (t) => h("mark", { class: "quote-mark" }, t)))
    if (passage.format === "pdf" && passage.fileUrl !== null && passage.page !== null) {
      const host = h("div", { class: "pdf-host", "data-testid": "pdf-page", "data-page": passage.page })
      target.append(host)
      const note = h("p", { class: "note", role: "status" }, "Rendering the page…")
      target.append(note)
      try {
        const { located } = await renderPdfPage(host, passage.fileUrl, passage.page, citation.quote)
        note.textContent = located
          ? "The quote is highlighted on the rendered page."
          : "The quote could not be located on the rendered page; it is marked in the extracted text below."
      } catch (e) {
        note.replaceWith(errorBox(e))
      }
      target.append(h("details", { class: "extracted" },
        h("summary", {}, "Extracted text of this page"), extracted))
    } else {
      if (passage.format === "pdf") target.append(h("p", { class: "note" }, "The PDF file is not available to the server; showing the extracted text."))
      target.append(extracted)
      extracted.querySelector("mark")?.scrollIntoView({ block: "center", behavior: "instant" as ScrollBehavior })
    }
    if (passage.highlights.length === 0) {
      target.append(h("p", { class: "note" }, "The quote was not found verbatim in this passage."))
    }
    target.append(h("p", { class: "evidence-links" },
      passage.fileUrl !== null ? h("a", { href: url(passage.fileUrl.replace(/^\/api/, "")), target: "_blank", rel: "noopener" }, "Open the PDF") : null))
  } catch (e) {
    status.replaceWith(errorBox(e))
  }
}
