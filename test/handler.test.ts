/**
 * src/handler.ts behaviour the contract suite cannot see from outside: what is read (manifest
 * once, only the covering pages), failures of the tree (missing, corrupt, wrong version), the
 * base path, and route parsing.
 */
import { describe, expect, it } from 'vitest';
import { createHandler, readLocale, type HandlerOptions } from '../src/handler.ts';
import { mapLoader, type Loader } from '../src/loader.ts';
import { FORMAT_VERSION, MANIFEST_PATH, listOrdinalsPath, listPagePath } from '../src/paths.ts';
import { matchRoute } from '../src/route.ts';
import { FIXTURE } from './contract/contract-data.ts';

/** A handler over the contract tree (optionally edited) that records every path it reads. */
async function setup(edit: (files: Map<string, unknown>) => void = () => {}, options?: HandlerOptions) {
  const files = new Map(await FIXTURE.files());
  edit(files);
  const reads: string[] = [];
  const inner = mapLoader(files);
  const loader: Loader = (path) => (reads.push(path), inner(path));
  const handler = createHandler(loader, options);
  const get = async (path: string) => {
    const response = await handler(new Request(new URL(path, 'http://localhost')));
    return { status: response.status, body: (await response.json()) as { data?: unknown; error?: { code: string; message: string } } };
  };
  return { files, reads, get };
}

describe('what the handler reads', () => {
  it('reads the manifest once, also under concurrent first requests', async () => {
    const { reads, get } = await setup();
    await Promise.all([get('/api/v1/skills'), get('/api/v1/categories'), get('/api/v1/skills?page=2')]);
    await get('/api/v1/skills?page=3');
    expect(reads.filter((p) => p === MANIFEST_PATH)).toHaveLength(1);
  });

  it.each([
    [1, 7, [1]],
    [3, 7, [1, 2]],
    [2, 20, [2]],
    [2, 30, [2, 3]],
    [1, 100, [1, 2, 3]],
    [9, 100, []],
  ])('page=%i limit=%i reads only pages %j', async (page, limit, pages) => {
    const { reads, get } = await setup();
    await get('/api/v1/skills?sort=name');
    reads.length = 0;
    const { status } = await get(`/api/v1/skills?sort=name&page=${page}&limit=${limit}`);
    expect(status).toBe(200);
    expect(reads).toEqual(pages.map((p) => listPagePath({ kind: 'all' }, 'name', 'desc', p)));
  });

  it('a filtered list in order asc reads its asc and desc ordinals and only the desc pages holding the answer', async () => {
    const { files, reads, get } = await setup();
    await get('/api/v1/skills');
    reads.length = 0;
    const dev = { kind: 'category', slug: 'dev' } as const;
    const { status, body } = await get('/api/v1/skills?category=dev&sort=stars&order=asc&limit=4&page=3');
    expect(status).toBe(200);
    const ids = (body.data as Array<{ id: string }>).map((s) => s.id);
    expect(ids).toHaveLength(4);
    expect(reads.slice(0, 2).sort()).toEqual([listOrdinalsPath(dev, 'stars', 'asc'), listOrdinalsPath(dev, 'stars', 'desc')]);
    // Exactly the desc pages that hold an answered skill, each once.
    const holding = [1, 2, 3].map((p) => listPagePath(dev, 'stars', 'desc', p)).filter((path) => {
      const data = (files.get(path) as { data: Array<{ id: string }> } | undefined)?.data ?? [];
      return data.some((s) => ids.includes(s.id));
    });
    expect(holding).toHaveLength(2); // the answer straddles a page boundary of the desc list
    expect(reads.slice(2).sort()).toEqual(holding);
  });

  it('combined filters read two ordinals files and the pages of the answered items only', async () => {
    const { reads, get } = await setup();
    await get('/api/v1/skills');
    reads.length = 0;
    const { status, body } = await get('/api/v1/skills?category=dev&platform=codex&limit=1');
    expect(status).toBe(200);
    expect(body.data).toHaveLength(1);
    expect(reads.filter((p) => p.endsWith('ordinals.json')).sort()).toEqual([
      'api/v1/skills/_list/category/dev/stars-desc/ordinals.json',
      'api/v1/skills/_list/platform/codex/stars-desc/ordinals.json',
    ]);
    expect(reads.filter((p) => !p.endsWith('ordinals.json'))).toHaveLength(1);
  });
});

describe('failures of the tree', () => {
  it('no manifest: 500 telling to build; it is read again once it exists', async () => {
    let present = false;
    const files = await FIXTURE.files();
    const handler = createHandler((path) => Promise.resolve(path === MANIFEST_PATH && !present ? undefined : files.get(path)));
    const first = await handler(new Request('http://localhost/api/v1/skills'));
    expect(first.status).toBe(500);
    expect(((await first.json()) as { error: { message: string } }).error.message).toMatch(/build/);
    present = true;
    expect((await handler(new Request('http://localhost/api/v1/skills'))).status).toBe(200);
  });

  it('a manifest of another format version is a 500 naming both versions', async () => {
    const { get } = await setup((files) => files.set(MANIFEST_PATH, { ...(files.get(MANIFEST_PATH) as object), format: 99 }));
    const { status, body } = await get('/api/v1/categories');
    expect(status).toBe(500);
    expect(body.error?.message).toMatch(new RegExp(`format 99.*format ${FORMAT_VERSION}`));
  });

  it('a missing or corrupt resource file fails only that request', async () => {
    const { get, files } = await setup((f) => {
      f.delete(listPagePath({ kind: 'all' }, 'stars', 'desc', 2));
      f.set('api/v1/categories/index.json', 'garbage');
      f.delete('api/v1/categories/dev/index.de.json');
    });
    expect((await get('/api/v1/skills?page=2')).body.error?.code).toBe('SERVER_ERROR');
    expect((await get('/api/v1/skills?page=1&limit=40')).status).toBe(500);
    expect((await get('/api/v1/categories')).status).toBe(500);
    expect((await get('/api/v1/categories/dev?locale=de')).status).toBe(500);
    expect((await get('/api/v1/skills?page=1')).status).toBe(200);
    expect((await get('/api/v1/skills?page=3')).status).toBe(200);
    expect((await get('/api/v1/categories?locale=de')).status).toBe(200);
    expect(files.size).toBeGreaterThan(0);
  });

  it('an unexpected error is a generic 500; the cause goes to onError, not to the client', async () => {
    const errors: unknown[] = [];
    const files = await FIXTURE.files();
    const handler = createHandler(
      async (path) => {
        if (path.endsWith('stats.json')) throw new Error('disk on fire at /secret/path');
        return files.get(path);
      },
      { onError: (error) => errors.push(error) },
    );
    const response = await handler(new Request('http://localhost/api/v1/skills/acme/skill-00.v2/stats'));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('secret');
    expect(JSON.parse(text)).toEqual({ error: { code: 'SERVER_ERROR', message: 'Internal server error' } });
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toContain('disk on fire');
  });

  it('search and autocomplete are routed to the search engine; SERVER_ERROR when no index was built', async () => {
    const withIndex = await setup();
    const without = await setup((files) => {
      const { search: _search, ...manifest } = files.get(MANIFEST_PATH) as { search?: unknown };
      files.set(MANIFEST_PATH, manifest);
    });
    for (const path of ['/api/v1/skills/search?q=skill', '/api/v1/skills/autocomplete?q=sk']) {
      expect((await withIndex.get(path)).status).toBe(200);
      const { status, body } = await without.get(path);
      expect(status).toBe(500);
      expect(body.error?.message).toMatch(/search index/);
    }
    expect((await withIndex.get('/api/v1/skills/search?q=a')).body.error?.code).toBe('INVALID_QUERY');
  });
});

describe('basePath', () => {
  it.each(['/repo', '/repo/', 'repo'])('%j serves /repo/api/v1/... only', async (basePath) => {
    const { get } = await setup(undefined, { basePath });
    expect((await get('/repo/api/v1/skills')).status).toBe(200);
    expect((await get('/repo/api/v1/categories/dev')).status).toBe(200);
    expect((await get('/api/v1/skills')).status).toBe(404);
    expect((await get('/repository/api/v1/skills')).status).toBe(404);
  });
});

describe('matchRoute', () => {
  it.each([
    ['/api/v1/skills', ['listSkills', {}]],
    ['/api/v1/skills/', ['listSkills', {}]],
    ['/api/v1/skills/search', ['searchSkills', {}]],
    ['/api/v1/skills/autocomplete', ['autocomplete', {}]],
    ['/api/v1/skills/search/autocomplete', ['getSkill', { owner: 'search', repo: 'autocomplete' }]],
    ['/api/v1/skills/Acme/x.y_z-1', ['getSkill', { owner: 'Acme', repo: 'x.y_z-1' }]],
    ['/api/v1/skills/acme/%78', ['getSkill', { owner: 'acme', repo: 'x' }]],
    ['/api/v1/skills/acme/x/content', ['getSkillContent', { owner: 'acme', repo: 'x' }]],
    ['/api/v1/skills/acme/x/stats', ['getSkillStats', { owner: 'acme', repo: 'x' }]],
    ['/api/v1/categories', ['listCategories', {}]],
    ['/api/v1/categories/ai-ml', ['getCategory', { slug: 'ai-ml' }]],
    ['/api/v1/categories/ai-ml/skills', ['listCategorySkills', { slug: 'ai-ml' }]],
    ['/api/v1/skills/acme', null],
    ['/api/v1/skills/-acme/x', null],
    ['/api/v1/skills/acme/..', null],
    ['/api/v1/skills/acme/%2e%2e', null],
    ['/api/v1/skills/acme/x.git', null],
    ['/api/v1/skills/acme/x%2fy', null],
    ['/api/v1/skills/acme/x%00', null],
    ['/api/v1/skills/acme/%252e%252e', null],
    ['/api/v1/skills/acme/%E0%A4%A', null],
    ['/api/v1/skills/acme/x/index.json', null],
    ['/api/v1/skills//x', null],
    ['/api/v1/categories/AI', null],
    ['/api/v1/categories/ai-ml/skills/x', null],
    ['/api/v1skills', null],
    ['/api/v2/skills', null],
    ['/', null],
    ['/api/search', ['compatSearch', {}]],
    ['/api/search/', ['compatSearch', {}]],
    ['/api/searchx', null],
  ] as const)('%s', (pathname, route) => {
    const match = matchRoute(pathname);
    expect(match === null ? null : [match.name, match.path]).toEqual(route);
  });
});

describe('readLocale', () => {
  const manifest = { locales: ['en', 'de', 'fr', 'ja', 'ko', 'zh-TW'] };
  it.each([
    ['', 'en'],
    ['locale=de', 'de'],
    ['locale=DE', 'de'],
    ['locale=de-AT', 'de'],
    ['locale=zh-tw', 'zh-TW'],
    ['locale=zh', 'en'],
    ['locale=pt-BR', 'en'],
    ['locale=xx', 'en'],
  ])('%j → %s', (query, locale) => {
    expect(readLocale(new URLSearchParams(query), manifest)).toBe(locale);
  });
  it.each(['locale=', 'locale=e', 'locale=en_US', 'locale=de&locale=fr', 'locale=..%2Fx'])('%j is INVALID_PARAMS', (query) => {
    expect(() => readLocale(new URLSearchParams(query), manifest)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
  });
});
