/**
 * The change log (docs/api.md "Changes"): `changes.ndjson` in the content folder, one entry a
 * line, appended by the build and never rewritten. It lives with the content, not in a cache, so
 * a fresh clone on a fresh machine publishes the same history.
 *
 * Each build compares the skills it loaded with the last state the log holds for each id:
 * a skill the log does not hold (or holds as removed) is `added`, one whose state hash
 * (`skillStateHash`) differs is `updated`, an id the log holds that is neither loaded nor skipped
 * by `--skip-invalid` is `removed`. New entries are sorted by id and stamped with one time, the
 * build's (`SOURCE_DATE_EPOCH` when set), never earlier than the last entry. The build writes the
 * log (whole, atomically) after the output is complete and before it is swapped in, so a failed
 * build appends nothing, and a build without changes does not touch the file.
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { START_CURSOR } from '../src/changes.ts';
import { CHANGES_PAGE_SIZE, OWNER_RE, REPO_RE, changesPagePath } from '../src/paths.ts';
import type { ChangeEntry, ChangesResponse } from '../src/schemas.ts';
import { readCheckedFile, writeCheckedFile } from './checked-file.ts';
import type { Emit, Problem, SkillRecord } from './model.ts';
import { derivedOf } from './record-memo.ts';
import { isMissing } from './safe-read.ts';
import { compareCodeUnits } from './sort-orders.ts';

/** The log's file name in the content folder. */
export const CHANGE_LOG_FILE = 'changes.ndjson';

/** A file of a skill as the hash sees it. */
interface HashedFile {
  path: string;
  size: number;
  sha256: string;
}

/**
 * The SHA-256 of a skill's published state: a canonical form (a JSON array in a fixed order,
 * install commands and files sorted) of its name, description, categories, platforms, license,
 * install commands and every file of the skill with its size and SHA-256. The files are the
 * record's `files` when it has such a list, else SKILL.md alone, so a record listing only its
 * SKILL.md hashes the same either way. The content folder's metadata files are never among them
 * (builder/skill-folder.ts); a skill's own `skill.json` or `stats.json`, kept escaped in the
 * content (`_skill.json`), is, under its own name. Counters (stars, forks, stats), dates and the source commit
 * are left out: they change without the skill changing.
 */
export function skillStateHash(skill: SkillRecord): string {
  // Once per record: a record restored from the build cache brings it (builder/record-memo.ts).
  const memo = derivedOf(skill);
  return (memo.state ??= stateHashOf(skill));
}

function stateHashOf(skill: SkillRecord): string {
  const listed = (skill as { files?: readonly HashedFile[] }).files;
  const files = (listed ?? [{ path: 'SKILL.md', size: skill.size, sha256: skill.sha }])
    .map((file): [string, number, string] => [file.path, file.size, file.sha256])
    .sort(([a], [b]) => compareCodeUnits(a, b));
  const canonical = JSON.stringify([
    'skills-api skill state 1',
    skill.name,
    skill.description,
    [...skill.categories].sort(compareCodeUnits),
    [...skill.platforms].sort(compareCodeUnits),
    skill.license,
    Object.entries(skill.installCommands).sort(([a], [b]) => compareCodeUnits(a, b)),
    files,
  ]);
  return sha256(canonical);
}

/** The cursor of the entry after the one named `previous` (`START_CURSOR` before the first). */
export function nextCursor(previous: string, position: number, entry: Omit<ChangeEntry, 'cursor'>): string {
  const chained = sha256(`${previous}\n${entry.at}\n${entry.id}\n${entry.change}\n${entry.sha256}`);
  return `${position}-${chained.slice(0, 16)}`;
}

/** The log of a content folder as read: its entries and its exact bytes (undefined: no file yet). */
export interface ChangeLog {
  entries: ChangeEntry[];
  bytes: Buffer | undefined;
}

/**
 * The first bytes of a log that an earlier build of the same build code read and found sound
 * (`readLogRecord`): how many, their SHA-256 in hex and how many entries they hold.
 */
export interface SoundPrefix {
  bytes: number;
  sha256: string;
  entries: number;
}

/**
 * Read and check `<contentDir>/changes.ndjson`. Any damage is a problem naming the file and the
 * line (never repaired: the history is what mirrors have seen): a line that is not one entry
 * object, a cursor that does not follow from the entries before it, a time earlier than the
 * previous entry's, an `added` of a skill the log holds, an `updated` or `removed` of one it does not.
 * With `sound`, when the log still starts with exactly those bytes, their lines are only parsed:
 * they were checked when those bytes were read before, and any edit of them changes their hash.
 */
export function readChangeLog(contentDir: string, sound?: SoundPrefix): { log: ChangeLog; problems: Problem[] } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(contentDir, CHANGE_LOG_FILE));
  } catch (error) {
    if (isMissing(error)) return { log: { entries: [], bytes: undefined }, problems: [] };
    throw error;
  }
  const entries: ChangeEntry[] = [];
  const text = bytes.toString('utf8');
  const lines = text.split('\n');
  // The file ends with a newline; what follows the last one is no line.
  if (lines.at(-1) === '') lines.pop();
  const trusted = soundLines(bytes, sound, lines.length);
  // Each id's last state, for the checks of the lines after the sound ones (made when one comes).
  let live: Map<string, string> | undefined;
  for (const [i, line] of lines.entries()) {
    const fail = (message: string): { log: ChangeLog; problems: Problem[] } => ({
      log: { entries, bytes },
      problems: [{ file: CHANGE_LOG_FILE, field: `line ${i + 1}`, message: `${message}. The build never repairs the log: restore it (from git, for instance) and build again` }],
    });
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return fail('not a JSON object');
    }
    const entry = asEntry(value, i < trusted);
    if (typeof entry === 'string') return fail(entry);
    if (i < trusted) {
      entries.push(entry);
      continue;
    }
    live ??= liveStates(entries);
    const previous = entries.at(-1);
    const expected = nextCursor(previous?.cursor ?? START_CURSOR, i + 1, entry);
    if (entry.cursor !== expected) return fail(`cursor ${JSON.stringify(entry.cursor)} does not follow from the entries before it (expected ${expected}): the log was edited`);
    if (previous !== undefined && entry.at < previous.at) return fail(`at ${entry.at} is earlier than the previous entry's ${previous.at}`);
    const state = live.get(entry.id);
    if (entry.change === 'added' && state !== undefined) return fail(`${entry.id} is added but the log already holds it`);
    if (entry.change !== 'added' && state === undefined) return fail(`${entry.id} is ${entry.change} but the log does not hold it`);
    if (entry.change === 'removed') live.delete(entry.id);
    else live.set(entry.id, entry.sha256);
    entries.push(entry);
  }
  return { log: { entries, bytes }, problems: [] };
}

/**
 * How many of the log's `count` lines lie in `sound`, its sound first bytes: all of its entries
 * when the log starts with those very bytes (they end a line), else none.
 */
function soundLines(bytes: Buffer, sound: SoundPrefix | undefined, count: number): number {
  if (sound === undefined || sound.bytes <= 0 || sound.bytes > bytes.length || sound.entries > count) return 0;
  if (bytes[sound.bytes - 1] !== 0x0a) return 0;
  return sha256(bytes.subarray(0, sound.bytes)) === sound.sha256 ? sound.entries : 0;
}

const SOUND_FORMAT = 'skills-api-change-log-sound';
const SOUND_VERSION = 1;

/** Where an `--incremental` build keeps the sound prefix of content folder `root`'s log (a real path). */
function soundFile(cacheDir: string, root: string): string {
  return join(resolve(cacheDir), `changes-${sha256(root).slice(0, 16)}.json`);
}

/** What the last `--incremental` build remembered of a content folder's log (`readLogRecord`). */
export interface LogRecord {
  /** The build code that checked the prefix: only a build of the same code trusts it. */
  code: unknown;
  prefix: SoundPrefix;
  /** The file it is kept in (named in messages). */
  file: string;
}

/**
 * What the last `--incremental` build into `cacheDir` remembered of content folder `root`'s log
 * (`rememberSoundLog`), whatever its build code; undefined when there is none it can read.
 */
export function readLogRecord(cacheDir: string, root: string): LogRecord | undefined {
  const file = soundFile(cacheDir, root);
  const read = readCheckedFile(file);
  if (read === undefined) return undefined;
  const { header, body } = read;
  if (header.format !== SOUND_FORMAT || header.version !== SOUND_VERSION || header.contentDir !== root) return undefined;
  try {
    const { bytes, sha256: hash, entries } = JSON.parse(body) as Partial<SoundPrefix>;
    if (!Number.isSafeInteger(bytes) || !Number.isSafeInteger(entries) || typeof hash !== 'string') return undefined;
    return { code: header.code, prefix: { bytes: bytes!, sha256: hash, entries: entries! }, file };
  } catch {
    return undefined;
  }
}

/** The sound prefix of `record` that a build of build code `code` can trust (`readChangeLog`). */
export function soundPrefixOf(record: LogRecord | undefined, code: string): SoundPrefix | undefined {
  return record?.code === code ? record.prefix : undefined;
}

/**
 * The problem of a log of `entries` entries, shorter than the one the last `--incremental` build
 * left (`record`, whatever build code it ran): its last lines are gone (a checkout that lost them,
 * a log not committed), and building on would publish other cursors for the same changes.
 * Undefined when the log is no shorter, or no build left a record of it.
 */
export function shortenedLogProblem(record: LogRecord | undefined, entries: number): Problem | undefined {
  if (record === undefined || entries >= record.prefix.entries) return undefined;
  return {
    file: CHANGE_LOG_FILE,
    message: `holds ${entries} entries, fewer than the ${record.prefix.entries} the last build left in it: its last lines are gone, and mirrors may hold their cursors. The build never repairs the log: restore it (from git, for instance; commit it after every build) and build again, or remove ${record.file} to start the history anew`,
  };
}

/**
 * Remember in `cacheDir` that `bytes`, content folder `root`'s log as this build left it (checked,
 * and what it appended), are sound, with their `entries` entries; the next build of the same build
 * code then checks only what follows them. Never throws: without it, the next build checks every line.
 */
export function rememberSoundLog(cacheDir: string, root: string, code: string, bytes: Buffer | undefined, entries: number): void {
  const file = soundFile(cacheDir, root);
  try {
    // Only bytes that end a line can be a prefix of a longer log.
    if (bytes === undefined || bytes.length === 0 || bytes[bytes.length - 1] !== 0x0a) rmSync(file, { force: true });
    else writeCheckedFile(file, { format: SOUND_FORMAT, version: SOUND_VERSION, code, contentDir: root }, JSON.stringify({ bytes: bytes.length, sha256: sha256(bytes), entries }));
  } catch {
    // The next build only checks the whole log again.
  }
}

const KEYS = ['cursor', 'at', 'id', 'change', 'sha256'];
const CHANGES = new Set(['added', 'updated', 'removed']);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The entry of one parsed line, or what is wrong with it. A `sound` line (see `readChangeLog`)
 * only gets its fields in their fixed order, as the pages publish them.
 */
function asEntry(value: unknown, sound = false): ChangeEntry | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  if (sound) {
    const { cursor, at, id, change, sha256: hash } = value as ChangeEntry;
    return { cursor, at, id, change, sha256: hash };
  }
  const keys = Object.keys(value);
  if (keys.length !== KEYS.length || !KEYS.every((key) => keys.includes(key))) return `expected exactly the fields ${KEYS.join(', ')}`;
  const { cursor, at, id, change, sha256: hash } = value as Record<string, unknown>;
  if (typeof cursor !== 'string') return 'cursor: expected a string';
  if (typeof at !== 'string' || !ISO.test(at) || Number.isNaN(Date.parse(at))) return 'at: expected an ISO time such as 2025-01-31T12:00:00.000Z';
  const [owner, repo, ...more] = typeof id === 'string' ? id.split('/') : [];
  if (owner === undefined || repo === undefined || more.length > 0 || !OWNER_RE.test(owner) || !REPO_RE.test(repo)) return 'id: expected a skill id owner/repo';
  if (typeof change !== 'string' || !CHANGES.has(change)) return 'change: expected added, updated or removed';
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) return 'sha256: expected 64 lower-case hex digits';
  return { cursor, at, id: id as string, change: change as ChangeEntry['change'], sha256: hash };
}

/**
 * The entries a build appends: every loaded skill that is new or changed, and every id the log
 * holds that is neither loaded nor among `skippedIds` (skills `--skip-invalid` left out keep their
 * last state), sorted by id, each at `at` (raised to the last entry's time if earlier).
 */
export function planChanges(entries: readonly ChangeEntry[], skills: readonly SkillRecord[], skippedIds: ReadonlySet<string>, at: string): ChangeEntry[] {
  const live = liveStates(entries);
  const last = entries.at(-1);
  const stamp = last !== undefined && last.at > at ? last.at : at;
  const planned: Omit<ChangeEntry, 'cursor'>[] = [];
  const loaded = new Set<string>();
  for (const skill of skills) {
    loaded.add(skill.id);
    const hash = skillStateHash(skill);
    const state = live.get(skill.id);
    if (state === undefined) planned.push({ at: stamp, id: skill.id, change: 'added', sha256: hash });
    else if (state !== hash) planned.push({ at: stamp, id: skill.id, change: 'updated', sha256: hash });
  }
  for (const [id, hash] of live) {
    if (!loaded.has(id) && !skippedIds.has(id)) planned.push({ at: stamp, id, change: 'removed', sha256: hash });
  }
  planned.sort((a, b) => compareCodeUnits(a.id, b.id));
  let cursor = last?.cursor ?? START_CURSOR;
  return planned.map((entry, i) => {
    cursor = nextCursor(cursor, entries.length + i + 1, entry);
    return { cursor, ...entry };
  });
}

/** Each id the log holds (not removed) with its last state hash. */
function liveStates(entries: readonly ChangeEntry[]): Map<string, string> {
  const live = new Map<string, string>();
  for (const entry of entries) {
    if (entry.change === 'removed') live.delete(entry.id);
    else live.set(entry.id, entry.sha256);
  }
  return live;
}

/** Ids of skill folders `skills/<owner>/<repo>` among the folders a build skipped. */
export function skippedSkillIds(skipped: readonly string[]): Set<string> {
  const ids = new Set<string>();
  for (const dir of skipped) {
    const [top, owner, repo, ...more] = dir.split('/');
    if (top === 'skills' && owner !== undefined && repo !== undefined && more.length === 0) ids.add(`${owner}/${repo}`);
  }
  return ids;
}

/** One log line (fields in a fixed order). */
function line(entry: ChangeEntry): string {
  return `${JSON.stringify({ cursor: entry.cursor, at: entry.at, id: entry.id, change: entry.change, sha256: entry.sha256 })}\n`;
}

/** The log's bytes once `added` is appended: its bytes as read, then one line per entry. */
export function logBytesAfter(log: ChangeLog, added: readonly ChangeEntry[]): Buffer {
  const before = log.bytes ?? Buffer.alloc(0);
  if (added.length === 0) return before;
  // A log whose last line lacks its newline gets one: appending must not join two lines.
  const glue = before.length > 0 && before[before.length - 1] !== 0x0a ? '\n' : '';
  return Buffer.concat([before, Buffer.from(glue + added.map(line).join(''), 'utf8')]);
}

/**
 * Replace the log of `contentDir` by `after` (`logBytesAfter` of `log`): written to a temporary
 * file beside it, flushed, then renamed over it, so the log is always whole. When the file no
 * longer holds the bytes the build read (another build appended meanwhile), nothing is written
 * and the build fails: its entries were planned against a history that has moved on.
 */
export function writeChangeLog(contentDir: string, log: ChangeLog, after: Buffer): void {
  const target = join(contentDir, CHANGE_LOG_FILE);
  const now = changeLogBytes(contentDir);
  if (now === undefined ? log.bytes !== undefined : log.bytes === undefined || !now.equals(log.bytes)) {
    throw new Error(`the change log ${target} changed during the build (another build?): nothing was written; build again`);
  }
  const temporary = join(contentDir, `.${CHANGE_LOG_FILE}.${process.pid}.tmp`);
  try {
    const fd = openSync(temporary, 'w', 0o644);
    try {
      writeSync(fd, after);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new Error(`could not write the change log ${target}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * Emit the log as page files (`changesPagePath`): page `p` is the exact answer to
 * `/api/v1/changes?since=<cursor of entry 100·(p-1)>` at the default limit, for p = 1 ..
 * ⌊entries/100⌋+1 (the last one may be empty: the answer to the newest cursor). Returns the
 * number of entries, the manifest's `changes`.
 */
export async function emitChangePages(entries: readonly ChangeEntry[], emit: Emit): Promise<number> {
  const pages = Math.floor(entries.length / CHANGES_PAGE_SIZE) + 1;
  for (let page = 1; page <= pages; page++) {
    const start = (page - 1) * CHANGES_PAGE_SIZE;
    const data = entries.slice(start, start + CHANGES_PAGE_SIZE);
    const since = start === 0 ? START_CURSOR : entries[start - 1]!.cursor;
    const body: ChangesResponse = {
      data,
      pagination: { limit: CHANGES_PAGE_SIZE, hasMore: start + data.length < entries.length },
      meta: { cursor: data.at(-1)?.cursor ?? since },
    };
    await emit(changesPagePath(page), body);
  }
  return entries.length;
}

/**
 * The content fingerprint including the log (`skills-api start` rebuilds when either changed).
 * A missing log counts too, so an output built before the log existed is stale.
 */
export function withChangeLog(fingerprint: string, logBytes: Buffer | undefined): string {
  return sha256(`${fingerprint}\0${CHANGE_LOG_FILE} ${logBytes === undefined ? 'none' : sha256(logBytes)}`);
}

/** The bytes of the log of `contentDir`, undefined when there is none. */
export function changeLogBytes(contentDir: string): Buffer | undefined {
  try {
    return readFileSync(join(contentDir, CHANGE_LOG_FILE));
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
