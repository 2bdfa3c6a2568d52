/**
 * A skill is its folder: `skills-api import` keeps every regular file of a skill folder (reserved
 * names kept apart, links and hostile names left out and reported, limits stated), the build
 * lists them in the detail and writes each file, a deterministic archive and the discovery
 * indexes, and the Node server answers them. Real git repositories made here; real builds.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildError, runBuild } from '../builder/build.ts';
import { runImport, type ImportReport } from '../builder/import/run.ts';
import { discoveryName, discoveryNames } from '../builder/skill-output.ts';
import { writeBundle } from '../builder/bundle.ts';
import { createClient } from '../src/client.ts';
import { readBundleFile } from '../src/node/bundle-file.ts';
import { fsBytesLoader, fsLoader } from '../src/node/fs-loader.ts';
import { startServer, type RunningServer } from '../src/node/server.ts';
import { caseTwinCheck, contentPathOf, filePathProblem, skillPathOf } from '../src/skill-files.ts';
import { gitFixture, skillMd, tempFolder } from './helpers/git-fixture.ts';
import { readTree } from './helpers/read-tree.ts';

const BINARY = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const sha = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

let base: string;
let content: string;
let report: ImportReport;
let server: RunningServer;

beforeAll(async () => {
  base = await tempFolder('skill-folders-');
  const repo = await gitFixture(base, 'skills', 'https://github.com/acme/skills.git');
  await repo.commit('2025-01-01T10:00:00Z', {
    'skills/pdf/SKILL.md': skillMd('pdf', 'Extract text and tables from PDF files.', '', '# pdf\n\nSee [forms](forms.md) and [the script](scripts/fill.py).\n'),
    'skills/pdf/forms.md': '# Forms\n',
    'skills/pdf/reference.md': '# Reference\n',
    'skills/pdf/scripts/fill.py': 'print("fill")\n',
    // The skill's own files named like the content format's metadata.
    'skills/pdf/skill.json': '{"own":"skill.json of the skill"}\n',
    'skills/pdf/stats.json': '{"own":"stats"}\n',
    'skills/pdf/_skill.json': '{"own":"underscore"}\n',
    'skills/pdf/.claude-plugin/marketplace.json': '{"own":"marketplace"}\n',
    // Left out: a link, a name with %, a backslash, a case twin.
    'skills/pdf/link.md': { symlink: 'forms.md' },
    'skills/pdf/100%.md': 'percent\n',
    'skills/pdf/back\\slash.md': 'backslash\n',
    'skills/pdf/Notes.md': 'upper\n',
    'skills/pdf/notes.md': 'lower\n',
    // A nested SKILL.md with a name of its own is a skill of its own, and stays in this folder too.
    'skills/pdf/inner/SKILL.md': skillMd('inner', 'A nested skill of its own.'),
    'skills/single/SKILL.md': skillMd('single', 'A skill of one file.'),
    // Past the limit of 500 files: SKILL.md and the first 499 files by path are kept.
    'skills/many/SKILL.md': skillMd('many', 'A skill with too many files.'),
    ...Object.fromEntries(Array.from({ length: 505 }, (_, i) => [`skills/many/f/${String(i).padStart(3, '0')}.txt`, `${i}\n`])),
  });
  await fs.chmod(join(repo.dir, 'skills/pdf/scripts/fill.py'), 0o755);
  await fs.mkdir(join(repo.dir, 'skills/pdf/assets'));
  await fs.writeFile(join(repo.dir, 'skills/pdf/assets/logo.bin'), BINARY);
  await repo.commit('2025-01-02T10:00:00Z', {});
  content = join(base, 'content');
  report = await runImport({ sources: [{ url: repo.dir }], out: content, cacheDir: join(base, 'cache'), meta: { kind: 'none' }, today: '2025-01-03' });
  await runBuild({ contentDir: content, outDir: join(base, 'out'), sourceDateEpoch: undefined });
  server = await startServer({ dir: join(base, 'out'), host: '127.0.0.1' });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await fs.rm(base, { recursive: true, force: true });
});

describe('content names: the reserved-name scheme is one-to-one', () => {
  it('a skill own skill.json, stats.json, _skill.json, Skill.json and marketplace.json map apart from the metadata and back', () => {
    const own = ['skill.json', 'stats.json', '_skill.json', '__stats.json', 'Skill.json', '.claude-plugin/marketplace.json', 'docs/skill.json', 'a.md'];
    const stored = own.map(contentPathOf);
    expect(stored).toEqual(['_skill.json', '_stats.json', '__skill.json', '___stats.json', '_Skill.json', '.claude-plugin/_marketplace.json', 'docs/skill.json', 'a.md']);
    expect(new Set(stored).size).toBe(own.length);
    expect(stored.map(skillPathOf)).toEqual(own);
    for (const metadata of ['skill.json', 'stats.json', '.claude-plugin/marketplace.json']) expect(skillPathOf(metadata)).toBeUndefined();
  });

  it('hostile names are refused, each with the reason', () => {
    for (const bad of ['..', 'a/../b', '/etc/passwd', 'C:/x', 'a\\b', 'a\u0000b', 'a\u001bb', '100%.md', 'a//b', '.git/config', `${'x'.repeat(101)}`]) {
      expect(filePathProblem(bad), bad).toBeTypeOf('string');
    }
    // Names Windows cannot hold: the skill would not install there.
    expect(filePathProblem('docs/CON')).toMatch(/^is a name Windows reserves for a device \("CON"/);
    expect(filePathProblem('aux.md')).toMatch(/^is a name Windows reserves/);
    expect(filePathProblem('nul.tar.gz')).toMatch(/^is a name Windows reserves/);
    expect(filePathProblem('lpt1/a.md')).toMatch(/^is a name Windows reserves/);
    expect(filePathProblem('what?.md')).toMatch(/^contains a character Windows refuses/);
    expect(filePathProblem('docs/note:1.md')).toMatch(/^contains a character Windows refuses/);
    expect(filePathProblem('notes.')).toMatch(/^ends with a dot or a space/);
    expect(filePathProblem('dir /a.md')).toMatch(/^ends with a dot or a space/);
    for (const fine of ['console.md', 'auxiliary/x.py', 'com10.txt', 'nul-check.sh', '.env.example', 'con_fig.md']) expect(filePathProblem(fine), fine).toBeUndefined();
    expect(filePathProblem('scripts/fill.py')).toBeUndefined();
    expect(filePathProblem(`${'d'.repeat(100)}/${'f'.repeat(100)}`)).toBeUndefined();
    // The file fits a header after its folder, but the folder's own entry fits none.
    expect(filePathProblem(`${'d'.repeat(101)}/a`)).toMatch(/^has a folder, "d{101}", too long for a tar header/);
    expect(filePathProblem(`${'d'.repeat(150)}/${'f'.repeat(100)}`)).toMatch(/^has a folder, "d{150}"/);
    expect(filePathProblem(`x/${'d'.repeat(101)}/a`)).toMatch(/^has a folder, "x\/d{101}", too long/);
  });

  it('case twins among files and folders: each path taken, or why not', () => {
    const twin = caseTwinCheck();
    const taken = ['Notes', 'notes/b.md', 'Docs/a.md', 'docs/b.md', 'docs', 'Docs/c.md', 'cafe\u0301.md', 'caf\u00e9.md', 'a/B/c', 'A/b/d'].map((path) => [path, twin(path)]);
    expect(taken).toEqual([
      ['Notes', undefined],
      ['notes/b.md', 'is in folder "notes", which differs from "Notes" only by case or Unicode normalization'],
      ['Docs/a.md', undefined],
      ['docs/b.md', 'is in folder "docs", which differs from "Docs" only by case or Unicode normalization'],
      ['docs', 'differs from "Docs" only by case or Unicode normalization'],
      ['Docs/c.md', undefined],
      ['cafe\u0301.md', undefined],
      ['caf\u00e9.md', 'differs from "cafe\u0301.md" only by case or Unicode normalization'],
      ['a/B/c', undefined],
      ['A/b/d', 'is in folder "A", which differs from "a" only by case or Unicode normalization'],
    ]);
  });

  it('discovery names: lower-case, single hyphens, at most 64, unique per owner', () => {
    expect(discoveryName('pdf')).toBe('pdf');
    expect(discoveryName('PDF_Tools.v2')).toBe('pdf-tools-v2');
    expect(discoveryName('--x--y--')).toBe('x-y');
    expect(discoveryName('_')).toBe('skill');
    expect(discoveryName('a'.repeat(80))).toHaveLength(64);
    expect(discoveryNames(['a_b', 'a-b', 'A.B'])).toEqual(['a-b-2', 'a-b', 'a-b-3']);
  });
});

describe('skills-api import keeps the whole folder', () => {
  it('writes every regular file, escapes the reserved names, keeps the executable bit', async () => {
    const folder = join(content, 'skills', 'acme', 'pdf');
    const files = (await readTree(folder)).keys();
    expect([...files].sort()).toEqual(
      [
        '.claude-plugin/_marketplace.json',
        'Notes.md',
        'SKILL.md',
        '__skill.json',
        '_skill.json',
        '_stats.json',
        'assets/logo.bin',
        'forms.md',
        'inner/SKILL.md',
        'reference.md',
        'scripts/fill.py',
        // skill.json is the import's metadata (no stats.json: no star count to record).
        'skill.json',
      ].sort(),
    );
    expect(await fs.readFile(join(folder, '_skill.json'), 'utf8')).toBe('{"own":"skill.json of the skill"}\n');
    expect(Buffer.compare(await fs.readFile(join(folder, 'assets/logo.bin')), BINARY)).toBe(0);
    expect((await fs.stat(join(folder, 'scripts/fill.py'))).mode & 0o777).toBe(0o755);
    expect((await fs.stat(join(folder, 'forms.md'))).mode & 0o777).toBe(0o644);
  });

  it('the report names every file left out with its reason, and counts files and bytes', () => {
    const pdf = report.skills.find((s) => s.path === 'skills/pdf/SKILL.md')!;
    expect(pdf.files).toBe(11);
    expect(pdf.bytes).toBeGreaterThan(256);
    expect(pdf.leftOut).toEqual([
      { path: '100%.md', reason: expect.stringContaining('%') },
      { path: 'back\\slash.md', reason: expect.stringContaining('backslash') },
      { path: 'link.md', reason: 'symbolic link, not followed' },
      { path: 'notes.md', reason: expect.stringContaining('only by case') },
    ]);
    const many = report.skills.find((s) => s.path === 'skills/many/SKILL.md')!;
    expect(many.status).toBe('imported');
    expect(many.files).toBe(500);
    expect(many.leftOut).toHaveLength(6);
    expect(many.leftOut!.map((f) => f.path)).toEqual(['f/499.txt', 'f/500.txt', 'f/501.txt', 'f/502.txt', 'f/503.txt', 'f/504.txt']);
    expect(many.leftOut![0]!.reason).toContain('500 files');
  });
});

describe('a later import follows the folder', () => {
  it('a file deleted upstream is removed, a changed one rewritten, an executable bit dropped', async () => {
    const repo = await gitFixture(base, 'moving', 'https://github.com/mover/skills.git');
    await repo.commit('2025-01-01T10:00:00Z', {
      'skills/tool/SKILL.md': skillMd('tool', 'A tool.'),
      'skills/tool/a.md': 'a\n',
      'skills/tool/docs/b.md': 'b\n',
      'skills/tool/run.sh': 'echo run\n',
    });
    await fs.chmod(join(repo.dir, 'skills/tool/run.sh'), 0o755);
    await repo.commit('2025-01-02T10:00:00Z', {});
    const out = join(base, 'moving-content');
    const run = () => runImport({ sources: [{ url: repo.dir }], out, cacheDir: join(base, 'moving-cache'), meta: { kind: 'none' }, today: '2025-01-03' });
    await run();
    const folder = join(out, 'skills', 'mover', 'tool');
    expect((await fs.stat(join(folder, 'run.sh'))).mode & 0o777).toBe(0o755);
    await repo.commit('2025-01-04T10:00:00Z', { 'skills/tool/docs/b.md': null, 'skills/tool/a.md': 'a, changed\n' });
    await fs.chmod(join(repo.dir, 'skills/tool/run.sh'), 0o644);
    await repo.commit('2025-01-05T10:00:00Z', {});
    const again = await run();
    expect(again.counts.changed).toBe(1);
    expect([...(await readTree(folder)).keys()].sort()).toEqual(['SKILL.md', 'a.md', 'run.sh', 'skill.json']);
    expect(await fs.readFile(join(folder, 'a.md'), 'utf8')).toBe('a, changed\n');
    expect((await fs.stat(join(folder, 'run.sh'))).mode & 0o777).toBe(0o644);
    const third = await run();
    expect(third.counts.unchanged).toBe(1);
  });
});

describe('the build and the server: files, archive, discovery', () => {
  const url = (path: string) => `${server.url}${path}`;

  it('the detail lists every file sorted with size and SHA-256, the skill own skill.json among them', async () => {
    const detail = (await (await fetch(url('/api/v1/skills/acme/pdf'))).json()) as { data: { files: { path: string; size: number; sha256: string }[]; archive: { url: string; size: number; sha256: string } } };
    const paths = detail.data.files.map((f) => f.path);
    expect(paths).toEqual(['.claude-plugin/marketplace.json', 'Notes.md', 'SKILL.md', '_skill.json', 'assets/logo.bin', 'forms.md', 'inner/SKILL.md', 'reference.md', 'scripts/fill.py', 'skill.json', 'stats.json']);
    const own = detail.data.files.find((f) => f.path === 'skill.json')!;
    const answer = await fetch(url('/api/v1/skills/acme/pdf/files/skill.json'));
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('{"own":"skill.json of the skill"}\n');
    expect(own.sha256).toBe(sha('{"own":"skill.json of the skill"}\n'));
    const logo = new Uint8Array(await (await fetch(url('/api/v1/skills/acme/pdf/files/assets/logo.bin'))).arrayBuffer());
    expect(Buffer.compare(Buffer.from(logo), BINARY)).toBe(0);
    expect(detail.data.archive.url).toBe('/api/v1/skills/acme/pdf/archive.tar.gz');
  });

  it('the archive unpacks with tar to exactly the files, modes 0644/0755, owner 0, time 0', async () => {
    const archive = Buffer.from(await (await fetch(url('/api/v1/skills/acme/pdf/archive.tar.gz'))).arrayBuffer());
    const into = join(base, 'unpacked');
    await fs.mkdir(into);
    await fs.writeFile(join(base, 'pdf.tar.gz'), archive);
    const listing = execFileSync('tar', ['-tvzf', join(base, 'pdf.tar.gz')], { encoding: 'utf8' });
    for (const line of listing.trim().split('\n')) expect(line).toMatch(/^[d-]rw(?:-r--r--|xr-xr-x) 0\/0 .* 1970-01-01 00:00 /);
    execFileSync('tar', ['-xzf', join(base, 'pdf.tar.gz'), '-C', into]);
    const unpacked = await readTree(into);
    expect([...unpacked.keys()].sort()).toEqual(['.claude-plugin/marketplace.json', 'Notes.md', 'SKILL.md', '_skill.json', 'assets/logo.bin', 'forms.md', 'inner/SKILL.md', 'reference.md', 'scripts/fill.py', 'skill.json', 'stats.json']);
    expect(unpacked.get('skill.json')!.toString()).toBe('{"own":"skill.json of the skill"}\n');
    expect((await fs.stat(join(into, 'scripts/fill.py'))).mode & 0o777).toBe(0o755);
  });

  it('two builds are byte-identical, archives included', async () => {
    await runBuild({ contentDir: content, outDir: join(base, 'out2'), sourceDateEpoch: undefined });
    expect(await readTree(join(base, 'out2'))).toEqual(await readTree(join(base, 'out')));
  });

  it('discovery indexes: one per skill, one per owner, each digest the SHA-256 of the bytes at its url', async () => {
    const one = (await (await fetch(url('/skills/acme/pdf/.well-known/agent-skills/index.json'))).json()) as { $schema: string; skills: { name: string; type: string; url: string; digest: string; description: string }[] };
    expect(one.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(one.skills).toEqual([{ name: 'pdf', description: 'Extract text and tables from PDF files.', type: 'archive', url: '../../../../../api/v1/skills/acme/pdf/archive.tar.gz', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }]);
    const owner = (await (await fetch(url('/skills/acme/.well-known/agent-skills/index.json'))).json()) as typeof one;
    expect(owner.skills.map((s) => [s.name, s.type])).toEqual([['inner', 'skill-md'], ['many', 'archive'], ['pdf', 'archive'], ['single', 'skill-md']]);
    for (const [index, entries] of [['/skills/acme/pdf/.well-known/agent-skills/index.json', one.skills], ['/skills/acme/.well-known/agent-skills/index.json', owner.skills]] as const) {
      for (const entry of entries) {
        const bytes = new Uint8Array(await (await fetch(new URL(entry.url, url(index)))).arrayBuffer());
        expect(`sha256:${sha(bytes)}`, entry.url).toBe(entry.digest);
      }
    }
  });
});

describe('the typed client: getSkillFile and getSkillArchive', () => {
  it('answers the same bytes from a server, from a bundle and from the tree on disk', async () => {
    const bundleFile = join(base, 'skills.bundle');
    await writeBundle(join(base, 'out'), bundleFile);
    const clients = [
      createClient({ baseUrl: server.url }),
      createClient({ bundle: await readBundleFile(bundleFile) }),
      createClient({ loader: fsLoader(join(base, 'out')), bytes: fsBytesLoader(join(base, 'out')) }),
    ];
    for (const client of clients) {
      const detail = (await client.getSkill('acme', 'pdf')).data;
      expect(Buffer.compare(Buffer.from(await client.getSkillFile('acme', 'pdf', 'assets/logo.bin')), BINARY)).toBe(0);
      expect(new TextDecoder().decode(await client.getSkillFile('ACME', 'PDF', 'skill.json'))).toBe('{"own":"skill.json of the skill"}\n');
      expect(sha(await client.getSkillArchive('acme', 'pdf'))).toBe(detail.archive!.sha256);
      await expect(client.getSkillFile('acme', 'pdf', '../index.json')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(client.getSkillFile('acme', 'pdf', 'no-such.md')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    }
  });
});

describe('hand-written content folders are read the same way', () => {
  it('a link, a FIFO, a hostile name and a case twin are problems naming the file', async () => {
    const dir = join(base, 'hand');
    await fs.cp(content, dir, { recursive: true });
    const skill = join(dir, 'skills', 'acme', 'single');
    await fs.symlink('SKILL.md', join(skill, 'again.md'));
    await fs.writeFile(join(skill, 'a%2e.md'), 'x');
    await fs.writeFile(join(skill, 'tab\tname.md'), 'x');
    await fs.writeFile(join(skill, 'Case.md'), 'x');
    await fs.writeFile(join(skill, 'case.md'), 'y');
    await fs.writeFile(join(skill, 'notes'), 'a file');
    await fs.mkdir(join(skill, 'Notes'));
    await fs.writeFile(join(skill, 'Notes', 'b.md'), 'in a folder named like it');
    await fs.mkdir(join(skill, 'd'.repeat(101)));
    await fs.writeFile(join(skill, 'd'.repeat(101), 'a'), 'below a long folder');
    execFileSync('mkfifo', [join(skill, 'pipe')]);
    const failure = await runBuild({ contentDir: dir, outDir: join(base, 'hand-out'), sourceDateEpoch: undefined }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BuildError);
    const problems = (failure as BuildError).problems.map((p) => `${p.file}: ${p.message}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        'skills/acme/single/again.md: is a symbolic link, not followed',
        expect.stringMatching(/^skills\/acme\/single\/a%2e\.md: file name contains %/),
        expect.stringMatching(/^skills\/acme\/single\/tab\tname\.md: file name contains a control character/),
        expect.stringMatching(/^skills\/acme\/single\/(?:Case|case)\.md: differs from .* only by case/),
        'skills/acme/single/pipe: is not a regular file',
        expect.stringMatching(/^skills\/acme\/single\/(?:Notes\/b\.md: is in folder "Notes", which differs from "notes"|notes: differs from "Notes")/),
        expect.stringMatching(/^skills\/acme\/single\/d{101}\/a: file name has a folder, "d{101}", too long for a tar header/),
      ]),
    );
    // With --skip-invalid the skill is left out and the others are built.
    const skipped = await runBuild({ contentDir: dir, outDir: join(base, 'hand-skip'), sourceDateEpoch: undefined, skipInvalid: true });
    expect(skipped.skipped).toEqual(['skills/acme/single']);
    expect(skipped.skills).toBeGreaterThan(0);
  });

  it('a regular file named .claude-plugin is one of the skill\'s files', async () => {
    const dir = join(base, 'plugin-file');
    await fs.cp(content, dir, { recursive: true });
    await fs.writeFile(join(dir, 'skills', 'acme', 'single', '.claude-plugin'), 'a file of the skill\n');
    const out = join(base, 'plugin-file-out');
    await runBuild({ contentDir: dir, outDir: out, sourceDateEpoch: undefined });
    const detail = JSON.parse(await fs.readFile(join(out, 'api/v1/skills/acme/single/index.json'), 'utf8')) as { data: { files: { path: string; sha256: string }[] } };
    expect(detail.data.files.map((f) => f.path)).toEqual(['.claude-plugin', 'SKILL.md']);
    expect(detail.data.files[0]!.sha256).toBe(sha('a file of the skill\n'));
  });
});
