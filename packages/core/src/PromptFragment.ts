/**
 * Prompts as a free monoid of fragments.
 *
 * A `Prompt` is a list of `Fragment`s (instructions, ontology context,
 * examples, the entity cache, the chunk); `combine` is concatenation and
 * `empty` the empty list, so the laws of a monoid hold by construction.
 * `render` is a fold of the list into text and is a monoid homomorphism onto
 * strings joined by a blank line: `render(a ++ b) = join(render(a), render(b))`.
 *
 * Fragments are either static (the same for every chunk of a run:
 * instructions, ontology, examples) or dynamic (entity cache, chunk).
 * `split` renders the two parts separately; the static part is byte-identical
 * for every chunk, which is what lets provider prompt caching hit.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import type { EntityRef } from "./EntityCache.js"

/**
 * One piece of a prompt.
 *
 * @since 0.1.0
 * @category models
 */
export type Fragment = Data.TaggedEnum<{
  Instructions: { readonly text: string }
  OntologyContext: { readonly text: string }
  Examples: { readonly examples: ReadonlyArray<{ readonly input: string; readonly output: string }> }
  EntityCache: { readonly entities: ReadonlyArray<EntityRef> }
  ChunkText: { readonly text: string; readonly label: string }
}>

/**
 * Constructors of {@link Fragment}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const Fragment = Data.taggedEnum<Fragment>()

/**
 * A prompt: a list of fragments (the free monoid on `Fragment`).
 *
 * @since 0.1.0
 * @category models
 */
export type Prompt = ReadonlyArray<Fragment>

/** @since 0.1.0 @category monoid */
export const empty: Prompt = []

/** @since 0.1.0 @category monoid */
export const combine = (a: Prompt, b: Prompt): Prompt => (a.length === 0 ? b : b.length === 0 ? a : [...a, ...b])

/** @since 0.1.0 @category monoid */
export const combineAll = (prompts: Iterable<Prompt>): Prompt => {
  const out: Array<Fragment> = []
  for (const p of prompts) out.push(...p)
  return out
}

/** @since 0.1.0 @category constructors */
export const of = (...fragments: ReadonlyArray<Fragment>): Prompt => fragments

/**
 * Whether a fragment is the same for every chunk of a run.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isStatic = (f: Fragment): boolean =>
  f._tag === "Instructions" || f._tag === "OntologyContext" || f._tag === "Examples"

const SEPARATOR = "\n\n"

/**
 * Render one fragment (the algebra of the fold). Pure and deterministic.
 *
 * @since 0.1.0
 * @category rendering
 */
export const renderFragment: (f: Fragment) => string = Fragment.$match({
  Instructions: ({ text }) => text.trim(),
  OntologyContext: ({ text }) => `<ontology>\n${text.trim()}\n</ontology>`,
  Examples: ({ examples }) =>
    examples.length === 0
      ? ""
      : `<examples>\n${
        examples.map((e, i) => `<example n="${i + 1}">\n<input>\n${e.input}\n</input>\n<output>\n${e.output}\n</output>\n</example>`)
          .join("\n")
      }\n</examples>`,
  EntityCache: ({ entities }) =>
    entities.length === 0
      ? ""
      : `<known_entities>\nReuse these names when the text refers to the same thing:\n${
        entities.map((e) => `- ${e.label} (${e.type})${e.aliases.length > 0 ? ` aka ${e.aliases.join("; ")}` : ""}`).join("\n")
      }\n</known_entities>`,
  ChunkText: ({ label, text }) => `<chunk id="${label}">\n${text}\n</chunk>`
})

/**
 * Join two rendered texts with the separator, the empty string being the unit.
 *
 * @since 0.1.0
 * @category rendering
 */
export const joinRendered = (a: string, b: string): string => (a === "" ? b : b === "" ? a : a + SEPARATOR + b)

/**
 * Render a prompt: a left fold of {@link renderFragment} with {@link joinRendered}.
 *
 * @since 0.1.0
 * @category rendering
 */
export const render = (prompt: Prompt): string =>
  prompt.reduce((acc, f) => joinRendered(acc, renderFragment(f)), "")

/**
 * Render the static and the dynamic parts separately, each in the order given.
 *
 * @since 0.1.0
 * @category rendering
 */
export const split = (prompt: Prompt): { readonly system: string; readonly user: string } => ({
  system: render(prompt.filter(isStatic)),
  user: render(prompt.filter((f) => !isStatic(f)))
})
