/**
 * `domainTags.clusterTags` finds each cluster's parent through an index that lists a cluster under its rarest token
 * only (issue 23: the posting lists of common tokens made the hierarchy ~0.4 s of every run at 4,000 papers). The
 * parent must be the one a comparison with every other cluster gives: the most specific proper subset of the
 * cluster's descriptive tokens (most tokens, then most uses, then the smallest id). Checked here against that
 * definition on random tag sets over a small vocabulary (so that subsets, ties and shared tokens are common).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { clusterTags, descriptiveTokens } from "../src/internal/claims/domainTags.js"

const parentsByDefinition = (
  members: ReadonlyMap<string, ReadonlyArray<string>>,
  frequency: ReadonlyMap<string, number>
): Map<string, string | null> => {
  const ids = Array.from(members.keys())
  const described = new Map(ids.map((id) => [id, descriptiveTokens(members.get(id)!)] as const))
  const out = new Map<string, string | null>()
  for (const id of ids) {
    const own = new Set(described.get(id)!)
    let best: string | null = null
    for (const cand of ids) {
      const tokens = described.get(cand)!
      if (cand === id || tokens.length === 0 || tokens.length >= own.size || !tokens.every((t) => own.has(t))) continue
      const better = best === null ||
        tokens.length > described.get(best)!.length ||
        (tokens.length === described.get(best)!.length &&
          (frequency.get(cand)! > frequency.get(best)! || (frequency.get(cand) === frequency.get(best) && cand < best)))
      if (better) best = cand
    }
    out.set(id, best)
  }
  return out
}

const word = fc.constantFrom("neural", "machine", "translation", "learning", "deep", "graph", "network", "image", "the", "of")
const tag = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(" "))

describe("domain tag hierarchy", () => {
  it.prop(
    "each cluster's parent is the most specific proper subset among all clusters",
    [fc.array(fc.tuple(tag, fc.integer({ min: 1, max: 3 })), { maxLength: 40 })],
    ([counts]) => {
      const clustering = clusterTags(counts)
      expect(new Map(clustering.parentOf)).toEqual(parentsByDefinition(clustering.members, clustering.frequency))
    },
    { fastCheck: { numRuns: 300 } }
  )

  it("gives machine translation the parent translation, and neural machine translation the parent machine translation", () => {
    const clustering = clusterTags([["translation", 3], ["machine translation", 2], ["neural machine translation", 1]])
    expect(clustering.parentOf.get("machine translation")).toBe("translation")
    expect(clustering.parentOf.get("neural machine translation")).toBe("machine translation")
    expect(clustering.parentOf.get("translation")).toBeNull()
  })
})
