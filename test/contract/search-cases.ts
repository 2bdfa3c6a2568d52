/**
 * Search and autocomplete cases of the contract suite (endpoints 5 and 6), run by every host.
 * Expectations come from the content through the reference of test/search-helpers.ts (one
 * unsplit MiniSearch index with the same rules), never written down: each syntax form, the
 * filters and the `hasMarketplace` alias, paging, ranking order, highlight escaping, every
 * error code, autocomplete counts.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { Content } from '../../builder/model.ts';
import { terms } from '../../src/search/options.ts';
import { parseQuery } from '../../src/search/query.ts';
import { AutocompleteResponse, SearchResponse } from '../../src/schemas.ts';
import { ReferenceIndex, unmark } from '../helpers/search-helpers.ts';

/** What the suite hands the cases: the content and its request helpers. */
export interface SearchCaseContext {
  content(): Content;
  ok<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>>;
  fails(path: string, status: number, code: string): Promise<{ code: string; message: string; details?: unknown }>;
}

/** Queries of every syntax form built from words of the content itself. */
function queriesOf(content: Content): string[] {
  const counts = new Map<string, number>();
  for (const s of content.skills) for (const t of new Set(terms(s.name))) if (t.length >= 5 && /^[a-z]+$/.test(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const frequent = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([t]) => t);
  const word = frequent[0] ?? 'skill';
  const other = frequent[1] ?? 'tool';
  const top = [...content.skills].sort((a, b) => b.stars - a.stars)[0];
  const phrase = top === undefined ? ['skill', 'tool'] : terms(top.description).slice(0, 2);
  return [
    word,
    `${word} ${other}`,
    `${word.slice(0, 3)}*`,
    `${word.slice(0, 3)}${word.slice(4)}`, // one typo
    `name:${word}`,
    `description:${word}`,
    `content:${word}`,
    `"${word}"`,
    `"${phrase.join(' ')}"`,
    `description:"${phrase.join(' ')}"`,
    `${word} -${other}`,
    `${word} -"${phrase.join(' ')}"`,
    `-name:${other} ${word.slice(0, 4)}*`,
    'name:docker -kubernetes "compose file"',
    'kubernetes',
    // An agent's sentence: request words dropped, other forms, relaxed (one word matches nothing).
    `how do I use ${word}s with ${other} zzqxunknown`,
  ];
}

/** Define the search cases; call inside the suite's `describe`, with its helpers. */
export function defineSearchCases(ctx: SearchCaseContext): void {
  let reference: ReferenceIndex | undefined;
  const ref = (): ReferenceIndex => (reference ??= new ReferenceIndex(ctx.content().skills));
  const url = (endpoint: string, params: Record<string, string | number>): string =>
    `/api/v1/skills/${endpoint}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;

  /** Every result of a search, page by page at `limit`. */
  async function all(params: Record<string, string>, limit = 100): Promise<Array<z.infer<typeof SearchResponse>['data'][number]>> {
    const out: Array<z.infer<typeof SearchResponse>['data'][number]> = [];
    for (let page = 1; ; page++) {
      const body = await ctx.ok(url('search', { ...params, limit, page }), SearchResponse);
      expect(body.pagination).toMatchObject({ page, limit, totalPages: Math.ceil(body.pagination.total / limit) });
      out.push(...body.data);
      if (page >= body.pagination.totalPages) {
        expect(out).toHaveLength(body.pagination.total);
        return out;
      }
    }
  }

  describe('search (endpoint 5)', () => {
    it('every syntax form answers the reference ids in the reference order, with meta.query normalized', async () => {
      for (const q of queriesOf(ctx.content())) {
        const expected = ref().search(parseQuery(q));
        const first = await ctx.ok(url('search', { q }), SearchResponse);
        expect(first.meta.query, q).toBe(parseQuery(q).normalized);
        expect(first.meta.took).toBeGreaterThanOrEqual(0);
        expect((await all({ q })).map((r) => r.id), q).toEqual(expected);
      }
    });

    it('filters category (with subcategories), platform, minStars, hasIndex and its alias hasMarketplace', async () => {
      const content = ctx.content();
      const q = queriesOf(content)[2]!; // a prefix: many results
      const parent = content.categories.find((c) => c.subcategories.length > 0) ?? content.categories[0]!;
      const slugs = new Set([parent.slug, ...parent.subcategories.map((s) => s.slug)]);
      const stars = content.skills.map((s) => s.stars).sort((a, b) => a - b);
      const median = stars[stars.length >> 1] ?? 0;
      const platform = content.platforms[0]!.id;
      const cases: Array<[Record<string, string>, (s: Content['skills'][number]) => boolean]> = [
        [{ category: parent.slug }, (s) => s.categories.some((c) => slugs.has(c))],
        [{ platform }, (s) => s.platforms.includes(platform)],
        [{ minStars: String(median) }, (s) => s.stars >= median],
        [{ hasIndex: 'true' }, (s) => s.hasIndex],
        [{ hasIndex: 'false' }, (s) => !s.hasIndex],
        [{ hasMarketplace: 'true' }, (s) => s.hasIndex],
        [{ hasMarketplace: 'false', hasIndex: 'false', minStars: '1' }, (s) => !s.hasIndex && s.stars >= 1],
      ];
      for (const [params, accept] of cases) {
        expect((await all({ q, ...params })).map((r) => r.id), JSON.stringify(params)).toEqual(ref().search(parseQuery(q), accept));
      }
    });

    it('pages are slices of one stable order; scores decrease; a page past the end is empty', async () => {
      const q = queriesOf(ctx.content())[2]!;
      const full = await all({ q });
      expect((await all({ q }, 3)).map((r) => r.id)).toEqual(full.map((r) => r.id));
      const scores = full.map((r) => r.score);
      for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeLessThan(scores[i - 1]!);
      const past = await ctx.ok(url('search', { q, page: 999 }), SearchResponse);
      expect(past.data).toEqual([]);
      expect(past.pagination).toEqual({ page: 999, limit: 20, total: full.length, totalPages: Math.ceil(full.length / 20) });
    });

    it('highlights hold only <mark> as markup and give back the field text', async () => {
      const byId = new Map(ctx.content().skills.map((s) => [s.id, s]));
      for (const q of queriesOf(ctx.content())) {
        for (const result of await all({ q })) {
          const skill = byId.get(result.id)!;
          expect(result).toMatchObject({ owner: skill.owner, repo: skill.repo, name: skill.name, stars: skill.stars });
          expect(result.description.length).toBeLessThanOrEqual(200);
          for (const html of [result.highlights?.name, result.highlights?.description]) {
            if (html !== undefined) expect(html).toMatch(/^(?:[^<>"']|<mark>[^<>"']+<\/mark>)*$/);
          }
          if (result.highlights?.name !== undefined) expect(unmark(result.highlights.name)).toBe(skill.name);
          if (result.highlights?.description !== undefined) {
            const plain = unmark(result.highlights.description).replace(/^…|…$/g, '');
            expect(skill.description).toContain(plain);
          }
        }
      }
    });

    it.each([
      ['q=', 'INVALID_QUERY'],
      ['limit=5', 'INVALID_QUERY'],
      ['q=%20%20', 'INVALID_QUERY'],
      ['q=a', 'INVALID_QUERY'],
      ['q=*', 'INVALID_QUERY'],
      ['q=the%20of', 'INVALID_QUERY'],
      ['q=-docker', 'INVALID_QUERY'],
      [`q=${'x'.repeat(201)}`, 'QUERY_TOO_LONG'],
      ['q=%22unbalanced', 'INVALID_SYNTAX'],
      ['q=foo:bar', 'INVALID_SYNTAX'],
      ['q=name:', 'INVALID_SYNTAX'],
      ['q=a*b', 'INVALID_SYNTAX'],
      ['q=docker%20-', 'INVALID_SYNTAX'],
      ['q=docker&limit=101', 'INVALID_PARAMS'],
      ['q=docker&page=0', 'INVALID_PARAMS'],
      ['q=docker&minStars=-1', 'INVALID_PARAMS'],
      ['q=docker&minStars=1.5', 'INVALID_PARAMS'],
      ['q=docker&category=no-such-category', 'INVALID_PARAMS'],
      ['q=docker&platform=no-such-platform', 'INVALID_PARAMS'],
      ['q=docker&hasIndex=yes', 'INVALID_PARAMS'],
      ['q=docker&hasIndex=true&hasMarketplace=false', 'INVALID_PARAMS'],
      ['q=docker&q=compose', 'INVALID_PARAMS'],
    ])('search?%s is 400 %s', async (query, code) => {
      const error = await ctx.fails(`/api/v1/skills/search?${query}`, 400, code);
      // An error of q names it, as INVALID_PARAMS names each bad parameter.
      if (code !== 'INVALID_PARAMS') expect(error.details).toEqual({ params: [{ param: 'q', message: error.message }] });
    });
  });

  describe('autocomplete (endpoint 6)', () => {
    it('completes the last word; each count is how many skills match every clause of its text; by count, then text', async () => {
      for (const q of [queriesOf(ctx.content())[0]!.slice(0, 3), 'kub', `${queriesOf(ctx.content())[1]!.split(' ')[0]} ${queriesOf(ctx.content())[1]!.split(' ')[1]!.slice(0, 3)}`]) {
        const body = await ctx.ok(url('autocomplete', { q, limit: 20 }), AutocompleteResponse);
        expect(body.data.length).toBeLessThanOrEqual(20);
        for (let i = 1; i < body.data.length; i++) {
          const [a, b] = [body.data[i - 1]!, body.data[i]!];
          expect(a.count > b.count || (a.count === b.count && a.text < b.text), `${q}: ${a.text} before ${b.text}`).toBe(true);
        }
        for (const s of body.data) {
          expect(s.count).toBeGreaterThan(0);
          expect(ref().search(parseQuery(s.text), undefined, false).length, s.text).toBe(s.count);
        }
        const five = await ctx.ok(url('autocomplete', { q }), AutocompleteResponse);
        expect(five.data).toEqual(body.data.slice(0, 5));
      }
    });

    it.each([
      ['q=', []],
      ['', []],
      ['q=k', []],
    ])('autocomplete?%s answers %j', async (query, data) => {
      expect((await ctx.ok(`/api/v1/skills/autocomplete?${query}`, AutocompleteResponse)).data).toEqual(data);
    });

    it.each([
      ['q=kub&limit=21', 'INVALID_PARAMS'],
      ['q=kub&limit=0', 'INVALID_PARAMS'],
      [`q=${'x'.repeat(201)}`, 'QUERY_TOO_LONG'],
      ['q=foo:bar%20kub', 'INVALID_SYNTAX'],
    ])('autocomplete?%s is 400 %s', async (query, code) => {
      await ctx.fails(`/api/v1/skills/autocomplete?${query}`, 400, code);
    });
  });
}
