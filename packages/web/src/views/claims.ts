/**
 * Claims: the list (by status, topic, paper) and one claim with its sources, edges and the signals that made
 * them, its entities, and the graph questions one click away.
 */
import {
  type Challenges,
  type ClaimDetail,
  type ListedClaim,
  type Counterevidence,
  type Foundations,
  getJson,
  type Lineage,
  type PaperSummary
} from "../api.js"
import { type CurationRecord } from "../api.js"
import { clear, h } from "../dom.js"
import { lineageDating, yearLabel } from "../lineage.js"
import { reasonAfterCount } from "../reason.js"
import { openEvidence } from "../evidence.js"
import { askWithinHref, badge, claimHref, errorBox, graphHref, loading, pageLabel, paperHref, section, shorten, table } from "../widgets.js"
import { claimControls, claimCurations, edgeControls } from "./curation.js"

export const claimsView = async (main: HTMLElement, params: URLSearchParams): Promise<void> => {
  const status = h("select", { id: "status", name: "status" },
    h("option", { value: "" }, "any status"),
    ["established", "preliminary", "contested"].map((s) => h("option", { value: s }, s)))
  status.value = params.get("status") ?? ""
  const about = h("input", { id: "about", name: "about", type: "search", placeholder: "about a topic…" })
  about.value = params.get("about") ?? ""
  const paper = h("select", { id: "paper", name: "paper" }, h("option", { value: "" }, "any paper"))
  const results = h("div", { class: "results" })
  const form = h("form", { class: "card filters", role: "search" },
    h("label", { for: "status" }, "Status"), status,
    h("label", { for: "about" }, "About"), about,
    h("label", { for: "paper" }, "Paper"), paper,
    h("button", { type: "submit", class: "primary" }, "Show claims"))
  main.append(h("h1", {}, "Claims"), form, results)
  const load = async () => {
    clear(results)
    results.append(loading("claims"))
    try {
      const claims = await getJson<ReadonlyArray<ListedClaim>>("/claims", {
        status: status.value || undefined,
        about: about.value.trim() || undefined,
        paper: paper.value || undefined,
        limit: 100
      })
      clear(results)
      results.append(h("p", { class: "muted" }, `${claims.length} claim${claims.length === 1 ? "" : "s"}`))
      results.append(h("ul", { class: "claim-list card" }, claims.map((c) =>
        h("li", {},
          // the papers for and against behind the status, as on the claim's page; its own papers only when not given
          badge(c.status, c.support === undefined ? {} : { support: c.support, opposition: c.opposition ?? 0, stated: c.stated ?? 0 }), " ",
          h("a", { href: claimHref(c.id) }, c.text), " ",
          h("span", { class: "muted" }, [
            c.support === undefined ? `${c.livePapers} paper${c.livePapers === 1 ? "" : "s"}` : null,
            c.papers > c.livePapers ? `${c.papers - c.livePapers} retracted` : null,
            c.score !== null ? `relevance ${c.score}` : null
          ].filter((x) => x !== null).join(" · ")))
      )))
    } catch (e) {
      clear(results)
      results.append(errorBox(e))
    }
  }
  form.addEventListener("submit", (ev) => {
    ev.preventDefault()
    const q = new URLSearchParams()
    if (status.value) q.set("status", status.value)
    if (about.value.trim()) q.set("about", about.value.trim())
    if (paper.value) q.set("paper", paper.value)
    history.replaceState(null, "", `#/claims?${q.toString()}`)
    void load()
  })
  void getJson<ReadonlyArray<PaperSummary>>("/papers").then((papers) => {
    for (const p of papers) paper.append(h("option", { value: p.paperId }, shorten(p.title, 60)))
    paper.value = params.get("paper") ?? ""
  }).catch(() => undefined)
  await load()
}

/** The kinds a status counts (`docs/epistemics.md`); a `weak_link` (related link, candidate) never counts. */
const COUNTED_KINDS: ReadonlySet<string> = new Set(["same_as", "replicates", "contradicts"])

/** The linker's signals a reader weighs, in order, with their names (the rest of the edge's numbers are internal). */
const SIGNALS: ReadonlyArray<readonly [string, string]> = [
  ["subject", "subject"],
  ["semantic", "semantic"],
  ["domain", "domain"],
  ["conditions", "conditions"]
]

/**
 * The NLI judge's call on the two sentences, in words with its confidence: the `outcome` signal is the judgement
 * (entailment 1, neutral 0.5, contradiction 0), `nliScore` the judge's mean confidence in it. One phrase for the two
 * numbers, so neither reads as "the same outcome" or as a second score.
 */
export const nliText = (signals: Readonly<Record<string, number>>): string | null => {
  const o = signals["outcome"]
  if (o === undefined) return null
  const call = o === 1 ? "entailment" : o === 0 ? "contradiction" : o === 0.5 ? "neutral" : `between (${o})`
  const confidence = signals["nliScore"]
  return `NLI judge: ${call}${confidence === undefined ? "" : `, confidence ${Math.round(confidence * 100) / 100}`}`
}

export const signalText = (signals: Readonly<Record<string, number>>): string =>
  [
    ...SIGNALS.flatMap(([k, name]) => (signals[k] === undefined ? [] : [`${name} ${Math.round(signals[k] * 100) / 100}`])),
    nliText(signals)
  ].filter((x) => x !== null).join(" · ")

/**
 * An edge's signals: the linker's reason in words first (what both findings share, what is not shared, the
 * direction), then the numbers it weighed.
 */
const edgeSignals = (reason: string | null, signals: Readonly<Record<string, number>>) => {
  const numbers = signalText(signals)
  if (reason === null || reason.length === 0) return numbers || "—"
  return h("div", {},
    h("div", { class: "edge-reason", "data-testid": "edge-reason" }, reason),
    numbers.length === 0 ? null : h("div", { class: "muted small" }, numbers))
}


export const claimView = async (main: HTMLElement, evidence: HTMLElement, id: string): Promise<void> => {
  main.append(loading("the claim"))
  let detail: ClaimDetail
  let curations: ReadonlyArray<CurationRecord> = []
  try {
    detail = await getJson<ClaimDetail>(`/claims/${encodeURIComponent(id)}`)
    curations = await getJson<ReadonlyArray<CurationRecord>>("/curations", { claim: detail.claim.id }).catch(() => [])
  } catch (e) {
    clear(main)
    main.append(h("h1", {}, "Claim"), errorBox(e))
    return
  }
  clear(main)
  // A decision re-grades statuses: the page is drawn again from the store (a claim marked not a finding is gone).
  const curated = h("div", { class: "curation-out", "aria-live": "polite" })
  const reload = async () => {
    const keep = Array.from(curated.childNodes)
    clear(main)
    await claimView(main, evidence, id)
    const out = main.querySelector(".curation-out")
    if (out !== null) out.append(...keep)
    else main.prepend(...keep)
  }
  document.title = `${shorten(detail.claim.text, 50)} · kg workbench`
  const a = detail.assessment
  const c = detail.claim
  // The edges a status counts, apart from related links and candidates (weak links), so that neither reads as evidence.
  const counted = detail.edges.filter((e) => COUNTED_KINDS.has(e.kind))
  const links = detail.edges.filter((e) => !COUNTED_KINDS.has(e.kind))
  const edgeTable = (edges: ReadonlyArray<ClaimDetail["edges"][number]>) =>
    table(["kind", "other claim", "score", "signals", "curate"], edges.map((e) => [
      h("span", { class: `edge edge-${e.kind}` },
        e.related != null ? `related: ${e.related}` : e.proposed != null ? `candidate ${e.proposed.replace(/_/g, " ")}` : e.kind.replace(/_/g, " ")),
      h("span", {}, badge(e.other.status), " ", h("a", { href: claimHref(e.other.id) }, e.other.text)),
      String(Math.round(e.score * 100) / 100),
      edgeSignals(e.why ?? e.reason ?? null, e.signals),
      edgeControls(c.id, e.other.id, e.kind, curated, reload)
    ]))
  main.append(
    h("p", { class: "crumbs" }, h("a", { href: "#/claims" }, "Claims"), " / claim"),
    h("h1", { class: "claim-title" }, c.text),
    h("p", { class: "status-line" }, badge(a.status, { support: a.support, opposition: a.opposition, stated: a.stated?.length ?? 0, reason: a.reason }), " ",
      h("span", { class: "reason" }, `Why: ${reasonAfterCount(a.reason)}`)),
    claimControls(c.id, curated, reload),
    curated,
    claimCurations(curations, curated, reload) ?? "",
    detail.resolution.by === "text"
      ? h("p", { class: "note" }, `Nearest claim to “${detail.resolution.query}” (similarity ${detail.resolution.similarity}).`)
      : "",
    h("dl", { class: "facts card" },
      h("dt", {}, "Confidence"), h("dd", {}, String(c.confidence)),
      c.metric !== null ? [h("dt", {}, "Metric"), h("dd", {}, c.metric)] : null,
      c.value !== null ? [h("dt", {}, "Value"), h("dd", {}, c.value)] : null,
      c.conditions !== null ? [h("dt", {}, "Conditions"), h("dd", {}, c.conditions)] : null,
      h("dt", {}, "Domains"), h("dd", {}, c.domainTags.join(", ") || "—"),
      h("dt", {}, "Id"), h("dd", { class: "mono" }, c.id)),
    section(`Sources (${detail.sources.length})`,
      h("p", {}, h("a", { href: askWithinHref(detail.sources.map((s) => s.paperId)), class: "button", "data-testid": "ask-within" },
        "Ask within these sources")),
      h("ul", { class: "sources" }, detail.sources.map((s) =>
      h("li", {},
        h("a", { href: paperHref(s.paperId) }, s.title), " ",
        h("span", { class: "muted" }, `${yearLabel(s.year)} ${pageLabel(s.page)}${s.retracted ? " · retracted" : ""}`),
        h("blockquote", { class: "quote" }, `“${s.quote}”`),
        h("button", {
          type: "button",
          class: "cite",
          onclick: () => void openEvidence(evidence, { paperId: s.paperId, page: s.page, quote: s.quote, chunkId: s.chunkId })
        }, s.page === null ? "Show the passage" : `Show on page ${s.page}`))
    ))),
    section(
      `Edges (${counted.length})`,
      counted.length === 0
        ? h("p", { class: "muted" }, links.length === 0
          ? "No edges: no other claim was found to be the same, contradicting, replicating or weakly linked."
          : "No edges that count for the status: no other claim states the same finding, replicates or contradicts it.")
        : edgeTable(counted)
    ),
    links.length === 0 ? "" : section(
      `Related and candidate links (${links.length})`,
      h("p", { class: "muted", "data-testid": "links-note" },
        "Not evidence: no status counts them. A related link shares one side (the subject, the outcome, the wording or " +
          "the paper's topic) but is not the same finding; a candidate was proposed for a kind the finding rules could not confirm."),
      edgeTable(links)
    ),
    section("Entities", detail.entities.length === 0 ? h("p", { class: "muted" }, "none") : h("ul", { class: "chips" }, detail.entities.map((e) =>
      h("li", {}, h("a", { href: graphHref("entity", e.id), class: "chip" }, `${e.label} `, h("span", { class: "muted" }, e.type)))
    )))
  )
  const out = h("div", { class: "question-result", "aria-live": "polite" })
  const ask = (label: string, load: () => Promise<Node>) =>
    h("button", { type: "button", onclick: async () => {
      clear(out)
      out.append(loading(label.toLowerCase()))
      try {
        const node = await load()
        clear(out)
        out.append(h("h3", {}, label), node)
      } catch (e) {
        clear(out)
        out.append(errorBox(e))
      }
    } }, label)
  const cid = encodeURIComponent(c.id)
  main.append(section("Graph questions",
    h("div", { class: "row wrap" },
      ask("Challenges", async () => challengesNode(await getJson<Challenges>(`/claims/${cid}/challenges`))),
      ask("Counterevidence", async () => counterNode(await getJson<Counterevidence>(`/claims/${cid}/counterevidence`))),
      ask("Lineage", async () => lineageNode(await getJson<Lineage>("/lineage", { subject: c.id }))),
      ask("Foundations", async () => foundationsNode(await getJson<Foundations>("/foundations", { subject: c.id }))),
      h("a", { href: graphHref("claim", c.id), class: "button" }, "Graph around this claim")),
    out))
}

const challengesNode = (r: Challenges) =>
  r.papers.length === 0 ? h("p", {}, "No paper contradicts this claim.") : h("ul", {}, r.papers.map((p) =>
    h("li", {}, h("a", { href: paperHref(p.paperId) }, p.title), ` (${yearLabel(p.year)})`,
      h("ul", {}, p.claims.map((c) => h("li", {}, c.id === null ? `"${c.text}"` : h("a", { href: claimHref(c.id) }, c.text), ` ${pageLabel(c.page)} · ${
        c.id === null ? "judged now, relevance × NLI confidence" : "a stored contradicts edge, score"
      } ${Math.round(c.edgeScore * 100) / 100}`))))
  ))

const counterNode = (r: Counterevidence) =>
  r.against.length === 0 ? h("p", {}, "No contradicting claim.") : h("ul", {}, r.against.map((a) =>
    h("li", {}, ...(a.claim === null
      ? [`"${a.text}"`]
      // the status alone: "backed by N independent papers" follows, and a count of papers for beside "contested" would
      // leave out the papers against
      : [badge(a.claim.status), " ", h("a", { href: claimHref(a.claim.id) }, a.claim.text)]),
      h("div", { class: "muted" }, [
        `backed by ${a.support} independent paper${a.support === 1 ? "" : "s"}`,
        a.via === "edge"
          ? `a stored contradicts edge, score ${Math.round(a.edgeScore * 100) / 100}`
          : `judged now, relevance × NLI confidence ${Math.round(a.edgeScore * 100) / 100}`,
        a.via === "edge" ? signalText(a.signals) : ""
      ].filter((x) => x !== "").join(" · ")))
  ))

const lineageNode = (r: Lineage) => {
  const dating = lineageDating(r)
  const first = r.firstAppearance
  return h("div", {},
    h("p", { "data-testid": "lineage-first" }, first === null
      ? "First appearance unknown."
      : dating.known && dating.sameYearPapers > 0
      // other papers of that year: which came first is not known
      ? [
        `First appears in ${first.year}: `,
        h("a", { href: paperHref(first.paperId) }, first.title),
        ` and ${dating.sameYearPapers} more paper${dating.sameYearPapers === 1 ? "" : "s"} of that year (order within the year unknown).`
      ]
      : dating.known
      ? ["First appears in ", h("a", { href: paperHref(first.paperId) }, first.title), ` (${yearLabel(first.year)})`]
      : [
        `First appearance unknown: ${dating.undatedPapers} paper${dating.undatedPapers === 1 ? " has" : "s have"} no year, and the order is known only among the dated ones. `,
        first.year === null ? "Undated: " : "Earliest dated: ",
        h("a", { href: paperHref(first.paperId) }, first.title),
        ` (${yearLabel(first.year)})`
      ]),
    r.events.length === 0 ? h("p", { class: "muted" }, "No later use recorded.") : h("ul", {}, r.events.map((e) =>
      h("li", {}, `${yearLabel(e.year)}: `, h("a", { href: paperHref(e.paperId) }, e.title),
        // a related link (a weak link of one shared side) is no same finding: said so, not a bare "related"
        e.via === "claim_edge" && e.relation === "related"
          ? [" a related claim, not the same finding", e.other === null ? "" : ` (${e.other.label})`]
          : e.via === "relation" && e.other !== null
          // a stored relation as it was stated: "ConvS2S is built on dropout"
          ? `: ${e.other.label} ${e.relation} ${r.resolution.label}`
          : e.via === "mention"
          ? ": mentions it"
          : e.via === "claim_edge" && e.other !== null
          ? ` ${e.relation} by its claim “${e.other.label}”`
          : [` ${e.relation}`, e.other === null ? "" : ` (${e.other.label})`])
    )))
}

const foundationsNode = (r: Foundations) => {
  const labels = new Map([...r.roots.map((x) => [x.id, x.label] as const), ...r.nodes.map((n) => [n.entity.id, n.entity.label] as const)])
  return r.nodes.length === 0 ? h("p", {}, "No based-on or uses relations from this claim's entities.") : h("ul", {}, r.nodes.map((n) =>
    h("li", {}, `${"· ".repeat(n.depth - 1)}`, h("a", { href: graphHref("entity", n.entity.id) }, n.entity.label),
      // as the relation was stated, from the entity one level up: "Transformer uses it"
      `: ${labels.get(n.from) ?? n.from} ${n.relation ?? n.predicate} it (depth ${n.depth}), in `,
      h("span", { class: "muted" }, n.papers.map((p) => p.title).join("; ")))
  ))
}
