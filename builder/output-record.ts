/**
 * The record of an output folder as an incremental build left it: every file's path, size and
 * hash (docs/deploy.md "Incremental builds"). The next incremental build compares each file it
 * makes with this record instead of reading the previous output, and commits only the files that
 * differ (shared/commit-journal.ts).
 *
 * One file per output in the build cache folder, written after the commit; its header holds the
 * identity of the output it describes (the folder by device and inode, the manifest by device,
 * inode, size and modification time): any other build replaces the manifest, so a record that no longer describes the output is never used (the
 * build then writes a whole new tree). A hand edit inside the tree is not seen, as with the
 * no-change check (builder/up-to-date.ts). Format: a JSON header line, then `<hash> <size> <path>`
 * lines, with the SHA-256 of those lines in the header. After an in-place build only the paths
 * whose key changed since the whole file was written (`- - <path>` for one removed) go into its
 * delta (builder/checked-file.ts), whose header then names the output; the skill-files record
 * is kept the same way.
 */
import { createHash } from 'node:crypto';
import { lstatSync, rmSync, type BigIntStats } from 'node:fs';
import { join, resolve } from 'node:path';
import { MANIFEST_PATH, skillPath } from '../src/paths.ts';
import { readCheckedLinesWithDelta, writeCheckedFileWhole, writeDeltaFile } from './checked-file.ts';

const FORMAT = 'skills-api-output-record';
const VERSION = 1;

/** Output path → `<hash> <size>` of its bytes (`fileKey`). */
export type OutputRecord = Map<string, string>;

/** The key of a file's bytes in a record: 128 bits of SHA-256 (base64url) and the size. */
export function fileKey(data: string | Uint8Array): string {
  const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  return `${createHash('sha256').update(data).digest('base64url').slice(0, 22)} ${size}`;
}

/**
 * The identity of output `out`, undefined when it has no manifest. Not the folder's times: a
 * commit rolled back moves files back into it, which changes them but not the tree.
 */
function outputIdentity(out: string): string | undefined {
  const folder = lstatSync(out, { bigint: true, throwIfNoEntry: false });
  const manifest = lstatSync(join(out, ...MANIFEST_PATH.split('/')), { bigint: true, throwIfNoEntry: false });
  if (folder?.isDirectory() !== true || manifest?.isFile() !== true) return undefined;
  const id = (s: BigIntStats): string => `${s.dev}:${s.ino}`;
  return `${resolve(out)}\0${id(folder)}\0${id(manifest)}:${manifest.size}:${manifest.mtimeNs}`;
}

/**
 * A file in `cacheDir` kept for the builds into output `out`: `<name>-<hash of out's path><extension>`
 * (the output record, the skill-files record, the search token cache).
 */
export function outputCacheFile(cacheDir: string, out: string, name: string, extension: string): string {
  return join(resolve(cacheDir), `${name}-${createHash('sha256').update(resolve(out)).digest('hex').slice(0, 16)}${extension}`);
}

function recordFile(cacheDir: string, out: string): string {
  return outputCacheFile(cacheDir, out, 'output', '.txt');
}

/**
 * What a record read from the cache folder was made of: the checksum of the base file and the
 * paths its delta changes (`null`: removed), so the next write can add to the delta instead of
 * writing every path again.
 */
const bases = new WeakMap<OutputRecord, { checksum: string; delta: ReadonlyMap<string, string | null> }>();

/** The record of `out` when it still describes the folder there; undefined otherwise. */
export function readOutputRecord(cacheDir: string, out: string): OutputRecord | undefined {
  const identity = outputIdentity(out);
  if (identity === undefined) return undefined;
  const fits = (head: Record<string, unknown>): boolean => head.format === FORMAT && head.version === VERSION && head.output === identity;
  const record: OutputRecord = new Map();
  const changes = new Map<string, string | null>();
  const read = readCheckedLinesWithDelta(recordFile(cacheDir, out), {
    // A delta describes the output as its build left it; the base, the output of an earlier build.
    accept: (header, delta) => fits(delta ?? header),
    line: (line, inBase) => readRecordLine(line, record, inBase ? undefined : changes),
  });
  if (read === undefined) return undefined;
  bases.set(record, { checksum: read.header.checksum as string, delta: changes });
  return record;
}

/** Read one `<key> <path>` line into `record` (with `changes`, a delta's: key `- -` removes a path); false when malformed. */
function readRecordLine(line: string, record: OutputRecord, changes?: Map<string, string | null>): boolean {
  if (line === '') return true;
  const second = line.indexOf(' ', line.indexOf(' ') + 1);
  if (second === -1) return false;
  const stored = line.slice(second + 1);
  const path = stored.startsWith('"') ? (JSON.parse(stored) as string) : stored;
  const key = line.slice(0, second);
  if (changes !== undefined && key === GONE) {
    record.delete(path);
    changes.set(path, null);
    return true;
  }
  record.set(path, key);
  changes?.set(path, key);
  return true;
}

/** The key of a path a delta removes. */
const GONE = '- -';

/**
 * Store the record of `out` (just committed or swapped in). Never throws: without it the next
 * build writes a whole tree. With `changed`, the paths whose key differs from `previous` (the
 * record read before this build) or that are gone from it, the record is written as a delta beside
 * the base file `previous` was read from, while that delta stays under 1% of the paths.
 */
export function writeOutputRecord(cacheDir: string, out: string, record: OutputRecord, previous?: OutputRecord, changed?: readonly string[]): void {
  const base = previous === undefined ? undefined : bases.get(previous);
  if (base !== undefined && changed !== undefined) {
    const delta = new Map(base.delta);
    for (const path of changed) delta.set(path, record.get(path) ?? null);
    if (delta.size <= Math.max(DELTA_MIN, Math.floor(record.size / 100))) {
      writeRecordFile(recordFile(cacheDir, out), out, { format: FORMAT, version: VERSION }, () => {
        const lines: string[] = [];
        for (const [path, key] of delta) lines.push(recordLine(path, key ?? GONE));
        return lines;
      }, base.checksum);
      return;
    }
  }
  writeRecordFile(recordFile(cacheDir, out), out, { format: FORMAT, version: VERSION }, () => {
    const lines: string[] = [];
    for (const [path, key] of record) lines.push(recordLine(path, key));
    return lines;
  });
}

/** A delta of the output record holds at most this many paths, or 1% of them when more. */
const DELTA_MIN = 1000;

/** One line of a record: a path with a line break (a skill's own file name) is stored as JSON, marked by its quote. */
function recordLine(path: string, key: string): string {
  return `${key} ${path.includes('\n') || path.startsWith('"') ? JSON.stringify(path) : path}\n`;
}

/**
 * Write a record file of `out` (its header names the output's identity). Never throws: on any
 * failure the file is removed, and a stale one could not match the output's new identity anyway.
 */
function writeRecordFile(file: string, out: string, head: Record<string, unknown>, lines: () => string[], base?: string): void {
  try {
    const identity = outputIdentity(out);
    if (identity === undefined) {
      rmSync(file, { force: true });
      return;
    }
    if (base !== undefined) writeDeltaFile(file, base, { ...head, output: identity }, lines().join(''));
    else writeCheckedFileWhole(file, { ...head, output: identity }, lines().join(''));
  } catch {
    try {
      rmSync(file, { force: true });
    } catch {
      // The identity in a stale file's header protects it.
    }
  }
}

/** Forget the record of `out` (before anything replaces the output in a way the record cannot follow). */
export function dropOutputRecord(cacheDir: string, out: string): void {
  try {
    rmSync(recordFile(cacheDir, out), { force: true });
  } catch {
    // As above: identity protects a stale record.
  }
}

/** A skill folder's files in the output (builder/skill-output.ts), as stored beside the record. */
export interface StoredSkillFiles {
  hash: string;
  archive: { size: number; sha256: string };
  files: [path: string, key: string][];
  /** The detail's memo and output key (builder/skill-output.ts `keepDetail`). */
  detail?: [memo: string, key: string];
  /** The skill's discovery name (builder/skill-output.ts). */
  discovery?: string;
}

function skillFilesFile(cacheDir: string, out: string): string {
  return outputCacheFile(cacheDir, out, 'skill-files', '.ndjson');
}

/**
 * The skill files of `out` by skill folder, when stored for the folder there now by a build of the
 * same options and build code (`key`: builder/up-to-date.ts `buildKey`); undefined otherwise.
 */
export function readSkillFilesRecord(cacheDir: string, out: string, key: string): Map<string, StoredSkillFiles> | undefined {
  const identity = outputIdentity(out);
  if (identity === undefined) return undefined;
  const found = new Map<string, StoredSkillFiles>();
  const dirs = new Set<string>();
  const asBase = new Set<string>();
  const read = readCheckedLinesWithDelta(skillFilesFile(cacheDir, out), {
    accept: (header, delta) => {
      const head = delta ?? header;
      return header.format === SKILL_FILES_FORMAT && head.format === SKILL_FILES_FORMAT && head.output === identity && head.key === key;
    },
    line: (line, inBase) => {
      if (line === '') return;
      // The parsed line is the entry, its `dir` (and `gone`) left on it: a copy without them for
      // each of 100k folders costs more than the keys it drops.
      const entry = JSON.parse(line) as StoredSkillFiles & { dir: string; gone?: true };
      const { dir, gone } = entry;
      if (inBase) {
        dirs.add(dir);
        asBase.add(dir);
      } else asBase.delete(dir);
      if (!inBase && gone === true) found.delete(dir);
      else found.set(dir, entry);
    },
  });
  if (read === undefined) return undefined;
  skillFilesBases.set(found, { checksum: read.header.checksum as string, dirs, asBase });
  return found;
}

const SKILL_FILES_FORMAT = `${FORMAT}-skill-files-4`;

/**
 * The base file a skill-files record was read from: its checksum, its skill folders, and those
 * whose entry read is the base file's (not changed or removed by the delta).
 */
const skillFilesBases = new WeakMap<ReadonlyMap<string, StoredSkillFiles>, { checksum: string; dirs: ReadonlySet<string>; asBase: ReadonlySet<string> }>();

/**
 * Store the skill files of `out` with the keys of `record` (entries with a path the record lacks
 * are left out), for builds of `key` (see `readSkillFilesRecord`). Never throws. Over `previous`
 * (the skill-files record read before this build), only the entries not `unchanged` since it was
 * read (an entry kept whole, files and detail, is the line it was read from) and those gone go
 * into a delta beside the base file it was read from, while that delta stays under 1% of the
 * skill folders.
 */
export function writeSkillFilesRecord(cacheDir: string, out: string, skills: ReadonlyMap<string, StoredSkillFiles>, record: OutputRecord, key: string, previous?: ReadonlyMap<string, StoredSkillFiles>, unchanged?: (dir: string) => boolean): void {
  const lineOf = (dir: string, entry: StoredSkillFiles): string | undefined => {
    const files = entry.files.map(([path]): [string, string] => [path, record.get(path) ?? '']);
    if (files.some(([, key]) => key === '')) return undefined;
    const [owner, repo] = dir.split('/').slice(1);
    const detailKey = entry.detail === undefined ? undefined : record.get(skillPath(owner!, repo!, 'detail'));
    const detail = detailKey === undefined ? {} : { detail: [entry.detail![0], detailKey] };
    return `${JSON.stringify({ dir, hash: entry.hash, archive: entry.archive, files, ...detail, ...(entry.discovery === undefined ? {} : { discovery: entry.discovery }) })}\n`;
  };
  const file = skillFilesFile(cacheDir, out);
  const head = { format: SKILL_FILES_FORMAT, key };
  const base = previous === undefined ? undefined : skillFilesBases.get(previous);
  if (base !== undefined) {
    const limit = Math.max(64, Math.floor(skills.size / 100));
    const changed: string[] = [];
    const written = new Set<string>();
    for (const [dir, entry] of skills) {
      if (changed.length > limit) break;
      if (base.asBase.has(dir) && unchanged?.(dir) === true) {
        written.add(dir);
        continue;
      }
      const line = lineOf(dir, entry);
      if (line === undefined) continue;
      written.add(dir);
      changed.push(line);
    }
    for (const dir of base.dirs) {
      if (changed.length > limit) break;
      if (!written.has(dir)) changed.push(`${JSON.stringify({ dir, gone: true })}\n`);
    }
    if (changed.length <= limit) {
      writeRecordFile(file, out, head, () => changed, base.checksum);
      return;
    }
  }
  writeRecordFile(file, out, head, () => {
    const lines: string[] = [];
    for (const [dir, entry] of skills) {
      const line = lineOf(dir, entry);
      if (line !== undefined) lines.push(line);
    }
    return lines;
  });
}
