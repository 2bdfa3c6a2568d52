/**
 * The demo page as people use it, in Debian Chromium (playwright-core): accessibility measured by
 * axe-core on every view at phone and desktop width (no violation of serious or critical
 * impact), a keyboard-only walk from the search box to copying an install command, the page in
 * the visitor's language (every piece of UI text; the initial locale from the browser, the
 * choice remembered), and the phone layout (install commands first, commands scrolling
 * sideways). Screenshots of each view at both widths, and in Japanese, go to test-artifacts/
 * (git-ignored) with axe's figures in test-artifacts/axe.json.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { CATALOGS } from '../site/i18n.ts';
import { CHROMIUM_ARGS, ROOT, copyContent, findChromium, localContext, openView, startServeCli, tempDir, type ServeCli, type TempDir } from './helpers/browser-setup.ts';

const CHROMIUM = findChromium();
const ARTIFACTS = join(ROOT, 'test-artifacts');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;
/** A skill of the sample content with install commands for several platforms. */
const SKILL = 'apiwright/openapi-designer';

/** A skill of the sample content with files besides SKILL.md. */
const MULTI_FILE = 'shipyard-ops/docker-compose-helper';

/** The views axe checks; `prepare` runs after the view has rendered. */
const VIEWS: ReadonlyArray<{ name: string; hash: string; prepare?: (page: Page) => Promise<void> }> = [
  { name: 'list', hash: '#/' },
  {
    name: 'search-suggestions',
    hash: '#/search?q=kubernetes',
    prepare: async (page) => {
      await page.locator('#q').fill('');
      await page.locator('#q').pressSequentially('kub');
      await page.waitForSelector('#suggestions li');
    },
  },
  { name: 'detail', hash: `#/skills/${SKILL}` },
  {
    // A skill of several files, a file opened from a link of its SKILL.md.
    name: 'detail-files',
    hash: `#/skills/${MULTI_FILE}`,
    prepare: async (page) => {
      await page.locator('.markdown a', { hasText: 'reference.md' }).click();
      await page.waitForFunction(() => document.querySelector('details.file[open] .file-text')?.textContent?.includes('Compose reference') === true);
    },
  },
  { name: 'categories', hash: '#/categories' },
  { name: 'category', hash: '#/categories/devops' },
  { name: 'error', hash: '#/skills/nobody/nothing' },
];

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }>;
  passes: unknown[];
}

describe.skipIf(CHROMIUM === undefined)('the demo page: accessibility, keyboard, languages, phone layout', () => {
  let temp: TempDir;
  let server: ServeCli;
  let browser: Browser;
  const figures: Record<string, { serious: number; moderate: number; minor: number; passes: number; others: string[] }> = {};

  /** CSP is bypassed only so axe can be injected. */
  const newContext = (options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> =>
    localContext(browser, { viewport: WIDTHS.desktop, bypassCSP: true, locale: 'en-US', ...options });
  const open = (page: Page, hash: string): Promise<void> => openView(page, `${server.url}/${hash}`);

  beforeAll(async () => {
    temp = await tempDir('skills-a11y-');
    const content = join(temp.dir, 'content');
    const out = join(temp.dir, 'out');
    await copyContent(content);
    // A 1 MiB SKILL.md of what made Markdown renderers superlinear: runs of backticks of every
    // length, nested emphasis, unclosed brackets and links, deep lists.
    const hostile = join(content, 'skills', 'hostile-lab', 'big-markdown');
    await fs.mkdir(hostile, { recursive: true });
    // Just under the build's 1 MiB limit on a SKILL.md.
    const quarter = 256 * 1024 - 100;
    const parts = [
      Array.from({ length: 724 }, (_, k) => '`'.repeat(724 - k)).join(' '),
      '*_'.repeat(quarter / 4) + 'x' + '_*'.repeat(quarter / 4),
      '[a]('.repeat(quarter / 8) + '[b'.repeat(quarter / 4),
      Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i % 60)}- item ${i}`).join('\n').padEnd(quarter, ' ['),
    ].map((part) => part.slice(0, quarter));
    await fs.writeFile(join(hostile, 'SKILL.md'), `---\nname: Big Markdown\ndescription: A 1 MiB hostile body.\n---\n${parts.join('\n\n')}\n`);
    const sample = JSON.parse(await fs.readFile(join(content, 'skills', SKILL, 'skill.json'), 'utf8')) as Record<string, unknown>;
    await fs.writeFile(join(hostile, 'skill.json'), JSON.stringify({ ...sample, stars: 0 }));
    await runBuild({ contentDir: content, outDir: out });
    server = await startServeCli(out);
    await fs.mkdir(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: CHROMIUM_ARGS });
  }, 120_000);

  afterAll(async () => {
    await fs.writeFile(join(ARTIFACTS, 'axe.json'), `${JSON.stringify(figures, null, 2)}\n`).catch(() => undefined);
    await browser?.close();
    await server?.close();
    await temp?.remove();
  });

  for (const [width, viewport] of Object.entries(WIDTHS)) {
    it.each(VIEWS.map((view) => [view.name, view] as const))(`%s at ${width} width: no serious or critical axe violation`, async (name, view) => {
      const context = await newContext({ viewport, isMobile: width === 'phone', hasTouch: width === 'phone' });
      try {
        const page = await context.newPage();
        await open(page, view.hash);
        await view.prepare?.(page);
        await page.addScriptTag({ path: AXE });
        const result = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResult> } }).axe;
          return axe.run(document, { resultTypes: ['violations'] });
        });
        const count = (impacts: string[]): number => result.violations.filter((v) => impacts.includes(v.impact ?? '')).length;
        figures[`${name} (${width})`] = { serious: count(['serious', 'critical']), moderate: count(['moderate']), minor: count(['minor']), passes: result.passes.length, others: result.violations.map((v) => `${v.id} (${v.impact})`) };
        await page.screenshot({ path: join(ARTIFACTS, `page-${name}-${width}.png`), fullPage: width === 'phone' && name === 'detail' });
        const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 3).join(', ')}`)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('a skill of several files: install from this directory, its files, a link in SKILL.md opening one, the archive, integrity', async () => {
    const context = await newContext();
    try {
      const page = await context.newPage();
      await open(page, `#/skills/${MULTI_FILE}`);
      const row = page.locator('.install-row[data-platform="directory"]');
      expect(await row.locator('code').textContent()).toBe(`npx skills add ${server.url}/skills/${MULTI_FILE}`);
      expect(await row.locator('button.copy').count()).toBe(1);
      expect(await page.locator('details.file summary code').allTextContents()).toEqual(['SKILL.md', 'reference.md', 'scripts/validate.sh']);
      await page.locator('.markdown a', { hasText: 'scripts/validate.sh' }).click();
      const opened = page.locator('details.file[open]');
      await page.waitForFunction(() => document.querySelector('details.file[open] .file-text')?.textContent?.startsWith('#!/bin/sh') === true);
      expect(await opened.getAttribute('data-path')).toBe('scripts/validate.sh');
      const expected = await fs.readFile(join(ROOT, 'content', 'skills', ...MULTI_FILE.split('/'), 'scripts', 'validate.sh'), 'utf8');
      expect(await opened.locator('.file-text').textContent()).toBe(expected);
      const archive = page.locator('.files a.download');
      expect(await archive.getAttribute('href')).toBe(`/api/v1/skills/${MULTI_FILE}/archive.tar.gz`);
      const served = await fetch(`${server.url}/api/v1/skills/${MULTI_FILE}/archive.tar.gz`);
      expect(served.status).toBe(200);
      const sha = createHash('sha256').update(new Uint8Array(await served.arrayBuffer())).digest('hex');
      expect(await page.locator('.integrity .hash').last().textContent()).toBe(sha);
    } finally {
      await context.close();
    }
  });

  it('a 1 MiB hostile SKILL.md renders without freezing the page', async () => {
    const context = await newContext();
    try {
      const page = await context.newPage();
      // Long tasks (the main thread busy 50 ms or more), recorded from the first script on.
      await page.addInitScript(() => {
        const tasks: number[] = [];
        (window as unknown as { longTasks: number[] }).longTasks = tasks;
        new PerformanceObserver((list) => list.getEntries().forEach((e) => tasks.push(e.duration))).observe({ type: 'longtask', buffered: true });
      });
      await open(page, '#/');
      const started = Date.now();
      await page.evaluate(() => (location.hash = '#/skills/hostile-lab/big-markdown'));
      await page.waitForSelector('main .view:not([aria-busy]) .markdown');
      const elapsed = Date.now() - started;
      // The page still answers: a click on the Raw tab is handled at once.
      await page.locator('.tabs button').nth(1).click();
      await page.waitForSelector('.raw:not([hidden])');
      const longest = Math.max(0, ...(await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks)));
      await fs.writeFile(join(ARTIFACTS, 'hostile-render.json'), `${JSON.stringify({ bytes: 4 * (256 * 1024 - 100), renderedInMs: elapsed, longestTaskMs: Math.round(longest) })}\n`);
      // Blow-up guards only (timings here are noisy); the figures are in the artifact.
      expect(elapsed).toBeLessThan(10_000);
      expect(longest).toBeLessThan(5_000);
    } finally {
      await context.close();
    }
  });

  it('keyboard only: search → suggestion → result → copy an install command', async () => {
    const context = await newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    try {
      const page = await context.newPage();
      await open(page, '#/');
      const focused = (): Promise<string> => page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el === null ? '' : `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className}`;
      });
      /** Press Tab until the focused element matches `selector` (at most `max` presses). */
      const tabTo = async (selector: string, max = 60): Promise<void> => {
        for (let i = 0; i < max; i++) {
          if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
          await page.keyboard.press('Tab');
        }
        throw new Error(`Tab never reached ${selector} (at ${await focused()})`);
      };
      await page.keyboard.press('/');
      expect(await focused()).toMatch(/^input#q/);
      await page.keyboard.type('kub');
      await page.waitForSelector('#suggestions li');
      await page.keyboard.press('ArrowDown');
      expect(await page.locator('#q').getAttribute('aria-activedescendant')).toBe('suggestion-0');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.results .result');
      await tabTo('.results .result a');
      const target = await page.evaluate(() => (document.activeElement as HTMLAnchorElement).getAttribute('href'));
      await page.keyboard.press('Enter');
      await page.waitForFunction((hash) => location.hash === hash, target);
      await page.waitForSelector('main .view:not([aria-busy]) .install');
      await tabTo('.install .copy');
      const command = await page.evaluate(() => document.activeElement!.closest('.install-row')!.querySelector('code')!.textContent);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.install [role="status"]').first().textContent()).toBe('Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
    } finally {
      await context.close();
    }
  });

  it('speaks the browser\'s language at first, every piece of UI text, and remembers a choice', async () => {
    const context = await newContext({ locale: 'ja-JP' });
    try {
      const page = await context.newPage();
      await open(page, '#/');
      const ja = CATALOGS.ja;
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
      expect(await page.locator('main h1').textContent()).toBe(ja.skillsTitle);
      expect(await page.locator('.filters label span').allTextContents()).toEqual([ja.category, ja.platform, ja.sortBy, ja.order]);
      expect(await page.locator('[data-nav="categories"]').textContent()).toBe(ja.navCategories);
      expect(await page.locator('#q').getAttribute('placeholder')).toBe(ja.searchSkills);
      await page.screenshot({ path: join(ARTIFACTS, 'page-list-desktop-ja.png') });
      await open(page, '#/categories/devops');
      expect(await page.locator('.top-skills h2').textContent()).toBe(ja.mostStarred);
      await open(page, `#/skills/${SKILL}`);
      expect(await page.locator('.install h2').textContent()).toBe(ja.install);
      expect(await page.locator('.install .copy').first().textContent()).toBe(ja.copy);
      await page.screenshot({ path: join(ARTIFACTS, 'page-detail-desktop-ja.png') });
      // No English left in the page's own text (names, descriptions and commands come from the content).
      const own = await page.evaluate(() =>
        [...document.querySelectorAll('h2, h3, dt, label span, button, summary, .crumbs a, .nav a, .foot span')].map((e) => e.textContent ?? ''),
      );
      for (const text of own) expect(text, text).not.toMatch(/\b(?:Install|Copy|About|Usage|Stars|Forks|Checks|Source|Skills|Categories|Details)\b/);

      // A choice made in the page wins over the browser's language, after a reload too.
      await page.selectOption('#locale', 'fr');
      await page.waitForFunction(() => document.documentElement.lang === 'fr');
      await page.reload();
      await page.waitForSelector('main .view:not([aria-busy])');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
      expect(await page.locator('.install h2').textContent()).toBe(CATALOGS.fr.install);
    } finally {
      await context.close();
    }
  });

  it('on a phone: install commands come first, each with a copy button, and scroll sideways instead of breaking', async () => {
    const context = await newContext({ viewport: WIDTHS.phone, isMobile: true, hasTouch: true });
    try {
      const page = await context.newPage();
      await open(page, `#/skills/${SKILL}`);
      const top = (selector: string): Promise<number> => page.locator(selector).first().evaluate((e) => e.getBoundingClientRect().top);
      expect(await top('.install')).toBeLessThan(await top('.facts'));
      expect(await top('.facts')).toBeLessThan(await top('.readme'));
      const rows = page.locator('.install-row');
      expect(await rows.count()).toBeGreaterThan(0);
      expect(await page.locator('.install-row .copy').count()).toBe(await rows.count());
      // One line per command: its code is as tall as one line, and its box scrolls when wider.
      for (const row of await rows.all()) {
        const { lines, scrolls } = await row.evaluate((r) => {
          const code = r.querySelector('code')!;
          const box = r.querySelector('.command')!;
          const lineHeight = parseFloat(getComputedStyle(code).lineHeight) || 20;
          return { lines: Math.round((code.getBoundingClientRect().height - 14) / lineHeight), scrolls: getComputedStyle(box).overflowX };
        });
        expect(lines).toBe(1);
        expect(scrolls).toBe('auto');
      }
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTHS.phone.width);
    } finally {
      await context.close();
    }
  });
});
