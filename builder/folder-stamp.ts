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
 * again. `next` gets every listing this stamping used, as its line (`listingLine`), with its
 * newest time in `newest` at the same index; only settled ones may be kept for later.
 */
export interface Listings {
  previous: KeptListings;
  next: string[];
  newest: number[];
  /** Whether anything was listed (so `next` differs from `previous`). */
  listed: boolean;
}

/** Listings over the kept lines `lines` (`listingLine`), none by default, with nothing used yet. */
export function listingsFrom(lines: readonly string[] = []): Listings {
  return { previous: new KeptListings(lines), next: [], newest: [], listed: false };
}

/** Record that this stamping used the listing of line `line` (`listingLine`), newest time `newest`. */
export function useListing(listings: Listings, line: string, newest: number): void {
  listings.next.push(line);
  listings.newest.push(newest);
}

/** The line a listing of `folder` is kept as: JSON of the folder, its stamp, newest time, entries and (an owner folder's) types. */
export function listingLine(folder: string, { stamp, newest, entries, types }: Listing): string {
  return JSON.stringify(types === undefined ? [folder, stamp, newest, entries] : [folder, stamp, newest, entries, types]);
}

/**
 * The kept listings' lines, each parsed only when its folder is asked for. A stamping asks for
 * folders in the order it kept them, so the line after the last one taken is tried first; only
 * when a folder came or went are the lines indexed by folder. Parsing every line up front into
 * a map held every listing for the whole stamping, and the collector copied them again and again
 * (BENCHMARKS.md).
 */
export class KeptListings {
  private readonly lines: readonly string[];
  private at = 0;
  private byFolder: Map<string, number> | undefined;

  constructor(lines: readonly string[]) {
    this.lines = lines;
  }

  /** How many listings are kept. */
  get size(): number {
    return this.lines.length;
  }

  /** The kept listing of `folder` with its line; undefined when none is kept (or its line is damaged). */
  take(folder: string): { listing: Listing; line: string } | undefined {
    let at = this.at;
    if (at >= this.lines.length || !this.lines[at]!.startsWith(`[${JSON.stringify(folder)},`)) {
      this.byFolder ??= this.index();
      const found = this.byFolder.get(folder);
      if (found === undefined) return undefined;
      at = found;
    }
    this.at = at + 1;
    const line = this.lines[at]!;
    const listing = parseListing(line);
    return listing === undefined ? undefined : { listing: listing[1], line };
  }

  private index(): Map<string, number> {
    const byFolder = new Map<string, number>();
    this.lines.forEach((line, i) => {
      const listing = parseListing(line);
      if (listing !== undefined) byFolder.set(listing[0], i);
    });
    return byFolder;
  }
}

/** The folder and listing of a kept line; undefined when it is not one. */
function parseListing(line: string): [folder: string, listing: Listing] | undefined {
  try {
    const [folder, stamp, newest, entries, types] = JSON.parse(line) as [string, string, number, [string, boolean][], string?];
    if (typeof folder !== 'string' || typeof stamp !== 'string' || typeof newest !== 'number' || !Array.isArray(entries)) return undefined;
    return [folder, { stamp, newest, entries, ...(typeof types === 'string' ? { types } : {}) }];
  } catch {
    return undefined;
  }
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
  const known = listings.previous.take(folder);
  if (known !== undefined && known.listing.stamp === stamp) {
    useListing(listings, known.line, known.listing.newest);
    return known.listing.entries;
  }
  const entries = read(folder);
  if (entries === undefined) return undefined;
  listings.listed = true;
  useListing(listings, listingLine(folder, { stamp, newest, entries }), newest);
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
