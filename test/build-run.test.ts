/**
 * builder/build.ts end to end on fixture folders: what a build writes, what a failed build leaves
 * (docs/decisions.md H16, H17, H20), `--skip-invalid`, `SOURCE_DATE_EPOCH` and determinism.
 */
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BuildError, builtAtFrom, runBuild } from '../builder/build.ts';
import { formatProblem } from '../builder/problems.ts';
import { checkManifest } from '../src/manifest.ts';
import { MANIFEST_PATH, skillPath } from '../src/paths.ts';
import { SkillContentResponse, SkillDetailResponse } from '../src/schemas.ts';
import { createContentFolder, skillJson, skillMd, tempDir, type ContentFolder, type FileSpec } from './helpers/fixture-content.ts';
import { readTree } from './helpers/read-tree.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((f) => f()));
});

async function content(files: Record<string, FileSpec> = {}, skills = 4): Promise<ContentFolder> {
  const folder = await createContentFolder({ skills, files });
  cleanups.push(folder.remove);
  return folder;
}

async function outDir(): Promise<string> {
  const parent = await tempDir('build-out-');
  cleanups.push(() => fs.rm(parent, { recursive: true, force: true }));
  return join(parent, 'public');
}

/** Parse the JSON file at `path` of the output. */
async function readJson(out: string, path: string): Promise<unknown> {
  return JSON.parse(await fs.readFile(join(out, path), 'utf8')) as unknown;
}

/** The error a build throws. */
async function buildError(promise: Promise<unknown>): Promise<BuildError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BuildError);
  return error as BuildError;
}

describe('runBuild', () => {
  it('writes the tree, the search index and a manifest without a timestamp', async () => {
    const folder = await content();
    const out = await outDir();
    const report = await runBuild({ contentDir: folder.dir, outDir: out, sourceDateEpoch: undefined });
    expect(report).toMatchObject({ skills: 4, skipped: [], problems: [] });
    const tree = await readTree(out);
    expect(report.files).toBe(tree.size);
    expect(report.bytes).toBe([...tree.values()].reduce((n, b) => n + b.length, 0));

    const manifest = checkManifest(await readJson(out, MANIFEST_PATH));
    expect(manifest).toEqual(report.manifest);
    expect(manifest.skillCount).toBe(4);
    expect(manifest.builtAt).toBeUndefined();
    // The package that built the tree, by the version in its package.json.
    const pkg = JSON.parse(await fs.readFile(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { name: string; version: string };
    expect(manifest.generator).toEqual({ name: pkg.name, version: pkg.version });
    expect(tree.has(manifest.search!.root)).toBe(true);

    const detail = SkillDetailResponse.parse(await readJson(out, skillPath('globex', 'skill-01', 'detail')));
    expect(detail.data).toMatchObject({ id: 'globex/skill-01', name: 'Skill 1', license: 'MIT' });
    const raw = SkillContentResponse.parse(await readJson(out, skillPath('globex', 'skill-01', 'content')));
    expect(raw.data.size).toBe((await fs.readFile(join(folder.dir, 'skills/globex/skill-01/SKILL.md'))).length);
  });

  it('records builtAt only from SOURCE_DATE_EPOCH', async () => {
    const folder = await content();
    const out = await outDir();
    const report = await runBuild({ contentDir: folder.dir, outDir: out, site: false, sourceDateEpoch: '1700000000' });
    expect(report.manifest.builtAt).toBe('2023-11-14T22:13:20.000Z');
    expect(checkManifest(await readJson(out, MANIFEST_PATH)).builtAt).toBe('2023-11-14T22:13:20.000Z');
  });

  it.each([
    ['', undefined],
    ['0', '1970-01-01T00:00:00.000Z'],
    ['1700000000', '2023-11-14T22:13:20.000Z'],
  ])('builtAtFrom(%j)', (epoch, expected) => {
    expect(builtAtFrom(epoch)).toBe(expected);
  });

  it.each(['-1', '1.5', 'now', '1e9', '9999999999999'])('rejects SOURCE_DATE_EPOCH=%j before writing anything', async (epoch) => {
    const out = await outDir();
    await expect(runBuild({ contentDir: 'nowhere', outDir: out, sourceDateEpoch: epoch })).rejects.toThrow(
      `SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, got ${JSON.stringify(epoch)}`,
    );
    expect(await fs.readdir(dirname(out))).toEqual([]);
  });

  it('is deterministic: two builds of one content give byte-identical trees', async () => {
    const folder = await content({}, 9);
    const [a, b] = [await outDir(), await outDir()];
    await runBuild({ contentDir: folder.dir, outDir: a, site: false, sourceDateEpoch: undefined });
    await runBuild({ contentDir: folder.dir, outDir: b, site: false, sourceDateEpoch: undefined });
    expect(await readTree(a)).toEqual(await readTree(b));
  });
});

describe('a failed build (docs/decisions.md H20)', () => {
  it('a bad last skill fails the build, listing every problem; the previous output stays byte-identical', async () => {
    const folder = await content();
    const out = await outDir();
    await runBuild({ contentDir: folder.dir, outDir: out, site: false, sourceDateEpoch: undefined });
    const before = await readTree(out);

    // `zz/last` sorts after every other id: the failure is at the last skill.
    await folder.write({
      'skills/zz/last/SKILL.md': skillMd({ name: 'Last', description: 'x' }),
      'skills/zz/last/skill.json': skillJson(1, { stars: -5, categories: ['nope'] }),
      'skills/globex/skill-01/SKILL.md': '---js\n{}\n---\n',
    });
    const error = await buildError(runBuild({ contentDir: folder.dir, outDir: out, site: false, sourceDateEpoch: undefined }));
    expect(error.problems.map(formatProblem)).toMatchInlineSnapshot(`
      [
        "skills/globex/skill-01/SKILL.md: front matter must start with a line of exactly ---",
        "skills/zz/last/skill.json → stars: expected integer ≥ 0",
        "skills/zz/last/skill.json → categories[0]: unknown category "nope" (not in categories.json)",
      ]
    `);
    expect(error.message.split('\n')[0]).toBe('the content has 3 problems:');
    expect(await readTree(out)).toEqual(before);
    expect(await fs.readdir(dirname(out))).toEqual(['public']);
  });

  it('--skip-invalid builds the rest and reports what it skipped', async () => {
    const folder = await content({
      'skills/zz/last/SKILL.md': skillMd({ name: 'Last', description: 'x' }),
      'skills/zz/last/skill.json': skillJson(1, { stars: -5 }),
    });
    const out = await outDir();
    const report = await runBuild({ contentDir: folder.dir, outDir: out, skipInvalid: true, site: false, sourceDateEpoch: undefined });
    expect(report).toMatchObject({
      skills: 4,
      skipped: ['skills/zz/last'],
      problems: [{ file: 'skills/zz/last/skill.json', field: 'stars', message: 'expected integer ≥ 0' }],
    });
    await expect(fs.access(join(out, skillPath('zz', 'last', 'detail')))).rejects.toThrow();
  });

  it('--skip-invalid does not skip problems outside skill folders', async () => {
    const folder = await content({ 'platforms.json': { platforms: [] } });
    const out = await outDir();
    const error = await buildError(runBuild({ contentDir: folder.dir, outDir: out, skipInvalid: true, site: false, sourceDateEpoch: undefined }));
    expect(error.problems.map(formatProblem)).toEqual(['platforms.json → platforms: expected at least one platform']);
    expect(await fs.readdir(dirname(out))).toEqual([]);
  });
});

describe('hostile folders never reach the output', () => {
  it('links to /etc/hostname or outside files are skipped; nothing from outside is written (docs/decisions.md H17)', async () => {
    const outside = await tempDir('outside-');
    cleanups.push(() => fs.rm(outside, { recursive: true, force: true }));
    await fs.writeFile(join(outside, 'SKILL.md'), skillMd({ name: 'OUTSIDE-SECRET', description: 'OUTSIDE-SECRET' }));
    await fs.writeFile(join(outside, 'skill.json'), JSON.stringify(skillJson(1)));
    const folder = await content({
      'skills/evil/hostname/SKILL.md': { symlink: '/etc/hostname' },
      'skills/evil/hostname/skill.json': skillJson(1),
      'skills/evil/file/SKILL.md': { symlink: join(outside, 'SKILL.md') },
      'skills/evil/file/skill.json': skillJson(1),
      'skills/evil/folder': { symlink: outside },
    });
    const out = await outDir();
    const report = await runBuild({ contentDir: folder.dir, outDir: out, skipInvalid: true, site: false, sourceDateEpoch: undefined });
    expect(report.skipped).toEqual(['skills/evil/file', 'skills/evil/folder', 'skills/evil/hostname']);
    const tree = await readTree(out);
    expect([...tree.keys()].filter((p) => p.includes('/evil/'))).toEqual([]);
    for (const bytes of tree.values()) expect(bytes.includes('OUTSIDE-SECRET')).toBe(false);
  });

  it('unusable names are skipped and nothing is written outside the output (docs/decisions.md H13)', async () => {
    const names = ['a%2f..', 'a\\..\\b', 'x.git', 'con', 'tab\there', 'a\u0001b'];
    const files: Record<string, FileSpec> = {};
    for (const name of names) {
      files[`skills/evil/${name}/SKILL.md`] = skillMd({ name: 'x', description: 'y' });
      files[`skills/evil/${name}/skill.json`] = skillJson(1);
    }
    const folder = await content(files);
    const out = await outDir();
    const report = await runBuild({ contentDir: folder.dir, outDir: out, skipInvalid: true, site: false, sourceDateEpoch: undefined });
    expect(report.skipped).toHaveLength(names.length);
    expect(await fs.readdir(dirname(out))).toEqual(['public']);
    expect([...(await readTree(out)).keys()].filter((p) => p.includes('/evil/'))).toEqual([]);
  });

  it('repos named like reserved files get their own files, colliding with nothing (docs/decisions.md H16)', async () => {
    const repos = ['index', '_list', 'manifest.json', 'content', 'stats.json', 'pages', '_search', 'index.json'];
    const files: Record<string, FileSpec> = {};
    for (const repo of repos) {
      files[`skills/api/${repo}/SKILL.md`] = skillMd({ name: `Repo ${repo}`, description: 'y' });
      files[`skills/api/${repo}/skill.json`] = skillJson(1);
    }
    const folder = await content(files, 1);
    const out = await outDir();
    const report = await runBuild({ contentDir: folder.dir, outDir: out, site: false, sourceDateEpoch: undefined });
    expect(report.skills).toBe(repos.length + 1);
    for (const repo of repos) {
      const detail = SkillDetailResponse.parse(await readJson(out, skillPath('api', repo, 'detail')));
      expect(detail.data.name).toBe(`Repo ${repo}`);
    }
    expect(checkManifest(await readJson(out, MANIFEST_PATH)).skillCount).toBe(repos.length + 1);
  });
});
