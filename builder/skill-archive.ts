/**
 * The archive of a skill's folder (docs/api.md "Files and archive"): a deterministic `.tar.gz`.
 *
 * A small ustar writer rather than a tar library: the archive must be plain ustar (the open
 * `skills` CLI reads only a ustar `name` and `prefix` and skips pax headers, so a library writing
 * a pax header for a long name would give it a cut path), and ustar with fixed fields is about
 * fifty lines. Entries are sorted by path, every folder before what it holds; times are 0, owner
 * and group 0 with empty names, modes 0644 (files) or 0755 (folders, executable files).
 * Compressed by Node's zlib at level 9 with the OS byte of the gzip header set to "unknown", so
 * two builds of the same files are byte-identical.
 */
import { constants, gzip, gzipSync } from 'node:zlib';
import { comparePaths, ustarSplit } from '../src/skill-files.ts';

/** One file going into an archive. */
export interface ArchiveFile {
  path: string;
  bytes: Uint8Array;
  executable: boolean;
}

const BLOCK = 512;
const encoder = new TextEncoder();

/** The `.tar.gz` bytes of `files` (paths already checked with `filePathProblem`). */
export function skillArchive(files: readonly ArchiveFile[]): Uint8Array {
  return gzipped(gzipSync(tarOf(files), GZIP));
}

/**
 * `skillArchive`, compressed on libuv's thread pool instead of the calling thread: the same bytes
 * (the same zlib, level and input). A clean build makes one archive per skill, and compressing
 * them is most of what writing the skills' files costs its thread (BENCHMARKS.md "Archives off
 * the build thread, folders made once").
 */
export function skillArchiveInPool(files: readonly ArchiveFile[]): Promise<Uint8Array> {
  const tar = tarOf(files);
  return new Promise((resolve, reject) => gzip(tar, GZIP, (error, result) => (error === null ? resolve(gzipped(result)) : reject(error))));
}

const GZIP = { level: constants.Z_BEST_COMPRESSION };

/** The archive's bytes with the gzip header's OS byte set to "unknown": the same whatever system built them. */
function gzipped(gzip: Buffer): Uint8Array {
  gzip[9] = 255;
  return new Uint8Array(gzip.buffer, gzip.byteOffset, gzip.byteLength);
}

/** The uncompressed ustar bytes of `files`. */
function tarOf(files: readonly ArchiveFile[]): Buffer {
  const sorted = [...files].sort((a, b) => comparePaths(a.path, b.path));
  const folders = new Set<string>();
  for (const file of sorted) {
    const parts = file.path.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  // Folders and files in one order: a folder's path followed by `/` sorts before anything inside.
  const entries: { key: string; header: Uint8Array; bytes?: Uint8Array }[] = [
    ...[...folders].map((path) => ({ key: `${path}/`, header: header(path, 0, 0o755, '5') })),
    ...sorted.map((file) => ({ key: file.path, header: header(file.path, file.bytes.length, file.executable ? 0o755 : 0o644, '0'), bytes: file.bytes })),
  ].sort((a, b) => comparePaths(a.key, b.key));
  const chunks: Uint8Array[] = [];
  for (const entry of entries) {
    chunks.push(entry.header);
    if (entry.bytes !== undefined && entry.bytes.length > 0) {
      chunks.push(entry.bytes);
      const pad = (BLOCK - (entry.bytes.length % BLOCK)) % BLOCK;
      if (pad > 0) chunks.push(new Uint8Array(pad));
    }
  }
  // The end of the archive: two zero blocks.
  chunks.push(new Uint8Array(2 * BLOCK));
  return Buffer.concat(chunks);
}

/** A ustar header block. */
function header(path: string, size: number, mode: number, type: '0' | '5'): Uint8Array {
  // A folder's name has no trailing `/` (its type says what it is); a folder too long for a
  // header is a problem of every file below it (src/skill-files.ts `filePathProblem`).
  const split = ustarSplit(path);
  if (split === undefined) throw new Error(`${path}: too long for a ustar header`);
  const [prefix, name] = split;
  const block = new Uint8Array(BLOCK);
  const put = (offset: number, length: number, text: string): void => {
    const bytes = encoder.encode(text);
    if (bytes.length > length) throw new Error(`${path}: ${text} does not fit a ustar field of ${length} bytes`);
    block.set(bytes, offset);
  };
  const octal = (value: number, length: number): string => `${value.toString(8).padStart(length - 1, '0')}\0`;
  put(0, 100, name);
  put(100, 8, octal(mode, 8));
  put(108, 8, octal(0, 8));
  put(116, 8, octal(0, 8));
  put(124, 12, octal(size, 12));
  put(136, 12, octal(0, 12));
  put(148, 8, '        '); // the checksum counts its own field as spaces
  put(156, 1, type);
  put(257, 6, 'ustar\0');
  put(263, 2, '00');
  put(345, 155, prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}
