/**
 * A bounded map that forgets the least recently used entries first (a Map keeps insertion order).
 * The bound is a total weight: by default each entry weighs 1 (an entry count); with `weigh`, large
 * entries take their share, and one heavier than the whole bound is not kept.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { v: V; w: number }>();
  private total = 0;
  constructor(
    private readonly max: number,
    private readonly weigh: (v: V) => number = () => 1,
  ) {}

  get(k: K): V | undefined {
    const e = this.map.get(k);
    if (e === undefined) return undefined;
    this.map.delete(k);
    this.map.set(k, e);
    return e.v;
  }

  set(k: K, v: V): void {
    this.delete(k);
    const w = this.weigh(v);
    this.map.set(k, { v, w });
    this.total += w;
    while (this.total > this.max && this.map.size > 0) this.delete(this.map.keys().next().value as K);
  }

  delete(k: K): void {
    const e = this.map.get(k);
    if (e === undefined) return;
    this.map.delete(k);
    this.total -= e.w;
  }

  get size(): number {
    return this.map.size;
  }

  /** the sum of the entries' weights */
  get weight(): number {
    return this.total;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}
