/**
 * Graph views drawn by Cytoscape.js (a maintained graph library; its canvas renderer needs no WebGL, so headless
 * Chromium draws it too): every node labelled (a paper's short title with first author and year, a claim's first
 * words, an entity's name), edges weighted by line width (never by printed numbers), papers coloured by community,
 * claims by status, entities by type. Layout: force-directed (CoSE), deterministic for a view (seeded positions,
 * no randomisation). Hover shows the node's full label; click selects it (the view lists its claims); double click
 * or Enter opens it. With the keyboard, the graph takes focus, arrow keys move between nodes (nearest in that
 * direction) and Enter opens the selected one.
 */
import cytoscape from "cytoscape"
// @ts-expect-error cytoscape-fcose ships no type declarations; it is a Cytoscape extension (cytoscape.use)
import fcose from "cytoscape-fcose"

cytoscape.use(fcose as cytoscape.Ext)
import type { GraphNode, GraphView } from "./api.js"
import { EDGE_COLOURS, nodeColour, nodeLabel } from "./graphStyle.js"

export interface GraphCanvasOptions {
  readonly height: number
  readonly onOpen: (node: GraphNode) => void
  readonly onSelect: (node: GraphNode | null) => void
}

export interface GraphCanvas {
  readonly element: HTMLElement
  readonly redraw: () => void
  readonly select: (id: string) => void
  readonly destroy: () => void
}

/** Initial positions on a circle (the center in the middle), so the layout is the same for the same view. */
const seededPositions = (view: GraphView): Map<string, { x: number; y: number }> => {
  const out = new Map<string, { x: number; y: number }>()
  const n = view.nodes.length
  view.nodes.forEach((node, i) => {
    const center = view.center !== null && node.id === view.center.id
    const angle = (2 * Math.PI * i) / Math.max(1, n)
    const r = 180 + 60 * ((i * 7) % 5)
    out.set(node.id, center ? { x: 0, y: 0 } : { x: r * Math.cos(angle), y: r * Math.sin(angle) })
  })
  return out
}

export const graphCanvas = (view: GraphView, options: GraphCanvasOptions): GraphCanvas => {
  const container = document.createElement("div")
  container.className = "graph-canvas"
  container.tabIndex = 0
  container.setAttribute("role", "application")
  container.setAttribute("aria-label", `Graph of ${view.nodes.length} nodes and ${view.edges.length} edges; arrow keys move, Enter opens`)
  container.style.height = `${options.height}px`
  const byId = new Map(view.nodes.map((n) => [n.id, n] as const))
  const positions = seededPositions(view)
  const scores = view.edges.map((e) => e.score ?? 0.5)
  const lo = Math.min(...scores, 1), hi = Math.max(...scores, 0)
  const widthOf = (score: number | null): number => {
    const s = score ?? 0.5
    return hi - lo < 1e-9 ? 2.5 : 1 + 5 * ((s - lo) / (hi - lo))
  }
  const elements: Array<cytoscape.ElementDefinition> = [
    ...view.nodes.map((n) => ({
      group: "nodes" as const,
      data: {
        id: n.id,
        label: nodeLabel(n),
        kind: n.kind,
        colour: nodeColour(n),
        size: 18 + 22 * Math.max(0, Math.min(1, n.weight)),
        center: view.center !== null && n.id === view.center.id ? 1 : 0
      },
      position: { ...positions.get(n.id)! }
    })),
    ...view.edges.filter((e) => byId.has(e.source) && byId.has(e.target) && e.source !== e.target).map((e, i) => ({
      group: "edges" as const,
      data: {
        id: `e${i}`,
        source: e.source,
        target: e.target,
        kind: e.kind,
        colour: EDGE_COLOURS[e.kind] ?? "#cbd5e0",
        width: widthOf(e.score)
      }
    }))
  ]
  let cy: cytoscape.Core | null = null
  let selected: string | null = null

  const choose = (id: string | null) => {
    if (cy === null) return
    cy.$(":selected").unselect()
    selected = id
    if (id === null) {
      options.onSelect(null)
      return
    }
    const el = cy.getElementById(id)
    el.select()
    options.onSelect(byId.get(id) ?? null)
  }

  const mount = () => {
    if (cy !== null) return
    cy = cytoscape({
      container,
      elements,
      wheelSensitivity: 0.3,
      minZoom: 0.15,
      maxZoom: 3,
      boxSelectionEnabled: false,
      style: [
        {
          selector: "node",
          style: {
            "background-color": "data(colour)",
            width: "data(size)",
            height: "data(size)",
            label: "data(label)",
            "font-size": 12,
            "font-family": "system-ui, sans-serif",
            color: "#1a202c",
            "text-wrap": "wrap",
            "text-max-width": "140px",
            "text-valign": "bottom",
            "text-margin-y": 4,
            "text-background-color": "#ffffff",
            "text-background-opacity": 0.75,
            "text-background-padding": "1px",
            "border-width": 1,
            "border-color": "#ffffff"
          }
        },
        { selector: "node[kind = 'paper']", style: { shape: "round-rectangle" } },
        { selector: "node[kind = 'entity']", style: { shape: "diamond" } },
        { selector: "node[center = 1]", style: { "border-width": 3, "border-color": "#1a202c", "font-weight": "bold" } },
        { selector: "node:selected", style: { "border-width": 4, "border-color": "#f6ad55" } },
        {
          selector: "edge",
          style: {
            width: "data(width)",
            "line-color": "data(colour)",
            opacity: 0.75,
            "curve-style": "haystack"
          }
        },
        { selector: "edge[kind = 'contradicts']", style: { "line-style": "solid", opacity: 0.95 } },
        { selector: "edge[kind = 'candidate'], edge[kind = 'weak_link']", style: { "line-style": "dashed" } }
      ],
      layout: {
        // fCoSE (a maintained Cytoscape extension): a spectral start, then forces; labels count as node size, so
        // labels do not overlap. Seeded by a fixed start (randomize false would need positions; the spectral start
        // is deterministic for a given graph).
        name: "fcose",
        quality: "proof",
        animate: false,
        randomize: true,
        fit: true,
        padding: 24,
        nodeDimensionsIncludeLabels: true,
        uniformNodeDimensions: false,
        packComponents: true,
        nodeRepulsion: () => 6500,
        idealEdgeLength: () => 70,
        edgeElasticity: () => 0.45,
        nodeSeparation: 60,
        numIter: 2500
      } as cytoscape.LayoutOptions
    })
    // a small graph fitted to the canvas would be drawn huge: cap the fitted zoom
    const settle = () => {
      if (cy !== null && cy.zoom() > 1.25) {
        cy.zoom(1.25)
        cy.center()
      }
    }
    cy.one("layoutstop", settle)
    settle()
    // the page's tests read what is drawn through the library's own model (labels, edge styles)
    Object.defineProperty(container, "cy", { value: cy, configurable: true })
    cy.on("tap", "node", (ev) => choose(ev.target.id() as string))
    cy.on("dbltap", "node", (ev) => {
      const n = byId.get(ev.target.id() as string)
      if (n !== undefined) options.onOpen(n)
    })
    cy.on("tap", (ev) => {
      if (ev.target === cy) choose(null)
    })
    cy.on("mouseover", "node", (ev) => {
      const n = byId.get(ev.target.id() as string)
      container.title = n === undefined ? "" : `${n.kind}: ${n.label}${n.detail ? ` (${n.detail})` : ""}`
    })
    cy.on("mouseout", "node", () => {
      container.title = ""
    })
  }

  /** The nearest node from the selected one in an arrow's direction (or the first node). */
  const step = (dx: number, dy: number): string | null => {
    if (cy === null || view.nodes.length === 0) return null
    if (selected === null) return view.nodes[0]!.id
    const from = cy.getElementById(selected).position()
    let best: string | null = null
    let bestCost = Infinity
    cy.nodes().forEach((n) => {
      if (n.id() === selected) return
      const p = n.position()
      const vx = p.x - from.x, vy = p.y - from.y
      const along = vx * dx + vy * dy
      if (along <= 0) return
      const across = Math.abs(vx * dy - vy * dx)
      const cost = along + 2 * across
      if (cost < bestCost) {
        bestCost = cost
        best = n.id()
      }
    })
    return best ?? selected
  }

  container.addEventListener("keydown", (ev) => {
    const dirs: Record<string, [number, number]> = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }
    const dir = dirs[ev.key]
    if (dir !== undefined) {
      ev.preventDefault()
      choose(step(dir[0], dir[1]))
    } else if (ev.key === "Enter" && selected !== null) {
      ev.preventDefault()
      const n = byId.get(selected)
      if (n !== undefined) options.onOpen(n)
    } else if (ev.key === "Escape") choose(null)
  })

  return {
    element: container,
    redraw: () => {
      if (cy === null) mount()
      else {
        cy.resize()
        cy.fit(undefined, 30)
        if (cy.zoom() > 1.25) {
          cy.zoom(1.25)
          cy.center()
        }
      }
    },
    select: (id) => {
      mount()
      choose(id)
    },
    destroy: () => {
      cy?.destroy()
      cy = null
    }
  }
}
