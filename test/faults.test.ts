/**
 * Faults (issue 5): a build killed with SIGKILL at any point leaves the previous output usable and
 * identical and the next build succeeds; a build killed between the two renames of the swap is
 * repaired by the next start; the server answers 500 SERVER_ERROR only for a missing or corrupt
 * file of the tree, survives clients hanging up mid-response and 1,000 concurrent connections.
 * Everything real: child processes, the build on the sample content, a server on port 0.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildError, runBuild } from '../builder/build.ts';
import { KILL_AT_ENV, markerOf } from '../shared/commit-journal.ts';
import { startServer, type RunningServer } from '../src/node/server.ts';
import { emptyFolders, treeHashes } from './helpers/read-tree.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONTENT = join(ROOT, 'content');

let base: string;
let out: string;
/** Every file of the first clean build: path → SHA-256. */
let clean: Map<string, string>;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'faults-test-'));
  out = join(base, 'public');
  await runBuild({ contentDir: CONTENT, outDir: out, sourceDateEpoch: undefined });
  clean = treeHashes(out);
}, 60_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The pid of a process that has exited (a killed build's pid is gone the same way). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

/** A copy of the sample content in a new folder and its first `--incremental` build. */
async function builtIncrementally(prefix: string): Promise<{ dir: string; content: string; target: string; cacheDir: string }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const content = join(dir, 'content');
  const target = join(dir, 'public');
  const cacheDir = join(dir, 'cache');
  await cp(CONTENT, content, { recursive: true });
  await runBuild({ contentDir: content, outDir: target, incremental: true, cacheDir, sourceDateEpoch: undefined });
  return { dir, content, target, cacheDir };
}

describe('a build killed with SIGKILL', () => {
  it('leaves the previous output identical at any point, and the next build succeeds', async () => {
    // One node process (bin/skills-api.js registers tsx in-process), so the kill hits the build
    // itself. Fixed delays spread over start-up, loading, writing the staging folder and the swap.
    const delays = [900, 1_900, 2_400];
    for (const delay of delays) {
      const child = spawn(process.execPath, ['bin/skills-api.js', 'build', '--content', CONTENT, '--out', out], {
        cwd: ROOT,
        env: { ...process.env, SOURCE_DATE_EPOCH: '' },
        stdio: 'ignore',
      });
      // Listened for from the start: a build that finishes before the kill has exited already.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      await exited;
      // Between the two renames the output is briefly missing, its backup beside it.
      const backups = (await readdir(base)).filter((name) => name.endsWith('-previous'));
      expect(existsSync(out) || backups.length > 0, `killed after ${delay} ms: output gone and no backup`).toBe(true);
      if (existsSync(out)) expect(treeHashes(out), `killed after ${delay} ms`).toEqual(clean);

      await runBuild({ contentDir: CONTENT, outDir: out, sourceDateEpoch: undefined });
      expect(treeHashes(out), `rebuilt after a kill at ${delay} ms`).toEqual(clean);
      expect((await readdir(base)).sort(), 'no staging folder or backup left behind').toEqual(['public']);
    }
  }, 60_000);

  it('with --incremental, never leaves a build cache that makes the next build wrong', async () => {
    const { dir, content, target, cacheDir } = await builtIncrementally('faults-incremental-');
    try {
      // An edit the killed builds see: their cache (if written) must describe it correctly.
      const owner = (await readdir(join(content, 'skills'))).sort()[0]!;
      const repo = (await readdir(join(content, 'skills', owner))).sort()[0]!;
      await writeFile(join(content, 'skills', owner, repo, 'stats.json'), '{"views":7,"installs":3,"favorites":1,"starHistory":[]}');
      await runBuild({ contentDir: content, outDir: join(dir, 'expected'), sourceDateEpoch: undefined });
      const expected = treeHashes(join(dir, 'expected'));
      for (const delay of [900, 1_900, 2_600]) {
        const args = ['bin/skills-api.js', 'build', '--content', content, '--out', target, '--incremental', '--cache-dir', cacheDir];
        const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, SOURCE_DATE_EPOCH: '' }, stdio: 'ignore' });
        // Listened for from the start: a build that finishes before the kill has exited already.
        const exited = new Promise((resolve) => child.once('exit', resolve));
        await new Promise((resolve) => setTimeout(resolve, delay));
        child.kill('SIGKILL');
        await exited;
        await runBuild({ contentDir: content, outDir: target, incremental: true, cacheDir, sourceDateEpoch: undefined });
        expect(treeHashes(target), `incremental build after a kill at ${delay} ms`).toEqual(expected);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('with --incremental, killed during the commit into the live output: rolled back to the previous output', async () => {
    const { dir, content, target, cacheDir } = await builtIncrementally('faults-commit-');
    try {
      const previous = treeHashes(target);
      // A change of each kind: a file replaced (stats), files removed (a skill), files added (a new owner).
      const owners = (await readdir(join(content, 'skills'))).sort();
      const repo = (await readdir(join(content, 'skills', owners[0]!))).sort()[0]!;
      await writeFile(join(content, 'skills', owners[0]!, repo, 'stats.json'), '{"views":9,"installs":4,"favorites":2,"starHistory":[]}');
      await rm(join(content, 'skills', owners[1]!), { recursive: true });
      await cp(join(content, 'skills', owners[2]!), join(content, 'skills', 'faults-new-owner'), { recursive: true });
      await runBuild({ contentDir: content, outDir: join(dir, 'expected'), sourceDateEpoch: undefined });
      const expected = treeHashes(join(dir, 'expected'));
      const build = async (point: string): Promise<NodeJS.Signals | null> => {
        const args = ['bin/skills-api.js', 'build', '--content', content, '--out', target, '--incremental', '--cache-dir', cacheDir];
        const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, SOURCE_DATE_EPOCH: '', [KILL_AT_ENV]: point }, stdio: 'ignore' });
        return new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      };
      for (const point of ['journal', 'marker', 'half', 'moved']) {
        // The build killed itself at that point of its commit (so the commit did start).
        expect(await build(point), `the build reached ${point}`).toBe('SIGKILL');
        expect(existsSync(markerOf(target)), point).toBe(point !== 'journal');
        if (point === 'journal') expect(treeHashes(target), 'journal written, output not touched yet').toEqual(previous);
        // The next one to touch the folder rolls it back: a server starting on it.
        const server = await startServer({ dir: target, host: '127.0.0.1', port: 0, handler: undefined });
        try {
          expect(existsSync(markerOf(target)), `${point}: marker left after the server started`).toBe(false);
          expect(treeHashes(target), `killed at ${point}, rolled back by the server`).toEqual(previous);
          expect(emptyFolders(target), `${point}: empty folders left`).toEqual([]);
          expect((await fetch(new URL('/api/v1/skills', server.url))).status).toBe(200);
        } finally {
          await server.close();
        }
        // Before the marker nothing was touched and the server leaves the commit folder to the next build.
        const left = (await readdir(dir)).filter((name) => !(point === 'journal' && name.startsWith('.commit-public-')));
        expect(left.sort(), `${point}: commit folder left behind`).toEqual(['cache', 'content', 'expected', 'public']);
      }
      // Killed right after the commit point: the new output is complete; the leftover commit
      // folder goes with the next build (which, the output record not written, builds a whole
      // tree and hands the replaced one to a background remover).
      expect(await build('committed')).toBe('SIGKILL');
      expect(existsSync(markerOf(target))).toBe(false);
      expect(treeHashes(target), 'killed after the commit point').toEqual(expected);
      await runBuild({ contentDir: content, outDir: target, incremental: true, cacheDir, sourceDateEpoch: undefined });
      expect(treeHashes(target)).toEqual(expected);
      expect(emptyFolders(target)).toEqual([]);
      const left = (await readdir(dir)).filter((name) => !name.startsWith('.trash-public-'));
      expect(left.sort()).toEqual(['cache', 'content', 'expected', 'public']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('between the two renames: the next start puts the backup back before anything else', async () => {
    const backup = join(base, `.staging-public-${deadPid()}-AbC123-previous`);
    await rename(out, backup);
    // A build that fails (content problems) still restores the previous output first.
    await expect(runBuild({ contentDir: join(base, 'no-such-content'), outDir: out })).rejects.toBeInstanceOf(BuildError);
    expect(treeHashes(out)).toEqual(clean);
    expect(existsSync(backup)).toBe(false);

    await rename(out, backup);
    await runBuild({ contentDir: CONTENT, outDir: out, sourceDateEpoch: undefined });
    expect(treeHashes(out)).toEqual(clean);
    expect((await readdir(base)).sort()).toEqual(['public']);
  }, 30_000);
});

describe('the server under faults', () => {
  let tree: string;
  let server: RunningServer;
  const BIG = JSON.stringify({ data: 'x'.repeat(4 * 1024 * 1024) });

  beforeAll(async () => {
    tree = join(base, 'damaged');
    await cp(out, tree, { recursive: true });
    // Missing: the first page of the default list; corrupt: the first page sorted by name and
    // one skill detail (cut short).
    await rm(join(tree, 'api/v1/skills/_list/all/stars-desc/1.json'));
    await writeFile(join(tree, 'api/v1/skills/_list/all/name-asc/1.json'), '{"data":[tru');
    const [owner] = readdirSync(join(tree, 'api/v1/skills')).filter((name) => !name.startsWith('_')).sort();
    const [repo] = readdirSync(join(tree, 'api/v1/skills', owner!)).sort();
    await writeFile(join(tree, 'api/v1/skills', owner!, repo!, 'index.json'), '{"data":{"id":');
    detailPath = `/api/v1/skills/${owner}/${repo}`;
    await mkdir(join(tree, 'files'));
    await writeFile(join(tree, 'files', 'big.json'), BIG);
    server = await startServer({ dir: tree, host: '127.0.0.1', handler: undefined });
  });

  afterAll(async () => {
    await server.close();
  });

  let detailPath = '';

  const get = async (path: string): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(new URL(path, server.url));
    return { status: response.status, body: await response.json() };
  };

  it('answers 500 SERVER_ERROR for a missing or corrupt file, and only for that resource', async () => {
    const originalError = console.error;
    console.error = () => {}; // the server logs each 500; expected here
    try {
      for (const path of ['/api/v1/skills', '/api/v1/skills?sort=name&order=asc', detailPath]) {
        const answer = await get(path);
        expect(answer.status, path).toBe(500);
        expect(answer.body, path).toMatchObject({ error: { code: 'SERVER_ERROR' } });
      }
    } finally {
      console.error = originalError;
    }
    for (const path of ['/api/v1/skills?sort=updated', '/api/v1/skills?sort=name&order=desc', `${detailPath}/stats`, '/api/v1/categories']) {
      expect((await get(path)).status, path).toBe(200);
    }
  });

  it('keeps answering when clients hang up mid-response', async () => {
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = request(new URL('/files/big.json', server.url), { agent: false }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve() : reject(error)));
        req.end();
      });
    }
    // And a client that leaves before the request line is complete.
    const socket = connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.end('GET /api/v1/skills?sort=upd');
    expect((await get('/api/v1/skills?sort=updated')).status).toBe(200);
    const big = await fetch(new URL('/files/big.json', server.url));
    expect((await big.text()).length).toBe(BIG.length);
  });

  it('answers 1,000 concurrent connections', async () => {
    const paths = ['/api/v1/skills?sort=updated', '/api/v1/categories', `${detailPath}/stats`, '/api/v1/skills/nobody/nothing'];
    const statuses = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) => rawGet(server.port, paths[i % paths.length]!)),
    );
    const counts = new Map<number, number>();
    for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ 200: 750, 404: 250 });
  }, 30_000);
});


/** Status of a GET over its own connection (opened all at once by the caller). */
function rawGet(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let head = '';
    socket.setEncoding('latin1');
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
    socket.on('data', (chunk: string) => {
      if (head.length < 64) head += chunk;
    });
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}
