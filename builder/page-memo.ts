/**
 * The list pages of an `--incremental` build kept when what they are made of did not change
 * (builder/write-tree.ts): a page is its members' summaries, in order, and its pagination, so a
 * hash of those (`pageInput`) names its bytes. The page memo, one file per output in the cache
 * folder beside the output record (builder/output-record.ts), keeps per page path that hash and
 * the key of the file the output holds; a page whose hash is the same and whose file the output
 * record still has with that key is kept as it is (`OutputWriter.keep`), neither made nor hashed.
 * The memo is tied to the options and build code (`key`, builder/up-to-date.ts `buildKey`): the
 * page's shape is the code's.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { readCheckedLines, writeCheckedFile } from './checked-file.ts';
import { outputCacheFile, type OutputRecord } from './output-record.ts';

const FORMAT = 'skills-api-page-memo';
const VERSION = 1;

function memoFile(cacheDir: string, out: string): string {
  return outputCacheFile(cacheDir, out, 'pages', '.txt');
}

/** A hash of a summary's text (its part of a page's input). */
export function summaryHash(summary: string): string {
  return createHash('sha256').update(summary).digest('base64url').slice(0, 22);
}

/** A hash of what a page is made of: its pagination and its members' `summaryHash`es, in order. */
export function pageInput(pagination: string, members: readonly string[]): string {
  return createHash('sha256').update(pagination).update('\n').update(members.join('')).digest('base64url').slice(0, 22);
}

/** Page path → `<input> <file key>`, as the last incremental build into `out` of `key` wrote them; undefined when missing or of other options or code. */
export function readPageMemo(cacheDir: string, out: string, key: string): Map<string, string> | undefined {
  const memo = new Map<string, string>();
  const read = readCheckedLines(memoFile(cacheDir, out), (header) => header.format === FORMAT && header.version === VERSION && header.key === key, (line) => {
    const tab = line.indexOf('\t');
    if (tab !== -1) memo.set(line.slice(0, tab), line.slice(tab + 1));
  });
  if (read === undefined) return undefined;
  return memo;
}

/**
 * Store the inputs of the pages this build made or kept (`pages`: path → input) with their keys in
 * `record` (the output as committed). Never throws: without the memo the next build makes every page.
 */
export function writePageMemo(cacheDir: string, out: string, pages: ReadonlyMap<string, string>, record: OutputRecord, key: string): void {
  const file = memoFile(cacheDir, out);
  try {
    const lines: string[] = [];
    for (const [path, input] of pages) {
      const fileKey = record.get(path);
      if (fileKey !== undefined) lines.push(`${path}\t${input} ${fileKey}\n`);
    }
    writeCheckedFile(file, { format: FORMAT, version: VERSION, key }, lines.join(''));
  } catch {
    rmSync(file, { force: true });
  }
}

/** What writeTree asks of the page memo: keep this page (true), or make it (false). Either way its input is remembered. */
export interface PageKeeper {
  keep(path: string, input: string): boolean;
}

/**
 * A keeper over `previous` (the memo read) that keeps through `keep` (`OutputWriter.keep`) and
 * remembers every page's input in `next`.
 */
export function pageKeeper(previous: ReadonlyMap<string, string> | undefined, next: Map<string, string>, keep: ((files: readonly (readonly [string, string])[]) => boolean) | undefined): PageKeeper {
  return {
    keep(path, input) {
      next.set(path, input);
      const stored = previous?.get(path);
      if (stored === undefined || keep === undefined) return false;
      const space = stored.indexOf(' ');
      return stored.slice(0, space) === input && keep([[path, stored.slice(space + 1)]]);
    },
  };
}
