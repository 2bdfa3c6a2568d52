/**
 * The file-system stamp of a skill folder: what an incremental build compares instead of reading
 * the folder's bytes (builder/up-to-date.ts for the whole content folder, the build cache per skill
 * folder in builder/load-content.ts).
 *
 * Every entry below the folder, at any depth, enters by its path and type, and every one that is
 * not a folder by its device, inode, mode, size, and modification and change times (to a fraction
 * of a microsecond): a file added, removed, renamed, replaced or written in place changes the
 * stamp. `.git` is left out at any depth, as the build never reads it (builder/skill-folder.ts). A
 * write that keeps the size and both times cannot be told apart, so a stamp is only trusted when
 * the folder's newest time is older than `SETTLE_MS` when it was taken (`settledBefore`).
 */
import { createHash, type Hash } from 'node:crypto';
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** Inputs changed less than this long before a build started make their stamps untrusted. */
export const SETTLE_MS = 2000;

/** The stamp of one folder. */
export interface FolderStamp {
  /** SHA-256 (hex, 32 characters kept) of every entry's path, type and stamp; `-` when the folder cannot be listed. */
  stamp: string;
  /** The newest modification or change time below the folder, in milliseconds since the epoch. */
  newest: number;
}

/**
 * Folder listings an earlier stamping saw, by folder, each with the folder's own stamp (device,
 * inode, modification and change times): a folder whose stamp is unchanged holds the same entries
 * (creating, removing or renaming an entry changes its folder's times), so it is not listed
 * again. `next` gets every listing this stamping used; only settled ones may be kept for later.
 */
export interface Listings {
  previous: ReadonlyMap<string, Listing>;
  next: Map<string, Listing>;
  /** Whether anything was listed (so `next` differs from `previous`). */
  listed: boolean;
}

/** One folder's entries (name and whether it is a folder), with the folder's stamp and newest time. */
export interface Listing {
  stamp: string;
  newest: number;
  entries: [name: string, folder: boolean][];
  /** An owner folder's (builder/up-to-date.ts): each entry's type, `l` a link, `d` a folder, `f` anything else, a character each. */
  types?: string;
}

/** Stamp folder `abs` and everything below it (see the module comment). */
export function stampFolder(abs: string, listings?: Listings): FolderStamp {
  const hash = createHash('sha256');
  const newest = { ms: 0 };
  if (!walk(abs, '', hash, newest, listings)) return { stamp: '-', newest: newest.ms };
  return { stamp: hash.digest('hex').slice(0, 32), newest: newest.ms };
}

/** Whether a stamp taken with newest time `newest` can be trusted by a build that started at `started`. */
export function settledBefore(newest: number, started: number): boolean {
  return newest < started - SETTLE_MS;
}

/** Feed folder `relative` of `abs` to `hash`; false when it cannot be listed. */
function walk(abs: string, relative: string, hash: Hash, newest: { ms: number }, listings: Listings | undefined): boolean {
  const folder = relative === '' ? abs : join(abs, relative);
  const entries = list(folder, listings);
  if (entries === undefined) {
    hash.update(`${relative}\0unlisted\0`);
    return relative !== '';
  }
  for (const [name, isFolder] of entries) {
    if (name === '.git') continue;
    const path = relative === '' ? name : `${relative}/${name}`;
    if (isFolder) {
      hash.update(`${path}\0d\0`);
      walk(abs, path, hash, newest, listings);
      continue;
    }
    const stats = lstatSync(join(abs, path), { throwIfNoEntry: false });
    if (stats === undefined) {
      hash.update(`${path}\0gone\0`);
      continue;
    }
    if (stats.ctimeMs > newest.ms) newest.ms = stats.ctimeMs;
    if (stats.mtimeMs > newest.ms) newest.ms = stats.mtimeMs;
    hash.update(`${path}\0${stats.dev}:${stats.ino}:${stats.mode}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}\0`);
  }
  return true;
}

/** The entries of `folder`, sorted by name: from `listings` when the folder's stamp is the one seen there. */
function list(folder: string, listings: Listings | undefined): [string, boolean][] | undefined {
  if (listings === undefined) return read(folder);
  const own = folderOwnStamp(folder);
  if (own === undefined) return undefined;
  const { stamp, newest } = own;
  const known = listings.previous.get(folder);
  if (known !== undefined && known.stamp === stamp) {
    listings.next.set(folder, known);
    return known.entries;
  }
  const entries = read(folder);
  if (entries === undefined) return undefined;
  listings.listed = true;
  listings.next.set(folder, { stamp, newest, entries });
  return entries;
}

/** The entries of `folder` as listed now, sorted by name; undefined when it cannot be listed. */
function read(folder: string): [string, boolean][] | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return undefined;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.map((entry) => [entry.name, entry.isDirectory()]);
}

/**
 * The stamp of folder `folder` itself (device, inode, modification and change times), which
 * creating, removing or renaming an entry changes, with its newest time in milliseconds;
 * undefined when it is no folder.
 */
export function folderOwnStamp(folder: string): { stamp: string; newest: number } | undefined {
  const stats = lstatSync(folder, { bigint: true, throwIfNoEntry: false });
  if (stats === undefined || !stats.isDirectory()) return undefined;
  return {
    stamp: `${stats.dev}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`,
    newest: Number((stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs) / 1_000_000n),
  };
}
