/**
 * Colours and labels of graph nodes and edges, shared by the graph view, its legend and lists (no drawing code,
 * so the views that only need colours do not load the graph library).
 */
import type { GraphNode } from "./api.js"

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
  candidate: "#cbd5e0",
  similar: "#7f8ea3"
}
const PALETTE = ["#2c7a7b", "#805ad5", "#d53f8c", "#dd6b20", "#3182ce", "#38a169", "#718096", "#b83280", "#975a16"]
/** Community colours for papers (Okabe-Ito-like, distinguishable); communities past the list are grey. */
export const COMMUNITY_COLOURS: ReadonlyArray<string> = [
  "#1f6feb", "#d1495b", "#2a9d8f", "#e9a03b", "#8e5ad6", "#6c8ea0", "#b5651d", "#3d9a45", "#c2549d", "#4e5d94"
]
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

export const communityColour = (community: number | null | undefined): string =>
  community === null || community === undefined ? PAPER : COMMUNITY_COLOURS[community] ?? "#a0aec0"

export const nodeColour = (n: GraphNode): string =>
  n.kind === "claim"
    ? STATUS_COLOURS[n.status ?? ""] ?? "#4a5568"
    : n.kind === "paper"
    ? communityColour(n.community)
    : typeColour(n.type)

/** What is drawn on a node: its short label, and for papers the first author and year on a second line. */
export const nodeLabel = (n: GraphNode): string => {
  const short = n.short ?? (n.label.length > 48 ? `${n.label.slice(0, 47)}…` : n.label)
  return n.kind === "paper" && n.detail !== undefined && n.detail !== null ? `${short}\n${n.detail}` : short
}
