/**
 * A small seeded generator of numbers in [0, 1) (mulberry32), for everything
 * kg makes reproducible: the LSH hyperplanes of claim linking, the role
 * classifier's minibatches, Louvain's tie-breaking in the graph views. The
 * same seed gives the same sequence on every platform (32-bit integer
 * arithmetic only).
 *
 * @since 0.1.0
 */

/**
 * mulberry32: a generator of numbers in [0, 1) from a 32-bit seed.
 *
 * @since 0.1.0
 * @category constructors
 */
export const mulberry32 = (seed: number): () => number => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
