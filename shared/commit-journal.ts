/**
 * Committing an incremental build into the live output folder, file by file, with a journal
 * (docs/deploy.md "Incremental builds"): only the files that changed are written (into a commit
 * folder beside the output), then moved into place; a build killed at any point leaves either the
 * previous output or a journal from which whoever next touches the folder (the next build, the
 * Node server) rolls it back to the previous output, byte for byte.
 *
 * Beside output `<base>` in its parent folder:
 * - `.commit-<base>-<pid>-<random>/` — one build's commit folder: `new/` (the changed and added
 *   files, at their output paths), `old/` (the replaced and removed files, moved there by the
 *   commit), `journal.json` (the operations, written and flushed before the output is touched);
 * - `.committing-<base>` — the lock and marker: created (exclusively) once the journal is complete,
 *   it names the commit folder; removed when every operation is done, which is the commit point.
 *
 * So: no marker → the output is a whole tree (the previous one, or the new one once the marker is
 * gone), and any commit folder is leftover to delete; a marker whose build is gone → roll back:
 * every file of `old/` goes back, every added file is removed, and the marker last. Rolling back is
 * idempotent, so a rollback that is itself killed is finished by the next one.
 */
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';

/** One operation of a commit, on an output path (`/`-separated, relative to the output). */
export interface CommitOp {
  path: string;
  /** add: a new file; replace: new bytes for a file; remove: a file the new build does not have. */
  kind: 'add' | 'replace' | 'remove';
}

interface Journal {
  format: typeof FORMAT;
  version: typeof VERSION;
  pid: number;
  ops: CommitOp[];
}

const FORMAT = 'skills-api-commit-journal';
const VERSION = 1;

/**
 * The environment variable naming a point of the commit at which the build kills itself
 * (SIGKILL), for the fault tests (test/faults.test.ts): `journal` (journal written, output not
 * touched), `marker` (marker written, no file moved), `half` (half the operations done),
 * `moved` (every operation done, marker still there), `committed` (marker removed).
 */
export const KILL_AT_ENV = 'SKILLS_API_KILL_AT';

function killAt(point: string): void {
  if (process.env[KILL_AT_ENV] === point) process.kill(process.pid, 'SIGKILL');
}

/** The marker (and lock) of output `out`. */
export function markerOf(out: string): string {
  return join(dirname(resolve(out)), `.committing-${basename(resolve(out))}`);
}

/** A fresh commit folder for output `out`, with its `new/` folder for the changed files. */
export function openCommit(out: string): { dir: string; staged: string } {
  const abs = resolve(out);
  const dir = join(dirname(abs), `.commit-${basename(abs)}-${process.pid}-${randomBytes(6).toString('hex')}`);
  mkdirSync(join(dir, 'new'), { recursive: true });
  return { dir, staged: join(dir, 'new') };
}

/** Write `data` to `file` and flush it to the disk. */
function writeDurably(file: string, data: string, flag: 'w' | 'wx'): void {
  const fd = openSync(file, flag);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flush a folder's entries (the renames into it) to the disk; not every system allows it. */
function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Folders cannot be opened for fsync everywhere (Windows): the renames still happened.
  }
}

const at = (root: string, path: string): string => join(root, ...path.split('/'));

/** Remove the empty folders from `file`'s up to (not including) `root`. */
function pruneEmpty(root: string, file: string): void {
  for (let dir = dirname(file); dir.length > root.length && dir.startsWith(root); dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return; // not empty (or gone): the folders above are not empty either
    }
  }
}

/**
 * Commit the files staged in `commit` into `out`: journal, marker, each operation (`ops`, in
 * order: the caller puts the manifest last), marker removed, commit folder removed. Throws when
 * another build holds the marker; any other failure once the marker exists is rolled back before
 * the error is rethrown.
 */
export function commitInPlace(out: string, commit: { dir: string; staged: string }, ops: readonly CommitOp[]): void {
  const abs = resolve(out);
  const journal: Journal = { format: FORMAT, version: VERSION, pid: process.pid, ops: [...ops] };
  writeDurably(join(commit.dir, 'journal.json'), JSON.stringify(journal), 'wx');
  syncFolder(commit.dir);
  killAt('journal');
  const marker = markerOf(abs);
  try {
    writeDurably(marker, basename(commit.dir), 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`another build is committing into ${abs} (${marker} exists)`);
    throw error;
  }
  syncFolder(dirname(abs));
  killAt('marker');
  const undo = join(commit.dir, 'old');
  try {
    const half = Math.floor(ops.length / 2);
    ops.forEach((op, i) => {
      if (i === half) killAt('half');
      const live = at(abs, op.path);
      if (op.kind !== 'add') {
        const kept = at(undo, op.path);
        mkdirSync(dirname(kept), { recursive: true });
        renameSync(live, kept);
      }
      if (op.kind === 'remove') pruneEmpty(abs, live);
      else {
        mkdirSync(dirname(live), { recursive: true });
        renameSync(at(commit.staged, op.path), live);
      }
    });
    killAt('moved');
    unlinkSync(marker);
  } catch (error) {
    rollBack(abs, commit.dir, journal);
    throw error;
  }
  syncFolder(dirname(abs));
  killAt('committed');
  rmSync(commit.dir, { recursive: true, force: true });
}

/** Undo the operations of `journal` on `out` (see the module comment), then remove marker and commit folder. */
function rollBack(out: string, dir: string, journal: Journal): void {
  const undo = join(dir, 'old');
  for (const op of [...journal.ops].reverse()) {
    const live = at(out, op.path);
    const kept = at(undo, op.path);
    if (op.kind === 'add') {
      rmSync(live, { force: true });
      pruneEmpty(out, live);
    } else if (lstatSync(kept, { throwIfNoEntry: false }) !== undefined) {
      // Moved aside by the commit (and maybe already replaced): put it back over whatever is there.
      mkdirSync(dirname(live), { recursive: true });
      renameSync(kept, live);
    }
  }
  syncFolder(dirname(out));
  rmSync(markerOf(out), { force: true });
  syncFolder(dirname(out));
  rmSync(dir, { recursive: true, force: true });
}

/** What `commitState` found. */
export type CommitState =
  /** No commit under way: the output is one whole tree. */
  | 'none'
  /** A live build is committing: wait. */
  | 'busy'
  /** A commit was interrupted (its build is gone): the output must be rolled back. */
  | 'interrupted';

/** The pid in a commit folder name of output `base`, if any. */
function pidOf(name: string, base: string): number | undefined {
  const pid = Number(/^(\d+)-/.exec(name.slice(`.commit-${base}-`.length))?.[1]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether process `pid` is alive (one it may not signal counts as alive). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a commit into `out` is under way or was interrupted. One `lstat` when there is none. */
export function commitState(out: string): CommitState {
  const marker = markerOf(out);
  if (lstatSync(marker, { throwIfNoEntry: false }) === undefined) return 'none';
  let name: string;
  try {
    name = readFileSync(marker, 'utf8');
  } catch {
    return 'busy'; // removed between the two calls: the commit just finished
  }
  const pid = pidOf(name, basename(resolve(out)));
  return pid !== undefined && pid !== process.pid && isAlive(pid) ? 'busy' : 'interrupted';
}

/**
 * Make `out` one whole tree again: roll back an interrupted commit (its build is gone), then
 * remove the commit folders of builds that are gone. Throws while a live build is committing.
 * Used by every build before it looks at the output, and by the Node server when it sees a marker.
 */
export function recoverCommit(out: string): void {
  const abs = resolve(out);
  const parent = dirname(abs);
  const base = basename(abs);
  const state = commitState(abs);
  if (state === 'busy') throw new Error(`another build is committing into ${abs} (${markerOf(abs)} exists)`);
  if (state === 'interrupted') {
    const name = readFileSync(markerOf(abs), 'utf8');
    const dir = join(parent, name);
    let journal: Journal | undefined;
    try {
      const parsed = JSON.parse(readFileSync(join(dir, 'journal.json'), 'utf8')) as Journal;
      if (parsed.format === FORMAT && parsed.version === VERSION && Array.isArray(parsed.ops)) journal = parsed;
    } catch {
      journal = undefined;
    }
    // The marker is only written after the journal is complete and flushed: without a journal
    // the commit folder was removed by hand, and nothing is left to roll back from.
    if (journal === undefined || !name.startsWith(`.commit-${base}-`)) rmSync(markerOf(abs), { force: true });
    else rollBack(abs, dir, journal);
  }
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(`.commit-${base}-`)) continue;
    const pid = pidOf(name, base);
    if (pid !== undefined && pid !== process.pid && !isAlive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
}
