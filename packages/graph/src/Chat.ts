/**
 * A research conversation over one store (`kg chat`): an explicit state
 * machine, after the research assistant's workflow.
 *
 * State: the `mode`, the numbered set of papers (`find`, `list`, the papers
 * an answer cites), the selected paper (`summary`, `claims`), and the last
 * answer (`research`, `ask`, `improve`).
 *
 * | command | valid in | then |
 * |---|---|---|
 * | `find <query>` | any | `found`, its papers numbered (`initial` when none) |
 * | `list` | any | `listed`, every stored paper numbered |
 * | `research <question>` / `ask <question>` | any | `answered`, the cited papers numbered |
 * | `improve <feedback>` | an answer exists (LLM provider) | `answered`, the revised answer |
 * | `summary <n\|id>` / `claims <n\|id>` | a number: a numbered set; an id: any | `viewing` that paper; the numbered set is kept when it holds the paper |
 * | `open <n\|id> [view]` | as `summary` | unchanged (prints the path; `view` opens it) |
 * | `save [file]` | an answer exists | unchanged (writes the answer as Markdown) |
 * | `help`, `quit` | any | unchanged / the end |
 *
 * A line the machine cannot take (an unknown command, a missing argument, a
 * number outside the list, `save` or `improve` with no answer) is refused with
 * a message and changes nothing. A command that fails while running (nothing
 * found, the LLM failed, a file cannot be written) returns the machine to the
 * initial state, with the message.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { DuckDb } from "./DuckDb.js"
import { authorList } from "./internal/research/format.js"
import * as OutputFile from "./OutputFile.js"
import * as Research from "./Research.js"
import { Retrieval } from "./Retrieval.js"

// ---------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category models
 */
export type Mode = "initial" | "found" | "listed" | "answered" | "viewing"

/**
 * A paper as the conversation shows it.
 *
 * @since 0.1.0
 * @category models
 */
export interface PaperRef {
  readonly paperId: string
  readonly title: string
  readonly authors: ReadonlyArray<string>
  readonly year: number | null
  readonly source: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ChatState {
  readonly mode: Mode
  /** The numbered set (1-based in commands). */
  readonly papers: ReadonlyArray<PaperRef>
  readonly selected: PaperRef | null
  readonly answer: { readonly kind: "research" | "ask"; readonly answer: Research.Answer } | null
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const initial: ChatState = { mode: "initial", papers: [], selected: null, answer: null }

// ---------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------

/**
 * A parsed line.
 *
 * @since 0.1.0
 * @category models
 */
export type Command = Data.TaggedEnum<{
  Find: { readonly query: string }
  List: {}
  Research: { readonly question: string }
  Ask: { readonly question: string }
  Improve: { readonly feedback: string }
  Summary: { readonly target: string }
  Claims: { readonly target: string }
  Open: { readonly target: string; readonly view: boolean }
  Save: { readonly file: string | null }
  Help: {}
  Quit: {}
  Nothing: {}
}>
/** @since 0.1.0 @category constructors */
export const Command = Data.taggedEnum<Command>()

/**
 * The commands, with their one-line help.
 *
 * @since 0.1.0
 * @category constants
 */
export const COMMANDS: ReadonlyArray<readonly [name: string, usage: string, help: string]> = [
  ["find", "find <query>", "papers of the store about a topic, numbered"],
  ["list", "list", "every paper of the store, numbered"],
  ["research", "research <question>", "a cited answer through the research funnel; its papers become the numbered set"],
  ["ask", "ask <question>", "a direct cited answer; its papers become the numbered set"],
  ["improve", "improve <feedback>", "re-write the last answer following your feedback (needs an LLM provider)"],
  ["summary", "summary <n|id>", "a paper's record (what was studied, how, what was found) and its main claims"],
  ["claims", "claims <n|id>", "every claim of a paper, with its status and page"],
  ["open", "open <n|id> [view]", "the paper's file; `view` opens it in the system viewer"],
  ["save", "save [file]", "the last answer with its references, as Markdown"],
  ["help", "help", "the commands you can use now"],
  ["quit", "quit", "leave (also exit, or end of input)"]
]

/**
 * Parse a line; a usage problem is a `Left` message.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (line: string): { readonly command: Command } | { readonly problem: string } => {
  const trimmed = line.trim()
  if (trimmed === "" || trimmed.startsWith("#")) return { command: Command.Nothing() }
  const space = trimmed.search(/\s/)
  const word = (space < 0 ? trimmed : trimmed.slice(0, space)).toLowerCase()
  const rest = space < 0 ? "" : trimmed.slice(space).trim()
  const needs = (what: string, make: (arg: string) => Command) =>
    rest === "" ? { problem: `${word} needs ${what}: ${COMMANDS.find((c) => c[0] === word)?.[1] ?? word}` } : { command: make(rest) }
  switch (word) {
    case "find":
    case "search":
      return needs("a query", (query) => Command.Find({ query }))
    case "list":
    case "papers":
      return { command: Command.List() }
    case "research":
      return needs("a question", (question) => Command.Research({ question }))
    case "ask":
      return needs("a question", (question) => Command.Ask({ question }))
    case "improve":
      return needs("feedback on the last answer", (feedback) => Command.Improve({ feedback }))
    case "summary":
      return needs("a paper number or id", (target) => Command.Summary({ target }))
    case "claims":
      return needs("a paper number or id", (target) => Command.Claims({ target }))
    case "open": {
      const view = /\s+(view|--view)$/i.test(rest)
      const target = rest.replace(/\s+(view|--view)$/i, "").trim()
      return target === "" ? { problem: "open needs a paper number or id: open <n|id> [view]" } : { command: Command.Open({ target, view }) }
    }
    case "save":
      return { command: Command.Save({ file: rest === "" ? null : rest }) }
    case "help":
    case "?":
      return { command: Command.Help() }
    case "quit":
    case "exit":
    case "q":
      return { command: Command.Quit() }
    default:
      return { problem: `unknown command "${word}"; type help for the commands` }
  }
}

// ---------------------------------------------------------------------------
// Steps
// ---------------------------------------------------------------------------

/**
 * What a step printed and the state it left.
 *
 * @since 0.1.0
 * @category models
 */
export interface Reply {
  readonly text: string
  readonly state: ChatState
  /** `refused`: the line was not taken (state unchanged); `failed`: the command failed (back to initial). */
  readonly outcome: "ok" | "refused" | "failed" | "quit"
}

/**
 * How the conversation talks to the outside world.
 *
 * @since 0.1.0
 * @category models
 */
export interface ChatOptions {
  /** The relevance floor of `find`, `research` and `ask`. */
  readonly minScore?: number | undefined
  /** Stage lines of `research` (stderr in the CLI). */
  readonly onProgress?: ((line: string) => Effect.Effect<void>) | undefined
  /** Opens a file or URL in the system viewer (`open <n> view`). */
  readonly view?: ((target: string) => Effect.Effect<void, Error>) | undefined
  /** Where `save` writes files without a folder (default: the working folder). */
  readonly saveDir?: string | undefined
}

const refused = (state: ChatState, text: string): Reply => ({ text, state, outcome: "refused" })
const failed = (text: string): Reply => ({ text, state: initial, outcome: "failed" })
const ok = (state: ChatState, text: string): Reply => ({ text, state, outcome: "ok" })

const describeError = (e: unknown): string =>
  typeof e === "object" && e !== null && "message" in e && typeof e.message === "string" ? e.message : String(e)

const paperLine = (i: number, p: PaperRef, extra = ""): string =>
  `${String(i + 1).padStart(3)}. [${p.paperId}] ${p.title.trim() || "(untitled)"} (${p.year ?? "n.d."}), ${authorList(p.authors)}${extra}`

const refs = (rows: ReadonlyArray<{ paper_id: string; title: string; authors: Array<string> | null; year: number | null; source_path: string }>) =>
  rows.map((r): PaperRef => ({
    paperId: r.paper_id,
    title: r.title,
    authors: r.authors ?? [],
    year: r.year,
    source: r.source_path
  }))

const papersByIds = (ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    if (ids.length === 0) return []
    const db = yield* DuckDb
    const rows = yield* db.query<{ paper_id: string; title: string; authors: Array<string> | null; year: number | null; source_path: string }>(
      "SELECT paper_id, title, authors, year, source_path FROM papers WHERE list_contains($1::VARCHAR[], paper_id)",
      [ids]
    )
    const byId = new Map(refs(rows).map((p) => [p.paperId, p]))
    return ids.flatMap((id) => byId.get(id) ?? [])
  })

/** A paper by number in the set, or by id in the store (exact, then case-insensitive, then without a version). */
const resolve = (state: ChatState, target: string) =>
  Effect.gen(function*() {
    if (/^\d+$/.test(target)) {
      const n = Number(target)
      if (state.papers.length === 0) {
        return { problem: `there is no numbered list yet: use find, list, research or ask first (or give a paper id)` }
      }
      const paper = state.papers[n - 1]
      if (paper === undefined) return { problem: `${n} is not in the list (1 to ${state.papers.length})` }
      return { paper }
    }
    const db = yield* DuckDb
    const rows = yield* db.query<{ paper_id: string; title: string; authors: Array<string> | null; year: number | null; source_path: string }>(
      `SELECT paper_id, title, authors, year, source_path FROM papers
       WHERE paper_id = $1 OR lower(paper_id) = lower($1) OR lower(regexp_replace(paper_id, 'v\\d+$', '')) = lower($1)
          OR lower(paper_id) = lower('arXiv:' || $1)
       ORDER BY paper_id = $1 DESC, paper_id LIMIT 1`,
      [target]
    )
    const found = refs(rows)[0]
    return found === undefined ? { problem: `no paper "${target}" in the store (list shows the ids)` } : { paper: found }
  })

/** After viewing `paper`: keep the numbered set when it holds the paper (the assistant's rule), else clear it. */
const viewing = (state: ChatState, paper: PaperRef): ChatState => ({
  ...state,
  mode: "viewing",
  selected: paper,
  papers: state.papers.some((p) => p.paperId === paper.paperId) ? state.papers : []
})

const statusRank = (s: string) => (s === "established" ? 0 : s === "preliminary" ? 1 : 2)

const claimsOf = (paperId: string) =>
  Effect.gen(function*() {
    const db = yield* DuckDb
    const rows = yield* db.query<{ claim_id: string; text: string; status: string; confidence: number; page: number | null; quote: string; sources: number }>(
      `SELECT c.claim_id, c.text, c.status, c.confidence, s.page, s.quote,
              (SELECT count(DISTINCT paper_id)::INTEGER FROM claim_sources x WHERE x.claim_id = c.claim_id) AS sources
       FROM claims c JOIN claim_sources s USING (claim_id)
       WHERE s.paper_id = $1
       QUALIFY row_number() OVER (PARTITION BY c.claim_id ORDER BY s.page NULLS LAST, s.chunk_id) = 1`,
      [paperId]
    )
    return [...rows].sort((a, b) =>
      statusRank(a.status) - statusRank(b.status) || b.sources - a.sources || b.confidence - a.confidence ||
      a.claim_id.localeCompare(b.claim_id)
    )
  })

const claimLine = (c: { text: string; status: string; page: number | null; sources: number }, paperId: string): string =>
  `  - (${c.status}${c.sources > 1 ? `, ${c.sources} papers` : ""}) ${c.text.trim()} [${paperId}${c.page !== null ? `, page ${c.page}` : ""}]`

const answerText = (kind: "research" | "ask", answer: Research.Answer, papers: ReadonlyArray<PaperRef>): string =>
  [
    Research.toText({ ...answer, references: [] }),
    "",
    papers.length > 0 ? "Papers cited (use summary <n>, claims <n>, open <n>):" : "No paper is cited.",
    ...papers.map((p, i) => paperLine(i, p)),
    "",
    `(${kind === "research" ? "research" : "ask"} answer: save [file] writes it as Markdown; improve <feedback> revises it)`
  ].join("\n")

const slug = (text: string): string =>
  text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "answer"

const freeName = (dir: string, base: string): string => {
  for (let i = 1; ; i++) {
    const candidate = path.join(dir, i === 1 ? `${base}.md` : `${base}-${i}.md`)
    if (!fs.existsSync(candidate)) return candidate
  }
}

/**
 * The help text for `state`: the commands that can run now, then the rest.
 *
 * @since 0.1.0
 * @category help
 */
export const help = (state: ChatState): string => {
  const now = COMMANDS.filter(([name]) =>
    (name !== "improve" && name !== "save") || state.answer !== null
  )
  const later = COMMANDS.filter((c) => !now.includes(c))
  const width = Math.max(...COMMANDS.map((c) => c[1].length))
  return [
    `State: ${state.mode}${state.papers.length > 0 ? `, ${state.papers.length} numbered paper(s)` : ""}` +
    `${state.selected !== null ? `, viewing ${state.selected.paperId}` : ""}${state.answer !== null ? ", an answer to save" : ""}.`,
    "Commands:",
    ...now.map(([, usage, text]) => `  ${usage.padEnd(width)}  ${text}`),
    ...(later.length > 0 ? ["After an answer (research or ask):", ...later.map(([, usage, text]) => `  ${usage.padEnd(width)}  ${text}`)] : [])
  ].join("\n")
}

/**
 * One step of the machine: parse `line`, check it against the state, run it.
 *
 * @since 0.1.0
 * @category steps
 */
export const step = (state: ChatState, line: string, options: ChatOptions = {}) =>
  Effect.gen(function*() {
    const parsed = parse(line)
    if ("problem" in parsed) return refused(state, parsed.problem)
    const command = parsed.command
    const research = { ...(options.minScore !== undefined ? { minScore: options.minScore } : {}), ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}) }
    const run = Effect.gen(function*() {
      switch (command._tag) {
        case "Nothing":
          return refused(state, "")
        case "Quit":
          return { text: "bye", state, outcome: "quit" } as Reply
        case "Help":
          return ok(state, help(state))
        case "Find": {
          const retrieval = yield* Retrieval
          const info = yield* retrieval.refresh
          if (info.chunks === 0) return failed("the store has no papers yet: add some with kg extract or kg fetch arxiv")
          const target = info.records + info.claims > 0 ? "summaries" : "chunks"
          const result = yield* retrieval.search(target, command.query, { k: 30, minScore: options.minScore ?? Research.DEFAULT_MIN_SCORE })
          const best = new Map<string, number>()
          for (const h of result.hits) for (const p of h.paperIds) best.set(p, Math.max(best.get(p) ?? 0, h.score))
          const ranked = Array.from(best.entries()).sort((a, b) => b[1] - a[1]).slice(0, 10)
          const papers = yield* papersByIds(ranked.map(([id]) => id))
          if (papers.length === 0) return failed(`no papers found about "${command.query}"; try other words`)
          const scores = new Map(ranked)
          return ok(
            { ...state, mode: "found", papers, selected: null },
            [`Papers about "${command.query}":`, ...papers.map((p, i) => paperLine(i, p, `  (score ${(scores.get(p.paperId) ?? 0).toFixed(2)})`))].join("\n")
          )
        }
        case "List": {
          const db = yield* DuckDb
          const rows = yield* db.query<{ paper_id: string; title: string; authors: Array<string> | null; year: number | null; source_path: string }>(
            "SELECT paper_id, title, authors, year, source_path FROM papers WHERE NOT retracted ORDER BY year NULLS LAST, paper_id"
          )
          const papers = refs(rows)
          if (papers.length === 0) return failed("the store has no papers yet: add some with kg extract or kg fetch arxiv")
          return ok({ ...state, mode: "listed", papers, selected: null }, [`${papers.length} paper(s):`, ...papers.map((p, i) => paperLine(i, p))].join("\n"))
        }
        case "Research":
        case "Ask": {
          const kind = command._tag === "Research" ? "research" as const : "ask" as const
          const answer = kind === "research"
            ? yield* Research.research(command.question, research)
            : yield* Research.ask(command.question, research)
          const papers = yield* papersByIds(answer.references.map((r) => r.paper_id))
          return ok({ mode: "answered", papers, selected: null, answer: { kind, answer } }, answerText(kind, answer, papers))
        }
        case "Improve": {
          if (state.answer === null) return refused(state, "there is no answer to improve: research or ask first")
          const answer = yield* Research.improve(state.answer.answer, command.feedback, research).pipe(
            Effect.catchTag("ImproveNeedsLlmError", (e) => Effect.succeed(e))
          )
          if (answer instanceof Research.ImproveNeedsLlmError) return refused(state, answer.message)
          const papers = yield* papersByIds(answer.references.map((r) => r.paper_id))
          const kind = state.answer.kind
          return ok({ mode: "answered", papers, selected: null, answer: { kind, answer } }, answerText(kind, answer, papers))
        }
        case "Summary":
        case "Claims":
        case "Open": {
          const found = yield* resolve(state, command.target)
          if ("problem" in found) return refused(state, found.problem)
          const paper = found.paper
          if (command._tag === "Open") {
            const exists = /^https?:\/\//.test(paper.source) || fs.existsSync(paper.source)
            const missing = path.isAbsolute(paper.source)
              ? " (the file is no longer there)"
              : ` (not found from ${process.cwd()}: the path is relative to where the paper was extracted)`
            const where = `[${paper.paperId}] ${paper.source}${exists ? "" : missing}`
            if (!command.view) return ok(state, where)
            if (!exists) return refused(state, where)
            if (options.view === undefined) return refused(state, `${where}\n(no system viewer in this session)`)
            yield* options.view(paper.source)
            return ok(state, `${where}\n(opened in the system viewer)`)
          }
          const claims = yield* claimsOf(paper.paperId)
          const head = `[${paper.paperId}] ${paper.title.trim()} (${paper.year ?? "n.d."}), ${authorList(paper.authors)}`
          if (command._tag === "Claims") {
            return ok(
              viewing(state, paper),
              [head, claims.length === 0 ? "No claims stored for this paper." : `${claims.length} claim(s):`, ...claims.map((c) => `${claimLine(c, paper.paperId)}\n      "${c.quote.replace(/\s+/g, " ").trim().slice(0, 300)}"`)].join("\n")
            )
          }
          const db = yield* DuckDb
          const [record] = yield* db.query<{ studied: string; method: string; findings: string; domain_tags: Array<string> | null; provider: string; model: string }>(
            "SELECT studied, method, findings, domain_tags, provider, model FROM paper_records WHERE paper_id = $1",
            [paper.paperId]
          )
          const lines = [head]
          if (record === undefined) lines.push("No record (L2) stored for this paper.")
          else {
            lines.push(
              `Studied: ${record.studied.trim()}`,
              `Method: ${record.method.trim()}`,
              `Findings: ${record.findings.trim()}`,
              ...((record.domain_tags ?? []).length > 0 ? [`Domains: ${(record.domain_tags ?? []).join(", ")}`] : []),
              `(record by ${record.provider}/${record.model})`
            )
          }
          lines.push(claims.length === 0 ? "No claims stored." : `Main claims (${Math.min(5, claims.length)} of ${claims.length}; claims <n> lists all):`)
          for (const c of claims.slice(0, 5)) lines.push(claimLine(c, paper.paperId))
          return ok(viewing(state, paper), lines.join("\n"))
        }
        case "Save": {
          if (state.answer === null) return refused(state, "nothing to save yet: research or ask first, then save [file]")
          const answer = state.answer.answer
          const dir = options.saveDir ?? process.cwd()
          const file = command.file !== null
            ? path.resolve(dir, command.file.endsWith(".md") || path.extname(command.file) !== "" ? command.file : `${command.file}.md`)
            : freeName(dir, `answer-${slug(answer.question)}`)
          const store = yield* DuckDb
          // Never over the database (the open store, any DuckDB file, a WAL): refused with the reason.
          // A refused path keeps the answer, so that it can be saved elsewhere.
          const written = yield* Effect.either(
            OutputFile.write(file, Research.toMarkdown(answer), { stores: [store.path], createFolder: true })
          )
          if (written._tag === "Left" && written.left._tag === "OutputFileError") return refused(state, written.left.message)
          if (written._tag === "Left") return yield* written.left
          return ok(state, `saved the answer to "${answer.question.trim()}" with ${answer.references.length} reference(s) to ${file}`)
        }
      }
    })
    return yield* run.pipe(Effect.catchAll((e) => Effect.succeed(failed(describeError(e)))))
  })
