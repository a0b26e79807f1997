/**
 * Adding papers (uploads, or files and folders on the server's disk) with each job's live progress, and the L4
 * patterns.
 */
import { type ArxivHit, del, getJson, type Job, type JobEvent, type Pattern, postJson, stream, upload } from "../api.js"
import { clear, h } from "../dom.js"
import { claimHref, errorBox, loading, section } from "../widgets.js"
import { yearLabel } from "../lineage.js"

const watched = new Set<string>()

const jobCard = (job: Job): HTMLElement => {
  const bar = h("progress", { max: 1, value: 0, "aria-label": `progress of ${job.jobId}` })
  const state = h("span", { class: `job-status job-${job.status}`, "data-testid": "job-status" }, job.status)
  const current = h("span", { class: "muted" }, "")
  const log = h("ol", { class: "job-log", "aria-live": "polite" })
  const cancel = h("button", { type: "button", onclick: async () => {
    try {
      await del<Job>(`/jobs/${encodeURIComponent(job.jobId)}`)
    } catch (e) {
      card.append(errorBox(e))
    }
  } }, "Cancel")
  const card = h("li", { class: "card job", id: `job-${job.jobId}` },
    h("div", { class: "row wrap" },
      h("strong", {}, job.kind === "l4" ? "L4 run (patterns)" : job.kind === "arxiv" ? "arXiv fetch" : job.paths.map((p) => p.split("/").pop()).join(", ")),
      state, current, cancel),
    bar, log)
  const apply = (j: Job) => {
    state.textContent = j.status
    state.className = `job-status job-${j.status}`
    const done = j.status === "completed" || j.status === "failed" || j.status === "cancelled"
    cancel.hidden = done
    if (done) {
      bar.value = 1
      window.dispatchEvent(new Event("kg:store-changed"))
    }
    if (j.error !== null) card.append(h("p", { class: "error" }, j.error))
  }
  apply(job)
  if (!watched.has(job.jobId)) {
    watched.add(job.jobId)
    void stream<JobEvent>(`/jobs/${encodeURIComponent(job.jobId)}/events`, {}, (e) => {
      if ((e.kind === "chunk" || e.kind === "stated") && e.done !== undefined && e.total !== undefined && e.total > 0) {
        bar.value = e.done / e.total
        current.textContent = e.kind === "chunk" ? `${e.paperId ?? ""}: chunk ${e.done} of ${e.total}` : e.message
        return
      }
      if (e.job !== undefined) apply(e.job)
      if (e.kind === "paper-written") current.textContent = ""
      log.append(h("li", {}, e.message))
      while (log.children.length > 12) log.firstElementChild?.remove()
    }).catch((err: unknown) => card.append(errorBox(err))).finally(() => watched.delete(job.jobId))
  }
  return card
}

export const addView = async (main: HTMLElement): Promise<void> => {
  const files = h("input", { id: "files", type: "file", multiple: true, accept: ".pdf,.md,.markdown,.txt" })
  const uploadForm = h("form", { class: "card add-form" },
    h("h2", {}, "Upload papers"),
    h("label", { for: "files" }, "PDF, Markdown or text files"), files,
    h("button", { type: "submit", class: "primary" }, "Upload and extract"))
  const pathInput = h("input", { id: "server-path", type: "text", placeholder: "/data/papers or /data/papers/paper.pdf" })
  const pathForm = h("form", { class: "card add-form" },
    h("h2", {}, "From the server's disk"),
    h("label", { for: "server-path" }, "A file or folder on the machine running kg serve"), pathInput,
    h("button", { type: "submit", class: "primary" }, "Extract"))
  const jobs = h("ol", { class: "jobs", "aria-label": "Extraction jobs" })
  const problems = h("div", {})
  const show = (job: Job) => jobs.prepend(jobCard(job))
  main.append(h("h1", {}, "Add papers"), h("div", { class: "two" }, uploadForm, pathForm), arxivForm(show, problems), problems,
    h("h2", {}, "Jobs"), jobs)
  uploadForm.addEventListener("submit", async (ev) => {
    ev.preventDefault()
    clear(problems)
    for (const file of Array.from(files.files ?? [])) {
      try {
        show(await upload(file))
      } catch (e) {
        problems.append(errorBox(e))
      }
    }
    files.value = ""
  })
  pathForm.addEventListener("submit", async (ev) => {
    ev.preventDefault()
    clear(problems)
    const path = pathInput.value.trim()
    if (path === "") return
    try {
      show(await postJson<Job>("/jobs", { paths: [path] }))
    } catch (e) {
      problems.append(errorBox(e))
    }
  })
  try {
    const existing = await getJson<ReadonlyArray<Job>>("/jobs")
    for (const job of [...existing].reverse()) show(job)
    if (existing.length === 0) jobs.append(h("li", { class: "muted" }, "No jobs yet."))
  } catch (e) {
    problems.append(errorBox(e))
  }
}

/** Search arXiv, pick papers, and fetch and extract them as a job (as `kg fetch arxiv`). */
const arxivForm = (onJob: (job: Job) => void, problems: HTMLElement): HTMLElement => {
  const query = h("input", { id: "arxiv-query", type: "search", placeholder: "cat:cs.CL AND ti:verification, or words", maxlength: 500 })
  const max = h("input", { id: "arxiv-max", type: "number", min: 1, max: 50, value: 10, class: "narrow" })
  const metadataOnly = h("input", { id: "arxiv-metadata", type: "checkbox" })
  const hits = h("ol", { class: "arxiv-hits", "data-testid": "arxiv-hits" })
  const fetchButton = h("button", { type: "button", class: "primary", disabled: true }, "Fetch and extract the chosen papers")
  const chosen = new Set<string>()
  const refresh = () => {
    fetchButton.disabled = chosen.size === 0
    fetchButton.textContent = chosen.size === 0 ? "Fetch and extract the chosen papers" : `Fetch and extract ${chosen.size} paper${chosen.size === 1 ? "" : "s"}`
  }
  const form = h("form", { class: "card add-form", "aria-label": "From arXiv" },
    h("h2", {}, "From arXiv"),
    h("label", { for: "arxiv-query" }, "Search arXiv (fields like ti:, au:, abs:, cat:, or plain words)"), query,
    h("div", { class: "row wrap" },
      h("label", { for: "arxiv-max" }, "at most "), max,
      h("label", { for: "arxiv-metadata" }, metadataOnly, " titles and abstracts only (no PDF)"),
      h("button", { type: "submit" }, "Search")),
    hits, fetchButton)
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault()
    clear(problems)
    clear(hits)
    chosen.clear()
    refresh()
    const q = query.value.trim()
    if (q === "") return
    const status = loading("arXiv results")
    hits.append(status)
    try {
      const found = await getJson<ReadonlyArray<ArxivHit>>("/arxiv/search", { query: q, max: Number(max.value) || 10 })
      status.remove()
      if (found.length === 0) hits.append(h("li", { class: "muted" }, "arXiv found nothing for this search."))
      for (const hit of found) {
        const box = h("input", { type: "checkbox", id: `arxiv-${hit.arxivId}`, value: hit.arxivId, disabled: hit.stored })
        box.addEventListener("change", () => {
          if (box.checked) chosen.add(hit.arxivId)
          else chosen.delete(hit.arxivId)
          refresh()
        })
        hits.append(h("li", {},
          h("label", { for: `arxiv-${hit.arxivId}`, class: "check" }, box,
            h("strong", {}, hit.title), " ",
            h("span", { class: "muted" }, `${hit.authors.slice(0, 3).join(", ")}${hit.authors.length > 3 ? " et al." : ""} · ${yearLabel(hit.year)} · ${hit.arxivId}`),
            hit.stored ? h("span", { class: "badge badge-established" }, "stored") : "")))
      }
    } catch (e) {
      status.replaceWith(errorBox(e))
    }
  })
  fetchButton.addEventListener("click", async () => {
    clear(problems)
    try {
      onJob(await postJson<Job>("/jobs/arxiv", { ids: [...chosen], ...(metadataOnly.checked ? { metadataOnly: true } : {}) }))
      chosen.clear()
      for (const box of Array.from(hits.querySelectorAll("input"))) box.checked = false
      refresh()
    } catch (e) {
      problems.append(errorBox(e))
    }
  })
  return form
}

const runForm = (onJob: (job: Job) => void, problems: HTMLElement): HTMLElement => {
  const recluster = h("input", { id: "l4-recluster", type: "checkbox" })
  const minClaims = h("input", { id: "l4-min-claims", type: "number", min: 2, max: 1000, value: 3, class: "narrow" })
  const form = h("form", { class: "card add-form", "aria-label": "Run the L4 job" },
    h("p", {}, "The L4 job clusters the stored claims and states the principle each cluster suggests (as ",
      h("code", {}, "kg l4"), "); later runs update the clusters with the claims added since. A pattern needs claims ",
      "from at least two papers that share a specific entity (a method, material, task or concept; not a metric)."),
    h("div", { class: "row wrap" },
      h("label", { for: "l4-min-claims" }, "fewest claims per pattern "), minClaims,
      h("label", { for: "l4-recluster" }, recluster, " cluster from scratch"),
      h("button", { type: "submit", class: "primary" }, "Run the L4 job")))
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault()
    clear(problems)
    const fewest = Number(minClaims.value)
    try {
      onJob(await postJson<Job>("/jobs/l4", {
        ...(recluster.checked ? { recluster: true } : {}),
        ...(Number.isInteger(fewest) && fewest !== 3 ? { minClusterSize: fewest } : {})
      }))
    } catch (e) {
      problems.append(errorBox(e))
    }
  })
  return form
}

/**
 * A disputed pattern's statement begins with its disagreement (as composed offline); the page shows that sentence
 * beside its badge, so the statement below it starts after it. A statement worded otherwise (an LLM's) is shown whole.
 */
const statementAfterDispute = (p: Pattern): string =>
  p.disagreement !== undefined && p.statement.startsWith(p.disagreement)
    ? p.statement.slice(p.disagreement.length).trimStart()
    : p.statement

export const patternsView = async (main: HTMLElement): Promise<void> => {
  const problems = h("div", {})
  const jobs = h("ol", { class: "jobs", "aria-label": "L4 jobs" })
  const list = h("div", {})
  const load = async () => {
    clear(list)
    const status = loading("patterns")
    list.append(status)
    try {
      const patterns = await getJson<ReadonlyArray<Pattern>>("/patterns")
      status.remove()
      if (patterns.length === 0) {
        list.append(h("p", { class: "card muted" }, "No patterns yet: run the L4 job above. It states a pattern only where claims " +
          "from at least two papers share a specific entity; papers on unrelated topics have none."))
        return
      }
      list.append(h("p", { class: "muted" }, `${patterns.length} patterns, most supported first.`))
      for (const p of patterns) {
        const title = p.keywords.slice(0, 3).join(" · ") || p.domainTags.slice(0, 3).join(" · ") || p.patternId
        list.append(section(p.disagreement === undefined ? title : `Disputed: ${title}`,
          ...(p.disagreement === undefined ? [] : [
            h("p", { class: "pattern-dispute", role: "note" },
              h("span", { class: "badge badge-contested" }, "papers disagree"), " ", p.disagreement)
          ]),
          h("p", { class: "muted" },
            `${p.support} claims from ${p.paperCount} papers` +
              (p.confidence === null ? "" : ` · confidence ${p.confidence}`) +
              ` · stated ${p.provider === null || p.provider === "offline" ? "offline" : `by ${p.provider}`}` +
              (p.domainTags.length > 0 ? ` · ${p.domainTags.join(", ")}` : "")),
          h("p", { class: "pattern-statement" }, statementAfterDispute(p)),
          h("h3", {}, "Representative claims"),
          h("ul", {}, p.representatives.map((c) =>
            h("li", {},
              h("span", { class: `badge badge-${c.status}` }, c.status), " ",
              h("a", { href: claimHref(c.claimId) }, c.text),
              h("span", { class: "muted" }, ` (${c.paperIds.join(", ")})`))))))
      }
    } catch (e) {
      status.replaceWith(errorBox(e))
    }
  }
  const show = (job: Job) => {
    jobs.prepend(jobCard(job))
    const reload = () => {
      window.removeEventListener("kg:store-changed", reload)
      if (list.isConnected) void load()
    }
    window.addEventListener("kg:store-changed", reload)
  }
  main.append(h("h1", {}, "Cross-paper patterns (L4)"), runForm(show, problems), problems, jobs, list)
  await load()
}
