/**
 * `kg train claims` on a tiny labelled set (`testdata/roles-tiny`: 30 + 10
 * CSAbstruct dev abstracts and two extra sentences): it prints held-out
 * figures before and after, keeps a better model it would make worse, replaces
 * a worse one, names the file and line of a bad extra sentence, and
 * `kg extract` uses the weights at the user's path (an unusable file stops
 * the run with its name).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { repoRoot, removeDir, runKg, tempDir } from "./helpers.js"

const tiny = path.join(repoRoot, "testdata/roles-tiny")
const shippedWeights = path.join(repoRoot, "packages/extraction/src/internal/roles/weights.json")

/** The figures a run printed for "before" or "after". */
const figures = (stdout: string, which: "before" | "after") => {
  const m = new RegExp(`^${which}\\s+accuracy (\\d\\.\\d+), macro-F1 (\\d\\.\\d+)`, "m").exec(stdout)
  expect(m, stdout).not.toBeNull()
  return { accuracy: Number(m![1]), macroF1: Number(m![2]) }
}

describe("kg train claims", () => {
  let dir: string
  beforeAll(() => {
    dir = tempDir("kg-train-claims-")
  })
  afterAll(() => removeDir(dir))

  it("does not write weights that are worse on the held-out abstracts than the shipped ones", async () => {
    const out = path.join(dir, "kept.json")
    const r = await runKg(["train", "claims", "--data", tiny, "--extra", path.join(tiny, "extra.jsonl"), "--out", out], {
      env: { KG_ROLE_WEIGHTS: out }
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain("30 labelled abstracts + 2 extra sentences; held out: 10 abstracts")
    const before = figures(r.stdout, "before")
    const after = figures(r.stdout, "after")
    // the shipped model (trained on 1,939 abstracts) reads the held-out abstracts better than one trained on 30
    expect(before.accuracy).toBeGreaterThan(after.accuracy)
    expect(r.stdout).toMatch(/worse: weights not written/)
    expect(fs.existsSync(out)).toBe(false)
  }, 120_000)

  it("replaces worse weights with the retrained ones, which then hold the extra sentences", async () => {
    const out = path.join(dir, "replaced.json")
    // a broken classifier: every sentence is "other"
    const broken = JSON.parse(fs.readFileSync(shippedWeights, "utf8")) as { sequence: { bias: Array<number> } }
    broken.sequence.bias = [0, 0, 0, 0, 60]
    fs.writeFileSync(out, JSON.stringify(broken))
    const r = await runKg(["train", "claims", "--data", tiny, "--extra", path.join(tiny, "extra.jsonl"), "--out", out], {
      env: { KG_ROLE_WEIGHTS: out }
    })
    expect(r.code, r.stderr).toBe(0)
    const before = figures(r.stdout, "before")
    const after = figures(r.stdout, "after")
    expect(before.accuracy).toBeLessThan(0.2)
    expect(after.accuracy).toBeGreaterThan(before.accuracy)
    expect(r.stdout).toContain(`wrote ${out}`)
    const written = JSON.parse(fs.readFileSync(out, "utf8")) as {
      sequence: { bias: Array<number> }
      vocabulary: Array<string>
      trained: { extraSentences: number; abstracts: number }
    }
    expect(written.sequence.bias).not.toEqual([0, 0, 0, 0, 60])
    expect(written.trained.extraSentences).toBe(2)
    expect(written.trained.abstracts).toBe(30)
    // the extra sentences' words are features now ("minibatch" occurs in no tiny abstract)
    expect(written.vocabulary.length).toBeGreaterThan(0)
  }, 120_000)

  it("names the file and line of a bad extra sentence and writes nothing", async () => {
    const extra = path.join(dir, "bad.jsonl")
    fs.writeFileSync(extra, `{"sentence": "We train for 8 epochs.", "role": "method"}\n{"sentence": "Accuracy rises.", "role": "finding"}\n`)
    const out = path.join(dir, "bad-out.json")
    const r = await runKg(["train", "claims", "--data", tiny, "--extra", extra, "--out", out], { env: { KG_ROLE_WEIGHTS: out } })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain(`${extra}:2`)
    expect(r.stderr).toContain("is not one of background, objective, method, result, other")
    expect(fs.existsSync(out)).toBe(false)
  }, 60_000)

  it("kg extract uses the user's weights, and stops on an unusable file naming it", async () => {
    const paper = path.join(dir, "paper.md")
    fs.writeFileSync(
      paper,
      "# Gated Attention\n\n## Abstract\n\nNeural machine translation has become the dominant approach. " +
        "We propose gated attention for translation. We train on WMT14 English-German with a batch size of 64. " +
        "Our model improves over the Transformer by 1.5 BLEU on WMT14 English-German and reaches 29.3 BLEU. " +
        "Gated attention also halves the training time of the baseline.\n"
    )
    const claimsWith = async (weights: string, db: string) => {
      const r = await runKg(["extract", paper, "--db", path.join(dir, db), "--json"], { env: { KG_ROLE_WEIGHTS: weights } })
      return r
    }
    const shipped = await claimsWith(path.join(dir, "absent.json"), "shipped.duckdb")
    expect(shipped.code, shipped.stderr).toBe(0)
    const allOther = path.join(dir, "all-other.json")
    const broken = JSON.parse(fs.readFileSync(shippedWeights, "utf8")) as { sequence: { bias: Array<number> } }
    broken.sequence.bias = [0, 0, 0, 0, 60]
    fs.writeFileSync(allOther, JSON.stringify(broken))
    const other = await claimsWith(allOther, "other.duckdb")
    expect(other.code, other.stderr).toBe(0)
    const count = (stdout: string) => Number(/"claims":\s*(\d+)/.exec(stdout)?.[1] ?? "-1")
    expect(count(shipped.stdout)).toBeGreaterThan(0)
    expect(count(other.stdout)).toBe(0)

    const unusable = path.join(dir, "unusable.json")
    fs.writeFileSync(unusable, "{\"roles\": [] }")
    const failed = await claimsWith(unusable, "failed.duckdb")
    expect(failed.code).not.toBe(0)
    expect(failed.stderr).toContain(unusable)
    expect(failed.stderr).toContain("kg train claims")
  }, 180_000)
})
