/**
 * The list orders (docs/decisions.md §4): `stars`, `updated` (by `updatedAt`) and `name`, each `asc` or
 * `desc`, ties always broken by `id` ascending so every order is total and deterministic.
 */
import type { Order, Sort } from '../src/paths.ts';
import type { SkillRecord } from './model.ts';

/**
 * Display names compare case- and accent-insensitively with a fixed English collation, never the
 * environment's locale, so two builds under different `LANG` give the same order.
 */
const nameCollator = new Intl.Collator('en', { sensitivity: 'base' });

/** Plain code-unit comparison (locale-free), used for ids. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareKey(sort: Sort, a: SkillRecord, b: SkillRecord): number {
  switch (sort) {
    case 'stars':
      return a.stars - b.stars;
    case 'updated':
      return Date.parse(a.updatedAt) - Date.parse(b.updatedAt);
    case 'name':
      return nameCollator.compare(a.name, b.name);
  }
}

/** Comparator of one list order: the sort key in `order`, then `id` ascending. */
export function skillComparator(sort: Sort, order: Order): (a: SkillRecord, b: SkillRecord) => number {
  const sign = order === 'asc' ? 1 : -1;
  return (a, b) => sign * compareKey(sort, a, b) || compareCodeUnits(a.id, b.id);
}

/**
 * Indexes into `skills` in the given order (`skills` itself is not reordered): the order of
 * `skillComparator`, with each skill's sort key computed once (`sortKeys`) instead of in every
 * comparison. When the ids ascend strictly (the tree sorts its skills by id), an index orders two
 * skills as their ids do, so ties compare indexes instead of strings; and `desc` is then the
 * runs of equal keys of `asc` in reverse, each run kept in ascending order, with no second sort.
 */
export function sortedIndexes(skills: readonly SkillRecord[], sort: Sort, order: Order): number[] {
  const key = sortKeys(skills, sort);
  if (!idsAscend(skills)) {
    const sign = order === 'asc' ? 1 : -1;
    return skills.map((_, i) => i).sort((i, j) => sign * (key[i]! - key[j]!) || compareCodeUnits(skills[i]!.id, skills[j]!.id));
  }
  let bySort = ascendingOf.get(skills);
  if (bySort === undefined) ascendingOf.set(skills, (bySort = new Map()));
  let asc = bySort.get(sort);
  if (asc === undefined) bySort.set(sort, (asc = skills.map((_, i) => i).sort((i, j) => key[i]! - key[j]! || i - j)));
  if (order === 'asc') return [...asc];
  // A NaN key (an unparsable date) compares as a tie with every key: no runs to reverse.
  if (!key.every(Number.isFinite)) return skills.map((_, i) => i).sort((i, j) => key[j]! - key[i]! || i - j);
  const desc: number[] = new Array<number>(asc.length);
  let out = 0;
  for (let end = asc.length; end > 0; ) {
    let start = end - 1;
    while (start > 0 && key[asc[start - 1]!] === key[asc[end - 1]!]) start--;
    for (let k = start; k < end; k++) desc[out++] = asc[k]!;
    end = start;
  }
  return desc;
}

/** Ascending orders already sorted, per skills array and sort (their ids ascending). */
const ascendingOf = new WeakMap<readonly SkillRecord[], Map<Sort, number[]>>();

/** Whether the ids of `skills` ascend strictly in code-unit order. */
function idsAscend(skills: readonly SkillRecord[]): boolean {
  for (let i = 1; i < skills.length; i++) if (!(skills[i - 1]!.id < skills[i]!.id)) return false;
  return true;
}

/** Sort keys already computed, per skills array and sort. */
const keysOf = new WeakMap<readonly SkillRecord[], Map<Sort, Float64Array>>();

/**
 * Per skill, a number whose difference orders two skills as `compareKey` does: stars, the parsed
 * `updatedAt` (NaN stays NaN, so ties go to the id as before), and for names the rank of the
 * name among all names under the collator (equal names, equal ranks), so the costly collator
 * runs in one sort instead of in every comparison of every name order.
 */
function sortKeys(skills: readonly SkillRecord[], sort: Sort): Float64Array {
  let bySort = keysOf.get(skills);
  if (bySort === undefined) keysOf.set(skills, (bySort = new Map()));
  let keys = bySort.get(sort);
  if (keys !== undefined) return keys;
  if (sort === 'stars') keys = Float64Array.from(skills, (s) => s.stars);
  else if (sort === 'updated') keys = Float64Array.from(skills, (s) => Date.parse(s.updatedAt));
  else {
    keys = new Float64Array(skills.length);
    const compare = nameComparator(skills);
    const byName = skills.map((_, i) => i).sort(compare);
    let rank = 0;
    byName.forEach((i, k) => {
      if (k > 0 && compare(byName[k - 1]!, i) !== 0) rank++;
      keys![i] = rank;
    });
  }
  bySort.set(sort, keys);
  return keys;
}

/**
 * Names made only of ASCII letters, digits, spaces, `-` and `.`: each of those characters has one
 * primary weight of its own under the collator (case aside), and space < `-` < `.` < digits <
 * letters there as in code units, so the collator orders two such names as their lower-cased
 * code units (`test/write-tree.test.ts` checks it against the collator).
 */
const PLAIN_NAME = /^[A-Za-z0-9 .-]*$/;

/**
 * A comparator of the indexes of `skills` by name, the collator's order: plain names (most of
 * them) compare as lower-cased code units, any other pair through the collator.
 */
export function nameComparator(skills: readonly SkillRecord[]): (i: number, j: number) => number {
  const plain = skills.map((s) => (PLAIN_NAME.test(s.name) ? s.name.toLowerCase() : undefined));
  return (i, j) => {
    const a = plain[i];
    const b = plain[j];
    return a !== undefined && b !== undefined ? compareCodeUnits(a, b) : nameCollator.compare(skills[i]!.name, skills[j]!.name);
  };
}
