/**
 * A bounded memo of a pure function of a string: kg asks for the same keys, IRIs, stems and cleaned sentences of a
 * paper's names and sentences again and again (every chunk, the store look-up, the paper pass, the linker). The
 * memo holds at most `limit` texts and starts afresh when full (no eviction bookkeeping on the hot path).
 *
 * @since 0.1.0
 */

/**
 * `f`, remembered for the texts met lately.
 *
 * @since 0.1.0
 * @category constructors
 */
export const memoByText = <A>(f: (text: string) => A, limit = 20_000): (text: string) => A => {
  let memo = new Map<string, A>()
  return (text) => {
    // one look-up when the answer is defined (most are); `has` only for a remembered `undefined`
    const known = memo.get(text)
    if (known !== undefined || memo.has(text)) return known as A
    const out = f(text)
    if (memo.size >= limit) memo = new Map()
    memo.set(text, out)
    return out
  }
}

/**
 * {@link memoByText} per owner (an NLP service, a store): `f(owner, text)` is computed once per owner and text, each
 * owner's answers held while the owner lives.
 *
 * @since 0.1.0
 * @category constructors
 */
export const memoByOwnerAndText = <O extends object, A>(
  f: (owner: O, text: string) => A,
  limit = 20_000
): (owner: O, text: string) => A => {
  const memos = new WeakMap<O, (text: string) => A>()
  return (owner, text) => {
    let memo = memos.get(owner)
    if (memo === undefined) memos.set(owner, memo = memoByText((t) => f(owner, t), limit))
    return memo(text)
  }
}
