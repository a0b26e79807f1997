/**
 * Graph views: the neighbourhood of a claim, entity or paper, or the paper similarity graph, drawn on a canvas,
 * capped by the server ("showing N of M") and filtered; every node is also in a list beside the canvas.
 */
import { getJson, type GraphNode, type GraphView } from "../api.js"
import { clear, h } from "../dom.js"
import { EDGE_COLOURS, graphCanvas, nodeColour, STATUS_COLOURS } from "../graphCanvas.js"
import { askWithinHref, claimHref, errorBox, loading, paperHref, shorten } from "../widgets.js"

const EDGE_KINDS = ["contradicts", "same_as", "replicates", "weak_link"] as const
const STATUSES = ["established", "preliminary", "contested"] as const

export const graphView = async (main: HTMLElement, params: URLSearchParams): Promise<void> => {
  const kind = params.get("kind") ?? "papers"
  const id = params.get("id") ?? ""
  const limit = Number(params.get("limit") ?? (kind === "papers" ? 150 : 60))
  const chosenStatuses = (params.get("statuses") ?? "").split(",").filter((s) => s !== "")
  const chosenEdges = (params.get("edgeKinds") ?? "").split(",").filter((s) => s !== "")

  const kindSelect = h("select", { id: "g-kind", name: "kind" },
    h("option", { value: "papers" }, "paper similarity"),
    h("option", { value: "claim" }, "around a claim"),
    h("option", { value: "entity" }, "around an entity"),
    h("option", { value: "paper" }, "around a paper"))
  kindSelect.value = kind
  const idInput = h("input", { id: "g-id", name: "id", type: "text", placeholder: "id (claim, entity or paper)", value: id })
  idInput.disabled = kind === "papers"
  kindSelect.addEventListener("change", () => {
    idInput.disabled = kindSelect.value === "papers"
  })
  const limitInput = h("input", { id: "g-limit", name: "limit", type: "number", min: 2, max: kind === "papers" ? 1000 : 500, value: limit })
  const statusBoxes = STATUSES.map((s) => {
    const box = h("input", { type: "checkbox", id: `g-s-${s}`, value: s })
    box.checked = chosenStatuses.includes(s)
    return h("label", { for: `g-s-${s}`, class: "check" }, box, s)
  })
  const edgeBoxes = EDGE_KINDS.map((k) => {
    const box = h("input", { type: "checkbox", id: `g-e-${k}`, value: k })
    box.checked = chosenEdges.includes(k)
    return h("label", { for: `g-e-${k}`, class: "check" }, box, k.replace(/_/g, " "))
  })
  const form = h("form", { class: "card filters graph-filters" },
    h("label", { for: "g-kind" }, "View"), kindSelect,
    h("label", { for: "g-id" }, "Center"), idInput,
    h("label", { for: "g-limit" }, "At most"), limitInput,
    h("fieldset", {}, h("legend", {}, "Claim statuses (none: all)"), statusBoxes),
    h("fieldset", {}, h("legend", {}, "Claim edges (none: all)"), edgeBoxes),
    h("button", { type: "submit", class: "primary" }, "Show"))
  form.addEventListener("submit", (ev) => {
    ev.preventDefault()
    const q = new URLSearchParams({ kind: kindSelect.value, limit: limitInput.value })
    if (kindSelect.value !== "papers") q.set("id", idInput.value.trim())
    const st = statusBoxes.map((l) => l.querySelector("input")!).filter((b) => b.checked).map((b) => b.value)
    const ek = edgeBoxes.map((l) => l.querySelector("input")!).filter((b) => b.checked).map((b) => b.value)
    if (st.length > 0) q.set("statuses", st.join(","))
    if (ek.length > 0) q.set("edgeKinds", ek.join(","))
    location.hash = `#/graph?${q.toString()}`
  })
  main.append(h("h1", {}, "Graph"), form)
  if (kind !== "papers" && id === "") {
    main.append(h("p", { class: "card" }, "Choose a center: open a claim, entity or paper and follow its “Graph” link, or paste an id above."))
    return
  }
  const status = loading("the graph")
  main.append(status)
  let view: GraphView
  try {
    view = kind === "papers"
      ? await getJson<GraphView>("/graph/papers", { limit, k: 3 })
      : await getJson<GraphView>("/graph/neighbourhood", {
        kind,
        id,
        limit,
        statuses: chosenStatuses.join(",") || undefined,
        edgeKinds: chosenEdges.join(",") || undefined
      })
  } catch (e) {
    status.replaceWith(errorBox(e))
    return
  }
  status.remove()
  const open = (n: GraphNode) => {
    if (n.kind === "claim") location.hash = claimHref(n.id)
    else if (n.kind === "paper") location.hash = kind === "papers" ? paperHref(n.id) : `#/graph?kind=paper&id=${encodeURIComponent(n.id)}`
    else location.hash = `#/graph?kind=entity&id=${encodeURIComponent(n.id)}`
  }
  const info = h("p", { class: "selected muted", "aria-live": "polite" }, "Select a node (click, or focus the graph and use the arrow keys).")
  const height = window.innerWidth < 700 ? 380 : 560
  const canvas = graphCanvas(view, {
    height,
    onOpen: open,
    onSelect: (n) => {
      info.textContent = n === null ? "" : `${n.kind}${n.status !== null ? ` (${n.status})` : n.type !== null ? ` (${n.type})` : ""}: ${n.label} — Enter opens it.`
    }
  })
  const kinds = Array.from(new Set(view.edges.map((e) => e.kind)))
  const legend = h("ul", { class: "legend", "aria-label": "Legend" },
    STATUSES.map((s) => h("li", {}, h("span", { class: "swatch round", style: `background:${STATUS_COLOURS[s]}` }), `claim: ${s}`)),
    h("li", {}, h("span", { class: "swatch", style: "background:#1a365d" }), "paper"),
    h("li", {}, h("span", { class: "swatch tri" }), "entity (colour by type)"),
    kinds.map((k) => h("li", {}, h("span", { class: "line", style: `background:${EDGE_COLOURS[k] ?? "#cbd5e0"}` }), k.replace(/_/g, " "))))
  const listItems = [...view.nodes].sort((a, b) => b.weight - a.weight).map((n) =>
    h("li", {}, h("button", { type: "button", class: "node-link", onclick: () => open(n), onfocus: () => canvas.select(n.id) },
      h("span", { class: "swatch round", style: `background:${nodeColour(n)}` }),
      `${n.kind}: ${shorten(n.label, 90)}`)))
  // the papers of this view: ask within them
  const paperIds = view.nodes.filter((n) => n.kind === "paper").map((n) => n.id)
  main.append(
    paperIds.length === 0 ? "" : h("p", { class: "row wrap" },
      h("a", { href: askWithinHref(paperIds), class: "button", "data-testid": "ask-within" },
        `Ask within the ${paperIds.length} paper${paperIds.length === 1 ? "" : "s"} of this view`)),
    h("p", { class: "count", "data-testid": "graph-count" },
      `Showing ${view.shown} of ${view.total} nodes`, view.truncated ? " (the strongest first; narrow with the filters or raise the limit)" : "",
      ` · ${view.edges.length} edges`),
    h("div", { class: "graph-layout" },
      h("div", { class: "graph-main" }, canvas.element, info, legend),
      h("nav", { class: "node-list card", "aria-label": "Nodes of the graph" }, h("h2", {}, "Nodes"), h("ol", {}, listItems))))
  canvas.redraw()
  if (view.center !== null) canvas.select(view.center.id)
  void clear
}
