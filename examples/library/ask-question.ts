/**
 * Ask a research question from your own Effect program: extract the example
 * corpus (skipped when already stored), then run the research funnel and print
 * the answer with its verified citations, references and claim statuses.
 * Run: `pnpm tsx examples/library/ask-question.ts ["question"] [db]`.
 */
import * as Effect from "effect/Effect"
import * as Kg from "@kg/graph/Kg"

const question = process.argv[2] ?? "How reliable is human evaluation of faithfulness in long-form summarization?"
const db = process.argv[3] ?? "kg-example.duckdb"

const program = Effect.gen(function*() {
  yield* Kg.extract(["examples/corpus"])
  const answer = yield* Kg.research(question, { onProgress: (line) => Effect.sync(() => console.error(line)) })
  console.log(answer.answer)
  for (const c of answer.citations) console.log(`  [${c.paper_id}, page ${c.page ?? "-"}] "${c.quote.slice(0, 100).replace(/\s+/g, " ")}"`)
  console.log(`references: ${answer.references.map((r) => r.paper_id).join(", ")}`)
  console.log(`ungrounded sentences: ${answer.ungrounded.length}`)
})

Effect.runPromise(program.pipe(Effect.provide(Kg.layerOffline({ db })))).catch((error) => {
  console.error(String(error))
  process.exitCode = 1
})
