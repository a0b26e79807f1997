/**
 * The claim page's lineage says "first appears" only when every paper involved has a year (`src/lineage.ts`).
 */
import { describe, expect, it } from "@effect/vitest"
import type { Lineage } from "@kg/graph/GraphQueries"
import { lineageDating, yearLabel } from "../src/lineage.js"

const resolution: Lineage["resolution"] = { query: "c", by: "id", id: "c", label: "a claim", similarity: null }
const event = (paperId: string, year: number | null): Lineage["events"][number] =>
  ({ year, paperId, title: `Paper ${paperId}`, relation: "reasserted", via: "source", other: null, quote: "" })

describe("lineageDating", () => {
  it("knows the first appearance when every paper has a year", () => {
    expect(lineageDating({ resolution, firstAppearance: { paperId: "a", title: "A", year: 2012 }, events: [event("b", 2017)] }))
      .toEqual({ known: true, undatedPapers: 0, sameYearPapers: 0 })
  })

  it("does not know it when a later-listed paper has no year (it may be the origin), and counts distinct papers", () => {
    expect(lineageDating({
      resolution,
      firstAppearance: { paperId: "a", title: "A", year: 2017 },
      events: [event("b", null), event("b", null), event("c", null), event("d", 2019)]
    })).toEqual({ known: false, undatedPapers: 2, sameYearPapers: 0 })
  })

  it("counts an undated first paper, and knows nothing without one", () => {
    expect(lineageDating({ resolution, firstAppearance: { paperId: "a", title: "A", year: null }, events: [] }))
      .toEqual({ known: false, undatedPapers: 1, sameYearPapers: 0 })
    expect(lineageDating({ resolution, firstAppearance: null, events: [] })).toEqual({ known: false, undatedPapers: 0, sameYearPapers: 0 })
  })

  it("counts the other papers of the first paper's year (their order is unknown), not those of a later year", () => {
    expect(lineageDating({
      resolution,
      firstAppearance: { paperId: "a", title: "A", year: 2020 },
      events: [event("b", 2020), event("b", 2020), event("c", 2020), event("d", 2021), event("a", 2020)]
    })).toEqual({ known: true, undatedPapers: 0, sameYearPapers: 2 })
  })
})

describe("yearLabel", () => {
  it("is \"n.d.\" for an unknown year everywhere on the page (papers table, claim sources, lineage, references)", () => {
    expect([yearLabel(null), yearLabel(undefined), yearLabel(2019)]).toEqual(["n.d.", "n.d.", "2019"])
  })
})
