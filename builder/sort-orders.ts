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

/** Indexes into `skills` in the given order (`skills` itself is not reordered). */
export function sortedIndexes(skills: readonly SkillRecord[], sort: Sort, order: Order): number[] {
  const compare = skillComparator(sort, order);
  return skills.map((_, i) => i).sort((i, j) => compare(skills[i]!, skills[j]!));
}
