/**
 * The command-line entry points as a user runs them: `npm run serve` prints its one startup line,
 * answers, and exits 0 on SIGTERM/SIGINT; a folder without a manifest or a wrong flag is a clear
 * error; `npm start` builds a missing output first.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractContent, writeContractTree } from './contract/contract-data.ts';

const ROOT = join(import.meta.dirname, '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const STARTUP = /^Skills Directory API on (http:\/\/[^:]+:(\d+)) \((\d+) skills? from (.+)\)$/m;

let base: string;
let out: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'server-cli-'));
  out = join(base, 'public');
  await writeContractTree(out);
});

/** A content folder of one valid skill (and, when `broken`, one whose skill.json is wrong). */
async function writeContent(dir: string, broken = false): Promise<void> {
  await mkdir(join(dir, 'skills', 'acme', 'hello'), { recursive: true });
  await writeFile(
    join(dir, 'categories.json'),
    JSON.stringify({ categories: [{ slug: 'development', icon: 'code', group: 'technical', name: 'Development', description: 'Code.', translations: {}, subcategories: [] }] }),
  );
  await writeFile(join(dir, 'platforms.json'), JSON.stringify({ platforms: [{ id: 'codex', name: 'Codex', install: 'codex skills add {owner}/{repo}' }] }));
  const meta = {
    stars: 1, forks: 0, watchers: 0, openIssues: 0,
    createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-02T00:00:00Z', pushedAt: '2025-01-02T00:00:00Z',
    author: { name: 'Acme', avatar: 'https://example.com/a.png' }, categories: ['development'], platforms: ['codex'],
  };
  await writeFile(join(dir, 'skills', 'acme', 'hello', 'SKILL.md'), '---\nname: Hello\ndescription: Says hello.\n---\n# Hello\n');
  await writeFile(join(dir, 'skills', 'acme', 'hello', 'skill.json'), JSON.stringify(meta));
  if (broken) {
    await mkdir(join(dir, 'skills', 'acme', 'broken'), { recursive: true });
    await writeFile(join(dir, 'skills', 'acme', 'broken', 'SKILL.md'), '---\nname: Broken\ndescription: Bad counts.\n---\n');
    await writeFile(join(dir, 'skills', 'acme', 'broken', 'skill.json'), JSON.stringify({ ...meta, stars: -1 }));
  }
}
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawn a command in its own process group; when `signal` is given, send it to the command's own
 * process (as Docker or systemd do) once the startup line is printed and the server answered on
 * the printed URL. Resolves when the process exits; whatever is left of its group is then killed,
 * so a failing test never leaves a server behind.
 */
function run(command: string, args: string[], signal?: NodeJS.Signals): Promise<Run & { answered?: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: '' } });
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(killGroup, 20_000);
    let stdout = '';
    let stderr = '';
    let answered: number | undefined;
    let signalled = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = STARTUP.exec(stdout);
      if (signal !== undefined && match !== null && !signalled) {
        signalled = true;
        fetch(`${match[1]}/api/v1/categories`)
          .then((response) => {
            answered = response.status;
            return response.arrayBuffer();
          })
          .finally(() => child.kill(signal));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, exitSignal) => {
      clearTimeout(timer);
      killGroup();
      resolve({ code, signal: exitSignal, stdout, stderr, ...(answered === undefined ? {} : { answered }) });
    });
  });
}

describe('npm run serve', () => {
  it.skipIf(process.platform === 'win32')('prints its startup line, answers, and exits 0 on SIGTERM', async () => {
    const result = await run('npm', ['run', '--silent', 'serve', '--', '--dir', out, '--port', '0'], 'SIGTERM');
    expect(result.stderr).toBe('');
    const match = STARTUP.exec(result.stdout);
    expect(match, result.stdout).not.toBeNull();
    expect(Number(match![2])).toBeGreaterThan(0);
    expect(match![1]).toBe(`http://localhost:${match![2]}`);
    expect(Number(match![3])).toBe((await contractContent()).skills.length);
    expect(match![4]).toBe(`${out}/`);
    expect(result.answered).toBe(200);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 0, signal: null });
  }, 30_000);

  it('exits 0 on SIGINT (Ctrl-C)', async () => {
    const result = await run(TSX, ['src/node/serve.ts', '--dir', out, '--port', '0', '--host', '127.0.0.1'], 'SIGINT');
    expect(result.stdout).toMatch(/^Skills Directory API on http:\/\/127\.0\.0\.1:\d+ \(\d+ skills from .+\)$/m);
    expect(result.answered).toBe(200);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 0, signal: null });
  }, 30_000);

  it('refuses a folder without a manifest, saying how to build it', async () => {
    const result = await run(TSX, ['src/node/serve.ts', '--dir', base, '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr.replaceAll(base, '<dir>')).toMatchInlineSnapshot(`
      "serve: <dir> has no api/v1/manifest.json: it is not a build output. Build it first: npm run build -- --out <dir>
      "
    `);
  }, 30_000);

  it('refuses an unknown flag and a missing --dir with the usage', async () => {
    const unknown = await run(TSX, ['src/node/serve.ts', '--dir', out, '--prot', '8080']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatchInlineSnapshot(`
      "serve: Unknown option '--prot'

      Usage: npm run serve -- --dir <output folder> [--port <n>] [--host <address>] [--rate-limit <N/min>]
        --dir         output folder of a build (required), e.g. public
        --port        port to listen on (default: PORT, else 3000; 0 picks a free one)
        --host        address to listen on (default: every interface)
        --rate-limit  API requests allowed per client: N/s, N/min or N/h (default: no limit)
      "
    `);
    const missing = await run(TSX, ['src/node/serve.ts', '--port', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('serve: --dir is required');
  }, 30_000);
});

describe('npm start', () => {
  it('builds the content first when the output has no manifest, then serves it; exits 0 on SIGTERM', async () => {
    const dir = join(base, 'start-fresh');
    await writeContent(join(dir, 'content'));
    const result = await run(TSX, ['src/node/start.ts', '--content', join(dir, 'content'), '--out', join(dir, 'public'), '--port', '0'], 'SIGTERM');
    const lines = result.stdout.replaceAll(dir, '<dir>').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Built 1 skills from <dir>\/content\/ into <dir>\/public\/ \(\d+ files, \d+ ms\)$/);
    expect(lines[1]).toMatch(/^Skills Directory API on http:\/\/localhost:\d+ \(1 skill from <dir>\/public\/\)$/);
    expect(result.answered).toBe(200);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 0, signal: null });
  }, 30_000);

  it('serves an existing output without building', async () => {
    // The content folder does not exist: a build would fail.
    const result = await run(TSX, ['src/node/start.ts', '--content', join(base, 'no-such-content'), '--out', out, '--port', '0'], 'SIGTERM');
    expect(result.stdout).not.toMatch(/Built/);
    expect(result.stdout).toMatch(STARTUP);
    expect(result.code).toBe(0);
  }, 30_000);

  it('fails clearly when the content has problems, writing nothing', async () => {
    const dir = join(base, 'start-broken');
    await writeContent(join(dir, 'content'), true);
    const result = await run(TSX, ['src/node/start.ts', '--content', join(dir, 'content'), '--out', join(dir, 'public'), '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr.replaceAll(dir, '<dir>')).toMatch(
      /^start: <dir>\/public\/ has no build yet and building <dir>\/content\/ failed \(nothing written\): the content has 1 problem:\n.*skills\/acme\/broken\/skill\.json.*stars.*\nFix these, or start with --skip-invalid to leave those skills out\.\n$/,
    );
    expect(await readdir(dir)).toEqual(['content']);
  }, 30_000);
});
