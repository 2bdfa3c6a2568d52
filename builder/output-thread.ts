/**
 * The writer thread of `builder/output.ts`: creates folders and writes each file with direct
 * synchronous calls (one file at a time with direct system calls is several times faster than
 * promise-based writes, whose thread-pool round trips dominate on a 2-core machine), or
 * hard-links it from the previous output when the bytes there are the same.
 */
import { linkSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parentPort } from 'node:worker_threads';

/** Files to write: [path, the previous output's file with maybe the same bytes, data, size]. */
export type WriteBatch = Array<[string, string | undefined, string | Uint8Array, number]>;

/** A batch done: its bytes, how many files were hard-linked, and the error that stopped it. */
export interface WriteDone {
  bytes: number;
  reused: number;
  error?: { message: string; code?: string | undefined };
}

/** Folders this thread made or found, so each is made once, with its parents before it. */
const folders = new Set<string>();

/**
 * Make `folder` and whichever of its parents are not known yet, top down: one `mkdir` per new
 * folder. A recursive `mkdir` tries the deepest folder first and climbs on each failure (nearly
 * twice the calls for a skill's new folders), and `mkdir` and `open` are most of this thread's
 * work in a clean build (BENCHMARKS.md "Archives off the build thread, folders made once").
 */
function makeFolder(folder: string): void {
  if (folders.has(folder)) return;
  const parent = dirname(folder);
  if (parent !== folder) makeFolder(parent);
  try {
    mkdirSync(folder);
  } catch (error) {
    // There already, as the output's own folder and its parents are: a file in its place fails the write.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  folders.add(folder);
}

/** Whether `file` is a regular file holding exactly `bytes`. */
function same(file: string, bytes: Uint8Array): boolean {
  const stats = lstatSync(file, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile() || stats.size !== bytes.byteLength) return false;
  return readFileSync(file).equals(bytes);
}

/** Write one batch; never throws (the error goes back with the batch). */
export function writeBatch(batch: WriteBatch): WriteDone {
  let reused = 0;
  let bytes = 0;
  for (const entry of batch) bytes += entry[3];
  try {
    for (const [full, previous, text] of batch) {
      const data = typeof text === 'string' ? Buffer.from(text) : text;
      makeFolder(dirname(full));
      if (previous !== undefined && same(previous, data)) {
        // A hard link writes no data: nothing to flush, and removing the old tree frees nothing.
        linkSync(previous, full);
        reused += 1;
      } else {
        // wx: never through or over anything already there.
        writeFileSync(full, data, { flag: 'wx' });
      }
    }
    return { bytes, reused };
  } catch (error) {
    const { message, code } = error as NodeJS.ErrnoException;
    return { bytes, reused, error: { message: String(message), code } };
  }
}

parentPort?.on('message', (batch: WriteBatch) => parentPort!.postMessage(writeBatch(batch)));
