/**
 * The contract suite of the canonical API (endpoints 1–4 and 7–9, errors, methods, headers), run
 * by every host: in-memory handler, Node server, Service Worker, bundle, Worker. A host serves the
 * tree of `data.files()` (./contract-data.ts; `SAMPLE`, the content/ folder, by default) and
 * hands the suite a `fetch` for paths such as
 * `/api/v1/skills?page=2`; every expectation is derived from the content through the reference
 * model (./reference.ts), never written down.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { skillStateHash } from '../../builder/changes.ts';
import type { Content } from '../../builder/model.ts';
import { endpointList, type EndpointName } from '../../src/endpoints.ts';
import { ORDERS, SORTS } from '../../src/paths.ts';
import { matchRoute } from '../../src/route.ts';
import * as S from '../../src/schemas.ts';
import {
  AutocompleteResponse,
  CategoryDetailResponse,
  ChangesResponse,
  CategoryListResponse,
  ErrorResponse,
  type ChangeEntry,
  SearchResponse,
  SkillContentResponse,
  SkillDetailResponse,
  SkillListResponse,
  SkillStatsResponse,
} from '../../src/schemas.ts';
import { SAMPLE, type ContractData } from './contract-data.ts';
import { Reference, summaryProblems, type ReferenceQuery } from './reference.ts';
import { defineSearchCases } from './search-cases.ts';

/** What a host gives the suite. */
export interface ContractHost {
  /** Request `path` (absolute path + query, e.g. `/api/v1/skills`) from the host. */
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
  close?: () => Promise<void>;
  /** The table's `hosted` routes this host answers (the Node server: `mcp`); the others are no route here. */
  hosted?: readonly EndpointName[];
}

/** A response read once: status, headers, parsed JSON body (undefined when empty). */
interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

const PAGE_LIMIT_CASES: Array<[page: number, limit: number]> = [
  [1, 1],
  [2, 1],
  [1, 7],
  [2, 7],
  [3, 7],
  [1, 20],
  [2, 20],
  [3, 13],
  [1, 100],
  [2, 100],
  [999, 20],
  [5, 50],
];

const BAD_NUMBERS = ['0', '-1', '1.5', '1e3', 'abc', '', ' 1', '0x10', '+1', '１'];

const TRAVERSALS = [
  '/api/v1/skills/..%2f..%2fetc/passwd',
  '/api/v1/skills/..%2f..%2fetc%2fpasswd/content',
  '/api/v1/skills/%2e%2e/%2e%2e/stats',
  '/api/v1/skills/owner/%2e%2e/content',
  '/api/v1/skills/owner/%2E%2E%2fmanifest',
  '/api/v1/skills/a%00/b',
  '/api/v1/skills/a/b%00',
  '/api/v1/skills/%252e%252e/%252e%252e',
  '/api/v1/skills/%25252e%25252e/x/content',
  '/api/v1/skills/a%2fb/c',
  '/api/v1/skills/a%5cb/c',
  '/api/v1/skills/a/b%2f..%2f..%2fmanifest',
  '/api/v1/skills/_list/all/stars-desc',
  '/api/v1/skills/a/b/index.json',
  '/api/v1/skills/a/b.git',
  '/api/v1/categories/..%2f..%2fmanifest',
  '/api/v1/categories/%2e%2e',
  '/api/v1/categories/dev%00',
  '/api/v1/categories/%252e%252e/skills',
  '/api/v1/manifest',
  '/api/v1/skills/%E0%A4%A/x',
];

/**
 * One request per route of the endpoint table (src/endpoints.ts): the suite's route list. A new
 * route must add one (the type asks for every name), and its answer is checked against the
 * response the table declares.
 */
const ROUTE_SAMPLES: { [K in EndpointName]: (content: Content) => string } = {
  listSkills: () => '/api/v1/skills?limit=3',
  searchSkills: () => '/api/v1/skills/search?q=skill',
  autocomplete: () => '/api/v1/skills/autocomplete?q=sk',
  getSkill: (c) => `/api/v1/skills/${c.skills[0]!.id}`,
  getSkillContent: (c) => `/api/v1/skills/${c.skills[0]!.id}/content`,
  getSkillStats: (c) => `/api/v1/skills/${c.skills[0]!.id}/stats`,
  getSkillFile: (c) => `/api/v1/skills/${c.skills[0]!.id}/files/SKILL.md`,
  getSkillArchive: (c) => `/api/v1/skills/${c.skills[0]!.id}/archive.tar.gz`,
  listCategories: () => '/api/v1/categories?locale=de',
  getCategory: (c) => `/api/v1/categories/${c.categories[0]!.slug}`,
  listCategorySkills: (c) => `/api/v1/categories/${c.categories[0]!.slug}/skills?limit=2`,
  listChanges: () => '/api/v1/changes?limit=3',
  compatSearch: () => '/api/search?q=skill',
  mcp: () => '/mcp',
};

/** A JSON-RPC request each `POST` route of the table answers (MCP's liveness check). */
const POST_SAMPLES: { [K in EndpointName]?: unknown } = {
  mcp: { jsonrpc: '2.0', id: 1, method: 'ping' },
};

/**
 * Define the suite under `describe(name)`. `setup` starts the host (once, before all tests) over
 * the tree of `data`; `close` stops it after them.
 */
export function defineContractSuite(name: string, setup: () => Promise<ContractHost>, data: ContractData = SAMPLE): void {
  describe(`contract: ${name} (${data.name})`, () => {
    let host: ContractHost;
    let content: Content;
    let ref: Reference;
    let log: ChangeEntry[];

    beforeAll(async () => {
      content = await data.content();
      log = await data.changes();
      ref = new Reference(content);
      host = await setup();
    });
    afterAll(async () => {
      await host?.close?.();
    });

    async function get(path: string, init?: RequestInit): Promise<Answer> {
      const response = await host.fetch(path, init);
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, body: text === '' ? undefined : JSON.parse(text) };
    }
    async function ok<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>> {
      const answer = await get(path);
      expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(200);
      return schema.parse(answer.body);
    }
    async function fails(path: string, status: number, code: string): Promise<z.infer<typeof ErrorResponse>['error']> {
      const answer = await get(path);
      expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(status);
      const body = ErrorResponse.strict().parse(answer.body);
      expect(body.error.code).toBe(code);
      expect(body.error.message.length).toBeGreaterThan(0);
      return body.error;
    }
    /** Check a list answer against the reference list `expected` at `page`/`limit`. */
    function checkList(body: z.infer<typeof SkillListResponse>, all: ReturnType<Reference['list']>, page: number, limit: number): void {
      const slice = all.slice((page - 1) * limit, page * limit);
      expect(body.pagination).toEqual({ page, limit, total: all.length, totalPages: Math.ceil(all.length / limit) });
      expect(body.data.map((s) => s.id)).toEqual(slice.map((s) => s.id));
      expect(body.data.flatMap((s, i) => summaryProblems(s, slice[i]!))).toEqual([]);
    }
    function query(params: Record<string, string | number>): string {
      return new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    }
    /** Every list of a query, read at limit 100 page by page. */
    async function readAll(path: string, params: Record<string, string>): Promise<string[]> {
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const body = await ok(`${path}?${query({ ...params, limit: 100, page })}`, SkillListResponse);
        ids.push(...body.data.map((s) => s.id));
        if (page >= body.pagination.totalPages) return ids;
      }
    }

    describe('every route of the endpoint table', () => {
      it.for(endpointList().map(([name, endpoint]) => [name, endpoint] as const))('%s answers as the table declares', async ([name, endpoint], context) => {
        // Content built without its folders (the in-memory fixture) has no skill files to serve.
        if (typeof endpoint.response !== 'string' && endpoint.methods === undefined && content.skills[0]!.files === undefined) context.skip();
        const path = ROUTE_SAMPLES[name](content);
        expect(matchRoute(new URL(path, 'http://x').pathname)?.name).toBe(name);
        if (endpoint.methods?.includes('POST')) {
          const response = await host.fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify(POST_SAMPLES[name]),
          });
          const text = await response.text();
          // A host that cannot run a hosted route answers as if it were not there: no success.
          if (endpoint.hosted === true && !(host.hosted ?? []).includes(name)) {
            expect(response.status, `${path}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
            return;
          }
          expect(response.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
          expect(response.headers.get('content-type')).toMatch(/^application\/json/);
          expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', id: 1, result: {} });
          return;
        }
        if (typeof endpoint.response !== 'string') {
          // Bytes of another media type.
          const response = await host.fetch(path);
          expect(response.status, path).toBe(200);
          expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
          return;
        }
        const answer = await get(path);
        expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(200);
        S[endpoint.response].parse(answer.body);
      });
    });

    describe('GET /api/v1/skills', () => {
      it('defaults to page 1 of 20, stars descending, ties by id', async () => {
        const body = await ok('/api/v1/skills', SkillListResponse);
        checkList(body, ref.list(), 1, 20);
        expect(body.pagination.total).toBe(content.skills.length);
      });

      it.each(SORTS.flatMap((sort) => ORDERS.map((order) => [sort, order] as const)))('sort=%s order=%s lists every skill in order', async (sort, order) => {
        expect(await readAll('/api/v1/skills', { sort, order })).toEqual(ref.list({ sort, order }).map((s) => s.id));
      });

      it.each(PAGE_LIMIT_CASES)('page=%i limit=%i (every list kind)', async (page, limit) => {
        checkList(await ok(`/api/v1/skills?${query({ page, limit })}`, SkillListResponse), ref.list(), page, limit);
        checkList(await ok(`/api/v1/skills?${query({ page, limit, sort: 'name', order: 'asc' })}`, SkillListResponse), ref.list({ sort: 'name', order: 'asc' }), page, limit);
        const slug = content.categories[0]!.slug;
        checkList(await ok(`/api/v1/skills?${query({ page, limit, category: slug })}`, SkillListResponse), ref.list({ categories: [slug] }), page, limit);
        // Filtered lists in order asc (answered from the desc pages, src/paths.ts hasListPages).
        checkList(await ok(`/api/v1/skills?${query({ page, limit, category: slug, order: 'asc' })}`, SkillListResponse), ref.list({ categories: [slug], order: 'asc' }), page, limit);
        const platform = content.platforms[0]!.id;
        checkList(
          await ok(`/api/v1/skills?${query({ page, limit, platform, sort: 'updated', order: 'asc' })}`, SkillListResponse),
          ref.list({ platform, sort: 'updated', order: 'asc' }),
          page,
          limit,
        );
        checkList(
          await ok(`/api/v1/skills?${query({ page, limit, category: slug, platform, sort: 'updated' })}`, SkillListResponse),
          ref.list({ categories: [slug], platform, sort: 'updated' }),
          page,
          limit,
        );
      });

      it('a page past the end is 200 with data [] and the true pagination', async () => {
        const total = content.skills.length;
        const body = await ok(`/api/v1/skills?page=${Math.ceil(total / 20) + 1}`, SkillListResponse);
        expect(body.data).toEqual([]);
        expect(body.pagination).toEqual({ page: Math.ceil(total / 20) + 1, limit: 20, total, totalPages: Math.ceil(total / 20) });
        expect((await ok('/api/v1/skills?page=999999999', SkillListResponse)).data).toEqual([]);
      });

      it('category= includes the skills of its subcategories, for every category', async () => {
        for (const slug of ref.slugs.keys()) {
          const expected = ref.list({ categories: [slug] });
          const body = await ok(`/api/v1/skills?category=${slug}&limit=100`, SkillListResponse);
          checkList(body, expected, 1, 100);
        }
        const parent = content.categories.find((c) => c.subcategories.length > 0)!;
        const subMembers = ref.inCategory(parent.subcategories[0]!.slug).map((s) => s.id);
        const parentIds = await readAll('/api/v1/skills', { category: parent.slug });
        expect(subMembers.every((id) => parentIds.includes(id))).toBe(true);
      });

      it('platform= filters, for every platform', async () => {
        for (const { id } of content.platforms) {
          checkList(await ok(`/api/v1/skills?platform=${id}&limit=100`, SkillListResponse), ref.list({ platform: id }), 1, 100);
        }
      });

      it('category= and platform= combine (intersection), for every pair', async () => {
        for (const slug of ref.slugs.keys()) {
          for (const { id } of content.platforms) {
            const q = { categories: [slug], platform: id, sort: 'name', order: 'asc' } satisfies ReferenceQuery;
            const body = await ok(`/api/v1/skills?category=${slug}&platform=${id}&sort=name&order=asc&limit=5&page=2`, SkillListResponse);
            checkList(body, ref.list(q), 2, 5);
          }
        }
      });

      it('unknown parameters are ignored', async () => {
        checkList(await ok('/api/v1/skills?foo=bar&q=x&locale=de', SkillListResponse), ref.list(), 1, 20);
      });
    });

    describe('INVALID_PARAMS names the parameter (docs/decisions.md H24)', () => {
      it.each(['page', 'limit'].flatMap((param) => BAD_NUMBERS.map((value) => [param, value] as const)))('%s=%j', async (param, value) => {
        for (const path of ['/api/v1/skills', `/api/v1/categories/${content.categories[0]!.slug}/skills`]) {
          const error = await fails(`${path}?${param}=${encodeURIComponent(value)}`, 400, 'INVALID_PARAMS');
          expect(error.message).toContain(param);
          expect(error.details).toEqual({ params: [expect.objectContaining({ param })] });
        }
      });

      it.each(['page', 'limit', 'sort', 'order', 'category', 'platform'])('%s repeated twice', async (param) => {
        const value = { page: '1', limit: '20', sort: 'stars', order: 'desc', category: content.categories[0]!.slug, platform: content.platforms[0]!.id }[param]!;
        const error = await fails(`/api/v1/skills?${param}=${value}&${param}=${value}`, 400, 'INVALID_PARAMS');
        expect(error.details).toEqual({ params: [expect.objectContaining({ param })] });
      });

      it('limit over 100, bad sort/order, unknown category/platform: each named, all at once', async () => {
        const error = await fails('/api/v1/skills?limit=101&sort=popular&order=up&category=no-such-slug&platform=no-such-platform&page=0', 400, 'INVALID_PARAMS');
        expect((error.details as { params: Array<{ param: string }> }).params.map((p) => p.param).sort()).toEqual(['category', 'limit', 'order', 'page', 'platform', 'sort']);
      });

      it('limit=100 is accepted, limit=101 is not', async () => {
        await ok('/api/v1/skills?limit=100', SkillListResponse);
        await fails('/api/v1/skills?limit=101', 400, 'INVALID_PARAMS');
      });

      it('page=1000000000 is refused with the true bound, 999999999', async () => {
        const error = await fails('/api/v1/skills?page=1000000000', 400, 'INVALID_PARAMS');
        expect(error.details).toEqual({ params: [{ param: 'page', message: 'page must be an integer from 1 to 999999999, got "1000000000"' }] });
      });
    });

    describe('GET /api/v1/categories', () => {
      it('lists every category in every built locale', async () => {
        for (const locale of ref.locales()) {
          const body = await ok(`/api/v1/categories?locale=${locale}`, CategoryListResponse);
          expect(body.data).toEqual(ref.categories(locale));
        }
        expect((await ok('/api/v1/categories', CategoryListResponse)).data).toEqual(ref.categories('en'));
      });

      it('ships at least en, de, fr, ja, ko, zh-TW', () => {
        expect(ref.locales()).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'ja', 'ko', 'zh-TW']));
      });

      it.each(['xx', 'pt', 'sv-SE', 'EN', 'zz-Latn-ZZ'])('well-formed locale %s without translation falls back (to en or its language)', async (locale) => {
        const body = await ok(`/api/v1/categories?locale=${locale}`, CategoryListResponse);
        const language = locale.toLowerCase().split('-')[0]!;
        const expected = ref.locales().includes(language) ? language : 'en';
        expect(body.data).toEqual(ref.categories(expected));
      });

      it('matches locales case-insensitively', async () => {
        expect((await ok('/api/v1/categories?locale=zh-tw', CategoryListResponse)).data).toEqual(ref.categories('zh-TW'));
      });

      it.each(['', 'e', 'english-language-code', 'en_US', '12', '../de', 'de/../../x', 'en-', '%00', 'de.json'])('malformed locale %j is INVALID_PARAMS', async (locale) => {
        const error = await fails(`/api/v1/categories?locale=${encodeURIComponent(locale)}`, 400, 'INVALID_PARAMS');
        expect(error.details).toEqual({ params: [expect.objectContaining({ param: 'locale' })] });
        await fails(`/api/v1/categories/${content.categories[0]!.slug}?locale=${encodeURIComponent(locale)}`, 400, 'INVALID_PARAMS');
      });

      it('a repeated locale is INVALID_PARAMS', async () => {
        await fails('/api/v1/categories?locale=de&locale=fr', 400, 'INVALID_PARAMS');
      });
    });

    describe('GET /api/v1/categories/:slug', () => {
      it('answers every slug (top-level and subcategory) in every locale, with topSkills', async () => {
        for (const slug of ref.slugs.keys()) {
          for (const locale of ref.locales()) {
            const body = await ok(`/api/v1/categories/${slug}?locale=${locale}`, CategoryDetailResponse);
            expect(body.data).toEqual(ref.category(slug, locale));
          }
        }
      });

      it('topSkills are the 5 most-starred skills (ties by id)', async () => {
        for (const slug of ref.slugs.keys()) {
          const body = await ok(`/api/v1/categories/${slug}`, CategoryDetailResponse);
          const expected = ref.list({ categories: [slug] }).slice(0, 5);
          expect(body.data.topSkills.map((s) => `${s.owner}/${s.repo}`)).toEqual(expected.map((s) => s.id));
          expect(body.data.topSkills.length).toBe(Math.min(5, ref.inCategory(slug).length));
        }
      });

      it('an unknown slug is NOT_FOUND', async () => {
        await fails('/api/v1/categories/no-such-category', 404, 'NOT_FOUND');
        // A slug that cannot be one names the parameter it does not fit.
        expect((await fails('/api/v1/categories/Not_A_Slug', 404, 'NOT_FOUND')).message).toContain('"Not_A_Slug" does not fit :slug');
        await fails('/api/v1/categories/no-such-category/skills', 404, 'NOT_FOUND');
      });
    });

    describe('GET /api/v1/categories/:slug/skills', () => {
      it('lists the category like ?category=:slug, for every slug', async () => {
        for (const slug of ref.slugs.keys()) {
          checkList(await ok(`/api/v1/categories/${slug}/skills?limit=100`, SkillListResponse), ref.list({ categories: [slug] }), 1, 100);
          const viaFilter = await get(`/api/v1/skills?category=${slug}&sort=updated&order=asc&page=2&limit=3`);
          const viaPath = await get(`/api/v1/categories/${slug}/skills?sort=updated&order=asc&page=2&limit=3`);
          expect(viaPath.body).toEqual(viaFilter.body);
        }
      });

      it('category= narrows (intersection), platform= filters', async () => {
        const slugs = [...ref.slugs.keys()];
        for (const [i, scope] of slugs.entries()) {
          // Itself, its subcategories, its parent, and one unrelated slug (often an empty intersection).
          const entry = ref.slugs.get(scope)!;
          const narrows = [scope, ...(entry.def?.subcategories.map((s) => s.slug) ?? []), ...(entry.parent ? [entry.parent.slug] : []), slugs[(i + 7) % slugs.length]!];
          for (const narrow of narrows) {
            const expected = ref.list({ categories: [scope, narrow], sort: 'stars', order: 'asc' });
            checkList(await ok(`/api/v1/categories/${scope}/skills?category=${narrow}&sort=stars&order=asc&limit=100`, SkillListResponse), expected, 1, 100);
          }
          const platform = content.platforms[0]!.id;
          checkList(await ok(`/api/v1/categories/${scope}/skills?platform=${platform}&limit=100`, SkillListResponse), ref.list({ categories: [scope], platform }), 1, 100);
        }
      });
    });

    describe('GET /api/v1/skills/:owner/:repo[/content|/stats]', () => {
      it('answers the detail, raw content (sha verified) and stats of every skill', async () => {
        for (const skill of content.skills) {
          const base = `/api/v1/skills/${skill.owner}/${skill.repo}`;
          const detail = (await ok(base, SkillDetailResponse)).data;
          expect(detail).toEqual({
            id: skill.id,
            owner: skill.owner,
            repo: skill.repo,
            name: skill.name,
            description: skill.description,
            stars: skill.stars,
            forks: skill.forks,
            updatedAt: skill.updatedAt,
            categories: skill.categories,
            platforms: skill.platforms,
            content: skill.body,
            watchers: skill.watchers,
            openIssues: skill.openIssues,
            license: skill.license,
            createdAt: skill.createdAt,
            pushedAt: skill.pushedAt,
            author: skill.author,
            installCommands: skill.installCommands,
            // The quality signals of the whole directory (builder/quality/), as the build computed them (to JSON:
            // the checks of a skill whose signals were stored parse their profiles and flags when read).
            checks: skill.checks === undefined ? undefined : JSON.parse(JSON.stringify(skill.checks)),
            files: skill.files?.map(({ path, size, sha256 }) => ({ path, size, sha256 })),
            archive: skill.archive,
          });
          if (skill.checks !== undefined) expect(detail.checks?.profiles.agentskills.pass).toBeTypeOf('boolean');
          expect(Object.keys(detail.installCommands).sort()).toEqual([...skill.platforms].sort());
          const raw = (await ok(`${base}/content`, SkillContentResponse)).data;
          expect(raw.content).toBe(skill.raw);
          // sha and size are of the SKILL.md bytes (docs/decisions.md §4), and content is exactly those
          // bytes as text (a UTF-8 BOM included), so a client can check one against the other.
          const bytes = Buffer.from(raw.content, 'utf8');
          expect(raw.size).toBe(bytes.length);
          expect(raw.sha).toBe(createHash('sha256').update(bytes).digest('hex'));
          expect((await ok(`${base}/stats`, SkillStatsResponse)).data).toEqual(skill.stats);
        }
      });

      it('an id in another case answers the skill, in its canonical case, with Content-Location', async () => {
        const flip = (text: string): string => [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
        for (const skill of content.skills.slice(0, 12)) {
          const canonical = `/api/v1/skills/${skill.owner}/${skill.repo}`;
          for (const [suffix, schema] of [['', SkillDetailResponse], ['/content', SkillContentResponse], ['/stats', SkillStatsResponse]] as const) {
            const other = `/api/v1/skills/${flip(skill.owner)}/${skill.repo.toUpperCase()}${suffix}`;
            const answer = await get(other);
            expect(answer.status, other).toBe(200);
            expect(schema.parse(answer.body)).toEqual((await get(`${canonical}${suffix}`)).body);
            expect(answer.headers.get('content-location'), other).toBe(`${canonical}${suffix}`);
          }
          expect((await get(canonical)).headers.get('content-location')).toBeNull();
        }
        await fails(`/api/v1/skills/NO-SUCH-OWNER/no-such-repo`, 404, 'NOT_FOUND');
      });

      it('an unknown skill is NOT_FOUND with the error body', async () => {
        for (const suffix of ['', '/content', '/stats']) {
          const error = await fails(`/api/v1/skills/no-such-owner/no-such-repo${suffix}`, 404, 'NOT_FOUND');
          expect(error.message).toContain('no-such-owner/no-such-repo');
        }
      });

      it.each(TRAVERSALS)('hostile path %s is 404/400, never a file (docs/decisions.md H28)', async (path) => {
        const answer = await get(path);
        expect([400, 404]).toContain(answer.status);
        if (answer.body !== undefined) ErrorResponse.strict().parse(answer.body);
      });
    });

    describe('GET /api/v1/skills/:owner/:repo/files/<path> and /archive.tar.gz', () => {
      // Content built without its folders (the in-memory fixture) has no skill files to serve.
      beforeEach((context) => {
        if (!content.skills.some((s) => s.files !== undefined)) context.skip();
      });
      const withFiles = (): Content['skills'] => content.skills.filter((s) => (s.files?.length ?? 0) > 1);
      const bytesOf = async (path: string, init?: RequestInit) => {
        const response = await host.fetch(path, init);
        return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
      };
      const encoded = (path: string) => path.split('/').map(encodeURIComponent).join('/');
      const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

      it('the content has a skill of several files, listed sorted with SKILL.md', () => {
        if (data !== SAMPLE) return;
        expect(withFiles().length).toBeGreaterThan(0);
        for (const skill of content.skills) {
          const paths = (skill.files ?? []).map((f) => f.path);
          expect(paths).toContain('SKILL.md');
          expect(paths).toEqual([...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
        }
      });

      it('every listed file answers its exact bytes with its media type, ETag from its SHA-256, CORS and a sandbox', async () => {
        for (const skill of content.skills) {
          for (const file of skill.files ?? []) {
            const url = `/api/v1/skills/${skill.owner}/${skill.repo}/files/${encoded(file.path)}`;
            const { response, bytes } = await bytesOf(url);
            expect(response.status, url).toBe(200);
            expect(bytes.length).toBe(file.size);
            expect(sha(bytes)).toBe(file.sha256);
            const etag = `"${Buffer.from(file.sha256, 'hex').toString('base64url')}"`;
            expect([etag, `W/${etag}`]).toContain(response.headers.get('etag'));
            expect(response.headers.get('access-control-allow-origin')).toBe('*');
            expect(response.headers.get('content-security-policy')).toContain('sandbox');
            if (file.path.endsWith('.md')) expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
            // No registered type for .sh: UTF-8 text without NUL is text/plain.
            if (file.path.endsWith('.sh')) expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
          }
        }
      });

      it('SKILL.md among the files is the raw content, byte for byte', async () => {
        const skill = content.skills[0]!;
        const { bytes } = await bytesOf(`/api/v1/skills/${skill.owner}/${skill.repo}/files/SKILL.md`);
        expect(Buffer.from(bytes).toString('utf8')).toBe(skill.raw);
      });

      it('the archive answers as application/gzip with the size and SHA-256 of the detail, holding every file', async () => {
        for (const skill of content.skills.filter((s) => s.archive !== undefined)) {
          const url = `/api/v1/skills/${skill.owner}/${skill.repo}/archive.tar.gz`;
          const { response, bytes } = await bytesOf(url);
          expect(response.status, url).toBe(200);
          expect(response.headers.get('content-type')).toBe('application/gzip');
          expect(bytes.length).toBe(skill.archive!.size);
          expect(sha(bytes)).toBe(skill.archive!.sha256);
          expect(skill.archive!.url).toBe(url);
          const tar = gunzipSync(bytes);
          const names: string[] = [];
          for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
            const field = (from: number, length: number) => tar.subarray(at + from, at + from + length).toString('utf8').replace(/\0.*$/s, '');
            const size = parseInt(field(124, 12), 8);
            if (field(156, 1) === '0') names.push([field(345, 155), field(0, 100)].filter(Boolean).join('/'));
            expect(['0000644', '0000755']).toContain(field(100, 8));
            at += 512 + Math.ceil(size / 512) * 512;
          }
          expect(names).toEqual(skill.files!.map((f) => f.path));
        }
      });

      it('HEAD of a file answers like GET without a body; If-None-Match revalidates', async () => {
        const skill = content.skills[0]!;
        const url = `/api/v1/skills/${skill.owner}/${skill.repo}/files/SKILL.md`;
        const got = await host.fetch(url);
        const head = await host.fetch(url, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(await head.text()).toBe('');
        expect(head.headers.get('content-type')).toBe(got.headers.get('content-type'));
        const etag = got.headers.get('etag')!;
        const again = await host.fetch(url, { headers: { 'if-none-match': etag } });
        // Hosts without an HTTP cache layer (the client, the bundle) answer 200 again.
        expect([200, 304]).toContain(again.status);
      });

      it('a file in another case of the id answers with Content-Location; an unlisted path is NOT_FOUND', async () => {
        const skill = withFiles()[0] ?? content.skills[0]!;
        const file = skill.files![skill.files!.length - 1]!;
        const other = `/api/v1/skills/${skill.owner.toUpperCase()}/${skill.repo.toUpperCase()}/files/${encoded(file.path)}`;
        const { response, bytes } = await bytesOf(other);
        expect(response.status).toBe(200);
        expect(sha(bytes)).toBe(file.sha256);
        expect(response.headers.get('content-location')).toBe(`/api/v1/skills/${skill.owner}/${skill.repo}/files/${encoded(file.path)}`);
        await fails(`/api/v1/skills/${skill.owner}/${skill.repo}/files/no-such-file.md`, 404, 'NOT_FOUND');
        await fails(`/api/v1/skills/${skill.owner}/${skill.repo}/files/skill.md`, 404, 'NOT_FOUND');
        await fails(`/api/v1/skills/no-such-owner/no-such-repo/files/SKILL.md`, 404, 'NOT_FOUND');
        await fails(`/api/v1/skills/no-such-owner/no-such-repo/archive.tar.gz`, 404, 'NOT_FOUND');
      });

      it.each([
        'files/..%2f..%2fmanifest.json',
        'files/%2e%2e/%2e%2e/%2e%2e/manifest.json',
        'files/scripts%2f..%2f..%2findex.json',
        'files/SKILL.md%00',
        'files/%00',
        'files/%252e%252e/%252e%252e/index.json',
        'files/%25252e%25252e/index.json',
        'files/a%5c..%5cindex.json',
        'files/',
        'files',
        'archive.tar.gz/x',
        'files/%2fetc%2fpasswd',
        'files/.git/config',
      ])('hostile file path …/%s is 404/400, never a file', async (tail) => {
        const skill = withFiles()[0] ?? content.skills[0]!;
        const answer = await get(`/api/v1/skills/${skill.owner}/${skill.repo}/${tail}`);
        expect([400, 404]).toContain(answer.status);
        if (answer.body !== undefined) ErrorResponse.strict().parse(answer.body);
      });
    });

    describe('GET /api/search (the `skills` CLI compatibility route)', () => {
      it('answers { skills: [{ id, name, source, installs }] } in search order, honouring limit and owner', async () => {
        const search = (await ok('/api/v1/skills/search?q=skill&limit=5', SearchResponse)).data;
        const answer = await get('/api/search?q=skill&limit=5');
        expect(answer.status).toBe(200);
        expect(answer.headers.get('access-control-allow-origin')).toBe('*');
        const skills = (answer.body as { skills: { id: string; name: string; source: string; installs: number }[] }).skills;
        expect(skills.map((s) => s.id)).toEqual(search.map((r) => r.id));
        for (const s of skills) {
          const skill = content.skills.find((k) => k.id === s.id)!;
          expect(s).toEqual({ id: skill.id, name: skill.name, source: skill.id, installs: skill.stats.installs });
        }
        const owner = skills[0]!.id.split('/')[0]!;
        const owned = ((await get(`/api/search?q=skill&owner=${owner.toUpperCase()}`)).body as { skills: { id: string }[] }).skills;
        expect(owned.length).toBeGreaterThan(0);
        expect(owned.every((s) => s.id.startsWith(`${owner}/`))).toBe(true);
        await fails('/api/search?q=a', 400, 'INVALID_QUERY');
        await fails('/api/search?q=skill&limit=0', 400, 'INVALID_PARAMS');
      });
    });

    // Search has its own tests (test/search*.test.ts); this checks that every host routes it.
    describe('search and autocomplete are served', () => {
      defineSearchCases({ content: () => content, ok, fails });

      it('finds a skill by a word of its name, and completes that word', async () => {
        const skill = content.skills.find((s) => /[a-z]{5,}/i.test(s.name))!;
        const word = skill.name.match(/[a-z]{5,}/i)![0].toLowerCase();
        const body = await ok(`/api/v1/skills/search?q=${word}&limit=100`, SearchResponse);
        expect(body.data.map((r) => r.id)).toContain(skill.id);
        expect(body.pagination).toMatchObject({ page: 1, limit: 100, total: body.data.length });
        const suggestions = await ok(`/api/v1/skills/autocomplete?q=${word.slice(0, 4)}`, AutocompleteResponse);
        expect(suggestions.data.length).toBeGreaterThan(0);
      });

      it.each([
        ['q=a', 'INVALID_QUERY'],
        ['', 'INVALID_QUERY'],
        [`q=${'x'.repeat(201)}`, 'QUERY_TOO_LONG'],
        ['q=%22unbalanced', 'INVALID_SYNTAX'],
        ['q=test&limit=0', 'INVALID_PARAMS'],
      ])('search?%s is 400 %s', async (q, code) => {
        await fails(`/api/v1/skills/search?${q}`, 400, code);
      });
    });

    describe('GET /api/v1/changes (the change log)', () => {
      const strict = ChangesResponse.extend({ data: ChangesResponse.shape.data.element.strict().array() }).strict();
      /** Every entry from `since`, `limit` at a time, and the cursors handed out on the way. */
      async function walk(limit?: number, since?: string): Promise<{ entries: ChangeEntry[]; cursors: string[] }> {
        const entries: ChangeEntry[] = [];
        const cursors: string[] = [];
        for (let cursor = since; ; ) {
          const params = { ...(cursor === undefined ? {} : { since: cursor }), ...(limit === undefined ? {} : { limit }) };
          const body = await ok(`/api/v1/changes${Object.keys(params).length === 0 ? '' : `?${query(params)}`}`, strict);
          expect(body.pagination).toEqual({ limit: limit ?? 100, hasMore: entries.length + body.data.length < log.length - (since === undefined ? 0 : log.findIndex((e) => e.cursor === since) + 1) });
          entries.push(...body.data);
          expect(body.meta.cursor).toBe(body.data.at(-1)?.cursor ?? cursor ?? '0');
          cursors.push(body.meta.cursor);
          if (!body.pagination.hasMore) return { entries, cursors };
          cursor = body.meta.cursor;
        }
      }

      it('no since: the log from the start, 100 entries a page, oldest first', async () => {
        const body = await ok('/api/v1/changes', strict);
        expect(body.data).toEqual(log.slice(0, 100));
        expect(body.pagination).toEqual({ limit: 100, hasMore: log.length > 100 });
        expect(await ok('/api/v1/changes?since=0', strict)).toEqual(body);
      });

      it.each([1, 7, 100, undefined])('walking with limit=%s and meta.cursor reads every entry once, in order', async (limit) => {
        const { entries } = await walk(limit);
        expect(entries).toEqual(log);
      });

      it('from the last meta.cursor: an empty page with the same cursor; from any entry: what follows it', async () => {
        const last = log.at(-1)!.cursor;
        expect(await ok(`/api/v1/changes?since=${last}`, strict)).toEqual({ data: [], pagination: { limit: 100, hasMore: false }, meta: { cursor: last } });
        for (const i of [0, 41, 99, 100, log.length - 2]) {
          const body = await ok(`/api/v1/changes?since=${log[i]!.cursor}&limit=5`, strict);
          expect(body.data).toEqual(log.slice(i + 1, i + 6));
        }
      });

      it('tells added, updated and removed apart; a removed skill is 404 and keeps its entries', async () => {
        const { entries } = await walk();
        const kinds = new Set(entries.map((e) => e.change));
        expect([...kinds].sort()).toEqual(['added', 'removed', 'updated']);
        const last = new Map(entries.map((e) => [e.id, e]));
        for (const [id, entry] of last) {
          const skill = content.skills.find((s) => s.id === id);
          if (entry.change === 'removed') {
            expect(skill).toBeUndefined();
            await fails(`/api/v1/skills/${id}`, 404, 'NOT_FOUND');
          } else expect(entry.sha256).toBe(skillStateHash(skill!));
        }
        expect(content.skills.every((s) => last.has(s.id))).toBe(true);
        for (let i = 1; i < entries.length; i++) expect(entries[i]!.at >= entries[i - 1]!.at).toBe(true);
      });

      it.each([
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=1.5', 'limit'],
        ['since=', 'since'],
        ['since=yesterday', 'since'],
        ['since=1', 'since'],
        ['since=-1', 'since'],
        ['since=1-0123456789ABCDEF', 'since'],
        ['since=0&since=0', 'since'],
      ])('%s is INVALID_PARAMS naming %s', async (q, param) => {
        const error = await fails(`/api/v1/changes?${q}`, 400, 'INVALID_PARAMS');
        expect(error.details).toEqual({ params: [expect.objectContaining({ param })] });
      });

      it('a cursor this log does not hold (past its end, or another hash) is INVALID_PARAMS naming since', async () => {
        const [position, hash] = log[9]!.cursor.split('-') as [string, string];
        const other = `${position}-${hash.startsWith('0') ? '1' : '0'}${hash.slice(1)}`;
        for (const since of [other, `${log.length + 1}-${hash}`, `999999999-${hash}`]) {
          const error = await fails(`/api/v1/changes?since=${since}`, 400, 'INVALID_PARAMS');
          expect(error.details).toEqual({ params: [expect.objectContaining({ param: 'since' })] });
        }
      });
    });

    describe('errors, methods and headers', () => {
      it.each(['/api/v1', '/api/v1/', '/api/v1/nope', '/api/v1/skills/a/b/c/d', '/api/v1/categories/a/b', '/api/v1/skills/a/b/readme', '/api/v2/skills'])('unknown path %s is NOT_FOUND', async (path) => {
        await fails(path, 404, 'NOT_FOUND');
      });

      it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s is 405 with Allow: GET, HEAD', async (method) => {
        for (const path of ['/api/v1/skills', `/api/v1/skills/${content.skills[0]!.id}`, '/api/v1/categories']) {
          const answer = await get(path, { method, body: method === 'DELETE' ? null : '{}' });
          expect(answer.status).toBe(405);
          expect(answer.headers.get('allow')).toBe('GET, HEAD');
          expect(ErrorResponse.parse(answer.body).error.code).toBe('METHOD_NOT_ALLOWED');
        }
      });

      it('HEAD answers like GET without a body', async () => {
        for (const path of ['/api/v1/skills?limit=3', `/api/v1/skills/${content.skills[0]!.id}`, '/api/v1/skills/no/such', '/api/v1/skills?page=0']) {
          const got = await get(path);
          const head = await get(path, { method: 'HEAD' });
          expect(head.status).toBe(got.status);
          expect(head.text).toBe('');
          expect(head.headers.get('content-type')).toBe(got.headers.get('content-type'));
        }
      });

      it('every answer is JSON with Access-Control-Allow-Origin: *', async () => {
        for (const path of ['/api/v1/skills', '/api/v1/categories', '/api/v1/skills/no/such', '/api/v1/skills?limit=0', '/api/v1/nope']) {
          const answer = await get(path);
          expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
          expect(answer.headers.get('access-control-allow-origin')).toBe('*');
        }
        const answer = await get('/api/v1/skills', { method: 'POST', body: '' });
        expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      });
    });
  });
}
