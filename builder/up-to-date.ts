/**
 * The no-change check of `--incremental`: a build whose inputs, options and build code are those
 * of the build that wrote the current output, and whose output is still the folder that build
 * swapped in, would write the same bytes again; it is answered from a small record instead,
 * without reading a SKILL.md or touching the output.
 *
 * Inputs are compared by their file-system stamps, not their bytes (reading and hashing 100k
 * SKILL.md files takes longer than the whole check may): categories.json, platforms.json and the
 * change log by device, inode, type, size, and modification and change times (to a fraction of a
 * microsecond), every skill folder by every file below it (builder/folder-stamp.ts), plus the
 * listing of `skills/` and of every owner folder. A write that keeps size and both times cannot
 * be told apart; so a record is only kept when every input is older than `SETTLE_MS` when the
 * build starts (a file changed again within the file system's clock tick of the build reading it
 * is the case left), otherwise the next build reads everything as before. The output is compared
 * by the identity of its folder and of its manifest (device, inode, size, modification time):
 * another build, a clean one included, replaces both; an edit inside the tree by hand is not seen
 * (a build without `--incremental` writes everything).
 *
 * The record lives in the build cache folder, one small file per content folder and output,
 * replaced atomically after the build cache, whose stamp it holds; any doubt (missing, unreadable,
 * another version, a build cache replaced or damaged since) means "build".
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, type BigIntStats } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MANIFEST_PATH } from '../src/paths.ts';
import { cacheFiles } from './build-cache.ts';
import { CHANGE_LOG_FILE } from './changes.ts';
import { SETTLE_MS, folderOwnStamp, listingLine, listingsFrom, settledBefore, stampFolder, useListing, type FolderStamp, type Listings } from './folder-stamp.ts';
import { readCheckedLines, writeCheckedFile } from './checked-file.ts';
import type { Problem } from './model.ts';
import { GENERATOR } from './package-info.ts';

const FORMAT = 'skills-api-up-to-date';
const VERSION = 1;

/** What a build reports that the record gives back when nothing changed. */
export interface UpToDateReport {
  skills: number;
  skipped: string[];
  problems: Problem[];
  files: number;
  bytes: number;
  /** Skill folders the build had a result of (all of them come from the cache next time). */
  folders: number;
}

/** The stamps of one content folder's inputs, taken before the build reads them. */
export interface InputStamp {
  /** SHA-256 of every stamp but the change log's. */
  inputs: string;
  /** The change log's stamp (the build may append to it before the swap). */
  log: string;
  /** Whether every input was older than `SETTLE_MS` when stamped. */
  settled: boolean;
  /** When the stamps were taken (milliseconds since the epoch). */
  started: number;
  /** The entries of `skills/` in order, each with its type (`d` folder, `l` link, `f` anything else). */
  top: FolderListing['entries'];
  /**
   * The two halves' stamps (`ownerHalf`), each folder's stamp among them: only a build that goes
   * on reads them, through `stampDetails`, so a build answered from its record never makes the
   * map of every skill folder.
   */
  halves: [HalfStamp, HalfStamp];
}

/**
 * The stamps of one half of the owner folders (`ownerHalf`): their digest and newest time, which
 * the no-change check needs, and each owner folder's stamps, which only a build that goes on
 * needs: as a map, or as its JSON when it came from another thread (one string crosses between
 * threads far faster than a map of a large content folder's stamps, BENCHMARKS.md).
 */
export interface HalfStamp {
  /** SHA-256 of the owner folders' listings and their skill folders' stamps, in order. */
  digest: string;
  /** How many owner folders were stamped. */
  count: number;
  /** The newest time below them, in milliseconds since the epoch. */
  newest: number;
  owners: Map<string, OwnerStamp> | string;
}

/** What the load re-uses of the stamps (`stampDetails`). */
export interface StampDetails {
  /** Each skill folder's stamp (`skills/<owner>/<repo>`). */
  folders: Map<string, FolderStamp>;
  /**
   * What the listings of `skills/` and of each owner folder in it (not a link) held, for the
   * load's discovery to re-use: each entry as its type (`d` folder, `l` link, `f` anything else)
   * and its path (`skills/<owner>` or `skills/<owner>/<name>`), entries joined by NUL (no file
   * name holds one). Empty when `skills/` could not be listed.
   */
  entries: string;
}

interface UpToDateRecord {
  format: string;
  version: number;
  key: string;
  inputs: string;
  log: string;
  output: string;
  /** The build cache file as this build left it: a cache replaced or damaged since means build. */
  cache: string;
  report: UpToDateReport;
}

/** The stamp of one path: `-` when missing. */
function stampOf(path: string, newest: { ms: number }): string {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return '-';
  if (stats.ctimeMs > newest.ms) newest.ms = stats.ctimeMs;
  if (stats.mtimeMs > newest.ms) newest.ms = stats.mtimeMs;
  return `${stats.dev}:${stats.ino}:${stats.mode}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** Names in folder `path` with their types, sorted; `-` when it cannot be listed. */
function listing(path: string): FolderListing {
  try {
    const entries = readdirSync(path, { withFileTypes: true }).map((e) => [e.name, e.isSymbolicLink() ? 'l' : e.isDirectory() ? 'd' : 'f'] as const);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return listingOf(entries);
  } catch {
    return { text: '-', folders: [], entries: [] };
  }
}

/** A folder's entries with their types, sorted by name, as `listing` gives them. */
type FolderListing = { text: string; folders: string[]; entries: (readonly [name: string, type: 'l' | 'd' | 'f'])[] };

/** The listing of sorted `entries`: its text, its folders, the entries. */
function listingOf(entries: FolderListing['entries']): FolderListing {
  return { text: entries.map(([name, type]) => `${name}/${type}`).join('\0'), folders: entries.filter(([, t]) => t === 'd').map(([name]) => name), entries };
}

/**
 * `listing(folder)` of an owner folder, from `listings` when the folder's own stamp is the one
 * seen there (as a skill folder's, builder/folder-stamp.ts), with each entry's type kept beside it.
 */
function ownerListing(folder: string, listings: Listings | undefined): FolderListing {
  const own = listings === undefined ? undefined : folderOwnStamp(folder);
  if (listings === undefined || own === undefined) return listing(folder);
  const known = listings.previous.take(folder);
  const types = known?.listing.types;
  if (known !== undefined && known.listing.stamp === own.stamp && types?.length === known.listing.entries.length) {
    useListing(listings, known.line, known.listing.newest);
    return listingOf(known.listing.entries.map(([name], i) => [name, types[i] as 'l' | 'd' | 'f'] as const));
  }
  const listed = listing(folder);
  if (listed.text === '-') return listed;
  listings.listed = true;
  useListing(listings, listingLine(folder, { ...own, entries: listed.entries.map(([name, type]) => [name, type === 'd']), types: listed.entries.map(([, type]) => type).join('') }), own.newest);
  return listed;
}

/**
 * Stamp the inputs of content folder `root` (a real path). With `cacheDir`, folders are listed
 * only when their own stamp changed since the last stamping (builder/folder-stamp.ts `Listings`,
 * kept in `listings-<hash>-<half>.ndjson` there).
 */
export function stampInputs(root: string, cacheDir?: string, head = stampHead(root)): InputStamp {
  const halves = HALVES.map((half) => stampOwners(root, cacheDir, half, ownersIn(head.owners.folders, half))) as [HalfStamp, HalfStamp];
  return combineStamps(root, head, halves);
}

/**
 * `stampInputs`, the owner folders of one half (`ownerHalf`) stamped here and the other's by
 * `other` (builder/stamp-thread.ts: in a thread of its own) at the same time: an `lstat` per file
 * keeps a core busy for seconds, and a second core takes a share of it (BENCHMARKS.md). The same
 * stamp either way.
 */
export async function stampInputsInHalves(root: string, cacheDir: string, other: (owners: string[]) => Promise<HalfStamp>, minOwners = SPLIT_OWNERS): Promise<InputStamp> {
  const head = stampHead(root);
  // A small content folder is stamped here faster than a thread starts.
  if (head.owners.folders.length < minOwners) return stampInputs(root, cacheDir, head);
  const there = other(ownersIn(head.owners.folders, 1));
  // Started before this half, so that both run at once; its failure is the caller's to handle.
  there.catch(() => undefined);
  const here = stampOwners(root, cacheDir, 0, ownersIn(head.owners.folders, 0));
  return combineStamps(root, head, [here, await there]);
}

/**
 * Fewer owner folders than this are stamped in one thread by `stampInputsInHalves`: about 10k
 * skill folders, whose stamps take a few hundred milliseconds, about what starting a thread costs
 * where it must load TypeScript.
 */
export const SPLIT_OWNERS = 4000;

/** The two halves the owner folders are stamped in (`ownerHalf`). */
const HALVES = [0, 1] as const;

/**
 * The half of the owner folders `owner` belongs to: by a hash of its name, so that an owner stays
 * in its half, and in its half's listings file, when others come or go.
 */
export function ownerHalf(owner: string): 0 | 1 {
  let hash = 0x811c9dc5;
  for (let i = 0; i < owner.length; i++) hash = Math.imul(hash ^ owner.charCodeAt(i), 0x01000193);
  return (hash & 1) as 0 | 1;
}

function ownersIn(owners: readonly string[], half: 0 | 1): string[] {
  return owners.filter((owner) => ownerHalf(owner) === half);
}

/** What stamping an owner folder gave: its listing (`name/type` entries joined by NUL, `-` when unlisted) and each skill folder's stamp. */
export interface OwnerStamp {
  text: string;
  folders: Array<[repo: string, stamp: FolderStamp]>;
}

/** The stamps of the content folder's top: categories.json, platforms.json, `skills/` and its listing. */
function stampHead(root: string): { started: number; text: string; newest: number; owners: FolderListing } {
  const started = Date.now();
  const newest = { ms: 0 };
  let text = '';
  for (const file of ['categories.json', 'platforms.json']) text += `${file} ${stampOf(join(root, file), newest)}\0`;
  const skills = join(root, 'skills');
  const skillsStats = lstatSync(skills, { throwIfNoEntry: false });
  text += `skills ${skillsStats === undefined ? '-' : skillsStats.isSymbolicLink() ? 'link' : skillsStats.isDirectory() ? 'folder' : 'file'}\0`;
  return { started, text, newest: newest.ms, owners: listing(skills) };
}

/**
 * Stamp owner folders `owners` of `root` and every skill folder in them, with the listings of half
 * `half` kept in `cacheDir` (read, then written again when anything was listed).
 */
export function stampOwners(root: string, cacheDir: string | undefined, half: 0 | 1, owners: readonly string[]): HalfStamp {
  const started = Date.now();
  const listings = cacheDir === undefined ? undefined : readListings(cacheDir, root, half);
  const skills = join(root, 'skills');
  const stamps = new Map<string, OwnerStamp>();
  // Folders by their listings and types, not their times: the build itself renames the change log
  // into the content folder.
  const hash = createHash('sha256');
  let newest = 0;
  for (const owner of owners) {
    const ownerDir = join(skills, owner);
    const repos = ownerListing(ownerDir, listings);
    const folders: OwnerStamp['folders'] = [];
    hash.update(`${owner}\0${repos.text}\0`);
    // Every file of the folder, not only those the load parses: a skill's whole folder is published.
    for (const repo of repos.folders) {
      const folder = stampFolder(join(ownerDir, repo), listings);
      folders.push([repo, folder]);
      if (folder.newest > newest) newest = folder.newest;
      hash.update(`${folder.stamp}\0`);
    }
    stamps.set(owner, { text: repos.text, folders });
  }
  if (cacheDir !== undefined && listings !== undefined && (listings.listed || listings.next.length !== listings.previous.size)) {
    writeListings(cacheDir, root, half, listings, started);
  }
  return { digest: hash.digest('hex'), count: owners.length, newest, owners: stamps };
}

/** `half` with its owner folders' stamps as JSON, to be posted to another thread. */
export function portableHalf(half: HalfStamp): HalfStamp {
  return typeof half.owners === 'string' ? half : { ...half, owners: JSON.stringify([...half.owners]) };
}

/** The stamp of `root` from its top (`stampHead`) and both halves' stamps. */
function combineStamps(root: string, head: ReturnType<typeof stampHead>, halves: [HalfStamp, HalfStamp]): InputStamp {
  const { started } = head;
  for (const half of HALVES) {
    const expected = ownersIn(head.owners.folders, half).length;
    if (halves[half].count !== expected) throw new Error(`half ${half} of the owner folders has ${halves[half].count} stamped, not ${expected}`);
  }
  const hash = createHash('sha256').update(`${FORMAT} ${VERSION}\0`).update(head.text).update(`${head.owners.text}\0`);
  for (const half of halves) hash.update(`${half.digest}\0`);
  const newest = Math.max(head.newest, halves[0].newest, halves[1].newest);
  const logNewest = { ms: 0 };
  const log = stampOf(join(root, CHANGE_LOG_FILE), logNewest);
  return { inputs: hash.digest('hex'), log, settled: newest < started - SETTLE_MS && logNewest.ms < started - SETTLE_MS, started, top: head.owners.entries, halves };
}

/** `stamp` with its halves as JSON, to be posted to another thread. */
export function portableStamp(stamp: InputStamp): InputStamp {
  return { ...stamp, halves: [portableHalf(stamp.halves[0]), portableHalf(stamp.halves[1])] };
}

/** Each skill folder's stamp and the listings' entries of `stamp` (`StampDetails`). */
export function stampDetails(stamp: InputStamp): StampDetails {
  const halves = stamp.halves.map((half) => (typeof half.owners === 'string' ? new Map(JSON.parse(half.owners) as Array<[string, OwnerStamp]>) : half.owners));
  const folders = new Map<string, FolderStamp>();
  const entries = stamp.top.map(([name, type]) => `${type}skills/${name}`);
  for (const [owner, type] of stamp.top) {
    if (type !== 'd') continue;
    const stamps = halves[ownerHalf(owner)]!.get(owner);
    if (stamps === undefined) throw new Error(`owner folder skills/${owner} was not stamped`);
    if (stamps.text !== '-' && stamps.text !== '') {
      for (const entry of stamps.text.split('\0')) {
        const slash = entry.lastIndexOf('/');
        entries.push(`${entry.slice(slash + 1)}skills/${owner}/${entry.slice(0, slash)}`);
      }
    }
    for (const [repo, folder] of stamps.folders) folders.set(`skills/${owner}/${repo}`, folder);
  }
  return { folders, entries: entries.join('\0') };
}

const LISTINGS_FORMAT = 'skills-api-listings';

function listingsFile(cacheDir: string, root: string, half: 0 | 1): string {
  return join(resolve(cacheDir), `listings-${sha256(root).slice(0, 16)}-${half}.ndjson`);
}

/** The stored listings of content folder `root`'s skill folders (none when missing or damaged). */
function readListings(cacheDir: string, root: string, half: 0 | 1): Listings {
  const lines: string[] = [];
  const read = readCheckedLines(listingsFile(cacheDir, root, half), (header) => header.format === LISTINGS_FORMAT && header.version === VERSION && header.root === root, (line) => {
    if (line !== '') lines.push(line);
  });
  return listingsFrom(read === undefined ? [] : lines);
}

/** Keep the listings of folders settled before `started`. Never throws: without them every folder is listed. */
function writeListings(cacheDir: string, root: string, half: 0 | 1, listings: Listings, started: number): void {
  const lines: string[] = [];
  listings.next.forEach((line, i) => {
    if (settledBefore(listings.newest[i]!, started)) lines.push(`${line}\n`);
  });
  try {
    writeCheckedFile(listingsFile(cacheDir, root, half), { format: LISTINGS_FORMAT, version: VERSION, root }, lines.join(''));
    // The one file of both halves that earlier versions kept, no longer read.
    rmSync(join(resolve(cacheDir), `listings-${sha256(root).slice(0, 16)}.ndjson`), { force: true });
  } catch {
    // Only slower next time.
  }
}

/** The change log's stamp now (after the build appended to it). */
export function stampLog(root: string): string {
  return stampOf(join(root, CHANGE_LOG_FILE), { ms: 0 });
}

/** The identity of output `out`: its folder and its manifest; undefined when either is missing. */
export function outputIdentity(out: string): string | undefined {
  const folder = lstatSync(out, { bigint: true, throwIfNoEntry: false });
  const manifest = lstatSync(join(out, ...MANIFEST_PATH.split('/')), { bigint: true, throwIfNoEntry: false });
  if (folder?.isDirectory() !== true || manifest?.isFile() !== true) return undefined;
  // No change time: the manifest is hard-linked into the next tree and unlinked from the old one
  // by incremental builds, which changes it and not the bytes.
  const id = (s: BigIntStats): string => `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
  return `${resolve(out)}\0${id(folder)}\0${id(manifest)}`;
}

/** The record file of content folder `root` built into `out`. */
function recordFile(cacheDir: string, root: string, out: string): string {
  return join(resolve(cacheDir), `up-to-date-${sha256(`${root}\0${resolve(out)}`).slice(0, 16)}.json`);
}

/**
 * The key of everything besides the inputs that decides the output: the options given (already
 * normalized by the caller), the generator, and the build code with its dependencies' versions.
 */
export function buildKey(options: Record<string, unknown>): string {
  return sha256(JSON.stringify({ options, generator: GENERATOR, code: buildCodeHash() }));
}

/**
 * The report of the build that wrote `out`, when nothing it depends on changed since (see the
 * module comment); undefined means build.
 */
export function upToDate(cacheDir: string, root: string, out: string, key: string, stamp: InputStamp): UpToDateReport | undefined {
  let record: UpToDateRecord;
  try {
    record = JSON.parse(readFileSync(recordFile(cacheDir, root, out), 'utf8')) as UpToDateRecord;
  } catch {
    return undefined;
  }
  if (record.format !== FORMAT || record.version !== VERSION || record.key !== key) return undefined;
  if (record.inputs !== stamp.inputs || record.log !== stamp.log) return undefined;
  const output = outputIdentity(out);
  if (output === undefined || record.output !== output) return undefined;
  if (record.cache !== cacheStamp(cacheDir, root)) return undefined;
  return record.report;
}

/**
 * How many skill folders the build that wrote `out` from `root` had, when it left a record of a
 * kept format (`upToDate` may answer); undefined when it left none (an unsettled build, another
 * version, none yet): the build then reads everything anyway.
 */
export function recordedFolders(cacheDir: string, root: string, out: string): number | undefined {
  try {
    const record = JSON.parse(readFileSync(recordFile(cacheDir, root, out), 'utf8')) as Partial<UpToDateRecord>;
    if (record.format !== FORMAT || record.version !== VERSION) return undefined;
    const folders = record.report?.folders;
    return typeof folders === 'number' ? folders : 0;
  } catch {
    return undefined;
  }
}

/**
 * Remember that `out` (just swapped in) is the build of the inputs stamped `stamp` with `key`.
 * An unsettled stamp removes the record instead. Never throws: without a record the next build
 * only does the work again.
 */
export function rememberBuild(cacheDir: string, root: string, out: string, key: string, stamp: InputStamp, log: string, report: UpToDateReport): void {
  const file = recordFile(cacheDir, root, out);
  try {
    const output = outputIdentity(out);
    const cache = cacheStamp(cacheDir, root);
    if (!stamp.settled || output === undefined || cache.startsWith('-')) {
      rmSync(file, { force: true });
      return;
    }
    const record: UpToDateRecord = { format: FORMAT, version: VERSION, key, inputs: stamp.inputs, log, output, cache, report };
    mkdirSync(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(record));
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(file, { force: true });
    } catch {
      // Nothing left to do: a stale record cannot match the new output's identity anyway.
    }
  }
}

/** The stamp of the build cache of `root`: its base file and its delta (builder/build-cache.ts). */
function cacheStamp(cacheDir: string, root: string): string {
  return cacheFiles(cacheDir, root).map((file) => stampOf(file, { ms: 0 })).join(' ');
}

let code: string | undefined;

/**
 * SHA-256 of the build and runtime code (every file under `builder/` and `src/`, `.ts` in a clone,
 * `.js` in the package) and of the versions of the runtime dependencies, so a changed build never
 * answers from a record of the old one; it keys the search token cache the same way.
 */
export function buildCodeHash(): string {
  if (code !== undefined) return code;
  const hash = createHash('sha256');
  const here = dirname(fileURLToPath(import.meta.url));
  try {
    for (const folder of ['.', '../src'].map((f) => resolve(here, f))) {
      const files = (readdirSync(folder, { recursive: true }) as string[]).filter((f) => /\.(ts|js|json)$/.test(f)).sort();
      for (const file of files) hash.update(`${file}\0`).update(readFileSync(join(folder, file))).update('\0');
    }
    const require = createRequire(import.meta.url);
    for (const dependency of ['yaml', 'zod', 'stemmer', 'spdx-correct', 'spdx-expression-parse', 'spdx-license-list']) {
      let version = 'unknown';
      try {
        version = String((JSON.parse(readFileSync(require.resolve(`${dependency}/package.json`), 'utf8')) as { version?: unknown }).version);
      } catch {
        // A dependency whose package.json is not exported: its name alone.
      }
      hash.update(`${dependency}@${version}\0`);
    }
    code = hash.digest('hex');
  } catch {
    // Sources not at hand (a bundled build): a value no record can match.
    code = `unknown-${Date.now()}-${Math.random()}`;
  }
  return code;
}

function sha256(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}
