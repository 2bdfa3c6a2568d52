/**
 * List answers of src/lists.ts against a naive sort, for random content (property): every list
 * (all, each category and subcategory, each platform, category + platform pairs) in every sort
 * and order, at a random limit, on every page up to one past the end, gives exactly the body the
 * reference (test/contract/reference.ts: filter, sort, slice) gives. Heavy ties in stars, dates
 * and names make the id tie-break decide, so an `asc` answer computed as a reversed `desc` range
 * would fail here: filtered lists have no `asc` pages (src/paths.ts `hasListPages`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content, SkillRecord } from '../builder/model.ts';
import { toSummary } from '../builder/summary.ts';
import { writeTree } from '../builder/write-tree.ts';
import { createHandler } from '../src/handler.ts';
import { mapLoader } from '../src/loader.ts';
import { ORDERS, SORTS } from '../src/paths.ts';
import { Reference, type ReferenceQuery } from './contract/reference.ts';
import { FIXTURE_CATEGORIES, FIXTURE_PLATFORMS, fixtureContent } from './helpers/runtime-content.ts';

const BASE = fixtureContent(70).skills;
const SLUGS = FIXTURE_CATEGORIES.flatMap((c) => [c.slug, ...c.subcategories.map((s) => s.slug)]);
const PLATFORMS = FIXTURE_PLATFORMS.map((p) => p.id);
const DATES = ['2024-01-01T00:00:00.000Z', '2024-01-01T00:00:01.000Z', '2025-06-30T12:00:00.000Z'];

/** A fixture skill with random list keys (few values, so ties everywhere) and memberships. */
const skillAt = (base: SkillRecord) =>
  fc
    .record({
      stars: fc.nat(3),
      updatedAt: fc.constantFrom(...DATES),
      name: fc.constantFrom('alpha', 'Alpha', 'beta', 'Écho', 'echo'),
      categories: fc.subarray(SLUGS),
      platforms: fc.subarray(PLATFORMS),
    })
    .map((keys): SkillRecord => ({ ...base, ...keys }));

const content: fc.Arbitrary<Content> = fc
  .integer({ min: 0, max: BASE.length })
  .chain((n) => fc.tuple(...BASE.slice(0, n).map(skillAt)))
  .map((skills) => ({ skills, categories: FIXTURE_CATEGORIES, platforms: FIXTURE_PLATFORMS }));

describe('list answers equal a naive sort (property)', () => {
  it('every list × sort × order × page at a random limit', async () => {
    await fc.assert(
      fc.asyncProperty(content, fc.oneof(fc.constantFrom(1, 7, 20, 21, 100), fc.integer({ min: 1, max: 100 })), async (content, limit) => {
        const files = new Map<string, unknown>();
        await writeTree(content, async (path, json) => void files.set(path, JSON.parse(JSON.stringify(json))));
        const handler = createHandler(mapLoader(files));
        const ref = new Reference(content);
        const lists: Array<[string, ReferenceQuery]> = [
          ['', {}],
          ...SLUGS.map((slug): [string, ReferenceQuery] => [`category=${slug}`, { categories: [slug] }]),
          ...PLATFORMS.map((id): [string, ReferenceQuery] => [`platform=${id}`, { platform: id }]),
          ...['dev', 'review'].flatMap((slug) => PLATFORMS.map((id): [string, ReferenceQuery] => [`category=${slug}&platform=${id}`, { categories: [slug], platform: id }])),
        ];
        for (const [filter, query] of lists) {
          for (const sort of SORTS) {
            for (const order of ORDERS) {
              const expected = ref.list({ ...query, sort, order });
              const totalPages = Math.ceil(expected.length / limit);
              for (let page = 1; page <= totalPages + 1; page++) {
                const url = `http://localhost/api/v1/skills?${filter}&sort=${sort}&order=${order}&limit=${limit}&page=${page}`;
                const response = await handler(new Request(url));
                expect(response.status, url).toBe(200);
                expect(await response.json(), url).toEqual({
                  data: expected.slice((page - 1) * limit, page * limit).map(toSummary),
                  pagination: { page, limit, total: expected.length, totalPages },
                });
              }
            }
          }
        }
      }),
      { numRuns: 20 },
    );
  });
});
