/**
 * A result's statistics are prose, not markup (issue 24: findings stored from biomedical abstracts). The
 * letters-per-character test that drops LaTeX noise dropped statistic-heavy findings of SciFact abstracts (CC BY 4.0)
 * too: 8 of SciFact's rationale sentences, e.g. the relative risks below. Such a sentence is read as prose when it
 * writes a statistic's notation, no LaTeX mark, and at least eight words.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NlpService from "@kg/core/NlpService"
import * as OfflineExtractor from "../src/OfflineExtractor.js"
import { skipReason } from "../src/internal/offline/claims.js"

const RISKS =
  "Increased risk of breast cancer was noted with increased birthweight (relative risk [RR] 1.15 [95% CI 1.09-1.21]), birth length (1.28 [1.11-1.48]), higher maternal age (1.13 [1.02-1.25]), and paternal age (1.12 [1.05-1.19])."
const HAZARDS =
  "The HR for light smokers was 0.44 (95% CI, 0.35-0.56); for quitters, HR 0.50 (95% CI, 0.36-0.69), for stable ex-smokers, HR 0.17 (95% CI, 0.13-0.23), and for never smokers, HR 0.09 (95% CI, 0.06-0.13)."

describe("statistics read as prose", () => {
  it("a finding written in relative risks or hazard ratios is not LaTeX noise", () => {
    expect(skipReason(RISKS)).toBeUndefined()
    expect(skipReason(HAZARDS)).toBeUndefined()
  })

  it("a percentage with its interval in brackets, the Lancet's decimal point too (SciFact rationale)", () => {
    expect(skipReason("Prevalences in individuals aged 16-24 years were 3·1% (2·2-4·3) in women and 2·3% (1·5-3·4) in men.")).toBeUndefined()
    // near miss: the same numbers without their brackets are a table's cells
    expect(skipReason("Prevalences 16-24 3·1% 2·2-4·3 2·3% 1·5-3·4 women men 4·1 5·2 6·3 7·4")).not.toBeUndefined()
  })

  it("near misses stay noise: LaTeX, a short notice, a table's cells, digits with no statistic's notation", () => {
    expect(skipReason("$\\alpha_{t} = 0.5$ for $t \\le T$ and $\\beta = 0.9$ in all runs (95% CI 0.2-0.3).")).toBe("latex-noise")
    expect(skipReason("© 2004 SPIE and IS&T. [DOI: 10.1117/1.1631316] (p < 0.05)")).not.toBeUndefined()
    expect(skipReason("[b] 0.19 [b] 0.19 [b] 0.19 [b] 0.19 [b] 0.19 [b] 0.19 [b] 0.19 [b] 0.19 [b] 0.19 aero bike bird boat")).not.toBeUndefined()
    // the same numbers without a statistic's notation: still too few letters
    expect(skipReason(HAZARDS.replace(/HR|95% CI,/g, ""))).toBe("latex-noise")
  })

  it("the finding of a structured abstract's results is stored", () => {
    const nlp = Effect.runSync(Effect.provide(NlpService.NlpService, NlpService.layer))
    const abstract = `BACKGROUND Birth size may be associated with breast cancer risk in adulthood. METHODS We pooled individual participant data from 32 studies. RESULTS ${RISKS} CONCLUSIONS Birth size is an independent correlate of breast cancer risk in adulthood.`
    const rows = OfflineExtractor.analyze(nlp, abstract)
    const row = rows.find((r) => abstract.slice(r.start, r.end).includes("relative risk"))
    expect(row?.skip).toBeUndefined()
    expect(row?.claim).toBeDefined()
  })
})
