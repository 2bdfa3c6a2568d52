/**
 * `skills-api build` (what `npm run build` runs) in child processes: exit codes, messages, and byte-identical
 * output across discovery order, time zone and locale (BAD_INPUTS 21).
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentFiles, createContentFolder, skillJson, skillMd, tempDir, type ContentFolder, type FileSpec } from './helpers/fixture-content.ts';
import { readTree } from './helpers/read-tree.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.map((f) => f()));
});

/** Run the build CLI with `args`; `env` is added to a minimal environment. */
function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/skills-api.js', 'build', ...args],
      { cwd: process.cwd(), env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}

async function outDir(): Promise<string> {
  const parent = await tempDir('cli-out-');
  cleanups.push(() => fs.rm(parent, { recursive: true, force: true }));
  return join(parent, 'public');
}

async function content(options: Parameters<typeof createContentFolder>[0]): Promise<ContentFolder> {
  const folder = await createContentFolder(options);
  cleanups.push(folder.remove);
  return folder;
}

/** Skills whose names sort differently under different locales and case rules. */
const LOCALE_SENSITIVE: Record<string, FileSpec> = Object.fromEntries(
  ['Ärger', 'zebra', 'Île', 'ilk', 'İstanbul', 'IJssel', 'ß-tool', 'Zürich', 'éclair', 'Eclair'].flatMap((name, i) => [
    [`skills/intl/name-${i}/SKILL.md`, skillMd({ name, description: `${name} ${'long words '.repeat(30)}` })],
    [`skills/intl/name-${i}/skill.json`, skillJson(i, { stars: 5, updatedAt: '2025-03-01T08:30:00Z', categories: ['dev'] })],
  ]),
);

describe('build CLI', () => {
  it('two builds under different TZ and LANG give byte-identical trees (BAD_INPUTS 21)', async () => {
    // Node lists directories sorted (libuv), so the order of discovery itself is varied in
    // build-discovery-order.test.ts; here the two copies are written in opposite orders anyway.
    const forward = await content({ skills: 12, files: LOCALE_SENSITIVE });
    const reverse = await content({ skills: 0 });
    await reverse.write(Object.fromEntries(Object.entries({ ...contentFiles(12), ...LOCALE_SENSITIVE }).reverse()));
    const [a, b] = [await outDir(), await outDir()];
    // Each first build starts the folder's change log; one SOURCE_DATE_EPOCH gives both the same times.
    const epoch = { SOURCE_DATE_EPOCH: '1750000000' };
    const [ra, rb] = await Promise.all([
      runCli(['--content', forward.dir, '--out', a], { TZ: 'UTC', LANG: 'C', LC_ALL: 'C', ...epoch }),
      runCli(['--content', reverse.dir, '--out', b], { TZ: 'Pacific/Chatham', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8', ...epoch }),
    ]);
    expect(ra.stderr).toBe('');
    expect(ra.code).toBe(0);
    expect(rb.code).toBe(0);
    expect(ra.stdout.replace(a, '<out>').replace(forward.dir, '<content>')).toMatch(/^Built 22 skills from <content>\/ into <out>\/: \d+ files, [\d.]+ (KiB|MiB) in [\d.]+ s\n$/);
    const [ta, tb] = [await readTree(a), await readTree(b)];
    expect(ta.size).toBeGreaterThan(100);
    expect([...ta.keys()]).toEqual([...tb.keys()]);
    for (const [path, bytes] of ta) expect(tb.get(path)?.equals(bytes), path).toBe(true);
  });

  it('bad content: exit 1, every problem as `path → field: message`, the output untouched', async () => {
    const folder = await content({
      skills: 2,
      files: {
        'skills/zz/last/SKILL.md': '---\nname: [a]\ndescription: b\n---\n',
        'skills/zz/last/skill.json': skillJson(1, { stars: -1, author: { name: 'x', avatar: 'data:,x' } }),
      },
    });
    const out = await outDir();
    await fs.mkdir(join(out, 'api/v1'), { recursive: true });
    await fs.writeFile(join(out, 'api/v1/manifest.json'), 'previous');
    const result = await runCli(['--content', folder.dir, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.replaceAll(folder.dir, '<content>').replaceAll(out, '<out>')).toMatchInlineSnapshot(`
      "skills-api: build failed, <out>/ left unchanged: 3 problem(s) in <content>/
        skills/zz/last/SKILL.md → name: expected a non-empty string, got a list
        skills/zz/last/skill.json → stars: expected integer ≥ 0
        skills/zz/last/skill.json → author.avatar: expected an https: URL
      "
    `);
    expect(await fs.readFile(join(out, 'api/v1/manifest.json'), 'utf8')).toBe('previous');
  });

  it('--skip-invalid builds the rest and lists what it skipped', async () => {
    const folder = await content({ skills: 2, files: { 'skills/zz/last/SKILL.md': 'no front matter', 'skills/zz/last/skill.json': skillJson(1) } });
    const out = await outDir();
    const result = await runCli(['--content', folder.dir, '--out', out, '--skip-invalid']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Built 2 skills from /);
    expect(result.stderr.split('\n')).toEqual([
      'Skipped 1 invalid skill folder(s):',
      '  skills/zz/last/SKILL.md: missing front matter: the file must start with a line of exactly ---',
      '',
    ]);
  });

  it('a bad command line is a usage error (exit 2)', async () => {
    const cases: [string[], string][] = [
      [['--bogus'], "error: unknown option '--bogus'"],
      [['--content'], "error: option '--content <dir>' argument missing"],
      [['extra'], "error: too many arguments for 'build'"],
      [['--base', '/a b/'], "error: option '--base <path>' argument '/a b/' is invalid. --base must be a URL path"],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args)));
    results.forEach((result, i) => {
      expect(result.code).toBe(2);
      const [first, hint] = result.stderr.split('\n');
      expect(first).toContain(cases[i]![1]);
      expect(hint).toBe('(add --help for usage)');
    });
  });

  it('--help lists every flag of the build', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const flag of ['--content', '--out', '--skip-invalid', '--incremental', '--cache-dir', '--base', '--bundle']) expect(result.stdout).toContain(flag);
  });
});
