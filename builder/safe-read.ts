/**
 * Reading files of an untrusted content folder: never through a symbolic link (docs/decisions.md H17),
 * never a FIFO or device, never more than a size limit, checked before reading (docs/decisions.md H12).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, promises as fs, readSync, type Dirent } from 'node:fs';

/** 1 MiB: the limit of SKILL.md and of every JSON file of the content folder. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** A file that must not be read; `message` says why, for a problem. */
export class UnsafeFileError extends Error {
  override name = 'UnsafeFileError';
}

/** lstat, or undefined when nothing is there. */
export async function lstatOrUndefined(path: string): Promise<import('node:fs').Stats | undefined> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** lstat without a thread-pool round trip (see `readRegularFile`), or undefined when nothing is there. */
export function lstatOrUndefinedSync(path: string): import('node:fs').Stats | undefined {
  try {
    // No exception for a missing path: building one (with its stack) cost more than the system call.
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/**
 * The bytes of the regular file at `path`, or undefined when it does not exist. Throws
 * `UnsafeFileError` for a symbolic link, anything but a regular file, or a file over `limit`
 * bytes (checked on the open handle before reading, and again while reading).
 *
 * `entry`, the file's entry in a listing of its folder (`readdirSync` with `withFileTypes`), stands
 * in for the lstat: one listing per skill folder instead of one lstat per file. Without it (or
 * when the listing did not have the name) the file is lstat-ed.
 *
 * `into`, when given, gives a buffer of at least the size asked for to read into (one the caller
 * re-uses): the bytes returned are then a view of it, valid until it is read into again.
 *
 * Synchronous on purpose: content files are small and usually cached, and a promise-based read
 * costs six thread-pool round trips (lstat, open, fstat, read, read, close) where these direct
 * system calls make one each, which on a busy machine dominates loading.
 */
export function readRegularFile(path: string, limit = MAX_FILE_BYTES, entry?: Dirent, into?: (size: number) => Buffer): Buffer | undefined {
  const stats = entry ?? lstatOrUndefinedSync(path);
  if (stats === undefined) return undefined;
  checkType(stats);
  if (entry === undefined) checkSize(stats as import('node:fs').Stats, limit);
  let fd: number;
  try {
    // O_NOFOLLOW: a file swapped for a link after the lstat still fails; O_NONBLOCK: a FIFO
    // swapped in cannot block the build.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new UnsafeFileError('is a symbolic link, not followed');
    throw error;
  }
  try {
    const opened = fstatSync(fd);
    checkType(opened);
    checkSize(opened, limit);
    const size = opened.size;
    // One byte of room past the expected size tells a file that grew since the stat.
    const buffer = into === undefined ? Buffer.allocUnsafe(size + 1) : into(size + 1).subarray(0, size + 1);
    let length = 0;
    while (length < buffer.length) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, null);
      if (bytesRead === 0) return buffer.subarray(0, length);
      length += bytesRead;
    }
    throw size + 1 > limit ? tooLarge(size + 1, limit) : new UnsafeFileError('changed while being read');
  } finally {
    closeSync(fd);
  }
}

function checkType(stats: { isSymbolicLink(): boolean; isFile(): boolean }): void {
  if (stats.isSymbolicLink()) throw new UnsafeFileError('is a symbolic link, not followed');
  if (!stats.isFile()) throw new UnsafeFileError('is not a regular file');
}

function checkSize(stats: import('node:fs').Stats, limit: number): void {
  if (stats.size > limit) throw tooLarge(stats.size, limit);
}

function tooLarge(size: number, limit: number): UnsafeFileError {
  return new UnsafeFileError(`is larger than the limit of ${formatBytes(limit)} (${size} bytes or more)`);
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** ENOENT, or ENOTDIR (a parent is a file). */
export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
