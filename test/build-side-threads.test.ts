/**
 * The work an incremental build hands to threads of their own: the no-change check's stamps
 * (builder/stamp-thread.ts), taken while the caches are read, and the search token cache
 * (builder/token-cache-thread.ts), read and checked while the tree is made. Each gives exactly
 * what the same call gives in the calling thread, including for a damaged token cache, which is
 * refused there as here; and the load's discovery from the stamps' listings finds the same skill
 * folders, links and problems as listing the folder again. Real folders, real threads.
 */
import { createHash } from 'node:crypto';
import { promises as fs, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../builder/load-content.ts';
import { formatProblem } from '../builder/problems.ts';
import { readTokenCache, tokenizeCorpus, writeTokenCache } from '../builder/search-corpus.ts';
import { stampInputsInThread, stampInputsInTwoThreads } from '../builder/stamp-thread.ts';
import { readTokenCacheInThread } from '../builder/token-cache-thread.ts';
import { ownerHalf, stampDetails, stampInputs, type InputStamp } from '../builder/up-to-date.ts';
import { createContentFolder, skillJson, skillMd, type FileSpec } from './helpers/fixture-content.ts';
import { cleanedAfterEach } from './helpers/scratch.ts';

const { folders, scratch } = cleanedAfterEach('side-threads-');

/** What a stamp says, wherever it was taken: its digests, whether settled, each folder's stamp and the listings. */
function said(stamp: InputStamp): { inputs: string; log: string; settled: boolean; folders: Map<string, unknown>; entries: string } {
  const { folders: stamped, entries } = stampDetails(stamp);
  return { inputs: stamp.inputs, log: stamp.log, settled: stamp.settled, folders: stamped, entries };
}

/**
 * Wait until a stamping of `root` says it is settled (no file changed within the last seconds):
 * stamps compared with each other must all be taken on the same side of that moment.
 */
async function untilSettled(root: string): Promise<void> {
  for (let i = 0; i < 100 && !stampInputs(root).settled; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(stampInputs(root).settled).toBe(true);
}

/** A content folder of 7 valid skills plus links, files and dot folders where skill folders are expected. */
async function oddContent(): Promise<string> {
  const outside = await scratch();
  await fs.mkdir(join(outside, 'skill'));
  await fs.writeFile(join(outside, 'skill', 'SKILL.md'), skillMd({ name: 'Elsewhere', description: 'Outside.' }));
  const skill = (dir: string): Record<string, FileSpec> => ({ [`${dir}/SKILL.md`]: skillMd({ name: 'Tool', description: 'Does it.' }), [`${dir}/skill.json`]: skillJson(1) });
  const folder = await createContentFolder({
    skills: 7,
    files: {
      'skills/a/linked': { symlink: join(outside, 'skill') },
      'skills/linked-owner': { symlink: outside },
      'skills/a/README.md': 'not a skill folder',
      'skills/NOTES.md': 'not an owner folder',
      ...skill('skills/.hidden/tool'),
      ...skill('skills/a/.dot-tool'),
      ...skill('skills/a/tool'),
      ...skill('skills/a-b/tool'),
      ...skill('skills/a/b-c'),
    },
  });
  folders.push(folder);
  return realpathSync(folder.dir);
}

describe('the stamps taken in a thread', () => {
  it('are the stamps taken in the calling thread', async () => {
    const root = await oddContent();
    const cacheDir = await scratch();
    await untilSettled(root);
    const here = stampInputs(root, cacheDir);
    const there = await stampInputsInThread(root, cacheDir);
    // The thread's halves arrive as JSON, and say the same.
    expect(typeof there.halves[0].owners).toBe('string');
    expect(said(there)).toEqual(said(here));
    expect(stampDetails(there).folders.size).toBe(12);
    expect(stampDetails(there).entries.split('\0')).toContain('lskills/linked-owner');
  });
});

describe('the stamps taken half in a thread, half in the calling one', () => {
  it('are the stamps taken in the calling thread, and see a change in either half', async () => {
    const root = await oddContent();
    const cacheDir = await scratch();
    const owners = (await fs.readdir(join(root, 'skills'), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    // Both halves hold owner folders, so the thread's half is really stamped there.
    expect(new Set(owners.map(ownerHalf))).toEqual(new Set([0, 1]));
    await untilSettled(root);
    const here = stampInputs(root, cacheDir);
    const halves = await stampInputsInTwoThreads(root, cacheDir, 0);
    expect(typeof halves.halves[1].owners).toBe('string');
    expect(said(halves)).toEqual(said(here));
    // Again, with the listings each half kept.
    expect(said(await stampInputsInTwoThreads(root, cacheDir, 0))).toEqual(said(here));
    // The thread started before the owner folders are listed, then given its half.
    expect(said(await stampInputsInTwoThreads(root, cacheDir, 0, true))).toEqual(said(here));
    // Started ahead, then not needed (too few owner folders for two threads): the same stamp.
    expect(said(await stampInputsInTwoThreads(root, cacheDir, 1000, true))).toEqual(said(here));
    for (const half of [0, 1]) {
      const owner = owners.find((name) => ownerHalf(name) === half && name !== '.hidden')!;
      const repo = (await fs.readdir(join(root, 'skills', owner), { withFileTypes: true })).find((e) => e.isDirectory())!.name;
      await fs.appendFile(join(root, 'skills', owner, repo, 'SKILL.md'), '\nMore.\n');
      await untilSettled(root);
      const after = await stampInputsInTwoThreads(root, cacheDir, 0);
      expect(after.inputs).not.toBe(here.inputs);
      expect(stampDetails(after).folders.get(`skills/${owner}/${repo}`)).not.toEqual(stampDetails(here).folders.get(`skills/${owner}/${repo}`));
      expect(said(after)).toEqual(said(stampInputs(root, cacheDir)));
    }
  });
});

describe('the listings kept for the next stamping', () => {
  it("keep owner folders' listings with their entries' types, and list an owner folder again once it changed", async () => {
    const root = await oddContent();
    const cacheDir = await scratch();
    // Only listings of folders settled before the stamping are kept.
    await untilSettled(root);
    const first = stampInputs(root, cacheDir);
    expect(first.settled).toBe(true);
    const kept = (await fs.readdir(cacheDir)).filter((name) => name.startsWith('listings-'));
    expect(kept.length).toBe(2);
    const lines = kept.flatMap((name) => readFileSync(join(cacheDir, name), 'utf8').split('\n').slice(1).filter(Boolean)).map((line) => JSON.parse(line) as unknown[]);
    const owner = lines.find(([folder]) => folder === join(root, 'skills', 'a'));
    // Entries a, then their types: `linked` is a link, `README.md` a file.
    expect(owner?.[4]).toBe((owner?.[3] as [string, boolean][]).map(([name, folder]) => (name === 'linked' ? 'l' : folder ? 'd' : 'f')).join(''));
    expect((owner?.[4] as string).includes('l')).toBe(true);
    expect(said(stampInputs(root, cacheDir))).toEqual(said(first));
    // A new skill folder changes its owner folder's own stamp: listed again, not taken from the kept listing.
    await fs.mkdir(join(root, 'skills', 'a', 'new-tool'));
    await fs.writeFile(join(root, 'skills', 'a', 'new-tool', 'SKILL.md'), skillMd({ name: 'New', description: 'New.' }));
    await untilSettled(root);
    const after = stampInputs(root, cacheDir);
    expect(stampDetails(after).folders.has('skills/a/new-tool')).toBe(true);
    expect(stampDetails(after).entries.split('\0')).toContain('dskills/a/new-tool');
    expect(after.inputs).not.toBe(first.inputs);
    expect(said(after)).toEqual(said(stampInputs(root)));
  });
});

describe("discovery from the stamps' listings", () => {
  it('finds the same skill folders, links and problems as listing the folder again', async () => {
    const root = await oddContent();
    const listed = await loadContent(root, { quality: false });
    const stamp = stampInputs(root);
    const fromStamps = await loadContent(root, { quality: false, stamps: { started: Date.now(), entries: stampDetails(stamp).entries } });
    expect(fromStamps.problems.map(formatProblem)).toEqual(listed.problems.map(formatProblem));
    expect(fromStamps.problems.map(formatProblem).slice(0, 2)).toEqual(['skills/a/linked: is a symbolic link, not followed', 'skills/linked-owner: is a symbolic link, not followed']);
    expect(fromStamps.skipped).toEqual(listed.skipped);
    expect(fromStamps.skipped).toEqual(expect.arrayContaining(['skills/.hidden/tool', 'skills/a/linked', 'skills/linked-owner']));
    expect(fromStamps.content.skills.map((s) => s.dir)).toEqual(listed.content.skills.map((s) => s.dir));
    expect(fromStamps.content.skills.map((s) => s.dir)).toEqual(expect.arrayContaining(['skills/a/tool', 'skills/a-b/tool', 'skills/a/b-c']));
    expect(fromStamps.fingerprint).toBe(listed.fingerprint);
  });

  it('finds nothing, and says why, when skills/ is missing', async () => {
    const folder = await createContentFolder({ skills: 0, files: { skills: null } });
    folders.push(folder);
    const root = realpathSync(folder.dir);
    const result = await loadContent(root, { quality: false, stamps: { started: Date.now(), entries: stampDetails(stampInputs(root)).entries } });
    expect(result.problems.map(formatProblem)).toEqual(['skills: missing: expected skills/<owner>/<repo>/ folders']);
  });
});

describe('the token cache read in a thread', () => {
  /** A token cache of the 7 fixture skills in a fresh folder, and its build code. */
  async function tokenCache(): Promise<{ file: string; code: string }> {
    const folder = await createContentFolder({ skills: 7 });
    folders.push(folder);
    const docs = (await loadContent(folder.dir, { quality: false })).content.skills;
    const file = join(await scratch(), 'search-tokens.bin');
    writeTokenCache(file, 'code-1', docs, tokenizeCorpus(docs));
    return { file, code: 'code-1' };
  }

  it('is the token cache read in the calling thread', async () => {
    const { file, code } = await tokenCache();
    const here = readTokenCache(file, code);
    expect(here?.docs.size).toBe(7);
    const there = await readTokenCacheInThread(file, code);
    expect(there).toEqual(here);
  });

  it('is refused there as here when missing, of other build code, cut short or damaged', async () => {
    const { file, code } = await tokenCache();
    const bytes = readFileSync(file);
    const headerEnd = bytes.indexOf(0x0a);
    const header = JSON.parse(bytes.toString('utf8', 0, headerEnd)) as { docs: number };
    const body = Buffer.from(bytes.subarray(headerEnd + 1));
    /** The file with `body`, its checksum made to match (so only the check of the tokens can refuse it). */
    const resealed = (changed: Buffer): Buffer => {
      const head = { ...header, checksum: createHash('sha256').update(changed).digest('hex') };
      return Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`), changed]);
    };
    // A token past the last term: the first token of the first document.
    const badToken = Buffer.from(body);
    const tokensStart = ((header.docs * 16 + 3) & ~3) + header.docs * 16;
    badToken.writeInt32LE(0x7fffffff, tokensStart);
    // A document whose tokens run past the end.
    const badRange = Buffer.from(body);
    badRange.writeInt32LE(0x7fffffff, ((header.docs * 16 + 3) & ~3) + 12);
    const flipped = Buffer.from(bytes);
    flipped.writeUInt8(flipped.readUInt8(flipped.length - 2) ^ 1, flipped.length - 2);
    const cases: Array<[string, Buffer | null, string]> = [
      ['missing', null, code],
      ['other build code', bytes, 'code-2'],
      ['cut short', bytes.subarray(0, bytes.length - 5), code],
      ['a byte changed', flipped, code],
      ['a token naming no term', resealed(badToken), code],
      ['tokens past the end', resealed(badRange), code],
      ['the same bytes resealed', resealed(body), code],
    ];
    for (const [name, content, as] of cases) {
      const path = join(await scratch(), 'search-tokens.bin');
      if (content !== null) writeFileSync(path, content);
      const here = readTokenCache(path, as);
      const there = await readTokenCacheInThread(path, as);
      expect(there, name).toEqual(here);
      if (name === 'the same bytes resealed') expect(here?.docs.size, name).toBe(7);
      else expect(here, name).toBeUndefined();
    }
  });
});
