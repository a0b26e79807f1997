/**
 * The law harness: one set of properties per algebra, run on every instance.
 * Each function returns named fast-check properties so a test can assert
 * that a lawful instance passes every law and that a deliberately broken
 * instance fails the law it breaks (the harness can fail).
 */
import * as fc from "fast-check"

export interface MonoidInstance<A> {
  readonly empty: A
  readonly combine: (a: A, b: A) => A
  readonly equals: (a: A, b: A) => boolean
}

export const monoidLaws = <A>(M: MonoidInstance<A>, arb: fc.Arbitrary<A>) => ({
  associativity: fc.property(arb, arb, arb, (a, b, c) =>
    M.equals(M.combine(M.combine(a, b), c), M.combine(a, M.combine(b, c)))),
  leftIdentity: fc.property(arb, (a) => M.equals(M.combine(M.empty, a), a)),
  rightIdentity: fc.property(arb, (a) => M.equals(M.combine(a, M.empty), a))
})

/** Laws of a bounded join-semilattice-like monoid: idempotence and monotonicity w.r.t. `leq`. */
export const idempotentMonotoneLaws = <A>(
  M: MonoidInstance<A>,
  arb: fc.Arbitrary<A>,
  leq: (smaller: A, larger: A) => boolean
) => ({
  idempotence: fc.property(arb, (a) => M.equals(M.combine(a, a), a)),
  monotonicityLeft: fc.property(arb, arb, (a, b) => leq(a, M.combine(a, b))),
  monotonicityRight: fc.property(arb, arb, (a, b) => leq(b, M.combine(a, b)))
})

export const commutativityLaw = <A>(M: MonoidInstance<A>, arb: fc.Arbitrary<A>) => ({
  commutativity: fc.property(arb, arb, (a, b) => M.equals(M.combine(a, b), M.combine(b, a)))
})

/** Run one law; `failed` is true when fast-check found a counterexample. */
export const checkLaw = (property: fc.IProperty<unknown> | fc.IPropertyWithHooks<unknown>, numRuns = 200) =>
  fc.check(property as fc.IProperty<unknown>, { numRuns, seed: 42 })
