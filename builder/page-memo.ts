/**
 * The list pages of an `--incremental` build kept when what they are made of did not change
 * (builder/write-tree.ts): a page is its members' summaries, in order, and its pagination, so a
 * hash of those (`pageInput`) names its bytes. The page memo, one file per output in the cache
 * folder beside the output record (builder/output-record.ts), keeps per page path that hash and
 * the key of the file the output holds; a page whose hash is the same and whose file the output
 * record still has with that key is kept as it is (`OutputWriter.keep`), neither made nor hashed.
 * The memo is tied to the options and build code (`key`, builder/up-to-date.ts `buildKey`): the
 * page's shape is the code's.
 *
 * The memo also names the lists' ordinals files, and its header keeps a hash of everything the
 * lists are made of (`listsInput`: every summary, the categories and platforms). When that hash is
 * the same, the lists' files are all kept at once, without a page being looked at: a build in
 * which no summary changed (an edited SKILL.md body, a changed script) makes none of them.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { readCheckedLines, writeCheckedFile } from './checked-file.ts';
import type { SkillRecord } from './model.ts';
import { outputCacheFile, type OutputRecord } from './output-record.ts';
import { qualitySummary } from './quality/index.ts';
import { derivedOf } from './record-memo.ts';

const FORMAT = 'skills-api-page-memo';
const VERSION = 2;

/** The memo of the lists' files: each file's input and key, and the input of the lists as a whole. */
export interface PageMemo {
  /** Path → `<input> <file key>` (an ordinals file's input is `-`: it is kept only with the lists). */
  pages: Map<string, string>;
  /** `listsInput` of the build that made these files. */
  lists?: string;
}

/** What a build remembers of its lists' files for the next one: path → input, and the lists' input. */
export interface PageInputs {
  pages: Map<string, string>;
  lists?: string;
}

function memoFile(cacheDir: string, out: string): string {
  return outputCacheFile(cacheDir, out, 'pages', '.txt');
}

/** A hash of a summary's text (its part of a page's input). */
export function summaryHash(summary: string): string {
  return createHash('sha256').update(summary).digest('base64url').slice(0, 22);
}

/**
 * `summaryHash` of `skill`'s summary, `text()` (its JSON), kept beside the record
 * (builder/record-memo.ts) so that an unchanged skill's summary is neither made nor hashed again.
 * A summary is the record's but for its quality part, made of checks over the whole directory:
 * the memo names that part's key and holds only while the skill's checks still give it.
 */
export function summaryHashOf(skill: SkillRecord, text: () => string): string {
  const quality = skill.checks === undefined ? '' : qualityKey(skill.checks);
  const memo = derivedOf(skill);
  const stored = memo.summary;
  if (stored !== undefined && stored.length === quality.length + 23 && stored.startsWith(`${quality}:`)) return stored.slice(quality.length + 1);
  const hash = summaryHash(text());
  memo.summary = `${quality}:${hash}`;
  return hash;
}

/** The quality part of a summary as a short key: its flag count, `+` for a copy. */
function qualityKey(checks: NonNullable<SkillRecord['checks']>): string {
  const { flags, duplicate } = qualitySummary(checks);
  return `${flags}${duplicate ? '+' : ''}`;
}

/**
 * A hash of everything the lists' files are made of: every summary's hash in the order of the
 * skills (by id), and `shared`, the categories and platforms (which lists there are). Sorting and
 * paging read only fields a summary has, so the same hash means the same files.
 */
export function listsInput(shared: string, summaryHashes: readonly string[]): string {
  return createHash('sha256').update(shared).update('\n').update(summaryHashes.join('')).digest('base64url').slice(0, 22);
}

/** A hash of what a page is made of: its pagination and its members' `summaryHash`es, in order. */
export function pageInput(pagination: string, members: readonly string[]): string {
  return createHash('sha256').update(pagination).update('\n').update(members.join('')).digest('base64url').slice(0, 22);
}

/** The memo as the last incremental build into `out` of `key` wrote it; undefined when missing or of other options or code. */
export function readPageMemo(cacheDir: string, out: string, key: string): PageMemo | undefined {
  const pages = new Map<string, string>();
  const read = readCheckedLines(memoFile(cacheDir, out), (header) => header.format === FORMAT && header.version === VERSION && header.key === key, (line) => {
    const tab = line.indexOf('\t');
    if (tab !== -1) pages.set(line.slice(0, tab), line.slice(tab + 1));
  });
  if (read === undefined) return undefined;
  return { pages, ...(typeof read.lists === 'string' ? { lists: read.lists } : {}) };
}

/**
 * Store the inputs of the lists' files this build made or kept (`inputs`) with their keys in
 * `record` (the output as committed). Never throws: without the memo the next build makes every page.
 */
export function writePageMemo(cacheDir: string, out: string, inputs: PageInputs, record: OutputRecord, key: string): void {
  const file = memoFile(cacheDir, out);
  try {
    const lines: string[] = [];
    let complete = true;
    for (const [path, input] of inputs.pages) {
      const fileKey = record.get(path);
      if (fileKey !== undefined) lines.push(`${path}\t${input} ${fileKey}\n`);
      else complete = false;
    }
    // The lists' input vouches for every file of the lists: only a memo naming them all keeps it.
    const lists = complete && inputs.lists !== undefined ? { lists: inputs.lists } : {};
    writeCheckedFile(file, { format: FORMAT, version: VERSION, key, ...lists }, lines.join(''));
  } catch {
    rmSync(file, { force: true });
  }
}

/** What writeTree asks of the page memo. Whatever the answer, what it was asked of is remembered. */
export interface PageKeeper {
  /** Keep every file of the lists when they are made of `input` (`listsInput`) as the memo's were (true), or make them (false). */
  keepLists(input: string): boolean;
  /** Keep this page (true), or make it (false). */
  keep(path: string, input: string): boolean;
  /** A file of the lists made anew whatever its input (an ordinals file), to be kept with them next time. */
  made(path: string): void;
}

/**
 * A keeper over `previous` (the memo read) that keeps through `keep` (`OutputWriter.keep`) and
 * remembers every file's input in `next`.
 */
export function pageKeeper(previous: PageMemo | undefined, next: PageInputs, keep: ((files: readonly (readonly [string, string])[]) => boolean) | undefined): PageKeeper {
  return {
    keepLists(input) {
      next.lists = input;
      if (previous === undefined || previous.lists !== input || keep === undefined) return false;
      const files: Array<[string, string]> = [];
      const inputs: Array<[string, string]> = [];
      for (const [path, stored] of previous.pages) {
        const space = stored.indexOf(' ');
        files.push([path, stored.slice(space + 1)]);
        inputs.push([path, stored.slice(0, space)]);
      }
      if (!keep(files)) return false;
      for (const [path, input] of inputs) next.pages.set(path, input);
      return true;
    },
    keep(path, input) {
      next.pages.set(path, input);
      const stored = previous?.pages.get(path);
      if (stored === undefined || keep === undefined) return false;
      const space = stored.indexOf(' ');
      return stored.slice(0, space) === input && keep([[path, stored.slice(space + 1)]]);
    },
    made(path) {
      next.pages.set(path, '-');
    },
  };
}
