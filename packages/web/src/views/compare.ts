/**
 * The studio page: extraction variants compared on gold (prompt A/B): a SciERC-format gold file on the server's
 * disk, 2-6 variants (provider, model, instructions), run as a job whose progress streams in; the result is a
 * table of the variants side by side (entity and relation F1, predictions, tokens, cost, time, failures).
 */
import { type Job, type JobEvent, postJson, stream } from "../api.js"
import { clear, h } from "../dom.js"
import { errorBox, table } from "../widgets.js"

interface Row {
  readonly name: string
  readonly provider: string
  readonly model: string
  readonly documents: number
  readonly entityF1: number
  readonly entityF1Lenient: number
  readonly relationF1: number
  readonly relationF1Lenient: number
  readonly predictedEntities: number
  readonly predictedRelations: number
  readonly inputTokens: number
  readonly outputTokens: number
  readonly costUsd: number | null
  readonly seconds: number
  readonly failed: number
}

const variantFields = (i: number, preset: { name: string; provider: string }) => {
  const name = h("input", { type: "text", id: `v${i}-name`, value: preset.name, maxlength: 60, class: "narrow" })
  const provider = h("select", { id: `v${i}-provider` },
    ...["offline", "anthropic", "openai"].map((p) => h("option", { value: p }, p)))
  provider.value = preset.provider
  const model = h("input", { type: "text", id: `v${i}-model`, placeholder: "model (default of the provider)" })
  const instructions = h("textarea", { id: `v${i}-instructions`, rows: 3, placeholder: "instructions replacing the extraction prompt's (LLM only; empty: the default)" })
  const sync = () => {
    model.disabled = instructions.disabled = provider.value === "offline"
  }
  provider.addEventListener("change", sync)
  sync()
  const box = h("fieldset", { class: "variant" }, h("legend", {}, `Variant ${i + 1}`),
    h("div", { class: "row wrap" }, h("label", { for: `v${i}-name` }, "name"), name, h("label", { for: `v${i}-provider` }, "provider"), provider,
      h("label", { for: `v${i}-model` }, "model"), model),
    h("label", { for: `v${i}-instructions` }, "instructions"), instructions)
  return {
    box,
    value: () => ({
      name: name.value.trim() || `variant ${i + 1}`,
      provider: provider.value,
      ...(provider.value !== "offline" && model.value.trim() !== "" ? { model: model.value.trim() } : {}),
      ...(provider.value !== "offline" && instructions.value.trim() !== "" ? { instructions: instructions.value } : {})
    })
  }
}

export const compareView = async (main: HTMLElement): Promise<void> => {
  const gold = h("input", { id: "cmp-gold", type: "text", placeholder: "/data/scierc_dev_flat.jsonl (on the server's disk)" })
  const limit = h("input", { id: "cmp-limit", type: "number", min: 1, max: 2000, value: 50, class: "narrow" })
  const variants = [variantFields(0, { name: "A", provider: "offline" }), variantFields(1, { name: "B", provider: "anthropic" })]
  const list = h("div", { class: "variants" }, variants.map((v) => v.box))
  const add = h("button", { type: "button" }, "Add a variant")
  add.addEventListener("click", () => {
    if (variants.length >= 6) return
    const v = variantFields(variants.length, { name: String.fromCharCode(65 + variants.length), provider: "anthropic" })
    variants.push(v)
    list.append(v.box)
    add.disabled = variants.length >= 6
  })
  const progress = h("p", { class: "muted", "aria-live": "polite" })
  const result = h("div", { "data-testid": "compare-result" })
  const form = h("form", { class: "card add-form", "aria-label": "Compare extraction variants" },
    h("p", {}, "Extract the documents of a SciERC-format gold file with each variant and score them side by side ",
      "(as ", h("code", {}, "kg eval extraction --compare"), "). LLM variants are billed by their provider."),
    h("div", { class: "row wrap" }, h("label", { for: "cmp-gold" }, "gold file"), gold, h("label", { for: "cmp-limit" }, "first documents"), limit),
    list, h("p", { class: "row wrap" }, add, h("button", { type: "submit", class: "primary" }, "Compare")))
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault()
    clear(result)
    progress.textContent = ""
    try {
      const job = await postJson<Job>("/jobs/compare", {
        gold: gold.value.trim(),
        limit: Number(limit.value) || 50,
        variants: variants.map((v) => v.value())
      })
      await stream<JobEvent>(`/jobs/${encodeURIComponent(job.jobId)}/events`, {}, (e) => {
        if (e.kind === "variant") progress.textContent = e.message
        if (e.kind === "failed") result.append(h("p", { class: "error" }, e.message))
        if (e.kind === "completed" && e.job?.summary) {
          progress.textContent = e.message
          const rows = (e.job.summary["variants"] ?? []) as ReadonlyArray<Row>
          const best = Math.max(...rows.map((r) => r.entityF1))
          result.append(table(
            ["variant", "extractor", "entity F1", "lenient", "relation F1", "lenient", "entities", "relations", "tokens in / out", "cost", "time", "failed"],
            rows.map((r) => [
              r.entityF1 === best ? h("strong", {}, r.name) : r.name,
              `${r.provider} (${r.model})`,
              r.entityF1.toFixed(3),
              r.entityF1Lenient.toFixed(3),
              r.relationF1.toFixed(3),
              r.relationF1Lenient.toFixed(3),
              String(r.predictedEntities),
              String(r.predictedRelations),
              `${r.inputTokens} / ${r.outputTokens}`,
              r.costUsd === null ? "—" : `$${r.costUsd.toFixed(4)}`,
              `${r.seconds} s`,
              String(r.failed)
            ]),
            `${rows.length} variants on ${rows[0]?.documents ?? 0} documents`
          ))
        }
      })
    } catch (e) {
      result.append(errorBox(e))
    }
  })
  main.append(h("h1", {}, "Compare extraction variants"), form, progress, result)
}
