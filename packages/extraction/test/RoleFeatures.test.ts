/**
 * The role classifier's inputs stay what the shipped weights were trained on: `sentenceInput` (dense features and
 * n-grams) of real sentences, with and without positions, against hashes written before the features were computed
 * over one reading of each sentence (wink8). Regenerate only when the features are meant to change (then the
 * weights must be retrained): `KG_WRITE_ROLE_FEATURES=1 pnpm vitest run packages/extraction/test/RoleFeatures.test.ts`.
 */
import { describe, expect, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"
import { dense, ngrams, normalise, tokens } from "../src/internal/roles/features.js"
import { sentenceInput, sentenceProbabilities, shippedModel } from "../src/internal/roles/model.js"

const root = new URL("../../../testdata/", import.meta.url)
const fixture = fileURLToPath(new URL("./fixtures/roles/sentence-inputs.json", import.meta.url))

/** Real sentences: CSAbstruct's 40 abstracts (with their positions) and the sentences of two full papers. */
const blocks = (): Array<ReadonlyArray<string>> => {
  const abstracts = fs.readFileSync(new URL("csabstruct/dev_first40.jsonl", root), "utf8").split("\n").filter((l) => l !== "")
    .map((l) => (JSON.parse(l) as { sentences: Array<string> }).sentences)
  const papers = ["2212.11739.md", "2212.11764.md"].map((f) =>
    fs.readFileSync(new URL(`papers/md/${f}`, root), "utf8").split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim() !== "")
  )
  return [...abstracts, ...papers]
}

const hash = (x: unknown): string => createHash("sha256").update(JSON.stringify(x)).digest("hex").slice(0, 12)

const vocabulary = new Map(shippedModel.vocabulary.map((g, i) => [g, i] as const))

const inputs = (): Array<string> =>
  blocks().flatMap((sentences) =>
    sentences.flatMap((s, i) => [
      hash(sentenceInput(vocabulary, s, undefined)),
      hash(sentenceInput(vocabulary, s, { index: i, count: sentences.length }))
    ])
  )

describe("role classifier features", () => {
  it("are the same as when the shipped weights were trained (hashes of real sentences' inputs)", () => {
    const now = inputs()
    if (process.env.KG_WRITE_ROLE_FEATURES === "1") fs.writeFileSync(fixture, JSON.stringify(now) + "\n")
    const before = JSON.parse(fs.readFileSync(fixture, "utf8")) as Array<string>
    expect(now.length).toBeGreaterThan(1000)
    expect(now.length).toBe(before.length)
    const differ = now.flatMap((h, i) => (h === before[i] ? [] : [i]))
    expect(differ).toEqual([])
  })

  it("the sparse input is the dense features then the known n-grams of the normalised sentence", () => {
    for (const s of blocks()[0]!) {
      const d = dense(s, { index: 0, count: 3 })
      const x = sentenceInput(vocabulary, s, { index: 0, count: 3 })
      const grams = ngrams(tokens(normalise(s))).filter((g) => vocabulary.has(g)).map((g) => d.length + vocabulary.get(g)!)
      expect(x.index).toEqual([...d.flatMap((v, i) => (v !== 0 ? [i] : [])), ...grams])
      expect(x.value).toEqual([...d.filter((v) => v !== 0), ...grams.map(() => 1)])
    }
  })

  it("a sentence read without positions gets the same probabilities again (remembered) as a fresh copy", () => {
    const sentences = blocks()[1]!
    const first = sentenceProbabilities(shippedModel, sentences, false)
    first[0]![0] = -1
    expect(sentenceProbabilities(shippedModel, sentences, false)[0]![0]).not.toBe(-1)
  })
})
