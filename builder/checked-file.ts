/**
 * The files an `--incremental` build keeps beside its output (the build cache, the output record,
 * the skill-files record): a JSON header line, then a body whose SHA-256 the header's `checksum`
 * holds. A file cut short, edited or half-written never passes `readCheckedFile`, so a reader
 * falls back to doing the work instead of trusting it. A large one may have a delta beside it
 * (`<file>.delta`, itself a checked file whose header names the base's checksum): a build that
 * changed a few entries writes those there instead of the whole file again.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** The header and body of `file`, or undefined when it is missing, malformed or fails its checksum. */
export function readCheckedFile(file: string): { header: Record<string, unknown>; body: string } | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const headerEnd = bytes.indexOf(0x0a);
  if (headerEnd === -1) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, headerEnd));
  } catch {
    return undefined;
  }
  // The checksum is of the body's bytes: hashed as read, before they are decoded.
  const body = bytes.subarray(headerEnd + 1);
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return undefined;
  if ((header as Record<string, unknown>).checksum !== sha256Hex(body)) return undefined;
  return { header: header as Record<string, unknown>, body: body.toString('utf8') };
}

/** Replace `file` atomically with `header` (its `checksum` added last) and `body`. Throws on failure. */
export function writeCheckedFile(file: string, header: Record<string, unknown>, body: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  // Encoded once, then hashed and written as bytes (a body can be hundreds of megabytes).
  const bytes = Buffer.from(body, 'utf8');
  try {
    const fd = openSync(temporary, 'w');
    try {
      writeAll(fd, Buffer.from(`${JSON.stringify({ ...header, checksum: sha256Hex(bytes) })}\n`, 'utf8'));
      writeAll(fd, bytes);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Write all of `bytes` at the file's position. */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** SHA-256 of a text (as UTF-8) or of bytes, in hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The file beside checked file `file` that holds what changed since it was written (a delta),
 * so a build that changed a few entries of a large cache writes those instead of the whole file.
 */
export function deltaFile(file: string): string {
  return `${file}.delta`;
}

/**
 * The checked file `file` and its delta (`deltaFile`), when the delta was written over this very
 * base: its header's `base` is the base's checksum (a base written again since, or a delta of
 * another one, is ignored). Undefined when the base cannot be read.
 */
export function readCheckedFileWithDelta(file: string): { header: Record<string, unknown>; body: string; delta?: { header: Record<string, unknown>; body: string } } | undefined {
  const base = readCheckedFile(file);
  if (base === undefined) return undefined;
  const delta = readCheckedFile(deltaFile(file));
  if (delta === undefined || delta.header.base !== base.header.checksum) return base;
  return { ...base, delta };
}

/**
 * Replace the delta of checked file `file`, whose checksum is `base`, atomically. The base is not
 * touched: the delta must hold every change since the base was written. Throws on failure.
 */
export function writeDeltaFile(file: string, base: string, header: Record<string, unknown>, body: string): void {
  writeCheckedFile(deltaFile(file), { ...header, base }, body);
}

/**
 * Replace checked file `file` as a whole, its delta removed first: a build killed in between
 * leaves the old base alone, never a delta over a base of the same bytes written later. Throws on
 * failure.
 */
export function writeCheckedFileWhole(file: string, header: Record<string, unknown>, body: string): void {
  rmSync(deltaFile(file), { force: true });
  writeCheckedFile(file, header, body);
}
