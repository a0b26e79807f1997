/**
 * The paper similarity graph's parts: TF-IDF vectors over paper text, k nearest papers above a floor, Louvain
 * communities (seeded: the same graph, the same communities), and the labels drawn on paper nodes.
 */
import { describe, expect, it } from "@effect/vitest"
import { byline, communities, nearestEdges, shortTitle, termCounts, tfidfVectors } from "../src/internal/graphViews.js"

const translation = [
  "neural machine translation with attention improves BLEU on WMT English German translation",
  "we train a transformer for translation; BLEU on WMT English French and English German rises",
  "beam search decoding for neural machine translation: BLEU on IWSLT German English",
  "convolutional sequence to sequence translation reaches higher BLEU on WMT English Romanian"
]
const vision = [
  "residual networks for image classification: top-1 error on ImageNet and CIFAR-10 drops",
  "data augmentation with random erasing lowers CIFAR-10 classification error of residual networks",
  "depthwise separable convolutions for image classification on ImageNet: top-1 accuracy",
  "wide residual networks reach low error on CIFAR-100 image classification"
]

describe("paper similarity graph", () => {
  const docs = new Map([...translation.map((t, i) => [`t${i}`, termCounts(t)] as const), ...vision.map((t, i) => [`v${i}`, termCounts(t)] as const)])

  it("links papers within a topic and never across two unrelated topics", () => {
    const edges = nearestEdges(tfidfVectors(docs), 2, 0.05)
    expect(edges.length).toBeGreaterThanOrEqual(4)
    for (const e of edges) expect(e.a[0], `${e.a} - ${e.b}`).toBe(e.b[0])
    // one edge per pair, scores in (0, 1]
    expect(new Set(edges.map((e) => `${e.a}|${e.b}`)).size).toBe(edges.length)
    for (const e of edges) expect(e.score).toBeGreaterThan(0)
  })

  it("a floor above every similarity leaves no edge, and words of one paper weigh nothing", () => {
    expect(nearestEdges(tfidfVectors(docs), 3, 0.99)).toEqual([])
    const vectors = tfidfVectors(new Map([["a", termCounts("unique alpha words")], ["b", termCounts("other beta terms")]]))
    expect(vectors.get("a")!.size).toBe(0)
  })

  it("communities follow the topics, numbered by size, and are the same on every run", () => {
    const vectors = tfidfVectors(docs)
    const edges = nearestEdges(vectors, 2, 0.05)
    const ids = Array.from(docs.keys())
    const first = communities(ids, edges)
    expect(communities(ids, edges)).toEqual(first)
    const of = (prefix: string) => new Set(ids.filter((id) => id.startsWith(prefix)).map((id) => first.get(id)))
    expect(of("t").size).toBe(1)
    expect(of("v").size).toBe(1)
    expect([...of("t")][0]).not.toBe([...of("v")][0])
    // an isolated paper is a community of its own, after the real ones
    const withLoner = communities([...ids, "loner"], edges)
    expect(withLoner.get("loner")).toBe(2)
  })

  it("labels: short titles cut at a word, bylines from the first author and year", () => {
    expect(shortTitle("Attention Is All You Need")).toBe("Attention Is All You Need")
    expect(shortTitle("Deep Residual Learning for Image Recognition in the Wild at Scale")).toBe("Deep Residual Learning for Image Recognition in…")
    expect(shortTitle("SliceNet: Depthwise Separable Convolutions for Neural Machine Translation")).toBe("SliceNet: Depthwise Separable Convolutions for…")
    expect(shortTitle("Striving for Simplicity: The All Convolutional Net")).toBe("Striving for Simplicity")
    expect(shortTitle("A".repeat(80)).length).toBeLessThanOrEqual(49)
    expect(byline(["Ashish Vaswani", "Noam Shazeer"], 2017)).toBe("Vaswani et al. 2017")
    expect(byline(["He, Kaiming"], null)).toBe("He")
    expect(byline(null, 2016)).toBe("2016")
    expect(byline([], null)).toBeNull()
  })
})
