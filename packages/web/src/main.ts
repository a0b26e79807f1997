/**
 * The kg research workbench: a hash-routed page (Ask, Claims, Papers, Graph, Patterns, Add papers) over the
 * `kg serve` API. Plain DOM, no framework; everything it loads comes from the server that serves it.
 */
import { getJson, type ServerInfo, type Stats } from "./api.js"
import { clear, h } from "./dom.js"
import { panel } from "./evidence.js"
import { askView } from "./views/ask.js"
import { compareView } from "./views/compare.js"
import { claimsView, claimView } from "./views/claims.js"
import { graphView } from "./views/graph.js"
import { addView, patternsView } from "./views/jobs.js"
import { papersView, paperView } from "./views/papers.js"

// A token given once in the address (?token=...) is now a cookie set by the server: take it out of the address.
if (new URLSearchParams(location.search).has("token")) history.replaceState(null, "", `${location.pathname}${location.hash}`)

const NAV: ReadonlyArray<readonly [string, string]> = [
  ["ask", "Ask"],
  ["claims", "Claims"],
  ["papers", "Papers"],
  ["graph", "Graph"],
  ["patterns", "Patterns"],
  ["add", "Add papers"],
  ["compare", "Compare"]
]

const root = document.getElementById("app")!
const nav = h("nav", { class: "nav", "aria-label": "Sections" }, h("ul", {}, NAV.map(([key, label]) => h("li", {}, h("a", { href: `#/${key}`, "data-nav": key }, label)))))
const storeLine = h("p", { class: "store muted" }, "")
const main = h("main", { id: "main", tabindex: -1 })
const evidence = panel()
root.append(
  h("a", { href: "#main", class: "skip", onclick: (ev: Event) => {
    ev.preventDefault()
    main.focus()
  } }, "Skip to the content"),
  h("header", { class: "top" }, h("a", { href: "#/ask", class: "brand" }, h("img", { src: "/favicon.svg", alt: "", width: 22, height: 22 }), "kg workbench"), nav, storeLine),
  h("div", { class: "layout" }, main, evidence)
)

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && !evidence.hidden) {
    evidence.hidden = true
    clear(evidence)
  }
})

const refreshStore = () =>
  Promise.all([getJson<ServerInfo>("/info"), getJson<Stats>("/stats")]).then(([info, stats]) => {
    const c = stats.claimsByStatus
    storeLine.textContent = `${info.db.split("/").pop()} · ${stats.tables["papers"] ?? 0} papers · ${stats.tables["claims"] ?? 0} claims` +
      ` (${c["established"] ?? 0} established, ${c["preliminary"] ?? 0} preliminary, ${c["contested"] ?? 0} contested)`
  }).catch(() => {
    storeLine.textContent = "the server did not answer"
  })

const route = async () => {
  const hash = location.hash.replace(/^#\/?/, "")
  const [path = "", query = ""] = hash.split("?")
  const [section = "ask", ...rest] = path.split("/")
  const params = new URLSearchParams(query)
  const arg = rest.length > 0 ? decodeURIComponent(rest.join("/")) : ""
  for (const a of nav.querySelectorAll("a")) {
    const on = a.dataset["nav"] === section || (a.dataset["nav"] === "claims" && section === "claim") || (a.dataset["nav"] === "papers" && section === "paper")
    if (on) a.setAttribute("aria-current", "page")
    else a.removeAttribute("aria-current")
  }
  clear(main)
  // Evidence belongs to the view that opened it.
  evidence.hidden = true
  clear(evidence)
  const title = NAV.find(([k]) => k === section)?.[1] ?? (section === "claim" ? "Claim" : section === "paper" ? "Paper" : "Ask")
  document.title = `${title} · kg workbench`
  switch (section) {
    case "claims":
      return claimsView(main, params)
    case "claim":
      return claimView(main, evidence, arg)
    case "papers":
      return papersView(main)
    case "paper":
      return paperView(main, evidence, arg)
    case "graph":
      return graphView(main, params)
    case "patterns":
      return patternsView(main)
    case "add":
      return addView(main)
    case "compare":
      return compareView(main)
    default:
      return askView(main, evidence, params)
  }
}

window.addEventListener("hashchange", () => {
  void route().then(() => {
    if (document.activeElement === document.body) main.focus({ preventScroll: true })
  })
  void refreshStore()
})
window.addEventListener("kg:store-changed", () => void refreshStore())
void route()
void refreshStore()
