/**
 * The edge host: the Cloudflare Worker (src/edge/worker.ts) bundled like `wrangler deploy` does and
 * run in workerd through miniflare, configured from wrangler.toml, with a build output as its
 * static-assets binding. Runs the shared contract suite against it, then what only the edge adds:
 * ETag/304 and Cache-Control, immutable search index files, static files, JSON 404s, and the same
 * status and body as the in-memory handler for the canonical URLs of the real sample build.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { edgeConfig, readWranglerConfig, startEdge, type RunningEdge } from '../scripts/dev-edge.ts';
import { createHandler, type Handler } from '../src/handler.ts';
import { EXPOSED_HEADERS, strongEtag } from '../src/http-cache.ts';
import { mapLoader } from '../src/loader.ts';
import type { Manifest } from '../src/manifest.ts';
import { FORMAT_VERSION, MANIFEST_PATH, ORDERS, SORTS } from '../src/paths.ts';
import { defineContractSuite } from './contract/suite.ts';
import { edgeContractHost, readJsonTree, workerScript } from './helpers/edge-host.ts';

// Every request crosses miniflare's entry, router and assets Workers inside workerd (a few ms
// each on a busy machine), and the suite sends thousands: more time than the default per test.
vi.setConfig({ testTimeout: 120_000 });

defineContractSuite('Cloudflare Worker in workerd', () => edgeContractHost('contract-worker'));

async function put(dir: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), text);
}

describe('edge Worker over the sample build', () => {
  let tmp: string;
  let out: string;
  let edge: RunningEdge;
  let files: Map<string, unknown>;
  let manifest: Manifest;
  let memory: Handler;
  /** A content-hashed search file written beside the real index, so the test never depends on it. */
  const HASHED = 'api/v1/skills/_search/x.0123456789abcdef.json';
  const get = (path: string, init?: RequestInit) => fetch(new URL(path, edge.url), init);

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'edge-sample-'));
    out = join(tmp, 'public');
    await runBuild({ contentDir: 'content', outDir: out, sourceDateEpoch: undefined });
    await put(out, HASHED, '{"edge":"hashed"}');
    await put(out, 'hello.txt', 'hello from the assets\n');
    // A skill file without `data`: the handler's SERVER_ERROR for a broken build.
    await put(out, 'api/v1/skills/broken-owner/broken-repo/index.json', '{"nope":1}');
    files = await readJsonTree(out);
    manifest = files.get(MANIFEST_PATH) as Manifest;
    memory = createHandler(mapLoader(files));
    edge = await startEdge({ dir: out, script: await workerScript() });
  });
  afterAll(async () => {
    await edge?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  describe('Cache-Control and ETag on API answers', () => {
    it('a 200 has a short public lifetime, a longer shared one, and the SHA-256 of its body as ETag, weak as the runtime may compress it', async () => {
      const response = await get('/api/v1/skills?limit=3');
      expect(response.status).toBe(200);
      const body = new Uint8Array(await response.arrayBuffer());
      expect(response.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300');
      expect(response.headers.get('etag')).toBe(`W/${await strongEtag(body)}`);
      expect(response.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]{43}"$/);
      expect(response.headers.get('vary')).toMatch(/Accept-Encoding/);
      expect(response.headers.get('access-control-expose-headers')).toBe(EXPOSED_HEADERS);
      const other = await get('/api/v1/skills?limit=4');
      expect(other.headers.get('etag')).not.toBe(response.headers.get('etag'));
    });

    it('If-None-Match with the ETag (strong, weak, or in a list) is a bodiless 304 with the same validators', async () => {
      const first = await get('/api/v1/categories');
      const etag = first.headers.get('etag')!;
      for (const header of [etag, etag.replace(/^W\//, ''), `"other", ${etag}`, '*']) {
        const again = await get('/api/v1/categories', { headers: { 'if-none-match': header } });
        expect(again.status, header).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300');
        expect(again.headers.get('access-control-allow-origin')).toBe('*');
      }
      const changed = await get('/api/v1/categories', { headers: { 'if-none-match': '"something-else"' } });
      expect(changed.status).toBe(200);
      expect(await changed.text()).toBe(await first.text());
    });

    it('HEAD carries the ETag of the GET answer and no body', async () => {
      const got = await get('/api/v1/categories/devops');
      const head = await get('/api/v1/categories/devops', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(head.headers.get('etag')).toBe(got.headers.get('etag'));
    });

    it('errors: 400/404 cacheable like answers (no ETag), 5xx and 405 never stored', async () => {
      for (const path of ['/api/v1/skills?page=0', '/api/v1/skills/no-such/skill', '/api/v1/nope']) {
        const response = await get(path);
        expect(response.headers.get('cache-control'), path).toBe('public, max-age=60, s-maxage=300');
        expect(response.headers.get('etag'), path).toBeNull();
      }
      const broken = await get('/api/v1/skills/broken-owner/broken-repo');
      expect(broken.status).toBe(500);
      expect(broken.headers.get('cache-control')).toBe('no-store');
      expect(await broken.json()).toEqual({ error: { code: 'SERVER_ERROR', message: expect.stringContaining('rebuild') } });
      const post = await get('/api/v1/skills', { method: 'POST', body: '{}' });
      expect(post.status).toBe(405);
      expect(post.headers.get('cache-control')).toBe('no-store');
    });

    it('a CORS preflight is answered (a page may send If-None-Match cross-origin)', async () => {
      const response = await get('/api/v1/skills', { method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' } });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    });
  });

  describe('files', () => {
    it('content-hashed search index files are served as files, immutable, revalidated by the assets', async () => {
      const paths = [HASHED, ...(manifest.search === undefined ? [] : [manifest.search.root])];
      for (const path of paths) {
        const response = await get(`/${path}`);
        expect(response.status, path).toBe(200);
        expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        expect(await response.json()).toEqual(files.get(path));
        expect(response.headers.get('vary')).toMatch(/Accept-Encoding/);
        const etag = response.headers.get('etag');
        expect(etag).toMatch(/^W\//);
        const again = await get(`/${path}`, { headers: { 'if-none-match': etag! } });
        expect(again.status).toBe(304);
        expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      }
    });

    it('If-None-Match: * on an existing file is a 304, as on the Node server (with or without Range)', async () => {
      for (const headers of [{ 'if-none-match': '*' }, { 'if-none-match': '*', range: 'bytes=0-9' }] as Record<string, string>[]) {
        const response = await get('/api/v1/manifest.json', { headers });
        expect(response.status).toBe(304);
        expect(response.headers.get('etag')).toMatch(/^W\//);
        expect(await response.text()).toBe('');
      }
    });

    it('a missing search file is the JSON 404; other methods are 405', async () => {
      const missing = await get('/api/v1/skills/_search/x.ffffffffffffffff.json');
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
      const post = await get(`/${HASHED}`, { method: 'POST', body: '' });
      expect(post.status).toBe(405);
    });

    it('static files outside the API are served as they are', async () => {
      const response = await get('/hello.txt');
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('hello from the assets\n');
    });

    it('the documented .json files under /api/v1 are served as files, like any static host', async () => {
      const page = await get('/api/v1/skills/_list/all/stars-desc/1.json');
      expect(page.status).toBe(200);
      expect(await page.json()).toEqual(await (await get('/api/v1/skills')).json());
      expect(((await (await get('/api/v1/manifest.json')).json()) as Manifest).format).toBe(FORMAT_VERSION);
    });

    it.each(['/no-such-file.html', '/api/v2/skills', '/api', '/api/v1/nope', '/api/v1/no-such-file.json', '/api/v1/skills/_list/all/stars-desc/9999.json'])(
      '%s is a JSON NOT_FOUND',
      async (path) => {
        const response = await get(path);
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
      },
    );
  });

  it.each([
    ['a 65 KB path', `/api/v1/skills/${'a'.repeat(65 * 1024)}`, 414],
    ['a 65 KB query', `/api/v1/skills/search?q=${'b'.repeat(65 * 1024)}`, 414],
    ['broken percent-encoding in the API', '/api/v1/skills/%E0%A4%A/x', 404],
    ['a lone percent in a file path', '/%', 404],
    ['an encoded NUL', '/api/v1/skills/a%00/b', 404],
  ])('%s is our JSON error with CORS, never the runtime\'s plain text', async (_, path, status) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await response.json()) as { error: { code: string } }).error.code).toMatch(/^(?:INVALID_PARAMS|NOT_FOUND)$/);
  });

  it('every canonical URL: same status and body as the in-memory handler over the same build', async () => {
    const skills = [...files.keys()].flatMap((path) => /^api\/v1\/skills\/([^_/][^/]*)\/([^/]+)\/index\.json$/.exec(path)?.slice(1, 3).join('/') ?? []);
    expect(skills.length).toBe(manifest.skillCount + 1);
    const urls: string[] = ['/api/v1/skills', '/api/v1/skills/', '/api/v1/categories', '/api/v1/skills?page=999', '/api/v1/skills?limit=100&page=1'];
    for (const id of skills) for (const suffix of ['', '/content', '/stats']) urls.push(`/api/v1/skills/${id}${suffix}`);
    for (const sort of SORTS) for (const order of ORDERS) urls.push(`/api/v1/skills?sort=${sort}&order=${order}&limit=7&page=2`);
    for (const slug of manifest.categories) {
      urls.push(`/api/v1/skills?category=${slug}`, `/api/v1/categories/${slug}`, `/api/v1/categories/${slug}/skills?sort=name&order=asc`);
      for (const locale of manifest.locales) urls.push(`/api/v1/categories/${slug}?locale=${locale}`);
    }
    for (const platform of manifest.platforms) {
      urls.push(`/api/v1/skills?platform=${platform}&sort=updated`, `/api/v1/skills?platform=${platform}&category=${manifest.categories[0]}&limit=3`);
    }
    for (const locale of [...manifest.locales, 'de-AT', 'xx', 'en_US']) urls.push(`/api/v1/categories?locale=${locale}`);
    urls.push(
      '/api/v1/skills/search?q=pdf',
      `/api/v1/skills/search?q=deploy&category=${manifest.categories[0]}`,
      '/api/v1/skills/search?q=%22unbalanced',
      '/api/v1/skills/search?q=a',
      '/api/v1/skills/autocomplete?q=pd',
      '/api/v1/skills?page=0&limit=101&sort=popular',
      '/api/v1/skills/no-such/skill/stats',
      '/api/v1/categories/no-such-category',
      '/api/v1/skills/..%2f..%2fetc/passwd',
    );
    /** The body with the search duration (`meta.took`) left out: the only part that may differ. */
    const comparable = (text: string): unknown => {
      const body = JSON.parse(text) as { meta?: { took?: number } };
      if (body.meta !== undefined) delete body.meta.took;
      return body;
    };
    const statuses = new Map<string, number>();
    for (const url of urls) {
      const expected = await memory(new Request(new URL(url, 'http://localhost')));
      const actual = await get(url);
      statuses.set(url, actual.status);
      expect(actual.status, url).toBe(expected.status);
      expect(comparable(await actual.text()), url).toEqual(comparable(await expected.text()));
      expect(actual.headers.get('content-type'), url).toBe(expected.headers.get('content-type'));
    }
    expect(urls.length).toBeGreaterThan(200);
    // Real answers were compared, search included, not only errors.
    expect([statuses.get('/api/v1/skills/search?q=pdf'), statuses.get('/api/v1/skills/autocomplete?q=pd'), statuses.get('/api/v1/skills/search?q=a')]).toEqual([200, 200, 400]);
    expect([...statuses.values()].filter((s) => s === 200).length).toBeGreaterThan(urls.length * 0.8);
  });
});

describe('wrangler.toml and the bundle', () => {
  it('configures the Worker entry, the assets folder and binding, /api/* first, and no account', async () => {
    const text = await readFile('wrangler.toml', 'utf8');
    expect(await edgeConfig()).toEqual({
      main: 'src/edge/worker.ts',
      compatibilityDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      assetsDirectory: './public',
      binding: 'ASSETS',
      runWorkerFirst: ['/api/*'],
    });
    expect(text).not.toMatch(/account_id|zone_id/);
    expect(text).toMatch(/^not_found_handling = "none"$/m);
  });

  it('readWranglerConfig reports every malformed line and missing key', () => {
    expect(() => readWranglerConfig('main = src/x.ts\njust words\n[assets]\nbinding = "ASSETS"\nrun_worker_first = true')).toThrowErrorMatchingInlineSnapshot(`
      [Error: wrangler.toml:1 → main: unsupported value src/x.ts
      wrangler.toml:2: expected key = value or [table], got "just words"
      wrangler.toml → main: expected a non-empty string
      wrangler.toml → compatibility_date: expected a non-empty string
      wrangler.toml → assets.directory: expected a non-empty string
      wrangler.toml → assets.run_worker_first: expected an array of path patterns]
    `);
  });

  it('the bundle is one ES module without Node built-ins', async () => {
    const bundle = await workerScript();
    expect(bundle).toMatch(/export\s*\{[^}]*as default/);
    expect(bundle).not.toMatch(/\bfrom\s*["']node:|\brequire\(/);
  });
});

describe('edge Worker under concurrent cold searches (workerd isolates requests)', () => {
  let tmp: string;
  let edge: RunningEdge;

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'edge-concurrent-'));
    await runBuild({ contentDir: 'content', outDir: join(tmp, 'public'), site: false, sourceDateEpoch: undefined });
    edge = await startEdge({ dir: join(tmp, 'public'), script: await workerScript() });
  });
  afterAll(async () => {
    await edge?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('answers every one of 3 waves of 24 concurrent searches and autocompletes with 200 and our JSON', async () => {
    // Distinct queries, so concurrent requests need the same index files at the same time: the
    // Worker must never make one request wait on another's load (workerd answers such a request
    // a plain-text 500, "the Worker's code had hung").
    const words = ['dep', 'kub', 'doc', 'pdf', 'sec', 'ter', 'api', 'tes', 'dat', 'rev', 'mar', 'wri'];
    for (let wave = 0; wave < 3; wave++) {
      const urls = words.flatMap((w, i) => [
        `/api/v1/skills/autocomplete?q=%22${w}&limit=20&w=${wave}-${i}`,
        `/api/v1/skills/search?q=${w}*%20-zzz${wave}&limit=${(i % 5) + 1}`,
      ]);
      const answers = await Promise.all(urls.map(async (url) => {
        const response = await fetch(new URL(url, edge.url), { headers: { 'accept-encoding': 'identity' } });
        return { url, status: response.status, type: response.headers.get('content-type'), text: await response.text() };
      }));
      const failed = answers.filter((a) => a.status !== 200 && !(a.status === 400 && a.type?.startsWith('application/json')));
      expect(failed.map((a) => `${a.status} ${a.url} ${a.text.slice(0, 120)}`)).toEqual([]);
    }
  });
});
