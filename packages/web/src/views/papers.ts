/**
 * Papers: the list, and one paper with its metadata, L2 record, claims, chunks with entity mentions marked, and
 * what its run could not store (SHACL violations, failed chunks).
 */
import { getJson, type PaperDetail, type PaperSummary, type Stats, url } from "../api.js"
import { clear, h, marked } from "../dom.js"
import { openEvidence } from "../evidence.js"
import { typeColour } from "../graphStyle.js"
import { studioSection } from "./studio.js"
import { askWithinHref, badge, claimHref, errorBox, graphHref, loading, pageLabel, paperHref, section, table } from "../widgets.js"
import { yearLabel } from "../lineage.js"

const EXPORT_FORMATS: ReadonlyArray<readonly [string, string]> = [
  ["turtle", "Turtle (RDF)"],
  ["jsonld", "JSON-LD (RDF)"],
  ["ntriples", "N-Triples (RDF)"],
  ["csv", "CSV (one table)"],
  ["parquet", "Parquet (one table)"],
  ["training", "training data (JSONL)"]
]

/** Download the whole graph: RDF, one table as CSV or Parquet, or the training data (the API's /export). */
export const exportForm = (tables: ReadonlyArray<string>): HTMLElement => {
  const format = h("select", { id: "x-format", name: "format" }, EXPORT_FORMATS.map(([v, l]) => h("option", { value: v }, l)))
  const table = h("select", { id: "x-table", name: "table" }, tables.map((t) => h("option", { value: t }, t)))
  const offline = h("input", { type: "checkbox", id: "x-offline", name: "includeOffline" })
  const tableLabel = h("label", { for: "x-table" }, "Table")
  const offlineLabel = h("label", { for: "x-offline", class: "check" }, offline, "include offline runs")
  const link = h("a", { class: "button primary", "data-testid": "export-download" }, "Download")
  const update = () => {
    const f = format.value
    const perTable = f === "csv" || f === "parquet"
    tableLabel.hidden = table.hidden = !perTable
    offlineLabel.hidden = f !== "training"
    link.setAttribute("href", url("/export", {
      format: f,
      table: perTable ? table.value : undefined,
      includeOffline: f === "training" && offline.checked ? "true" : undefined
    }))
  }
  for (const el of [format, table, offline]) el.addEventListener("change", update)
  update()
  return h("form", { class: "card export-form", "aria-label": "Export the graph", onsubmit: (ev: Event) => ev.preventDefault() },
    h("strong", {}, "Export the graph"), h("label", { for: "x-format" }, "Format"), format, tableLabel, table, offlineLabel, link)
}

export const papersView = async (main: HTMLElement): Promise<void> => {
  main.append(h("h1", {}, "Papers"))
  const status = loading("papers")
  main.append(status)
  try {
    const [papers, stats] = await Promise.all([getJson<ReadonlyArray<PaperSummary>>("/papers"), getJson<Stats>("/stats")])
    status.remove()
    if (papers.length > 0) main.append(exportForm(Object.keys(stats.tables).sort()))
    if (papers.length === 0) {
      main.append(h("p", { class: "card" }, "No papers yet. ", h("a", { href: "#/add" }, "Add papers"), " to build the graph."))
      return
    }
    // pick papers to ask within
    const picked = new Set<string>()
    const askButton = h("a", { class: "button primary", "data-testid": "ask-within", "aria-disabled": "true", href: "#/papers" }, "Ask within the selected papers (0)")
    const update = () => {
      askButton.textContent = `Ask within the selected papers (${picked.size})`
      askButton.setAttribute("href", picked.size === 0 ? "#/papers" : askWithinHref(Array.from(picked)))
      askButton.setAttribute("aria-disabled", picked.size === 0 ? "true" : "false")
    }
    const pick = (id: string, title: string) => {
      const box = h("input", { type: "checkbox", value: id, "aria-label": `Select ${title}`, "data-testid": "pick-paper" })
      box.addEventListener("change", () => {
        if (box.checked) picked.add(id)
        else picked.delete(id)
        update()
      })
      return box
    }
    main.append(h("p", { class: "row wrap" }, askButton))
    main.append(table(
      ["", "title", "year", "format", "pages", "chunks", "claims", ""],
      papers.map((p) => [
        pick(p.paperId, p.title),
        h("a", { href: paperHref(p.paperId) }, p.title),
        yearLabel(p.year),
        p.format,
        String(p.pages ?? "—"),
        String(p.chunks),
        String(p.claims),
        p.retracted ? h("span", { class: "badge badge-contested" }, "retracted") : ""
      ]),
      `${papers.length} paper${papers.length === 1 ? "" : "s"}`
    ))
  } catch (e) {
    status.replaceWith(errorBox(e))
  }
}

export const paperView = async (main: HTMLElement, evidence: HTMLElement, id: string): Promise<void> => {
  const status = loading("the paper")
  main.append(status)
  let d: PaperDetail
  try {
    d = await getJson<PaperDetail>(`/papers/${encodeURIComponent(id)}`, { chunkLimit: 300 })
  } catch (e) {
    status.replaceWith(errorBox(e))
    return
  }
  status.remove()
  const p = d.paper
  document.title = `${p.title} · kg workbench`
  main.append(
    h("p", { class: "crumbs" }, h("a", { href: "#/papers" }, "Papers"), " / paper"),
    h("h1", {}, p.title),
    h("p", { class: "muted" }, `${p.authors.join(", ") || "unknown authors"} · ${yearLabel(p.year)} · ${p.format}` +
      `${p.pages !== null ? ` · ${p.pages} pages` : ""}${p.retracted ? " · RETRACTED" : ""}`),
    h("p", { class: "row wrap" },
      h("a", { href: graphHref("paper", p.paperId), class: "button" }, "Graph around this paper"),
      h("a", { href: `#/claims?paper=${encodeURIComponent(p.paperId)}`, class: "button" }, "Its claims"),
      h("a", { href: askWithinHref([p.paperId]), class: "button", "data-testid": "ask-within" }, "Ask within this paper"),
      p.fileAvailable ? h("a", { href: `/api/papers/${encodeURIComponent(p.paperId)}/file`, class: "button", target: "_blank", rel: "noopener" }, "Open the file") : null),
    h("dl", { class: "facts card" },
      h("dt", {}, "Id"), h("dd", { class: "mono" }, p.paperId),
      h("dt", {}, "Source"), h("dd", { class: "mono" }, p.source),
      h("dt", {}, "Stored"), h("dd", {}, p.ingestedAt.replace("T", " ").slice(0, 19)),
      d.run === null ? null : [h("dt", {}, "Run"), h("dd", {}, `${d.run.status} · ${d.run.provider} (${d.run.model}) · ${d.run.runId}`)]),
    section("L2 record", d.record === null ? h("p", { class: "muted" }, "No record.") : h("dl", { class: "facts" },
      h("dt", {}, "Studied"), h("dd", {}, d.record.studied || "—"),
      h("dt", {}, "Method"), h("dd", {}, d.record.method || "—"),
      h("dt", {}, "Findings"), h("dd", {}, d.record.findings || "—"),
      h("dt", {}, "Domains"), h("dd", {}, d.record.domainTags.join(", ") || "—"),
      h("dt", {}, "Written by"), h("dd", {}, `${d.record.provider} (${d.record.model})`))),
    section(`Claims (${d.claims.length})`, d.claims.length === 0 ? h("p", { class: "muted" }, "No claims.") : h("ul", { class: "claim-list" }, d.claims.map((c) =>
      h("li", {},
        badge(c.claim.status), " ",
        h("a", { href: claimHref(c.claim.id) }, c.claim.text), " ",
        h("button", {
          type: "button",
          class: "cite",
          onclick: () => void openEvidence(evidence, { paperId: p.paperId, page: c.page, quote: c.quote })
        }, c.page === null ? "passage" : pageLabel(c.page)))
    ))),
    section(`SHACL violations (${d.violations.length})`, d.violations.length === 0
      ? h("p", { class: "muted" }, "None: every extracted triple conformed to the shapes.")
      : table(["chunk", "focus node", "path", "message"], d.violations.map((v) => [v.chunkId, v.focusNode, v.path ?? "—", v.message]))),
    section(`Failed chunks (${d.failedChunks.length})`, d.failedChunks.length === 0
      ? h("p", { class: "muted" }, "None.")
      : table(["chunk", "reason"], d.failedChunks.map((f) => [f.chunkId, f.reason])))
  )
  const types = Array.from(new Set(d.chunks.flatMap((c) => c.mentions.map((m) => m.type)))).sort()
  const legend = h("ul", { class: "legend", "aria-label": "Entity types" }, types.map((t) =>
    h("li", {}, h("span", { class: "swatch", style: `background:${typeColour(t)}` }), t)))
  const list = h("ol", { class: "chunks" })
  const renderChunks = (n: number) => {
    clear(list)
    for (const c of d.chunks.slice(0, n)) {
      list.append(h("li", { id: `chunk-${c.ordinal}` },
        h("div", { class: "chunk-head muted" }, `#${c.ordinal}${c.page !== null ? ` · page ${c.page}` : ""} · ${c.tokens} tokens · ${c.mentions.length} mentions`),
        h("p", { class: "chunk-text" }, marked(c.text, c.mentions, (t, i) => {
          const m = c.mentions[i]!
          return h("mark", {
            class: "entity",
            style: `border-bottom-color:${typeColour(m.type)};background:${typeColour(m.type)}22`,
            title: `${m.type}: ${m.label}`
          }, t)
        }))))
    }
  }
  const initial = 20
  renderChunks(initial)
  const more = d.chunks.length > initial
    ? h("button", { type: "button", onclick: () => {
      renderChunks(d.chunks.length)
      more?.remove()
    } }, `Show all ${d.chunks.length} chunks`)
    : null
  main.append(section(`Chunks (${d.totalChunks}) with entity mentions`, legend, list, more,
    d.totalChunks > d.chunks.length ? h("p", { class: "muted" }, `Showing ${d.chunks.length} of ${d.totalChunks}.`) : null))
  main.append(studioSection(p.paperId))
}
