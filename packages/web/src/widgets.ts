/**
 * Shared pieces of the page: status badges with their reasons, links, error and empty states.
 */
import { ApiError } from "./api.js"
import { h } from "./dom.js"
import { statusCount } from "./reason.js"

export const STATUS_TEXT: Readonly<Record<string, string>> = {
  established: "established",
  preliminary: "preliminary",
  contested: "contested",
  ungrounded: "ungrounded"
}

/** A status badge: "contested: 2 papers for, 1 against", "preliminary: 0 papers for, 2 statements without evidence"
 * (`statusCount`, `reason.ts`), its reason as the tooltip. */
export const badge = (
  status: string,
  options: { readonly support?: number; readonly opposition?: number; readonly stated?: number; readonly reason?: string } = {}
) =>
  h("span", {
    class: `badge badge-${STATUS_TEXT[status] === undefined ? "other" : status}`,
    title: options.reason ?? status
  }, statusCount(status, options.support, options.opposition, options.stated))

export const claimHref = (id: string) => `#/claim/${encodeURIComponent(id)}`
export const paperHref = (id: string) => `#/paper/${encodeURIComponent(id)}`
export const graphHref = (kind: string, id: string) => `#/graph?kind=${kind}&id=${encodeURIComponent(id)}`
/** The Ask page scoped to these papers. */
export const askWithinHref = (paperIds: ReadonlyArray<string>): string =>
  `#/ask?${new URLSearchParams({ papers: Array.from(new Set(paperIds)).join(",") }).toString()}`

export const errorBox = (e: unknown) =>
  h("div", { class: "error", role: "alert" },
    h("strong", {}, e instanceof ApiError ? `${e.tag}: ` : "Error: "),
    e instanceof Error ? e.message : String(e))

export const loading = (what: string) => h("p", { class: "loading", role: "status" }, `Loading ${what}…`)

export const section = (title: string, ...children: ReadonlyArray<Node | string | null | undefined | false | ReadonlyArray<Node>>) =>
  h("section", { class: "card" }, h("h2", {}, title), ...children)

export const pageLabel = (page: number | null) => (page === null ? "" : `p. ${page}`)

export const shorten = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`)

/** A table in a horizontally scrollable wrapper (narrow screens). */
export const table = (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<Node | string>>, caption?: string) =>
  h("div", { class: "table-wrap" },
    h("table", {},
      caption === undefined ? null : h("caption", {}, caption),
      h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c)))))))
