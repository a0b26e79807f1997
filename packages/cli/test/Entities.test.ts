/**
 * `kg entities <name>`: an entity with its aliases, family and variants, from a store built by `kg extract`; a blank
 * name and a missing one are clear errors with a non-zero exit.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { lastJson, removeDir, runKg, tempDir } from "./helpers.js"

describe("kg entities", () => {
  let dir = ""
  let db = ""
  beforeAll(async () => {
    dir = tempDir("kg-entities-")
    db = path.join(dir, "kg.duckdb")
    const paper = [
      "# Deeper residual networks on Pascal VOC",
      "",
      "We train ResNet on ImageNet and evaluate ResNet-50 and ResNet-101 on Pascal VOC 2012 and Pascal VOC 2007.",
      "ResNet-101 reaches 78.3% mAP on Pascal VOC 2012, and ResNet-50 reaches 76.1% mAP on Pascal VOC 2012.",
      "Pascal VOC is the standard benchmark for detection, and ResNet is a strong backbone for it."
    ].join("\n")
    fs.writeFileSync(path.join(dir, "resnet.md"), paper)
    const r = await runKg(["extract", path.join(dir, "resnet.md"), "--db", db])
    expect(r.code).toBe(0)
  }, 120_000)
  afterAll(() => removeDir(dir))

  it("lists an entity's variants by their rule, and a variant's family", async () => {
    const family = await runKg(["entities", "Pascal VOC", "--db", db, "--json"])
    expect(family.code).toBe(0)
    const found = lastJson(family)["entities"] as ReadonlyArray<{ label: string; variants: ReadonlyArray<{ label: string; rule: string }> }>
    const voc = found.find((e) => e.label === "Pascal VOC")
    expect(voc).toBeDefined()
    expect(voc!.variants.map((v) => `${v.label} (${v.rule})`)).toEqual(["Pascal VOC 2007 (year)", "Pascal VOC 2012 (year)"])
    const variant = await runKg(["entities", "Pascal VOC 2012", "--db", db])
    expect(variant.code).toBe(0)
    expect(variant.stdout).toMatch(/^Pascal VOC 2012 .*\n\s+family: Pascal VOC \(year\)/m)
  }, 60_000)

  it("a blank or missing name is an error with a non-zero exit; an unknown name is an empty answer", async () => {
    const blank = await runKg(["entities", "   ", "--db", db])
    expect(blank.code).toBe(1)
    expect(blank.stderr).toContain("kg entities needs a name with letters or digits")
    const missing = await runKg(["entities", "--db", db])
    expect(missing.code).toBe(1)
    expect(missing.stderr + missing.stdout).toMatch(/Missing argument <name>/)
    const unknown = await runKg(["entities", "no such thing at all", "--db", db])
    expect(unknown.code).toBe(0)
    expect(unknown.stdout).toContain("No stored entity is named \"no such thing at all\"")
  }, 60_000)
})
