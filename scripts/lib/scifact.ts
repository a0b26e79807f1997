/**
 * The SciFact files of `shared/data/claims` and the one split used by every
 * claim-layer script: a document (abstract) and every claim citing it fall on
 * the same side, decided by a hash of the document id, so the held-out half
 * shares no abstract with the development half. The held-out half is never
 * used to choose features, weights or thresholds.
 */
import { readFileSync } from "node:fs"
import { halfOf, sharedDataDir, type Split } from "./shared.js"

/** `shared/data/claims/` beside the repository (a worktree may sit one level deeper), or `$KG_SHARED_DATA/claims/`. */
export const dataDir: string = sharedDataDir("claims")

export type { Split }

/** The side of a document. */
export const splitOfDoc = (docId: string | number): Split => halfOf(`scifact-doc-${docId}`)

/** The side of a claim: the side of the smallest document it cites. */
export const splitOfClaim = (citedDocIds: ReadonlyArray<string | number>): Split =>
  splitOfDoc([...citedDocIds].map(String).sort()[0] ?? "none")

export interface SciFactClaim {
  readonly id: number
  readonly claim: string
  readonly evidence: Readonly<Record<string, ReadonlyArray<{ readonly sentences: ReadonlyArray<number>; readonly label: "SUPPORT" | "CONTRADICT" }>>>
  readonly cited_doc_ids: ReadonlyArray<number>
}

export interface SciFactDoc {
  readonly doc_id: number
  readonly title: string
  readonly abstract: ReadonlyArray<string>
}

export interface SciFactPair {
  readonly id: string
  readonly premise: string
  readonly hypothesis: string
  readonly label: "support" | "contradict"
  readonly doc_id: string
}

const jsonl = <A>(file: string): Array<A> =>
  readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as A)

export const readClaims = (file = `${dataDir}scifact_train_claims.jsonl`): Array<SciFactClaim> => jsonl(file)
export const readCorpus = (file = `${dataDir}scifact_train_corpus.jsonl`): Array<SciFactDoc> => jsonl(file)
export const readPairs = (file = `${dataDir}scifact_train_pairs.jsonl`): Array<SciFactPair> => jsonl(file)
