/**
 * Seeded pseudo-random numbers for the synthetic content generator: the same seed gives the same
 * sequence on every machine and Node version (no Math.random, no floating-point library calls
 * whose last bits could differ: only integer arithmetic, `Math.log`, `Math.sqrt`, `Math.cos` and
 * `Math.exp`, which V8 computes with its own portable fdlibm port).
 */

/** 32-bit FNV-1a hash of a string, for deriving independent seeds from names. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A small, fast generator (sfc32) with the helpers the generator needs. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** Seed from any string; two different strings give unrelated sequences. */
  constructor(seed: string) {
    this.a = hash32(`a:${seed}`);
    this.b = hash32(`b:${seed}`);
    this.c = hash32(`c:${seed}`);
    this.d = hash32(`d:${seed}`) | 1;
    // Warm up: the first outputs of sfc32 from hashed seeds are still correlated.
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** Next unsigned 32-bit integer. */
  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [min, max]. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Uniformly chosen element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** Standard normal deviate (Box–Muller). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1]: log(0) would be -Infinity
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Log-normal deviate with the given median and log-space standard deviation. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}

/**
 * Sampler of ranks 0..n-1 with probability ∝ 1/(rank+1)^s (Zipf's law), by binary search in a
 * precomputed cumulative table: O(log n) per draw, no allocation.
 */
export class Zipf {
  private readonly cdf: Float64Array;

  constructor(n: number, s: number) {
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      sum += 1 / Math.pow(i + 1, s);
      this.cdf[i] = sum;
    }
    for (let i = 0; i < n; i++) this.cdf[i] = (this.cdf[i] as number) / sum;
  }

  /** A rank drawn with `rng`. */
  draw(rng: Rng): number {
    const u = rng.next();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cdf[mid] as number) > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
