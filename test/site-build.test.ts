/**
 * The site files of builder/site.ts, in Node: the `--base` check, the `_headers` file and the
 * search root embedded in sw.js.
 */
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import type { OutputWriter } from '../builder/output.ts';
import { headersFile, normalizeBase, writeSite } from '../builder/site.ts';
import { cacheControlFor } from '../src/http-cache.ts';
import type { Manifest, SearchManifest } from '../src/manifest.ts';

describe('normalizeBase', () => {
  it.each([
    ['/', '/'],
    ['', '/'],
    ['repo', '/repo/'],
    ['/repo', '/repo/'],
    ['/repo/', '/repo/'],
    ['//a/b//', '/a/b/'],
  ])('%j → %j', (input, output) => {
    expect(normalizeBase(input)).toBe(output);
  });

  it.each(['/a b/', '/../', '/a/./b/', '/"/', '/<script>/', '/a?b/', '/a#b/', '/%2e%2e/'])('rejects %j', (input) => {
    expect(() => normalizeBase(input)).toThrow(/--base must be a URL path/);
  });
});

describe('headersFile', () => {
  it('sets CORS on the API, immutable on the hashed search files, a short cache elsewhere, under the base', () => {
    expect(headersFile('/repo/', ['app.js', 'index.html'])).toMatchInlineSnapshot(`
      "# Written by the build (builder/site.ts) for Netlify and Cloudflare Pages; other hosts ignore it.

      /repo/api/v1/*
        Access-Control-Allow-Origin: *
        X-Content-Type-Options: nosniff

      /repo/api/v1/skills/_search/*
        Cache-Control: public, max-age=31536000, immutable

      /repo/api/v1/skills/:owner/:repo/files/*
        Content-Security-Policy: default-src 'none'; sandbox

      /repo/api/v1/manifest.json
        Cache-Control: public, max-age=300

      /repo/api/v1/categories/*
        Cache-Control: public, max-age=300

      /repo/api/v1/skills/_list/*
        Cache-Control: public, max-age=300

      /repo/api/v1/skills/_ids/*
        Cache-Control: public, max-age=300

      /repo/api/v1/changes/*
        Cache-Control: public, max-age=300

      /repo/api/v1/openapi.json
        Cache-Control: public, max-age=300

      /repo/api/v1/quality.json
        Cache-Control: public, max-age=300

      /repo/api/v1/skills/:owner/:repo/index.json
        Cache-Control: public, max-age=300

      /repo/api/v1/skills/:owner/:repo/content.json
        Cache-Control: public, max-age=300

      /repo/api/v1/skills/:owner/:repo/stats.json
        Cache-Control: public, max-age=300

      /repo/api/v1/skills/:owner/:repo/files/*
        Cache-Control: public, max-age=300

      /repo/api/v1/skills/:owner/:repo/archive.tar.gz
        Cache-Control: public, max-age=300

      /repo/skills/*
        Cache-Control: public, max-age=300

      /repo/
        Cache-Control: public, max-age=300

      /repo/feed.json
        Cache-Control: public, max-age=300

      /repo/feed.xml
        Cache-Control: public, max-age=300

      /repo/app.js
        Cache-Control: public, max-age=300

      /repo/index.html
        Cache-Control: public, max-age=300
      "
    `);
  });

  it('never lets two Cache-Control rules match one path (hosts would join them with a comma)', () => {
    // The rules as patterns: `:name` one segment, `*` anything (Netlify and Cloudflare semantics).
    const rules = headersFile('/', ['app.js', 'index.html', 'sw.js'])
      .split('\n\n')
      .filter((block) => block.includes('Cache-Control'))
      .map((block) => block.split('\n')[0]!)
      .map((path) => new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/:[a-z]+/g, '[^/]+').replace(/\*/g, '.*')}$`));
    const paths = [
      '/',
      '/index.html',
      '/app.js',
      '/sw.js',
      '/api/v1/manifest.json',
      '/api/v1/categories/index.json',
      '/api/v1/categories/devops/index.de.json',
      '/api/v1/skills/_list/all/stars-desc/1.json',
      '/api/v1/skills/_list/category/devops/name-asc/ordinals.json',
      '/api/v1/skills/acme/pdf-kit/index.json',
      '/api/v1/skills/acme/pdf-kit/content.json',
      '/api/v1/skills/acme/pdf-kit/stats.json',
      '/api/v1/skills/_search/r.0123abcd.json',
      '/api/v1/skills/_search/d.0123abcd.4.json',
    ];
    for (const path of paths) expect(rules.filter((rule) => rule.test(path)), path).toHaveLength(1);
  });

  it('gives every file a build writes one Cache-Control rule, the one every other host answers with', async () => {
    const dir = await fs.mkdtemp(join(tmpdir(), 'site-headers-'));
    try {
      await runBuild({ contentDir: 'content', outDir: dir, sourceDateEpoch: undefined });
      const text = await fs.readFile(join(dir, '_headers'), 'utf8');
      const rules = text
        .split('\n\n')
        .filter((block) => block.includes('Cache-Control'))
        .map((block) => ({
          pattern: new RegExp(`^${block.split('\n')[0]!.replace(/[.]/g, '\\.').replace(/:[a-z]+/g, '[^/]+').replace(/\*/g, '.*')}$`),
          value: /Cache-Control: (.*)/.exec(block)![1]!,
        }));
      const files = (await fs.readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => `/${join(entry.parentPath, entry.name).slice(dir.length + 1).split('\\').join('/')}`)
        .filter((path) => path !== '/_headers' && path !== '/.nojekyll');
      expect(files.length).toBeGreaterThan(100);
      for (const path of files) {
        const matched = rules.filter((rule) => rule.pattern.test(path));
        expect(matched.map((rule) => rule.value), path).toEqual([cacheControlFor(path, 200, false)]);
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the search root in sw.js', () => {
  /** The text files writeSite writes, by path. */
  async function site(search?: SearchManifest): Promise<Map<string, string>> {
    const files = new Map<string, string>();
    const writer: OutputWriter = {
      emit: async (path, data) => void files.set(path, JSON.stringify(data)),
      writeFile: async (path, data) => void files.set(path, typeof data === 'string' ? data : Buffer.from(data).toString('utf8')),
      copyFile: async (path, source) => void files.set(path, await fs.readFile(source, 'utf8')),
    };
    await writeSite(writer, { base: '/', ...(search === undefined ? {} : { search }) });
    return files;
  }

  it('sw.js carries the search entry as a JSON string, and only sw.js; none without an entry', async () => {
    const search = { root: 'api/v1/skills/_search/r.0123456789abcdef.json', index: { format: 5, docs: 1, termFirst: ['a'], termFiles: ['t.x'], packs: [] } } as unknown as SearchManifest;
    const files = await site(search);
    expect(files.get('sw.js')).toContain(JSON.stringify(JSON.stringify(search)));
    for (const script of ['api.js', 'app.js']) expect(files.get(script)).not.toContain('r.0123456789abcdef');
    const none = await site();
    expect(none.get('sw.js')).not.toContain('__skills_api_search__');
    expect(none.get('sw.js')).not.toContain('"root":');
  });

  it('a build with the site moves the root copy from the manifest into sw.js; one without keeps it in the manifest', async () => {
    const dir = await fs.mkdtemp(join(tmpdir(), 'site-build-'));
    try {
      await runBuild({ contentDir: 'content', outDir: join(dir, 'site'), sourceDateEpoch: undefined });
      await runBuild({ contentDir: 'content', outDir: join(dir, 'bare'), site: false, sourceDateEpoch: undefined });
      const read = async (path: string): Promise<unknown> => JSON.parse(await fs.readFile(join(dir, path), 'utf8'));
      const withSite = (await read('site/api/v1/manifest.json')) as Manifest;
      const bare = (await read('bare/api/v1/manifest.json')) as Manifest;
      expect(withSite.search).toEqual({ root: bare.search!.root });
      const root = await read(`site/${bare.search!.root}`);
      expect(bare.search!.index).toEqual(root);
      expect(await fs.readFile(join(dir, 'site/sw.js'), 'utf8')).toContain(JSON.stringify(JSON.stringify({ root: bare.search!.root, index: root })));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
