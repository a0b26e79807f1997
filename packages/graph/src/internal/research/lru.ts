/**
 * A bounded least-recently-used memo, for what answers compute from stored
 * text whatever the question (sentences of a chunk or a record, their facts).
 *
 * @internal
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, V>()
  constructor(private readonly capacity: number) {}
  get(key: K, make: () => V): V {
    const hit = this.entries.get(key)
    if (hit !== undefined || this.entries.has(key)) {
      this.entries.delete(key)
      this.entries.set(key, hit as V)
      return hit as V
    }
    const value = make()
    this.entries.set(key, value)
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K)
    return value
  }
}
