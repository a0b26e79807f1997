/**
 * Papers you can trust, end to end on the real shared PDFs and markdown
 * papers: two different files with the same name are two papers, a re-run
 * finds every file unchanged, `kg papers` lists title, authors and year read
 * from the files, and `kg papers set` corrections survive re-extraction.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { lastJson, queryStore, removeDir, runKg, tempDir } from "./helpers.js"

const sharedPdf = new URL("../../../testdata/papers/pdf/", import.meta.url).pathname
const sharedMd = new URL("../../../testdata/papers/md/", import.meta.url).pathname

/** A real markdown paper without its front matter (so nothing but the file name identifies it), cut short. */
const bodyOnly = (file: string, chars: number): string => {
  const text = fs.readFileSync(path.join(sharedMd, file), "utf8")
  const body = text.slice(text.indexOf("\n---", 4) + 4)
  const cut = body.indexOf("\n\n", chars)
  return cut > 0 ? body.slice(0, cut) + "\n" : body
}

interface Listed {
  readonly paperId: string
  readonly year: number | null
  readonly firstAuthor: string | null
  readonly authors: ReadonlyArray<string>
  readonly title: string
  readonly pages: number | null
  readonly claims: number
  readonly source: string
}

describe("kg papers", () => {
  let dir: string
  beforeAll(() => {
    dir = tempDir("kg-papers-test-")
  })
  afterAll(() => removeDir(dir))

  it("keeps two same-named different files as two papers, with metadata read from the files; re-runs change nothing", async () => {
    const corpus = path.join(dir, "corpus")
    fs.mkdirSync(path.join(corpus, "a"), { recursive: true })
    fs.mkdirSync(path.join(corpus, "b"), { recursive: true })
    fs.copyFileSync(path.join(sharedPdf, "2020.acl-main.447.pdf"), path.join(corpus, "a/paper.pdf"))
    fs.copyFileSync(path.join(sharedPdf, "2023.eacl-main.121.pdf"), path.join(corpus, "b/paper.pdf"))
    fs.writeFileSync(path.join(corpus, "a/notes.md"), bodyOnly("2212.11791.md", 3000))
    fs.writeFileSync(path.join(corpus, "b/notes.md"), bodyOnly("2212.11803.md", 3000))
    const db = path.join(dir, "papers.duckdb")

    const first = await runKg(["extract", corpus, "--db", db, "--json"])
    expect(first.code, first.stderr).toBe(0)
    expect(lastJson(first)).toMatchObject({ papers: 4, papersUnchanged: 0 })

    const listed = await runKg(["papers", "--db", db, "--json"])
    expect(listed.code, listed.stderr).toBe(0)
    const papers = JSON.parse(listed.stdout) as ReadonlyArray<Listed>
    expect(papers).toHaveLength(4)
    const bySource = (suffix: string) => papers.find((p) => p.source.endsWith(suffix))!
    const s2orc = bySource("a/paper.pdf")
    const longEval = bySource("b/paper.pdf")
    // Both kept: the first takes the stem, the second a stable suffix.
    expect(new Set(papers.map((p) => p.paperId)).size).toBe(4)
    expect(s2orc.paperId).toBe("paper")
    expect(longEval.paperId).toMatch(/^paper-[0-9a-f]{8}$/)
    expect(s2orc).toMatchObject({
      title: "S2ORC: The Semantic Scholar Open Research Corpus",
      year: 2020,
      firstAuthor: "Kyle Lo",
      pages: 15
    })
    expect(s2orc.authors).toHaveLength(5)
    expect(longEval).toMatchObject({
      title: "LongEval: Guidelines for Human Evaluation of Faithfulness in Long-form Summarization",
      year: 2023,
      firstAuthor: "Kalpesh Krishna",
      pages: 20
    })
    expect(longEval.authors).toEqual([
      "Kalpesh Krishna",
      "Erin Bransom",
      "Bailey Kuehl",
      "Mohit Iyyer",
      "Pradeep Dasigi",
      "Arman Cohan",
      "Kyle Lo"
    ])
    expect(bySource("a/notes.md").paperId).toBe("notes")
    expect(bySource("b/notes.md").paperId).toMatch(/^notes-[0-9a-f]{8}$/)
    expect(bySource("a/notes.md").title).toBe("Training Integer-Only Deep Recurrent Neural Networks")

    // A re-run finds every file unchanged.
    const again = await runKg(["extract", corpus, "--db", db, "--json"])
    expect(again.code, again.stderr).toBe(0)
    expect(lastJson(again)).toMatchObject({ papers: 0, papersUnchanged: 4 })

    // A correction survives re-extraction of the changed file (same path, same id).
    const set = await runKg(["papers", "set", longEval.paperId, "--year", "2022", "--title", "LongEval, corrected", "--db", db, "--json"])
    expect(set.code, set.stderr).toBe(0)
    expect(JSON.parse(set.stdout)).toMatchObject({ paperId: longEval.paperId, year: 2022, title: "LongEval, corrected" })
    fs.appendFileSync(path.join(corpus, "b/paper.pdf"), "\n% an edit after the end of the file\n")
    const changed = await runKg(["extract", corpus, "--db", db, "--json"])
    expect(changed.code, changed.stderr).toBe(0)
    expect(lastJson(changed)).toMatchObject({ papers: 1, papersUnchanged: 3 })
    const rows = await queryStore<{ p: ReadonlyArray<{ paper_id: string; year: number; title: string; authors: Array<string> }> }>(
      db,
      { p: "SELECT paper_id, year, title, authors FROM papers WHERE source_path LIKE '%b/paper.pdf'" }
    )
    expect(rows.p).toEqual([{
      paper_id: longEval.paperId,
      year: 2022,
      title: "LongEval, corrected",
      authors: [...longEval.authors]
    }])

    // Errors name what to do.
    const missing = await runKg(["papers", "set", "no-such-paper", "--year", "2020", "--db", db])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain("kg papers")
    const text = await runKg(["papers", "--db", db])
    expect(text.code).toBe(0)
    expect(text.stdout).toContain("S2ORC: The Semantic Scholar Open Research Corpus")
    expect(text.stdout).toMatch(/paper\s+2020\s+Kyle Lo\s+15/)
  }, 240_000)
})
