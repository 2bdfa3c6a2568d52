/**
 * docs/decisions.md H21, discovery half: the loaded content does not depend on the order in which
 * fast-glob reports folders. Node's `readdir` sorts names on every platform this runs on, so the
 * real file system cannot shuffle them; here fast-glob's answer is permuted instead (the real
 * fast-glob still does the discovery).
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadContent } from '../builder/load-content.ts';
import { createContentFolder, skillJson, skillMd, type FileSpec } from './helpers/fixture-content.ts';

const order = vi.hoisted(() => ({ permute: <T>(entries: T[]): T[] => entries }));

vi.mock('fast-glob', async (importOriginal) => {
  const real = (await importOriginal<{ default: (...args: unknown[]) => Promise<unknown[]> }>()).default;
  return { default: async (...args: unknown[]) => order.permute(await real(...args)) };
});

const folder = await createContentFolder({
  skills: 9,
  files: {
    // Collisions and bad folders too: their problems must come out in the same order.
    ...skillPair('skills/Foo/Bar'),
    ...skillPair('skills/foo/bar'),
    ...skillPair('skills/zz/bad', { stars: -1 }),
    'skills/aa/link': { symlink: '/tmp' },
  },
});
afterAll(() => folder.remove());

function skillPair(dir: string, overrides: Record<string, unknown> = {}): Record<string, FileSpec> {
  return { [`${dir}/SKILL.md`]: skillMd({ name: dir, description: 'x' }), [`${dir}/skill.json`]: skillJson(1, overrides) };
}

/** A deterministic shuffle (seeded LCG), so a failure can be replayed. */
function shuffle<T>(entries: T[], seed: number): T[] {
  const out = [...entries];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('discovery order', () => {
  it('gives the same content, problems and skipped folders for any order fast-glob reports', async () => {
    order.permute = (entries) => entries;
    const reference = JSON.stringify(await loadContent(folder.dir));
    expect(JSON.parse(reference).content.skills).toHaveLength(9);
    for (const permute of [<T>(e: T[]) => [...e].reverse(), ...[1, 2, 3, 42].map((seed) => <T>(e: T[]) => shuffle(e, seed))]) {
      let seen: unknown[] = [];
      order.permute = (entries) => {
        seen = permute(entries);
        return seen as typeof entries;
      };
      expect(JSON.stringify(await loadContent(folder.dir))).toBe(reference);
      expect(seen.length).toBeGreaterThan(10);
    }
  });
});
