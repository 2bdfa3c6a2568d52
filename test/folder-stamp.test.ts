/**
 * Skill folders' file-system stamps (builder/folder-stamp.ts) and the load that re-uses a folder
 * by its stamp (builder/load-content.ts): every kind of change below a folder changes its stamp
 * (`.git` excepted), a settled folder whose stamp is unchanged is taken from the earlier load
 * reading only its SKILL.md, and the records equal those of a load that read everything.
 * Real folders, real loads of a copy of the sample content.
 */
import { appendFile, chmod, cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLoadCache, writeLoadCache, type LoadCache, type StoredRecord } from '../builder/build-cache.ts';
import { KeptListings, SETTLE_MS, listingLine, listingsFrom, settledBefore, stampFolder, type Listings } from '../builder/folder-stamp.ts';
import { loadContent } from '../builder/load-content.ts';
import type { SkillRecord } from '../builder/model.ts';

const SAMPLE = fileURLToPath(new URL('../content', import.meta.url));

let base: string;

beforeAll(async () => {
  base = realpathSync(await mkdtemp(join(tmpdir(), 'folder-stamp-')));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Wait (bounded) until `dir`'s stamp is settled for a build starting now. */
async function settle(dir: string): Promise<void> {
  for (let i = 0; i < 100 && !settledBefore(stampFolder(dir).newest, Date.now()); i++) await new Promise((r) => setTimeout(r, 100));
  expect(settledBefore(stampFolder(dir).newest, Date.now())).toBe(true);
}

/** The cache as the build stores it and reads it back (builder/build-cache.ts). */
function stored(cache: LoadCache<SkillRecord>): LoadCache<StoredRecord> {
  const dir = join(base, 'cache');
  writeLoadCache(dir, cache);
  return readLoadCache(dir, cache.contentDir)!;
}

describe('a skill folder\'s stamp', () => {
  it('changes with every file added, written in place, re-moded, nested or removed, and not with .git', async () => {
    const dir = join(base, 'one');
    await mkdir(join(dir, 'scripts'), { recursive: true });
    await writeFile(join(dir, 'SKILL.md'), '---\nname: one\n---\nBody.\n');
    const stamps = [stampFolder(dir).stamp];
    const changed = async (what: () => Promise<void>): Promise<void> => {
      await what();
      const next = stampFolder(dir).stamp;
      expect(stamps).not.toContain(next);
      stamps.push(next);
    };
    await changed(() => writeFile(join(dir, 'scripts', 'run.sh'), 'echo one\n'));
    await changed(() => appendFile(join(dir, 'scripts', 'run.sh'), 'echo two\n'));
    await changed(() => chmod(join(dir, 'scripts', 'run.sh'), 0o755));
    await changed(() => mkdir(join(dir, 'empty')));
    await changed(() => rm(join(dir, 'scripts', 'run.sh')));
    const before = stampFolder(dir).stamp;
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect(stampFolder(dir).stamp).toBe(before);
    expect(stampFolder(join(base, 'missing')).stamp).toBe('-');
    expect(SETTLE_MS).toBeGreaterThan(0);
  });
});

describe('a stamping with the listings of an earlier one', () => {
  it('lists only folders whose own stamp changed, and gives the stamp a full listing gives', async () => {
    const dir = join(base, 'listed');
    await mkdir(join(dir, 'scripts'), { recursive: true });
    await writeFile(join(dir, 'SKILL.md'), '---\nname: listed\n---\nBody.\n');
    await writeFile(join(dir, 'scripts', 'run.sh'), 'echo one\n');
    const first = listingsFrom();
    const stamp = stampFolder(dir, first);
    expect(first.listed).toBe(true);
    expect(stamp.stamp).toBe(stampFolder(dir).stamp);
    let kept = first.next;
    const step = (): { listings: Listings; stamp: string } => {
      const listings = listingsFrom(kept);
      const now = stampFolder(dir, listings).stamp;
      expect(now).toBe(stampFolder(dir).stamp); // the same as listing everything
      kept = listings.next;
      return { listings, stamp: now };
    };
    const again = step();
    expect(again.listings.listed, 'nothing listed again').toBe(false);
    expect(again.stamp).toBe(stamp.stamp);
    // Written in place: no folder listed, the stamp changes all the same.
    await appendFile(join(dir, 'scripts', 'run.sh'), 'echo two\n');
    const edited = step();
    expect(edited.listings.listed).toBe(false);
    expect(edited.stamp).not.toBe(stamp.stamp);
    // Added and removed, in a subfolder: listed again.
    await writeFile(join(dir, 'scripts', 'new.sh'), 'echo new\n');
    const added = step();
    expect(added.listings.listed).toBe(true);
    expect(added.stamp).not.toBe(edited.stamp);
    await rm(join(dir, 'scripts', 'new.sh'));
    const removed = step();
    expect(removed.listings.listed).toBe(true);
    expect(removed.stamp).toBe(edited.stamp);
  });
});

describe('the kept listings', () => {
  it('are found in the order they were kept, and out of it when folders came or went', () => {
    const listing = (name: string): string => listingLine(`/c/skills/${name}`, { stamp: `s-${name}`, newest: 1, entries: [[`${name}.md`, false]] });
    const kept = new KeptListings([listing('a'), listing('b'), listing('c"q'), listing('d'), 'not a listing']);
    expect(kept.size).toBe(5);
    expect(kept.take('/c/skills/a')?.listing).toEqual({ stamp: 's-a', newest: 1, entries: [['a.md', false]] });
    // b is gone: c"q is found all the same, then d right after it.
    expect(kept.take('/c/skills/c"q')?.listing.stamp).toBe('s-c"q');
    expect(kept.take('/c/skills/new')).toBeUndefined();
    expect(kept.take('/c/skills/d')?.line).toBe(listing('d'));
    // Asked for again, or for one passed over.
    expect(kept.take('/c/skills/b')?.listing.stamp).toBe('s-b');
    expect(kept.take('/c/skills/a')?.listing.stamp).toBe('s-a');
  });
});

describe('a load with stamps', () => {
  it('re-uses settled, unchanged folders by their stamp and reads changed ones, with the records of a full load', async () => {
    const content = join(base, 'content');
    await cp(SAMPLE, content, { recursive: true });
    // An exact and a near copy of a skill, so the quality signals kept in the cache (copy
    // sketches) have copies to find.
    const [sourceOwner] = (await readdir(join(content, 'skills'))).sort();
    const [sourceRepo] = (await readdir(join(content, 'skills', sourceOwner!))).sort();
    const source = join(content, 'skills', sourceOwner!, sourceRepo!);
    await cp(source, join(content, 'skills', 'zz-copier', 'exact-copy'), { recursive: true });
    await cp(source, join(content, 'skills', 'zz-copier', 'near-copy'), { recursive: true });
    await appendFile(join(content, 'skills', 'zz-copier', 'near-copy', 'SKILL.md'), '\nOne line of its own.\n');
    await settle(content);
    const first = await loadContent(content, { stamps: { started: Date.now() } });
    expect(first.stamped).toBe(0);
    const copies = first.content.skills.filter((s) => s.owner === 'zz-copier').map((s) => s.checks!);
    expect(copies[0]!.duplicateOf).toBe(`${sourceOwner}/${sourceRepo}`);
    expect(copies[1]!.similar ?? []).toContain(`${sourceOwner}/${sourceRepo}`);
    const folders = first.cache!.skills.size;
    expect([...first.cache!.skills.values()].every((entry) => entry.stamp !== undefined)).toBe(true);

    const again = await loadContent(content, { previous: stored(first.cache!), stamps: { started: Date.now() } });
    expect(again.stamped).toBe(folders);
    // Their SKILL.md text is read only when asked for.
    const lazy = again.content.skills[0]!;
    expect(Object.getOwnPropertyDescriptor(lazy, 'raw')?.get).toBeTypeOf('function');
    expect(again.content.skills).toEqual(first.content.skills);

    // One folder's extra file written in place: that folder alone is read again; its stamp is
    // not kept while it is unsettled.
    const owner = (await readdir(join(content, 'skills'))).sort()[0]!;
    const repo = (await readdir(join(content, 'skills', owner))).sort()[0]!;
    await writeFile(join(content, 'skills', owner, repo, 'notes.md'), 'Notes.\n');
    const edited = await loadContent(content, { previous: stored(again.cache!), stamps: { started: Date.now() } });
    expect(edited.stamped).toBe(folders - 1);
    expect(edited.cache!.skills.get(`skills/${owner}/${repo}`)!.stamp).toBeUndefined();
    const full = await loadContent(content);
    expect(edited.content.skills).toEqual(full.content.skills);
    expect(edited.content.skills.find((s) => s.dir === `skills/${owner}/${repo}`)!.files!.map((f) => f.path)).toContain('notes.md');

    // A SKILL.md changed after the load stamped it: its text is refused when asked for, never mixed.
    const loaded = (await loadContent(content, { previous: stored(edited.cache!), stamps: { started: Date.now() } })).content.skills;
    const late = loaded[Math.floor(loaded.length / 2)]!; // no copy of another: its text unread so far
    await appendFile(join(content, late.dir, 'SKILL.md'), '\nWritten during the build.\n');
    expect(() => late.raw).toThrow(`${late.dir}/SKILL.md changed while building: build again`);
  }, 60_000);
});
