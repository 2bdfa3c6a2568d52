/**
 * The `skills-api` CLI, run as a user runs it: the real bin (bin/skills-api.js, through tsx) in a
 * child process, against a real build and bundle of the tools fixture, a real server, and a
 * plain static host. Output is not a terminal here, so it is plain unless FORCE_COLOR is set.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile, cp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import serveHandler from 'serve-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../src/handler.ts';
import { fsLoader } from '../src/node/fs-loader.ts';
import { startServer, type RunningServer } from '../src/node/server.ts';
import { buildToolsFixture, TOOLS_CONTENT, type ToolsFixture } from './helpers/tools-fixture.ts';

const BIN = fileURLToPath(new URL('../bin/skills-api.js', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the bin with `args` in `cwd`; the environment has no color settings unless given. */
function run(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const env = { ...process.env, ...options.env };
  for (const name of ['NO_COLOR', 'FORCE_COLOR'] as const) if (options.env?.[name] === undefined) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let fixture: ToolsFixture;
let server: RunningServer;
let staticHost: Server;
let staticUrl: string;
let empty: string;

beforeAll(async () => {
  fixture = await buildToolsFixture();
  server = await startServer({ dir: fixture.dir, host: '127.0.0.1' });
  staticHost = createServer((req, res) => void serveHandler(req, res, { public: fixture.dir }));
  await new Promise<void>((resolve) => staticHost.listen(0, '127.0.0.1', resolve));
  staticUrl = `http://127.0.0.1:${(staticHost.address() as AddressInfo).port}/`;
  empty = await mkdtemp(join(tmpdir(), 'cli-empty-'));
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => staticHost?.close(resolve));
  await fixture?.cleanup();
  await rm(empty, { recursive: true, force: true });
});

describe('queries', () => {
  it('search prints readable results, the same from every source', async () => {
    const fromBundle = await run(['search', 'name:pdf', '--bundle', fixture.bundle]);
    expect(fromBundle).toEqual({ code: 0, stderr: '', stdout: expect.any(String) });
    expect(fromBundle.stdout).toMatchInlineSnapshot(`
      "2 skills for name:pdf · page 1 of 1

      1.  PDF Toolkit     acme/pdf-toolkit    ★ 1,234
          Extract text and tables from PDF files, fill forms and merge documents.
      2.  PDF Summarizer  zed/pdf-summarizer    ★ 800
          Summarize long PDF reports into one page of prose.
      "
    `);
    const others = await Promise.all([
      run(['search', 'name:pdf', '--url', server.url]),
      run(['search', 'name:pdf', '--static-url', staticUrl]),
      run(['search', 'name:pdf', '--dir', fixture.dir]),
      // No source given: ./skills.bundle of the working folder.
      run(['search', 'name:pdf'], { cwd: fixture.root }),
    ]);
    for (const other of others) expect(other).toEqual(fromBundle);
  });

  it('search takes an exclusion as a word of the query, before or after the options; an unknown --option is still refused', async () => {
    const results = await Promise.all([
      run(['search', 'name:pdf', '-summarizer', '--bundle', fixture.bundle, '--json']),
      run(['search', '-summarizer', 'name:pdf', '--bundle', fixture.bundle, '--json']),
      run(['search', 'name:pdf', '--bundle', fixture.bundle, '--lmit', '5']),
    ]);
    for (const result of results.slice(0, 2)) {
      expect(result.code, result.stderr).toBe(0);
      expect((JSON.parse(result.stdout) as { data: Array<{ id: string }> }).data.map((r) => r.id)).toEqual(['acme/pdf-toolkit']);
    }
    expect(results[2]).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^skills-api: unknown option '--lmit'/) });
  });

  it('--json prints the API JSON', async () => {
    const result = await run(['search', 'pdf', '--min-stars', '10', '--no-has-index', '--limit', '1', '--bundle', fixture.bundle, '--json']);
    expect(result.code).toBe(0);
    const api = await createHandler(fsLoader(fixture.dir))(new Request('http://x/api/v1/skills/search?q=pdf&minStars=10&hasIndex=false&limit=1'));
    const expected = (await api.json()) as { meta: { took: number } };
    const printed = JSON.parse(result.stdout) as { meta: { took: number }; data: Array<{ id: string }> };
    expect(printed.data.map((r) => r.id)).toEqual(['zed/pdf-summarizer']);
    expect({ ...printed, meta: { ...printed.meta, took: 0 } }).toEqual({ ...expected, meta: { ...expected.meta, took: 0 } });
  });

  it('highlights matches with terminal emphasis when colors are on, never raw <mark>', async () => {
    const colored = await run(['search', 'pdf', '--bundle', fixture.bundle], { env: { FORCE_COLOR: '1' } });
    expect(colored.stdout).toContain('\x1b[1;7mPDF\x1b[22;27m Toolkit');
    expect(colored.stdout).not.toContain('<mark>');
    const plain = await run(['search', 'pdf', '--bundle', fixture.bundle], { env: { NO_COLOR: '1' } });
    expect(plain.stdout).not.toContain('\x1b');
    expect(plain.stdout).not.toContain('<mark>');
  });

  it('show, list and categories', async () => {
    const [show, list, categories, category] = await Promise.all([
      run(['show', 'acme/pdf-toolkit', '--stats', '--bundle', fixture.bundle]),
      run(['list', '--category', 'development', '--sort', 'name', '--order', 'asc', '--limit', '2', '--bundle', fixture.bundle]),
      run(['categories', '--bundle', fixture.bundle]),
      run(['categories', 'development', '--locale', 'de', '--bundle', fixture.bundle]),
    ]);
    expect(show.stdout).toMatchInlineSnapshot(`
      "PDF Toolkit
      acme/pdf-toolkit

      Extract text and tables from PDF files, fill forms and merge documents.

      Stars         1,234
      Forks         3
      Watchers      7
      Open issues   1
      License       MIT
      Author        acme
      Categories    development
      Platforms     claude-code, codex
      Created       2024-03-01
      Updated       2025-06-01
      Pushed        2025-06-01
      Views         5,400
      Installs      820
      Favorites     96
      Star history  2025-01-01 900, 2025-02-01 1,010, 2025-03-01 1,234

      Install
        claude-code  /plugin install acme/pdf-toolkit
        codex        codex skills add acme/pdf-toolkit
      "
    `);
    expect(list.stdout).toMatchInlineSnapshot(`
      "NAME               ID                  STARS  UPDATED     CATEGORIES
      Escape [31mArtist  evil/escape-artist      5  2025-01-15  code-review
      PDF Summarizer     zed/pdf-summarizer    800  2024-12-24  writing, development
      page 1 of 2 · 4 skills
      "
    `);
    expect(categories.stdout).toMatchInlineSnapshot(`
      "SLUG         NAME         SKILLS  SUBCATEGORIES
      development  Development       4  code-review (2)
      writing      Writing           2
      "
    `);
    expect(category.stdout).toMatchInlineSnapshot(`
      "Entwicklung (development) · 4 skills
      Code schreiben, prüfen und ausliefern.

      Subcategories
        code-review  Code-Review  2

      Top skills
        1.  PDF Toolkit        acme/pdf-toolkit    ★ 1,234
        2.  PDF Summarizer     zed/pdf-summarizer    ★ 800
        3.  Review Bot         acme/review-bot        ★ 50
        4.  Escape [31mArtist  evil/escape-artist      ★ 5
      "
    `);
  });

  it('show --content prints the raw SKILL.md byte for byte into a pipe; readable output never carries its escape sequences', async () => {
    const raw = await readFile(join(TOOLS_CONTENT, 'skills/evil/escape-artist/SKILL.md'), 'utf8');
    const [content, show, search] = await Promise.all([
      run(['show', 'evil/escape-artist', '--content', '--bundle', fixture.bundle]),
      run(['show', 'evil/escape-artist', '--bundle', fixture.bundle]),
      run(['search', 'escape', '--bundle', fixture.bundle]),
    ]);
    expect(content.stdout).toBe(raw);
    expect(raw).toContain('\x1b[2J');
    for (const readable of [show.stdout, search.stdout]) {
      expect(readable).toContain('Escape [31mArtist');
      expect(readable).not.toMatch(/[\x1b\u202e\u202c]/);
    }
  });
});

describe('errors', () => {
  // Each command runs against the fixture bundle (the last row has no command to take it).
  it.each<[string, string[], number, string]>([
    ['an unknown skill', ['show', 'acme/nope'], 1, 'skills-api: NOT_FOUND (404): No skill acme/nope\n'],
    ['a one-letter query', ['search', 'a'], 1, 'skills-api: INVALID_QUERY (400): '],
    ['malformed syntax', ['search', '"open'], 1, 'skills-api: INVALID_SYNTAX (400): '],
    ['an unknown category', ['list', '--category', 'nope'], 1, 'skills-api: INVALID_PARAMS (400): Invalid query parameter: category: unknown category "nope"\n'],
    ['--limit 0', ['list', '--limit', '0'], 2, "error: option '--limit <n>' argument '0' is invalid. --limit must be a whole number from 1 to 100\n"],
    ['--limit 101', ['search', 'pdf', '--limit', '101'], 2, "error: option '--limit <n>' argument '101' is invalid. --limit must be a whole number from 1 to 100\n"],
    ['a bad --sort', ['list', '--sort', 'popular'], 2, "error: option '--sort <key>' argument 'popular' is invalid. Allowed choices are stars, updated, name.\n"],
    ['an id without a slash', ['show', 'pdf-toolkit'], 2, 'skills-api: expected a skill id owner/repo, got "pdf-toolkit"\n(add --help for usage)\n'],
    ['--content with --stats', ['show', 'acme/pdf-toolkit', '--content', '--stats'], 2, 'skills-api: --content and --stats cannot be combined\n'],
    ['an unknown command', ['frobnicate'], 2, "error: unknown command 'frobnicate'\n"],
    ['an unknown command asking for help', ['frobnicate', '--help'], 2, "error: unknown command 'frobnicate'\n"],
  ])('%s', async (_name, args, code, stderr) => {
    const result = await run(args[0] === 'frobnicate' ? args : [...args, '--bundle', fixture.bundle]);
    expect(result.code).toBe(code);
    expect(result.stderr.startsWith(stderr), result.stderr).toBe(true);
    expect(result.stdout).toBe('');
  });

  it('bad sources: two at once, a missing bundle, a non-HTTP URL, an unreachable server or static host, a folder that is no build, none at all', async () => {
    const closed = await startServer({ dir: fixture.dir, host: '127.0.0.1' });
    await closed.close();
    const results = await Promise.all([
      run(['search', 'pdf', '--url', server.url, '--bundle', fixture.bundle]),
      run(['search', 'pdf', '--bundle', join(empty, 'missing.bundle')]),
      run(['search', 'pdf', '--url', 'ftp://example.com']),
      run(['search', 'pdf', '--url', closed.url]),
      run(['search', 'pdf', '--static-url', closed.url]),
      run(['search', 'pdf', '--dir', empty]),
      run(['search', 'pdf'], { cwd: empty }),
    ]);
    expect(results.map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
      [2, 'skills-api: give one source: --url, --static-url, --bundle or --dir'],
      [1, `skills-api: bad bundle: cannot read bundle ${join(empty, 'missing.bundle')}: no such file`],
      [2, 'skills-api: --url must be an http(s) URL, got "ftp://example.com"'],
      [1, expect.stringMatching(new RegExp(`^skills-api: cannot reach ${closed.url}: connect ECONNREFUSED`))],
      [1, expect.stringMatching(new RegExp(`^skills-api: cannot reach ${closed.url}: connect ECONNREFUSED`))],
      [1, `skills-api: ${empty}/ is not a build output (no api/v1/manifest.json): build it first with skills-api build --out ${empty}`],
      [2, 'skills-api: no directory to read: pass --url URL, --bundle FILE or --dir DIR, or create ./skills.bundle with: skills-api bundle --out skills.bundle'],
    ]);
  });
});

describe('build, bundle and serve', () => {
  it('bundle builds the content into one file, quietly when not on a terminal; search reads it', async () => {
    const work = await mkdtemp(join(tmpdir(), 'cli-bundle-'));
    try {
      const made = await run(['bundle', '--out', 'skills.bundle', '--content', TOOLS_CONTENT], { cwd: work });
      expect(made).toEqual({ code: 0, stderr: '', stdout: expect.stringMatching(/^Wrote skills\.bundle: 5 skills, \d+ files, [\d.]+ KiB \([\d.]+ KiB of JSON\)\n$/) });
      const search = await run(['search', 'name:pdf'], { cwd: work });
      expect(search.stdout).toBe((await run(['search', 'name:pdf', '--bundle', fixture.bundle])).stdout);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('build writes the tree (and a bundle); a content problem fails with the problem named and nothing written', async () => {
    const work = await mkdtemp(join(tmpdir(), 'cli-build-'));
    try {
      const built = await run(['build', '--content', TOOLS_CONTENT, '--out', 'out', '--bundle', 'out.bundle'], { cwd: work });
      expect(built.code).toBe(0);
      expect(built.stderr).toBe('');
      expect(built.stdout.replace(TOOLS_CONTENT, '<content>')).toMatch(/^Built 5 skills from <content>\/ into out\/: \d+ files, [\d.]+ KiB in [\d.]+ s\nWrote out\.bundle: 5 skills, /);
      expect(JSON.parse(await readFile(join(work, 'out/api/v1/openapi.json'), 'utf8'))).toHaveProperty('openapi');

      const bad = join(work, 'bad-content');
      await cp(TOOLS_CONTENT, bad, { recursive: true });
      await writeFile(join(bad, 'skills/acme/review-bot/SKILL.md'), '---\ndescription: no name\n---\nbody\n');
      await mkdir(join(work, 'untouched'));
      const failed = await run(['build', '--content', bad, '--out', 'out'], { cwd: work });
      expect(failed.code).toBe(1);
      expect(failed.stdout).toBe('');
      expect(failed.stderr).toMatch(/^skills-api: build failed, out\/ left unchanged: 1 problem\(s\) in .*\/\n {2}skills\/acme\/review-bot\/SKILL\.md → name: /);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('serve --bundle answers the API until SIGTERM, then exits 0', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--bundle', fixture.bundle, '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /^Skills Directory API on (http:\/\/\S+) \(5 skills from .*\.bundle\)$/m.exec(out);
        if (found) resolve(found[1]!);
      });
      child.on('close', () => reject(new Error(`serve exited: ${out}`)));
    });
    const response = await fetch(`${url}/api/v1/skills/search?q=name:pdf`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(2);
    expect((await fetch(`${url}/index.html`)).status).toBe(404);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
