/**
 * Static-only clients (issue 4 §5): a client that cannot run the handler reads the documented
 * `.json` files straight from a static host. For every canonical URL that has a file
 * (`staticPathFor`), the file served by the plain `serve` CLI must hold exactly the body the
 * handler answers for that URL — details, contents, stats, categories in every locale, and the
 * pages of the skill lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { createHandler, type Handler } from '../src/handler.ts';
import { cachedLoader, fetchLoader } from '../src/loader.ts';
import type { Manifest } from '../src/manifest.ts';
import { ORDERS, PAGE_SIZE, SORTS } from '../src/paths.ts';
import type { SkillListResponse } from '../src/schemas.ts';
import { staticPathFor } from '../src/static-path.ts';
import { copyContent, startServeCli, tempDir, type ServeCli, type TempDir } from './helpers/browser-setup.ts';

let temp: TempDir;
let server: ServeCli;
let handler: Handler;
let manifest: Manifest;
let skills: Array<{ owner: string; repo: string }>;

beforeAll(async () => {
  temp = await tempDir('skills-static-');
  await copyContent(`${temp.dir}/content`);
  const report = await runBuild({ contentDir: `${temp.dir}/content`, outDir: `${temp.dir}/out`, site: false });
  manifest = report.manifest;
  server = await startServeCli(`${temp.dir}/out`);
  // The handler reads the same files over HTTP, as in a Service Worker.
  handler = createHandler(cachedLoader(fetchLoader(`${server.url}/`), { maxEntries: 5000 }));
  const all = await answer(`/api/v1/skills?limit=100`);
  skills = (all.body as SkillListResponse).data;
  expect(skills).toHaveLength(manifest.skillCount);
});

afterAll(async () => {
  await server?.close();
  await temp?.remove();
});

async function answer(url: string): Promise<{ status: number; body: unknown }> {
  const response = await handler(new Request(`${server.url}${url}`));
  return { status: response.status, body: await response.json() };
}

/** The canonical URL's answer and its static file, fetched from `serve`, are the same JSON. */
async function expectSameAsFile(url: string): Promise<void> {
  const path = staticPathFor(url);
  expect(path, url).not.toBeNull();
  const [canonical, file] = await Promise.all([answer(url), fetch(`${server.url}/${path}`)]);
  expect(canonical.status, url).toBe(200);
  expect(file.status, `${url} → ${path}`).toBe(200);
  expect(file.headers.get('content-type'), path!).toMatch(/^application\/json/);
  expect(await file.json(), `${url} → ${path}`).toEqual(canonical.body);
}

/** Page numbers 1..totalPages of a list of `total` items (page 1 even when empty). */
const pages = (total: number): number[] => Array.from({ length: Math.max(1, Math.ceil(total / PAGE_SIZE)) }, (_, i) => i + 1);

describe('static files equal the canonical answers', () => {
  it('skill detail, content and stats of every skill', async () => {
    for (const { owner, repo } of skills) {
      for (const suffix of ['', '/content', '/stats']) await expectSameAsFile(`/api/v1/skills/${owner}/${repo}${suffix}`);
    }
  });

  it('the category list in every built locale, and the default', async () => {
    expect(manifest.locales).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'ja', 'ko', 'zh-TW']));
    await expectSameAsFile('/api/v1/categories');
    for (const locale of manifest.locales) await expectSameAsFile(`/api/v1/categories?locale=${locale}`);
  });

  it('every category in English, and a few in every locale', async () => {
    for (const slug of manifest.categories) await expectSameAsFile(`/api/v1/categories/${slug}`);
    for (const slug of ['devops', 'security', 'ci-cd']) {
      for (const locale of manifest.locales) await expectSameAsFile(`/api/v1/categories/${slug}?locale=${locale}`);
    }
  });

  it('every page of the full list in every sort and order', async () => {
    for (const sort of SORTS) {
      for (const order of ORDERS) {
        for (const page of pages(manifest.skillCount)) await expectSameAsFile(`/api/v1/skills?sort=${sort}&order=${order}&page=${page}`);
      }
    }
    await expectSameAsFile('/api/v1/skills');
  });

  it('every page of every category and platform list, also through /categories/:slug/skills', async () => {
    for (const [key, total] of Object.entries(manifest.lists)) {
      const [kind, id] = key.split('/');
      if (kind === 'all') continue;
      for (const page of pages(total)) {
        await expectSameAsFile(`/api/v1/skills?${kind}=${id}&page=${page}`);
        if (kind === 'category') await expectSameAsFile(`/api/v1/categories/${id}/skills?page=${page}&sort=name&order=desc`);
      }
    }
  });
});
