/**
 * Curation: the decisions a curator made on claims, edges and entities (newest first, with who and when), each
 * undoable; and the controls the claim page puts beside a claim and each of its edges (confirm, reject, change
 * the kind, not a finding). A decision re-grades statuses at once; the page reloads the view it was made from.
 */
import { curate, type CurationRecord, type CurationReport, getJson } from "../api.js"
import { clear, h } from "../dom.js"
import { claimHref, errorBox, loading, section } from "../widgets.js"

const EDGE_KINDS = ["same_as", "contradicts", "replicates", "weak_link"] as const
const ROLES = ["background", "objective", "method", "other"] as const

const changed = () => window.dispatchEvent(new Event("kg:store-changed"))

/** Run a decision, show its outcome in `out`, then `after` (reload the view). */
const decide = async (out: HTMLElement, run: () => Promise<CurationReport>, after: () => void | Promise<void>) => {
  clear(out)
  out.append(h("p", { class: "loading", role: "status" }, "Saving the decision…"))
  try {
    const r = await run()
    changed()
    clear(out)
    out.append(h("p", { class: "note", "data-testid": "curation-outcome" },
      `#${r.curation.id} ${r.curation.summary}: ${r.grade.changed.length} status change${r.grade.changed.length === 1 ? "" : "s"}` +
        (r.grade.changed.length === 0 ? "." : `: ${r.grade.changed.map((c) => `${c.from} → ${c.to}`).join(", ")}.`)))
    await after()
  } catch (e) {
    clear(out)
    out.append(errorBox(e))
  }
}

/** Confirm / reject / change-kind controls of the edge between `claimId` and `otherId`. */
export const edgeControls = (claimId: string, otherId: string, kind: string, out: HTMLElement, after: () => void | Promise<void>) => {
  const select = h("select", { "aria-label": "change the kind to", class: "kind-select" },
    EDGE_KINDS.map((k) => h("option", { value: k }, k.replace(/_/g, " "))))
  select.value = kind
  const body = (action: "confirm" | "reject" | "correct") => ({ a: claimId, b: otherId, action, ...(action === "correct" ? { kind: select.value } : {}) })
  return h("span", { class: "row wrap curate-edge", "data-other": otherId },
    h("button", { type: "button", class: "small", "data-action": "confirm-edge", onclick: () => void decide(out, () => curate("/curations/edges", body("confirm")), after) }, "Confirm"),
    h("button", { type: "button", class: "small danger", "data-action": "reject-edge", onclick: () => void decide(out, () => curate("/curations/edges", body("reject")), after) }, "Reject"),
    select,
    h("button", { type: "button", class: "small", "data-action": "correct-edge", onclick: () => {
      if (select.value === kind) {
        clear(out)
        out.append(h("p", { class: "note" }, `The edge is already ${kind.replace(/_/g, " ")}: pick another kind, or confirm it.`))
        return
      }
      void decide(out, () => curate("/curations/edges", body("correct")), after)
    } }, "Set kind"))
}

/** Confirm-as-finding / not-a-finding controls of a claim. */
export const claimControls = (claimId: string, out: HTMLElement, after: () => void | Promise<void>) => {
  const role = h("select", { "aria-label": "what the sentence is instead", class: "role-select" }, ROLES.map((r) => h("option", { value: r }, r)))
  return h("div", { class: "row wrap curate-claim" },
    h("button", { type: "button", class: "small", "data-action": "confirm-claim", onclick: () =>
      void decide(out, () => curate("/curations/claims", { claimId, action: "confirm" }), after) }, "Confirm finding"),
    h("button", { type: "button", class: "small danger", "data-action": "not-a-finding", onclick: () =>
      void decide(out, () => curate("/curations/claims", { claimId, action: "reject", role: role.value }), () => {
        // the claim is hidden now: the decision, with its undo, is in the curation list
        location.hash = "#/curation"
      }) }, "Not a finding"),
    h("label", { class: "muted" }, "it is ", role))
}

const record = (c: CurationRecord, out: HTMLElement, after: () => void | Promise<void>) =>
  h("li", { class: c.undoneAt === null ? "curation" : "curation undone", "data-testid": "curation", "data-id": String(c.id) },
    h("span", { class: "mono" }, `#${c.id}`), " ",
    h("span", { class: "curation-summary" }, c.summary), " ",
    h("span", { class: "muted" }, `${c.curator} · ${c.createdAt.replace("T", " ")}`),
    c.currentIds.length === 0 || c.targetKind === "entity" ? "" : [" ", ...c.currentIds.map((id, i) => h("a", { href: claimHref(id) }, i === 0 ? "claim" : "other claim")).flatMap((a, i) => (i === 0 ? [a] : [" · ", a]))],
    c.undoneAt === null
      ? [" ", h("button", { type: "button", class: "small", "data-action": "undo", onclick: () =>
        void decide(out, () => curate(`/curations/${c.id}/undo`, {}), after) }, "Undo")]
      : h("span", { class: "muted" }, ` · undone ${c.undoneAt.replace("T", " ")} by ${c.undoneBy ?? "?"}`))

/** The decisions in force on one claim, with undo. */
export const claimCurations = (list: ReadonlyArray<CurationRecord>, out: HTMLElement, after: () => void | Promise<void>) =>
  list.length === 0 ? null : h("ul", { class: "curations", "data-testid": "claim-curations" }, list.map((c) => record(c, out, after)))

export const curationView = async (main: HTMLElement, params: URLSearchParams): Promise<void> => {
  const all = params.get("all") === "true"
  const out = h("div", { "aria-live": "polite" })
  const results = h("div", {})
  const load = async () => {
    clear(results)
    results.append(loading("decisions"))
    try {
      const list = await getJson<ReadonlyArray<CurationRecord>>("/curations", { all: all ? "true" : undefined })
      clear(results)
      results.append(list.length === 0
        ? h("p", { class: "muted" }, all ? "No decisions yet." : "No decisions in force. Confirm or reject edges and claims from a claim's page.")
        : h("ul", { class: "curations", "data-testid": "curation-list" }, list.map((c) => record(c, out, load))))
    } catch (e) {
      clear(results)
      results.append(errorBox(e))
    }
  }
  main.append(
    h("h1", {}, "Curation"),
    h("p", { class: "muted" },
      "Decisions on claims, edges and entities, newest first. Each holds when papers are extracted again; undo puts back what it changed. ",
      h("a", { href: all ? "#/curation" : "#/curation?all=true" }, all ? "Show those in force only" : "Show undone ones too")),
    section("Decisions", out, results)
  )
  await load()
}
