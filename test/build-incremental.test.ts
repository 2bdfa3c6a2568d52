/**
 * `--incremental` (issue 5): skills whose input did not change come from the build cache, files
 * whose bytes did not change are taken over from the previous output, and the result is
 * byte-identical to a clean build after edits, additions, deletions and a changed categories.json;
 * deleted skills leave no files behind; a corrupt, tampered or foreign cache is ignored. Real
 * builds of a copy of the sample content.
 */
import { appendFile, cp, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../build/build.ts';
import { treeHashes } from './helpers/read-tree.ts';

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
    const mine = [...(await cacheFiles())].find((name) => !before.has(name))!;
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
    const otherFile = [...(await cacheFiles())].find((name) => !before.has(name) && name !== mine)!;
    await rename(join(cacheDir, otherFile), cacheFile);
    const report = await incremental(from, out);
    expect(report.fromCache).toBe(0);
    expect(treeHashes(out)).toEqual(expected);
  }, 120_000);
});

/** A cache text with `lines` after `header`, its checksum made to match them. */
function fixedChecksum(header: string, lines: string[]): string {
  const body = lines.join('\n');
  const checksum = createHash('sha256').update(body).digest('hex');
  return `${JSON.stringify({ ...(JSON.parse(header) as object), checksum })}\n${body}`;
}
