import { describe, expect, it } from "@effect/vitest"
import { mulberry32 } from "@kg/core/Random"

describe("Random.mulberry32", () => {
  it("is deterministic, in [0, 1), and the sequence the graph views' Louvain used before (signed-seed form)", () => {
    // the form graphViews.ts had: the state kept as a signed 32-bit integer
    const signed = (seed: number) => () => {
      seed = (seed + 0x6d2b79f5) | 0
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296
    }
    for (const seed of [0, 1, 7, 42, 0x7fffffff, 0xdeadbeef]) {
      const a = mulberry32(seed)
      const b = mulberry32(seed)
      const c = signed(seed)
      for (let i = 0; i < 1000; i++) {
        const x = a()
        expect(x).toBe(b())
        expect(x).toBe(c())
        expect(x >= 0 && x < 1).toBe(true)
      }
    }
    expect(mulberry32(1)()).not.toBe(mulberry32(2)())
  })
})
