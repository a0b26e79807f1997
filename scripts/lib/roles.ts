/**
 * Labelled abstracts for the rhetorical-role classifier and the claim
 * evaluation: CSAbstruct (every sentence labelled) and the SciFact train
 * abstracts (a rationale sentence of some claim's evidence is a finding).
 */
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { inlineHeading } from "../../packages/extraction/src/internal/roles/features.js"
import { readClaims, readCorpus, type Split, splitOfDoc } from "./scifact.js"

/** `shared/data/csabstruct/` beside the repository (a worktree may sit one level deeper), or `$KG_SHARED_DATA/csabstruct/`. */
export const csabstructDir: string = [
  process.env["KG_SHARED_DATA"] === undefined ? undefined : `${process.env["KG_SHARED_DATA"]}/csabstruct/`,
  fileURLToPath(new URL("../../../shared/data/csabstruct/", import.meta.url)),
  fileURLToPath(new URL("../../../../shared/data/csabstruct/", import.meta.url))
].find((d): d is string => d !== undefined && existsSync(d)) ??
  fileURLToPath(new URL("../../../shared/data/csabstruct/", import.meta.url))

/** The cross-validation folds of the role classifier (`train-roles.ts`; `eval-claims.ts --fold`). */
export { FOLDS, fnv1a, foldOf } from "../../packages/extraction/src/internal/roles/train.js"

/** An abstract with a label per sentence. */
export interface LabelledAbstract {
  readonly source: "csabstruct" | "scifact"
  readonly id: string
  readonly title?: string | undefined
  readonly sentences: ReadonlyArray<string>
  /** CSAbstruct: background / objective / method / result / other; SciFact: rationale / unlabelled. */
  readonly labels: ReadonlyArray<string>
  /** CSAbstruct: the annotators' agreement on each label (0..1). */
  readonly confs?: ReadonlyArray<number> | undefined
  /** Whether each sentence is a finding (a CSAbstruct `result`, a SciFact rationale). */
  readonly finding: ReadonlyArray<boolean>
  /** Whether the labels can be scored (a SciFact abstract with no rationale has none). */
  readonly labelled: boolean
  /**
   * SciFact: in a structured abstract, whether each sentence sits in a part whose heading names findings (RESULTS,
   * CONCLUSIONS, FINDINGS, ...: true), names something else (BACKGROUND, METHODS, OBJECTIVE, ...: false), or
   * neither (no heading yet, a mixed "METHODS AND RESULTS": null). Undefined for an abstract with no inline heading.
   */
  readonly part?: ReadonlyArray<boolean | null> | undefined
}

const jsonl = <A>(file: string): Array<A> =>
  readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as A)

/** CSAbstruct abstracts of one file (`train.jsonl` or `dev.jsonl`). */
export const readCsabstruct = (file: string): Array<LabelledAbstract> =>
  jsonl<{ abstract_id: number; sentences: Array<string>; labels: Array<string>; confs?: Array<number> }>(file).map((a, i) => ({
    source: "csabstruct" as const,
    id: `${a.abstract_id}-${i}`,
    sentences: a.sentences.map((s) => s.trim()),
    labels: a.labels,
    confs: a.confs,
    finding: a.labels.map((l) => l === "result"),
    labelled: true
  }))

/** The SciFact train abstracts of one half of the split, their rationale sentences labelled as findings. */
export const scifactAbstracts = (split: Split | "all"): Array<LabelledAbstract> => {
  const rationale = new Map<number, Set<number>>()
  for (const c of readClaims()) {
    for (const [doc, sets] of Object.entries(c.evidence)) {
      const r = rationale.get(Number(doc)) ?? new Set<number>()
      for (const s of sets) for (const i of s.sentences) r.add(i)
      rationale.set(Number(doc), r)
    }
  }
  return readCorpus()
    .filter((d) => split === "all" || splitOfDoc(d.doc_id) === split)
    .map((d) => {
      const r = rationale.get(d.doc_id) ?? new Set<number>()
      let current: boolean | null = null
      let structured = false
      const part = d.abstract.map((sentence) => {
        const h = inlineHeading(sentence.trim())
        if (h !== undefined) {
          structured = true
          current = h.kind === "result" ? true : h.kind === "mixed" || h.kind === "other" ? null : false
        }
        return current
      })
      return {
        source: "scifact" as const,
        ...(structured ? { part } : {}),
        id: String(d.doc_id),
        title: d.title,
        sentences: d.abstract.map((s) => s.trim()),
        labels: d.abstract.map((_, i) => (r.has(i) ? "rationale" : "unlabelled")),
        finding: d.abstract.map((_, i) => r.has(i)),
        labelled: r.size > 0
      }
    })
}

/** The labelled abstracts of an evaluation set by name (`--set` of the claim scripts). */
export const readLabelledSet = (set: string): Array<LabelledAbstract> => {
  switch (set) {
    case "csabstruct-dev":
      return readCsabstruct(`${csabstructDir}dev.jsonl`)
    case "csabstruct-train":
      return readCsabstruct(`${csabstructDir}train.jsonl`)
    case "scifact-heldout":
      return scifactAbstracts("heldout")
    case "scifact-dev":
      return scifactAbstracts("dev")
    default:
      throw new Error(`unknown --set ${set}: use csabstruct-dev, csabstruct-train, scifact-heldout or scifact-dev`)
  }
}
