/**
 * Ask: a question, the papers to answer from (all, or a scope: papers picked here, in the papers list, from a
 * claim's sources or a graph view, and/or a filter on year, venue, author, title), the research stages as they
 * run, then the answer in its shape (a value and its source, a verdict with its meter, a table of findings, the
 * papers that answer), sentence by sentence with each citation a link to its page (the evidence panel), cited
 * claims with status badges and reasons, ungrounded sentences marked.
 */
import { type Answer, type AnswerEvent, type CitedClaim, getJson, type PaperSummary, stream } from "../api.js"
import { clear, h } from "../dom.js"
import { openEvidence } from "../evidence.js"
import { badge, claimHref, errorBox, pageLabel, paperHref, section } from "../widgets.js"
import { yearLabel } from "../lineage.js"

const RESEARCH_STAGES: ReadonlyArray<readonly [string, string]> = [
  ["scoping", "Scoping: paper records and claims"],
  ["evidence", "Evidence: passages of those papers"],
  ["synthesis", "Synthesis"],
  ["formatting", "Checking citations"]
]

let lastQuestion = ""


export const askView = (main: HTMLElement, evidence: HTMLElement, params: URLSearchParams): void => {
  const question = h("textarea", {
    id: "question",
    name: "question",
    rows: 3,
    required: true,
    maxlength: 2000,
    placeholder: "e.g. How reliable is human evaluation of faithfulness in long summaries?"
  })
  question.value = params.get("q") ?? lastQuestion
  const mode = h("select", { id: "mode", name: "mode" },
    h("option", { value: "research" }, "Research (four stages, broader answer)"),
    h("option", { value: "ask" }, "Ask (direct answer)"))
  if (params.get("mode") === "ask") mode.value = "ask"
  // the scope: papers (ids, shown by title) and a filter
  const scope = new Set((params.get("papers") ?? "").split(",").map((x) => x.trim()).filter((x) => x !== ""))
  const titles = new Map<string, string>()
  const chips = h("ul", { class: "chips scope-chips", "data-testid": "scope", "aria-label": "Papers in scope" })
  const picker = h("select", { id: "scope-add", name: "scope-add", "aria-label": "Add a paper to the scope" },
    h("option", { value: "" }, "Add a paper…"))
  const where = h("input", {
    id: "where",
    name: "where",
    type: "text",
    maxlength: 1000,
    placeholder: "e.g. year>=2019 and venue~ACL",
    value: params.get("where") ?? ""
  })
  const renderScope = () => {
    clear(chips)
    if (scope.size === 0) chips.append(h("li", { class: "muted" }, "all papers"))
    for (const id of scope) {
      chips.append(h("li", { class: "chip", "data-paper": id },
        titles.get(id) ?? id, " ",
        h("button", {
          type: "button",
          class: "chip-remove",
          "aria-label": `Remove ${titles.get(id) ?? id} from the scope`,
          onclick: () => {
            scope.delete(id)
            renderScope()
          }
        }, "×")))
    }
  }
  picker.addEventListener("change", () => {
    if (picker.value !== "") scope.add(picker.value)
    picker.value = ""
    renderScope()
  })
  renderScope()
  void getJson<ReadonlyArray<PaperSummary>>("/papers").then((papers) => {
    for (const p of papers) {
      titles.set(p.paperId, p.title)
      picker.append(h("option", { value: p.paperId }, p.title))
    }
    renderScope()
  }).catch(() => undefined)
  const submit = h("button", { type: "submit", class: "primary" }, "Ask")
  const stop = h("button", { type: "button", hidden: true }, "Stop")
  const stages = h("ol", { class: "stages", "aria-label": "Stages", "aria-live": "polite" })
  const answer = h("div", { class: "answer", "aria-live": "polite" })
  let controller: AbortController | null = null

  const form = h("form", { class: "card ask-form", role: "search" },
    h("label", { for: "question" }, "Your research question"),
    question,
    h("fieldset", { class: "scope" },
      h("legend", {}, "Answer from"),
      chips,
      h("div", { class: "row" },
        picker,
        h("button", { type: "button", onclick: () => {
          scope.clear()
          where.value = ""
          renderScope()
        } }, "All papers")),
      h("label", { for: "where" }, "Only papers where"), where),
    h("div", { class: "row" }, h("label", { for: "mode", class: "inline" }, "Mode"), mode, submit, stop))

  const run = async () => {
    const q = question.value.trim()
    if (q === "") {
      question.focus()
      return
    }
    lastQuestion = q
    const state = new URLSearchParams({ q })
    if (mode.value === "ask") state.set("mode", "ask")
    if (scope.size > 0) state.set("papers", Array.from(scope).join(","))
    if (where.value.trim() !== "") state.set("where", where.value.trim())
    history.replaceState(null, "", `#/ask?${state.toString()}`)
    controller?.abort()
    controller = new AbortController()
    clear(stages)
    clear(answer)
    const items = new Map<string, HTMLLIElement>()
    const stageItem = (key: string, label: string) => {
      const li = h("li", { class: "stage pending", "data-stage": key }, h("span", { class: "stage-label" }, label), h("span", { class: "stage-msg" }, ""))
      items.set(key, li)
      stages.append(li)
      return li
    }
    if (mode.value === "research") for (const [key, label] of RESEARCH_STAGES) stageItem(key, label)
    const markRunning = () => {
      const next = Array.from(items.values()).find((li) => li.classList.contains("pending"))
      if (next !== undefined) {
        next.classList.remove("pending")
        next.classList.add("running")
      }
    }
    markRunning()
    submit.disabled = true
    stop.hidden = false
    const sentences = h("div", { class: "sentences", "data-testid": "answer" })
    answer.append(section("Answer", sentences))
    try {
      await stream<AnswerEvent>(
        mode.value === "ask" ? "/ask" : "/research",
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            question: q,
            ...(scope.size > 0 ? { papers: Array.from(scope) } : {}),
            ...(where.value.trim() !== "" ? { where: where.value.trim() } : {})
          }),
          signal: controller.signal
        },
        (event) => {
          switch (event.type) {
            case "stage": {
              const li = items.get(event.stage) ?? stageItem(event.stage, event.stage[0]!.toUpperCase() + event.stage.slice(1))
              li.classList.remove("pending", "running")
              li.classList.add("done")
              li.querySelector(".stage-msg")!.textContent = event.message.replace(/^[^:]*:\s*/, "")
              markRunning()
              break
            }
            case "sentence":
              sentences.append(sentenceView(event.sentence, evidence, null))
              break
            case "answer":
              for (const li of items.values()) li.classList.remove("running")
              clear(sentences)
              renderAnswer(answer, sentences, event.answer, evidence)
              break
            case "error":
              for (const li of items.values()) if (li.classList.contains("running")) li.classList.replace("running", "failed")
              answer.prepend(h("div", { class: "error", role: "alert" }, h("strong", {}, `${event.error._tag}: `), event.error.message))
              break
          }
        }
      )
    } catch (e) {
      if (!(e instanceof DOMException && e.name === "AbortError")) answer.prepend(errorBox(e))
    } finally {
      submit.disabled = false
      stop.hidden = true
    }
  }
  form.addEventListener("submit", (ev) => {
    ev.preventDefault()
    void run()
  })
  question.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault()
      void run()
    }
  })
  stop.addEventListener("click", () => controller?.abort())
  main.append(h("h1", {}, "Ask the graph"), form, h("section", { class: "card", "aria-label": "Progress" }, h("h2", {}, "Stages"), stages), answer)
  if (params.get("q") !== null) void run()
  else question.focus()
}

type Sentence = Answer["sentences"][number]

const sentenceView = (s: Sentence, evidence: HTMLElement, claims: ReadonlyMap<string, CitedClaim> | null) => {
  const p = h("p", { class: s.ungrounded ? "sentence ungrounded" : "sentence" })
  if (s.ungrounded) {
    p.append(h("span", { class: "badge badge-ungrounded", title: "This statement traces to no checked citation" }, "ungrounded"), " ")
  }
  p.append(s.text, " ")
  for (const c of s.citations) {
    p.append(h("button", {
      type: "button",
      class: "cite",
      "data-testid": "citation",
      title: `Show the quote on ${c.page === null ? "its passage" : `page ${c.page}`} of ${c.paper_id}`,
      onclick: () => void openEvidence(evidence, { paperId: c.paper_id, page: c.page, quote: c.quote })
    }, `[${c.paper_id}${c.page === null ? "" : `, p. ${c.page}`}]`), " ")
  }
  for (const ref of s.claims) {
    const c = claims?.get(ref.claimId)
    p.append(h("a", { href: claimHref(ref.claimId), class: "badge-link" },
      badge(ref.status, c === undefined ? {} : { support: c.support, opposition: c.opposition, reason: c.reason })), " ")
  }
  return p
}

const citeButton = (evidence: HTMLElement, c: { readonly paper_id: string; readonly page: number | null; readonly quote: string }) =>
  h("button", {
    type: "button",
    class: "cite",
    "data-testid": "citation",
    title: `Show the quote on ${c.page === null ? "its passage" : `page ${c.page}`} of ${c.paper_id}`,
    onclick: () => void openEvidence(evidence, { paperId: c.paper_id, page: c.page, quote: c.quote })
  }, `[${c.paper_id}${c.page === null ? "" : `, p. ${c.page}`}]`)

/** The verdict's meter: the share of findings for and against, as two bars. */
const meter = (v: NonNullable<Answer["shape"]["verdict"]>) => {
  const total = v.for + v.against
  const share = total === 0 ? 0 : Math.round((v.for / total) * 100)
  return h("div", { class: `verdict verdict-${v.answer}`, "data-testid": "verdict" },
    h("div", { class: "meter", role: "img", "aria-label": `${v.for} findings for, ${v.against} against` },
      h("span", { class: "meter-for", style: `width:${share}%` }),
      h("span", { class: "meter-against", style: `width:${total === 0 ? 0 : 100 - share}%` })),
    h("p", { class: "meter-legend muted" },
      `${v.for} for · ${v.against} against${v.neutral > 0 ? ` · ${v.neutral} on the topic, deciding neither way` : ""}`))
}

/** The shape of the answer: its lead line, the verdict meter, the table of findings, the papers that answer. */
const shapeView = (a: Answer, evidence: HTMLElement): ReadonlyArray<Node> => {
  const s = a.shape
  const out: Array<Node> = []
  if (s.lead !== "") out.push(h("p", { class: "lead", "data-testid": "lead" }, s.lead))
  if (s.verdict !== undefined) out.push(meter(s.verdict))
  if (s.table !== undefined && s.table.rows.length > 0) {
    const t = s.table
    out.push(h("div", { class: "table-wrap" },
      h("table", { class: "findings", "data-testid": "findings-table" },
        h("caption", {}, `Findings side by side, ${t.direction === "min" ? "lowest" : "highest"} ${t.metric ?? "value"} first`),
        h("thead", {}, h("tr", {}, ["#", ...t.columns].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, t.rows.map((r, i) =>
          h("tr", {},
            h("td", {}, String(i + 1)),
            h("td", {}, r.method),
            h("td", {}, r.dataset ?? "—"),
            h("td", {}, r.metric ?? "—"),
            h("td", { class: "value", "data-number": String(r.number) }, r.value),
            h("td", {}, h("a", { href: paperHref(r.paper_id), title: r.title }, r.paper_id)),
            h("td", {}, citeButton(evidence, r))))))))
  }
  if (s.groups !== undefined && s.groups.length > 0) {
    out.push(h("ol", { class: "paper-groups", "data-testid": "paper-groups" }, s.groups.map((g) =>
      h("li", {},
        h("strong", {}, g.method), " ",
        h("a", { href: paperHref(g.paper_id) }, g.title),
        h("span", { class: "muted" }, ` (${yearLabel(g.year)})`),
        h("ul", {}, g.items.map((i) => h("li", {}, i.text, " ", citeButton(evidence, { paper_id: g.paper_id, page: i.page, quote: i.quote }))))))))
  }
  return out
}

const renderAnswer = (answer: HTMLElement, sentences: HTMLElement, a: Answer, evidence: HTMLElement) => {
  const claims = new Map(a.claims.map((c) => [c.claimId, c] as const))
  const stanceOf = new Map((a.shape.verdict?.findings ?? []).map((f) => [f.quote, f.stance] as const))
  sentences.append(...shapeView(a, evidence))
  // a list answer shows its sentences under their papers
  if (a.shape.groups === undefined || a.shape.groups.length === 0) {
    for (const s of a.sentences) {
      const view = sentenceView(s, evidence, claims)
      const stance = stanceOf.get(s.citations[0]?.quote ?? "")
      if (stance === "for" || stance === "against") {
        view.prepend(h("span", { class: `badge stance stance-${stance}` }, stance), " ")
      }
      sentences.append(view)
    }
  }
  if (a.sentences.length === 0) sentences.append(h("p", {}, "No answer could be written from the evidence."))
  if (a.warnings.length > 0) {
    answer.append(section("Warnings", h("ul", { class: "warnings" }, a.warnings.map((w) => h("li", {}, w)))))
  }
  if (a.claims.length > 0) {
    answer.append(section(
      "Cited claims",
      h("ul", { class: "claim-list" }, a.claims.map((c) =>
        h("li", {},
          badge(c.status, { support: c.support, opposition: c.opposition, reason: c.reason }), " ",
          h("a", { href: claimHref(c.claimId) }, c.text), " ",
          h("span", { class: "muted" }, `${c.paperId} ${pageLabel(c.page)}`),
          c.reason === "" ? null : h("div", { class: "reason" }, `Why: ${c.reason}`))
      ))
    ))
  }
  if (a.ungrounded.length > 0) {
    answer.append(section("Ungrounded statements", h("ul", {}, a.ungrounded.map((u) => h("li", { class: "ungrounded" }, u)))))
  }
  answer.append(section(
    "References",
    a.references.length === 0 ? h("p", {}, "(none)") : h("ol", { class: "references" }, a.references.map((r) =>
      h("li", {},
        h("a", { href: paperHref(r.paper_id) }, r.title), " ",
        h("span", { class: "muted" }, `${r.authors.slice(0, 3).join(", ")}${r.authors.length > 3 ? " et al." : ""} (${yearLabel(r.year)}) [${r.paper_id}]`))
    ))
  ))
}
