/**
 * The serving commands as a user runs them: `npm run serve` prints its one startup line,
 * answers, and exits 0 on SIGTERM/SIGINT; a folder without a manifest or a wrong flag is a clear
 * error; `npm start` builds a missing or stale output first; `skills-api dev` rebuilds on a
 * content edit and tells the page to reload.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractContent, writeContractTree } from './contract/contract-data.ts';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'skills-api.js');
const NODE = process.execPath;
const VERSION = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
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
    // This tree is written without the build (no generator in its manifest).
    expect(result.stdout).toContain(`\nskills-directory-api ${VERSION}, serving a build made by a version that did not record itself\n`);
    expect(result.answered).toBe(200);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 0, signal: null });
  }, 30_000);

  it('exits 0 on SIGINT (Ctrl-C)', async () => {
    const result = await run(NODE, [BIN, 'serve', '--dir', out, '--port', '0', '--host', '127.0.0.1'], 'SIGINT');
    expect(result.stdout).toMatch(/^Skills Directory API on http:\/\/127\.0\.0\.1:\d+ \(\d+ skills from .+\)$/m);
    expect(result.answered).toBe(200);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 0, signal: null });
  }, 30_000);

  it('refuses a folder without a manifest, saying how to build it', async () => {
    const result = await run(NODE, [BIN, 'serve', '--dir', base, '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr.replaceAll(base, '<dir>')).toMatchInlineSnapshot(`
      "skills-api: <dir>/ is not a build output (no api/v1/manifest.json): build it first with skills-api build --out <dir>
      "
    `);
  }, 30_000);

  it('refuses an unknown flag and a bad port with a pointer to --help', async () => {
    const unknown = await run(NODE, [BIN, 'serve', '--dir', out, '--prot', '8080']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("error: unknown option '--prot'\n(Did you mean --port?)\n(add --help for usage)\n");
    const port = await run(NODE, [BIN, 'serve', '--port', 'x']);
    expect(port.code).toBe(2);
    expect(port.stderr.split('\n')[0]).toBe("error: option '--port <n>' argument 'x' is invalid. --port must be a port number from 0 to 65535");
    const rate = await run(NODE, [BIN, 'serve', '--rate-limit', '0/min']);
    expect(rate.code).toBe(2);
    expect(rate.stderr.split('\n')[0]).toMatch(/^error: option '--rate-limit <rate>' argument '0\/min' is invalid\. --rate-limit must be N\/s, N\/min or N\/h/);
  }, 30_000);
});

describe('npm start', () => {
  it('--help says what start compares: the content hash the manifest records', async () => {
    const help = await run(NODE, [BIN, 'start', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain("when the output is missing or was built from other content (its manifest's contentHash differs)");
  });

  it('builds the content first when the output has no manifest, then serves it; exits 0 on SIGTERM', async () => {
    const dir = join(base, 'start-fresh');
    await writeContent(join(dir, 'content'));
    const result = await run(NODE, [BIN, 'start', '--content', join(dir, 'content'), '--out', join(dir, 'public'), '--port', '0'], 'SIGTERM');
    const lines = result.stdout.replaceAll(dir, '<dir>').trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^Built 1 skills from <dir>\/content\/ into <dir>\/public\/: \d+ files, [\d.]+ KiB in [\d.]+ s$/);
    expect(lines[1]).toMatch(/^Skills Directory API on http:\/\/localhost:\d+ \(1 skill from <dir>\/public\/\)$/);
    expect(lines[2]).toBe(`skills-directory-api ${VERSION}, serving a build made by skills-directory-api ${VERSION}`);
    expect(result.answered).toBe(200);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 0, signal: null });
  }, 30_000);

  it('serves an existing output without building', async () => {
    // The content folder does not exist: a build would fail.
    const result = await run(NODE, [BIN, 'start', '--content', join(base, 'no-such-content'), '--out', out, '--port', '0'], 'SIGTERM');
    expect(result.stdout).not.toMatch(/Built/);
    expect(result.stdout.replaceAll(base, '<base>')).toMatch(/^Serving the existing build in <base>\/public\/ \(no content folder <base>\/no-such-content\/\)$/m);
    expect(result.stdout).toMatch(STARTUP);
    expect(result.code).toBe(0);
  }, 30_000);

  it('fails clearly when the content has problems, writing nothing', async () => {
    const dir = join(base, 'start-broken');
    await writeContent(join(dir, 'content'), true);
    const result = await run(NODE, [BIN, 'start', '--content', join(dir, 'content'), '--out', join(dir, 'public'), '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr.replaceAll(dir, '<dir>')).toMatch(
      /^skills-api: build failed, <dir>\/public\/ left unchanged: 1 problem\(s\) in <dir>\/content\/\n.*skills\/acme\/broken\/skill\.json.*stars.*\nFix these, or start with --skip-invalid to leave those skills out\.\n$/,
    );
    expect(await readdir(dir)).toEqual(['content']);
  }, 30_000);

  it('rebuilds when the content changed since the output was built, and says so; serves it as it is when unchanged', async () => {
    const dir = join(base, 'start-stale');
    await writeContent(join(dir, 'content'));
    const args = [BIN, 'start', '--content', join(dir, 'content'), '--out', join(dir, 'public'), '--port', '0'];
    const first = await run(NODE, args, 'SIGTERM');
    expect(first.stdout).toMatch(/^Built 1 skills/m);
    const again = await run(NODE, args, 'SIGTERM');
    expect(again.stdout.replaceAll(dir, '<dir>').split('\n')[0]).toBe('Serving the existing build in <dir>/public/ (<dir>/content/ unchanged)');
    await writeFile(join(dir, 'content', 'skills', 'acme', 'hello', 'SKILL.md'), '---\nname: Hello Again\ndescription: Says hello.\n---\n# Hello\n');
    const edited = await run(NODE, args, 'SIGTERM');
    const lines = edited.stdout.replaceAll(dir, '<dir>').split('\n');
    expect(lines[0]).toBe('<dir>/content/ changed since <dir>/public/ was built: rebuilding');
    expect(lines[1]).toMatch(/^Built 1 skills from <dir>\/content\/ into <dir>\/public\//);
    const detail = JSON.parse(await readFile(join(dir, 'public', 'api', 'v1', 'skills', 'acme', 'hello', 'index.json'), 'utf8')) as { data: { name: string } };
    expect(detail.data.name).toBe('Hello Again');
    expect({ code: edited.code, answered: edited.answered }).toEqual({ code: 0, answered: 200 });
  }, 60_000);
});

describe('skills-api dev', () => {
  it('serves, rebuilds on a content edit, tells open pages to reload, and keeps the last good build on bad content', async () => {
    const dir = join(base, 'dev');
    await writeContent(join(dir, 'content'));
    const child = spawn(NODE, [BIN, 'dev', '--content', join(dir, 'content'), '--out', join(dir, 'public'), '--port', '0', '--cache-dir', join(dir, 'cache')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PORT: '' },
    });
    let stdout = '';
    const waitFor = (pattern: RegExp, from = 0): Promise<RegExpExecArray> =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(stdout.slice(from));
          if (match !== null) {
            child.stdout.off('data', check);
            child.off('exit', reject);
            resolve(match);
          }
        };
        child.stdout.on('data', check);
        child.once('exit', () => reject(new Error(`dev exited; output:\n${stdout}`)));
        check();
      });
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      const url = (await waitFor(STARTUP))[1]!;
      await waitFor(/^Watching .* for changes/m);
      const page = await (await fetch(`${url}/`)).text();
      expect(page).toContain('<script src="/_dev/reload.js"></script>');
      const script = await fetch(`${url}/_dev/reload.js`);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await script.text()).toContain('new EventSource("/_dev/reload")');
      const stream = await fetch(`${url}/_dev/reload`);
      expect(stream.headers.get('content-type')).toBe('text/event-stream');
      const reader = stream.body!.getReader();
      const events = async (): Promise<string> => {
        let text = '';
        while (!text.includes('data: reload')) {
          const { value, done } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
        }
        return text;
      };

      // Asked once before the edit: the server keeps answers by URL, and a rebuild must drop them.
      const before = (await (await fetch(`${url}/api/v1/skills/acme/hello`)).json()) as { data: { name: string } };
      expect(before.data.name).toBe('Hello');
      const mark = stdout.length;
      await writeFile(join(dir, 'content', 'skills', 'acme', 'hello', 'SKILL.md'), '---\nname: Hello Edited\ndescription: Says hello.\n---\n# Hello\n');
      expect(await events()).toContain('data: reload');
      await waitFor(/^Built 1 skills/m, mark);
      const detail = (await (await fetch(`${url}/api/v1/skills/acme/hello`)).json()) as { data: { name: string } };
      expect(detail.data.name).toBe('Hello Edited');
      // The rebuild logged the edit in the content folder's change log, and serves it.
      const changes = (await (await fetch(`${url}/api/v1/changes`)).json()) as { data: Array<{ id: string; change: string }> };
      expect(changes.data.map((e) => `${e.change} ${e.id}`)).toEqual(['added acme/hello', 'updated acme/hello']);
      const log = await readFile(join(dir, 'content', 'changes.ndjson'), 'utf8');

      const bad = stdout.length;
      await writeFile(join(dir, 'content', 'skills', 'acme', 'hello', 'SKILL.md'), '---\nname: [not, a, string]\ndescription: Says hello.\n---\n');
      await waitFor(/Still serving the last good build/, bad);
      expect(stdout.slice(bad)).toMatch(/SKILL\.md → name: expected a non-empty string/);
      const still = (await (await fetch(`${url}/api/v1/skills/acme/hello`)).json()) as { data: { name: string } };
      expect(still.data.name).toBe('Hello Edited');
      // The failed build appended nothing, and the build's own write to the log started no rebuild.
      expect(await readFile(join(dir, 'content', 'changes.ndjson'), 'utf8')).toBe(log);
      expect(stdout.slice(mark).match(/^Built /gm)).toHaveLength(1);
      await reader.cancel();
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    expect(child.exitCode).toBe(0);
  }, 60_000);
});
