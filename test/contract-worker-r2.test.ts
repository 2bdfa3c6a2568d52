/**
 * The edge Worker over an R2 bucket instead of its static assets (docs/edge.md "The tree in R2"):
 * the Worker bundled like `wrangler deploy` does and run in workerd through miniflare with a local
 * R2 bucket bound as `TREE`, filled with the objects `skills-api deploy` uploads (same keys under a
 * prefix, media types and cache headers). The shared contract suite runs against it; then the
 * same answers as the in-memory handler, the files it serves, and a redeploy picked up.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { startEdge, type RunningEdge } from '../scripts/dev-edge.ts';
import { createHandler, type Handler } from '../src/handler.ts';
import { mapLoader } from '../src/loader.ts';
import type { Manifest } from '../src/manifest.ts';
import { r2Loader } from '../src/edge/r2-loader.ts';
import { isApiError } from '../src/errors.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { defineContractSuite } from './contract/suite.ts';
import { edgeContractHost, readJsonTree, workerScript } from './helpers/edge-host.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

defineContractSuite('Cloudflare Worker over an R2 bucket in workerd', () => edgeContractHost('contract-worker-r2', { r2: { prefix: 'directory/v1' } }));

/** The body with the search duration (`meta.took`) left out: the only part that may differ. */
function comparable(text: string): unknown {
  const body = JSON.parse(text) as { meta?: { took?: number } };
  if (body.meta !== undefined) delete body.meta.took;
  return body;
}

describe('edge Worker over the sample build in R2', () => {
  let tmp: string;
  let edge: RunningEdge;
  let manifest: Manifest;
  let memory: Handler;
  const get = (path: string, init?: RequestInit) => fetch(new URL(path, edge.url), init);

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'edge-r2-'));
    await runBuild({ contentDir: 'content', outDir: join(tmp, 'a'), sourceDateEpoch: '1700000000' });
    const files = await readJsonTree(join(tmp, 'a'));
    manifest = files.get(MANIFEST_PATH) as Manifest;
    memory = createHandler(mapLoader(files));
    // Every request looks for a new manifest, so the redeploy below is seen at once.
    edge = await startEdge({ dir: join(tmp, 'a'), script: await workerScript(), r2: { prefix: 'site', refreshSeconds: 0 } });
  });
  afterAll(async () => {
    await edge?.close();
    if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
  });

  it('answers the canonical URLs as the in-memory handler does, with the caching headers of the assets Worker', async () => {
    const urls = ['/api/v1/skills', '/api/v1/categories?locale=ja', '/api/v1/skills/search?q=docker', '/api/v1/skills/autocomplete?q=kub', '/api/v1/skills?limit=101', '/api/v1/skills/nobody/nothing'];
    for (const slug of manifest.categories.slice(0, 5)) urls.push(`/api/v1/categories/${slug}`, `/api/v1/categories/${slug}/skills?sort=name&order=asc`);
    for (const url of urls) {
      const expected = await memory(new Request(new URL(url, 'http://localhost')));
      const actual = await get(url);
      expect(actual.status, url).toBe(expected.status);
      expect(comparable(await actual.text()), url).toEqual(comparable(await expected.text()));
      expect(actual.headers.get('content-type'), url).toBe('application/json; charset=utf-8');
      expect(actual.headers.get('cache-control'), url).toBe('public, max-age=60, s-maxage=300');
    }
    const ok = await get('/api/v1/skills?limit=2');
    const again = await get('/api/v1/skills?limit=2', { headers: { 'if-none-match': ok.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('serves search index files immutable, the demo page at /, and never the deploy state or a dot-file', async () => {
    const search = (await readdir(join(tmp, 'a', 'api', 'v1', 'skills', '_search')))[0]!;
    const file = await get(`/api/v1/skills/_search/${search}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(file.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // What the build's `_headers` gives every file under /api/v1 on the assets Worker.
    expect(file.headers.get('access-control-allow-origin')).toBe('*');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await file.text()).toBe(await readFile(join(tmp, 'a', 'api', 'v1', 'skills', '_search', search), 'utf8'));
    const etag = file.headers.get('etag')!;
    expect((await get(`/api/v1/skills/_search/${search}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toBe(await readFile(join(tmp, 'a', 'index.html'), 'utf8'));
    for (const path of ['/.skills-api-deploy.json', '/%2e%2e/site/index.html', '/api/v1/../../x', '/nothing.js']) {
      const missing = await get(path);
      expect(missing.status, path).toBe(404);
      expect(((await missing.json()) as { error: { code: string } }).error.code, path).toBe('NOT_FOUND');
    }
  });

  it('a redeploy into the bucket is answered from the new manifest, with no restart', async () => {
    const content = join(tmp, 'content');
    await cp('content', content, { recursive: true });
    const skill = join(content, 'skills', 'kenji-sato', 'japanese-business-email', 'SKILL.md');
    await writeFile(skill, (await readFile(skill, 'utf8')).replace(/^description: .*$/m, 'description: Zyxwvut marker for the redeploy test.'));
    await runBuild({ contentDir: content, outDir: join(tmp, 'b'), sourceDateEpoch: '1700000000' });
    const before = await get('/api/v1/skills/search?q=zyxwvut');
    expect(((await before.json()) as { data: unknown[] }).data).toHaveLength(0);
    await edge.fill!(join(tmp, 'b'));
    const after = await get('/api/v1/skills/search?q=zyxwvut');
    expect(after.status).toBe(200);
    expect(((await after.json()) as { data: { id: string }[] }).data.map((s) => s.id)).toEqual(['kenji-sato/japanese-business-email']);
  });
});

describe('r2Loader', () => {
  it('a bucket with no manifest under the prefix names the key, the binding and TREE_PREFIX', async () => {
    // A bucket holding nothing: what the Worker sees when TREE_PREFIX is not the deploy's prefix.
    const empty = { get: async () => null, head: async () => null } as unknown as Parameters<typeof r2Loader>[0];
    const error = await r2Loader(empty, 'site/v2')(MANIFEST_PATH).catch((e: unknown) => e);
    expect(isApiError(error) && error.code).toBe('SERVER_ERROR');
    expect((error as Error).message).toBe(`no site/v2/${MANIFEST_PATH} in the R2 bucket bound as TREE: deploy the build there (skills-api deploy <dir> --to s3://<bucket>/<prefix>) and set TREE_PREFIX to that prefix (now "site/v2")`);
    expect(await r2Loader(empty, 'site/v2')('api/v1/skills/_list/all/stars-desc/1.json')).toBeUndefined();
  });
});
