/**
 * The search index of an incremental build patched instead of made again
 * (builder/search-patch.ts): after edits of a few documents, the files are byte for byte those of
 * a whole build of the same documents, the unchanged chunks kept from the previous output; after
 * a change of search order, an addition or a removal, or with no previous output to keep files
 * from, the index is made whole (and still equal). Small chunk and pack sizes, so the sample
 * content makes hundreds of chunks and terms split into pieces. Real token caches and memo files.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../builder/load-content.ts';
import type { CategoryDef, SkillRecord } from '../builder/model.ts';
import { buildSearchIndex, type ChunkLayout, type SearchIndexOptions } from '../builder/search-index.ts';
import { withNeighbours, type PatchStats } from '../builder/search-patch.ts';
import type { ReadOutput } from '../builder/search-splice.ts';

const SAMPLE = fileURLToPath(new URL('../content', import.meta.url));
const OPTIONS: SearchIndexOptions = { chunkBytes: 300, packBytes: 200, inlineMax: 12, shardGroup: 2 };

let base: string;
let skills: SkillRecord[];
let categories: CategoryDef[];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'search-patch-'));
  const loaded = await loadContent(SAMPLE, { quality: false });
  skills = loaded.content.skills;
  categories = loaded.content.categories;
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The files of a whole (not incremental) build of `docs`. */
async function whole(docs: SkillRecord[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  await buildSearchIndex(docs, async (path, data) => void files.set(path, JSON.stringify(data)), categories, OPTIONS);
  return files;
}

/**
 * An incremental build of `docs` over `previous` (the files the output holds; none: nothing can
 * be kept), with the caches in `file`: its files and how many it kept from `previous`.
 */
async function incremental(docs: SkillRecord[], file: string, previous?: Map<string, string>, read: ReadOutput | false = (path) => previous?.get(path), options: SearchIndexOptions = OPTIONS): Promise<{ files: Map<string, string>; kept: number; stats?: PatchStats; summaryGroups: number }> {
  const files = new Map<string, string>();
  let kept = 0;
  let stats: PatchStats | undefined;
  let summaryGroups = -1;
  const keep = previous === undefined ? undefined : (paths: string[]): boolean => {
    if (!paths.every((path) => previous.has(path))) return false;
    for (const path of paths) {
      if (files.has(path)) throw new Error(`${path} kept twice`);
      files.set(path, previous.get(path)!);
    }
    // Term chunks and their packs (summary shards are counted by `summaryGroups`).
    kept += paths.filter((path) => !/\/d\.[^/]+$/.test(path)).length;
    return true;
  };
  await buildSearchIndex(docs, async (path, data) => {
    if (files.has(path)) throw new Error(`${path} written twice`);
    files.set(path, JSON.stringify(data));
  }, categories, options, { file, code: 'code-1', ...(keep === undefined ? {} : { keep }), ...(read === false ? {} : { read }), onPatch: (s) => (stats = s), onSummaries: (made) => (summaryGroups = made) });
  return { files, kept, ...(stats === undefined ? {} : { stats }), summaryGroups };
}

/** `skill` with its body (and so its SKILL.md's hash) changed. */
function edited(skill: SkillRecord, body: string, name = skill.name): SkillRecord {
  return { ...skill, name, body, sha: createSha(body) };
}

/** `body` with `line` inserted halfway through its lines. */
function middleLine(body: string, line: string): string {
  const lines = body.split('\n');
  lines.splice(Math.floor(lines.length / 2), 0, line);
  return lines.join('\n');
}

function createSha(text: string): string {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return `edited-${(h >>> 0).toString(16)}`;
}

describe('the patched search index', () => {
  it('equals a whole build after edits of a few documents, keeping the unchanged chunks', async () => {
    const file = join(base, 'edits', 'tokens.bin');
    let previous = (await incremental(skills, file)).files;
    expect(previous).toEqual(await whole(skills));
    expect(existsSync(`${file}.memo`)).toBe(true);

    const steps: Array<(docs: SkillRecord[]) => SkillRecord[]> = [
      // One line added to a body.
      (docs) => docs.map((s, i) => (i === 3 ? edited(s, `${s.body}\nOne more line about kubernetes deployment pipelines.\n`) : s)),
      // One line inserted in the middle of two bodies: every later word of them moves.
      (docs) => docs.map((s, i) => (i === 7 || i === 20 ? edited(s, middleLine(s.body, 'Check the retry budget and the rollback before you ship.')) : s)),
      // A body replaced by words no document has, and another emptied (terms vanish).
      (docs) => docs.map((s, i) => (i === 0 ? edited(s, 'zyxwvut quasiunique qwertyish words words words') : i === docs.length - 1 ? edited(s, '') : s)),
      // A name changed (its words in the name field, the name focus of its terms).
      (docs) => docs.map((s, i) => (i === 5 ? edited(s, s.body, 'testing testing') : s)),
      // A description changed (its words, and its row of the summaries).
      (docs) => docs.map((s, i) => (i === 11 ? { ...s, description: `${s.description} Retries with backoff.` } : s)),
      // Back to the start: the delta holds documents the large cache has again.
      () => skills,
    ];
    let docs = skills;
    const groups = Math.ceil(skills.length / 4);
    for (const step of steps) {
      const before = docs;
      docs = step(docs);
      const result = await incremental(docs, file, previous);
      // Only the summary groups of changed skills were made again (4 skills a group).
      const changed = docs.filter((s, i) => s !== before[i]).length;
      expect(result.summaryGroups).toBeGreaterThan(0);
      expect(result.summaryGroups).toBeLessThanOrEqual(changed);
      expect(groups).toBeGreaterThan(changed);
      const expected = await whole(docs);
      expect(result.files).toEqual(expected);
      expect(result.kept, 'unchanged chunks kept').toBeGreaterThan(0);
      expect(result.kept).toBeLessThan(expected.size);
      // Every entry of the chunks made again came from the output's files.
      expect(result.stats?.scanned).toBe(0);
      expect(result.stats?.spliced).toBeGreaterThan(0);
      expect(result.stats?.read).toBeGreaterThan(0);
      previous = result.files;
    }
  });

  it('keeps a chunk whose term has two identical positions pieces (one file for both)', async () => {
    const file = join(base, 'same-pieces', 'tokens.bin');
    // Tiny pieces: the word `skill` ends up with two pieces of the same text, so one file.
    const options: SearchIndexOptions = { ...OPTIONS, packBytes: 20 };
    const wholeFiles = new Map<string, string>();
    await buildSearchIndex(skills, async (path, data) => void wholeFiles.set(path, JSON.stringify(data)), categories, options);
    const refs = [...wholeFiles].filter(([path]) => /\/t\.[^/]+$/.test(path)).flatMap(([, text]) => {
      const chunk = JSON.parse(text) as { headPositions: Array<[string, number, string]>; bodyPositions: Array<[string, number, string]> };
      return [...chunk.headPositions, ...chunk.bodyPositions].map((ref) => ref[2]);
    });
    expect(new Set(refs).size, 'a positions file named twice in the index').toBeLessThan(refs.length);
    const previous = (await incremental(skills, file, undefined, undefined, options)).files;
    const docs = skills.map((s, i) => (i === 3 ? edited(s, `${s.body}\nOne more line about kubernetes deployment pipelines.\n`) : s));
    const result = await incremental(docs, file, previous, undefined, options);
    const expected = new Map<string, string>();
    await buildSearchIndex(docs, async (path, data) => void expected.set(path, JSON.stringify(data)), categories, options);
    expect(result.files).toEqual(expected);
    expect(result.kept).toBeGreaterThan(0);
  });

  it('gathers from the tokens what the output\'s files cannot give, and is still equal', async () => {
    const file = join(base, 'unreadable', 'tokens.bin');
    const previous = (await incremental(skills, file)).files;
    const docs = skills.map((s, i) => (i === 4 ? edited(s, middleLine(s.body, 'Check the canary latency and the quota before you ship.')) : s));
    // Damaged term files and positions packs (their text no longer has their name's hash), and no reader.
    let damaged = 0;
    const read: ReadOutput = (path) => {
      const text = previous.get(path);
      if (text === undefined || !/\/[tq]\.[^/]+$/.test(path) || damaged++ % 3 !== 0) return text;
      return text.replace(/"terms":\["/, '"terms":["x');
    };
    for (const reader of [read, false] as const) {
      const result = await incremental(docs, file, previous, reader);
      expect(result.files).toEqual(await whole(docs));
      expect(result.stats?.scanned).toBeGreaterThan(0);
      if (reader === false) expect(result.stats).toEqual({ spliced: 0, read: 0, scanned: result.stats?.scanned });
      else expect(result.stats!.read + result.stats!.spliced).toBeGreaterThan(0);
    }
  });

  it('is made whole, and equal, after a change of order, an addition, a removal, or without an output to keep from', async () => {
    const file = join(base, 'fallback', 'tokens.bin');
    let previous = (await incremental(skills, file)).files;
    const cases: SkillRecord[][] = [
      // Stars renumber the documents.
      skills.map((s, i) => (i === 2 ? { ...s, stars: s.stars + 100_000 } : s)),
      skills.slice(1),
      skills,
    ];
    for (const docs of cases) {
      const result = await incremental(docs, file, previous);
      expect(result.files).toEqual(await whole(docs));
      expect(result.kept, 'nothing kept: made whole').toBe(0);
      previous = result.files;
    }
    // An edit, but no output to keep files from: made whole from the caches.
    const docs = skills.map((s, i) => (i === 1 ? edited(s, `${s.body}\nanother line\n`) : s));
    const result = await incremental(docs, file);
    expect(result.files).toEqual(await whole(docs));
    expect(result.kept).toBe(0);
  });
});

describe('the chunks a patch makes again', () => {
  it('are few when a new word comes first of every term: the later cuts stay where they were', async () => {
    const file = join(base, 'cuts', 'tokens.bin');
    const previous = (await incremental(skills, file)).files;
    const chunks = (files: Map<string, string>): Set<string> => new Set([...files.keys()].filter((path) => /\/t\.[^/]+$/.test(path)));
    const before = chunks(previous);
    expect(before.size).toBeGreaterThan(20);
    // A word no skill has, sorted before every other term: it grows the first chunk's size count.
    const docs = skills.map((s, i) => (i === 4 ? edited(s, `${s.body}\n000aardvark 000aardvark\n`) : s));
    const result = await incremental(docs, file, previous);
    expect(result.files).toEqual(await whole(docs));
    const after = chunks(result.files);
    const made = [...after].filter((path) => !before.has(path));
    // Cut where the size count alone reached `chunkBytes`, every later chunk moved (made again).
    expect(made.length).toBeLessThanOrEqual(2);
  });
});

describe('the terms one pass of a patch gathers', () => {
  const chunk = (first: string, count: number): ChunkLayout => ({ first, count, file: `t.${first}`, packs: [], positions: [] });
  const memo = { terms: ['a', 'b', 'c', 'd', 'e', 'f'], chunks: [chunk('a', 2), chunk('c', 2), chunk('e', 2)] };

  it('are the affected terms and the other terms of the chunks they fall in', () => {
    expect(withNeighbours(['d'], memo)).toEqual(['c', 'd']);
    // A new term inside a chunk, one after the last term, one before the first.
    expect(withNeighbours(['cc'], memo)).toEqual(['c', 'cc', 'd']);
    expect(withNeighbours(['zz'], memo)).toEqual(['e', 'f', 'zz']);
    expect(withNeighbours(['0'], memo)).toEqual(['0', 'a', 'b']);
    expect(withNeighbours(['b', 'f'], memo)).toEqual(['a', 'b', 'e', 'f']);
    expect(withNeighbours([], memo)).toEqual([]);
  });

  it('take the chunk before too when a term falls on a cut (it may end that chunk instead)', () => {
    expect(withNeighbours(['c'], memo)).toEqual(['a', 'b', 'c', 'd']);
    expect(withNeighbours(['bz'], memo)).toEqual(['a', 'b', 'bz', 'c', 'd']);
  });
});
