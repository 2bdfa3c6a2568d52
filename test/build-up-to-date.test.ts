/**
 * The no-change check of `--incremental` (builder/up-to-date.ts): a build in which nothing changed
 * leaves the output folder as it is (same folder, same manifest file) and reports what the build
 * that wrote it did; any change of an input, of an option, of the build cache or of the output
 * (another build swapped in) makes it build again, and the output then equals a clean build's.
 * Real builds of a copy of the sample content.
 */
import { appendFile, cp, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { stampInputs } from '../builder/up-to-date.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { treeHashes } from './helpers/read-tree.ts';

const SAMPLE = fileURLToPath(new URL('../content', import.meta.url));

let base: string;
let content: string;
let cacheDir: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'build-up-to-date-'));
  content = join(base, 'content');
  cacheDir = join(base, 'cache');
  await cp(SAMPLE, content, { recursive: true });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/**
 * Wait until every input of `dir` is old enough for a build to trust its stamps (inputs changed
 * just before a build are read again by the next one); bounded.
 */
async function settled(dir: string): Promise<void> {
  const root = realpathSync(dir);
  for (let i = 0; i < 100 && !stampInputs(root).settled; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(stampInputs(root).settled).toBe(true);
}

/** The identity of the output folder and its manifest file: the same while nothing replaced them. */
async function identity(out: string): Promise<string> {
  const [folder, manifest] = await Promise.all([stat(out), stat(join(out, ...MANIFEST_PATH.split('/')))]);
  return `${folder.ino} ${manifest.ino} ${manifest.mtimeMs}`;
}

function incremental(out: string, extra: Partial<Parameters<typeof runBuild>[0]> = {}): ReturnType<typeof runBuild> {
  return runBuild({ contentDir: content, outDir: out, incremental: true, cacheDir, sourceDateEpoch: undefined, ...extra });
}

async function cleanTree(name: string): Promise<Map<string, string>> {
  const out = join(base, name);
  await runBuild({ contentDir: content, outDir: out, sourceDateEpoch: undefined });
  return treeHashes(out);
}

describe('an incremental build in which nothing changed', () => {
  it('leaves the output in place and reports the build that wrote it; any change builds again', async () => {
    const out = join(base, 'public');
    await settled(content);
    const first = await incremental(out);
    expect(first.fromCache).toBe(0);
    const written = await identity(out);

    const again = await incremental(out);
    expect(await identity(out)).toBe(written); // not replaced: nothing was written
    expect(again.files).toBe(first.files);
    expect(again.bytes).toBe(first.bytes);
    expect(again.skills).toBe(first.skills);
    expect(again.reused).toBe(again.files);
    expect(again.fromCache).toBe(again.skills);
    expect(again.manifest).toEqual(first.manifest);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-0'));

    // Another option: built again.
    const epoch = await incremental(out, { sourceDateEpoch: '1700000000' });
    expect(epoch.manifest.builtAt).toBe('2023-11-14T22:13:20.000Z');
    expect(await identity(out)).not.toBe(written);
    const back = await incremental(out);
    expect(back.manifest.builtAt).toBeUndefined();
    const rebuilt = await identity(out);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-1'));
    expect((await incremental(out)).reused).toBeGreaterThan(0);
    expect(await identity(out)).toBe(rebuilt);

    // The output replaced by another build (a clean one, of other content): built again.
    const other = join(base, 'other');
    await cp(content, other, { recursive: true });
    await rm(join(other, 'skills', 'apiwright'), { recursive: true, force: true });
    await runBuild({ contentDir: other, outDir: out, sourceDateEpoch: undefined });
    const replaced = await identity(out);
    await incremental(out);
    expect(await identity(out)).not.toBe(replaced);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-2'));

    // A damaged build cache: built again.
    const settledOut = await identity(out);
    await incremental(out);
    expect(await identity(out)).toBe(settledOut);
    for (const name of await import('node:fs/promises').then((fs) => fs.readdir(cacheDir))) {
      if (name.startsWith('content-')) await writeFile(join(cacheDir, name), 'damaged');
    }
    const afterDamage = await incremental(out);
    expect(afterDamage.fromCache).toBe(0);
    // Every skill loaded again, every file made again and found equal to the output's record:
    // nothing committed, the output left as it was.
    expect(afterDamage.reused).toBe(afterDamage.files);
    expect(await identity(out)).toBe(settledOut);

    // A removed skill folder (no stamped file is new): built again, the change log gets the
    // removal, and the build after that, with nothing changed, writes nothing.
    const [removedOwner] = (await import('node:fs/promises').then((fs) => fs.readdir(join(content, 'skills')))).sort();
    const log = join(content, 'changes.ndjson');
    const logBefore = await stat(log);
    const beforeRemoval = await identity(out);
    await rm(join(content, 'skills', removedOwner!), { recursive: true });
    await incremental(out);
    expect(await identity(out)).not.toBe(beforeRemoval);
    expect((await stat(log)).mtimeMs).not.toBe(logBefore.mtimeMs); // the removal was logged
    const afterRemoval = await identity(out);
    await incremental(out);
    expect(await identity(out)).toBe(afterRemoval);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-removed'));

    // An edited SKILL.md: built again, equal to a clean build.
    const before = await identity(out);
    const skill = [...treeHashes(out).keys()].find((path) => path.startsWith('api/v1/skills/') && path.endsWith('/index.json'))!;
    const [, , , owner, repo] = skill.split('/');
    await appendFile(join(content, 'skills', owner!, repo!, 'SKILL.md'), '\nOne more line.\n');
    const edited = await incremental(out);
    expect(edited.fromCache).toBe(edited.skills - 1);
    expect(await identity(out)).not.toBe(before);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-3'));

    // A file of the skill's folder besides those the load parses (a skill is its whole folder):
    // added, then edited in place, then removed; each time built again, equal to a clean build.
    const notes = join(content, 'skills', owner!, repo!, 'reference', 'notes.md');
    await mkdir(join(content, 'skills', owner!, repo!, 'reference'), { recursive: true });
    await writeFile(notes, 'First notes.\n');
    await settled(content);
    const added = await incremental(out);
    expect(added.fromCache).toBe(added.skills - 1);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-4'));
    const withNotes = await identity(out);
    await appendFile(notes, 'A line written in place.\n');
    await incremental(out);
    expect(await identity(out)).not.toBe(withNotes);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-5'));
    await settled(content);
    await incremental(out);
    const appended = await identity(out);
    await rm(notes);
    await incremental(out);
    expect(await identity(out)).not.toBe(appended);
    expect(treeHashes(out)).toEqual(await cleanTree('clean-6'));
  }, 120_000);
});
