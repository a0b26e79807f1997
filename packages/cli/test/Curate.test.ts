/**
 * `kg curate` as a user runs it (the built CLI): reject an edge by short ids, see the statuses change, list,
 * unknown ids named with a non-zero exit, undo; `kg export --training-data` writes the judged pairs beside the
 * file; `kg train nli --dry-run` reports before and after and writes nothing.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { removeDir, runKg, tempDir } from "./helpers.js"

const artPaper = (id: string, year: number, finding: string) =>
  `---\nid: "${id}"\ntitle: "Antiretroviral therapy and HIV transmission (${id})"\nauthors: ["${id} Author"]\nyear: ${year}\n---\n\n` +
  `# Results\n\nWe followed 1,200 couples for three years. Each couple was tested every six months. We found that ${finding}\n`

describe("kg curate", () => {
  let dir = ""
  let db = ""
  beforeAll(async () => {
    dir = tempDir("kg-cli-curate-")
    db = path.join(dir, "kg.duckdb")
    const corpus = path.join(dir, "art")
    fs.mkdirSync(corpus)
    fs.writeFileSync(path.join(corpus, "a.md"), artPaper("art-a", 2018, "ART substantially reduces infectiveness of HIV-positive people."))
    fs.writeFileSync(path.join(corpus, "b.md"), artPaper("art-b", 2020, "ART has no effect on the infectiveness of HIV-positive people."))
    const r = await runKg(["extract", corpus, "--db", db], { env: { KG_NLI_WEIGHTS: "shipped" } })
    expect(r.code).toBe(0)
  }, 120_000)
  afterAll(() => removeDir(dir))

  it("reject, list, unknown ids, undo; export and train read the decisions", async () => {
    const claims = JSON.parse((await runKg(["claims", "--status", "contested", "--db", db, "--json"])).stdout) as Array<{ id: string }>
    expect(claims.length).toBe(2)
    const [a, b] = claims.map((c) => c.id.split("/").pop()!)
    const rejected = await runKg(["curate", "reject", a!, b!, "--by", "ana", "--db", db])
    expect(rejected.code).toBe(0)
    expect(rejected.stdout).toContain("rejected #1: reject contradicts edge")
    expect(rejected.stdout).toContain("contested -> preliminary")
    expect(JSON.parse((await runKg(["claims", "--status", "contested", "--db", db, "--json"])).stdout)).toEqual([])

    const listed = JSON.parse((await runKg(["curate", "list", "--db", db, "--json"])).stdout) as Array<{ id: number; curator: string }>
    expect(listed.map((c) => [c.id, c.curator])).toEqual([[1, "ana"]])

    const unknown = await runKg(["curate", "reject", "no-such-claim", b!, "--db", db])
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr).toContain("No claim with id no-such-claim")
    const noCuration = await runKg(["curate", "undo", "7", "--db", db])
    expect(noCuration.code).not.toBe(0)
    expect(noCuration.stderr).toContain("No curation #7")

    const out = path.join(dir, "out", "training.jsonl")
    fs.mkdirSync(path.dirname(out))
    const exported = await runKg(["export", "--training-data", out, "--include-offline", "--db", db])
    expect(exported.code).toBe(0)
    const pairs = fs.readFileSync(path.join(dir, "out", "training.pairs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(pairs).toEqual([expect.objectContaining({ label: "unrelated", verdict: "rejected", kind: "contradicts", curator: "ana" })])

    const trained = await runKg(["train", "nli", "--db", db, "--dry-run", "--iterations", "200", "--json", "--out", path.join(dir, "w.json")])
    expect(trained.code).toBe(0)
    const report = JSON.parse(trained.stdout) as { before: { all: { pairs: number } }; after: { all: { pairs: number } }; written: string | null; curatedPairs: { train: number; heldout: number } }
    expect(report.curatedPairs.train + report.curatedPairs.heldout).toBe(1)
    expect(report.after.all.pairs).toBe(report.before.all.pairs)
    expect(report.written).toBeNull()
    expect(fs.existsSync(path.join(dir, "w.json"))).toBe(false)

    const undone = await runKg(["curate", "undo", "1", "--by", "ben", "--db", db])
    expect(undone.code).toBe(0)
    expect(undone.stdout).toContain("undone by ben")
    expect((JSON.parse((await runKg(["claims", "--status", "contested", "--db", db, "--json"])).stdout) as Array<unknown>).length).toBe(2)
  }, 180_000)
})
