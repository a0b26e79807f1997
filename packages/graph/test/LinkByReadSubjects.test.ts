/**
 * Links that depend on the finding extractor reading a sentence's subject behind its frame (issue 24, link13), through
 * the real linker with the offline judge. Sentences of SciFact (CC BY 4.0); each join has a near miss.
 *
 * - "These data implicate X as Y", "We identify X as Y": a finding about X (before: about "This finding", no link);
 * - "In our study, X improved Y": the study is the setting, X the subject (before: no subject, no link);
 * - near misses: another subject in the same frame, and the identification's inner verb is no direction (no candidate
 *   of a same-finding kind from "identify X as a Y required for BBB integrity" against "X suppresses BBB breakdown").
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ClaimIdentity from "../src/ClaimIdentity.js"
import { linkPapers, testLayer } from "./fixtures/claimPapers.js"


const gpr124 = "Gpr124 suppresses BBB breakdown in mouse models of ischemic stroke."
const implicates = "This finding implicates Gpr124 as a potential therapeutic target for human CNS disorders characterized by BBB disruption."
const identifies =
  "We thus identify Gpr124 as an endothelial GPCR specifically required for endothelial Wnt signaling and BBB integrity under pathological conditions in vivo."

describe("links through subjects read behind a frame", () => {
  it.effect("\"This finding implicates X as Y\" is about X: a related link by X, no same-finding candidate", () =>
    Effect.gen(function*() {
      const edges = yield* linkPapers([gpr124, implicates])
      expect(edges).toHaveLength(1)
      expect(edges[0]!.kind).toBe("weak_link")
      expect(ClaimIdentity.relatedOfSignals(edges[0]!.signals)).toEqual({ side: "subject", name: "Gpr124" })
      expect(edges[0]!.signals["proposed"]).toBeUndefined()
    }).pipe(Effect.provide(testLayer)))

  it.effect("near miss: the same frame about another subject makes no link", () =>
    Effect.gen(function*() {
      const other = "This finding implicates Wnt7a as a potential therapeutic target for human CNS disorders characterized by BBB disruption."
      expect(yield* linkPapers([gpr124, other])).toEqual([])
    }).pipe(Effect.provide(testLayer)))

  it.effect("near miss: the verb inside what X is identified as gives no direction, so no candidate contradiction against BBB breakdown", () =>
    Effect.gen(function*() {
      const edges = yield* linkPapers([gpr124, identifies])
      for (const e of edges) {
        expect(e.kind).toBe("weak_link")
        expect(e.signals["proposed"]).toBeUndefined()
      }
    }).pipe(Effect.provide(testLayer)))

  it.effect("\"In our study, X improved Y\" against \"X worsens Y\": the same subject and outcome, opposed", () =>
    Effect.gen(function*() {
      const worsens = "Sildenafil worsens erectile function in men who experience sexual dysfunction as a result of the use of SSRI antidepressants."
      const study =
        "CONCLUSION In our study, sildenafil effectively improved erectile function and other aspects of sexual function in men with sexual dysfunction associated with the use of SRI antidepressants."
      const edges = yield* linkPapers([worsens, study])
      expect(edges).toHaveLength(1)
      expect(edges[0]!.signals["sharedSubject"]).toMatch(/^sildenafil$/i)
      expect(edges[0]!.signals["sharedOutcome"]).toBe("erectile function")
      expect(edges[0]!.kind === "contradicts" || edges[0]!.signals["proposed"] === "contradicts").toBe(true)
    }).pipe(Effect.provide(testLayer)))
})
