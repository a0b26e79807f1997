/**
 * Ask: a question, the research stages as they run, the answer sentence by sentence with each citation a link to
 * its page (the evidence panel), cited claims with status badges and reasons, ungrounded sentences marked.
 */
import { type Answer, type AnswerEvent, type CitedClaim, stream } from "../api.js"
import { clear, h } from "../dom.js"
import { openEvidence } from "../evidence.js"
import { badge, claimHref, errorBox, pageLabel, paperHref, section } from "../widgets.js"

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
  const submit = h("button", { type: "submit", class: "primary" }, "Ask")
  const stop = h("button", { type: "button", hidden: true }, "Stop")
  const stages = h("ol", { class: "stages", "aria-label": "Stages", "aria-live": "polite" })
  const answer = h("div", { class: "answer", "aria-live": "polite" })
  let controller: AbortController | null = null

  const form = h("form", { class: "card ask-form", role: "search" },
    h("label", { for: "question" }, "Your research question"),
    question,
    h("div", { class: "row" }, h("label", { for: "mode", class: "inline" }, "Mode"), mode, submit, stop))

  const run = async () => {
    const q = question.value.trim()
    if (q === "") {
      question.focus()
      return
    }
    lastQuestion = q
    history.replaceState(null, "", `#/ask?q=${encodeURIComponent(q)}${mode.value === "ask" ? "&mode=ask" : ""}`)
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
        { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question: q }), signal: controller.signal },
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

const renderAnswer = (answer: HTMLElement, sentences: HTMLElement, a: Answer, evidence: HTMLElement) => {
  const claims = new Map(a.claims.map((c) => [c.claimId, c] as const))
  for (const s of a.sentences) sentences.append(sentenceView(s, evidence, claims))
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
        h("span", { class: "muted" }, `${r.authors.slice(0, 3).join(", ")}${r.authors.length > 3 ? " et al." : ""} (${r.year ?? "n.d."}) [${r.paper_id}]`))
    ))
  ))
}
