/**
 * The extraction studio of one paper, below its page: tabs with what was stored as JSON, the same as Turtle, its
 * SHACL validation report (now, and what the run dropped), and the EntityCache as each chunk's prompt saw it. Each
 * tab loads when first opened.
 */
import { getJson, getText, type StudioCache, type StudioValidation } from "../api.js"
import { clear, h } from "../dom.js"
import { errorBox, loading, table } from "../widgets.js"

type Tab = "json" | "turtle" | "validation" | "cache"
const TABS: ReadonlyArray<readonly [Tab, string]> = [
  ["json", "JSON"],
  ["turtle", "Turtle"],
  ["validation", "Validation"],
  ["cache", "Entity cache"]
]

const download = (name: string, type: string, text: string) =>
  h("a", {
    class: "button",
    download: name,
    href: URL.createObjectURL(new Blob([text], { type })),
    "data-testid": `studio-download-${name.split(".").at(-1)}`
  }, `Download ${name}`)

const pre = (text: string) => h("pre", { class: "studio-code", tabindex: 0 }, text)

const render = async (tab: Tab, paperId: string, panel: HTMLElement): Promise<void> => {
  const base = `/papers/${encodeURIComponent(paperId)}/studio`
  const safe = paperId.replace(/[^\w.-]+/g, "_")
  switch (tab) {
    case "json": {
      const data = await getJson<unknown>(`${base}/json`)
      const text = JSON.stringify(data, null, 2)
      panel.append(h("p", { class: "row wrap" }, download(`${safe}.json`, "application/json", text)), pre(text))
      return
    }
    case "turtle": {
      const text = await getText(`${base}/rdf`, { format: "turtle" })
      panel.append(
        h("p", { class: "muted" }, "The paper's part of the graph, rebuilt from the store as the export writes it."),
        h("p", { class: "row wrap" }, download(`${safe}.ttl`, "text/turtle", text)),
        pre(text))
      return
    }
    case "validation": {
      const v = await getJson<StudioValidation>(`${base}/validation`)
      panel.append(
        h("p", { class: v.conforms ? "ok" : "warn", "data-testid": "studio-conforms" },
          v.conforms
            ? `Conforms: its ${v.triples} triples satisfy every shape.`
            : `Does not conform: ${v.violations.length} violation${v.violations.length === 1 ? "" : "s"} in ${v.triples} triples.`),
        v.violations.length === 0 ? "" : table(["severity", "focus node", "path", "value", "message"],
          v.violations.map((x) => [x.severity, x.focusNode, x.path ?? "—", x.value ?? "—", x.message])),
        h("h3", {}, `Dropped when it was extracted (${v.droppedAtExtraction.length})`),
        v.droppedAtExtraction.length === 0
          ? h("p", { class: "muted" }, "Nothing: every extracted triple conformed.")
          : table(["chunk", "focus node", "path", "message"], v.droppedAtExtraction.map((x) => [x.chunkId, x.focusNode, x.path ?? "—", x.message])))
      return
    }
    case "cache": {
      const c = await getJson<StudioCache>(`${base}/cache`)
      panel.append(
        h("p", { class: "muted" },
          `Replayed from the stored mentions: before each chunk, the cache holds the entities of the chunks before it; ` +
            `the prompt gets those relevant to the chunk (at most ${c.limit}). The offline extractor reads no cache.`),
        h("ol", { class: "cache-chunks", "data-testid": "studio-cache" }, c.chunks.map((k) =>
          h("li", {},
            h("div", { class: "chunk-head muted" },
              `#${k.ordinal}${k.page !== null ? ` · page ${k.page}` : ""} · cache ${k.cacheSize} · prompt ${k.prompt.length} · learnt ${k.learnt.length}`),
            k.prompt.length === 0 ? h("p", { class: "muted" }, "The prompt got no entity.") : h("p", {},
              ...k.prompt.map((e) => h("span", { class: "chip", title: e.aliases.length > 0 ? `aliases: ${e.aliases.join(", ")}` : e.type }, `${e.label} · ${e.type}`))),
            k.learnt.length === 0 ? "" : h("p", { class: "muted" }, `learnt: ${k.learnt.slice(0, 20).join(", ")}${k.learnt.length > 20 ? ", …" : ""}`)))),
        c.totalChunks > c.chunks.length ? h("p", { class: "muted" }, `Showing ${c.chunks.length} of ${c.totalChunks} chunks.`) : "")
      return
    }
  }
}

export const studioSection = (paperId: string): HTMLElement => {
  const panel = h("div", { class: "studio-panel", role: "tabpanel", "aria-live": "polite" })
  const loaded = new Map<Tab, HTMLElement>()
  const buttons = TABS.map(([tab, label]) => {
    const b = h("button", { type: "button", role: "tab", "aria-selected": "false", "data-tab": tab }, label)
    b.addEventListener("click", () => void open(tab))
    return b
  })
  const open = async (tab: Tab) => {
    for (const b of buttons) b.setAttribute("aria-selected", String(b.dataset["tab"] === tab))
    clear(panel)
    const cached = loaded.get(tab)
    if (cached !== undefined) {
      panel.append(cached)
      return
    }
    const holder = h("div", {})
    const status = loading(TABS.find(([t]) => t === tab)![1])
    holder.append(status)
    panel.append(holder)
    try {
      await render(tab, paperId, holder)
      status.remove()
      loaded.set(tab, holder)
    } catch (e) {
      status.replaceWith(errorBox(e))
    }
  }
  return h("section", { class: "card studio", "data-testid": "studio" },
    h("h2", {}, "Extraction studio"),
    h("div", { class: "tabs", role: "tablist", "aria-label": "Extraction studio" }, buttons),
    panel)
}
