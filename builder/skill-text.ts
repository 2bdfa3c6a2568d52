/**
 * A skill's SKILL.md text read again after the load, when the build needs it (records hold no
 * text: builder/build-cache.ts `withTextOnDemand`), by the build's thread or the quality thread
 * (builder/quality/thread.ts): only while its bytes are still those loaded.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { isMissing, readRegularFile } from './safe-read.ts';

/**
 * The text of `dir`/SKILL.md under content folder `root` (a real path) read again, when its bytes
 * are still those loaded (size and SHA-256); a file changed since is this build's to refuse.
 * `checkPath`: the folder itself is checked first (`pathProblem`), for a folder the load did not read.
 */
export function readSkillText(root: string, dir: string, sha: string, size: number, checkPath = false): string {
  if (checkPath && pathProblem(join(root, dir)) !== undefined) throw changedWhileBuilding(dir);
  let bytes: Buffer | undefined;
  try {
    bytes = readRegularFile(join(root, dir, 'SKILL.md'), undefined, undefined, scratchOf);
  } catch {
    bytes = undefined;
  }
  const same = bytes !== undefined && bytes.length === size && createHash('sha256').update(bytes).digest('hex') === sha;
  const text = same ? decodeUtf8(bytes!) : undefined;
  if (text === undefined) throw changedWhileBuilding(dir);
  return text;
}

/**
 * The buffer `readSkillText` reads into, grown as needed: the text is decoded from it at once, and a
 * buffer of its own per read would be 100k allocations outside the heap per step that reads texts.
 */
let scratch = Buffer.alloc(0);

function scratchOf(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, 64 * 1024));
  return scratch;
}

/** The error of a SKILL.md whose bytes are no longer those loaded. */
export function changedWhileBuilding(dir: string): Error {
  return new Error(`${dir}/SKILL.md changed while building: build again`);
}

/** `bytes` as UTF-8 (a BOM kept as U+FEFF), or undefined when they are not valid UTF-8. */
export function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Why skill folder `abs` cannot be read (gone, or not where discovery saw it), or undefined. */
export function pathProblem(abs: string): string | undefined {
  const real = realpathOrUndefined(abs);
  if (real === abs) return undefined;
  return real === undefined ? 'disappeared while building' : 'resolves outside its place in the content folder';
}

/**
 * The real path of `path` (sync, like every per-skill read: see `readRegularFile`; native: one
 * system call where the JavaScript version lstat-s every parent), or undefined when missing.
 */
export function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}
