/**
 * A small element builder: text always goes in as text (never as HTML), so nothing from the store can inject
 * markup.
 */
type Child = Node | string | number | null | undefined | false
type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>

export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: ReadonlyArray<Child | ReadonlyArray<Child>>
): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag)
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue
    if (typeof value === "function") el.addEventListener(key.replace(/^on/, ""), value)
    else if (value === true) el.setAttribute(key, "")
    else el.setAttribute(key, String(value))
  }
  append(el, children)
  return el
}

export const append = (el: Element, children: ReadonlyArray<Child | ReadonlyArray<Child>>): void => {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue
    el.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c)
  }
}

export const clear = (el: Element): void => {
  while (el.firstChild !== null) el.removeChild(el.firstChild)
}

/** Text with some ranges wrapped in elements (marks), the rest as text. */
export const marked = (
  text: string,
  ranges: ReadonlyArray<{ readonly start: number; readonly end: number }>,
  wrap: (text: string, index: number) => HTMLElement
): DocumentFragment => {
  const frag = document.createDocumentFragment()
  let at = 0
  const sorted = [...ranges].map((r, i) => ({ ...r, i })).sort((a, b) => a.start - b.start)
  for (const r of sorted) {
    if (r.start < at) continue
    if (r.start > at) frag.append(document.createTextNode(text.slice(at, r.start)))
    frag.append(wrap(text.slice(r.start, r.end), r.i))
    at = r.end
  }
  if (at < text.length) frag.append(document.createTextNode(text.slice(at)))
  return frag
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`
