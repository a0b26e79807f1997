/**
 * The text the read commands print, as a researcher reads it: a related link or a candidate is never listed among
 * the edges a status counts, a signal is named for what it measures, a role's number says what it is, a paper is
 * named by its title, and `kg lineage` says "first appears" only when every paper involved has a year.
 */
import { describe, expect, it } from "@effect/vitest"
import * as GraphQueries from "@kg/graph/GraphQueries"
import type * as Epistemics from "@kg/graph/Epistemics"
import { edgeSections } from "../src/handlers/claim.js"
import { renderChallenges } from "../src/handlers/challenges.js"
import { listedLine, statusCount } from "../src/handlers/claims.js"
import { renderFoundations } from "../src/handlers/foundations.js"
import { renderCounterevidence } from "../src/handlers/counterevidence.js"
import { paperLabel, sourceLine, summaryLine, yearLabel } from "../src/handlers/format.js"
import { renderLineage } from "../src/handlers/lineage.js"
import { papersTable } from "../src/handlers/papers.js"
import { looksLikeOneId } from "../src/internal/options.js"

const summary = (id: string, text: string, extra: Partial<GraphQueries.ClaimSummary> = {}): GraphQueries.ClaimSummary => ({
  id,
  text,
  status: "preliminary",
  confidence: 0.8,
  domainTags: [],
  papers: 1,
  livePapers: 1,
  sources: 1,
  score: null,
  role: "statement",
  roleConfidence: 0.14,
  ownSubject: null,
  ...extra
})

const contradicts: GraphQueries.EdgeView = {
  kind: "contradicts",
  score: 0.8888,
  signals: { subject: 0.68, semantic: 0.628, domain: 0.875, conditions: 1, outcome: 0, nliScore: 0.758, score: 0.5762 },
  other: summary("c:gain", "The DESMOND program caused substantial weight loss in most participants.", { status: "contested" }),
  proposed: null,
  reason: "same subject (DESMOND program); same outcome (weight loss); opposite directions (up / null)",
  related: null
}

const related: GraphQueries.EdgeView = {
  kind: "weak_link",
  score: 0.7257,
  signals: { subject: 0.7257, semantic: 0.5891, domain: 0.875, conditions: 0.4, outcome: 1, related: 1 },
  other: summary("c:lifestyle", "The DESMOND program demonstrates no significant impact on lifestyles outcomes."),
  proposed: null,
  reason: "same subject (DESMOND program); different outcomes (lifestyles outcomes / weight loss); same direction (null); " +
    "related: same subject (DESMOND), not the same finding (no outcome named by both (outcomes \"lifestyles outcomes\" / " +
    "\"weight loss\"; subject: DESMOND program))",
  related: "same subject (DESMOND)"
}

const candidate: GraphQueries.EdgeView = {
  kind: "weak_link",
  score: 0.61,
  signals: { subject: 0.7, semantic: 0.61, domain: 0.5, conditions: 0.4, outcome: 0, candidate: 1 },
  other: summary("c:other", "Another claim."),
  proposed: "contradicts",
  reason: "same subject (X); the values are not compared",
  related: null
}

describe("kg claim: edges and links", () => {
  it("lists the edges a status counts apart from related links and candidates, which are said not to be evidence", () => {
    const text = edgeSections([related, contradicts, candidate]).join("\n")
    const [edges, links] = text.split("related and candidate links")
    expect(edges).toContain("edges (1, counted by the status):")
    expect(edges).toContain("  contradicts (score 0.8888;")
    expect(edges).not.toContain("lifestyles")
    expect(edges).not.toContain("candidate")
    expect(links).toMatch(/^ \(2, not evidence: no status counts them\):/)
    expect(links).toContain("  related: same subject (DESMOND), not the same finding (score 0.7257;")
    expect(links).toContain("  candidate contradicts (unconfirmed) (score 0.61;")
  })

  it("says the NLI judge's call once, in words with its confidence, and says each part of a related link's reason once", () => {
    const text = edgeSections([contradicts, related]).join("\n")
    // the judgement (outcome 0) and the judge's confidence (nliScore) are one phrase, not two unexplained numbers
    expect(text).toContain("conditions 1; NLI judge: contradiction, confidence 0.758)")
    expect(text).toContain("conditions 0.4; NLI judge: entailment)")
    expect(text).not.toMatch(/outcome 0\)|nliScore|NLI agreement|score 0\.5762/)
    expect(text).toContain(
      "why: same subject (DESMOND program); different outcomes (lifestyles outcomes / weight loss); same direction (null); " +
        "not the same finding: no outcome named by both\n"
    )
    expect(text.match(/related: same subject \(DESMOND\)/g)?.length).toBe(1)
    expect(text.match(/DESMOND program\)/g)?.length).toBe(2)
  })

  it("a related link's reason keeps what its comparison did not already say; other reasons are left as they are", () => {
    // near miss: the verdict's subject ("smcs", a stem) is not in the comparison: kept
    expect(GraphQueries.readableReason(
      "a subject is not stated; different outcomes (underestimated / expression of PTEN); same direction (down); " +
        "related: close wording (SMCs, lesion), not the same finding (no outcome named by both (outcomes \"underestimated\" / " +
        "\"expression of PTEN\"; subject: smcs))",
      "close wording (SMCs, lesion)"
    )).toBe(
      "a subject is not stated; different outcomes (underestimated / expression of PTEN); same direction (down); " +
        "not the same finding: no outcome named by both (subject: smcs)"
    )
    // a verdict without a detail group: kept whole
    expect(GraphQueries.readableReason(
      "one subject overlaps the other (\"foci of GRSF1\" / \"knockdown of GRSF1\"); related: same subject (GRSF1), not the same " +
        "finding (shared subject (grsf1) and outcome (rna), in sentences with too few words in common)",
      "same subject (GRSF1)"
    )).toBe(
      "one subject overlaps the other (\"foci of GRSF1\" / \"knockdown of GRSF1\"); not the same finding: shared subject (grsf1) " +
        "and outcome (rna), in sentences with too few words in common"
    )
    // a topic link: what names them, once
    expect(GraphQueries.readableReason(
      "related: same topic (Helicobacter, pylori): the title of scifact-doc-22703082 names them; not the same finding",
      "same topic (Helicobacter, pylori)"
    )).toBe("the title of scifact-doc-22703082 names them")
    // not a related link, a heading that is not in the reason, an empty reason: unchanged
    expect(GraphQueries.readableReason(contradicts.reason, null)).toBe(contradicts.reason)
    expect(GraphQueries.readableReason(related.reason, "same outcome (weight loss)")).toBe(related.reason)
    expect(GraphQueries.readableReason("", "same subject (X)")).toBeNull()
    // the view's own readable reason wins when the store gave one
    const text = edgeSections([{ ...related, why: "as the view says" }]).join("\n")
    expect(text).toContain("why: as the view says\n")
  })

  it("says there is no edge when a claim has only related links", () => {
    const text = edgeSections([related]).join("\n")
    expect(text.split("\n")[0]).toBe("edges (0):")
    expect(text).toContain("related and candidate links (1, not evidence")
    expect(edgeSections([]).join("\n")).toBe("edges (0):")
  })
})

describe("claim and source lines", () => {
  it("labels the role's number as P(finding) and the ranking number as relevance", () => {
    const line = summaryLine(summary("c:1", "ELUs learn faster.", { role: "result", roleConfidence: 0.96, score: 0.715 }))
    expect(line.split("\n")[0]).toBe("[preliminary] (in 1 paper, relevance 0.715, role result, P(finding) 0.96) ELUs learn faster.")
    expect(summaryLine(summary("c:2", "Old claim.", { role: null, roleConfidence: null })).split("\n")[0])
      .toBe("[preliminary] (in 1 paper) Old claim.")
  })

  it("kg claims: the count behind a status, for and against, replaces the claim's own papers", () => {
    const assessment = (status: Epistemics.Assessment["status"], support: number, opposition: number): Epistemics.Assessment =>
      ({ claimId: "c:1", status, support, independent: support, opposition, narrow: false, reason: "" })
    const contested = summary("c:1", "The DESMOND program demonstrates no significant impact on weight loss.", { status: "contested" })
    expect(listedLine(contested, assessment("contested", 1, 1)).split("\n")[0]).toBe(
      "[contested: 1 paper for, 1 against] (role statement, P(finding) 0.14) The DESMOND program demonstrates no significant impact on weight loss."
    )
    // established by a replication: its own source is one paper, the status counts two
    const established = summary("c:2", "Adult macrophages are seeded before birth.", { status: "established", role: null, roleConfidence: null })
    expect(listedLine(established, assessment("established", 2, 0)).split("\n")[0])
      .toBe("[established: 2 papers for] Adult macrophages are seeded before birth.")
    // a retracted source stays said
    expect(listedLine({ ...established, papers: 2, livePapers: 1 }, assessment("established", 2, 0)).split("\n")[0])
      .toBe("[established: 2 papers for] (1 retracted) Adult macrophages are seeded before birth.")
    // an assessment that disagrees with the stored status (a stale store) is not shown
    expect(listedLine(contested, assessment("preliminary", 1, 0)).split("\n")[0]).toMatch(/^\[contested\] \(in 1 paper, role statement/)
    expect(listedLine(contested, undefined)).toBe(summaryLine(contested))
    expect(statusCount({ status: "preliminary", support: 0, opposition: 0 })).toBe("preliminary: 0 papers for")
    // statements given on their own (hypotheses), which the status does not count, are said beside the count
    expect(statusCount({ status: "preliminary", support: 0, opposition: 0, stated: ["claim-85", "claim-86"] }))
      .toBe("preliminary: 0 papers for, 2 statements without evidence")
    expect(statusCount({ status: "contested", support: 0, opposition: 1, stated: ["claim-1087"] }))
      .toBe("contested: 0 papers for, 1 against, 1 statement without evidence")
  })

  it("names a paper by its title, unless the title only spells the id", () => {
    expect(paperLabel("scirex-0b0cf7e00e75", "Attention Is All You Need")).toBe("scirex-0b0cf7e00e75 \"Attention Is All You Need\"")
    expect(paperLabel("scifact-claim-1159", "SciFact claim 1159")).toBe("scifact-claim-1159")
    expect(paperLabel("p1", "p1")).toBe("p1")
    expect(paperLabel("p1", null)).toBe("p1")
    expect(paperLabel("p1", "x".repeat(120))).toBe(`p1 "${"x".repeat(87)}..."`)
    expect(sourceLine({
      paperId: "scirex-0b0cf7e00e75",
      title: "Attention Is All You Need",
      year: 2017,
      retracted: false,
      chunkId: "k",
      page: 3,
      quote: "We propose the Transformer."
    })).toBe("scirex-0b0cf7e00e75 \"Attention Is All You Need\" (2017), page 3: \"We propose the Transformer.\"")
  })
})

describe("kg challenges and kg counterevidence", () => {
  const resolution: GraphQueries.Resolution = { query: "c:loss", by: "id", id: "c:loss", label: "No impact on weight loss.", similarity: null }

  it("counts papers in words, names each by its title, and says what each number is", () => {
    const text = renderChallenges({
      resolution,
      claim: null,
      papers: [{
        paperId: "trial-b",
        title: "DESMOND, a second trial",
        year: 2020,
        retracted: false,
        claims: [
          { id: "c:gain", text: "It caused weight loss.", edgeScore: 0.8888, page: 3, quote: "It caused weight loss.", via: "edge" },
          { id: null, text: "Weight fell.", edgeScore: 0.41, page: null, quote: "Weight fell.", via: "judged" }
        ]
      }]
    })
    expect(text).toContain("1 paper contradicts it:\n  trial-b \"DESMOND, a second trial\" (2020):\n")
    expect(text).toContain("    - (a stored contradicts edge, score 0.8888, page 3) \"It caused weight loss.\"")
    expect(text).toContain("    - (judged now, relevance x NLI confidence 0.41) \"Weight fell.\"")
    expect(text).not.toContain("(s)")
  })

  it("says how many papers back each piece of counterevidence, without '(s)'", () => {
    const text = renderCounterevidence({
      resolution,
      claim: null,
      against: [
        { claim: summary("c:gain", "It caused weight loss.", { status: "contested" }), text: "It caused weight loss.", via: "edge", support: 2, edgeScore: 0.8888, signals: {}, sources: [] },
        { claim: null, text: "Weight fell.", via: "judged", support: 1, edgeScore: 0.287, signals: {}, sources: [] }
      ]
    })
    expect(text).toContain("2 pieces of counterevidence, strongest first:")
    expect(text).toContain("1. backed by 2 independent papers; a stored contradicts edge, score 0.8888: [contested] (in 1 paper, role statement, P(finding) 0.14) It caused weight loss.")
    expect(text).toContain("2. backed by 1 independent paper; judged now, relevance x NLI confidence 0.287: (sentence) Weight fell.")
    expect(text).not.toContain("(s)")
  })
})

describe("kg foundations", () => {
  it("names the papers stating each relation by their titles", () => {
    const text = renderFoundations({
      resolution: { query: "Transformer", by: "entity", id: "e:t", label: "Transformer", similarity: null },
      roots: [{ id: "e:t", label: "Transformer", type: "Method" }],
      nodes: [{
        entity: { id: "e:mha", label: "Multi-Head Attention", type: "Method" },
        depth: 1,
        predicate: "uses",
        from: "e:t",
        papers: [{ paperId: "scirex-0b0cf7e00e75", title: "Attention Is All You Need", year: null }, { paperId: "p2", title: "p2", year: 2018 }]
      }],
      maxDepth: 3,
      truncated: false
    })
    // as the relation was stated, from the entity one level up
    expect(text).toContain("  Multi-Head Attention (Method): Transformer uses it, in scirex-0b0cf7e00e75 \"Attention Is All You Need\", p2 (2018)")
    expect(text).not.toContain("— uses")
  })
})

describe("kg lineage", () => {
  const resolution: GraphQueries.Resolution = { query: "dropout", by: "entity", id: "e:dropout", label: "dropout", similarity: null }
  const event = (paperId: string, title: string, year: number | null): GraphQueries.Lineage["events"][number] =>
    ({ year, paperId, title, relation: "mentioned", via: "mention", other: null, quote: "" })

  it("says where an idea first appears, and what came later, when every paper has a year", () => {
    const text = renderLineage({
      resolution,
      firstAppearance: { paperId: "hinton", title: "Improving neural networks by preventing co-adaptation", year: 2012 },
      events: [event("convs2s", "Convolutional Sequence to Sequence Learning", 2017)]
    })
    expect(text).toContain("first appears in hinton \"Improving neural networks by preventing co-adaptation\" (2012)")
    expect(text).toContain("later:\n  2017 convs2s \"Convolutional Sequence to Sequence Learning\": mentions it")
  })

  it("does not call a dated paper the first, nor undated papers later, when some papers have no year", () => {
    const text = renderLineage({
      resolution,
      firstAppearance: { paperId: "convs2s", title: "Convolutional Sequence to Sequence Learning", year: 2017 },
      events: [
        event("hinton", "Improving neural networks by preventing co-adaptation", null),
        event("fractal", "FractalNet", null),
        event("later", "A later paper", 2019)
      ]
    })
    expect(text).not.toContain("first appears in")
    expect(text).not.toContain("later:")
    expect(text).toContain("first appearance: unknown (2 papers without a year; add years with `kg papers set`)")
    expect(text).toContain("  earliest dated: convs2s \"Convolutional Sequence to Sequence Learning\" (2017)")
    expect(text).toContain("later dated work:\n  2019 later \"A later paper\": mentions it")
    expect(text).toContain("undated work (order unknown):\n  n.d. hinton \"Improving neural networks by preventing co-adaptation\": mentions it")
  })

  it("gives a linked claim's text once, and says a related claim is not the same finding", () => {
    const claimResolution: GraphQueries.Resolution = { query: "c:1", by: "id", id: "c:1", label: "No impact on weight loss.", similarity: null }
    const linked = (paperId: string, relation: string, text: string): GraphQueries.Lineage["events"][number] =>
      ({ year: 2020, paperId, title: paperId, relation, via: "claim_edge", other: { id: `c:${paperId}`, label: text, type: "Claim" }, quote: text })
    const text = renderLineage({
      resolution: claimResolution,
      firstAppearance: { paperId: "p1", title: "p1", year: 2020 },
      events: [linked("p2", "contradicted", "It caused weight loss."), linked("p3", "related", "No impact on lifestyle outcomes.")]
    })
    // p2 and p3 are of p1's year: p1 is not called the first, nor they later
    expect(text).toContain("first appears in 2020: p1 and 2 more papers of that year (order within the year unknown)\n")
    expect(text).toContain("the same year or later:\n  2020 p2: contradicted by its claim \"It caused weight loss.\"\n  2020 p3: a related claim (not the same finding) \"No impact on lifestyle outcomes.\"")
    expect(text).not.toMatch(/^later:/m)
    expect(text.match(/It caused weight loss/g)?.length).toBe(1)
  })

  it("reads a stored relation as it was stated, with a phrase for every predicate, never a bare identifier", () => {
    const rel = (paperId: string, predicate: string, other: string): GraphQueries.Lineage["events"][number] => ({
      year: 2017,
      paperId,
      title: paperId,
      relation: GraphQueries.relationPhrase(predicate),
      via: "relation",
      other: { id: `e:${other}`, label: other, type: "Method" },
      quote: ""
    })
    const text = renderLineage({
      resolution,
      firstAppearance: { paperId: "hinton", title: "hinton", year: 2012 },
      events: [
        rel("p1", "conjunction", "weight decay"),
        rel("p2", "uses", "ConvS2S"),
        rel("p3", "relatedTo", "data augmentation"),
        rel("p4", "basedOn", "FractalNet"),
        rel("p5", "hyponymOf", "Residual Dropout"),
        rel("p6", "trainedWith", "Model X")
      ]
    })
    expect(text).toContain("  2017 p1: weight decay is named together with dropout")
    expect(text).toContain("  2017 p2: ConvS2S uses dropout")
    expect(text).toContain("  2017 p3: data augmentation is related to dropout")
    expect(text).toContain("  2017 p4: FractalNet is built on dropout")
    expect(text).toContain("  2017 p5: Residual Dropout is a kind of dropout")
    // another ontology's predicate: its words
    expect(text).toContain("  2017 p6: Model X trained with dropout")
    // the nonsense of before: a predicate name or a verb glued to "by"
    expect(text).not.toMatch(/conjunction|relatedTo|hyponymOf| by weight decay| by ConvS2S/)
  })

  it("every predicate of the default ontology has its phrase", () => {
    const predicates = ["uses", "improves", "comparesTo", "basedOn", "appliesTo", "evaluatedOn", "measuredBy", "partOf",
      "hyponymOf", "featureOf", "conjunction", "relatedTo", "extends"]
    for (const p of predicates) {
      const phrase = GraphQueries.relationPhrase(p)
      expect(phrase).toMatch(/^[a-z ]+$/)
      // a phrase of its own, not the identifier's words read out ("conjunction", "related to")
      if (p !== "uses" && p !== "extends") expect(phrase).not.toBe(p.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase())
    }
    expect(GraphQueries.relationPhrase("uses")).toBe("uses")
    expect(GraphQueries.relationPhrase("https://w3id.org/kg/ontology#trained_with")).toBe("trained with")
  })

  it("a first paper alone in its year is the first; a quote's line breaks read as spaces", () => {
    const text = renderLineage({
      resolution,
      firstAppearance: { paperId: "hinton", title: "hinton", year: 2012 },
      events: [
        { ...event("a", "a", 2014), relation: "uses", via: "relation", other: { id: "e:a", label: "A", type: "Method" }, quote: "We use.\n\nsubsection: Regularization   We apply dropout." },
        event("b", "b", 2014)
      ]
    })
    expect(text).toContain("first appears in hinton (2012)\nlater:\n")
    expect(text).toContain("  2014 a: A uses dropout\n      \"We use. subsection: Regularization We apply dropout.\"")
    // near miss: two papers of one later year are no tie with the first
    expect(text).not.toContain("order within the year unknown")
  })

  it("with undated papers and a tie in the earliest dated year, says the year once", () => {
    const text = renderLineage({
      resolution,
      firstAppearance: { paperId: "convs2s", title: "ConvS2S", year: 2017 },
      events: [event("transformer", "Transformer", 2017), event("hinton", "Hinton", null)]
    })
    expect(text).toContain("  earliest dated (2017): convs2s and 1 more paper of that year (order within the year unknown)\n")
    expect(text).toContain("dated work, the same year or later:\n  2017 transformer: mentions it")
  })

  it("counts an undated first paper among the papers without a year", () => {
    const text = renderLineage({
      resolution,
      firstAppearance: { paperId: "a", title: "Paper A", year: null },
      events: [event("b", "Paper B", null)]
    })
    expect(text).toContain("first appearance: unknown (2 papers without a year;")
    expect(text).toContain("  undated: a \"Paper A\"")
  })
})

describe("an argument that can only be an id", () => {
  it("is a URL or IRI, or a 16-hex tail, as one word; a statement is not", () => {
    expect(looksLikeOneId(["https://w3id.org/kg/id/claim/0000000000000000"])).toBe(true)
    expect(looksLikeOneId(["cb922a3a73a81062"])).toBe(true)
    expect(looksLikeOneId(["ELUs learn faster than ReLUs"])).toBe(false)
    expect(looksLikeOneId(["ELUs", "learn", "faster"])).toBe(false)
    expect(looksLikeOneId(["cb922a3a73a81062", "0000000000000000"])).toBe(false)
    expect(looksLikeOneId(["dropout"])).toBe(false)
  })
})

describe("an unknown year", () => {
  it("is \"n.d.\" in the papers table as in kg lineage and the references, never \"????\"", () => {
    expect([yearLabel(null), yearLabel(undefined), yearLabel(2017)]).toEqual(["n.d.", "n.d.", "2017"])
    const stored = (id: string, year: number | null) => ({
      paper: { id, title: `Paper ${id}`, authors: ["A. Author"], year, source: `${id}.md`, contentHash: id, pages: null },
      ingestedAt: new Date(0),
      retracted: false,
      runId: null,
      chunks: 1,
      claims: 2
    }) as unknown as Parameters<typeof papersTable>[0][number]
    const [head, undated, dated] = papersTable([stored("p-undated", null), stored("p-dated", 2017)])
    expect(head).toMatch(/^id\s+year\s+first author/)
    expect(undated).toMatch(/^p-undated\s+n\.d\.\s+A\. Author/)
    expect(dated).toMatch(/^p-dated\s+2017\s+A\. Author/)
    expect([undated, dated].join("\n")).not.toContain("????")
    const lineage = renderLineage({
      resolution: { query: "c", by: "id", id: "c", label: "a claim", similarity: null },
      firstAppearance: { paperId: "p-undated", title: "Paper p-undated", year: null },
      events: [{ year: null, paperId: "p-undated", title: "Paper p-undated", relation: "reasserted", via: "source", other: null, quote: "q" }]
    })
    expect(lineage).toContain("n.d. ")
  })
})
