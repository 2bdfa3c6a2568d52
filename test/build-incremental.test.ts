/**
 * `--incremental` (issue 5): files whose bytes did not change are taken over from the previous
 * output, and the result is byte-identical to a clean build after edits, additions and deletions;
 * deleted skills leave no files behind. Real builds of a copy of the sample content.
 */
import { appendFile, cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../build/build.ts';
import { treeHashes } from './helpers/read-tree.ts';

const SAMPLE = fileURLToPath(new URL('../content', import.meta.url));

let base: string;
let content: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'build-incremental-'));
  content = join(base, 'content');
  await cp(SAMPLE, content, { recursive: true });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Clean build of the current content into a fresh folder; its tree. */
async function cleanTree(name: string): Promise<Map<string, string>> {
  const out = join(base, name);
  await runBuild({ contentDir: content, outDir: out, sourceDateEpoch: undefined });
  return treeHashes(out);
}

describe('incremental build', () => {
  it('re-uses unchanged files and matches a clean build after an edit, an addition and a deletion', async () => {
    const out = join(base, 'public');
    const first = await runBuild({ contentDir: content, outDir: out, incremental: true, sourceDateEpoch: undefined });
    expect(first.reused).toBe(0); // nothing to re-use yet
    const again = await runBuild({ contentDir: content, outDir: out, incremental: true, sourceDateEpoch: undefined });
    expect(again.reused).toBe(again.files); // nothing changed: every file re-used
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

    const report = await runBuild({ contentDir: content, outDir: out, incremental: true, sourceDateEpoch: undefined });
    expect(report.reused).toBeGreaterThan(0);
    expect(report.reused).toBeLessThan(report.files);
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
    const report = await runBuild({ contentDir: content, outDir: out, incremental: true, sourceDateEpoch: undefined });
    expect(report.reused).toBe(report.files - 1);
    expect(treeHashes(out)).toEqual(expected);
  }, 60_000);
});
