/**
 * End to end in Debian Chromium (playwright-core): the sample content plus a hostile skill is
 * built with the site, served by the plain `serve` CLI (a static host: no Node handler), and the
 * demo page is driven through its Service Worker. Every canonical answer seen in the page is
 * compared with the runtime handler's answer in Node over the same files.
 *
 * Skipped, with the reason printed, only where no Chromium binary exists outside CI; in CI a
 * missing Chromium fails. Screenshots go to test-artifacts/ (git-ignored).
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { writeSite } from '../builder/site.ts';
import type { OutputWriter } from '../builder/output.ts';
import { createHandler, type Handler } from '../src/handler.ts';
import { fsLoader } from '../src/node/fs-loader.ts';
import type { SearchRoot } from '../src/search/format.ts';
import { CHROMIUM_ARGS, ROOT, copyContent, findChromium, localContext, openView, startServeCli, tempDir, type ServeCli, type TempDir } from './helpers/browser-setup.ts';

const CHROMIUM = findChromium();
const IN_CI = Boolean(process.env.CI);
const ARTIFACTS = join(ROOT, 'test-artifacts');
const HOSTILE = join(ROOT, 'test/fixtures/browser');
const HOSTILE_ID = 'xss-lab/onerror-probe';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

if (CHROMIUM === undefined && !IN_CI) {
  console.warn('test/browser.test.ts skipped: no Chromium binary (/usr/bin/chromium or `chromium` on PATH); install it with `apt-get install chromium`');
}

it.runIf(CHROMIUM === undefined && IN_CI)('has a Chromium binary in CI', () => {
  throw new Error('Chromium is missing: CI must run the browser tests (.ci/run installs the Debian chromium package)');
});

/** Status, content type and parsed body of one answer. */
interface Answer {
  status: number;
  type: string | null;
  body: unknown;
}

/** `meta.took` is a duration: the one field that differs between two runs of the same search. */
function withoutTook(body: unknown): unknown {
  if (typeof body === 'object' && body !== null && 'meta' in body) {
    const { meta, ...rest } = body as { meta: Record<string, unknown> };
    const { took, ...metaRest } = meta;
    expect(typeof took).toBe('number');
    return { ...rest, meta: metaRest };
  }
  return body;
}

describe.skipIf(CHROMIUM === undefined)('demo page and Service Worker in Chromium', () => {
  let temp: TempDir;
  let out: string;
  let server: ServeCli;
  let subServer: ServeCli;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let reference: Handler;

  const newContext = (options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> => localContext(browser, { viewport: DESKTOP, ...options });
  const open = openView;

  /** `fetch(url)` inside the page, with whether the Service Worker produced the response. */
  const fetchInPage = async (url: string): Promise<Answer & { fromServiceWorker: boolean }> => {
    const [response, answer] = await Promise.all([
      page.waitForResponse((r) => r.url() === new URL(url, server.url).href),
      page.evaluate(async (u) => {
        const r = await fetch(u);
        const text = await r.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON (a directory listing would land here): compared as text.
        }
        return { status: r.status, type: r.headers.get('content-type'), body };
      }, url),
    ]);
    return { ...answer, fromServiceWorker: response.fromServiceWorker() };
  };

  const answerOf = async (handler: Handler, url: string): Promise<Answer> => {
    const response = await handler(new Request(new URL(url, server.url)));
    return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
  };

  beforeAll(async () => {
    temp = await tempDir('skills-browser-');
    const content = join(temp.dir, 'content');
    out = join(temp.dir, 'out');
    await copyContent(content, [HOSTILE]);
    await runBuild({ contentDir: content, outDir: out });
    reference = createHandler(fsLoader(out));

    // The same tree under a sub-path (`/demo/`, as on a GitHub project page): only the site files
    // depend on the base, so they are rewritten over a copy.
    const subOut = join(temp.dir, 'sub', 'demo');
    await fs.cp(out, subOut, { recursive: true });
    const overwrite = async (path: string, data: string | Uint8Array): Promise<void> => fs.writeFile(join(subOut, path), data);
    const writer: OutputWriter = {
      emit: (path, data) => overwrite(path, JSON.stringify(data)),
      writeFile: overwrite,
      copyFile: async (path, source) => overwrite(path, await fs.readFile(source)),
    };
    // As a build with --base /demo/ writes it: the search root embedded in sw.js.
    const { search } = JSON.parse(await fs.readFile(join(out, 'api/v1/manifest.json'), 'utf8')) as { search: { root: string } };
    const index = JSON.parse(await fs.readFile(join(out, search.root), 'utf8')) as SearchRoot;
    await writeSite(writer, { base: '/demo/', search: { root: search.root, index } });

    [server, subServer] = await Promise.all([startServeCli(out), startServeCli(join(temp.dir, 'sub'))]);
    await fs.mkdir(ARTIFACTS, { recursive: true });
    // playwright-core starts Chromium with a fresh temporary profile (user-data-dir) per launch.
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: CHROMIUM_ARGS });
    context = await newContext();
    page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error));
    await open(page, `${server.url}/`);
    // The first visit installs the worker; it claims the page, so later requests go through it.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.reload();
    await page.waitForSelector('#mode[data-mode="service-worker"]');
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.close(), subServer?.close()]);
    await temp?.remove();
  });

  it.each([
    ['list with a query string', '/api/v1/skills?sort=name&order=asc&limit=7&page=2'],
    ['list with both filters', '/api/v1/skills?category=devops&platform=codex&sort=updated'],
    ['list past the last page', '/api/v1/skills?page=99'],
    ['skills of a category', '/api/v1/categories/devops/skills?category=ci-cd&limit=5'],
    ['skill detail', '/api/v1/skills/apiwright/openapi-designer'],
    ['skill content', '/api/v1/skills/apiwright/openapi-designer/content'],
    ['skill stats', '/api/v1/skills/apiwright/openapi-designer/stats'],
    ['skill detail, id in another case', '/api/v1/skills/APIwright/OpenAPI-Designer'],
    ['skill content, id in another case', '/api/v1/skills/APIWRIGHT/openapi-designer/content'],
    ['categories in German', '/api/v1/categories?locale=de'],
    ['category in Japanese', '/api/v1/categories/security?locale=ja'],
    ['search: terms', '/api/v1/skills/search?q=docker%20compose'],
    ['search: phrase', '/api/v1/skills/search?q=%22compose%20file%22'],
    ['search: field', '/api/v1/skills/search?q=name:docker'],
    ['search: exclusion', '/api/v1/skills/search?q=kubernetes%20-helm'],
    ['search: prefix', '/api/v1/skills/search?q=kube*'],
    ['search: all forms with filters', '/api/v1/skills/search?q=name:docker%20-kubernetes%20%22compose%20file%22&minStars=10'],
    ['search: hostile highlights', '/api/v1/skills/search?q=probe'],
    ['autocomplete', '/api/v1/skills/autocomplete?q=kub'],
    ['404 unknown skill', '/api/v1/skills/nobody/nothing'],
    ['404 unknown path', '/api/v1/nothing/here'],
    ['INVALID_QUERY', '/api/v1/skills/search?q=a'],
    ['INVALID_PARAMS', '/api/v1/skills?limit=0&sort=rank'],
    ['QUERY_TOO_LONG', `/api/v1/skills/search?q=${'x'.repeat(201)}`],
  ])('the Service Worker answers %s like the handler: %s', async (_, url) => {
    const [inPage, expected] = await Promise.all([fetchInPage(url), answerOf(reference, url)]);
    expect(inPage.fromServiceWorker).toBe(true);
    expect(inPage.status).toBe(expected.status);
    expect(inPage.type).toBe('application/json; charset=utf-8');
    expect(withoutTook(inPage.body)).toEqual(withoutTook(expected.body));
  });

  it('answers a skill URL in another case with the canonical skill (ids are case-insensitive)', async () => {
    const answer = await fetchInPage('/api/v1/skills/APIwright/OpenAPI-Designer');
    expect(answer.fromServiceWorker).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ data: { id: 'apiwright/openapi-designer', owner: 'apiwright', repo: 'openapi-designer' } });
  });

  it('answers errors with the error body', async () => {
    const missing = await fetchInPage('/api/v1/skills/nobody/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    const short = await fetchInPage('/api/v1/skills/search?q=a');
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: { code: 'INVALID_QUERY' } });
  });

  it('passes the static .json files to the network', async () => {
    const manifest = await fetchInPage('/api/v1/manifest.json');
    expect(manifest.fromServiceWorker).toBe(false);
    expect(manifest.status).toBe(200);
    expect(manifest.body).toEqual(JSON.parse(await fs.readFile(join(out, 'api/v1/manifest.json'), 'utf8')));
  });

  it('lists with sort, filters and paging from the URL', async () => {
    await open(page, `${server.url}/#/skills?sort=name&order=asc&category=devops&page=2`);
    const expected = (await answerOf(reference, '/api/v1/skills?sort=name&order=asc&category=devops&page=2')).body as {
      data: Array<{ name: string }>;
      pagination: { totalPages: number };
    };
    expect(await page.locator('.cards .card h3').allTextContents()).toEqual(expected.data.map((s) => s.name));
    expect(await page.locator('.page-of').textContent()).toBe(`Page 2 of ${expected.pagination.totalPages}`);
    await page.selectOption('select[name="platform"]', 'codex');
    await page.waitForFunction(() => location.hash.includes('platform=codex') && !location.hash.includes('page='));
    await page.waitForSelector('main .view:not([aria-busy])');
    const filtered = (await answerOf(reference, '/api/v1/skills?sort=name&order=asc&category=devops&platform=codex')).body as { data: Array<{ name: string }> };
    expect(await page.locator('.cards .card h3').allTextContents()).toEqual(filtered.data.map((s) => s.name));
  });

  it('shows the categories in the chosen language', async () => {
    await open(page, `${server.url}/#/categories`);
    await page.selectOption('#locale', 'de');
    await page.waitForFunction(() => document.documentElement.lang === 'de');
    await page.waitForSelector('main .view:not([aria-busy])');
    const expected = (await answerOf(reference, '/api/v1/categories?locale=de')).body as { data: Array<{ name: string }> };
    expect(await page.locator('.category-grid .category h2').allTextContents()).toEqual(expected.data.map((c) => c.name));
    await page.selectOption('#locale', 'en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
  });

  it('suggests completions in the search box and searches the chosen one', async () => {
    await open(page, `${server.url}/#/`);
    await page.locator('#q').pressSequentially('kub');
    await page.waitForSelector('#suggestions li');
    const expected = (await answerOf(reference, '/api/v1/skills/autocomplete?q=kub&limit=6')).body as { data: Array<{ text: string }> };
    expect(await page.locator('#suggestions li .text').allTextContents()).toEqual(expected.data.map((s) => s.text));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction((q) => location.hash === `#/search?q=${q}`, encodeURIComponent(expected.data[0]!.text));
    await page.waitForSelector('.results .result');
  });

  it('keeps the reader\'s own words when a completion is chosen, the last one completed', async () => {
    await open(page, `${server.url}/#/`);
    const typed = 'How do I fix Kub';
    await page.locator('#q').pressSequentially(typed);
    await page.waitForSelector('#suggestions li');
    const expected = (await answerOf(reference, `/api/v1/skills/autocomplete?q=${encodeURIComponent(typed)}&limit=6`)).body as { data: Array<{ text: string }> };
    // The API's suggestion is the normalized query: request words dropped, case folded.
    const suggestion = expected.data[0]!.text;
    expect(suggestion.startsWith('how')).toBe(false);
    const chosen = `How do I fix ${suggestion.split(' ').at(-1)}`;
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction((q) => new URLSearchParams(location.hash.split('?')[1]).get('q') === q, chosen);
    expect(await page.locator('#q').inputValue()).toBe(chosen);
    await page.waitForSelector('.results .result');
  });

  it('shows a search error as its code, in words a reader understands, with a way back', async () => {
    await open(page, `${server.url}/#/search?q=a`);
    expect(await page.locator('.error').getAttribute('data-code')).toBe('INVALID_QUERY');
    expect(await page.locator('.error h2').textContent()).toBe('Search for a little more');
    expect(await page.locator('.error').textContent()).not.toMatch(/HTTP|INVALID_QUERY/);
    expect(await page.locator('.error a[href="#/"]').count()).toBe(1);
  });

  it('an unknown skill gets a friendly view that offers a search for its name', async () => {
    await open(page, `${server.url}/#/skills/nobody/docker-nothing`);
    expect(await page.locator('.error').getAttribute('data-code')).toBe('NOT_FOUND');
    expect(await page.locator('.error h1').textContent()).toBe('Not found');
    expect(await page.locator('.error-actions a').nth(1).getAttribute('href')).toBe('#/search?q=docker+nothing');
  });

  it('/ jumps to the search box from anywhere but a field', async () => {
    await open(page, `${server.url}/#/categories`);
    await page.locator('body').click({ position: { x: 5, y: 200 } });
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
  });

  it('subcategories without skills are named, not linked', async () => {
    await open(page, `${server.url}/#/categories`);
    const empty = await page.locator('.chips .chip.empty').count();
    const linkedEmpty = await page.locator('.chips a.chip', { hasText: / 0$/ }).count();
    expect(linkedEmpty).toBe(0);
    // The sample content has subcategories without skills (nodejs, go, …): they must show, unlinked.
    expect(empty).toBeGreaterThan(0);
  });

  it('renders hostile highlights as text and <mark> elements only, and runs nothing', async () => {
    await open(page, `${server.url}/#/search?q=probe`);
    const result = page.locator('.result', { has: page.locator('.id', { hasText: HOSTILE_ID }) });
    await expect.poll(() => result.count()).toBe(1);
    const shape = await result.evaluate((li) => {
      const fields = [li.querySelector('h3 a')!, li.querySelector('.desc')!];
      return {
        // Every node inside the highlighted fields: text, or a <mark> holding only text.
        nodes: fields.flatMap((field) =>
          [...field.childNodes].map((node) =>
            node.nodeType === Node.TEXT_NODE ? 'text' : `${node.nodeName}:${[...node.childNodes].every((c) => c.nodeType === Node.TEXT_NODE)}`,
          ),
        ),
        text: fields.map((field) => field.textContent),
      };
    });
    expect(new Set(shape.nodes)).toEqual(new Set(['text', 'MARK:true']));
    expect(shape.text[0]).toBe('Onerror Probe <img src=x onerror=window.__pwned=1>');
    expect(shape.text[1]).toContain('<img src=x onerror=window.__pwned=2> then </script><script>window.__pwned=3</script>');
    expect(shape.text[1]).toContain('<mark onmouseover=window.__pwned=4>marked probe</mark> &amp; "quoted" probe');
    expect(await page.locator('main img, main script, main iframe').count()).toBe(0);
    await page.locator('.result mark').first().hover();
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  });

  it('shows the hostile SKILL.md, name and install commands as text', async () => {
    await open(page, `${server.url}/#/skills/${HOSTILE_ID}`);
    await page.waitForSelector('.markdown');
    // Wait until every image has loaded or failed (the avatar host is unreachable), so a would-be
    // onerror handler has had its chance to fire.
    await page.waitForFunction(() => [...document.images].every((img) => img.complete));
    const found = await page.evaluate(() => ({
      pwned: (window as { __pwned?: unknown }).__pwned,
      dangerous: document.querySelectorAll('main script, main iframe, main object, main embed, .markdown img, .markdown svg, .install img').length,
      hrefs: [...document.querySelectorAll<HTMLAnchorElement>('.markdown a')].map((a) => a.getAttribute('href')),
      handlers: [...document.querySelectorAll('main *')].flatMap((el) => [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name)),
      title: document.querySelector('h1')!.textContent,
      markdown: document.querySelector('.markdown')!.textContent,
      install: [...document.querySelectorAll('.install-row code')].map((c) => c.textContent),
    }));
    expect(found.pwned).toBeUndefined();
    expect(found.dangerous).toBe(0);
    expect(found.handlers).toEqual([]);
    expect(found.hrefs).toEqual(['https://example.com/docs']);
    expect(found.title).toBe('Onerror Probe <img src=x onerror=window.__pwned=1>');
    expect(found.markdown).toContain('<script>window.__pwned = 6</script>');
    expect(found.markdown).toContain('<img src=x onerror="window.__pwned=7">');
    expect(found.install).toContain('codex skills add xss-lab/onerror-probe <img src=x onerror=window.__pwned=13>');
    await page.getByRole('tab', { name: 'Raw' }).click();
    expect(await page.locator('pre.raw').textContent()).toMatch(/^---\nname: 'Onerror Probe <img/);
  });

  it('works without a Service Worker by running the handler in the page', async () => {
    const blocked = await newContext({ serviceWorkers: 'block' });
    try {
      const plain = await blocked.newPage();
      await open(plain, `${server.url}/#/search?q=docker`);
      expect(await plain.locator('#mode').getAttribute('data-mode')).toBe('page');
      expect(await plain.locator('.results .result').count()).toBeGreaterThan(0);
      await open(plain, `${server.url}/#/skills?category=devops`);
      expect(await plain.locator('.cards .card').count()).toBe(20);
    } finally {
      await blocked.close();
    }
  });

  it('a redeployed sw.js takes over an open page at once, without a reload, and answers', async () => {
    const fresh = await newContext();
    const swPath = join(out, 'sw.js');
    const original = await fs.readFile(swPath);
    try {
      const open1 = await fresh.newPage();
      await open(open1, `${server.url}/`);
      await open1.waitForFunction(() => navigator.serviceWorker.controller !== null);
      const changed = open1.evaluate(() => new Promise<boolean>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true), { once: true })));
      // A new deploy: another sw.js (a byte more is a new version to the browser).
      await fs.writeFile(swPath, Buffer.concat([original, Buffer.from('\n')]));
      await open1.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
      expect(await changed).toBe(true);
      const answer = await open1.evaluate(async () => (await fetch('/api/v1/skills/search?q=docker')).status);
      expect(answer).toBe(200);
    } finally {
      await fs.writeFile(swPath, original);
      await fresh.close();
    }
  });

  it('works under a sub-path with the base given at build time', async () => {
    const sub = await newContext();
    try {
      const subPage = await sub.newPage();
      await open(subPage, `${subServer.url}/demo/`);
      await subPage.waitForFunction(() => navigator.serviceWorker.controller !== null);
      const answer = await subPage.evaluate(async () => {
        const r = await fetch('/demo/api/v1/skills?sort=name&limit=3');
        return { status: r.status, body: (await r.json()) as unknown };
      });
      const expected = await answerOf(createHandler(fsLoader(out), { basePath: '/demo/' }), '/demo/api/v1/skills?sort=name&limit=3');
      expect(answer).toEqual({ status: expected.status, body: expected.body });
      expect(await subPage.locator('.cards .card').count()).toBe(20);
    } finally {
      await sub.close();
    }
  });

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])('saves screenshots of the list, search and skill views (%s)', async (size, viewport) => {
    const shots = await newContext({ viewport, deviceScaleFactor: 1, isMobile: size === 'phone', hasTouch: size === 'phone', colorScheme: size === 'phone' ? 'dark' : 'light' });
    try {
      const shot = await shots.newPage();
      for (const [view, hash] of [
        ['list', '#/'],
        ['search', '#/search?q=kubernetes'],
        ['detail', '#/skills/apiwright/openapi-designer'],
      ] as const) {
        await open(shot, `${server.url}/${hash}`);
        await shot.screenshot({ path: join(ARTIFACTS, `browser-${view}-${size}.png`) });
      }
    } finally {
      await shots.close();
    }
  });
});
