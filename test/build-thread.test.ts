/**
 * cli/build-thread.ts: the command line's build in a thread of its own gives the report and the
 * tree `runBuild` gives in the calling thread, relays the steps, and fails as `runBuild` fails (a
 * `BuildError` keeps its name and problems; the output is left as it was).
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import type { Problem } from '../builder/model.ts';
import { BUILD_HEAP_GROWING_PERCENT, buildHeapGrowingPercent, buildInThread } from '../cli/build-thread.ts';
import { createContentFolder, tempDir } from './helpers/fixture-content.ts';
import { readTree } from './helpers/read-tree.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.map((f) => f()));
});

async function folders(): Promise<{ content: string; out: string }> {
  const content = await createContentFolder({ skills: 12 });
  cleanups.push(content.remove);
  const parent = await tempDir('build-thread-');
  cleanups.push(() => fs.rm(parent, { recursive: true, force: true }));
  return { content: content.dir, out: join(parent, 'public') };
}

describe('buildInThread', () => {
  it('builds the same tree and report as runBuild in this thread, its steps relayed', async () => {
    const { content, out } = await folders();
    const steps: string[] = [];
    const threaded = await buildInThread({ contentDir: content, outDir: `${out}-thread`, sourceDateEpoch: '1700000000', onProgress: (step) => steps.push(step) });
    const here = await runBuild({ contentDir: content, outDir: out, sourceDateEpoch: '1700000000' });
    expect({ ...threaded, ms: 0 }).toEqual({ ...here, ms: 0 });
    expect(threaded.skills).toBe(12);
    expect(steps[0]).toBe('loading content');
    expect(steps.some((s) => s.startsWith('building the search index'))).toBe(true);
    expect(await readTree(`${out}-thread`)).toEqual(await readTree(out));
  });

  it('lets the heap grow by V8\'s own factor only in an incremental build whose build cache is there', async () => {
    const { content, out } = await folders();
    const cacheDir = `${out}-cache`;
    const options = { contentDir: content, outDir: out, cacheDir, incremental: true };
    expect(buildHeapGrowingPercent({ contentDir: content, outDir: out })).toBe(BUILD_HEAP_GROWING_PERCENT);
    expect(buildHeapGrowingPercent(options)).toBe(BUILD_HEAP_GROWING_PERCENT);
    await buildInThread(options);
    expect(buildHeapGrowingPercent(options)).toBe(0);
    expect(buildHeapGrowingPercent({ ...options, incremental: false })).toBe(BUILD_HEAP_GROWING_PERCENT);
    expect(buildHeapGrowingPercent({ ...options, cacheDir: `${cacheDir}-other` })).toBe(BUILD_HEAP_GROWING_PERCENT);
  });

  it('fails as runBuild fails: a BuildError keeps its name and problems, the output untouched', async () => {
    const { content, out } = await folders();
    await buildInThread({ contentDir: content, outDir: out });
    const before = await readTree(out);
    const skill = (await fs.readdir(join(content, 'skills'), { recursive: true })).find((f) => f.endsWith('SKILL.md'))!;
    await fs.writeFile(join(content, 'skills', skill), '---\nname: [\n---\nbody\n');
    const error = (await buildInThread({ contentDir: content, outDir: out }).catch((e: unknown) => e)) as Error & { problems?: Problem[] };
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('BuildError');
    expect(error.problems).toHaveLength(1);
    expect(error.problems![0]!.file).toBe(`skills/${skill.split('\\').join('/')}`);
    expect(await readTree(out)).toEqual(before);
    const missing = (await buildInThread({ contentDir: join(content, 'nothing-here'), outDir: out }).catch((e: unknown) => e)) as Error;
    expect(missing.message).toMatch(/not found/);
    expect(await readTree(out)).toEqual(before);
  });
});
