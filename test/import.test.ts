/**
 * `skills-api import` on real git repositories made here (each layout of issue 11, dated commits),
 * with GitHub metadata from saved answers or from a local HTTP server answering recorded REST
 * responses (200 with an ETag, 304, a rate limit). No network.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { categoriesFor, classifyText } from '../builder/import/classify.ts';
import { discover } from '../builder/import/discover.ts';
import { freeId, githubSlug, idSegment, runImport, type ImportOptions, type ImportReport } from '../builder/import/run.ts';
import { readSourcesFile } from '../builder/import/sources.ts';
import { gitFixture, skillMd, tempFolder, type GitFixture } from './helpers/git-fixture.ts';
import { treeHashes } from './helpers/read-tree.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'skills-api.js');

let base: string;
let skills: GitFixture;
let agents: GitFixture;
let openai: GitFixture;
let single: GitFixture;
let app: GitFixture;

const MARKETPLACE = JSON.stringify({
  name: 'acme-skills',
  owner: { name: 'Acme' },
  plugins: [
    { name: 'document-skills', source: './', strict: false, skills: ['./skills/pdf', './skills/docx', './skills/linked'] },
    { name: 'remote-plugin', source: { source: 'github', repo: 'x/y' } },
  ],
});
// The real text (the importer identifies license files by their text, builder/import/license.ts).
const APACHE = (createRequire(import.meta.url)('spdx-license-list/licenses/Apache-2.0.json') as { licenseText: string }).licenseText;

beforeAll(async () => {
  base = await tempFolder('import-');
  // anthropics/skills: skills/<name>, a template, a marketplace declaring some folders.
  skills = await gitFixture(base, 'skills', 'https://github.com/acme/skills.git');
  await skills.commit('2025-01-01T10:00:00Z', {
    'skills/pdf/SKILL.md': skillMd('pdf', 'Extract text and tables from PDF files, fill PDF forms.'),
    'skills/pdf/LICENSE.txt': APACHE,
    'skills/pdf/scripts/fill.py': 'print(1)\n',
    'template/SKILL.md': skillMd('template-skill', 'Replace with a description.'),
    '.claude-plugin/marketplace.json': MARKETPLACE,
    'README.md': '# Skills\n',
  });
  await skills.commit('2025-02-01T10:00:00Z', {
    'skills/docx/SKILL.md': skillMd('docx', 'Create and edit Word documents with tracked changes.', 'license: Proprietary\n'),
    'skills/linked': { symlink: '../README.md' },
  });
  await skills.commit('2025-03-01T12:30:00Z', { 'skills/pdf/SKILL.md': skillMd('pdf', 'Extract text and tables from PDF files, fill PDF forms and merge them.') });

  // wshobson/agents: plugins/<plugin>/skills/<name>, marketplace with categories, plugin manifests.
  agents = await gitFixture(base, 'agents', 'git@github.com:Shob/agents.git');
  await agents.commit('2025-04-01T00:00:00Z', {
    '.claude-plugin/marketplace.json': JSON.stringify({
      name: 'workflows',
      plugins: [
        { name: 'database-design', source: './plugins/database-design', category: 'database', keywords: ['sql'] },
        { name: 'security-scanning', source: './plugins/security-scanning', category: 'security' },
      ],
    }),
    'plugins/database-design/.claude-plugin/plugin.json': JSON.stringify({ name: 'database-design' }),
    'plugins/database-design/skills/postgresql/SKILL.md': skillMd('postgresql-table-design', 'Design PostgreSQL schemas.'),
    'plugins/security-scanning/skills/sast-configuration/SKILL.md': skillMd('SAST Configuration', 'Configure static analysis.'),
    'plugins/security-scanning/skills/pdf/SKILL.md': skillMd('pdf-security', 'Check PDF files for embedded scripts.'),
    'node_modules/dep/skills/x/SKILL.md': skillMd('vendored', 'Should not be imported.'),
  });

  // openai/skills: .curated/.system/.experimental, one internal, one bad, a link out.
  openai = await gitFixture(base, 'openai-skills', 'https://github.com/openai-like/skills');
  await openai.commit('2025-05-01T00:00:00Z', {
    'skills/.curated/gh-fix-ci/SKILL.md': skillMd('gh-fix-ci', 'Fix failing GitHub Actions CI checks on a pull request.', 'metadata:\n  short-description: Fix CI\n'),
    'skills/.curated/gh-fix-ci/agents/openai.yaml': 'interface: {}\n',
    'skills/.system/skill-installer/SKILL.md': skillMd('skill-installer', 'Install skills.'),
    'skills/.experimental/secret/SKILL.md': skillMd('secret', 'An internal tool.', 'metadata:\n  internal: true\n'),
    'skills/.experimental/broken/SKILL.md': '---\nname: [not, a, string]\ndescription: Broken.\n---\n',
    'skills/.experimental/escape/SKILL.md': { symlink: '/etc/hostname' },
  });

  // A one-skill repository and an application repository with .claude/skills.
  single = await gitFixture(base, 'Single-Skill', 'https://github.com/solo/Single-Skill');
  await single.commit('2025-06-01T00:00:00Z', { 'SKILL.md': skillMd('Single Skill', 'One skill at the root of its repository for writing blog articles.') });
  app = await gitFixture(base, 'app', 'https://github.com/solo/app');
  await app.commit('2025-06-02T00:00:00Z', {
    'src/index.ts': 'export {};\n',
    '.claude/skills/release-notes/SKILL.md': skillMd('release-notes', 'Write release notes from the git log.'),
  });
}, 60_000);

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

/** GitHub "get a repository" answers as saved by `gh api repos/OWNER/REPO`. */
async function savedMeta(dir: string, stars: Record<string, number>): Promise<void> {
  for (const [slug, count] of Object.entries(stars)) {
    const [owner, repo] = slug.split('/') as [string, string];
    await fs.mkdir(join(dir, owner), { recursive: true });
    await fs.writeFile(
      join(dir, owner, `${repo}.json`),
      JSON.stringify({
        full_name: slug,
        owner: { login: owner, avatar_url: `https://avatars.githubusercontent.com/u/${count}?v=4` },
        stargazers_count: count,
        watchers_count: count,
        subscribers_count: 7,
        forks_count: 3,
        open_issues_count: 2,
        license: { spdx_id: 'MIT' },
        pushed_at: '2025-07-01T00:00:00Z',
        default_branch: 'main',
      }),
    );
  }
}

function options(out: string, extra: Partial<ImportOptions> = {}): ImportOptions {
  return {
    sources: [skills, agents, openai, single, app].map((r) => ({ url: r.dir })),
    out,
    cacheDir: join(out, '..', 'cache'),
    meta: { kind: 'none' },
    today: '2025-08-01',
    ...extra,
  };
}

async function json(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await fs.readFile(path, 'utf8')) as Record<string, unknown>;
}

function reported(report: ImportReport, path: string): ImportReport['skills'][number] | undefined {
  return report.skills.find((s) => s.path === path);
}

describe('import of every layout', () => {
  let out: string;
  let report: ImportReport;

  beforeAll(async () => {
    const parent = await tempFolder('import-out-');
    out = join(parent, 'content');
    const meta = join(parent, 'meta');
    await savedMeta(meta, { 'acme/skills': 120, 'Shob/agents': 40, 'openai-like/skills': 9, 'solo/Single-Skill': 1, 'solo/app': 0 });
    report = await runImport(options(out, { meta: { kind: 'saved', dir: meta } }));
  }, 60_000);

  it('finds the skills of each layout, ids owner/<folder name>', async () => {
    const ids = report.skills.filter((s) => s.status === 'imported').map((s) => s.id).sort();
    expect(ids).toEqual([
      'Shob/pdf',
      'Shob/postgresql',
      'Shob/sast-configuration',
      'acme/docx',
      'acme/pdf',
      'openai-like/gh-fix-ci',
      'openai-like/skill-installer',
      'solo/Single-Skill',
      'solo/release-notes',
    ]);
    expect(report.counts).toMatchObject({ imported: 9, added: 9, removed: 0 });
  });

  it('lists every SKILL.md it did not import, with the reason (file and field named)', () => {
    const skipped = Object.fromEntries(report.skills.filter((s) => s.status === 'skipped').map((s) => [`${s.repository} ${s.path}`, s.reason]));
    expect(skipped).toEqual({
      'https://github.com/acme/skills skills/linked/SKILL.md': 'declared skill folder is a symbolic link, not followed',
      'https://github.com/acme/skills template/SKILL.md': 'a template whose text is a placeholder, not a skill',
      'https://github.com/Shob/agents node_modules/dep/skills/x/SKILL.md': 'inside node_modules/ (not searched)',
      'https://github.com/openai-like/skills skills/.experimental/broken/SKILL.md': 'SKILL.md → name: expected a non-empty string, got a list',
      'https://github.com/openai-like/skills skills/.experimental/escape/SKILL.md': 'SKILL.md is a symbolic link, not followed',
      'https://github.com/openai-like/skills skills/.experimental/secret/SKILL.md': 'metadata.internal: true (pass --include-internal to import it)',
    });
  });

  it('writes source, dates from the folder history, counts, license and author', async () => {
    const pdf = await json(join(out, 'skills/acme/pdf/skill.json'));
    expect(pdf.source).toEqual({
      repository: 'https://github.com/acme/skills',
      path: 'skills/pdf',
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      plugin: { name: 'document-skills', marketplace: 'acme-skills' },
      executables: ['scripts/fill.py'],
    });
    expect(pdf).toMatchObject({
      stars: 120, forks: 3, watchers: 7, openIssues: 2,
      createdAt: '2025-01-01T10:00:00.000Z', updatedAt: '2025-03-01T12:30:00.000Z', pushedAt: '2025-07-01T00:00:00.000Z',
      author: { name: 'acme', avatar: 'https://avatars.githubusercontent.com/u/120?v=4' },
      license: 'Apache-2.0',
    });
    // The folder's license file first; then front matter (a name that is no license points at SKILL.md); then the repository's.
    const docx = await json(join(out, 'skills/acme/docx/skill.json'));
    expect(docx.license).toBe('SEE LICENSE IN SKILL.md');
    expect(docx.createdAt).toBe('2025-02-01T10:00:00.000Z');
    expect((await json(join(out, 'skills/Shob/postgresql/skill.json'))).license).toBe('MIT');
    expect(await fs.readFile(join(out, 'skills/acme/pdf/SKILL.md'), 'utf8')).toContain('merge them');
    // Declared by a marketplace: hasIndex.
    expect(await json(join(out, 'skills/acme/pdf/.claude-plugin/marketplace.json'))).toEqual({
      name: 'acme-skills',
      plugins: [{ name: 'document-skills', skills: ['./skills/pdf'] }],
    });
    await expect(fs.access(join(out, 'skills/solo/release-notes/.claude-plugin'))).rejects.toThrow();
    expect(await json(join(out, 'skills/acme/pdf/stats.json'))).toEqual({ views: 0, installs: 0, favorites: 0, starHistory: [{ date: '2025-08-01', stars: 120 }] });
  });

  it('install commands from the evidence: Codex installer, the skills CLI; each one command or one sentence', async () => {
    const commands = async (id: string) => (await json(join(out, 'skills', id, 'skill.json'))).installCommands;
    expect(await commands('acme/pdf')).toEqual({
      'claude-code': 'npx skills add acme/skills --skill pdf -a claude-code',
      codex: 'npx skills add acme/skills --skill pdf -a codex',
    });
    expect(await commands('openai-like/gh-fix-ci')).toEqual({
      'claude-code': 'npx skills add openai-like/skills --skill gh-fix-ci -a claude-code',
      codex: '$skill-installer install https://github.com/openai-like/skills/tree/main/skills/.curated/gh-fix-ci',
    });
    expect((await commands('openai-like/skill-installer') as Record<string, string>).codex).toBe('Preinstalled in Codex (a system skill)');
    expect((await commands('Shob/sast-configuration') as Record<string, string>)['claude-code']).toBe("npx skills add Shob/agents --skill 'SAST Configuration' -a claude-code");
    // Never two commands joined by words.
    for (const id of report.skills.flatMap((s) => (s.id === undefined ? [] : [s.id]))) {
      for (const command of Object.values((await commands(id)) as Record<string, string>)) expect(command, id).not.toMatch(/ (?:then|and then|&&|;) /);
    }
    expect((await commands('solo/Single-Skill') as Record<string, string>)['claude-code']).toBe("npx skills add solo/Single-Skill --skill 'Single Skill' -a claude-code");
  });

  it('categories: marketplace labels with the skill\'s words; 1–3 top-level each, subcategories where they fit', async () => {
    expect((await json(join(out, 'skills/Shob/postgresql/skill.json'))).categories).toEqual(['database']);
    expect((await json(join(out, 'skills/Shob/sast-configuration/skill.json'))).categories).toEqual(['security', 'appsec']);
    expect(reported(report, 'skills/.curated/gh-fix-ci/SKILL.md')?.categoriesBy).toBe('keywords');
    const subcategories = new Set(['appsec', 'secrets', 'compliance', 'ci-cd', 'containers', 'infrastructure-as-code', 'monitoring', 'git', 'code-review', 'refactoring', 'technical-writing', 'copywriting', 'llm', 'agents', 'mlops']);
    for (const entry of report.skills.filter((s) => s.status === 'imported')) {
      const tops = entry.categories!.filter((slug) => !subcategories.has(slug));
      expect(tops.length, entry.path).toBeGreaterThanOrEqual(1);
      expect(tops.length, entry.path).toBeLessThanOrEqual(3);
    }
    expect(Object.values(report.categories).reduce((a, b) => a + b, 0)).toBe(report.skills.filter((s) => s.status === 'imported').reduce((n, s) => n + s.categories!.length, 0));
  });

  it('the imported content builds, and the detail carries source', async () => {
    const built = join(out, '..', 'public');
    const result = await runBuild({ contentDir: out, outDir: built, site: false });
    expect(result.skills).toBe(9);
    const detail = await json(join(built, 'api/v1/skills/acme/pdf/index.json'));
    expect((detail.data as Record<string, unknown>).source).toMatchObject({ repository: 'https://github.com/acme/skills', path: 'skills/pdf' });
    expect(result.manifest.lists['all']).toBe(9);
  }, 30_000);

  it('a second import of the same commits is byte-identical', async () => {
    const before = treeHashes(out);
    const again = await runImport(options(out, { meta: { kind: 'saved', dir: join(out, '..', 'meta') } }));
    expect(again.counts).toMatchObject({ imported: 9, added: 0, changed: 0, unchanged: 9, removed: 0 });
    expect(treeHashes(out)).toEqual(before);
  }, 30_000);
});

describe('a skill broken upstream for a night', () => {
  it('is skipped and kept as the last import left it (its statistics too), never removed; fixed, it is updated in place', async () => {
    const parent = await tempFolder('import-held-');
    const repo = await gitFixture(parent, 'repo', 'https://github.com/acme/tools');
    await repo.commit('2025-01-01T00:00:00Z', { 'skills/docx/SKILL.md': skillMd('docx', 'Word documents.'), 'skills/pdf/SKILL.md': skillMd('pdf', 'PDF tools.') });
    const out = join(parent, 'content');
    const run = (today: string) => runImport({ sources: [{ url: repo.dir }], out, cacheDir: join(parent, 'cache'), meta: { kind: 'none' }, today });
    await run('2025-01-02');
    // Statistics the importer does not own (views, installs, favorites).
    const stats = join(out, 'skills/acme/docx/stats.json');
    const own = { views: 1234, installs: 56, favorites: 7, starHistory: [{ date: '2025-01-02', stars: 3 }] };
    await fs.writeFile(stats, `${JSON.stringify(own)}\n`);
    const before = await fs.readFile(join(out, 'skills/acme/docx/SKILL.md'));
    await repo.commit('2025-01-03T00:00:00Z', { 'skills/docx/SKILL.md': '---\nname: [docx, two]\ndescription: Broken.\n---\nBody.\n' });
    const broken = await run('2025-01-04');
    expect(broken.counts).toMatchObject({ removed: 0, skipped: 1 });
    expect(broken.skills.find((s) => s.path === 'skills/docx/SKILL.md')).toMatchObject({ status: 'skipped' });
    expect(await fs.readFile(join(out, 'skills/acme/docx/SKILL.md'))).toEqual(before);
    expect(await json(stats)).toEqual(own);
    expect((await json(join(out, 'imports.json'))).skills).toMatchObject({ 'https://github.com/acme/tools#skills/docx': 'acme/docx' });
    await repo.commit('2025-01-05T00:00:00Z', { 'skills/docx/SKILL.md': skillMd('docx', 'Word documents, fixed.') });
    const fixed = await run('2025-01-06');
    expect(fixed.counts).toMatchObject({ added: 0, removed: 0, skipped: 0 });
    expect(await fs.readFile(join(out, 'skills/acme/docx/SKILL.md'), 'utf8')).toContain('Word documents, fixed.');
    expect(await json(stats)).toEqual(own);
    await fs.rm(parent, { recursive: true, force: true });
  }, 60_000);
});

describe('ids across imports', () => {
  it('a colliding skill in a later commit renames nothing; skills deleted upstream disappear; hand-made folders stay', async () => {
    const parent = await tempFolder('import-ids-');
    const repo = await gitFixture(parent, 'repo', 'https://github.com/acme/tools');
    await repo.commit('2025-01-01T00:00:00Z', {
      'skills/pdf/SKILL.md': skillMd('pdf', 'PDF tools.'),
      'skills/old/SKILL.md': skillMd('old', 'Goes away.'),
    });
    const out = join(parent, 'content');
    await fs.mkdir(join(out, 'skills', 'acme', 'handmade'), { recursive: true });
    await fs.writeFile(join(out, 'skills', 'acme', 'handmade', 'SKILL.md'), skillMd('handmade', 'Mine.'));
    const first = await runImport({ sources: [{ url: repo.dir }], out, cacheDir: join(parent, 'cache'), meta: { kind: 'none' }, today: '2025-01-02' });
    expect(first.skills.map((s) => s.id)).toEqual(['acme/old', 'acme/pdf']);
    const pdfBefore = await fs.readFile(join(out, 'skills/acme/pdf/skill.json'));

    // Later: a second `pdf` folder (a plugin's) and one colliding by case with the hand-made one.
    await repo.commit('2025-02-01T00:00:00Z', {
      'plugins/extra/skills/pdf/SKILL.md': skillMd('pdf-extra', 'Another PDF skill.'),
      'skills/HandMade/SKILL.md': skillMd('HandMade', 'Collides by case.'),
      'skills/old/SKILL.md': null,
    });
    const second = await runImport({ sources: [{ url: repo.dir }], out, cacheDir: join(parent, 'cache'), meta: { kind: 'none' }, today: '2025-02-02' });
    const ids = Object.fromEntries(second.skills.map((s) => [s.path, s.id]));
    expect(ids).toEqual({ 'plugins/extra/skills/pdf/SKILL.md': 'acme/pdf-tools', 'skills/HandMade/SKILL.md': 'acme/HandMade-tools', 'skills/pdf/SKILL.md': 'acme/pdf' });
    expect(second.counts).toMatchObject({ added: 2, removed: 1, changed: 1 });
    // The first pdf kept its id and its facts; only the commit in `source` and the last push moved.
    const pdfAfter = await json(join(out, 'skills/acme/pdf/skill.json'));
    expect({ ...pdfAfter, source: undefined, pushedAt: undefined }).toEqual({ ...(JSON.parse(pdfBefore.toString()) as object), source: undefined, pushedAt: undefined });
    expect(pdfAfter.pushedAt).toBe('2025-02-01T00:00:00.000Z');
    await expect(fs.access(join(out, 'skills/acme/old'))).rejects.toThrow();
    expect(await fs.readFile(join(out, 'skills/acme/handmade/SKILL.md'), 'utf8')).toContain('Mine.');
    expect((await json(join(out, 'imports.json'))).skills).toEqual({
      'https://github.com/acme/tools#plugins/extra/skills/pdf': 'acme/pdf-tools',
      'https://github.com/acme/tools#skills/HandMade': 'acme/HandMade-tools',
      'https://github.com/acme/tools#skills/pdf': 'acme/pdf',
    });
    await fs.rm(parent, { recursive: true, force: true });
  }, 60_000);

  it('a skill folder moved by a later commit keeps the date it was created (renames followed)', async () => {
    const parent = await tempFolder('import-move-');
    const repo = await gitFixture(parent, 'repo', 'https://github.com/acme/moved');
    const text = skillMd('pdf', 'PDF tools.');
    await repo.commit('2024-01-01T00:00:00Z', { 'pdf/SKILL.md': text, 'pdf/reference.md': 'ref\n', 'other/SKILL.md': skillMd('other', 'Other.') });
    await repo.commit('2024-06-01T00:00:00Z', { 'pdf/reference.md': 'ref 2\n' });
    await repo.commit('2025-01-01T00:00:00Z', { 'pdf/SKILL.md': null, 'pdf/reference.md': null, 'skills/pdf/SKILL.md': text, 'skills/pdf/reference.md': 'ref 2\n' });
    const out = join(parent, 'content');
    await runImport({ sources: [{ url: repo.dir }], out, cacheDir: join(parent, 'cache'), meta: { kind: 'none' }, today: '2025-02-01' });
    expect(await json(join(out, 'skills/acme/pdf/skill.json'))).toMatchObject({ createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' });
    expect((await json(join(out, 'skills/acme/other/skill.json'))).createdAt).toBe('2024-01-01T00:00:00.000Z');
    await fs.rm(parent, { recursive: true, force: true });
  }, 60_000);

  it('--prune removes the skills of repositories not given; without it they stay; a source that fails prunes nothing', async () => {
    const parent = await tempFolder('import-prune-');
    const one = await gitFixture(parent, 'one', 'https://github.com/acme/one');
    await one.commit('2025-01-01T00:00:00Z', { 'skills/a/SKILL.md': skillMd('a', 'A.') });
    const two = await gitFixture(parent, 'two', 'https://github.com/acme/two');
    await two.commit('2025-01-01T00:00:00Z', { 'skills/b/SKILL.md': skillMd('b', 'B.') });
    const out = join(parent, 'content');
    const run = (urls: string[], prune: boolean) =>
      runImport({ sources: urls.map((url) => ({ url })), out, cacheDir: join(parent, 'cache'), meta: { kind: 'none' }, today: '2025-01-02', prune, warn: () => undefined });
    await run([one.dir, two.dir], false);
    expect((await run([one.dir], false)).counts.removed).toBe(0);
    expect((await run([one.dir, join(parent, 'missing')], true)).counts.removed).toBe(0);
    await expect(fs.access(join(out, 'skills/acme/b/SKILL.md'))).resolves.toBeUndefined();
    expect((await run([one.dir], true)).counts.removed).toBe(1);
    await expect(fs.access(join(out, 'skills/acme/b'))).rejects.toThrow();
    await fs.rm(parent, { recursive: true, force: true });
  }, 60_000);

  it('the id rules: valid folder names as written, others made valid; the first free choice', () => {
    expect(idSegment('gh-fix-ci')).toBe('gh-fix-ci');
    expect(idSegment('Café Tools')).toBe('Cafe-Tools');
    expect(idSegment('con')).toBeUndefined();
    expect(idSegment('x.git')).toBe('x-git');
    expect(idSegment('日本語')).toBeUndefined();
    const taken = new Set(['acme/pdf', 'acme/pdf-tools']);
    expect(freeId('acme', ['pdf', 'pdf-tools'], taken)).toBe('acme/pdf-2');
    expect(freeId('acme', ['PDF', 'x'], taken)).toBe('acme/x');
    expect(githubSlug('git@github.com:o/r.git')).toBe('o/r');
    expect(githubSlug('https://github.com/o/r')).toBe('o/r');
    expect(githubSlug('https://gitlab.com/o/r')).toBeUndefined();
  });
});

describe('stats and metadata', () => {
  it('appends a star-history point when the count changed, at most one a day; keeps an existing stats.json', async () => {
    const parent = await tempFolder('import-stats-');
    const repo = await gitFixture(parent, 'repo', 'https://github.com/acme/tools');
    await repo.commit('2025-01-01T00:00:00Z', { 'skills/pdf/SKILL.md': skillMd('pdf', 'PDF tools.') });
    const out = join(parent, 'content');
    const meta = join(parent, 'meta');
    const run = (today: string) => runImport({ sources: [{ url: repo.dir }], out, cacheDir: join(parent, 'cache'), meta: { kind: 'saved', dir: meta }, today });
    const history = async () => ((await json(join(out, 'skills/acme/pdf/stats.json'))).starHistory);
    await savedMeta(meta, { 'acme/tools': 10 });
    await run('2025-03-01');
    await run('2025-03-02');
    expect(await history()).toEqual([{ date: '2025-03-01', stars: 10 }]);
    await savedMeta(meta, { 'acme/tools': 12 });
    await run('2025-03-03');
    await savedMeta(meta, { 'acme/tools': 13 });
    await run('2025-03-03');
    expect(await history()).toEqual([{ date: '2025-03-01', stars: 10 }, { date: '2025-03-03', stars: 13 }]);
    // Views and installs written by someone else are kept.
    const stats = await json(join(out, 'skills/acme/pdf/stats.json'));
    await fs.writeFile(join(out, 'skills/acme/pdf/stats.json'), JSON.stringify({ ...stats, views: 500, installs: 40 }));
    await run('2025-03-04');
    expect(await json(join(out, 'skills/acme/pdf/stats.json'))).toMatchObject({ views: 500, installs: 40 });
    await fs.rm(parent, { recursive: true, force: true });
  }, 60_000);

  describe('live GitHub API (a local server answering recorded responses)', () => {
    let server: Server;
    let apiUrl: string;
    const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
    const body = JSON.stringify({
      owner: { login: 'acme', avatar_url: 'https://avatars.githubusercontent.com/u/1?v=4' },
      stargazers_count: 321, forks_count: 4, subscribers_count: 5, open_issues_count: 6,
      license: { spdx_id: 'Apache-2.0' }, pushed_at: '2025-05-05T05:05:05Z', default_branch: 'main',
    });

    beforeAll(async () => {
      server = createServer((req, res) => {
        seen.push({ path: req.url ?? '', headers: req.headers });
        if (req.url === '/repos/acme/tools') {
          if (req.headers['if-none-match'] === '"v1"') res.writeHead(304, { etag: '"v1"' }).end();
          else res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"' }).end(body);
        } else {
          res.writeHead(403, { 'content-type': 'application/json', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767225600' }).end('{"message":"API rate limit exceeded"}');
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it('asks once, then conditionally (304 keeps the answer); a rate limit says so and keeps the last counts', async () => {
      const parent = await tempFolder('import-api-');
      const tools = await gitFixture(parent, 'tools', 'https://github.com/acme/tools');
      await tools.commit('2025-01-01T00:00:00Z', { 'skills/pdf/SKILL.md': skillMd('pdf', 'PDF tools.') });
      const other = await gitFixture(parent, 'other', 'https://github.com/acme/other');
      await other.commit('2025-01-01T00:00:00Z', { 'skills/csv/SKILL.md': skillMd('csv', 'CSV tools.') });
      const out = join(parent, 'content');
      const warnings: string[] = [];
      const run = () =>
        runImport({
          sources: [{ url: tools.dir }, { url: other.dir }],
          out,
          cacheDir: join(parent, 'cache'),
          meta: { kind: 'live', apiUrl, token: 'secret-token', cacheDir: join(parent, 'cache') },
          today: '2025-06-01',
          warn: (text) => warnings.push(text),
        });
      await run();
      expect(await json(join(out, 'skills/acme/pdf/skill.json'))).toMatchObject({ stars: 321, watchers: 5, license: 'Apache-2.0', pushedAt: '2025-05-05T05:05:05.000Z' });
      expect(seen[0]!.headers.authorization).toBe('Bearer secret-token');
      expect(seen[0]!.headers['if-none-match']).toBeUndefined();
      expect(warnings).toEqual([
        'acme/other: GitHub API rate limit reached until 2026-01-01T00:00:00.000Z: set GITHUB_TOKEN (5,000 requests an hour) or pass --github-meta DIR; the last known metadata is kept',
      ]);
      expect((await json(join(out, 'skills/acme/csv/skill.json'))).stars).toBe(0);

      // Second run: a 304 for tools; csv keeps what the last import wrote (here a count set by hand).
      const csv = await json(join(out, 'skills/acme/csv/skill.json'));
      await fs.writeFile(join(out, 'skills/acme/csv/skill.json'), JSON.stringify({ ...csv, stars: 77 }));
      await run();
      expect(seen.filter((s) => s.path === '/repos/acme/tools').map((s) => s.headers['if-none-match'])).toEqual([undefined, '"v1"']);
      expect((await json(join(out, 'skills/acme/pdf/skill.json'))).stars).toBe(321);
      expect((await json(join(out, 'skills/acme/csv/skill.json'))).stars).toBe(77);
      await fs.rm(parent, { recursive: true, force: true });
    }, 60_000);
  });
});

describe('URL sources, sources file and the command line', () => {
  it('clones a URL into the cache (bare, blobless), fetches it again next time, and reads a sources file', async () => {
    const parent = await tempFolder('import-url-');
    const upstream = await gitFixture(parent, 'upstream');
    await upstream.commit('2025-01-01T00:00:00Z', { 'skills/one/SKILL.md': skillMd('one', 'First.') });
    const sources = join(parent, 'sources.yaml');
    await fs.writeFile(sources, `repositories:\n  - url: file://${upstream.dir}\n    owner: team\n    exclude: ["skills/draft-*"]\n    categories:\n      one: [research]\n`);
    const out = join(parent, 'content');
    const cacheDir = join(parent, 'cache');
    const specs = await readSourcesFile(sources);
    await runImport({ sources: specs, out, cacheDir, meta: { kind: 'none' }, today: '2025-01-02' });
    expect((await json(join(out, 'skills/team/one/skill.json'))).categories).toEqual(['research']);
    expect(await fs.readdir(join(cacheDir, 'repositories'))).toHaveLength(1);

    await upstream.commit('2025-02-01T00:00:00Z', {
      'skills/two/SKILL.md': skillMd('two', 'Second.'),
      'skills/draft-three/SKILL.md': skillMd('draft', 'Not yet.'),
    });
    const report = await runImport({ sources: specs, out, cacheDir, meta: { kind: 'none' }, today: '2025-02-02' });
    expect(report.skills.map((s) => [s.path, s.status, s.reason])).toEqual([
      ['skills/draft-three/SKILL.md', 'skipped', 'matched by exclude (sources file)'],
      ['skills/one/SKILL.md', 'imported', undefined],
      ['skills/two/SKILL.md', 'imported', undefined],
    ]);
    await fs.rm(parent, { recursive: true, force: true });
  }, 60_000);

  it('a bad sources file names the file and the field', async () => {
    const parent = await tempFolder('import-bad-');
    const file = join(parent, 'sources.json');
    await fs.writeFile(file, JSON.stringify({ repositories: [{ url: 'x', categories: { a: ['a', 'b', 'c', 'd'] } }] }));
    await expect(readSourcesFile(file)).rejects.toThrow(`${file} → repositories[0].categories.a: at most 3 categories`);
    await fs.rm(parent, { recursive: true, force: true });
  });

  it('skills-api import prints the counts and the category distribution, writes the report, quiet progress off a terminal', async () => {
    const parent = await tempFolder('import-cli-');
    const out = join(parent, 'content');
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, 'import', skills.dir, openai.dir, '--out', out, '--report', join(parent, 'report.json'), '--cache-dir', join(parent, 'cache'), '--date', '2025-08-01'], (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
      );
    });
    expect(result.code).toBe(0);
    expect(result.stdout.replaceAll(out, '<out>')).toMatch(
      /^Imported 4 skills from 2 repositories into <out>\/ \(4 new, 0 changed, 0 unchanged, 0 removed; 5 SKILL\.md skipped, listed in .*report\.json\) in [\d.]+ s\nCategories: .+\n$/,
    );
    expect(result.stderr).toBe(
      'warning: acme/skills: no repository metadata (pass --github-meta DIR or --github-api URL): counts are 0\n' +
        'warning: openai-like/skills: no repository metadata (pass --github-meta DIR or --github-api URL): counts are 0\n',
    );
    const written = await json(join(parent, 'report.json'));
    expect(written.format).toBe('skills-api-import-report');
    expect((written.skills as unknown[]).length).toBe(9);
    await fs.rm(parent, { recursive: true, force: true });
  }, 60_000);
});

describe('pieces', () => {
  it('discovery never follows a link and finds nested SKILL.md with their parent', () => {
    const entry = (path: string, mode = '100644') => ({ path, mode, oid: '0'.repeat(40) });
    const found = discover({
      entries: [entry('skills/a/SKILL.md'), entry('skills/a/examples/b/SKILL.md'), entry('skills/c', '120000'), entry('x/y/z/w/v/u/t/SKILL.md')],
      manifests: new Map(),
    });
    expect(found.skills.map((s) => [s.path, s.parent])).toEqual([['skills/a', undefined], ['skills/a/examples/b', 'skills/a']]);
    expect(found.passed).toEqual([
      { path: 'x/y/z/w/v/u/t/SKILL.md', reason: 'deeper than 6 folders (not searched)' },
    ]);
  });

  it('the keyword classifier and the label table', () => {
    expect(classifyText('Kubernetes Deployer', 'Deploy containers with helm and docker')).toContain('devops');
    expect(classifyText('x', 'nothing matches here')).toEqual([]);
    const known = new Set(['database', 'productivity', 'security']);
    expect(categoriesFor({ labels: ['Database', 'sql'], name: 'x', description: 'y', known })).toEqual({ categories: ['database'], by: 'labels' });
    expect(categoriesFor({ labels: [], name: 'x', description: 'y', known })).toEqual({ categories: ['productivity'], by: 'fallback' });
    expect(categoriesFor({ override: ['security'], labels: ['database'], name: 'x', description: 'y', known }).categories).toEqual(['security']);
  });
});
