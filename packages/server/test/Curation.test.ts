/**
 * The curation API: decisions are writes (the CSRF header from a page, JSON only, refused by a read-only server),
 * re-grade at once, name unknown ids with 404, and undo once (a second undo is 409).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Kg from "@kg/graph/Kg"
import * as Server from "../src/Server.js"
import { csrfOf, extractThrough, startServer, tempDir } from "./fixtures.js"

type Json = Record<string, any>

const artPaper = (id: string, year: number, finding: string) =>
  `---\nid: "${id}"\ntitle: "Antiretroviral therapy and HIV transmission (${id})"\nauthors: ["${id} Author"]\nyear: ${year}\n---\n\n` +
  `# Results\n\nWe followed 1,200 couples for three years. Each couple was tested every six months. We found that ${finding}\n`

describe("the curation API", () => {
  it("reject an edge (CSRF), list, unknown ids, undo twice; a read-only server refuses decisions", async () => {
    const dir = tempDir("kg-curation-api-")
    const db = path.join(dir, "kg.duckdb")
    try {
      const corpus = path.join(dir, "art")
      fs.mkdirSync(corpus)
      fs.writeFileSync(path.join(corpus, "a.md"), artPaper("art-a", 2018, "ART substantially reduces infectiveness of HIV-positive people."))
      fs.writeFileSync(path.join(corpus, "b.md"), artPaper("art-b", 2020, "ART has no effect on the infectiveness of HIV-positive people."))
      const server = await startServer(db, { noSidecar: true })
      try {
        const api = `${server.url}api`
        expect((await extractThrough(server.url, [corpus])).events.at(-1)!.kind).toBe("completed")
        const contested = (await (await fetch(`${api}/claims?status=contested`)).json()) as Array<Json>
        expect(contested.length).toBe(2)
        const [a, b] = contested.map((c) => c.id as string)
        const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
          fetch(`${api}${route}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })

        // no CSRF token: refused, nothing changed
        const bare = await post("/curations/edges", { a, b, action: "reject" })
        expect(bare.status).toBe(403)
        expect(((await bare.json()) as Json).message).toContain("X-Kg-Csrf")
        const csrf = { "x-kg-csrf": await csrfOf(`${api}/info`) }

        const rejected = await post("/curations/edges", { a, b, action: "reject", by: "ana" }, csrf)
        expect(rejected.status).toBe(200)
        const report = (await rejected.json()) as Json
        expect(report.curation.curator).toBe("ana")
        expect(report.grade.changed.map((c: Json) => c.to)).toEqual(["preliminary", "preliminary"])
        expect(((await (await fetch(`${api}/claims?status=contested`)).json()) as Array<unknown>).length).toBe(0)
        const onClaim = (await (await fetch(`${api}/curations?claim=${encodeURIComponent(a!)}`)).json()) as Array<Json>
        expect(onClaim.map((c) => c.id)).toEqual([1])

        const unknown = await post("/curations/edges", { a, b: "no-such-claim", action: "reject" }, csrf)
        expect(unknown.status).toBe(404)
        const unknownText = await unknown.text()
        expect((JSON.parse(unknownText) as Json).message).toContain("No claim with id no-such-claim")
        // never a server path in a response
        expect(unknownText.includes(dir)).toBe(false)
        const noKind = await post("/curations/edges", { a, b, action: "correct" }, csrf)
        expect(noKind.status).toBe(400)

        expect((await post("/curations/1/undo", {}, csrf)).status).toBe(200)
        expect(((await (await fetch(`${api}/claims?status=contested`)).json()) as Array<unknown>).length).toBe(2)
        const again = await post("/curations/1/undo", {}, csrf)
        expect(again.status).toBe(409)
        expect((await post("/curations/9/undo", {}, csrf)).status).toBe(404)
        const all = (await (await fetch(`${api}/curations?all=true`)).json()) as Array<Json>
        expect(all.map((c) => [c.id, c.undoneAt !== null])).toEqual([[1, true]])
      } finally {
        await server.close()
      }

      const scope = Effect.runSync(Scope.make())
      try {
        const layer = Server.layer({ host: "127.0.0.1", port: 0, noSidecar: true }).pipe(
          Layer.provide(Kg.layerOffline({ db, embeddings: "hash", readOnly: true }))
        )
        const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
        const url = Context.get(context, Server.Listening).url
        expect(((await (await fetch(`${url}api/curations?all=true`)).json()) as Array<unknown>).length).toBe(1)
        const csrf = await csrfOf(url)
        const refused = await fetch(`${url}api/curations/edges`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-kg-csrf": csrf },
          body: JSON.stringify({ a: "x", b: "y", action: "reject" })
        })
        expect(refused.status).toBe(403)
        expect(((await refused.json()) as Json).message).toContain("read-only")
      } finally {
        await Effect.runPromise(Scope.close(scope, Exit.void))
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)
})
