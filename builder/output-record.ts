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
import { readCheckedBytesWithDelta, readCheckedLinesWithDelta, writeCheckedFileWhole, writeDeltaFile } from './checked-file.ts';
import { RecordLines } from './record-lines.ts';

const FORMAT = 'skills-api-output-record';
/** A text of ASCII characters only, which NFC and lower-casing map one character to one. */
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const VERSION = 1;

/**
 * Output path → `<hash> <size>` of its bytes (`fileKey`), as a Map has them (`get`, `has`, `set`,
 * `delete`, `size`, iteration). A record read from its file keeps the file's lines as bytes
 * (builder/record-lines.ts) and marks which of them it holds; `emptyLike` makes a record over the
 * same lines that holds none of them yet, as an in-place build's record of its new output starts:
 * a path it then sets with the key the lines have costs a mark, not an entry of its own. Paths
 * the lines lack, and keys other than theirs, live in a Map beside.
 */
export class OutputRecord implements Iterable<[string, string]> {
  readonly #lines: RecordLines | undefined;
  /** Per entry of the lines: 1 when this record holds its path. */
  readonly #present: Uint8Array;
  /** Paths the lines lack, and present paths of the lines whose key here is another. */
  readonly #other = new Map<string, string>();
  #size = 0;

  /** A record of nothing or, with `lines`, of every path they hold (`all`) or of none yet. */
  constructor(lines?: RecordLines, all = false) {
    this.#lines = lines;
    this.#present = new Uint8Array(lines?.capacity ?? 0);
    if (lines === undefined || !all) return;
    for (let entry = 0; entry < lines.capacity; entry++) {
      if (lines.superseded(entry)) continue;
      this.#present[entry] = 1;
      this.#size++;
    }
  }

  /** A record over the same lines holding no path yet. */
  emptyLike(): OutputRecord {
    return new OutputRecord(this.#lines);
  }

  get size(): number {
    return this.#size;
  }

  #entry(path: string): number {
    return this.#lines === undefined ? -1 : this.#lines.entryOf(path);
  }

  get(path: string): string | undefined {
    const other = this.#otherKey(path);
    if (other !== undefined) return other;
    const entry = this.#entry(path);
    return entry !== -1 && this.#present[entry] === 1 ? this.#lines!.keyOf(entry) : undefined;
  }

  /** Whether the record has `path` with key `key` (`get(path) === key`, without making the key's string). */
  hasKey(path: string, key: string): boolean {
    const other = this.#otherKey(path);
    if (other !== undefined) return other === key;
    const entry = this.#entry(path);
    return entry !== -1 && this.#present[entry] === 1 && this.#lines!.keyIs(entry, key);
  }

  /** The key of `path` in `other` (a path the lines lack, or one whose key here is another). */
  #otherKey(path: string): string | undefined {
    return this.#other.size === 0 ? undefined : this.#other.get(path);
  }

  has(path: string): boolean {
    const entry = this.#entry(path);
    return entry !== -1 ? this.#present[entry] === 1 : this.#other.has(path);
  }

  set(path: string, key: string): this {
    const entry = this.#entry(path);
    if (entry === -1) {
      if (!this.#other.has(path)) this.#size++;
      this.#other.set(path, key);
      return this;
    }
    const same = this.#lines!.keyIs(entry, key);
    if (this.#present[entry] !== 1) {
      this.#present[entry] = 1;
      this.#size++;
      if (!same) this.#other.set(path, key);
    } else if (same) this.#other.delete(path);
    else this.#other.set(path, key);
    return this;
  }

  delete(path: string): boolean {
    const entry = this.#entry(path);
    if (entry === -1) {
      if (!this.#other.delete(path)) return false;
      this.#size--;
      return true;
    }
    if (this.#present[entry] !== 1) return false;
    this.#present[entry] = 0;
    this.#other.delete(path);
    this.#size--;
    return true;
  }

  /** Every path with its key: those of the lines in their order, then the others in the order set. */
  *entries(): IterableIterator<[string, string]> {
    const lines = this.#lines;
    if (lines !== undefined) {
      for (let entry = 0; entry < lines.capacity; entry++) {
        if (this.#present[entry] !== 1) continue;
        const path = lines.pathOf(entry);
        yield [path, this.#otherKey(path) ?? lines.keyOf(entry)];
      }
    }
    for (const [path, key] of this.#other) if (this.#entry(path) === -1) yield [path, key];
  }

  /** Every path, in the order of `entries`; no key is decoded. */
  *keys(): IterableIterator<string> {
    const lines = this.#lines;
    if (lines !== undefined) {
      for (let entry = 0; entry < lines.capacity; entry++) if (this.#present[entry] === 1) yield lines.pathOf(entry);
    }
    for (const path of this.#other.keys()) if (this.#entry(path) === -1) yield path;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  /**
   * The paths of this record outside ASCII and those of a length among `lengths`; the other paths
   * of the lines are not decoded.
   */
  *keysOutsideAsciiOr(lengths: ReadonlySet<number>): IterableIterator<string> {
    const lines = this.#lines;
    if (lines !== undefined) {
      for (let entry = 0; entry < lines.capacity; entry++) {
        if (this.#present[entry] === 1 && lines.outsideAsciiOr(entry, lengths)) yield lines.pathOf(entry);
      }
    }
    for (const path of this.#other.keys()) if (this.#entry(path) === -1 && (lengths.has(path.length) || !ASCII_ONLY.test(path))) yield path;
  }

  /**
   * The paths of this record that `other` lacks. Over the same lines (`emptyLike`) a path of the
   * lines is compared by its mark, without being decoded or looked up.
   */
  *missingFrom(other: OutputRecord): IterableIterator<string> {
    const lines = this.#lines;
    if (lines === undefined || other.#lines !== lines) {
      for (const path of this.keys()) if (!other.has(path)) yield path;
      return;
    }
    for (let entry = 0; entry < lines.capacity; entry++) {
      if (this.#present[entry] === 1 && other.#present[entry] !== 1) yield lines.pathOf(entry);
    }
    for (const path of this.#other.keys()) if (lines.entryOf(path) === -1 && !other.has(path)) yield path;
  }
}

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
  // A delta describes the output as its build left it; the base, the output of an earlier build.
  const whole = readCheckedBytesWithDelta(recordFile(cacheDir, out), (header, delta) => fits(delta ?? header));
  if (whole === undefined) return undefined;
  const lines = RecordLines.parse(whole.body);
  if (lines === undefined) return undefined;
  const record = new OutputRecord(lines, true);
  const changes = new Map<string, string | null>();
  try {
    for (const line of whole.delta?.body.split('\n') ?? []) if (!readRecordLine(line, record, changes)) return undefined;
  } catch {
    return undefined;
  }
  bases.set(record, { checksum: whole.header.checksum as string, delta: changes });
  return record;
}

/** Read one `<key> <path>` line of a delta into `record` and `changes` (key `- -` removes a path); false when malformed. */
function readRecordLine(line: string, record: OutputRecord, changes: Map<string, string | null>): boolean {
  if (line === '') return true;
  const second = line.indexOf(' ', line.indexOf(' ') + 1);
  if (second === -1) return false;
  const stored = line.slice(second + 1);
  const path = stored.startsWith('"') ? (JSON.parse(stored) as string) : stored;
  const key = line.slice(0, second);
  if (key === GONE) {
    record.delete(path);
    changes.set(path, null);
    return true;
  }
  record.set(path, key);
  changes.set(path, key);
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
