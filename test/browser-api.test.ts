/**
 * The Service Worker's side of src/browser-api.ts, in Node: which requests it answers (the API
 * of its own site, nothing else) and the handler it builds over the site's files.
 */
import { describe, expect, it } from 'vitest';
import { createBrowserHandler, isApiRequest } from '../src/browser-api.ts';
import type { Manifest } from '../src/manifest.ts';
import { FORMAT_VERSION } from '../src/paths.ts';
import { buildIndex, makeSkill } from './helpers/search-helpers.ts';

const ORIGIN = 'https://user.github.io';

describe('isApiRequest', () => {
  it.each([
    ['/api/v1/skills?sort=name', '/', true],
    ['/api/v1/skills/search?q=pdf', '/', true],
    ['/api/v1/skills/acme/pdf-kit', '/', true],
    ['/api/v1/skills/acme/pdf-kit/stats', '/', true],
    ['/api/v1/categories?locale=de', '/', true],
    ['/api/v1', '/', true],
    ['/api/v1/', '/', true],
    // A repo may end in .json: routed, so the handler answers it.
    ['/api/v1/skills/acme/notes.json', '/', true],
    // Unknown paths get the handler's 404 body, as from `npm start`.
    ['/api/v1/nothing/here', '/', true],
    // Static files of the tree go to the network (the handler's loader, static clients).
    ['/api/v1/manifest.json', '/', false],
    ['/api/v1/skills/acme/pdf-kit/index.json', '/', false],
    ['/api/v1/skills/_list/all/stars-desc/1.json', '/', false],
    ['/api/v1/skills/_search/r.0123abcd.json', '/', false],
    ['/api/v1/categories/index.de.json', '/', false],
    // Not the API.
    ['/', '/', false],
    ['/index.html', '/', false],
    ['/sw.js', '/', false],
    ['/api/v10/skills', '/', false],
    ['/api/v1x', '/', false],
    // Under a sub-path.
    ['/repo/api/v1/skills?page=2', '/repo/', true],
    ['/repo/api/v1/manifest.json', '/repo/', false],
    ['/api/v1/skills', '/repo/', false],
    ['/other/api/v1/skills', '/repo/', false],
  ])('%s under base %s → %s', (path, base, expected) => {
    expect(isApiRequest(new URL(path, ORIGIN), ORIGIN, base)).toBe(expected);
  });

  it('never answers another origin', () => {
    expect(isApiRequest(new URL('https://example.com/api/v1/skills'), ORIGIN, '/')).toBe(false);
    expect(isApiRequest(new URL('http://user.github.io/api/v1/skills'), ORIGIN, '/')).toBe(false);
  });
});

describe('createBrowserHandler', () => {
  it('answers under the path of the site URL and always revalidates the manifest, only the manifest', async () => {
    const files: Record<string, unknown> = {
      '/repo/api/v1/manifest.json': { format: FORMAT_VERSION, pageSize: 20, skillCount: 0, locales: ['en'], categories: [], platforms: [], lists: { all: 0 } },
      '/repo/api/v1/categories/index.json': { data: [] },
    };
    const calls: Array<[string, RequestCache | undefined]> = [];
    const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      calls.push([url.pathname, init?.cache]);
      const body = files[url.pathname];
      return body === undefined ? new Response('not found', { status: 404 }) : Response.json(body);
    }) as typeof fetch;
    const handle = createBrowserHandler(`${ORIGIN}/repo/`, fakeFetch);
    const response = await handle(new Request(`${ORIGIN}/repo/api/v1/categories`));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: [] });
    expect(calls).toEqual([
      ['/repo/api/v1/manifest.json', 'no-cache'],
      ['/repo/api/v1/categories/index.json', undefined],
    ]);
  });

  it('with prefetchManifest, reads the manifest before any request, once, and answers with it', async () => {
    const manifest = { format: FORMAT_VERSION, pageSize: 20, skillCount: 0, locales: ['en'], categories: [], platforms: [], lists: { all: 0 } };
    const calls: string[] = [];
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const fakeFetch = (async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      calls.push(url.pathname);
      if (url.pathname.endsWith('/manifest.json')) {
        await held;
        return Response.json(manifest);
      }
      return url.pathname.endsWith('/categories/index.json') ? Response.json({ data: [] }) : new Response('not found', { status: 404 });
    }) as typeof fetch;
    const handle = createBrowserHandler(`${ORIGIN}/`, fakeFetch, { prefetchManifest: true });
    // Asked for at creation, before any request.
    expect(calls).toEqual(['/api/v1/manifest.json']);
    const answer = handle(new Request(`${ORIGIN}/api/v1/categories`));
    release!();
    expect((await answer).status).toBe(200);
    // The request joined the read under way: the manifest was fetched once.
    expect(calls).toEqual(['/api/v1/manifest.json', '/api/v1/categories/index.json']);
  });

  it('with prefetchManifest, a failed early read is read again by the first request', async () => {
    const manifest = { format: FORMAT_VERSION, pageSize: 20, skillCount: 0, locales: ['en'], categories: [], platforms: [], lists: { all: 0 } };
    let manifestReads = 0;
    const fakeFetch = (async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      if (url.pathname.endsWith('/manifest.json')) {
        manifestReads++;
        if (manifestReads === 1) throw new TypeError('offline');
        return Response.json(manifest);
      }
      return url.pathname.endsWith('/categories/index.json') ? Response.json({ data: [] }) : new Response('not found', { status: 404 });
    }) as typeof fetch;
    const handle = createBrowserHandler(`${ORIGIN}/`, fakeFetch, { prefetchManifest: true });
    // expect.poll resolves on a later task: the failed read has settled (and been forgotten) by then.
    await expect.poll(() => manifestReads).toBe(1);
    const response = await handle(new Request(`${ORIGIN}/api/v1/categories`));
    expect(response.status).toBe(200);
    expect(manifestReads).toBe(2);
  });

  describe('with the search root embedded (sw.js)', () => {
    /** A site of `skills` served by a fetch that holds the manifest until `release()`, recording every path asked for. */
    async function site(skills: ReturnType<typeof makeSkill>[]) {
      const built = await buildIndex(skills, { chunkBytes: 200, inlineMax: 3, packBytes: 16 });
      const manifest: Manifest = { ...built.manifest, search: { root: built.manifest.search!.root } };
      const calls: string[] = [];
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const fetch = (async (input: RequestInfo | URL) => {
        const path = new URL(String(input)).pathname.slice(1);
        calls.push(path);
        if (path === 'api/v1/manifest.json') {
          await held;
          return Response.json(manifest);
        }
        const body = built.files.get(path);
        return body === undefined ? new Response('not found', { status: 404 }) : Response.json(body);
      }) as typeof globalThis.fetch;
      return { built, search: built.manifest.search!, calls, release: () => release(), fetch };
    }
    const skills = Array.from({ length: 40 }, (_, i) => makeSkill(i, { name: `tool ${i % 7} kit`, description: `shared words ${i % 3} docker`, stars: i }));
    const searchUrl = `${ORIGIN}/api/v1/skills/search?q=${encodeURIComponent('docker tool')}&limit=5`;

    it('starts a search before the manifest arrives, answers as without it, and fetches no file twice', async () => {
      const plain = await site(skills);
      const plainHandle = createBrowserHandler(`${ORIGIN}/`, plain.fetch);
      const plainAnswer = plainHandle(new Request(searchUrl));
      plain.release();
      const expected = await (await plainAnswer).json();

      const early = await site(skills);
      const handle = createBrowserHandler(`${ORIGIN}/`, early.fetch, { prefetchManifest: true, search: early.search });
      const answer = handle(new Request(searchUrl));
      // Term chunks and then summary shards are asked for while the manifest is still held.
      await expect.poll(() => early.calls.some((p) => /_search\/d\./.test(p))).toBe(true);
      expect(early.calls.some((p) => /_search\/t\./.test(p))).toBe(true);
      early.release();
      const response = await answer;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ...expected, meta: { ...expected.meta, took: expect.any(Number) } });
      expect(early.calls.length).toBe(new Set(early.calls).size);
      // The root came with sw.js: its file is never read.
      expect(early.calls).not.toContain(early.search.root);
      // The same files as the handler without the early search, plus none.
      expect(new Set(early.calls)).toEqual(new Set(plain.calls.filter((p) => p !== plain.search.root)));
    });

    it('as the Service Worker makes it (no manifest read ahead), sends the search files first, then the manifest', async () => {
      const plain = await site(skills);
      const plainAnswer = createBrowserHandler(`${ORIGIN}/`, plain.fetch)(new Request(searchUrl));
      plain.release();
      const expected = await (await plainAnswer).json();

      const early = await site(skills);
      const handle = createBrowserHandler(`${ORIGIN}/`, early.fetch, { search: early.search });
      // Nothing is read before a request comes.
      expect(early.calls).toEqual([]);
      const answer = handle(new Request(searchUrl));
      await expect.poll(() => early.calls.includes('api/v1/manifest.json')).toBe(true);
      const manifestAt = early.calls.indexOf('api/v1/manifest.json');
      expect(manifestAt).toBeGreaterThan(0);
      expect(early.calls.slice(0, manifestAt).every((p) => p.includes('/_search/'))).toBe(true);
      early.release();
      const response = await answer;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ...expected, meta: { ...expected.meta, took: expect.any(Number) } });
      expect(early.calls.length).toBe(new Set(early.calls).size);
    });

    it('runs the warm-up once, a task after the first search sent its requests, and tells it when a file is back', async () => {
      const early = await site(skills);
      const runs: Array<{ askedBefore: string[]; stop: () => boolean }> = [];
      const handle = createBrowserHandler(`${ORIGIN}/`, early.fetch, {
        search: early.search,
        warm: (stop) => runs.push({ askedBefore: [...early.calls], stop }),
      });
      const first = handle(new Request(searchUrl));
      // Not within the request's own task: the search's requests go out first.
      expect(runs).toEqual([]);
      await expect.poll(() => runs.length).toBe(1);
      expect(runs[0]!.askedBefore.some((p) => /_search\/t\./.test(p))).toBe(true);
      early.release();
      expect((await first).status).toBe(200);
      // Files came back after it started: it is told to stop.
      expect(runs[0]!.stop()).toBe(true);
      expect((await handle(new Request(`${searchUrl}&page=2`))).status).toBe(200);
      expect(runs).toHaveLength(1);
    });

    it('starts an autocomplete before the manifest arrives too, and answers as without it', async () => {
      const url = `${ORIGIN}/api/v1/skills/autocomplete?q=${encodeURIComponent('docker to')}&limit=3`;
      const plain = await site(skills);
      const plainAnswer = createBrowserHandler(`${ORIGIN}/`, plain.fetch)(new Request(url));
      plain.release();
      const expected = await (await plainAnswer).json();
      expect((expected as { data: unknown[] }).data.length).toBeGreaterThan(0);

      const early = await site(skills);
      const answer = createBrowserHandler(`${ORIGIN}/`, early.fetch, { prefetchManifest: true, search: early.search })(new Request(url));
      await expect.poll(() => early.calls.some((p) => /_search\/t\./.test(p))).toBe(true);
      early.release();
      const response = await answer;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(expected);
      expect(early.calls.length).toBe(new Set(early.calls).size);
      expect(early.calls).not.toContain(early.search.root);
    });

    it('a search with a filter starts nothing early (only q, page and limit do)', async () => {
      const early = await site(skills);
      const answer = createBrowserHandler(`${ORIGIN}/`, early.fetch, { prefetchManifest: true, search: early.search })(
        new Request(`${searchUrl}&minStars=1`),
      );
      // expect.poll resolves on a later task: by then an early search would have asked for chunks.
      await expect.poll(() => early.calls.includes('api/v1/manifest.json')).toBe(true);
      expect(early.calls.filter((p) => p.includes('/_search/'))).toEqual([]);
      early.release();
      expect((await answer).status).toBe(200);
    });

    it('a manifest naming another root (a newer deploy) is what the answer follows', async () => {
      const old = await site(skills.map((s) => ({ ...s, description: 'nothing here' })));
      const current = await site(skills);
      // sw.js of the old build, files and manifest of the current one.
      const handle = createBrowserHandler(`${ORIGIN}/`, current.fetch, { prefetchManifest: true, search: old.search });
      const answer = handle(new Request(searchUrl));
      current.release();
      const response = await answer;
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: unknown[]; pagination: { total: number } };
      expect(body.pagination.total).toBeGreaterThan(0);
      expect(current.calls).toContain(current.search.root);
    });
  });
});
