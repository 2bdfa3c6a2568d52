/**
 * scripts/gen.ts: the synthetic content generator is deterministic, its output is valid content
 * (the real loader and build accept every skill), and its PRNG helpers stay in range.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { loadContent } from '../builder/load-content.ts';
import { Rng, Zipf } from '../scripts/gen-random.ts';
import { generate, type GenSummary } from '../scripts/gen.ts';

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'gen-test-'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Every file under `dir` (relative path → SHA-256 of its bytes), sorted by path. */
async function treeHashes(dir: string): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.push([relative(dir, path), createHash('sha256').update(await readFile(path)).digest('hex')]);
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

describe('generate', () => {
  const count = 60;
  let first: GenSummary;

  it('gives byte-identical output for the same arguments', async () => {
    first = await generate({ count, out: join(tmp, 'a'), seed: 'test' });
    await generate({ count, out: join(tmp, 'b'), seed: 'test' });
    const a = await treeHashes(join(tmp, 'a'));
    expect(a.length).toBe(first.files);
    expect(await treeHashes(join(tmp, 'b'))).toEqual(a);
  });

  it('gives different output for another seed', async () => {
    await generate({ count, out: join(tmp, 'c'), seed: 'other' });
    const a = new Map(await treeHashes(join(tmp, 'a')));
    const c = await treeHashes(join(tmp, 'c'));
    expect(c.filter(([path, hash]) => a.get(path) === hash).map(([path]) => path).sort()).toEqual(['categories.json', 'platforms.json']);
  });

  it('writes content the loader accepts in full, with the shapes asked for', async () => {
    const { content, problems, skipped } = await loadContent(join(tmp, 'a'));
    expect(problems).toEqual([]);
    expect(skipped).toEqual([]);
    expect(content.skills).toHaveLength(count);
    for (const skill of content.skills) {
      expect(skill.description.length).toBeGreaterThanOrEqual(30);
      expect(skill.description.length).toBeLessThanOrEqual(1000 + 200); // skill.json may append a sentence
      expect(skill.platforms.length).toBeGreaterThan(0);
      expect(skill.categories.length).toBeGreaterThan(0);
      expect(skill.createdAt >= '2023-01-01' && skill.updatedAt < '2026-04-01').toBe(true);
    }
    // Owners with several repos, some skills with and some without stats and marketplace files.
    expect(new Set(content.skills.map((s) => s.owner)).size).toBeLessThan(count);
    expect(content.skills.some((s) => s.hasIndex)).toBe(true);
    expect(content.skills.some((s) => !s.hasIndex)).toBe(true);
    expect(content.skills.some((s) => s.stats.views === 0 && s.stats.starHistory.length === 0)).toBe(true);
    expect(first.skillMd.max).toBeGreaterThan(first.skillMd.median);
  });

  it('builds without problems', async () => {
    const report = await runBuild({ contentDir: join(tmp, 'a'), outDir: join(tmp, 'out') });
    expect(report.skills).toBe(count);
    expect(report.skipped).toEqual([]);
  });

  it('refuses to overwrite a non-empty folder unless forced', async () => {
    const dir = join(tmp, 'full');
    await generate({ count: 1, out: dir });
    await writeFile(join(dir, 'mine.txt'), 'keep');
    await expect(generate({ count: 1, out: dir })).rejects.toThrow(/is not empty: pass --force to replace it$/);
    await generate({ count: 1, out: dir, force: true });
    expect((await readdir(dir)).sort()).toEqual(['categories.json', 'platforms.json', 'skills']);
  });
});

describe('Rng and Zipf', () => {
  it('draw integers in range and repeat for the same seed', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 1_000_000 }), (seed, n) => {
        const a = new Rng(seed);
        const b = new Rng(seed);
        for (let i = 0; i < 20; i++) {
          const x = a.int(n);
          expect(x).toBe(b.int(n));
          expect(Number.isInteger(x) && x >= 0 && x < n).toBe(true);
        }
      }),
    );
  });

  it('Zipf draws ranks in range, rank 0 the most often', () => {
    const zipf = new Zipf(50, 1);
    const rng = new Rng('zipf');
    const counts = new Array<number>(50).fill(0);
    for (let i = 0; i < 5_000; i++) counts[zipf.draw(rng)]!++;
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5_000);
    expect(Math.max(...counts)).toBe(counts[0]);
    expect(counts[0]!).toBeGreaterThan(4 * counts[9]!);
  });
});
