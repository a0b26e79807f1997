/**
 * What the evaluation scripts share: where the development data sits (`shared/data/` beside the repository, or
 * `$KG_SHARED_DATA`) and the hash that puts an item in the development or the held-out half.
 */
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

/** `shared/data/<sub>/` beside the repository (a worktree may sit one level deeper), or `$KG_SHARED_DATA/<sub>/`. */
export const sharedDataDir = (sub: string): string => {
  const beside = fileURLToPath(new URL(`../../../shared/data/${sub}/`, import.meta.url))
  return [
    process.env["KG_SHARED_DATA"] === undefined ? undefined : `${process.env["KG_SHARED_DATA"]}/${sub}/`,
    beside,
    fileURLToPath(new URL(`../../../../shared/data/${sub}/`, import.meta.url))
  ].find((d): d is string => d !== undefined && existsSync(d)) ?? beside
}

/** FNV-1a 32-bit hash. */
export const fnv1a = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

export type Split = "dev" | "heldout"

/** The half of an item by the hash of its key: the development half or the held-out half. */
export const halfOf = (key: string): Split => (fnv1a(key) % 2 === 0 ? "dev" : "heldout")
