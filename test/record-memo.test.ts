/**
 * The values an incremental build derives from each record alone and keeps in the build cache
 * beside it (builder/record-memo.ts: the change log's state hash, the search document key, the
 * list summary's hash after its quality key): every
 * stored value is the one the record gives when computed afresh; a skill whose SKILL.md changed
 * gets its values computed again (the change log records it as updated, with the new state);
 * a build cache of the previous format is refused as a whole, and the build that finds one
 * loads every skill and writes the same tree as a clean build. Real builds of a copy of the
 * sample content.
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { cacheFile, readLoadCache } from '../builder/build-cache.ts';
import { readChangeLog, skillStateHash } from '../builder/changes.ts';
import { loadContent } from '../builder/load-content.ts';
import { summaryHash } from '../builder/page-memo.ts';
import { qualitySummary } from '../builder/quality/index.ts';
import { documentKey } from '../builder/search-corpus.ts';
import { toSummary } from '../builder/summary.ts';
import { treeHashes } from './helpers/read-tree.ts';

const SAMPLE = fileURLToPath(new URL('../content', import.meta.url));
const EDITED = 'skills/apiwright/api-versioning-advisor';

let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'record-memo-'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Each skill folder's values computed afresh: from a load with no cache at all. */
async function freshValues(content: string): Promise<Map<string, { state: string; doc: string; summary: string }>> {
  const { content: loaded } = await loadContent(content, {});
  return new Map(loaded.skills.map((skill) => {
    const summary = summaryHash(JSON.stringify(toSummary(skill)));
    const { flags, duplicate } = qualitySummary(skill.checks!);
    return [skill.dir, { state: skillStateHash(skill), doc: documentKey(skill), summary: `${flags}${duplicate ? '+' : ''}:${summary}` }];
  }));
}

/** The values stored in the build cache of `content` in `cacheDir`, by skill folder. */
function storedValues(cacheDir: string, content: string): Map<string, unknown> {
  const cache = readLoadCache(cacheDir, realpathSync.native(content));
  expect(cache).toBeDefined();
  return new Map([...cache!.skills].filter(([, entry]) => entry.record !== undefined).map(([dir, entry]) => [dir, entry.derived]));
}

/** A copy of the sample content (folders named by `tag`) and its incremental build with a cache. */
async function sampleCopy(tag: string): Promise<{ content: string; cacheDir: string; out: string; build: () => ReturnType<typeof runBuild> }> {
  const content = join(base, `content-${tag}`);
  const cacheDir = join(base, `cache-${tag}`);
  const out = join(base, `public-${tag}`);
  await cp(SAMPLE, content, { recursive: true });
  return { content, cacheDir, out, build: () => runBuild({ contentDir: content, outDir: out, incremental: true, cacheDir, sourceDateEpoch: '1700000000' }) };
}

describe('values derived from each record, kept in the build cache', () => {
  it('are the values computed afresh, and a changed skill gets new ones', async () => {
    const { content, cacheDir, out, build } = await sampleCopy('a');
    await build();
    expect(storedValues(cacheDir, content)).toEqual(await freshValues(content));

    // Read back and used: a second build with nothing changed but the stamps' trust (the files
    // touched) keeps them, and they are still the values computed afresh.
    const skillMd = join(content, EDITED, 'SKILL.md');
    const original = await readFile(skillMd, 'utf8');
    await writeFile(skillMd, original);
    const again = await build();
    expect(again.fromCache).toBeGreaterThan(0);
    expect(storedValues(cacheDir, content)).toEqual(await freshValues(content));

    // An edited description: new values for that skill, from the edited record, not the stored ones.
    await writeFile(skillMd, original.replace(/^description: .*$/m, 'description: Decide whether an API change breaks consumers, and plan its deprecation.'));
    const before = storedValues(cacheDir, content).get(EDITED) as { state: string; doc: string };
    await build();
    const fresh = await freshValues(content);
    const after = storedValues(cacheDir, content);
    expect(after).toEqual(fresh);
    expect(after.get(EDITED)).not.toEqual(before);
    const id = 'apiwright/api-versioning-advisor';
    const last = readChangeLog(content).log.entries.filter((entry) => entry.id === id).at(-1);
    expect(last).toMatchObject({ change: 'updated', sha256: fresh.get(EDITED)!.state });

    // The output is a clean build's of the same content (change log included).
    const clean = join(base, 'clean-a');
    await runBuild({ contentDir: content, outDir: clean, sourceDateEpoch: '1700000000' });
    expect(await treeHashes(out)).toEqual(await treeHashes(clean));
  });

  it('refuses a build cache of the previous format as a whole: every skill loaded again, the same tree', async () => {
    const { content, cacheDir, out, build } = await sampleCopy('b');
    await build();
    const file = cacheFile(cacheDir, realpathSync.native(content));
    // The same lines under the previous version's header (its checksum still the body's).
    const text = readFileSync(file, 'utf8');
    const newline = text.indexOf('\n');
    const header = JSON.parse(text.slice(0, newline)) as { version: number };
    expect(header.version).toBe(7);
    writeFileSync(file, `${JSON.stringify({ ...header, version: 6 })}${text.slice(newline)}`);
    expect(readLoadCache(cacheDir, realpathSync.native(content))).toBeUndefined();

    // An edit, so the build cannot answer from its no-change record either.
    const skillMd = join(content, EDITED, 'SKILL.md');
    await writeFile(skillMd, `${await readFile(skillMd, 'utf8')}\nOne more line.\n`);
    const report = await build();
    expect(report.fromCache).toBe(0);
    const clean = join(base, 'clean-b');
    await runBuild({ contentDir: content, outDir: clean, sourceDateEpoch: '1700000000' });
    expect(await treeHashes(out)).toEqual(await treeHashes(clean));
    // The cache is made again in this format, with the values beside each record.
    expect(storedValues(cacheDir, content)).toEqual(await freshValues(content));
  });
});
