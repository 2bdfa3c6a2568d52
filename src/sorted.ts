/**
 * The one binary search of the project: over anything sorted, the first index whose entry is not
 * `before` the sought value (C++'s partition point). Lower and upper bounds, "index of", "last at
 * or before" and "how many are ≤" are each one call of it.
 */

/** The first index in `[0, length)` for which `before(i)` is false; `before` must be true for a prefix only. */
export function partitionPoint(length: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index of ascending `sorted` whose entry is ≥ `value`. */
export function lowerBound<T extends number | string>(sorted: ArrayLike<T>, value: T): number {
  return partitionPoint(sorted.length, (i) => sorted[i]! < value);
}

/** How many entries of ascending `sorted` are ≤ `value` (the first index whose entry is > `value`). */
export function upperBound<T extends number | string>(sorted: ArrayLike<T>, value: T): number {
  return partitionPoint(sorted.length, (i) => sorted[i]! <= value);
}

/** Index of `value` in ascending `sorted`, or -1. */
export function sortedIndexOf<T extends number | string>(sorted: ArrayLike<T>, value: T): number {
  const i = lowerBound(sorted, value);
  return i < sorted.length && sorted[i] === value ? i : -1;
}
