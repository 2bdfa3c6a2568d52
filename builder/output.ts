/**
 * Writing the output folder atomically (docs/decisions.md §3): every file goes into a staging folder
 * beside the output; only a complete tree is swapped in (two renames on the same file system).
 * Any failure removes the staging folder and leaves the previous output byte-identical.
 *
 * Paths handed to the writer are relative, `/`-separated, and checked: nothing can be written
 * outside the staging folder, and no path can be written twice (compared case-insensitively, so
 * a case-insensitive file system cannot merge two files either).
 *
 * The disk work runs on one writer thread, fed in batches with back-pressure (at most 32 MiB
 * waiting), so the build computes while the disk writes: on this project's 2-core machine the
 * disk, not the CPU, bounds a 10k build.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { commitInPlace, isAlive, openCommit, recoverCommit, type CommitOp } from '../shared/commit-journal.ts';
import { JsonText, type Emit } from './model.ts';
import { fileKey, OutputRecord } from './output-record.ts';
import { isMissing, lstatOrUndefined, lstatOrUndefinedSync } from './safe-read.ts';
import { startWorker } from './threads.ts';
import type { WriteBatch, WriteDone } from './output-thread.ts';

/** Writes into the staging folder; every path is relative to the output folder. */
export interface OutputWriter {
  /** Write `data` as compact JSON (no trailing newline). */
  emit: Emit;
  /** Write bytes or UTF-8 text as they are (HTML, JavaScript, a bundle). */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Copy an existing file (a static asset) into the tree. */
  copyFile(path: string, source: string): Promise<void>;
  /**
   * Keep the live output's files at these paths as they are (an in-place build, `inPlace`), when
   * the output record has every one of them with the given key (`fileKey`): they count as
   * written with those bytes and are neither made nor hashed. All or nothing: false when any
   * cannot be kept (then the caller writes them all).
   */
  keep?(files: readonly (readonly [path: string, key: string])[]): boolean;
  /**
   * Keep the live output's files at these paths with whatever bytes the output record has for
   * them (an in-place build): for files the caller knows to be made of the same input by the
   * same build code. All or nothing, like `keep`.
   */
  keepAsIs?(paths: readonly string[]): boolean;
}

/** Totals of what was written. */
export interface OutputStats {
  files: number;
  bytes: number;
  /** Files taken over from the previous output (hard links, or left in place by a commit) instead of written. */
  reused: number;
  /** The record of the new output (`WriteOptions.record`). */
  record?: OutputRecord;
  /** With `WriteOptions.inPlace`: the paths whose key differs from that record's, or that are gone from it. */
  changed?: string[];
}

/** Options of `writeAtomically`. */
export interface WriteOptions {
  /**
   * Incremental build: a file whose bytes equal the file at the same path in the previous output
   * is hard-linked from there instead of written. The new tree is byte-identical to a clean
   * build by construction (bytes are compared, not guessed from input hashes); files the new
   * build does not emit (deleted skills) are never carried over.
   */
  reuse?: boolean;
  /**
   * Called once the staging folder is complete and every write has landed, right before the swap:
   * the last step that may still fail the build (the change log is written here, builder/changes.ts).
   */
  beforeSwap?: () => void | Promise<void>;
  /**
   * Remove the replaced output in a detached process instead of before returning: once the swap's
   * two renames are done the build is complete, and removing a large tree is disk work that can
   * take longer than the build (its files hard-linked into the new tree free nothing). The old
   * tree is first renamed to `.trash-<output>-<remover's pid>-…` beside the output, which nothing
   * serves or restores; one whose remover is gone is removed by the next build.
   */
  removeInBackground?: boolean;
  /** Also return the record of the new output (every file's hash, builder/output-record.ts). */
  record?: boolean;
  /**
   * The record of the current output (it must describe that folder: builder/output-record.ts
   * checks). Instead of a whole new tree, only the files whose bytes differ from the record are
   * written, into a commit folder, and moved into the live output with a journal
   * (shared/commit-journal.ts); files the record has and the build does not emit are removed.
   * Implies `record`.
   */
  inPlace?: OutputRecord;
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
  options: WriteOptions = {},
): Promise<{ result: T; stats: OutputStats }> {
  const out = resolve(outDir);
  const parent = dirname(out);
  await fs.mkdir(parent, { recursive: true });
  // Before anything else: a build killed between the two renames of the swap left no output,
  // only its backup; put it back so the previous output is served again and checked below.
  await restoreInterruptedSwap(parent, basename(out));
  recoverCommit(out);
  await checkReplaceable(out, marker);
  await removeStaleStaging(parent, basename(out));
  if (options.inPlace !== undefined && lstatOrUndefinedSync(join(out, ...marker.split('/')))?.isFile() === true) {
    return writeInPlace(out, marker, fill, options.inPlace, options.beforeSwap);
  }
  const staging = await fs.mkdtemp(join(parent, `.staging-${basename(out)}-${process.pid}-`));
  // Only an output the build wrote (checked above) is reused, and only when it has the marker.
  const previous = options.reuse === true && lstatOrUndefinedSync(join(out, ...marker.split('/')))?.isFile() === true ? out : undefined;
  const { writer, stats, settle } = stagingWriter(staging, previous, options.record === true ? {} : undefined);
  try {
    // mkdtemp makes the folder private (0700); the output is meant to be served.
    await fs.chmod(staging, 0o755);
    const result = await fill(writer);
    const failed = await settle();
    if (failed !== undefined) throw failed.error;
    await checkReplaceable(out, marker);
    await options.beforeSwap?.();
    await swap(staging, out, options.removeInBackground === true);
    return { result, stats };
  } catch (error) {
    await settle();
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * `writeAtomically` against the record of the live output: the changed files go to a commit
 * folder and are committed into the output (shared/commit-journal.ts), the manifest last and
 * whenever anything else changed, so a server following the folder sees a new tree.
 */
async function writeInPlace<T>(
  out: string,
  marker: string,
  fill: (writer: OutputWriter) => Promise<T>,
  previous: OutputRecord,
  beforeSwap: WriteOptions['beforeSwap'],
): Promise<{ result: T; stats: OutputStats }> {
  const commit = openCommit(out);
  const changes = { previous, always: marker, staged: [] as string[], claimedPrevious: 0 };
  const { writer, stats, settle } = stagingWriter(commit.staged, undefined, changes);
  try {
    const result = await fill(writer);
    const failed = await settle();
    if (failed !== undefined) throw failed.error;
    const record = stats.record!;
    if (!record.has(marker)) throw new Error(`the build wrote no ${marker}`);
    const ops: CommitOp[] = [];
    for (const path of changes.staged) {
      if (path !== marker) ops.push({ path, kind: previous.has(path) ? 'replace' : 'add' });
    }
    const removed: string[] = [];
    // Every path claimed is in the new record, each once: when the build claimed as many of the
    // live output's paths as it has, none is gone, and its 800k paths need not be looked up again.
    // Otherwise exactly `previous.size - claimedPrevious` of them are gone: the look-ups stop at the last.
    let gone = previous.size - changes.claimedPrevious;
    if (gone > 0) {
      for (const path of previous.missingFrom(record)) {
        ops.push({ path, kind: 'remove' });
        removed.push(path);
        if (--gone === 0) break;
      }
    }
    // The manifest is among the staged paths even when its bytes are the same: listed, never missed.
    stats.changed = [...changes.staged, ...removed];
    const sameMarker = previous.get(marker) === record.get(marker);
    if (ops.length > 0 || !sameMarker) ops.push({ path: marker, kind: previous.has(marker) ? 'replace' : 'add' });
    // The manifest is committed whenever anything changed (followers see a new tree by it) but
    // only counts as written when its bytes changed.
    if (sameMarker) stats.reused += 1;
    await checkReplaceable(out, marker);
    await beforeSwap?.();
    if (ops.length > 0) commitInPlace(out, commit, ops);
    else rmSync(commit.dir, { recursive: true, force: true });
    return { result, stats };
  } catch (error) {
    await settle();
    rmSync(commit.dir, { recursive: true, force: true });
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
async function swap(staging: string, out: string, background: boolean): Promise<void> {
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
  if (!hadPrevious) return;
  if (background && removeDetached(dirname(out), basename(out), backup)) return;
  // Sync: the promise-based rm of a 60k-file tree took 25 s here, rmSync a few.
  rmSync(backup, { recursive: true, force: true });
}

/** The remover: reads the folder to remove from stdin, removes it. */
const REMOVER = `let p='';process.stdin.setEncoding('utf8').on('data',(d)=>{p+=d}).on('end',()=>{if(p!=='')require('node:fs').rmSync(p,{recursive:true,force:true})})`;

/**
 * Hand `folder` (the replaced output) to a detached remover process: renamed to a trash name with
 * the remover's pid, so a build can tell a trash folder still being removed from one left by a
 * remover that died. False when no remover could be started (the caller removes it itself).
 */
function removeDetached(parent: string, base: string, folder: string): boolean {
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(process.execPath, ['-e', REMOVER], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  } catch {
    return false;
  }
  child.on('error', () => undefined);
  if (child.pid === undefined || child.stdin === null) return false;
  const trash = join(parent, `.trash-${base}-${child.pid}-${randomBytes(6).toString('hex')}`);
  try {
    renameSync(folder, trash);
  } catch {
    child.kill();
    return false;
  }
  child.stdin.on('error', () => undefined);
  child.stdin.end(trash);
  child.unref();
  return true;
}

/**
 * Put back the previous output of `outDir` if a build was killed between the two renames of its
 * swap (the output folder missing, its backup beside it) or during an incremental commit. Builds call this first, before loading
 * anything, so even a build that then fails leaves the previous output in place.
 */
export async function recoverOutput(outDir: string): Promise<void> {
  const out = resolve(outDir);
  if ((await lstatOrUndefined(dirname(out))) === undefined) return;
  await restoreInterruptedSwap(dirname(out), basename(out));
  // And a commit of an incremental build killed half-way is rolled back (shared/commit-journal.ts).
  recoverCommit(out);
}

/**
 * When `out` is missing and a killed build left its backup (`.staging-<base>-<pid>-…-previous`,
 * process gone), rename the backup back to `out`. With several (never expected) the newest wins.
 */
async function restoreInterruptedSwap(parent: string, base: string): Promise<void> {
  if ((await lstatOrUndefined(join(parent, base))) !== undefined) return;
  const backups: { name: string; mtime: number }[] = [];
  for (const name of await fs.readdir(parent)) {
    if (!name.startsWith(`.staging-${base}-`) || !name.endsWith('-previous')) continue;
    const pid = stagingPid(name, base);
    if (pid === undefined || pid === process.pid || isAlive(pid)) continue;
    const stats = await lstatOrUndefined(join(parent, name));
    if (stats?.isDirectory() === true) backups.push({ name, mtime: stats.mtimeMs });
  }
  backups.sort((a, b) => b.mtime - a.mtime || (a.name < b.name ? -1 : 1));
  if (backups[0] !== undefined) await fs.rename(join(parent, backups[0].name), join(parent, base));
}

/** The process id in a staging folder name of output `base`, if it has one. */
function stagingPid(name: string, base: string): number | undefined {
  const pid = Number(/^(\d+)-/.exec(name.slice(`.staging-${base}-`.length))?.[1]);
  return Number.isInteger(pid) ? pid : undefined;
}

/**
 * Remove staging folders of this output left by builds that were killed (their process is gone),
 * and trash folders whose remover is gone (`removeInBackground`). Folders of running builds and
 * removers are left alone.
 */
async function removeStaleStaging(parent: string, base: string): Promise<void> {
  const prefix = `.staging-${base}-`;
  const trash = `.trash-${base}-`;
  for (const name of await fs.readdir(parent)) {
    if (!name.startsWith(prefix) && !name.startsWith(trash)) continue;
    const pid = name.startsWith(trash) ? Number(/^(\d+)-/.exec(name.slice(trash.length))?.[1]) : stagingPid(name, base);
    if (pid !== undefined && Number.isInteger(pid) && pid !== process.pid && !isAlive(pid)) {
      rmSync(join(parent, name), { recursive: true, force: true });
    }
  }
}


/**
 * A writer confined to `root`, counting files and bytes. Paths are checked here, on the calling
 * thread; the file-system work runs on a writer thread (below), so the build computes the next
 * files while the disk writes the previous ones. `settle` waits for every write handed over so
 * far (a caller may emit without awaiting, or fail half-way: neither the swap nor the cleanup may
 * race them), stops the thread and returns the first write failure, if any.
 */
function stagingWriter(root: string, previous: string | undefined, changes?: { previous?: OutputRecord; always?: string; staged?: string[]; claimedPrevious?: number }): {
  writer: OutputWriter;
  stats: OutputStats;
  settle(): Promise<{ error: unknown } | undefined>;
} {
  const stats: OutputStats = { files: 0, bytes: 0, reused: 0 };
  // With `changes`: every file's key goes into the record; with `changes.previous`, a file whose
  // key is the previous output's is not written at all (the commit leaves it where it is). Over
  // the previous output's record, the new one marks the paths it keeps of it (`emptyLike`).
  const record: OutputRecord | undefined = changes === undefined ? undefined : (changes.previous?.emptyLike() ?? new OutputRecord());
  if (record !== undefined) stats.record = record;
  const written = new Map<string, string>();
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const disk = diskWriter((reused) => (stats.reused += reused), (error) => (failure ??= { error }));

  const target = (path: string): string => {
    const problem = outputPathProblem(path);
    if (problem !== undefined) throw new Error(`refusing to write output path ${JSON.stringify(path)}: ${problem}`);
    const full = resolve(root, ...path.split('/'));
    if (!full.startsWith(root + sep)) throw new Error(`refusing to write output path ${JSON.stringify(path)}: outside the output`);
    claim(path);
    return full;
  };
  /** Claim `path` for this build: checked before any await, so concurrent writes of one path cannot both pass. */
  const claim = (path: string): void => {
    if (inPlace !== undefined) {
      claimInPlace(path);
      return;
    }
    const key = path.normalize('NFC').toLowerCase();
    const previous = written.get(key);
    if (previous !== undefined) throw new Error(`output path ${JSON.stringify(path)} written twice (also ${JSON.stringify(previous)})`);
    written.set(key, path);
  };
  // Against the record of the live output (an in-place build), whose paths a build claimed
  // together (no two of them fold to one key): a path of that record is claimed by its exact
  // spelling (this build's record holds every path claimed so far, each set right after its
  // claim); only a path new to the output is folded, into `written` with the other new ones, and
  // compared with the folded paths of the whole record when the writes settle (`foldedOntoKept`).
  const inPlace = changes?.previous;
  const claimInPlace = (path: string, known = false): void => {
    if (record!.has(path)) throw new Error(`output path ${JSON.stringify(path)} written twice (also ${JSON.stringify(path)})`);
    if (known || inPlace!.has(path)) {
      changes!.claimedPrevious = (changes!.claimedPrevious ?? 0) + 1;
      return;
    }
    const key = path.normalize('NFC').toLowerCase();
    const previous = written.get(key);
    if (previous !== undefined) throw new Error(`output path ${JSON.stringify(path)} written twice (also ${JSON.stringify(previous)})`);
    written.set(key, path);
  };
  const write = (path: string, data: string | Uint8Array): Promise<void> => {
    try {
      if (failure !== undefined) throw failure.error;
      const full = target(path);
      const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
      stats.files += 1;
      stats.bytes += size;
      if (record !== undefined) {
        const key = fileKey(data);
        const same = changes?.previous !== undefined && path !== changes.always && changes.previous.hasKey(path, key);
        record.set(path, key);
        if (same) {
          stats.reused += 1;
          return Promise.resolve();
        }
        if (changes?.previous !== undefined) changes.staged?.push(path);
      }
      // Strings cross to the thread as strings; bytes get a buffer of their own (a view would
      // carry its whole underlying buffer across).
      const payload = typeof data === 'string' ? data : new Uint8Array(data);
      return disk.write(full, previous === undefined ? undefined : join(previous, ...path.split('/')), payload, size);
    } catch (error) {
      failure ??= { error };
      return Promise.reject(error as Error);
    }
  };

  /** Track work that finishes later (a copy reads its source first), so `settle` can wait for it. */
  const track = (work: Promise<void>): Promise<void> => {
    const tracked = work.then(
      () => undefined,
      (error: unknown) => {
        failure ??= { error };
      },
    );
    running.add(tracked);
    void tracked.then(() => running.delete(tracked));
    return work;
  };

  const writer: OutputWriter = {
    emit: async (path, data) => {
      const json = data instanceof JsonText ? data.text : JSON.stringify(data);
      if (json === undefined) throw new Error(`output path ${JSON.stringify(path)}: value is not JSON`);
      await write(path, json);
    },
    writeFile: write,
    copyFile: (path, source) => track(fs.readFile(source).then((bytes) => write(path, bytes))),
    keep: (files) => {
      const previous = changes?.previous;
      if (previous === undefined || record === undefined || failure !== undefined) return false;
      if (!files.every(([path, key]) => path !== changes?.always && previous.hasKey(path, key))) return false;
      for (const [path, key] of files) {
        // A path of the record, checked when it was written and just looked up: only claimed.
        claimInPlace(path, true);
        record.set(path, key);
        stats.files += 1;
        stats.bytes += keySize(key);
        stats.reused += 1;
      }
      return true;
    },
    keepAsIs: (paths) => {
      const previous = changes?.previous;
      if (previous === undefined) return false;
      const files: [string, string][] = [];
      for (const path of paths) {
        const key = previous.get(path);
        if (key === undefined) return false;
        files.push([path, key]);
      }
      return writer.keep!(files);
    },
  };
  const settle = async (): Promise<{ error: unknown } | undefined> => {
    while (running.size > 0) await Promise.all(running);
    await disk.close();
    if (failure === undefined) {
      // In place, `written` holds only the paths new to the output.
      const folded = inPlace === undefined || record === undefined || written.size === 0 ? undefined : foldedOntoKept(written, record, inPlace);
      if (folded !== undefined) failure = { error: folded };
    }
    return failure;
  };
  return { writer, stats, settle };
}

/** The size a record's key (`fileKey`: hash, space, size) names, read without a string for it. */
function keySize(key: string): number {
  let size = 0;
  for (let i = key.indexOf(' ') + 1; i < key.length; i++) size = size * 10 + key.charCodeAt(i) - 48;
  return size;
}

/** Bytes handed to the writer thread and not yet written before `write` makes the build wait. */
const IN_FLIGHT_MAX = 32 * 2 ** 20;
/** Files or bytes gathered into one message to the writer thread. */
const BATCH_FILES = 256;
const BATCH_BYTES = 2 ** 20;

/**
 * Hands files to the writer thread in batches, with back-pressure: `write` resolves at once
 * while at most `IN_FLIGHT_MAX` bytes wait for the disk, so memory stays bounded however far the
 * build runs ahead. A failed write is reported through `fail`; `close` flushes, waits for every
 * batch and stops the thread.
 */
function diskWriter(
  onReused: (count: number) => void,
  fail: (error: unknown) => void,
): { write(full: string, previousFile: string | undefined, data: string | Uint8Array, size: number): Promise<void>; close(): Promise<void> } {
  const worker = startWorker(import.meta.url, 'output-thread');
  let batch: WriteBatch = [];
  let batchBytes = 0;
  let inFlight = 0;
  let stopped = false;
  let waiting: Array<() => void> = [];
  /** Wake everyone waiting; each checks its own condition again. */
  const wake = (): void => {
    const ready = waiting;
    waiting = [];
    for (const resolve of ready) resolve();
  };
  const progress = (): Promise<void> => new Promise<void>((resolve) => waiting.push(resolve));
  worker.on('message', (done: WriteDone) => {
    inFlight -= done.bytes;
    onReused(done.reused);
    if (done.error !== undefined) fail(Object.assign(new Error(done.error.message), { code: done.error.code }));
    wake();
  });
  worker.on('error', fail);
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      stopped = true;
      if (inFlight > 0) fail(new Error('the output writer thread stopped before writing every file'));
      wake();
      resolve();
    }),
  );
  const flush = (): void => {
    if (batch.length === 0) return;
    inFlight += batchBytes;
    worker.postMessage(batch);
    batch = [];
    batchBytes = 0;
  };
  return {
    async write(full, previousFile, data, size) {
      if (stopped) throw new Error('the output writer thread has stopped');
      batch.push([full, previousFile, data, size]);
      batchBytes += size;
      if (batch.length >= BATCH_FILES || batchBytes >= BATCH_BYTES) flush();
      while (inFlight > IN_FLIGHT_MAX && !stopped) await progress();
    },
    async close() {
      flush();
      while (inFlight > 0 && !stopped) await progress();
      await worker.terminate();
      await exited;
    },
  };
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

/**
 * A path new to an in-place build's output that folds to the key of a path of the live output
 * this build claimed too, as an error; undefined when none. `fresh`: the new paths by their folded
 * keys; `record`: every path this build claimed; `inPlace`: the live output's record.
 */
function foldedOntoKept(fresh: ReadonlyMap<string, string>, record: OutputRecord, inPlace: OutputRecord): Error | undefined {
  // An ASCII path folds to a key of its own length: only those of a new key's length, and every
  // path outside ASCII, are folded (a record holds hundreds of thousands of paths).
  const lengths = new Set([...fresh.keys()].map((key) => key.length));
  for (const path of record.keysOutsideAsciiOr(lengths)) {
    if (!inPlace.has(path)) continue;
    const other = fresh.get(path.normalize('NFC').toLowerCase());
    if (other !== undefined) return new Error(`output path ${JSON.stringify(other)} written twice (also ${JSON.stringify(path)})`);
  }
  return undefined;
}

