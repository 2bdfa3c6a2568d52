/**
 * The build cache of `--incremental` (issue 5): what loading each skill folder produced, keyed by
 * a hash of the folder's input, so an unchanged skill skips parsing and validation.
 *
 * One file per content folder (its name is a hash of the content folder's real path; the path is
 * also stored and checked, so a cache never leaks into another content folder), in a cache folder
 * outside the output (default `node_modules/.cache/skills-api/` under the working directory, the
 * find-cache-dir convention). Format: newline-delimited JSON — a header line, then one line per
 * skill folder — so neither writing nor reading needs one string of the whole cache (tens of
 * megabytes for a large directory). The header holds the SHA-256 of the lines after it and of the build code that
 * made them: a file that is truncated, corrupt, foreign or from another version of the build is
 * ignored as a whole, and the build loads everything. The file is replaced atomically (written
 * beside it, then renamed) and only after the output was swapped in; since entries are keyed by
 * input hashes, even an older cache is never wrong, only less useful. A build that changed few
 * folders leaves that file (the base) as it is and writes their lines, and `{dir, gone}` lines for
 * folders gone, into a delta beside it (builder/checked-file.ts `writeDeltaFile`: it names the
 * base's checksum and holds every change since the base was written); past 1% of the folders the
 * base is written whole again, the lines of unchanged folders copied from the old base.
 *
 * A record is stored whole but for the parts derived from the SKILL.md bytes (its fields of an
 * object or list value that an incremental build does not read of every skill go after a tab on
 * the line, parsed only when read, see `HEAD_KEYS`; format 7: then, after another tab, the
 * record's quality signals, which the build's thread never parses): the text (`raw`, `body`) is left out,
 * where the body starts in it is the line's `bodyAt`, and the SHA-256 and size are stored as
 * `null` (the loader derives them from the file's bytes, or has them from the folder's stamp);
 * `checks`, computed over the whole directory after loading, and `archive`, set when the build
 * writes it, are never stored. The stored type is derived from `SkillRecord` and a record is
 * restored by adding only those parts, so a field added to
 * the record is carried by the cache without any change here (`test/build-incremental.test.ts`
 * compares incremental builds of imported skills byte for byte with clean ones). Beside the record,
 * a line keeps the values derived from it (builder/record-memo.ts: the change log's state hash,
 * the search document key, the list summary's hash), given back to the record restored from that
 * line; the modules that compute them are part of the code hash, so values of other code are
 * never read.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deltaFile, readCheckedLines, readCheckedLinesWithDelta, writeCheckedFileWhole, writeDeltaFile } from './checked-file.ts';
import type { Problem, SkillRecord } from './model.ts';
import { isDerived, knownDerived, type DerivedValues } from './record-memo.ts';
import { Lru } from '../src/lru.ts';

/** The parts of a record derived from the SKILL.md bytes that are stored as `null`. */
type FromSkillMd = 'sha' | 'size';

/**
 * A skill record as stored: every field of `SkillRecord` (optional ones stay optional) but
 * `checks`, `archive` and the SKILL.md text (`raw`, `body`), with its SHA-256 and size `null`.
 * Where the body starts in the text is the entry's `bodyAt`.
 */
export type StoredRecord = {
  [K in keyof Omit<SkillRecord, 'checks' | 'archive' | 'raw' | 'body'>]: K extends FromSkillMd ? null : SkillRecord[K];
};

/** What loading one skill folder produced (collisions with other folders excluded). */
export interface CachedSkill<R = SkillRecord | StoredRecord> {
  /** SHA-256 of the folder's input (see `loadContent`). */
  hash: string;
  problems: Problem[];
  record?: R;
  /** With a stored record: where its body starts in the SKILL.md text (the record holds no text). */
  bodyAt?: number;
  /**
   * With a stored record: its fields stored apart on the line (`<names>\t<JSON array of their
   * values>`, see `HEAD_KEYS`), given back when the record is restored.
   */
  tail?: StoredTail;
  /**
   * The folder's file-system stamp when it was read (builder/folder-stamp.ts), kept only when it
   * was settled: a later load whose stamp is the same re-uses this result without reading the
   * folder (the record's SKILL.md text is read only if asked for).
   */
  stamp?: string;
  /** SHA-256 and size of the folder's SKILL.md as read, with `stamp` and a record. */
  skill?: { sha: string; size: number };
  /**
   * The record's own quality signals (builder/quality/), once computed: they depend on its input
   * alone. As stored (`signalsText`, JSON), handed to the quality thread without being parsed.
   */
  signals?: string;
  /**
   * Values derived from the stored record alone (builder/record-memo.ts), as read with it: given
   * to the record when it is restored. A line is written with the values its record has then.
   */
  derived?: DerivedValues;
  /**
   * The stored line this entry was read from a delta, while the entry is that line's exactly (a
   * folder re-used by its stamp): written back as it is instead of serialized again. Never stored itself.
   */
  line?: string;
  /**
   * Set while the entry is exactly its line in the stored base file (read from it, then re-used
   * by its stamp): a delta leaves it out, and a whole write copies that line from the base file.
   * The line itself is not kept (100k lines would hold the whole file in the heap). Never stored.
   */
  inBase?: true;
}

/** The per-skill results of one load of one content folder. */
export interface LoadCache<R = SkillRecord | StoredRecord> {
  /** The content folder's real path. */
  contentDir: string;
  /** Hash of what every skill's validation depends on (categories, platforms). */
  shared: string;
  /** By skill folder (`skills/<owner>/<repo>`). */
  skills: Map<string, CachedSkill<R>>;
  /**
   * The stored base file these results were read from (its checksum and folders), when a later
   * write may add a delta to it instead of writing every line again.
   */
  base?: { checksum: string; dirs: ReadonlySet<string> };
}

const FORMAT = 'skills-api-build-cache';
const VERSION = 7;

/** The default cache folder: `node_modules/.cache/skills-api` under the working directory. */
function defaultCacheDir(): string {
  return resolve('node_modules', '.cache', 'skills-api');
}

/** The build cache folder of option `cacheDir` (the default's when undefined), resolved. */
export function resolveCacheDir(cacheDir: string | undefined): string {
  return resolve(cacheDir ?? defaultCacheDir());
}

/** The cache file of content folder `contentDir` (a real path) in `cacheDir`. */
export function cacheFile(cacheDir: string, contentDir: string): string {
  return join(resolve(cacheDir), `content-${sha256(contentDir).slice(0, 16)}.ndjson`);
}

/**
 * The stored cache of `contentDir` (a real path) in `cacheDir`, or undefined when there is none
 * or it cannot be trusted (wrong format, version, build code, content folder or checksum, or a
 * line of the wrong shape).
 */
export function readLoadCache(cacheDir: string, contentDir: string): LoadCache<StoredRecord> | undefined {
  const trusted = (head: Record<string, unknown>): boolean =>
    head.format === FORMAT && head.version === VERSION && head.code === codeHash() && head.contentDir === contentDir && typeof head.shared === 'string';
  const skills = new Map<string, CachedSkill<StoredRecord>>();
  let dirs: Set<string> | undefined;
  const read = readCheckedLinesWithDelta(cacheFile(cacheDir, contentDir), {
    accept: trusted,
    // The delta: lines of folders changed since the base was written, and folders gone from it.
    takeDelta: (delta, header) => trusted(delta) && delta.shared === header.shared,
    line: (line, inBase, tail) => {
      if (!inBase) dirs ??= new Set(skills.keys());
      return readLine(line, skills, inBase, tail);
    },
    tails: true,
  });
  if (read === undefined) return undefined;
  return { contentDir, shared: read.header.shared as string, skills, base: { checksum: read.header.checksum as string, dirs: dirs ?? new Set(skills.keys()) } };
}

/**
 * Read one stored line into `skills` (a `{dir, gone: true}` line of a delta removes one), `tail`
 * its text after the first tab (the record's fields stored apart, given back by
 * `restoreRecordLazily` or `restoreRecord`); false when of the wrong shape.
 */
function readLine(line: string, skills: Map<string, CachedSkill<StoredRecord>>, inBase: boolean, tail: string | undefined): boolean {
  if (line === '') return tail === undefined;
  const entry = parseOrUndefined(line);
  if (!inBase && isObject(entry) && entry.gone === true && typeof entry.dir === 'string') {
    skills.delete(entry.dir);
    return tail === undefined;
  }
  if (!isStoredEntry(entry)) return false;
  // Made field by field: a line per skill folder, and spreads of optional parts cost more here.
  const cached: CachedSkill<StoredRecord> = { hash: entry.hash, problems: entry.problems };
  if (inBase) cached.inBase = true;
  else cached.line = tail === undefined ? line : `${line}\t${tail}`;
  if (entry.record !== undefined) {
    // A record's line goes on with `<names>\t<values>\t<signals>` (`lineOf`).
    const names = tail === undefined ? -1 : tail.indexOf('\t');
    const values = names === -1 ? -1 : tail!.indexOf('\t', names + 1);
    if (values === -1) return false;
    if (names > 0) {
      const shape = tailShape(tail!.slice(0, names));
      if (shape === undefined) return false;
      for (const key of shape.names) if (key in entry.record) return false;
      cached.tail = { shape, text: tail!.slice(names + 1, values), values: undefined };
    } else if (values !== names + 1) return false;
    if (values + 1 < tail!.length) cached.signals = tail!.slice(values + 1);
    cached.record = entry.record;
    cached.bodyAt = entry.bodyAt;
  } else if (tail !== undefined) return false;
  if (entry.stamp !== undefined) cached.stamp = entry.stamp;
  if (entry.skill !== undefined) cached.skill = entry.skill;
  if (entry.derived !== undefined) cached.derived = entry.derived;
  skills.set(entry.dir, cached);
  return true;
}

/** The files of the build cache of `contentDir` (a real path): the base file and its delta. */
export function cacheFiles(cacheDir: string, contentDir: string): [base: string, delta: string] {
  const file = cacheFile(cacheDir, contentDir);
  return [file, deltaFile(file)];
}

/**
 * Store `cache` in `cacheDir`, replacing the content folder's previous cache atomically. Records
 * must be full records (this load's), whose derived parts are dropped here.
 */
export function writeLoadCache(cacheDir: string, cache: LoadCache<SkillRecord>): void {
  const header = { format: FORMAT, version: VERSION, code: codeHash(), contentDir: cache.contentDir, shared: cache.shared };
  const file = cacheFile(cacheDir, cache.contentDir);
  // Over a base of the same shared inputs, only the folders whose line is not the base's go into
  // a delta beside it, while that delta stays small; otherwise every line is written again.
  const base = cache.base;
  if (base !== undefined) {
    const changed: string[] = [];
    const limit = Math.max(DELTA_MIN, Math.floor(cache.skills.size / 100));
    for (const [dir, entry] of cache.skills) {
      if (entry.inBase === true) continue;
      changed.push(lineOf(dir, entry));
      if (changed.length > limit) break;
    }
    for (const dir of base.dirs) {
      if (changed.length > limit) break;
      if (!cache.skills.has(dir)) changed.push(JSON.stringify({ dir, gone: true }));
    }
    if (changed.length <= limit) {
      writeDeltaFile(file, base.checksum, header, changed.length === 0 ? '' : `${changed.join('\n')}\n`);
      return;
    }
  }
  // Unchanged folders' lines as the base file has them (not serialized again: that would read
  // the SKILL.md text of every record restored without it).
  const baseLines = base === undefined ? undefined : baseLinesOf(file, base.checksum);
  const lines: string[] = [];
  for (const [dir, entry] of cache.skills) lines.push((entry.inBase === true ? baseLines?.get(dir) : undefined) ?? lineOf(dir, entry));
  const body = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  writeCheckedFileWhole(file, header, body);
}

/** The lines of base file `file` by folder, when it is still the base of checksum `checksum`. */
function baseLinesOf(file: string, checksum: string): Map<string, string> | undefined {
  const lines = new Map<string, string>();
  const read = readCheckedLines(file, (header) => header.checksum === checksum, (line) => {
    const dir = line === '' ? undefined : dirOf(line);
    if (dir !== undefined) lines.set(dir, line);
  });
  return read === undefined ? undefined : lines;
}

/** The folder of a stored line, its first key (`lineOf`), read without parsing the rest. */
function dirOf(line: string): string | undefined {
  if (!line.startsWith('{"dir":"')) return undefined;
  for (let i = 8; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x5c) i++; // an escape: skip the character after the backslash
    else if (c === 0x22) {
      const dir = parseOrUndefined(line.slice(7, i + 1));
      return typeof dir === 'string' ? dir : undefined;
    }
  }
  return undefined;
}

/** A delta of the build cache holds at most this many lines, or 1% of the folders when more. */
const DELTA_MIN = 64;

/** The stored line of one folder's result: the line it was read from when unchanged. */
function lineOf(dir: string, { hash, problems, record, stamp, skill, signals, line }: CachedSkill<SkillRecord>): string {
  if (line !== undefined) return line;
  // Peeked only: a value not computed by this build is computed by the one that needs it.
  const derived = record === undefined ? undefined : knownDerived(record);
  const parts = record === undefined ? undefined : stored(record);
  const head = JSON.stringify({
    dir,
    hash,
    problems,
    ...(record === undefined ? {} : { record: parts!.head, bodyAt: textOffset(record) }),
    ...(stamp === undefined ? {} : { stamp }),
    ...(skill === undefined ? {} : { skill }),
    ...(derived === undefined ? {} : { derived }),
  });
  // The signals last, apart: the build's thread hands them to the quality thread as text.
  if (parts === undefined) return head;
  return parts.tail.length === 0 ? `${head}\t\t\t${signals ?? ''}` : `${head}\t${parts.tail.join(',')}\t${JSON.stringify(parts.values)}\t${signals ?? ''}`;
}

/** Keys of a record that are not stored (the SKILL.md text; `checks` and `archive`, set later in the build). */
const NOT_IN_LINE = ['raw', 'body', 'checks', 'archive'];
const NOT_STORED = new Set(NOT_IN_LINE);

/**
 * `record` as stored: its keys in their order but the text, `checks` and `archive`, with the
 * SKILL.md's SHA-256 and size blanked: in `head` the keys of `HEAD_KEYS` and those of a plain
 * value or a name a tail cannot hold (`TAIL_NAME`), the others (`tail`) with their `values` apart.
 * The text is not read (a record may read it on demand).
 */
function stored(record: SkillRecord): { head: StoredRecord; tail: string[]; values: unknown[] } {
  const values = record as unknown as Record<string, unknown>;
  const head: Record<string, unknown> = {};
  const tail: string[] = [];
  const tailValues: unknown[] = [];
  for (const key of Object.keys(record)) {
    if (NOT_STORED.has(key)) continue;
    const value = values[key];
    if (HEAD_KEYS.has(key) || typeof value !== 'object' || value === null || !TAIL_NAME.test(key)) head[key] = key === 'sha' || key === 'size' ? null : value;
    else {
      tail.push(key);
      tailValues.push(value);
    }
  }
  return { head: head as StoredRecord, tail, values: tailValues };
}

/**
 * The keys of a stored record parsed with its line: those an incremental build reads of every
 * skill (sorting, the search index, lists, the change log), and every one of a plain value. The
 * others, of objects and lists (front matter, statistics, files, install commands, author, …),
 * follow the line's first tab as `<keys>\t<JSON array of their values>` and are parsed only when
 * one of them is read (`restoreRecordLazily`; `restoreRecord` parses them at once): an unchanged
 * skill's detail and statistics are kept, not made again, so most records never parse them, and
 * a value is cheap to parse next to the objects it would be an accessor for.
 */
const HEAD_KEYS = new Set(['id', 'owner', 'repo', 'dir', 'name', 'description', 'sha', 'size', 'stars', 'updatedAt', 'categories', 'platforms', 'hasIndex']);

/**
 * A field name a tail may hold: an identifier (no `,` or tab, which separate the tail's parts).
 * A field of another name stays in the line's JSON.
 */
const TAIL_NAME = /^[A-Za-z_$][\w$]*$/;

/** The tail of a line whose names are `keys` (`<name>,<name>…`) and their accessors; undefined when not of that shape. */
function tailShape(keys: string): TailShape | undefined {
  let shape = tailShapes.get(keys);
  if (shape === undefined) {
    const names = keys.split(',');
    if (!names.every((key) => TAIL_NAME.test(key) && !HEAD_KEYS.has(key) && !NOT_STORED.has(key)) || new Set(names).size !== names.length) return undefined;
    const accessors = Object.fromEntries(names.map((key, i) => [key, tailAccessor(i)]));
    shape = { keys, names, withText: { ...accessors, ...TEXT_ON_DEMAND } };
    tailShapes.set(keys, shape);
  }
  return shape;
}

/** A tail's names and the accessors a record restored lazily gets: its fields', then its text's. */
export interface TailShape {
  keys: string;
  names: string[];
  withText: PropertyDescriptorMap;
}

/** Every tail shape seen (by its names as stored), shared by every record of it. */
const tailShapes = new Map<string, TailShape>();

/** A line's tail as read (`tailShape`): its values' JSON until they are parsed, then the values. */
export interface StoredTail {
  shape: TailShape;
  text: string | undefined;
  values: unknown[] | undefined;
}

/** The accessor of the `i`th field of a tail. */
function tailAccessor(i: number): PropertyDescriptor {
  return {
    get(this: object): unknown {
      return valuesOf(this)[i];
    },
    set(this: object, value: unknown): void {
      valuesOf(this)[i] = value;
    },
    enumerable: true,
    configurable: true,
  };
}

function valuesOf(record: object): unknown[] {
  const tail = textSources.get(record)?.tail;
  if (tail === undefined) throw new Error('the stored fields of a skill record were asked of another object (one made with the record as its prototype)');
  if (tail.values === undefined) {
    tail.values = tailValuesOf(tail.text!, tail.shape, (record as { dir?: unknown }).dir);
    tail.text = undefined;
  }
  return tail.values;
}

/** The values of tail `values` (JSON) of `shape`; throws naming folder `dir` when they do not fit (the file's checksum held: only a bug gets here). */
function tailValuesOf(values: string, shape: TailShape, dir: unknown): unknown[] {
  const parsed = parseOrUndefined(values);
  if (!Array.isArray(parsed) || parsed.length !== shape.names.length) throw new Error(`the build cache line of ${String(dir)} holds no values for ${shape.keys}: delete the build cache and build again`);
  return parsed;
}

/** Where `record`'s body starts in its SKILL.md text (read only when the record holds its text). */
export function textOffset(record: SkillRecord): number {
  return textSources.get(record)?.offset ?? record.raw.length - record.body.length;
}

/**
 * The full record of a stored one, given the text, SHA-256 and size of the SKILL.md it was made
 * from, where the body starts in it (`bodyAt`) and its line's `tail` (the fields stored apart);
 * the tail's keys come after the others, the text's last, as in every record of the build
 * (`withTextOnDemand`).
 */
export function restoreRecord(record: StoredRecord, raw: string, sha: string, size: number, bodyAt: number, tail?: StoredTail): SkillRecord {
  const full = { ...record } as Record<string, unknown>;
  if (tail !== undefined) {
    const values = tail.values ?? tailValuesOf(tail.text!, tail.shape, record.dir);
    tail.shape.names.forEach((name, i) => (full[name] = values[i]));
  }
  full.sha = sha;
  full.size = size;
  full.raw = raw;
  full.body = raw.slice(bodyAt);
  return full as unknown as SkillRecord;
}

/**
 * The full record of a stored one whose SKILL.md text is read only when asked for (`read`, see
 * `withTextOnDemand`), made of the stored record itself: the caller's, just parsed. Accessors
 * added (not redefined) keep its properties fast, and every record of one shape shares them; the
 * fields of its line's `tail` become accessors too, parsed when one is first read. An
 * incremental build needs the text of an unchanged skill only where nothing of it was kept (its
 * detail, its search tokens, its quality signals all were); the build sets fields on records in
 * place rather than copy them.
 */
export function restoreRecordLazily(record: StoredRecord, sha: string, size: number, bodyAt: number, read: () => string, tail?: StoredTail): SkillRecord {
  const full = record as unknown as { sha: string; size: number };
  full.sha = sha;
  full.size = size;
  // The line's tail (its fields apart) parsed only when one of them is read, then the text: one
  // step adds every accessor.
  Object.defineProperties(record, tail === undefined ? TEXT_ON_DEMAND : tail.shape.withText);
  textSources.set(record, { key: String(++textRecords), offset: bodyAt, read, tail });
  return record as unknown as SkillRecord;
}

/**
 * `record` with `raw` and `body` (the text from `offset` on) as accessors, last of its keys, that
 * read its SKILL.md text with `read` when asked for, instead of holding it: 100k records would
 * hold every SKILL.md of the directory from the load to the search index. The last texts read are
 * kept a while (`recentTexts`), since a step reads a skill's `raw` and `body` together. `read`
 * must give the text the record was made from or throw. A new object: accessors put on the record
 * itself in place of its `raw` and `body` would turn its properties into a dictionary, several
 * times the size (BENCHMARKS.md).
 */
export function withTextOnDemand(record: SkillRecord, offset: number, read: () => string): SkillRecord {
  // Made in one step from descriptors: an object grown a key at a time, or given an object
  // literal's getters, turns into a dictionary too. The descriptors are those of the last record
  // of the same keys, given this one's values: made for each record, they cost three times as much.
  const keys = Object.keys(record);
  if (!sameKeys(keys, shape.keys)) shape = { keys, descriptors: descriptorsOf(keys) };
  const { descriptors } = shape;
  const values = record as unknown as Record<string, unknown>;
  for (const key of keys) {
    if (key === 'raw' || key === 'body') continue;
    descriptors[key]!.value = values[key];
  }
  const out = Object.create(Object.prototype, descriptors) as object;
  // A key of this record's own: a record made later of the same folder reads its file itself.
  textSources.set(out, { key: String(++textRecords), offset, read, tail: undefined });
  return out as unknown as SkillRecord;
}

/** The keys and property descriptors of the last record made by `withTextOnDemand`. */
let shape: { keys: readonly string[]; descriptors: Record<string, PropertyDescriptor> } = { keys: [], descriptors: {} };

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Descriptors of a record of `keys`: the values set per record, then `raw` and `body` read on
 * demand, last, as `restoreRecordLazily` adds them.
 */
function descriptorsOf(keys: readonly string[]): Record<string, PropertyDescriptor> {
  const descriptors: Record<string, PropertyDescriptor> = {};
  for (const key of keys) {
    if (key !== 'raw' && key !== 'body') descriptors[key] = { value: undefined, writable: true, enumerable: true, configurable: true };
  }
  return Object.assign(descriptors, TEXT_ON_DEMAND);
}

/** The accessors of a record's text (`withTextOnDemand`). */
const TEXT_ON_DEMAND: Record<'raw' | 'body', PropertyDescriptor> = {
  raw: { get: rawOnDemand, enumerable: true, configurable: true },
  body: { get: bodyOnDemand, enumerable: true, configurable: true },
};

/** Whether `record`'s text is read when asked for (`withTextOnDemand`) rather than held. */
export function readsTextOnDemand(record: SkillRecord): boolean {
  return textSources.has(record);
}

/** Where the records of `withTextOnDemand` read their text. */
const textSources = new WeakMap<object, { key: string; offset: number; read: () => string; tail: StoredTail | undefined }>();

/** Records made by `withTextOnDemand` so far, which numbers them. */
let textRecords = 0;

/** SKILL.md texts read lately by `withTextOnDemand`'s records, by record, up to this many characters in all. */
const recentTexts = new Lru<string>(256 * 1024);

// One getter for every record (each record's own would give each its own hidden class).
function rawOnDemand(this: object): string {
  return textOf(this);
}

function bodyOnDemand(this: object): string {
  return textOf(this).slice(textSources.get(this)!.offset);
}

function textOf(record: object): string {
  const source = textSources.get(record);
  if (source === undefined) throw new Error('the SKILL.md text of a skill record was asked of another object (one made with the record as its prototype)');
  let text = recentTexts.get(source.key);
  if (text === undefined) {
    text = source.read();
    recentTexts.set(source.key, text, text.length);
  }
  return text;
}

/** Loose shape check of a stored line: enough that a foreign or damaged file is never used. */
function isStoredEntry(entry: unknown): entry is { dir: string; hash: string; problems: Problem[]; record?: StoredRecord; bodyAt?: number; stamp?: string; skill?: { sha: string; size: number }; derived?: DerivedValues } {
  if (!isObject(entry) || typeof entry.dir !== 'string' || typeof entry.hash !== 'string' || !Array.isArray(entry.problems)) return false;
  if (entry.derived !== undefined && (entry.record === undefined || !isDerived(entry.derived))) return false;
  if (entry.stamp !== undefined && typeof entry.stamp !== 'string') return false;
  const skill = entry.skill;
  if (skill !== undefined && !(isObject(skill) && typeof skill.sha === 'string' && Number.isSafeInteger(skill.size))) return false;
  if (!entry.problems.every((p) => isObject(p) && typeof p.file === 'string' && typeof p.message === 'string')) return false;
  const record = entry.record;
  if (record === undefined) return true;
  return (
    // The body starts inside the text: at most its UTF-8 size, which no UTF-16 length exceeds.
    isObject(record) && record.dir === entry.dir && typeof record.id === 'string' && Number.isSafeInteger(entry.bodyAt) && (entry.bodyAt as number) >= 0 &&
    (skill === undefined || (entry.bodyAt as number) <= (skill as { size: number }).size) &&
    !NOT_IN_LINE.some((key) => key in record) && record.sha === null && record.size === null
  );
}

let code: string | undefined;

/**
 * SHA-256 of the build code that decides what a load produces (the loader's modules and the
 * versions of `yaml` and `zod`), so a changed loader never re-uses results of the old one.
 */
function codeHash(): string {
  if (code !== undefined) return code;
  const hash = createHash('sha256');
  // `.ts` in a clone, `.js` in the compiled package.
  const extension = import.meta.url.endsWith('.js') ? '.js' : '.ts';
  const here = (file: string): string => fileURLToPath(new URL(file.replace(/\.ts$/, extension), import.meta.url));
  const require = createRequire(import.meta.url);
  const files = [
    'build-cache.ts', 'content-schemas.ts', 'folder-stamp.ts', 'skill-folder.ts', 'quality/index.ts', 'quality/duplicates.ts', 'quality/scan.ts', 'quality/spec-rules.ts', '../src/text/front-matter.ts', '../src/text/printable.ts', 'load-content.ts', 'model.ts', 'problems.ts', 'safe-read.ts',
    'skill-names.ts', 'sort-orders.ts', '../src/paths.ts', '../src/skill-files.ts',
    // What computes the values derived from each record and stored beside it (builder/record-memo.ts).
    'record-memo.ts', 'changes.ts', 'search-corpus.ts', 'page-memo.ts', 'summary.ts',
  ].map(here);
  try {
    for (const file of [...files, require.resolve('yaml/package.json'), require.resolve('zod/package.json')]) {
      hash.update(file).update('\0').update(readFileSync(file)).update('\0');
    }
    code = hash.digest('hex');
  } catch {
    // Sources not at hand (a bundled build): a value no stored cache can match.
    code = `unknown-${randomUUID()}`;
  }
  return code;
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
