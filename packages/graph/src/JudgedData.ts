/**
 * The flywheel's judged data: what the store says about pairs of claims and
 * about sentences, from the linker and from curators, as training data for
 * the offline judges (`kg train nli`; `kg train claims` reads the sentences).
 * `kg export --training-data FILE` writes them beside `FILE`:
 *
 * - `<FILE without .jsonl>.pairs.jsonl`: one claim pair per line with its edge
 *   kind (as the linker stored it) or a curator's verdict (confirmed,
 *   rejected, corrected), and the NLI label it implies (`contradict`,
 *   `support`, `unrelated`);
 * - `<FILE without .jsonl>.sentences.jsonl`: one sentence per line with its
 *   role as a curator marked it (`{"sentence", "role"}`: `result` for a
 *   confirmed finding; `background`, `objective`, `method` or `other` for
 *   one marked "not a finding").
 *
 * Formats, with examples: `docs/curation.md`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { DuckDb, type DuckDbError, type DuckDbService } from "./DuckDb.js"
import type { ClaimAnchor } from "./internal/curation/keys.js"
import * as OutputFile from "./OutputFile.js"

/**
 * Sentence roles (as in CSAbstruct and the role classifier).
 *
 * @since 0.1.0
 * @category models
 */
export const SentenceRole = Schema.Literal("background", "objective", "method", "result", "other")
/** @since 0.1.0 @category models */
export type SentenceRole = typeof SentenceRole.Type

/**
 * One judged claim pair.
 *
 * @since 0.1.0
 * @category models
 */
export const JudgedPair = Schema.Struct({
  /** The longer claim (as the linker judges a pair). */
  premise: Schema.String,
  hypothesis: Schema.String,
  /** What the pair is for an NLI judge: `contradict`, `support` (same finding, replicated), `unrelated` (neither). */
  label: Schema.Literal("contradict", "support", "unrelated"),
  /** The edge kind as stored now, or (rejected) the kind the curator rejected. */
  kind: Schema.Literal("same_as", "contradicts", "replicates", "weak_link"),
  /** `linker`: an edge nobody judged; `curator`: a curator's decision. */
  source: Schema.Literal("linker", "curator"),
  verdict: Schema.NullOr(Schema.Literal("confirmed", "rejected", "corrected")),
  curator: Schema.NullOr(Schema.String),
  curationId: Schema.NullOr(Schema.Number),
  /** The edge's score, when the linker wrote it. */
  score: Schema.NullOr(Schema.Number),
  /** The papers of the two claims. */
  papers: Schema.Array(Schema.String)
}).annotations({ identifier: "JudgedPair" })
/** @since 0.1.0 @category models */
export type JudgedPair = typeof JudgedPair.Type

/**
 * One judged sentence (the role classifier's extra-data format, `{"sentence", "role"}`, plus provenance).
 *
 * @since 0.1.0
 * @category models
 */
export const JudgedSentence = Schema.Struct({
  sentence: Schema.String,
  role: SentenceRole,
  paperId: Schema.String,
  curator: Schema.String,
  curationId: Schema.Number
}).annotations({ identifier: "JudgedSentence" })
/** @since 0.1.0 @category models */
export type JudgedSentence = typeof JudgedSentence.Type

const labelOf = (kind: string): JudgedPair["label"] =>
  kind === "contradicts" ? "contradict" : kind === "replicates" || kind === "same_as" ? "support" : "unrelated"

const ordered = (a: string, b: string): readonly [string, string] => (a.length >= b.length ? [a, b] : [b, a])

interface CurationRow {
  readonly curation_id: number
  readonly target_kind: string
  readonly action: string
  readonly payload: string
  readonly curator: string
}

const activeCurations = (db: DuckDbService, kind: string) =>
  Effect.gen(function*() {
    const has = yield* db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'curations'")
    if (has.length === 0) return [] as ReadonlyArray<CurationRow>
    return yield* db.query<CurationRow>(
      `SELECT curation_id, target_kind, action, payload::VARCHAR AS payload, curator FROM curations
       WHERE undone_at IS NULL AND target_kind = $1 ORDER BY curation_id`,
      [kind]
    )
  })

const papersOf = (a: ClaimAnchor, b: ClaimAnchor) => Array.from(new Set([...a.sources, ...b.sources].map((s) => s.paperId))).sort()

/**
 * The curators' verdicts on claim pairs (decisions in force), oldest first.
 *
 * @since 0.1.0
 * @category queries
 */
export const curatedPairs = (db: DuckDbService): Effect.Effect<ReadonlyArray<JudgedPair>, DuckDbError> =>
  Effect.map(activeCurations(db, "edge"), (rows) =>
    rows.map((r) => {
      const p = JSON.parse(r.payload) as { a: ClaimAnchor; b: ClaimAnchor; kind: JudgedPair["kind"]; newKind?: JudgedPair["kind"] }
      const [premise, hypothesis] = ordered(p.a.text, p.b.text)
      const kind = r.action === "correct" && p.newKind !== undefined ? p.newKind : p.kind
      return {
        premise,
        hypothesis,
        label: r.action === "reject" ? "unrelated" as const : labelOf(kind),
        kind,
        source: "curator" as const,
        verdict: r.action === "reject" ? "rejected" as const : r.action === "correct" ? "corrected" as const : "confirmed" as const,
        curator: r.curator,
        curationId: r.curation_id,
        score: null,
        papers: papersOf(p.a, p.b)
      }
    }))

/**
 * Every judged pair: the curators' verdicts, then the stored edges no curator decided on.
 *
 * @since 0.1.0
 * @category queries
 */
export const judgedPairs = Effect.fn("JudgedData.judgedPairs")(function*() {
  const db = yield* DuckDb
  const curated = yield* curatedPairs(db)
  const seen = new Set(curated.map((p) => `${p.premise}\u0000${p.hypothesis}`))
  const edges = yield* db.query<{ a: string; b: string; kind: JudgedPair["kind"]; score: number; papers: ReadonlyArray<string> | null }>(
    `SELECT ca.text AS a, cb.text AS b, e.kind, e.score,
            (SELECT list(DISTINCT s.paper_id ORDER BY s.paper_id) FROM claim_sources s WHERE s.claim_id IN (e.src_claim_id, e.dst_claim_id)) AS papers
     FROM claim_edges e JOIN claims ca ON ca.claim_id = e.src_claim_id JOIN claims cb ON cb.claim_id = e.dst_claim_id
     ORDER BY e.src_claim_id, e.dst_claim_id`
  )
  const linker: Array<JudgedPair> = []
  for (const e of edges) {
    const [premise, hypothesis] = ordered(e.a, e.b)
    if (seen.has(`${premise}\u0000${hypothesis}`)) continue
    linker.push({
      premise,
      hypothesis,
      label: labelOf(e.kind),
      kind: e.kind,
      source: "linker",
      verdict: null,
      curator: null,
      curationId: null,
      score: Math.round(e.score * 1000) / 1000,
      papers: e.papers ?? []
    })
  }
  return [...curated, ...linker] as ReadonlyArray<JudgedPair>
})

/**
 * The sentences curators judged: a confirmed finding is a `result`; one marked "not a finding" has the role the
 * curator gave (default `other`).
 *
 * @since 0.1.0
 * @category queries
 */
export const judgedSentences = Effect.fn("JudgedData.judgedSentences")(function*() {
  const db = yield* DuckDb
  const rows = yield* activeCurations(db, "claim")
  const out: Array<JudgedSentence> = []
  for (const r of rows) {
    const p = JSON.parse(r.payload) as { claim: ClaimAnchor; role?: string }
    const role: SentenceRole = r.action === "confirm"
      ? "result"
      : (["background", "objective", "method", "other"] as const).find((x) => x === p.role) ?? "other"
    const sentences = p.claim.sources.length === 0
      ? [{ paperId: "", sentence: p.claim.text }]
      : p.claim.sources.map((s) => ({ paperId: s.paperId, sentence: s.sentence ?? p.claim.text }))
    for (const s of sentences) out.push({ sentence: s.sentence, role, paperId: s.paperId, curator: r.curator, curationId: r.curation_id })
  }
  return out as ReadonlyArray<JudgedSentence>
})

/**
 * The two files written beside a training-data file.
 *
 * @since 0.1.0
 * @category export
 */
export const judgedPaths = (trainingFile: string): { readonly pairs: string; readonly sentences: string } => {
  const base = trainingFile.replace(/\.jsonl$/i, "")
  return { pairs: `${base}.pairs.jsonl`, sentences: `${base}.sentences.jsonl` }
}

/**
 * What {@link exportJudged} wrote.
 *
 * @since 0.1.0
 * @category models
 */
export interface JudgedExportSummary {
  readonly pairsPath: string
  readonly pairs: number
  readonly curatedPairs: number
  readonly byLabel: Readonly<Record<string, number>>
  readonly sentencesPath: string
  readonly sentences: number
}

const encodePair = Schema.encodeSync(JudgedPair)
const encodeSentence = Schema.encodeSync(JudgedSentence)
const jsonl = (lines: ReadonlyArray<unknown>) => lines.map((l) => JSON.stringify(l)).join("\n") + (lines.length > 0 ? "\n" : "")

/**
 * Write the judged pairs and sentences beside `trainingFile` (each replaced atomically).
 *
 * @since 0.1.0
 * @category export
 */
export const exportJudged = Effect.fn("JudgedData.exportJudged")(function*(trainingFile: string) {
  const db = yield* DuckDb
  const paths = judgedPaths(trainingFile)
  const pairs = yield* judgedPairs()
  const sentences = yield* judgedSentences()
  yield* OutputFile.write(paths.pairs, jsonl(pairs.map((p) => encodePair(p))), { stores: [db.path] })
  yield* OutputFile.write(paths.sentences, jsonl(sentences.map((s) => encodeSentence(s))), { stores: [db.path] })
  const byLabel: Record<string, number> = {}
  for (const p of pairs) byLabel[p.label] = (byLabel[p.label] ?? 0) + 1
  return {
    pairsPath: paths.pairs,
    pairs: pairs.length,
    curatedPairs: pairs.filter((p) => p.source === "curator").length,
    byLabel,
    sentencesPath: paths.sentences,
    sentences: sentences.length
  } satisfies JudgedExportSummary
})
