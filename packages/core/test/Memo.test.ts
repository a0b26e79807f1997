import { describe, expect, it } from "@effect/vitest"
import { memoByOwnerAndText, memoByText } from "../src/Memo.js"

describe("Memo", () => {
  it("memoByText computes a text once, a remembered null included, and starts afresh when full", () => {
    const calls: Array<string> = []
    const f = memoByText((t: string) => {
      calls.push(t)
      return t === "none" ? null : t.length
    }, 2)
    expect([f("ab"), f("ab"), f("none"), f("none")]).toEqual([2, 2, null, null])
    expect(calls).toEqual(["ab", "none"])
    f("abc") // the memo was full: it starts afresh
    f("ab")
    expect(calls).toEqual(["ab", "none", "abc", "ab"])
  })

  it("memoByOwnerAndText keeps each owner's answers apart", () => {
    const calls: Array<string> = []
    const f = memoByOwnerAndText((owner: { readonly name: string }, t: string) => {
      calls.push(`${owner.name}:${t}`)
      return `${owner.name}/${t}`
    })
    const a = { name: "a" }
    const b = { name: "b" }
    expect([f(a, "x"), f(b, "x"), f(a, "x"), f(b, "x")]).toEqual(["a/x", "b/x", "a/x", "b/x"])
    expect(calls).toEqual(["a:x", "b:x"])
  })
})
