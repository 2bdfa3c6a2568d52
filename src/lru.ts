/** A weighted least-recently-used map for every cache of the runtime (no Node built-ins). */

/**
 * A map that keeps the most recently used entries up to a total weight (an entry weighs 1 unless
 * told otherwise), dropping the least recently used first; the newest entry stays even when it
 * alone is heavier than the limit. A `Map` iterates in insertion order, so re-inserting on use
 * keeps the oldest first. Used by the loader cache (src/loader.ts) and the search index reader.
 */
export class Lru<V> {
  private readonly map = new Map<string, { value: V; weight: number }>();
  private weight = 0;
  constructor(private readonly maxWeight: number) {}

  /** The value of `key`, now the most recently used. */
  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (hit === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  /** Set `key` (the most recently used now), then drop the oldest entries while over the weight. */
  set(key: string, value: V, weight = 1): void {
    const old = this.map.get(key);
    if (old !== undefined) this.weight -= old.weight;
    this.map.delete(key);
    this.map.set(key, { value, weight });
    this.weight += weight;
    while (this.weight > this.maxWeight && this.map.size > 1) {
      const [oldest, entry] = this.map.entries().next().value!;
      this.map.delete(oldest);
      this.weight -= entry.weight;
    }
  }

  /** Forget `key`. */
  delete(key: string): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    this.weight -= old.weight;
    this.map.delete(key);
  }

  /** Forget every entry. */
  clear(): void {
    this.map.clear();
    this.weight = 0;
  }

  /** How many entries are kept. */
  get size(): number {
    return this.map.size;
  }
}
