/**
 * The in-memory host: the contract suite against `createHandler(mapLoader(...), { bytes })` over a build
 * emitted into a Map (no file system), plus what only this host can check cheaply: the static
 * file of every canonical URL is exactly the handler's answer.
 */
import { describe, expect, it } from 'vitest';
import { createHandler } from '../src/handler.ts';
import { mapBytesLoader, mapLoader } from '../src/loader.ts';
import { ORDERS, SORTS } from '../src/paths.ts';
import { staticPathFor } from '../src/static-path.ts';
import { FIXTURE, SAMPLE } from './contract/contract-data.ts';
import { defineContractSuite } from './contract/suite.ts';

for (const data of [SAMPLE, FIXTURE]) {
  defineContractSuite(
    'in-memory handler',
    async () => {
      const files = await data.files();
      // Skill files and archives are bytes in the same map (JSON files are parsed values).
      const handler = createHandler(mapLoader(files), { bytes: mapBytesLoader(files) });
      return { fetch: (path, init) => handler(new Request(new URL(path, 'http://localhost'), init)) };
    },
    data,
  );
}

describe('staticPathFor(url) file === handler answer', () => {
  it.each([SAMPLE, FIXTURE])('holds for every canonical URL that has a file ($name)', async (data) => {
    const files = await data.files();
    const content = await data.content();
    const handler = createHandler(mapLoader(files));
    const urls: string[] = ['/api/v1/skills', '/api/v1/categories'];
    for (const skill of content.skills) {
      for (const suffix of ['', '/content', '/stats']) urls.push(`/api/v1/skills/${skill.id}${suffix}`);
    }
    const lists = [
      '',
      ...content.categories.flatMap((c) => [`category=${c.slug}`, ...c.subcategories.map((s) => `category=${s.slug}`)]),
      ...content.platforms.map((p) => `platform=${p.id}`),
    ];
    // Filtered lists in order asc have no file (src/paths.ts hasListPages): checked by the table below.
    for (const filter of lists) {
      for (const sort of SORTS) {
        for (const order of ORDERS) {
          if (filter !== '' && order === 'asc') continue;
          for (const page of [1, 2, 3]) urls.push(`/api/v1/skills?${filter}&sort=${sort}&order=${order}&page=${page}`);
        }
      }
    }
    for (const c of content.categories) {
      urls.push(`/api/v1/categories/${c.slug}/skills?order=desc&limit=20`, `/api/v1/categories/${c.slug}/skills?category=${c.slug}`);
      for (const locale of ['en', 'de', 'fr', 'ja', 'ko', 'zh-TW']) urls.push(`/api/v1/categories?locale=${locale}`, `/api/v1/categories/${c.slug}?locale=${locale}`);
    }
    let compared = 0;
    for (const url of urls) {
      const path = staticPathFor(url);
      expect(path, url).not.toBeNull();
      const file = files.get(path!);
      const response = await handler(new Request(new URL(url, 'http://localhost')));
      if (file === undefined) {
        // Only a page past the end has no file; the API still answers it.
        expect(response.status, url).toBe(200);
        expect(((await response.json()) as { data: unknown[] }).data, url).toEqual([]);
        continue;
      }
      expect(response.status, url).toBe(200);
      expect(await response.text(), url).toBe(JSON.stringify(file));
      compared++;
    }
    expect(compared).toBeGreaterThan(urls.length / 2);
  });

  it.each([
    ['/api/v1/skills?limit=10', null],
    ['/api/v1/skills?category=dev&platform=codex', null],
    ['/api/v1/categories/dev/skills?category=review', null],
    ['/api/v1/skills?category=dev&order=asc', null],
    ['/api/v1/skills?platform=codex&sort=name&order=asc&page=2', null],
    ['/api/v1/categories/dev/skills?order=asc', null],
    ['/api/v1/skills/search?q=x', null],
    ['/api/v1/skills/autocomplete?q=x', null],
    ['/api/v1/skills?page=0', null],
    ['/api/v1/skills?page=1&page=1', null],
    ['/api/v1/skills?sort=popular', null],
    ['/api/v1/skills?category=Bad_Slug', null],
    ['/api/v1/categories?locale=en_US', null],
    ['/api/v1/skills/..%2f..%2fetc/passwd', null],
    ['/api/v1/nope', null],
    ['/elsewhere', null],
    ['/api/v1/skills', 'api/v1/skills/_list/all/stars-desc/1.json'],
    ['/api/v1/skills/', 'api/v1/skills/_list/all/stars-desc/1.json'],
    ['/api/v1/skills?limit=20&page=3&sort=name&order=asc&foo=1', 'api/v1/skills/_list/all/name-asc/3.json'],
    ['/api/v1/skills?platform=codex&sort=updated', 'api/v1/skills/_list/platform/codex/updated-desc/1.json'],
    ['/api/v1/categories/dev/skills?category=dev&page=2', 'api/v1/skills/_list/category/dev/stars-desc/2.json'],
    ['https://example.org/api/v1/skills/acme/x.y/content', 'api/v1/skills/acme/x.y/content.json'],
    ['/api/v1/skills/acme/x/stats', 'api/v1/skills/acme/x/stats.json'],
    ['/api/v1/skills/acme/x', 'api/v1/skills/acme/x/index.json'],
    ['/api/v1/categories', 'api/v1/categories/index.json'],
    ['/api/v1/categories?locale=zh-TW', 'api/v1/categories/index.zh-TW.json'],
    ['/api/v1/categories/dev?locale=de', 'api/v1/categories/dev/index.de.json'],
  ])('staticPathFor(%j) → %j', (url, expected) => {
    expect(staticPathFor(url)).toBe(expected);
  });

  it('honours a base path', () => {
    expect(staticPathFor('/repo/api/v1/skills', '/repo/')).toBe('api/v1/skills/_list/all/stars-desc/1.json');
    expect(staticPathFor('/api/v1/skills', '/repo')).toBeNull();
  });
});
