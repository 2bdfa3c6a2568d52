/**
 * Shared setup of the browser and static-client tests: the plain `serve` CLI on a free port (no
 * Node handler involved: what any static host does), a Chromium binary to drive, and content
 * folders made of the sample content plus extra skill folders.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Flags for Debian's Chromium in a container: no sandbox, no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** `/usr/bin/chromium`, else `chromium` on the PATH, else undefined. */
export function findChromium(): string | undefined {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  try {
    const found = execFileSync('which', ['chromium'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return found === '' ? undefined : found;
  } catch {
    return undefined;
  }
}

/** A running `serve` CLI. */
export interface ServeCli {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

/** Start `node_modules/.bin/serve` on `dir` at a free port; resolves once it accepts connections. */
export async function startServeCli(dir: string): Promise<ServeCli> {
  const child = spawn(join(ROOT, 'node_modules/.bin/serve'), ['-l', 'tcp://127.0.0.1:0', '--no-clipboard', '--no-request-logging', '--no-port-switching', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer): void => {
      // serve prints the address it got; strip colors in case it thinks it has a terminal.
      output += chunk.toString().replace(/\u001b\[[0-9;]*m/g, '');
      const match = /Accepting connections at (http:\/\/[^\s]+)/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolveUrl(match[1]!.replace(/\/$/, ''));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** A temporary folder; `remove` deletes it. */
export interface TempDir {
  dir: string;
  remove(): Promise<void>;
}

/** A fresh temporary folder. */
export async function tempDir(prefix: string): Promise<TempDir> {
  const dir = await fs.mkdtemp(join(tmpdir(), prefix));
  return { dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** Copy the sample content (`content/`) to `target`, then each `extra` skills folder (`<src>/skills/...`) over it. */
export async function copyContent(target: string, extra: readonly string[] = []): Promise<void> {
  await fs.cp(join(ROOT, 'content'), target, { recursive: true });
  for (const source of extra) await fs.cp(join(source, 'skills'), join(target, 'skills'), { recursive: true });
}

/**
 * A browser context that can reach only the local server (avatars and links elsewhere fail at
 * once, so no test waits on the network), with `options`.
 */
export async function localContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.route((url) => url.hostname !== '127.0.0.1', (route) => route.abort());
  return context;
}

/** Open `url` in `page` and wait until the demo page's view has rendered. */
export async function openView(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('main .view:not([aria-busy])');
}
