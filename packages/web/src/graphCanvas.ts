/**
 * A graph on a 2D canvas (no WebGL): a deterministic force layout (repulsion, springs, gravity; the center
 * pinned), nodes coloured by status (claims) or type (entities), papers as squares, edges by kind. Click a node
 * to open it; with the keyboard, the canvas takes focus, arrow keys move between nodes and Enter opens one.
 */
import type { GraphEdge, GraphNode, GraphView } from "./api.js"

export const STATUS_COLOURS: Readonly<Record<string, string>> = {
  established: "#1b7f3b",
  preliminary: "#b7791f",
  contested: "#c53030",
  ungrounded: "#6b7280"
}
export const EDGE_COLOURS: Readonly<Record<string, string>> = {
  contradicts: "#c53030",
  same_as: "#2f855a",
  replicates: "#2b6cb0",
  weak_link: "#a0aec0",
  similar: "#6b46c1"
}
const PALETTE = ["#2c7a7b", "#805ad5", "#d53f8c", "#dd6b20", "#3182ce", "#38a169", "#718096", "#b83280", "#975a16"]
const PAPER = "#1a365d"

/** Fixed colours for the research ontology's classes; other classes get one from the palette by hash. */
const KNOWN_TYPES: Readonly<Record<string, string>> = {
  Method: "#2c7a7b",
  Dataset: "#dd6b20",
  Task: "#b83280",
  Metric: "#3182ce",
  Material: "#805ad5",
  Concept: "#718096",
  Claim: "#4a5568"
}

export const typeColour = (type: string | null): string => {
  if (type === null) return "#718096"
  const known = KNOWN_TYPES[type]
  if (known !== undefined) return known
  let hash = 0
  for (const ch of type) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0
  return PALETTE[hash % PALETTE.length]!
}

export const nodeColour = (n: GraphNode): string =>
  n.kind === "claim" ? STATUS_COLOURS[n.status ?? ""] ?? "#4a5568" : n.kind === "paper" ? PAPER : typeColour(n.type)

interface Placed {
  readonly node: GraphNode
  x: number
  y: number
  vx: number
  vy: number
  readonly r: number
}

/** Positions in [0, 1]² for the nodes, deterministic for a given view. */
export const layout = (view: GraphView, iterations = 320): Map<string, { x: number; y: number }> => {
  const n = view.nodes.length
  const placed: Array<Placed> = view.nodes.map((node, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, n) + (i % 2) * 0.3
    const ring = 0.18 + 0.25 * ((i * 7) % 11) / 11
    const center = view.center !== null && node.id === view.center.id
    return { node, x: center ? 0.5 : 0.5 + ring * Math.cos(angle), y: center ? 0.5 : 0.5 + ring * Math.sin(angle), vx: 0, vy: 0, r: 0 }
  })
  const index = new Map(placed.map((p, i) => [p.node.id, i] as const))
  const links = view.edges.flatMap((e) => {
    const a = index.get(e.source), b = index.get(e.target)
    return a === undefined || b === undefined || a === b ? [] : [[a, b] as const]
  })
  const k = Math.sqrt(1 / Math.max(1, n)) * 0.9
  for (let it = 0; it < iterations; it++) {
    const t = 0.08 * (1 - it / iterations) + 0.005
    for (const p of placed) {
      p.vx = 0
      p.vy = 0
    }
    for (let i = 0; i < n; i++) {
      const a = placed[i]!
      for (let j = i + 1; j < n; j++) {
        const b = placed[j]!
        let dx = a.x - b.x, dy = a.y - b.y
        let d2 = dx * dx + dy * dy
        if (d2 < 1e-6) {
          dx = ((i * 13 + j * 7) % 10 - 5) * 1e-3
          dy = ((i * 7 + j * 13) % 10 - 5) * 1e-3
          d2 = dx * dx + dy * dy
        }
        const f = (k * k) / d2
        a.vx += dx * f
        a.vy += dy * f
        b.vx -= dx * f
        b.vy -= dy * f
      }
    }
    for (const [i, j] of links) {
      const a = placed[i]!, b = placed[j]!
      const dx = a.x - b.x, dy = a.y - b.y
      const d = Math.sqrt(dx * dx + dy * dy) || 1e-3
      const f = d / k
      a.vx -= dx * f
      a.vy -= dy * f
      b.vx += dx * f
      b.vy += dy * f
    }
    for (const p of placed) {
      p.vx += (0.5 - p.x) * 0.5
      p.vy += (0.5 - p.y) * 0.5
      const v = Math.sqrt(p.vx * p.vx + p.vy * p.vy) || 1
      const step = Math.min(v, t)
      if (view.center !== null && p.node.id === view.center.id) continue
      p.x = Math.min(0.97, Math.max(0.03, p.x + (p.vx / v) * step))
      p.y = Math.min(0.97, Math.max(0.03, p.y + (p.vy / v) * step))
    }
  }
  return new Map(placed.map((p) => [p.node.id, { x: p.x, y: p.y }] as const))
}

export interface GraphCanvas {
  readonly element: HTMLCanvasElement
  readonly select: (id: string | null) => void
  readonly redraw: () => void
}

/** Draw `view` on a new canvas; `onOpen` is called with a node clicked or chosen with Enter. */
export const graphCanvas = (
  view: GraphView,
  options: { readonly height: number; readonly onOpen: (node: GraphNode) => void; readonly onSelect?: (node: GraphNode | null) => void }
): GraphCanvas => {
  const canvas = document.createElement("canvas")
  canvas.className = "graph-canvas"
  canvas.tabIndex = 0
  canvas.setAttribute("role", "img")
  canvas.setAttribute(
    "aria-label",
    `Graph of ${view.nodes.length} nodes and ${view.edges.length} edges. Arrow keys move between nodes, Enter opens one; the same nodes are listed beside the graph.`
  )
  const positions = layout(view)
  const order = [...view.nodes].sort((a, b) => b.weight - a.weight)
  const labelled = new Set(order.slice(0, 14).map((n) => n.id))
  if (view.center !== null) labelled.add(view.center.id)
  let selected: string | null = null
  let hovered: string | null = null
  const radius = (n: GraphNode) => (view.center !== null && n.id === view.center.id ? 11 : 4 + 6 * Math.min(1, n.weight))
  const pad = 24
  const size = () => ({ w: canvas.clientWidth || 600, h: options.height })
  const at = (id: string) => {
    const p = positions.get(id)!
    const { w, h } = size()
    return { x: pad + p.x * (w - 2 * pad), y: pad + p.y * (h - 2 * pad) }
  }
  const edgeStyle = (e: GraphEdge) => EDGE_COLOURS[e.kind] ?? "#cbd5e0"
  const draw = () => {
    const { w, h } = size()
    const ratio = window.devicePixelRatio || 1
    canvas.width = Math.floor(w * ratio)
    canvas.height = Math.floor(h * ratio)
    canvas.style.height = `${h}px`
    const ctx = canvas.getContext("2d")!
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0)
    ctx.clearRect(0, 0, w, h)
    ctx.fillStyle = "#fbfcfe"
    ctx.fillRect(0, 0, w, h)
    for (const e of view.edges) {
      const a = at(e.source), b = at(e.target)
      ctx.strokeStyle = edgeStyle(e)
      ctx.lineWidth = e.kind === "contradicts" || e.kind === "replicates" || e.kind === "same_as" ? 2.2 : 1
      ctx.setLineDash(e.kind === "weak_link" ? [4, 3] : [])
      ctx.beginPath()
      ctx.moveTo(a.x, a.y)
      ctx.lineTo(b.x, b.y)
      ctx.stroke()
    }
    ctx.setLineDash([])
    if (view.edges.length <= 60) {
      // Scores of similarity edges at their middles.
      ctx.font = "11px system-ui, sans-serif"
      ctx.textBaseline = "middle"
      for (const e of view.edges) {
        if (e.kind !== "similar" || e.score === null) continue
        const a = at(e.source), b = at(e.target)
        const text = e.score.toFixed(2)
        const tw = ctx.measureText(text).width
        ctx.fillStyle = "rgba(255,255,255,0.9)"
        ctx.fillRect((a.x + b.x) / 2 - tw / 2 - 2, (a.y + b.y) / 2 - 7, tw + 4, 14)
        ctx.fillStyle = "#553c9a"
        ctx.fillText(text, (a.x + b.x) / 2 - tw / 2, (a.y + b.y) / 2)
      }
    }
    for (const n of [...view.nodes].reverse()) {
      const p = at(n.id)
      const r = radius(n)
      ctx.fillStyle = nodeColour(n)
      ctx.strokeStyle = n.id === selected ? "#111827" : "#ffffff"
      ctx.lineWidth = n.id === selected ? 3 : 1.5
      ctx.beginPath()
      if (n.kind === "paper") ctx.rect(p.x - r, p.y - r, 2 * r, 2 * r)
      else if (n.kind === "entity") {
        ctx.moveTo(p.x, p.y - r * 1.2)
        ctx.lineTo(p.x + r * 1.1, p.y + r * 0.8)
        ctx.lineTo(p.x - r * 1.1, p.y + r * 0.8)
        ctx.closePath()
      } else ctx.arc(p.x, p.y, r, 0, 2 * Math.PI)
      ctx.fill()
      ctx.stroke()
    }
    ctx.font = "12px system-ui, sans-serif"
    ctx.textBaseline = "middle"
    // Labels that would overlap one already drawn are left out (the center, selected and hovered nodes first).
    const drawnBoxes: Array<{ x: number; y: number; w: number; h: number }> = []
    const first = (n: GraphNode) => (n.id === selected || n.id === hovered || n.id === view.center?.id ? 0 : 1)
    for (const n of [...view.nodes].sort((a, b) => first(a) - first(b) || b.weight - a.weight)) {
      if (!labelled.has(n.id) && n.id !== selected && n.id !== hovered) continue
      const p = at(n.id)
      const text = n.label.length > 34 ? `${n.label.slice(0, 33)}…` : n.label
      const tw = ctx.measureText(text).width
      // Right of the node, or left of it when it would run off the canvas; never over the node itself.
      const right = p.x + radius(n) + 5
      const x = right + tw + 4 <= w ? right : Math.max(4, p.x - radius(n) - 5 - tw)
      const box = { x: x - 2, y: p.y - 8, w: tw + 4, h: 16 }
      if (first(n) === 1 && drawnBoxes.some((o) => box.x < o.x + o.w && o.x < box.x + box.w && box.y < o.y + o.h && o.y < box.y + box.h)) continue
      drawnBoxes.push(box)
      ctx.fillStyle = "rgba(255,255,255,0.85)"
      ctx.fillRect(box.x, box.y, box.w, box.h)
      ctx.fillStyle = "#1a202c"
      ctx.fillText(text, x, p.y)
    }
  }
  const nodeAt = (x: number, y: number): GraphNode | null => {
    let best: GraphNode | null = null
    let bestD = Infinity
    for (const n of view.nodes) {
      const p = at(n.id)
      const d = Math.hypot(p.x - x, p.y - y)
      if (d <= radius(n) + 5 && d < bestD) {
        best = n
        bestD = d
      }
    }
    return best
  }
  const select = (id: string | null) => {
    selected = id
    options.onSelect?.(view.nodes.find((n) => n.id === id) ?? null)
    draw()
  }
  canvas.addEventListener("click", (ev) => {
    const rect = canvas.getBoundingClientRect()
    const n = nodeAt(ev.clientX - rect.left, ev.clientY - rect.top)
    if (n !== null) {
      select(n.id)
      options.onOpen(n)
    }
  })
  canvas.addEventListener("mousemove", (ev) => {
    const rect = canvas.getBoundingClientRect()
    const n = nodeAt(ev.clientX - rect.left, ev.clientY - rect.top)
    const id = n?.id ?? null
    canvas.style.cursor = n === null ? "default" : "pointer"
    if (id !== hovered) {
      hovered = id
      canvas.title = n === null ? "" : `${n.kind}: ${n.label}`
      draw()
    }
  })
  canvas.addEventListener("keydown", (ev) => {
    if (view.nodes.length === 0) return
    const i = selected === null ? -1 : order.findIndex((n) => n.id === selected)
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") {
      select(order[(i + 1) % order.length]!.id)
      ev.preventDefault()
    } else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") {
      select(order[(i - 1 + order.length) % order.length]!.id)
      ev.preventDefault()
    } else if (ev.key === "Enter" && selected !== null) {
      const n = view.nodes.find((x) => x.id === selected)
      if (n !== undefined) options.onOpen(n)
      ev.preventDefault()
    }
  })
  new ResizeObserver(() => draw()).observe(canvas)
  return { element: canvas, select, redraw: draw }
}
