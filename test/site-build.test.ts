/**
 * The site files of builder/site.ts, in Node: the `--base` check and the `_headers` file.
 */
import { describe, expect, it } from 'vitest';
import { headersFile, normalizeBase } from '../builder/site.ts';

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
});
