/**
 * Graph views: the neighbourhood of a claim, entity or paper, or the paper similarity graph, drawn on a canvas,
 * capped by the server ("showing N of M") and filtered; every node is also in a list beside the canvas.
 */
import { type EntityReport, getJson, type GraphNode, type GraphView, type PaperDetail } from "../api.js"
import { clear, h } from "../dom.js"
import { communityColour, EDGE_COLOURS, nodeColour, STATUS_COLOURS } from "../graphStyle.js"
import { askWithinHref, claimHref, errorBox, loading, paperHref, shorten } from "../widgets.js"

const EDGE_KINDS = ["contradicts", "same_as", "replicates", "weak_link", "candidate"] as const
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
    kind === "papers" ? "" : h("fieldset", {}, h("legend", {}, "Claim statuses (none: all)"), statusBoxes),
    kind === "papers" ? "" : h("fieldset", {}, h("legend", {}, "Claim edges (none: all)"), edgeBoxes),
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
  const panel = h("section", { class: "node-panel card", "data-testid": "node-panel", "aria-live": "polite" },
    h("p", { class: "muted" }, "Click a node to see its claims here; double-click (or Enter) opens it."))
  let panelFor = ""
  /** The selected node's claims: a paper's own (from the store), or the claims next to the node in this view. */
  const showClaims = async (n: GraphNode) => {
    panelFor = n.id
    clear(panel)
    panel.append(h("h2", {}, shorten(n.label, 120)), n.detail ? h("p", { class: "muted" }, n.detail) : "")
    const claimLink = (id: string, text: string, status: string | null) =>
      h("li", {}, h("a", { href: claimHref(id) }, shorten(text, 160)), status !== null ? h("span", { class: `badge badge-${status}` }, status) : "")
    if (n.kind === "paper") {
      const list = h("ol", { class: "panel-claims" })
      panel.append(list, h("p", {}, h("a", { href: paperHref(n.id) }, "Open the paper")))
      try {
        const detail = await getJson<PaperDetail>(`/papers/${encodeURIComponent(n.id)}`)
        if (panelFor !== n.id) return
        const claims = detail.claims.slice(0, 8)
        if (claims.length === 0) list.replaceWith(h("p", { class: "muted" }, "No claims stored for this paper."))
        for (const c of claims) list.append(claimLink(c.claim.id, c.claim.text, c.claim.status))
      } catch (e) {
        list.replaceWith(errorBox(e))
      }
      return
    }
    if (n.kind === "claim") {
      panel.append(h("p", {}, n.label), h("p", {}, h("a", { href: claimHref(n.id) }, "Open the claim")))
      return
    }
    const near = new Set(view.edges.flatMap((e) => e.source === n.id ? [e.target] : e.target === n.id ? [e.source] : []))
    const claims = view.nodes.filter((m) => m.kind === "claim" && near.has(m.id)).slice(0, 10)
    panel.append(claims.length === 0
      ? h("p", { class: "muted" }, "No claims about it in this view.")
      : h("ol", { class: "panel-claims" }, claims.map((c) => claimLink(c.id, c.label, c.status))))
    panel.append(h("p", {}, h("a", { href: `#/graph?kind=entity&id=${encodeURIComponent(n.id)}` }, "Centre the graph on it")))
    // its aliases and family: the broader entities and the variants (a family finds variants; claims keep the exact entity)
    const family = h("div", { class: "entity-family", "data-testid": "entity-family" })
    panel.append(family)
    try {
      const found = await getJson<{ name: string; entities: ReadonlyArray<EntityReport> }>("/entities", { name: n.id })
      if (panelFor !== n.id) return
      const e = found.entities.find((x) => x.id === n.id)
      if (e === undefined) return
      const entityLink = (id: string, label: string) => h("a", { href: `#/graph?kind=entity&id=${encodeURIComponent(id)}` }, label)
      if (e.aliases.length > 0) family.append(h("p", {}, h("strong", {}, "Also written: "), e.aliases.slice(0, 12).join("; ")))
      if (e.broader.length > 0) {
        const chain: Array<Node | string> = [h("strong", {}, "Family: ")]
        e.broader.forEach((b, i) => chain.push(i === 0 ? "" : " < ", entityLink(b.id, b.label), h("span", { class: "muted" }, ` (${b.rule})`)))
        family.append(h("p", {}, ...chain))
      }
      if (e.variants.length > 0) {
        family.append(
          h("p", {}, h("strong", {}, `Variants (${e.variants.length}):`)),
          h("ul", { class: "entity-variants" }, e.variants.slice(0, 30).map((v) =>
            h("li", { class: `variant-depth-${Math.min(v.depth, 4)}` }, entityLink(v.id, v.label), h("span", { class: "muted" }, ` (${v.rule})`))
          ))
        )
      }
      if (e.aliases.length === 0 && e.broader.length === 0 && e.variants.length === 0) {
        family.append(h("p", { class: "muted" }, "No other names, broader entities or variants stored."))
      }
    } catch (err) {
      family.replaceChildren(errorBox(err))
    }
  }
  // big graphs get a taller canvas, so their labels stay readable at the fitted zoom
  const height = window.innerWidth < 700 ? 380 : Math.min(900, Math.max(560, 380 + 5 * view.nodes.length))
  // the graph library (Cytoscape.js) is loaded with the first graph view, not with the page
  const { graphCanvas } = await import("../graphCanvas.js")
  const canvas = graphCanvas(view, {
    height,
    onOpen: open,
    onSelect: (n) => {
      info.textContent = n === null ? "" : `${n.kind}${n.status !== null ? ` (${n.status})` : n.type !== null ? ` (${n.type})` : ""}: ${n.label} — Enter opens it.`
      if (n !== null) void showClaims(n)
    }
  })
  const kinds = Array.from(new Set(view.edges.map((e) => e.kind)))
  const communitySizes = new Map<number, number>()
  for (const n of view.nodes) if (n.community !== undefined && n.community !== null) communitySizes.set(n.community, (communitySizes.get(n.community) ?? 0) + 1)
  const communities = Array.from(communitySizes).filter(([, size]) => size > 1).sort((a, b) => a[0] - b[0]).slice(0, 10)
  const legend = h("ul", { class: "legend", "aria-label": "Legend" },
    kind === "papers"
      ? [
        ...communities.map(([c, size]) => h("li", {}, h("span", { class: "swatch", style: `background:${communityColour(c)}` }), `community ${c + 1} (${size} papers)`)),
        h("li", {}, h("span", { class: "line", style: `background:${EDGE_COLOURS["similar"]}` }), "similar text (thicker: more similar)")
      ]
      : [
        ...STATUSES.map((s) => h("li", {}, h("span", { class: "swatch round", style: `background:${STATUS_COLOURS[s]}` }), `claim: ${s}`)),
        h("li", {}, h("span", { class: "swatch", style: "background:#1a365d" }), "paper"),
        h("li", {}, h("span", { class: "swatch tri" }), "entity (colour by type)"),
        ...kinds.map((k) => h("li", {}, h("span", { class: "line", style: `background:${EDGE_COLOURS[k] ?? "#cbd5e0"}` }), k.replace(/_/g, " ")))
      ])
  const listItems = [...view.nodes].sort((a, b) => b.weight - a.weight).map((n) =>
    h("li", {}, h("button", { type: "button", class: "node-link", onclick: () => open(n), onfocus: () => canvas.select(n.id) },
      h("span", { class: "swatch round", style: `background:${nodeColour(n)}` }),
      `${n.kind}: ${shorten(n.label, 90)}${n.detail ? ` (${n.detail})` : ""}`)))
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
      h("div", { class: "graph-side" }, panel,
        h("nav", { class: "node-list card", "aria-label": "Nodes of the graph" }, h("h2", {}, "Nodes"), h("ol", {}, listItems)))))
  canvas.redraw()
  if (view.center !== null) canvas.select(view.center.id)
  void clear
}
