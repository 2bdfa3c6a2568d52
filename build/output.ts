/**
 * Writing the output folder atomically (DECISIONS §3): every file goes into a staging folder
 * beside the output; only a complete tree is swapped in (two renames on the same file system).
 * Any failure removes the staging folder and leaves the previous output byte-identical.
 *
 * Paths handed to the writer are relative, `/`-separated, and checked: nothing can be written
 * outside the staging folder, and no path can be written twice (compared case-insensitively, so
 * a case-insensitive file system cannot merge two files either).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { Emit } from './model.ts';
import { isMissing, lstatOrUndefined } from './safe-read.ts';

/** Writes into the staging folder; every path is relative to the output folder. */
export interface OutputWriter {
  /** Write `data` as compact JSON (no trailing newline). */
  emit: Emit;
  /** Write bytes or UTF-8 text as they are (HTML, JavaScript, a bundle). */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Copy an existing file (a static asset) into the tree. */
  copyFile(path: string, source: string): Promise<void>;
}

/** Totals of what was written. */
export interface OutputStats {
  files: number;
  bytes: number;
}

/**
 * Fill a fresh staging folder with `fill(writer)`, then swap it in as `outDir`. On any error the
 * staging folder is removed, the previous `outDir` is left as it was, and the error is rethrown.
 *
 * `marker` guards against replacing a folder the build never wrote: an existing, non-empty
 * `outDir` is only replaced when it holds that file (the build's manifest), so `--out src` or
 * `--out .` fail instead of deleting anything.
 */
export async function writeAtomically<T>(
  outDir: string,
  marker: string,
  fill: (writer: OutputWriter) => Promise<T>,
): Promise<{ result: T; stats: OutputStats }> {
  const out = resolve(outDir);
  await checkReplaceable(out, marker);
  const parent = dirname(out);
  await fs.mkdir(parent, { recursive: true });
  await removeStaleStaging(parent, basename(out));
  const staging = await fs.mkdtemp(join(parent, `.staging-${basename(out)}-${process.pid}-`));
  const { writer, stats, settle } = stagingWriter(staging);
  try {
    // mkdtemp makes the folder private (0700); the output is meant to be served.
    await fs.chmod(staging, 0o755);
    const result = await fill(writer);
    const failed = await settle();
    if (failed !== undefined) throw failed.error;
    await checkReplaceable(out, marker);
    await swap(staging, out);
    return { result, stats };
  } catch (error) {
    await settle();
    await fs.rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Refuse to replace a link, a file, or a non-empty folder without `marker`. */
async function checkReplaceable(out: string, marker: string): Promise<void> {
  const stats = await lstatOrUndefined(out);
  if (stats === undefined) return;
  if (stats.isSymbolicLink() || !stats.isDirectory()) {
    throw new Error(`output ${out} exists and is not a folder: refusing to replace it`);
  }
  if ((await fs.readdir(out)).length === 0) return;
  const markerStats = await lstatOrUndefined(join(out, ...marker.split('/')));
  if (markerStats?.isFile() !== true) {
    throw new Error(`output ${out} is not empty and holds no ${marker}: refusing to replace a folder the build did not write`);
  }
}

/** Replace `out` by `staging`: old output → backup name, staging → out, backup removed. */
async function swap(staging: string, out: string): Promise<void> {
  const backup = `${staging}-previous`;
  let hadPrevious = true;
  try {
    await fs.rename(out, backup);
  } catch (error) {
    if (!isMissing(error)) throw error;
    hadPrevious = false;
  }
  try {
    await fs.rename(staging, out);
  } catch (error) {
    if (hadPrevious) await fs.rename(backup, out);
    throw error;
  }
  if (hadPrevious) await fs.rm(backup, { recursive: true, force: true });
}

/**
 * Remove staging folders of this output left by builds that were killed (their process is gone).
 * Folders of running builds are left alone.
 */
async function removeStaleStaging(parent: string, base: string): Promise<void> {
  const prefix = `.staging-${base}-`;
  for (const name of await fs.readdir(parent)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !isAlive(pid)) {
      await fs.rm(join(parent, name), { recursive: true, force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A writer confined to `root`, counting files and bytes. `settle` waits for writes still running
 * (a caller may emit without awaiting, or fail half-way: neither the swap nor the cleanup may race
 * them) and returns the first write failure, if any.
 */
function stagingWriter(root: string): {
  writer: OutputWriter;
  stats: OutputStats;
  settle(): Promise<{ error: unknown } | undefined>;
} {
  const stats: OutputStats = { files: 0, bytes: 0 };
  const written = new Map<string, string>();
  const folders = new Set<string>();
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;

  const target = (path: string): string => {
    const problem = outputPathProblem(path);
    if (problem !== undefined) throw new Error(`refusing to write output path ${JSON.stringify(path)}: ${problem}`);
    const full = resolve(root, ...path.split('/'));
    if (!full.startsWith(root + sep)) throw new Error(`refusing to write output path ${JSON.stringify(path)}: outside the output`);
    // Checked before any await, so concurrent writes of one path cannot both pass.
    const key = path.normalize('NFC').toLowerCase();
    const previous = written.get(key);
    if (previous !== undefined) throw new Error(`output path ${JSON.stringify(path)} written twice (also ${JSON.stringify(previous)})`);
    written.set(key, path);
    return full;
  };

  const writeNow = async (path: string, data: string | Uint8Array): Promise<void> => {
    const full = target(path);
    const folder = dirname(full);
    if (!folders.has(folder)) {
      await fs.mkdir(folder, { recursive: true });
      folders.add(folder);
    }
    // `wx`: never through or over anything already there.
    await fs.writeFile(full, data, { flag: 'wx' });
    stats.files += 1;
    stats.bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  };

  const write = (path: string, data: string | Uint8Array): Promise<void> => {
    const writing = writeNow(path, data);
    const tracked = writing.then(
      () => undefined,
      (error: unknown) => {
        failure ??= { error };
      },
    );
    running.add(tracked);
    void tracked.then(() => running.delete(tracked));
    return writing;
  };

  const writer: OutputWriter = {
    emit: async (path, data) => {
      const json = JSON.stringify(data);
      if (json === undefined) throw new Error(`output path ${JSON.stringify(path)}: value is not JSON`);
      await write(path, json);
    },
    writeFile: write,
    copyFile: async (path, source) => write(path, await fs.readFile(source)),
  };
  const settle = async (): Promise<{ error: unknown } | undefined> => {
    while (running.size > 0) await Promise.all(running);
    return failure;
  };
  return { writer, stats, settle };
}

/** Why `path` cannot be an output path, or undefined: relative, `/`-separated, no `.`/`..`. */
export function outputPathProblem(path: string): string | undefined {
  if (path === '') return 'empty';
  if (path.includes('\0')) return 'contains NUL';
  if (path.includes('\\')) return 'contains a backslash';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'absolute';
  const segments = path.split('/');
  if (segments.some((s) => s === '..')) return 'contains ..';
  if (segments.some((s) => s === '' || s === '.')) return 'has an empty or . segment';
  return undefined;
}
