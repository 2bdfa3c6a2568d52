/**
 * Resolving a path inside a served folder without ever leaving it: the one guard shared by the
 * fs loader and the static file server. Nothing under the folder is reached through a symbolic
 * link (docs/decisions.md H17, H29), and no segment can climb out of it (docs/decisions.md H28).
 */
import type { Stats } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { join } from 'node:path';

/** A file or folder found inside the root: the root's and its own real path, and its `lstat`. */
export interface Inside {
  root: string;
  path: string;
  stats: Stats;
}

/**
 * True for a path segment that names one entry of a folder: not empty, not `.` or `..`, and free
 * of separators and NUL (which a decoded `%2f`, `%5c` or `%00` would bring in).
 */
export function isPlainSegment(segment: string): boolean {
  return segment !== '' && segment !== '.' && segment !== '..' && !/[/\\\0]/.test(segment);
}

/**
 * Find `segments` (already decoded) under `root`. Returns undefined when a segment is not plain,
 * when nothing is there, or when any part of the way below the root is a symbolic link. The root
 * itself may be a link (a deploy may swap `public` as a link); only what lies inside it is checked.
 * Other file system errors (permissions) are thrown.
 */
export async function resolveInside(root: string, segments: readonly string[]): Promise<Inside | undefined> {
  if (!segments.every(isPlainSegment)) return undefined;
  try {
    // Resolved on every call, not once: a build swaps the output folder while the server runs.
    const realRoot = await realpath(root);
    const path = join(realRoot, ...segments);
    // realpath resolves every link on the way; any difference means a link below the root.
    if ((await realpath(path)) !== path) return undefined;
    return { root: realRoot, path, stats: await lstat(path) };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Errors that mean "nothing usable there" rather than a server fault. */
function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENAMETOOLONG';
}
