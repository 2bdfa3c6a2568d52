/**
 * `--incremental` (issue 5): skills whose input did not change come from the build cache, files
 * whose bytes did not change are taken over from the previous output, and the result is
 * byte-identical to a clean build after edits, additions, deletions and a changed categories.json;
 * deleted skills leave no files behind; a corrupt, tampered or foreign cache is ignored. Real
 * builds of a copy of the sample content.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { appendFile, cp, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { cacheFiles, readLoadCache, restoreRecord, writeLoadCache } from '../builder/build-cache.ts';
import { loadContent } from '../builder/load-content.ts';
import type { SkillRecord } from '../builder/model.ts';
import { runImport } from '../builder/import/run.ts';
import { listPagePath } from '../src/paths.ts';
import { gitFixture, skillMd, type GitFixture } from './helpers/git-fixture.ts';
import { emptyFolders, treeHashes } from './helpers/read-tree.ts';

const SAMPLE = fileURLToPath(new URL('../content', import.meta.url));

let base: string;
let content: string;
/** The build cache of these tests (never the project's node_modules/.cache). */
let cacheDir: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'build-incremental-'));
  content = join(base, 'content');
  cacheDir = join(base, 'cache');
  await cp(SAMPLE, content, { recursive: true });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Clean build of `from` (default: the shared content copy) into a fresh folder; its tree. */
async function cleanTree(name: string, from = content): Promise<Map<string, string>> {
  const out = join(base, name);
  await runBuild({ contentDir: from, outDir: out, sourceDateEpoch: undefined });
  return treeHashes(out);
}

/** An incremental build of `from` into `out` with the test cache. */
function incremental(from: string, out: string): ReturnType<typeof runBuild> {
  return runBuild({ contentDir: from, outDir: out, incremental: true, cacheDir, sourceDateEpoch: undefined });
}

describe('incremental build', () => {
  it('re-uses unchanged files and matches a clean build after an edit, an addition and a deletion', async () => {
    const out = join(base, 'public');
    const first = await incremental(content, out);
    expect(first.reused).toBe(0); // nothing to re-use yet
    expect(first.fromCache).toBe(0);
    const again = await incremental(content, out);
    expect(again.reused).toBe(again.files); // nothing changed: every file re-used
    expect(again.fromCache).toBe(again.skills); // and every skill came from the cache
    expect(treeHashes(out)).toEqual(await cleanTree('clean-0'));

    const owners = (await readdir(join(content, 'skills'))).sort();
    const [edited, removed, copied] = [owners[0]!, owners[1]!, owners[2]!];
    const editedRepo = (await readdir(join(content, 'skills', edited)))[0]!;
    const removedRepos = await readdir(join(content, 'skills', removed));
    // Edit: the body of one SKILL.md and the stars of the same skill (moves it in the lists).
    await appendFile(join(content, 'skills', edited, editedRepo, 'SKILL.md'), '\nOne more line for the incremental test.\n');
    const jsonFile = join(content, 'skills', edited, editedRepo, 'skill.json');
    const json = JSON.parse(await readFile(jsonFile, 'utf8')) as { stars: number };
    await writeFile(jsonFile, JSON.stringify({ ...json, stars: json.stars + 12345 }));
    // Deletion: a whole owner. Addition: a copy of another owner's skills under a new owner.
    await rm(join(content, 'skills', removed), { recursive: true });
    await cp(join(content, 'skills', copied), join(content, 'skills', 'incremental-new-owner'), { recursive: true });

    const addedRepos = await readdir(join(content, 'skills', copied));
    const report = await incremental(content, out);
    expect(report.reused).toBeGreaterThan(0);
    expect(report.reused).toBeLessThan(report.files);
    // Every skill but the edited one and the added ones came from the cache.
    expect(report.fromCache).toBe(report.skills - 1 - addedRepos.length);
    const tree = treeHashes(out);
    expect(tree).toEqual(await cleanTree('clean-1'));
    for (const repo of removedRepos) expect([...tree.keys()].filter((path) => path.startsWith(`api/v1/skills/${removed}/${repo}/`))).toEqual([]);
    expect([...tree.keys()].some((path) => path.startsWith('api/v1/skills/incremental-new-owner/'))).toBe(true);
    expect((await readdir(base)).filter((name) => name.startsWith('.staging'))).toEqual([]);
  }, 60_000);

  it('after an incremental build, commits only the changed files into the live output and keeps unchanged skills\' files and archives', async () => {
    const from = join(base, 'content-in-place');
    const out = join(base, 'public-in-place');
    await cp(SAMPLE, from, { recursive: true });
    await incremental(from, out); // a whole tree, and the record of it
    const folderBefore = await stat(out);
    const archiveOf = (owner: string, name: string): Promise<{ ino: number }> => stat(join(out, `api/v1/skills/${owner}/${name}/archive.tar.gz`));
    const owners = (await readdir(join(from, 'skills'))).sort();
    const repo = (await readdir(join(from, 'skills', owners[0]!))).sort()[0]!;
    const keptRepo = (await readdir(join(from, 'skills', owners[2]!))).sort()[0]!;
    const [editedArchive, keptArchive] = [await archiveOf(owners[0]!, repo), await archiveOf(owners[2]!, keptRepo)];
    // A new file of one skill: its files, archive, detail and discovery entries change.
    await writeFile(join(from, 'skills', owners[0]!, repo, 'notes.md'), 'A file added for the in-place test.\n');
    await rm(join(from, 'skills', owners[1]!), { recursive: true });
    const report = await incremental(from, out);
    const folderAfter = await stat(out);
    expect(folderAfter.ino, 'the same folder: committed in place, not swapped').toBe(folderBefore.ino);
    expect(report.files - report.reused).toBeGreaterThan(0);
    // Changed files are renamed into place (a new inode), unchanged ones left where they are.
    expect((await archiveOf(owners[0]!, repo)).ino).not.toBe(editedArchive.ino);
    expect((await archiveOf(owners[2]!, keptRepo)).ino).toBe(keptArchive.ino);
    const tree = treeHashes(out);
    expect(tree).toEqual(await cleanTree('clean-in-place', from));
    expect([...tree.keys()]).toContain(`api/v1/skills/${owners[0]}/${repo}/files/notes.md`);
    expect(emptyFolders(out)).toEqual([]);
    expect((await readdir(base)).filter((name) => name.startsWith('.commit') || name.startsWith('.committing'))).toEqual([]);
    // Nothing changed since: nothing committed, the manifest left where it is.
    const manifest = await stat(join(out, 'api/v1/manifest.json'));
    await writeFile(join(from, 'categories.json'), await readFile(join(from, 'categories.json'))); // new stamp, same bytes
    const again = await incremental(from, out);
    expect(again.reused).toBe(again.files);
    expect((await stat(join(out, 'api/v1/manifest.json'))).ino).toBe(manifest.ino);
  }, 60_000);

  it('keeps an unchanged skill\'s detail, and makes it again when only the directory-wide checks changed (a copy appeared)', async () => {
    const from = join(base, 'content-details');
    const out = join(base, 'public-details');
    await cp(SAMPLE, from, { recursive: true });
    await incremental(from, out);
    await incremental(from, out); // a record of the details' parts now
    const owners = (await readdir(join(from, 'skills'))).sort();
    const original = (await readdir(join(from, 'skills', owners[0]!))).sort()[0]!;
    const detailOf = (owner: string, repo: string): string => join(out, `api/v1/skills/${owner}/${repo}/index.json`);
    const keptRepo = (await readdir(join(from, 'skills', owners[2]!))).sort()[0]!;
    const before = await stat(detailOf(owners[0]!, original));
    // The live output is trusted as its record says (the record is of what the build wrote): a
    // detail made of the same parts is neither made nor compared again. Marked here to see that.
    const keptBytes = await readFile(detailOf(owners[2]!, keptRepo));
    await writeFile(detailOf(owners[2]!, keptRepo), '{"marked":true}');
    // A near copy of the original elsewhere: the original's input is unchanged, its checks are not.
    const copy = join(from, 'skills', 'zz-copier', 'near-copy');
    await cp(join(from, 'skills', owners[0]!, original), copy, { recursive: true });
    await appendFile(join(copy, 'SKILL.md'), '\nOne line of its own.\n');
    await incremental(from, out);
    const detail = JSON.parse(await readFile(detailOf(owners[0]!, original), 'utf8')) as { data: { checks: { similar?: string[] } } };
    expect(detail.data.checks.similar).toContain('zz-copier/near-copy');
    expect((await stat(detailOf(owners[0]!, original))).ino).not.toBe(before.ino);
    expect(await readFile(detailOf(owners[2]!, keptRepo), 'utf8'), 'a detail made of the same parts is kept, not made').toBe('{"marked":true}');
    await writeFile(detailOf(owners[2]!, keptRepo), keptBytes);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-details', from));
  }, 60_000);

  it('in place, after edits of a body, a description and stars, equals a clean build (the index patched, unchanged list pages kept)', async () => {
    const from = join(base, 'content-patch');
    const out = join(base, 'public-patch');
    await cp(SAMPLE, from, { recursive: true });
    await incremental(from, out); // a whole tree, and the record of it
    await incremental(from, out); // in place: the search memo and page memo now describe the output
    const cached = readdirSync(cacheDir);
    expect(cached.some((name) => name.startsWith('pages-'))).toBe(true);
    expect(cached.some((name) => name.startsWith('search-tokens-') && name.endsWith('.memo'))).toBe(true);
    const owners = (await readdir(join(from, 'skills'))).sort();
    const skillDir = async (n: number): Promise<string> => join(from, 'skills', owners[n]!, (await readdir(join(from, 'skills', owners[n]!))).sort()[0]!);
    const edits: Array<[string, () => Promise<void>]> = [
      ['one body', async () => appendFile(join(await skillDir(0), 'SKILL.md'), '\nOne more line about zyxwvut pipelines.\n')],
      ['another body', async () => appendFile(join(await skillDir(3), 'SKILL.md'), '\nAnd another line about deployment.\n')],
      ['a description', async () => {
        const file = join(await skillDir(4), 'SKILL.md');
        await writeFile(file, (await readFile(file, 'utf8')).replace(/^description: .*$/m, 'description: A description changed by the patch test, with quasiunique words.'));
      }],
      ['stars (the search order)', async () => {
        const file = join(await skillDir(5), 'skill.json');
        const json = JSON.parse(await readFile(file, 'utf8')) as { stars: number };
        await writeFile(file, JSON.stringify({ ...json, stars: json.stars + 54321 }));
      }],
      ['the first body back', async () => {
        const file = join(await skillDir(0), 'SKILL.md');
        await writeFile(file, (await readFile(file, 'utf8')).replace('\nOne more line about zyxwvut pipelines.\n', ''));
      }],
    ];
    for (const [n, [what, edit]] of edits.entries()) {
      await edit();
      await incremental(from, out);
      expect(treeHashes(out), what).toEqual(await cleanTree(`clean-patch-${n}`, from));
    }
  }, 120_000);

  it('keeps the lists whole when no summary changed, and makes a kept skill\'s pages again when only its quality part did', async () => {
    const from = join(base, 'content-lists');
    const out = join(base, 'public-lists');
    await cp(SAMPLE, from, { recursive: true });
    await incremental(from, out);
    await incremental(from, out); // in place, with the page memo and the summaries' hashes
    const owners = (await readdir(join(from, 'skills'))).sort();
    const repo = (await readdir(join(from, 'skills', owners[0]!))).sort()[0]!;
    const original = join(from, 'skills', owners[0]!, repo);
    // A body edit: the summary is the same, so every list file is kept as it is.
    await appendFile(join(original, 'SKILL.md'), '\nA line that changes no summary.\n');
    const report = await incremental(from, out);
    expect(report.files - report.reused).toBeGreaterThan(0);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-lists-body', from));
    // An exact copy, far from the original in the star and date orders, created later: it is the copy.
    const copy = join(from, 'skills', 'aa-copier', 'same-text');
    await cp(original, copy, { recursive: true });
    const json = JSON.parse(await readFile(join(copy, 'skill.json'), 'utf8')) as Record<string, unknown>;
    const copyJson = (createdAt: string): string => JSON.stringify({ ...json, stars: 0, updatedAt: '2030-01-02T00:00:00Z', createdAt });
    await writeFile(join(copy, 'skill.json'), copyJson('2029-01-01T00:00:00Z'));
    await incremental(from, out);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-lists-later-copy', from));
    // Now created first: the original, unchanged itself, becomes the copy (its summary's
    // `quality.duplicate`), and every page naming it is made again, those without the copy too.
    await writeFile(join(copy, 'skill.json'), copyJson('2001-01-01T00:00:00Z'));
    await incremental(from, out);
    const summaries: Array<{ id: string; quality?: { duplicate: boolean } }> = [];
    for (let page = 1; page <= 4; page++) {
      const text = await readFile(join(out, listPagePath({ kind: 'all' }, 'stars', 'desc', page)), 'utf8');
      summaries.push(...(JSON.parse(text) as { data: typeof summaries }).data);
    }
    expect(summaries.find((s) => s.id === `${owners[0]}/${repo}`)?.quality?.duplicate).toBe(true);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-lists-copy', from));
  }, 120_000);

  it('never carries over a file changed in the previous output: bytes are compared, not assumed', async () => {
    const out = join(base, 'tampered');
    await runBuild({ contentDir: content, outDir: out, sourceDateEpoch: undefined });
    const expected = treeHashes(out);
    const victim = [...expected.keys()].find((path) => path.endsWith('/stats.json'))!;
    await writeFile(join(out, victim), '{"tampered":true}');
    const report = await incremental(content, out);
    expect(report.reused).toBe(report.files - 1);
    expect(treeHashes(out)).toEqual(expected);
  }, 60_000);

  it('a changed categories.json re-validates every skill', async () => {
    const from = join(base, 'content-categories');
    const out = join(base, 'public-categories');
    await cp(SAMPLE, from, { recursive: true });
    await incremental(from, out);
    expect((await incremental(from, out)).fromCache).toBeGreaterThan(0);
    const file = join(from, 'categories.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as { categories: { name: string }[] };
    data.categories[0]!.name = 'Renamed for the incremental test';
    await writeFile(file, JSON.stringify(data));
    const report = await incremental(from, out);
    expect(report.fromCache).toBe(0);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-categories', from));
  }, 60_000);

  it('a skill from the cache keeps its source (the importer\'s repository, folder and commit)', async () => {
    const from = join(base, 'content-source');
    const out = join(base, 'public-source');
    await cp(SAMPLE, from, { recursive: true });
    const owner = (await readdir(join(from, 'skills'))).sort()[0]!;
    const repo = (await readdir(join(from, 'skills', owner))).sort()[0]!;
    const file = join(from, 'skills', owner, repo, 'skill.json');
    const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...json, source: { repository: `https://github.com/${owner}/skills`, path: repo, commit: 'a'.repeat(40) } }));
    await incremental(from, out);
    expect((await incremental(from, out)).fromCache).toBeGreaterThan(0);
    const detail = JSON.parse(await readFile(join(out, 'api/v1/skills', owner, repo, 'index.json'), 'utf8')) as { data: { source?: { commit: string } } };
    expect(detail.data.source?.commit).toBe('a'.repeat(40));
    expect(treeHashes(out)).toEqual(await cleanTree('clean-source', from));
  }, 60_000);

  it('re-uses the problems of an invalid skill as well (--skip-invalid)', async () => {
    const from = join(base, 'content-invalid');
    const out = join(base, 'public-invalid');
    await cp(SAMPLE, from, { recursive: true });
    const owner = (await readdir(join(from, 'skills'))).sort()[0]!;
    const repo = (await readdir(join(from, 'skills', owner))).sort()[0]!;
    await writeFile(join(from, 'skills', owner, repo, 'stats.json'), '{"views":-1,"installs":0,"favorites":0,"starHistory":[]}');
    const build = () => runBuild({ contentDir: from, outDir: out, incremental: true, skipInvalid: true, cacheDir, sourceDateEpoch: undefined });
    const first = await build();
    expect(first.skipped).toEqual([`skills/${owner}/${repo}`]);
    const again = await build();
    expect(again.fromCache).toBe(again.skills + 1);
    expect(again.problems).toEqual(first.problems);
    expect(again.skipped).toEqual(first.skipped);
  }, 60_000);

  it('refuses a cache folder inside the output', async () => {
    const out = join(base, 'public-cache-inside');
    await expect(
      runBuild({ contentDir: content, outDir: out, incremental: true, cacheDir: join(out, '.cache'), sourceDateEpoch: undefined }),
    ).rejects.toThrow(`the build cache folder ${join(out, '.cache')} must be outside the output ${out}`);
  });

  it('ignores a corrupt, tampered or foreign cache and loads everything', async () => {
    const from = join(base, 'content-corrupt');
    const other = join(base, 'content-other');
    const out = join(base, 'public-corrupt');
    await cp(SAMPLE, from, { recursive: true });
    await cp(SAMPLE, other, { recursive: true });
    const expected = await cleanTree('clean-corrupt', from);
    const cacheFiles = async (): Promise<Set<string>> => new Set(await readdir(cacheDir).catch(() => []));
    const before = await cacheFiles();
    await incremental(from, out);
    const mine = [...(await cacheFiles())].find((name) => !before.has(name) && name.startsWith('content-'))!;
    expect(mine).toBeDefined();
    const cacheFile = join(cacheDir, mine);
    const good = await readFile(cacheFile, 'utf8');
    expect((await incremental(from, out)).fromCache).toBeGreaterThan(0);

    const [header, ...lines] = good.split('\n');
    const tamperedLine = lines[0]!.replace(/"stars":(\d+)/, (_, n: string) => `"stars":${Number(n) + 1}`);
    expect(tamperedLine).not.toBe(lines[0]);
    const headerWith = (change: Record<string, unknown>): string => JSON.stringify({ ...(JSON.parse(header!) as object), ...change });
    const damaged: [string, string][] = [
      ['garbage', 'not a cache at all'],
      ['empty', ''],
      ['truncated', good.slice(0, Math.floor(good.length / 2))],
      ['a record changed after writing', [header, tamperedLine, ...lines.slice(1)].join('\n')],
      ['another version', [headerWith({ version: 999 }), ...lines].join('\n')],
      ['another build code', [headerWith({ code: 'x' }), ...lines].join('\n')],
      ['a line of the wrong shape, checksum fixed', fixedChecksum(header!, ['{"dir":1}', ...lines])],
    ];
    for (const [what, text] of damaged) {
      await writeFile(cacheFile, text);
      const report = await incremental(from, out);
      expect(report.fromCache, what).toBe(0);
      expect(treeHashes(out), what).toEqual(expected);
    }

    // Another content folder's cache under this folder's name: its folder does not match.
    await incremental(other, join(base, 'public-other'));
    const otherFile = [...(await cacheFiles())].find((name) => !before.has(name) && name !== mine && name.startsWith('content-'))!;
    await rename(join(cacheDir, otherFile), cacheFile);
    const report = await incremental(from, out);
    expect(report.fromCache).toBe(0);
    expect(treeHashes(out)).toEqual(expected);
  }, 120_000);
});

describe('the build cache carries every field of a record', () => {
  it('fields it does not know of come back whole, in their place (a field added to SkillRecord later)', async () => {
    const from = join(base, 'content-fields');
    await cp(SAMPLE, from, { recursive: true });
    const { cache } = await loadContent(from, { quality: false });
    const dir = [...cache!.skills.keys()][0]!;
    const record = cache!.skills.get(dir)!.record!;
    // Stand-ins for fields later work may add to records: nested lists and objects.
    const extended = { ...record, futureList: [{ path: 'scripts/run.sh', size: 12 }], licenseDetails: { spdx: 'MIT', file: null }, 'odd-name,x': { kept: true } } as unknown as SkillRecord;
    const cacheFolder = join(base, 'cache-fields');
    writeLoadCache(cacheFolder, { ...cache!, skills: new Map([[dir, { ...cache!.skills.get(dir)!, record: extended }]]) });
    const entry = readLoadCache(cacheFolder, cache!.contentDir)!.skills.get(dir)!;
    const restored = restoreRecord(entry.record!, extended.raw, extended.sha, extended.size, entry.bodyAt!, entry.tail);
    expect(restored).toEqual(extended);
    // Every key, the ones parsed with the line first, then those parsed when read (objects and
    // lists, in their order), then the text's two (as every record of a build has them).
    const text = ['raw', 'body'];
    const tail = ['frontMatter', 'stats', 'futureList', 'licenseDetails'];
    const keys = Object.keys(restored);
    expect(new Set(keys)).toEqual(new Set(Object.keys(extended)));
    expect(keys.slice(-2)).toEqual(text);
    const order = (names: string[]): string[] => names.filter((key) => tail.includes(key));
    expect(order(keys)).toEqual(order(Object.keys(extended)));
    expect(keys.indexOf('frontMatter')).toBeGreaterThan(keys.indexOf('hasIndex'));
    // Those fields are not parsed with the line: the line holds them apart, after a tab.
    const line = readFileSync(cacheFiles(cacheFolder, cache!.contentDir)[0], 'utf8').split('\n')[1]!;
    const [head, names, values] = line.split('\t');
    const parsed = Object.keys((JSON.parse(head!) as { record: object }).record);
    expect(parsed).not.toContain('futureList');
    // Plain values, and objects under a name a tail cannot hold, stay in the JSON.
    expect(parsed).toEqual(expect.arrayContaining(['id', 'stars', 'forks', 'license', 'odd-name,x']));
    expect(names!.split(',')).toEqual(expect.arrayContaining(['futureList', 'licenseDetails', 'frontMatter', 'stats']));
    expect(JSON.parse(values!)).toHaveLength(names!.split(',').length);
  });
});

describe('incremental build of imported skills', () => {
  // Imported skills carry fields a hand-written fixture lacks (`source`, and quality flags derived
  // from it): every field of a record must come back from the cache.
  let repos: { tools: GitFixture; kit: GitFixture };
  let from: string;
  const importAll = (today: string) =>
    runImport({ sources: [{ url: repos.tools.dir }, { url: repos.kit.dir }], out: from, cacheDir: join(base, 'import-cache'), meta: { kind: 'none' }, today });

  beforeAll(async () => {
    const parent = join(base, 'repos');
    repos = { tools: await gitFixture(parent, 'tools', 'https://github.com/acme/tools'), kit: await gitFixture(parent, 'kit', 'https://github.com/beta/kit') };
    await repos.tools.commit('2025-01-01T00:00:00Z', {
      'skills/pdf/SKILL.md': skillMd('pdf', 'Extract text and tables from PDF files.'),
      'skills/pdf/scripts/extract.py': 'print("extract")\n',
      'skills/docx/SKILL.md': skillMd('docx', 'Edit Word documents.', 'license: MIT\n'),
      'skills/xlsx/SKILL.md': skillMd('xlsx', 'Spreadsheet formulas and charts.'),
    });
    await repos.kit.commit('2025-01-02T00:00:00Z', {
      'skills/deploy/SKILL.md': skillMd('deploy', 'Deploy containers with docker compose.', '', '# Deploy\n\nRun `scripts/up.sh`.\n'),
      'skills/deploy/scripts/up.sh': '#!/bin/sh\ndocker compose up -d\n',
      'skills/review/SKILL.md': skillMd('review', 'Review pull requests for security problems.'),
    });
    from = join(base, 'content-imported');
    await importAll('2025-01-03');
  });

  it('matches a clean build byte for byte: unchanged, after an edit, after a removal and an addition', async () => {
    const out = join(base, 'public-imported');
    const first = await incremental(from, out);
    expect(first.fromCache).toBe(0);
    const { data: detail } = JSON.parse(await readFile(join(out, 'api/v1/skills/acme/pdf/index.json'), 'utf8')) as {
      data: { source?: { repository: string }; checks?: unknown };
    };
    // What the old cache lost: the source, and the executable-script flag derived from it.
    expect(detail.source?.repository).toBe('https://github.com/acme/tools');
    expect(JSON.stringify(detail.checks)).toContain('executable-script');

    const unchanged = await incremental(from, out);
    expect(unchanged.fromCache).toBe(unchanged.skills);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-imported-0', from));

    await repos.tools.commit('2025-02-01T00:00:00Z', { 'skills/xlsx/SKILL.md': skillMd('xlsx', 'Spreadsheet formulas, charts and pivot tables.') });
    await importAll('2025-02-02');
    const edited = await incremental(from, out);
    expect(edited.fromCache).toBeLessThan(edited.skills);
    expect(edited.fromCache).toBeGreaterThan(0);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-imported-1', from));

    await repos.kit.commit('2025-03-01T00:00:00Z', {
      'skills/review/SKILL.md': null,
      'skills/lint/SKILL.md': skillMd('lint', 'Lint shell scripts.'),
      'skills/lint/lint.sh': '#!/bin/sh\nshellcheck "$@"\n',
    });
    await importAll('2025-03-02');
    const moved = await incremental(from, out);
    expect(moved.fromCache).toBeGreaterThan(0);
    const tree = treeHashes(out);
    expect(tree).toEqual(await cleanTree('clean-imported-2', from));
    expect([...tree.keys()].some((path) => path.startsWith('api/v1/skills/beta/lint/'))).toBe(true);
    expect([...tree.keys()].some((path) => path.startsWith('api/v1/skills/beta/review/'))).toBe(false);
  }, 120_000);
});

/** A cache text with `lines` after `header`, its checksum made to match them. */
function fixedChecksum(header: string, lines: string[]): string {
  const body = lines.join('\n');
  const checksum = createHash('sha256').update(body).digest('hex');
  return `${JSON.stringify({ ...(JSON.parse(header) as object), checksum })}\n${body}`;
}

