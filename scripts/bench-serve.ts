/**
 * Server benchmark: `kg serve` (the `Server.layer` on a loopback port) over the example corpus, extracted through
 * the job API, then `--clients` concurrent clients each sending `--requests` requests of a read mix (a claim with
 * its sources and edges, claims about a topic, a paper's page with a quote, a graph neighbourhood, the paper list)
 * with 1 reader connection and with 4; then research answers (time to the first stage event and to the answer).
 * Prints requests per second and latency percentiles.
 *
 *   npx tsx --conditions=@kg/source scripts/bench-serve.ts [--clients 8] [--requests 40] [--questions 10]
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Kg from "@kg/graph/Kg"
import * as Server from "@kg/server/Server"

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const clients = arg("clients", 8)
const requests = arg("requests", 40)
const questions = arg("questions", 10)

const root = path.resolve(new URL("..", import.meta.url).pathname)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kg-bench-serve-"))
const db = path.join(dir, "kg.duckdb")

const start = async (readers: number) => {
  const scope = Effect.runSync(Scope.make())
  const layer = Server.layer({ host: "127.0.0.1", port: 0, readers, noSidecar: true }).pipe(
    Layer.provide(Kg.layerOffline({ db, embeddings: (process.env["KG_EMBEDDINGS"] === "hash" ? "hash" : "offline") }))
  )
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  return { url: Context.get(context, Server.Listening).url, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

const pct = (xs: ReadonlyArray<number>, p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0
}

const main = async () => {
  // The store, through the server's own job API.
  {
    const s = await start(1)
    const created = await (await fetch(`${s.url}api/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ paths: [path.join(root, "examples/corpus")] })
    })).json() as { jobId: string }
    const t0 = performance.now()
    await (await fetch(`${s.url}api/jobs/${created.jobId}/events`)).text()
    console.log(`extracted examples/corpus through POST /api/jobs in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    await s.close()
  }
  for (const readers of [1, 4]) {
    const s = await start(readers)
    const api = `${s.url}api`
    const claims = await (await fetch(`${api}/claims?limit=50`)).json() as Array<{ id: string; text: string }>
    const papers = await (await fetch(`${api}/papers`)).json() as Array<{ paperId: string }>
    const pdf = await (await fetch(`${api}/papers/2023.eacl-main.121`)).json() as { claims: Array<{ page: number; quote: string }> }
    const urls = (i: number): string => {
      const c = claims[i % claims.length]!
      switch (i % 5) {
        case 0:
          return `${api}/claims/${encodeURIComponent(c.id)}`
        case 1:
          return `${api}/claims?about=${encodeURIComponent(c.text.split(" ").slice(0, 4).join(" "))}&limit=10`
        case 2: {
          const q = pdf.claims[i % pdf.claims.length]!
          return `${api}/papers/2023.eacl-main.121/page?page=${q.page}&quote=${encodeURIComponent(q.quote)}`
        }
        case 3:
          return `${api}/graph/neighbourhood?kind=paper&id=${encodeURIComponent(papers[i % papers.length]!.paperId)}&limit=60`
        default:
          return `${api}/papers`
      }
    }
    for (let i = 0; i < 10; i++) await (await fetch(urls(i))).text() // warm up
    const latencies: Array<number> = []
    const t0 = performance.now()
    await Promise.all(Array.from({ length: clients }, async (_, c) => {
      for (let r = 0; r < requests; r++) {
        const t = performance.now()
        const response = await fetch(urls(c * requests + r))
        await response.text()
        if (!response.ok) throw new Error(`${response.status} ${urls(c * requests + r)}`)
        latencies.push(performance.now() - t)
      }
    }))
    const seconds = (performance.now() - t0) / 1000
    console.log(
      `${readers} reader connection(s), ${clients} clients x ${requests} requests (read mix): ` +
        `${(latencies.length / seconds).toFixed(0)} requests/s, p50 ${pct(latencies, 50).toFixed(0)} ms, ` +
        `p95 ${pct(latencies, 95).toFixed(0)} ms`
    )
    if (readers === 4) {
      const asked = [
        "How reliable is human evaluation of faithfulness in long-form summarization?",
        "Can recurrent networks be trained with integer-only arithmetic?",
        "How are adversarial text examples generated by mutation?",
        "Do Euclidean distance operations make inference more efficient?"
      ]
      const first: Array<number> = [], total: Array<number> = []
      for (let i = 0; i < questions; i++) {
        const t = performance.now()
        const response = await fetch(`${api}/research`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ question: asked[i % asked.length] })
        })
        const reader = response.body!.getReader()
        let seenStage = false, text = ""
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          text += new TextDecoder().decode(value)
          if (!seenStage && text.includes("\"type\":\"stage\"")) {
            seenStage = true
            first.push(performance.now() - t)
          }
        }
        total.push(performance.now() - t)
      }
      console.log(
        `research (${questions} questions, one at a time): first stage event p50 ${pct(first, 50).toFixed(0)} ms, ` +
          `answer p50 ${pct(total, 50).toFixed(0)} ms, p95 ${pct(total, 95).toFixed(0)} ms`
      )
    }
    await s.close()
  }
  fs.rmSync(dir, { recursive: true, force: true })
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
