/**
 * `kg chat` driven by piped stdin (plain line mode): a scripted session
 * find -> research -> summary 1 -> save over a store of page-aware PDFs, and
 * the saved Markdown holds the answer, its [paper, page N] citations and the
 * reference list; the state machine's refusals and its return to the start
 * after a failed command.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { pdfOf } from "../../extraction/test/utils/arxivServer.js"
import { removeDir, repoRoot, runKg, tempDir } from "./helpers.js"

describe.sequential("kg chat (piped)", () => {
  let dir: string
  let db: string
  beforeAll(async () => {
    dir = tempDir("kg-chat-test-")
    const papers = path.join(dir, "papers")
    fs.mkdirSync(papers)
    for (const id of ["2212.11791", "2212.11803", "2212.11808"]) fs.writeFileSync(path.join(papers, `${id}.pdf`), pdfOf(id))
    fs.copyFileSync(path.join(repoRoot, "examples/corpus/2023.eacl-main.121.pdf"), path.join(papers, "longeval.pdf"))
    db = path.join(dir, "kg.duckdb")
    const extracted = await runKg(["extract", papers, "--db", db])
    if (extracted.code !== 0) throw new Error(extracted.stderr)
  }, 180_000)
  afterAll(() => removeDir(dir))

  it("find -> research -> summary 1 -> save: the saved Markdown has the answer, its [paper, page N] citations and references", async () => {
    const question = "How reliable is human evaluation of faithfulness in long-form summarization?"
    const session = ["find human evaluation of faithfulness", `research ${question}`, "summary 1", "save answer.md", "quit"]
      .join("\n") + "\n"
    const result = await runKg(["chat", "--db", db], { cwd: dir, stdin: session })
    expect(result.code, result.stderr).toBe(0)
    // The transcript: each command echoed, then its reply.
    expect(result.stdout).toContain("kg> find human evaluation of faithfulness\n")
    expect(result.stdout).toMatch(/Papers about "human evaluation of faithfulness":\n\s+1\. \[longeval\] /)
    expect(result.stdout).toMatch(/Papers cited \(use summary <n>, claims <n>, open <n>\):\n\s+1\. \[[^\]]+\]/)
    const firstCited = /Papers cited[^\n]*\n\s+1\. \[([^\]]+)\]/.exec(result.stdout)![1]!
    expect(result.stdout).toContain(`kg> summary 1\n[${firstCited}] `)
    expect(result.stdout).toMatch(/Studied: .+\nMethod: .+\nFindings: .+/)
    expect(result.stdout).toMatch(/Main claims \(\d+ of \d+; claims <n> lists all\):/)
    expect(result.stdout).toContain(`saved the answer to "${question}"`)
    expect(result.stderr).toContain("Stage 1: searching summaries")

    const saved = fs.readFileSync(path.join(dir, "answer.md"), "utf8")
    expect(saved.startsWith(`# ${question}\n`)).toBe(true)
    // The answer's sentences cite pages; every cited paper is in the reference list.
    const body = saved.slice(0, saved.indexOf("\n## "))
    expect(body.split("\n").filter((l) => /\[longeval, page \d+\]/.test(l)).length).toBeGreaterThan(0)
    const cited = new Set(Array.from(saved.matchAll(/\[([^\],\]]+), page \d+\]/g), (m) => m[1]!))
    const references = saved.slice(saved.indexOf("## References"))
    expect(references.split("\n").filter((l) => l.startsWith("- [")).length).toBeGreaterThanOrEqual(cited.size)
    for (const id of cited) expect(references).toContain(`- [${id}] `)
    expect(references).toMatch(/- \[longeval\] .+ \((\d{4}|n\.d\.)\)\. .+\./)
  })

  it("refuses what the state does not allow, and a failed command returns to the start", async () => {
    const session = [
      "save",
      "improve shorter please",
      "summary 1",
      "frobnicate",
      "list",
      "summary 2",
      "research zzzz qqqq xxyyzz",
      "summary 1",
      "save",
      "help"
    ].join("\n") + "\n"
    const result = await runKg(["chat", "--db", db], { cwd: dir, stdin: session })
    expect(result.code, result.stderr).toBe(0)
    const reply = (command: string) => {
      const at = result.stdout.indexOf(`kg> ${command}\n`)
      expect(at, command).toBeGreaterThanOrEqual(0)
      const rest = result.stdout.slice(at + command.length + 5)
      return rest.slice(0, rest.indexOf("\nkg> ") >= 0 ? rest.indexOf("\nkg> ") : undefined)
    }
    expect(reply("save")).toContain("nothing to save yet")
    expect(reply("improve shorter please")).toContain("there is no answer to improve")
    expect(reply("summary 1")).toContain("there is no numbered list yet")
    expect(reply("frobnicate")).toContain('unknown command "frobnicate"')
    expect(reply("list")).toMatch(/4 paper\(s\):/)
    expect(reply("summary 2")).toMatch(/^\[2212\.\d+\] /)
    // Nothing relevant: an error, and the machine is back at the start (no list, nothing to save).
    expect(reply("research zzzz qqqq xxyyzz")).toMatch(/^error: No papers found relevant to/)
    const after = result.stdout.slice(result.stdout.indexOf("kg> research zzzz"))
    expect(after).toContain("kg> summary 1\nthere is no numbered list yet")
    expect(after).toContain("kg> save\nnothing to save yet")
    expect(after).toMatch(/kg> help\nState: initial\./)
  })
})
