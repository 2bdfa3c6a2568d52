/**
 * builder/write-tree.ts and its helpers: the layout written, determinism, the description cut and
 * the list orders. The API-level answers are checked by the contract suite (handler-memory).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonText, type Content } from '../builder/model.ts';
import { pageKeeper, type PageInputs, type PageMemo } from '../builder/page-memo.ts';
import { compareCodeUnits, nameComparator, skillComparator, sortedIndexes } from '../builder/sort-orders.ts';
import { truncateDescription } from '../builder/summary.ts';
import { writeTree } from '../builder/write-tree.ts';
import { searchOrder } from '../builder/search-index.ts';
import type { SkillRecord } from '../builder/model.ts';
import { checkManifest } from '../src/manifest.ts';
import { FORMAT_VERSION, MANIFEST_PATH, ORDERS, PAGE_SIZE, SORTS, hasListPages, listKey, listOrdinalsPath, listPagePath, ordinalLocation, type ListFilter } from '../src/paths.ts';
import { CategoryDetailResponse, CategoryListResponse, SkillContentResponse, SkillDetailResponse, SkillListResponse, SkillStatsResponse } from '../src/schemas.ts';
import { fixtureContent } from './helpers/runtime-content.ts';

async function build(content: Content): Promise<{ files: Map<string, unknown>; order: string[] }> {
  const files = new Map<string, unknown>();
  const order: string[] = [];
  const manifest = await writeTree(content, async (path, data) => {
    expect(files.has(path), `emitted twice: ${path}`).toBe(false);
    files.set(path, JSON.parse(JSON.stringify(data)));
    order.push(path);
  });
  expect(files.get(MANIFEST_PATH)).toEqual(manifest);
  return { files, order };
}

describe('truncateDescription', () => {
  it.each([
    ['short text', 'short text'],
    ['a'.repeat(200), 'a'.repeat(200)],
    [`${'word '.repeat(40)}end`, `${'word '.repeat(39)}word…`],
    [`${'a'.repeat(150)} ${'b'.repeat(100)}`, `${'a'.repeat(150)}…`],
    ['x'.repeat(300), `${'x'.repeat(199)}…`],
    [`${'x'.repeat(198)}😀yyy`, `${'x'.repeat(198)}…`],
    [`${'a'.repeat(198)}   ${'b'.repeat(10)}`, `${'a'.repeat(198)}…`],
    [`${'a'.repeat(199)} b`, `${'a'.repeat(199)}…`],
  ])('%#', (input, expected) => {
    expect(truncateDescription(input)).toBe(expected);
  });

  it('never exceeds 200, keeps a prefix, cuts at a word end, leaves no lone surrogate', () => {
    const text = fc.array(fc.oneof(fc.constantFrom(' ', '\n', 'é', '😀', 'ab'), fc.string({ unit: 'grapheme', maxLength: 12 })), { maxLength: 120 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const cut = truncateDescription(t);
        if (t.length <= 200) return cut === t;
        const head = cut.slice(0, -1);
        expect(cut.length).toBeLessThanOrEqual(200);
        expect(cut.endsWith('…')).toBe(true);
        expect(t.startsWith(head)).toBe(true);
        expect(/[\uD800-\uDBFF]$/.test(head)).toBe(false);
        // A word cut: whitespace follows the head, or the first 199 units hold no whitespace.
        expect(/\s/.test(t[head.length] ?? '') || !/\s/.test(t.slice(1, 200))).toBe(true);
        return true;
      }),
    );
  });
});

describe('skillComparator', () => {
  const base = fixtureContent(1).skills[0]!;
  const s = (id: string, name: string, stars = 1, updatedAt = '2024-01-01T00:00:00.000Z') => ({ ...base, id, name, stars, updatedAt });

  it('breaks ties by id ascending in both orders', () => {
    const a = s('a/x', 'Same');
    const b = s('b/x', 'Same');
    for (const sort of SORTS) for (const order of ORDERS) expect(skillComparator(sort, order)(a, b), `${sort}-${order}`).toBeLessThan(0);
  });

  it('compares names case- and accent-insensitively, independent of the environment locale', () => {
    const names = ['zebra', 'Ångström', 'alpha', 'Alpha', 'Écho', 'echo', 'Zulu', '42'];
    const sorted = names.map((n, i) => s(`o/${String(i)}`, n)).sort(skillComparator('name', 'asc')).map((x) => x.name);
    expect(sorted).toEqual(['42', 'alpha', 'Alpha', 'Ångström', 'Écho', 'echo', 'zebra', 'Zulu']);
  });

  it('is a total order consistent with itself (property)', () => {
    const skill = fc.record({ id: fc.string({ minLength: 1, maxLength: 4 }), name: fc.constantFrom('a', 'A', 'b', 'É', 'e'), stars: fc.nat(3) }).map((r) => s(r.id, r.name, r.stars));
    fc.assert(
      fc.property(fc.uniqueArray(skill, { selector: (x) => x.id, maxLength: 12 }), fc.constantFrom(...SORTS), fc.constantFrom(...ORDERS), (skills, sort, order) => {
        const compare = skillComparator(sort, order);
        const once = [...skills].sort(compare).map((x) => x.id);
        const twice = [...skills].reverse().sort(compare).map((x) => x.id);
        expect(twice).toEqual(once);
      }),
    );
  });

  it('sortedIndexes gives the comparator\'s order, ids ascending or not, ties and unparsable dates included (property)', () => {
    const date = fc.constantFrom('2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z', 'not a date');
    const skill = fc.record({ id: fc.string({ minLength: 1, maxLength: 3 }), name: fc.constantFrom('a', 'A', 'b', 'É', 'e'), stars: fc.nat(3), updatedAt: date }).map((r) => s(r.id, r.name, r.stars, r.updatedAt));
    fc.assert(
      fc.property(fc.uniqueArray(skill, { selector: (x) => x.id, maxLength: 14 }), fc.boolean(), (drawn, byId) => {
        const skills = byId ? [...drawn].sort((a, b) => compareCodeUnits(a.id, b.id)) : drawn;
        for (const sort of SORTS) {
          for (const order of ORDERS) {
            const expected = [...skills].sort(skillComparator(sort, order)).map((x) => x.id);
            expect(sortedIndexes(skills, sort, order).map((i) => skills[i]!.id), `${sort}-${order}`).toEqual(expected);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('searchOrder is stars desc, updatedAt desc, id asc, ids ascending or not, ties and unparsable dates included (property)', () => {
    const date = fc.constantFrom('2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z', 'not a date');
    const skill = fc.record({ id: fc.string({ minLength: 1, maxLength: 3 }), stars: fc.nat(3), updatedAt: date }).map((r) => s(r.id, 'n', r.stars, r.updatedAt));
    const reference = (a: { stars: number; updatedAt: string; id: string }, b: typeof a): number =>
      b.stars - a.stars || Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || compareCodeUnits(a.id, b.id);
    fc.assert(
      fc.property(fc.uniqueArray(skill, { selector: (x) => x.id, maxLength: 14 }), fc.boolean(), (drawn, byId) => {
        const skills = byId ? [...drawn].sort((a, b) => compareCodeUnits(a.id, b.id)) : drawn;
        expect(searchOrder(skills as unknown as SkillRecord[]).map((x) => x.id)).toEqual([...skills].sort(reference).map((x) => x.id));
      }),
      { numRuns: 500 },
    );
  });

  it('nameComparator orders plain names as the collator does, and every other name through it (property)', () => {
    const collator = new Intl.Collator('en', { sensitivity: 'base' });
    const name = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'aAbBzZ09 -.mM'.split('')), maxLength: 6 }),
      fc.string({ unit: fc.constantFrom(...'aA -._,!É~é0'.split('')), maxLength: 5 }),
    );
    fc.assert(
      fc.property(fc.array(name, { minLength: 2, maxLength: 12 }), (names) => {
        const compare = nameComparator(names.map((n, i) => s(`o/${String(i)}`, n)));
        for (let i = 0; i < names.length; i++) {
          for (let j = 0; j < names.length; j++) expect(Math.sign(compare(i, j)), `${JSON.stringify(names[i])} ${JSON.stringify(names[j])}`).toBe(Math.sign(collator.compare(names[i]!, names[j]!)));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('compareCodeUnits is plain code-unit order', () => {
    expect(['b', 'B', 'a', 'Z', 'é'].sort(compareCodeUnits)).toEqual(['B', 'Z', 'a', 'b', 'é']);
  });
});

describe('writeTree', () => {
  it('writes every layout file with valid shapes and returns a valid manifest', async () => {
    const content = fixtureContent();
    const { files } = await build(content);
    const manifest = checkManifest(files.get(MANIFEST_PATH));
    expect(manifest).toMatchObject({ format: FORMAT_VERSION, pageSize: PAGE_SIZE, skillCount: content.skills.length });
    expect(manifest.locales).toEqual(['en', 'de', 'fr', 'ja', 'ko', 'pt-BR', 'zh-TW']);
    expect(manifest.categories).toEqual(['ci-cd', 'dev', 'empty', 'git', 'ops', 'review', 'writing']);
    expect(manifest.platforms).toEqual(['chatgpt', 'claude-code', 'codex']);
    expect(manifest.search).toBeUndefined();

    for (const skill of content.skills) {
      SkillDetailResponse.strict().parse(files.get(`api/v1/skills/${skill.id}/index.json`));
      SkillContentResponse.parse(files.get(`api/v1/skills/${skill.id}/content.json`));
      SkillStatsResponse.parse(files.get(`api/v1/skills/${skill.id}/stats.json`));
    }
    const filters: ListFilter[] = [
      { kind: 'all' },
      ...manifest.categories.map((slug): ListFilter => ({ kind: 'category', slug })),
      ...manifest.platforms.map((id): ListFilter => ({ kind: 'platform', id })),
    ];
    expect(Object.keys(manifest.lists)).toEqual(filters.map(listKey).sort(compareCodeUnits));
    for (const filter of filters) {
      const total = manifest.lists[listKey(filter)]!;
      for (const sort of SORTS) {
        for (const order of ORDERS) {
          const totalPages = Math.ceil(total / PAGE_SIZE);
          // The ordinals file lists the list's skills in order, resolvable through ordinalLocation.
          const { ordinals } = files.get(listOrdinalsPath(filter, sort, order)) as { ordinals: number[] };
          const resolved = ordinals.map((n) => {
            const { path, index } = ordinalLocation(n);
            return (files.get(path) as { data: Array<{ id: string }> }).data[index]!.id;
          });
          expect(resolved.length).toBe(total);
          // Filtered lists have pages in order desc only; where pages exist they hold the same skills.
          expect(hasListPages(filter, order)).toBe(filter.kind === 'all' || order === 'desc');
          if (!hasListPages(filter, order)) {
            expect(files.has(listPagePath(filter, sort, order, 1)), listPagePath(filter, sort, order, 1)).toBe(false);
            continue;
          }
          const ids: string[] = [];
          for (let page = 1; page <= Math.max(1, totalPages); page++) {
            const body = SkillListResponse.strict().parse(files.get(listPagePath(filter, sort, order, page)));
            expect(body.pagination).toEqual({ page, limit: PAGE_SIZE, total, totalPages });
            ids.push(...body.data.map((s) => s.id));
          }
          expect(files.has(listPagePath(filter, sort, order, Math.max(1, totalPages) + 1))).toBe(false);
          expect(ids).toEqual(resolved);
        }
      }
    }
    // Each list holds exactly its skills (a category those of its subcategories too), in the list's order.
    const parentOf = new Map(content.categories.flatMap((def) => def.subcategories.map((sub) => [sub.slug, def.slug] as const)));
    const inList = (skill: SkillRecord, filter: ListFilter): boolean =>
      filter.kind === 'all' ||
      (filter.kind === 'category' && skill.categories.some((slug) => slug === filter.slug || parentOf.get(slug) === filter.slug)) ||
      (filter.kind === 'platform' && skill.platforms.includes(filter.id));
    for (const filter of filters) {
      for (const sort of SORTS) {
        for (const order of ORDERS) {
          const { ordinals } = files.get(listOrdinalsPath(filter, sort, order)) as { ordinals: number[] };
          const ids = ordinals.map((n) => {
            const { path, index } = ordinalLocation(n);
            return (files.get(path) as { data: Array<{ id: string }> }).data[index]!.id;
          });
          const expected = content.skills.filter((skill) => inList(skill, filter)).sort(skillComparator(sort, order)).map((skill) => skill.id);
          expect(ids, `${listKey(filter)} ${sort}-${order}`).toEqual(expected);
        }
      }
    }
    // An empty category still has page 1.
    expect(files.get(listPagePath({ kind: 'category', slug: 'empty' }, 'name', 'desc', 1))).toEqual({
      data: [],
      pagination: { page: 1, limit: 20, total: 0, totalPages: 0 },
    });
    for (const locale of manifest.locales) {
      const suffix = locale === 'en' ? '' : `.${locale}`;
      CategoryListResponse.strict().parse(files.get(`api/v1/categories/index${suffix}.json`));
      for (const slug of manifest.categories) CategoryDetailResponse.strict().parse(files.get(`api/v1/categories/${slug}/index${suffix}.json`));
    }
  });

  it('localizes with per-field fallback to English and gives subcategories the parent icon', async () => {
    const { files } = await build(fixtureContent());
    const ja = (files.get('api/v1/categories/index.ja.json') as { data: Array<{ slug: string; name: string; description: string }> }).data;
    expect(ja.find((c) => c.slug === 'dev')).toMatchObject({ name: '開発', description: 'Writing code.' });
    const review = (files.get('api/v1/categories/review/index.de.json') as { data: Record<string, unknown> }).data;
    expect(review).toMatchObject({ slug: 'review', name: 'Code-Review', description: 'Reviewing code.', icon: 'code', subcategories: [] });
  });

  // TZ is read at run time by Node (LANG only at start-up; the build's test 21 runs a child for that).
  it('is deterministic: shuffled input and another TZ give the same files in the same order', async () => {
    const content = fixtureContent();
    const first = await build(content);
    const shuffled: Content = { ...content, skills: [...content.skills].reverse() };
    const tz = process.env.TZ;
    process.env.TZ = 'Pacific/Kiritimati';
    try {
      const second = await build(shuffled);
      expect(second.order).toEqual(first.order);
      for (const [path, data] of first.files) expect(JSON.stringify(second.files.get(path)), path).toBe(JSON.stringify(data));
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('handles an empty content folder', async () => {
    const { files } = await build({ skills: [], categories: [], platforms: [] });
    expect(files.get(listPagePath({ kind: 'all' }, 'stars', 'desc', 1))).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
    expect(files.get('api/v1/categories/index.de.json')).toEqual({ data: [] });
  });
});

describe('writeTree with the page memo (builder/page-memo.ts)', () => {
  /** A build through a keeper over `previous`, keeping through `keep`: what it emitted and remembered. */
  async function withMemo(content: Content, previous: PageMemo | undefined, keep: (files: readonly (readonly [string, string])[]) => boolean) {
    const files = new Map<string, string>();
    const next: PageInputs = { pages: new Map() };
    await writeTree(content, async (path, data) => {
      files.set(path, data instanceof JsonText ? data.text : JSON.stringify(data));
    }, undefined, undefined, pageKeeper(previous, next, keep));
    return { files, next };
  }
  /** The memo a build leaves when the output holds its files as emitted (the key: the bytes themselves). */
  const memoOf = (next: PageInputs, files: ReadonlyMap<string, string>): PageMemo => ({
    pages: new Map([...next.pages].map(([path, input]) => [path, `${input} ${files.get(path)}`])),
    ...(next.lists === undefined ? {} : { lists: next.lists }),
  });

  it('remembers every list page and ordinals file, and keeps them all at once when no summary changed', async () => {
    const content = fixtureContent();
    const first = await withMemo(content, undefined, () => false);
    const listPaths = [...first.files.keys()].filter((path) => first.next.pages.has(path));
    expect(listPaths).toContain(listPagePath({ kind: 'all' }, 'stars', 'desc', 3));
    expect(listPaths).toContain(listOrdinalsPath({ kind: 'all' }, 'name', 'asc'));
    expect(first.next.pages.size).toBe(listPaths.length);
    expect(first.next.lists).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const asked: Array<readonly (readonly [string, string])[]> = [];
    const again = await withMemo(content, memoOf(first.next, first.files), (files) => (asked.push(files), true));
    // One call for all of them, with the keys the memo had; none of them made.
    expect(asked).toHaveLength(1);
    expect(new Map(asked[0]!)).toEqual(new Map(listPaths.map((path) => [path, first.files.get(path)!])));
    for (const path of listPaths) expect(again.files.has(path), path).toBe(false);
    expect(again.next).toEqual(first.next);
    // Everything else is made as before.
    for (const [path, text] of again.files) expect(text, path).toBe(first.files.get(path));
    expect(again.files.size + listPaths.length).toBe(first.files.size);
  });

  it('makes the pages again when a summary changed, or only the quality part of a kept record\'s summary', async () => {
    const content = fixtureContent();
    const first = await withMemo(content, undefined, () => false);
    const memo = memoOf(first.next, first.files);
    const keepAsked = (files: readonly (readonly [string, string])[]): boolean => files.every(([path, key]) => memo.pages.get(path)?.endsWith(` ${key}`) === true);
    // The same record objects (their summary hashes remembered beside them), one given checks that
    // call it a copy: only the summary's quality part changes.
    const skill = content.skills[5]!;
    skill.checks = { profiles: {} as NonNullable<SkillRecord['checks']>['profiles'], flags: [], duplicateOf: content.skills[0]!.id };
    try {
      const again = await withMemo(content, memo, keepAsked);
      expect(again.next.lists).not.toBe(first.next.lists);
      const clean = await build(content);
      const made = [...again.files.keys()].filter((path) => first.next.pages.has(path));
      expect(made.length).toBeGreaterThan(0);
      // Each page made is the clean build's, and each page naming the skill is among them.
      for (const path of made) expect(JSON.parse(again.files.get(path)!), path).toEqual(clean.files.get(path));
      for (const [path, data] of clean.files) {
        if (first.next.pages.get(path) === '-' || !first.next.pages.has(path)) continue;
        const names = (data as { data: Array<{ id: string; quality?: { duplicate: boolean } }> }).data;
        if (names.some((s) => s.id === skill.id)) {
          expect(again.files.has(path), path).toBe(true);
          expect(names.find((s) => s.id === skill.id)!.quality?.duplicate).toBe(true);
        }
      }
    } finally {
      delete skill.checks;
    }
  });
});
