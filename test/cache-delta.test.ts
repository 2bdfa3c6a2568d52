/**
 * The deltas an incremental build writes beside its build cache and its output record
 * (builder/checked-file.ts `writeDeltaFile`): a build that changed a few entries writes only
 * those, and reading base and delta gives exactly what a whole file would hold. A delta never
 * outlives its base: one left over from an older base is ignored, and a record without the delta
 * it needs no longer describes the output. The build cache with synthetic entries; the output
 * record with real builds of a copy of the sample content.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { cacheFiles, readLoadCache, restoreRecordLazily, writeLoadCache, type CachedSkill, type LoadCache, type StoredRecord } from '../builder/build-cache.ts';
import { loadContent } from '../builder/load-content.ts';
import type { SkillRecord } from '../builder/model.ts';
import { readCheckedFile } from '../builder/checked-file.ts';
import { fileKey, outputCacheFile, readOutputRecord, readSkillFilesRecord } from '../builder/output-record.ts';
import { skillPath } from '../src/paths.ts';
import { treeHashes } from './helpers/read-tree.ts';

const SAMPLE = fileURLToPath(new URL('../content', import.meta.url));

let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'cache-delta-'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A cache of `count` folders without records, each hashed `<prefix><n>`. */
function cacheOf(count: number, prefix: string): LoadCache<SkillRecord> {
  const skills = new Map<string, CachedSkill<SkillRecord>>();
  for (let n = 0; n < count; n++) skills.set(`skills/o/r${n}`, { hash: `${prefix}${n}`, problems: [] });
  return { contentDir: '/content-of-the-delta-test', shared: 'shared', skills };
}

/** The entries of a cache read, to write again (these have no records, stored or full). */
function written(cache: LoadCache<unknown>): Map<string, CachedSkill<SkillRecord>> {
  return cache.skills as Map<string, CachedSkill<SkillRecord>>;
}

/** The folders and hashes of a cache, to compare. */
function hashes(cache: LoadCache<unknown> | undefined): Map<string, string> {
  return new Map([...(cache?.skills ?? [])].map(([dir, entry]) => [dir, entry.hash]));
}

describe('the build cache delta', () => {
  it('holds only the changed folders, reads back as the whole cache, and is dropped with its base', () => {
    const dir = join(base, 'load-cache');
    const [baseFile, deltaFile] = cacheFiles(dir, '/content-of-the-delta-test');
    writeLoadCache(dir, cacheOf(300, 'a'));
    expect(existsSync(deltaFile)).toBe(false);
    const baseBytes = readFileSync(baseFile);

    // A few folders changed, one gone, one added: a delta, the base untouched.
    const read = readLoadCache(dir, '/content-of-the-delta-test')!;
    expect(read.base?.dirs.size).toBe(300);
    const next: LoadCache<SkillRecord> = { ...read, skills: new Map(written(read)) };
    for (const n of [3, 150, 299]) next.skills.set(`skills/o/r${n}`, { hash: `b${n}`, problems: [] });
    next.skills.delete('skills/o/r7');
    next.skills.set('skills/o/new', { hash: 'new', problems: [] });
    writeLoadCache(dir, next);
    expect(readFileSync(baseFile)).toEqual(baseBytes);
    expect(readFileSync(deltaFile, 'utf8').split('\n').length).toBeLessThan(10);
    const second = readLoadCache(dir, '/content-of-the-delta-test')!;
    expect(hashes(second)).toEqual(hashes(next));
    expect(second.skills.has('skills/o/r7')).toBe(false);

    // Written again from what was read: the delta keeps every change since the base, a folder
    // changed back to the base's hash included, and the older changes are not lost.
    const third: LoadCache<SkillRecord> = { ...second, skills: new Map(written(second)) };
    third.skills.set('skills/o/r3', { hash: 'a3', problems: [] });
    writeLoadCache(dir, third);
    expect(readFileSync(baseFile)).toEqual(baseBytes);
    const delta = readFileSync(deltaFile);
    expect(hashes(readLoadCache(dir, '/content-of-the-delta-test'))).toEqual(hashes(third));

    // More changes than a delta may hold: the base is written whole, the delta removed.
    const many: LoadCache<SkillRecord> = { ...third, skills: new Map(third.skills) };
    for (let n = 0; n < 100; n++) many.skills.set(`skills/o/r${n + 10}`, { hash: `c${n}`, problems: [] });
    writeLoadCache(dir, many);
    expect(existsSync(deltaFile)).toBe(false);
    expect(readFileSync(baseFile)).not.toEqual(baseBytes);
    expect(hashes(readLoadCache(dir, '/content-of-the-delta-test'))).toEqual(hashes(many));

    // The old delta put back beside the new base is not applied: it was written over another base.
    writeFileSync(deltaFile, delta);
    expect(hashes(readLoadCache(dir, '/content-of-the-delta-test'))).toEqual(hashes(many));
    // A damaged delta is never applied either.
    const read2 = readLoadCache(dir, '/content-of-the-delta-test')!;
    const one: LoadCache<SkillRecord> = { ...read2, skills: new Map(written(read2)) };
    one.skills.set('skills/o/r0', { hash: 'd0', problems: [] });
    writeLoadCache(dir, one);
    expect(readLoadCache(dir, '/content-of-the-delta-test')!.skills.get('skills/o/r0')!.hash).toBe('d0');
    writeFileSync(deltaFile, readFileSync(deltaFile, 'utf8').replace('"d0"', '"e0"'));
    expect(readLoadCache(dir, '/content-of-the-delta-test')!.skills.get('skills/o/r0')!.hash).toBe(hashes(many).get('skills/o/r0'));
  });
});

describe('the build cache written whole over its base', () => {
  it('copies the lines of unchanged folders from the base file, reading no SKILL.md', async () => {
    const content = join(base, 'content-whole');
    const dir = join(base, 'load-cache-whole');
    await cp(SAMPLE, content, { recursive: true });
    // Stamps trusted as settled: the copy was just written.
    const stamps = { started: Date.now() + 60_000 };
    const first = await loadContent(content, { stamps });
    writeLoadCache(dir, first.cache!);
    const root = realpathSync.native(content);
    const stored = readLoadCache(dir, root)!;
    // The load takes the stored records over (they become its records): their values, as read.
    const records = new Map([...stored.skills].map(([folder, entry]) => [folder, JSON.parse(JSON.stringify(entry.record ?? null)) as unknown]));
    const second = await loadContent(content, { previous: stored, stamps });
    expect(second.stamped).toBe(second.cache!.skills.size);
    // More new folders than a delta may hold: written whole. The content is gone, so a record
    // serialized again (reading its SKILL.md) would throw: the unchanged lines come from the base.
    for (let n = 0; n < 70; n++) second.cache!.skills.set(`skills/extra/r${n}`, { hash: `x${n}`, problems: [] });
    await rm(content, { recursive: true });
    writeLoadCache(dir, second.cache!);
    const [, deltaFile] = cacheFiles(dir, root);
    expect(existsSync(deltaFile)).toBe(false);
    const whole = readLoadCache(dir, root)!;
    expect(whole.skills.size).toBe(stored.skills.size + 70);
    for (const [folder, record] of records) expect(whole.skills.get(folder)!.record ?? null).toEqual(record);
  });
});

describe('a stored line the build cache does not trust', () => {
  it('a body offset outside the text, or a record holding its text or the later parts, makes the cache be ignored', async () => {
    const { cache, dir, root, file } = await sampleCache('lines');
    // A line: its JSON, then after a tab the names of the record's fields parsed on demand, then
    // after another their values.
    type Line = { bodyAt?: unknown; skill: { size: number }; record: Record<string, unknown>; tail: string[] };
    const edits: Array<[string, (line: Line) => void]> = [
      ['nothing (the line written again is trusted)', () => undefined],
      ['past the size', (line) => (line.bodyAt = line.skill.size + 1)],
      ['negative', (line) => (line.bodyAt = -1)],
      ['a string', (line) => (line.bodyAt = '3')],
      ['missing', (line) => delete line.bodyAt],
      ['raw held', (line) => (line.record.raw = null)],
      ['archive held', (line) => (line.record.archive = { size: 1, sha256: 'x' })],
      ['a field both in the line and after it', (line) => (line.tail[0] = line.tail[0]!.replace(/^[^,]+/, 'id'))],
      ['the text after it', (line) => (line.tail[0] = line.tail[0]!.replace(/^[^,]+/, 'raw'))],
      ['a field twice after it', (line) => (line.tail[0] = line.tail[0]!.replace(/^([^,]+),[^,]+/, '$1,$1'))],
      ['no values after the names', (line) => (line.tail = [line.tail[0]!])],
      ['no signals after the values', (line) => (line.tail = line.tail.slice(0, 2))],
      ['fields after a line of no record', (line) => {
        delete (line as { record?: unknown }).record;
        delete (line as { derived?: unknown }).derived;
      }],
    ];
    for (const [what, edit] of edits) {
      writeLoadCache(dir, cache!);
      expect(readLoadCache(dir, root), what).toBeDefined();
      rewriteFirstLine(file, (text) => {
        const [json, ...tail] = text.split('\t');
        // The fields parsed on demand (names, values), then the quality signals.
        expect(tail, 'the parts after the line\'s JSON').toHaveLength(3);
        const line = { ...(JSON.parse(json!) as Omit<Line, 'tail'>), tail } as Line;
        edit(line);
        const { tail: after, ...head } = line;
        return [JSON.stringify(head), ...after].join('\t');
      });
      expect(readLoadCache(dir, root) === undefined, what).toBe(what !== edits[0]![0]);
    }
  });
});

describe('the fields a stored line holds apart', () => {
  it('are parsed only when read, and values that do not fit their names fail the read naming the folder', async () => {
    const { cache, dir, root, file } = await sampleCache('tail');
    writeLoadCache(dir, cache!);
    // Restored as an incremental build restores a kept skill: its text is not read.
    const restore = (entry: CachedSkill<StoredRecord>): SkillRecord =>
      restoreRecordLazily(entry.record!, entry.skill!.sha, entry.skill!.size, entry.bodyAt!, () => {
        throw new Error('text read');
      }, entry.tail);
    const [folder, entry] = [...readLoadCache(dir, root)!.skills].find(([, e]) => e.record !== undefined)!;
    const original = cache!.skills.get(folder)!.record!;
    expect(entry.record).not.toHaveProperty('stats');
    const record = restore(entry);
    expect(record.stats).toEqual(original.stats);
    const fields = (r: SkillRecord): Record<string, unknown> => Object.fromEntries(Object.keys(r).filter((k) => !['raw', 'body', 'checks'].includes(k)).map((k) => [k, r[k as keyof SkillRecord]]));
    expect(fields(record)).toEqual(fields(original));
    // A field of the tail written: the record holds the new value.
    const stats = { ...record.stats, views: record.stats.views + 1 };
    record.stats = stats;
    expect(record.stats).toBe(stats);
    // One value short, the checksum sound: the line is taken, the first read of a field fails.
    rewriteFirstLine(file, (line) => line.replace(/\t\[([^\t]*)\]\t/, (_, values: string) => `\t${JSON.stringify((JSON.parse(`[${values}]`) as unknown[]).slice(1))}\t`));
    const damaged = restore([...readLoadCache(dir, root)!.skills.values()][0]!);
    expect(damaged.id).toBe([...cache!.skills.values()][0]!.record!.id);
    expect(() => damaged.stats).toThrow(`the build cache line of ${damaged.dir} holds no values`);
  });
});

/** A copy of the sample content under `base`, loaded, with the folder and file of its build cache. */
async function sampleCache(suffix: string): Promise<{ cache: LoadCache<SkillRecord> | undefined; dir: string; root: string; file: string }> {
  const content = join(base, `content-${suffix}`);
  await cp(SAMPLE, content, { recursive: true });
  const { cache } = await loadContent(content, { stamps: { started: Date.now() + 60_000 } });
  const dir = join(base, `cache-${suffix}`);
  const root = realpathSync.native(content);
  return { cache, dir, root, file: cacheFiles(dir, root)[0] };
}

/** Rewrite the first line after the header of checked file `file`, its checksum sound again: only the line's shape can refuse it. */
function rewriteFirstLine(file: string, edit: (line: string) => string): void {
  const text = readFileSync(file, 'utf8');
  const newline = text.indexOf('\n');
  const lines = text.slice(newline + 1).split('\n');
  lines[0] = edit(lines[0]!);
  const body = lines.join('\n');
  const header = { ...(JSON.parse(text.slice(0, newline)) as object), checksum: createHash('sha256').update(body).digest('hex') };
  writeFileSync(file, `${JSON.stringify(header)}\n${body}`);
}

/** Path → `fileKey` of every file under `dir`. */
function outputKeys(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const path of readdirSync(dir, { recursive: true, withFileTypes: false }) as string[]) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, path));
    } catch {
      continue; // a folder
    }
    found.set(path.split('\\').join('/'), fileKey(bytes));
  }
  return new Map([...found].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A copy of the sample content under `base`, with its output and cache folders and an in-place build of them. */
async function incrementalFixture(suffix: string): Promise<{ content: string; out: string; cacheDir: string; build: () => ReturnType<typeof runBuild> }> {
  const content = join(base, `content${suffix}`);
  const out = join(base, `public${suffix}`);
  const cacheDir = join(base, `cache${suffix}`);
  await cp(SAMPLE, content, { recursive: true });
  return { content, out, cacheDir, build: () => runBuild({ contentDir: content, outDir: out, incremental: true, cacheDir, sourceDateEpoch: undefined }) };
}

describe('the output record delta', () => {
  it('describes the output exactly after in-place builds, and a record without its delta describes none', async () => {
    const { content, out, cacheDir, build } = await incrementalFixture('');
    await build();
    const recordFile = outputCacheFile(cacheDir, out, 'output', '.txt');
    expect(existsSync(`${recordFile}.delta`)).toBe(false);
    const baseBytes = readFileSync(recordFile);

    const owner = readdirSync(join(content, 'skills')).sort()[0]!;
    const repo = readdirSync(join(content, 'skills', owner)).sort()[0]!;
    await appendFile(join(content, 'skills', owner, repo, 'SKILL.md'), '\nOne more line for the delta test.\n');
    await build();
    // The record's base is as the first build wrote it; what changed is in the delta.
    expect(readFileSync(recordFile)).toEqual(baseBytes);
    expect(existsSync(`${recordFile}.delta`)).toBe(true);
    const sorted = (record: Iterable<[string, string]> | undefined): Map<string, string> => new Map([...(record ?? [])].sort(([a], [b]) => (a < b ? -1 : 1)));
    expect(sorted(readOutputRecord(cacheDir, out))).toEqual(outputKeys(out));

    // A second skill changed, then removed: the delta holds both changes.
    const second = readdirSync(join(content, 'skills')).sort()[1]!;
    await appendFile(join(content, 'skills', second, readdirSync(join(content, 'skills', second))[0]!, 'SKILL.md'), '\nAnother line.\n');
    await build();
    await rm(join(content, 'skills', owner, repo), { recursive: true });
    await build();
    expect(readFileSync(recordFile)).toEqual(baseBytes);
    expect(sorted(readOutputRecord(cacheDir, out))).toEqual(outputKeys(out));
    expect([...readOutputRecord(cacheDir, out)!.keys()].some((path) => path.includes(`/${owner}/${repo}/`))).toBe(false);
    // The skill-files record (base and delta) names every skill's files with their keys in the output.
    const skillFilesFile = outputCacheFile(cacheDir, out, 'skill-files', '.ndjson');
    expect(existsSync(`${skillFilesFile}.delta`)).toBe(true);
    const key = readCheckedFile(skillFilesFile)!.header.key as string;
    const skillFiles = readSkillFilesRecord(cacheDir, out, key)!;
    const keys = outputKeys(out);
    const dirs = readdirSync(join(content, 'skills')).flatMap((o) => readdirSync(join(content, 'skills', o)).map((r) => `skills/${o}/${r}`)).sort();
    expect([...skillFiles.keys()].sort()).toEqual(dirs);
    for (const [dir, entry] of skillFiles) {
      for (const [path, fileKey] of entry.files) expect([path, fileKey]).toEqual([path, keys.get(path)]);
      const [, o, r] = dir.split('/');
      expect(entry.detail?.[1]).toBe(keys.get(skillPath(o!, r!, 'detail')));
    }

    // Without its delta the base describes an earlier output: not used (the build writes a whole tree).
    copyFileSync(`${recordFile}.delta`, join(base, 'saved-delta'));
    rmSync(`${recordFile}.delta`);
    expect(readOutputRecord(cacheDir, out)).toBeUndefined();
    copyFileSync(join(base, 'saved-delta'), `${recordFile}.delta`);
    expect(sorted(readOutputRecord(cacheDir, out))).toEqual(outputKeys(out));
    // A clean build over the output replaces its manifest: the record no longer describes it.
    await runBuild({ contentDir: content, outDir: out, sourceDateEpoch: undefined });
    expect(readOutputRecord(cacheDir, out)).toBeUndefined();
  });
});

describe('kept discovery indexes', () => {
  it("an owner's index and its skills' indexes follow a removed, a renamed and an added skill", async () => {
    const { content, out, build } = await incrementalFixture('-discovery');
    const clean = async (name: string): Promise<Map<string, string>> => {
      await runBuild({ contentDir: content, outDir: join(base, name), sourceDateEpoch: undefined });
      return treeHashes(join(base, name));
    };
    await build();
    await build();
    const owner = join(content, 'skills', 'brightdesk');
    const [first, second] = readdirSync(owner).sort();
    // One skill of the owner gone: the others are kept, the owner's index is not.
    await cp(join(owner, first!), join(base, 'saved-skill'), { recursive: true });
    await rm(join(owner, first!), { recursive: true });
    await build();
    expect(treeHashes(out)).toEqual(await clean('clean-discovery-1'));
    // Back under a name that takes another skill's discovery name with a suffix (`a_b` beside `a-b`).
    await cp(join(base, 'saved-skill'), join(owner, second!.replace(/-/g, '_')), { recursive: true });
    await build();
    expect(treeHashes(out)).toEqual(await clean('clean-discovery-2'));
    // The skill whose name it took gone: the kept skill's discovery name loses its suffix.
    await cp(join(owner, second!), join(base, 'saved-second'), { recursive: true });
    await rm(join(owner, second!), { recursive: true });
    await build();
    expect(treeHashes(out)).toEqual(await clean('clean-discovery-3'));
    await cp(join(base, 'saved-second'), join(owner, second!), { recursive: true });
    await rm(join(owner, second!.replace(/-/g, '_')), { recursive: true });
    await cp(join(base, 'saved-skill'), join(owner, first!), { recursive: true });
    await build();
    expect(treeHashes(out)).toEqual(await clean('clean-discovery-4'));
  });
});
