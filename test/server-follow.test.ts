/**
 * A server follows its folder: after a real build replaces the output a running `skills-api
 * serve` answers from the new tree within seconds (kept answers, parsed files and the search
 * index of the old tree dropped), and a request under way when the tree is swapped is answered
 * from one tree, never from files of both (src/node/served-tree.ts).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { createHandler } from '../src/handler.ts';
import { cachedLoader, type Loader } from '../src/loader.ts';
import { fsLoader } from '../src/node/fs-loader.ts';
import { ServedTree } from '../src/node/served-tree.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { KILL_AT_ENV, markerOf } from '../shared/commit-journal.ts';
import { treeHashes } from './helpers/read-tree.ts';
import { existsSync } from 'node:fs';
import { createContentFolder, skillDir, skillFiles, skillMd, type ContentFolder } from './helpers/fixture-content.ts';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'skills-api.js');
const STARTUP = /^Skills Directory API on (http:\/\/[^\s]+) \(/m;

let content: ContentFolder;
let out: string;

beforeAll(async () => {
  content = await createContentFolder({ skills: 3 });
  out = join(content.dir, '..', 'public');
  await build();
});

afterAll(async () => {
  await content.remove();
});

function build(): ReturnType<typeof runBuild> {
  return runBuild({ contentDir: content.dir, outDir: out, sourceDateEpoch: undefined });
}

/** Poll `probe` until it resolves true, at most `ms` milliseconds; resolves how long it took. */
async function until(probe: () => Promise<boolean>, ms: number): Promise<number> {
  const start = Date.now();
  while (!(await probe())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - start;
}

describe('skills-api serve follows its folder', () => {
  it('answers from a rebuilt output within seconds: details, lists and search', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--dir', out, '--port', '0', '--host', '127.0.0.1'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PORT: '' },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      await until(async () => STARTUP.test(stdout), 20_000);
      const url = STARTUP.exec(stdout)![1]!;
      const id = skillDir(1).replace(/^skills\//, '');
      const get = async (path: string): Promise<unknown> => (await fetch(`${url}${path}`)).json();
      // Asked before the rebuild, so the server keeps these answers and their files.
      const before = (await get(`/api/v1/skills/${id}`)) as { data: { name: string } };
      const total = ((await get('/api/v1/skills')) as { pagination: { total: number } }).pagination.total;
      expect(total).toBe(3);
      expect(((await get('/api/v1/skills/search?q=zebraword')) as { data: unknown[] }).data).toEqual([]);

      await content.write({
        [`${skillDir(1)}/SKILL.md`]: skillMd({ name: 'Renamed zebraword', description: 'Edited after the first build.' }),
        ...skillFiles(4),
      });
      await build();
      const took = await until(async () => ((await get(`/api/v1/skills/${id}`)) as { data: { name: string } }).data.name !== before.data.name, 10_000);
      expect(took).toBeLessThan(10_000);
      expect(((await get(`/api/v1/skills/${id}`)) as { data: { name: string } }).data.name).toBe('Renamed zebraword');
      expect(((await get('/api/v1/skills')) as { pagination: { total: number } }).pagination.total).toBe(4);
      const found = (await get('/api/v1/skills/search?q=zebraword')) as { data: { id: string }[] };
      expect(found.data.map((skill) => skill.id)).toEqual([id]);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});

/**
 * Loaders over a folder whose next read after `holdNextRead()` (the manifest aside) waits until
 * the returned release is called; `heldOnce` settles when that read is being held.
 */
function holdingLoaders(): { makeLoader: (dir: string) => Loader; heldOnce: Promise<void>; holdNextRead: () => () => void } {
  let hold: Promise<void> | undefined;
  let held!: () => void;
  const heldOnce = new Promise<void>((resolve) => (held = resolve));
  const makeLoader = (dir: string): Loader => {
    const read = fsLoader(dir);
    return async (path) => {
      if (hold !== undefined && path !== MANIFEST_PATH) {
        const gate = hold;
        hold = undefined;
        held();
        await gate;
      }
      return read(path);
    };
  };
  const holdNextRead = (): (() => void) => {
    let release!: () => void;
    hold = new Promise<void>((resolve) => (release = resolve));
    return release;
  };
  return { makeLoader, heldOnce, holdNextRead };
}

describe('a request under way when the tree is swapped', () => {
  it('is answered from the new tree alone, never from files of both', async () => {
    // The old tree: 4 skills (from the test above). The request reads the manifest of the old
    // tree, then is held before its next read until a rebuild has swapped in a tree of 5 skills.
    const { makeLoader, heldOnce, holdNextRead } = holdingLoaders();
    const tree = await ServedTree.open(out, { makeLoader, makeHandler: (loader) => createHandler(cachedLoader(loader, { maxEntries: 100 })) });
    const ask = async (): Promise<{ total: number; items: number }> => {
      const body = (await (await tree.handler(new Request('http://x/api/v1/skills?limit=100'))).json()) as { data: unknown[]; pagination: { total: number } };
      return { total: body.pagination.total, items: body.data.length };
    };
    expect(await ask()).toEqual({ total: 4, items: 4 });

    const fresh = await ServedTree.open(out, { makeLoader: fsLoader, makeHandler: (loader) => createHandler(loader) });
    const release = holdNextRead();
    // A new URL, so nothing of it is cached: the manifest is (from the first request).
    const pending = (async () => {
      const body = (await (await tree.handler(new Request('http://x/api/v1/skills?limit=100&sort=name'))).json()) as {
        data: unknown[];
        pagination: { total: number };
      };
      return { total: body.pagination.total, items: body.data.length };
    })();
    await heldOnce;
    await content.write(skillFiles(5));
    await build();
    release();
    expect(await pending).toEqual({ total: 5, items: 5 });
    expect(await tree.check()).toBe(false); // the request moved the tree on already
    // A tree opened on the new build agrees.
    const now = (await (await fresh.handler(new Request('http://x/api/v1/skills?limit=100&sort=name'))).json()) as { pagination: { total: number } };
    expect(now.pagination.total).toBe(5);
    tree.close();
    fresh.close();
  }, 60_000);
});

describe('a request under way when an incremental build commits into the folder', () => {
  it('never sees a half-committed tree: a commit killed half-way is rolled back and answered from the previous tree', async () => {
    const target = join(content.dir, '..', 'public-incremental');
    const cacheDir = join(content.dir, '..', 'cache-incremental');
    const incremental = (): ReturnType<typeof runBuild> => runBuild({ contentDir: content.dir, outDir: target, incremental: true, cacheDir, sourceDateEpoch: undefined });
    await incremental();
    const previous = treeHashes(target);
    const { makeLoader, heldOnce, holdNextRead } = holdingLoaders();
    const tree = await ServedTree.open(target, { makeLoader, makeHandler: (loader) => createHandler(cachedLoader(loader, { maxEntries: 100 })) });
    const total = async (query: string): Promise<number> =>
      ((await (await tree.handler(new Request(`http://x/api/v1/skills?${query}`))).json()) as { pagination: { total: number } }).pagination.total;
    const before = await total('limit=100');

    const release = holdNextRead();
    const pending = total('limit=100&sort=name');
    await heldOnce;
    // A new skill, built by a build that dies half-way through moving its files in.
    await content.write(skillFiles(before + 1));
    const args = [BIN, 'build', '--content', content.dir, '--out', target, '--incremental', '--cache-dir', cacheDir];
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, SOURCE_DATE_EPOCH: '', [KILL_AT_ENV]: 'half' }, stdio: 'ignore' });
    const signal = await new Promise((resolve) => child.once('exit', (_code, killed) => resolve(killed)));
    expect(signal).toBe('SIGKILL');
    expect(existsSync(markerOf(target))).toBe(true);
    release();
    // The read landed in a folder under a commit: answered again once the server rolled it back.
    expect(await pending).toBe(before);
    expect(existsSync(markerOf(target))).toBe(false);
    expect(treeHashes(target)).toEqual(previous);

    // The next build commits in full: the server moves on to it.
    await incremental();
    expect(await tree.check()).toBe(true);
    expect(await total('limit=100&sort=updated')).toBe(before + 1);
    tree.close();
  }, 60_000);
});
