/**
 * `skills-api dev` in Chromium: an open demo page reloads after a content edit, under the page's
 * own Content-Security-Policy (`script-src 'self'`, which blocks inline scripts), with no CSP
 * violation on the console.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, ROOT, copyContent, findChromium, localContext, openView, tempDir, type TempDir } from './helpers/browser-setup.ts';

const CHROMIUM = findChromium();
const STARTUP = /^Skills Directory API on (http:\/\/[^\s]+) \(/m;

describe.skipIf(CHROMIUM === undefined)('skills-api dev in Chromium', () => {
  let temp: TempDir;
  let child: ChildProcess;
  let browser: Browser;
  let stdout = '';

  beforeAll(async () => {
    temp = await tempDir('dev-browser-');
    await copyContent(join(temp.dir, 'content'));
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await temp?.remove();
  });

  it('reloads an open page after a content edit, with no Content-Security-Policy violation', async () => {
    const content = join(temp.dir, 'content');
    child = spawn(
      process.execPath,
      [join(ROOT, 'bin/skills-api.js'), 'dev', '--content', content, '--out', join(temp.dir, 'public'), '--cache-dir', join(temp.dir, 'cache'), '--port', '0', '--host', '127.0.0.1'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: '' } },
    );
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const watching = new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (/^Watching .* for changes/m.test(stdout)) resolve();
      };
      child.stdout!.on('data', check);
      child.once('exit', () => reject(new Error(`dev exited:\n${stdout}`)));
    });
    await watching;
    const url = STARTUP.exec(stdout)![1]!;

    const context = await localContext(browser);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    // The script connects to the reload stream (it ran: an inline script would have been blocked).
    const connected = page.waitForRequest((request) => request.url() === `${url}/_dev/reload`, { timeout: 15_000 });
    await openView(page, `${url}/`);
    await connected;
    // Violations the console might not show: the page's own securitypolicyviolation events.
    await page.evaluate(() => {
      (window as unknown as { violations: string[] }).violations = [];
      document.addEventListener('securitypolicyviolation', (event) => (window as unknown as { violations: string[] }).violations.push(event.violatedDirective));
      (window as unknown as { beforeEdit: boolean }).beforeEdit = true;
    });

    const target = await firstSkill(content);
    const original = await readFile(target, 'utf8');
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await writeFile(target, original.replace(/^name: .*$/m, 'name: Edited in dev'));
    await reloaded;
    await page.waitForSelector('main .view:not([aria-busy])');
    expect(await page.evaluate(() => (window as unknown as { beforeEdit?: boolean }).beforeEdit)).toBeUndefined();
    expect(await page.evaluate(() => (window as unknown as { violations?: string[] }).violations ?? [])).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});

/** The SKILL.md of the first skill folder of `content` (sorted). */
async function firstSkill(content: string): Promise<string> {
  const owner = (await readdir(join(content, 'skills'))).sort()[0]!;
  const repo = (await readdir(join(content, 'skills', owner))).sort()[0]!;
  return join(content, 'skills', owner, repo, 'SKILL.md');
}
