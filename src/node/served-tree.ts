/**
 * A server that follows its folder: the build replaces the output folder by renaming a finished
 * staging folder over it (builder/output.ts), and a long-running server must then answer from the
 * new tree, not from what it kept in memory of the old one (parsed files, the manifest, the search
 * index it loaded).
 *
 * Each tree the server sees is one generation: the folder's identity (device and inode of its
 * real path, so a swapped link counts too) and the manifest's, with a handler and a file cache of
 * its own. A request runs on the generation that was current when it started. A generation's
 * loader checks after every file it reads that the folder is still its tree; when it is not, the
 * generation is retired, the next one is made from the new tree, and the request is answered again
 * on it — so an answer comes from one tree, never from files of two. Between requests the folder
 * is looked at every `intervalMs` (one `stat` of the folder and one of the manifest).
 *
 * An incremental build commits its changed files into the live folder instead, under a marker
 * beside it (shared/commit-journal.ts), and replaces the manifest last: while the marker is there
 * no generation is made and a read that ends then counts as landing in a newer tree, so requests
 * wait for the commit to finish (at most `COMMIT_WAITS`); a marker whose build is gone (killed
 * mid-commit) is rolled back here, so the previous tree is served again without waiting for the
 * next build.
 */
import { lstat, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { commitState, markerOf, recoverCommit } from '../../shared/commit-journal.ts';
import type { Handler } from '../handler.ts';
import type { Loader } from '../loader.ts';
import { MANIFEST_PATH } from '../paths.ts';

/** How many times one request is answered again because the tree changed under it. */
const MAX_RETRIES = 3;
/** A request whose tree was replaced waits at most this many times this long for the new one. */
const SWAP_WAITS = 50;
const SWAP_WAIT_MS = 10;
/** …and at most this many times while an incremental build commits into the folder (30 s). */
const COMMIT_WAITS = 3000;

/** What identifies one tree: the folder and the manifest file, each by device, inode, size and time. */
function identityOf(root: { dev: number; ino: number }, manifest: { dev: number; ino: number; size: number; mtimeMs: number } | undefined): string {
  const file = manifest === undefined ? 'none' : `${manifest.dev}:${manifest.ino}:${manifest.size}:${manifest.mtimeMs}`;
  return `${root.dev}:${root.ino} ${file}`;
}

/** Thrown by a generation's loader when the folder was replaced during the read. */
class TreeReplaced extends Error {
  override name = 'TreeReplaced';
}

/** One tree as served: its identity, its handler, and whether a newer tree replaced it. */
interface Generation {
  identity: string;
  root: string;
  handler: Handler;
  retired: boolean;
}

/** Options of `ServedTree`. */
export interface ServedTreeOptions {
  /**
   * The handler of one generation over `loader` (a loader of that tree only: it fails a read that
   * lands in a newer tree). `onError` of the handler is given `isTreeReplaced` errors too: skip
   * them, the request is answered again.
   */
  makeHandler(loader: Loader): Handler;
  /** The raw loader of a folder (the fs loader). */
  makeLoader(dir: string): Loader;
  /** Told after a new generation took over (the server drops its kept answers). */
  onChange?: () => void;
}

/** Whether `error` is the signal that a read landed in a newer tree (not a fault to log). */
export function isTreeReplaced(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth++) {
    if (cause instanceof TreeReplaced) return true;
  }
  return false;
}

/** The served folder `dir`, one generation (handler + file cache) per tree; see the module comment. */
export class ServedTree {
  private current: Generation;
  private checking: Promise<boolean> | undefined;
  /** Whether the last look found an incremental build committing into the folder. */
  private committing = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  private constructor(
    private readonly dir: string,
    private readonly options: ServedTreeOptions,
    identity: string,
  ) {
    this.current = this.generation(identity);
  }

  /** Start following `dir` (which need not hold a build yet). */
  static async open(dir: string, options: ServedTreeOptions): Promise<ServedTree> {
    let identity = await ServedTree.identify(dir, true);
    // A build committing right now: start on the tree it leaves (bounded; then as it is).
    for (let wait = 0; identity === 'committing' && wait < COMMIT_WAITS; wait++) {
      await new Promise((resolve) => setTimeout(resolve, SWAP_WAIT_MS));
      identity = await ServedTree.identify(dir, true);
    }
    return new ServedTree(dir, options, identity);
  }

  /**
   * The folder's current identity; `missing` while it does not exist (between the renames of a
   * swap), `committing` while an incremental build commits into it. With `recover`, an
   * interrupted commit is rolled back first.
   */
  private static async identify(dir: string, recover = false): Promise<string> {
    if ((await lstat(markerOf(dir)).catch(() => undefined)) !== undefined) {
      if (!recover || commitState(dir) !== 'interrupted') return 'committing';
      try {
        recoverCommit(dir);
      } catch (error) {
        // Not ours to repair (no permission): the next build rolls it back; serve nothing mixed meanwhile.
        console.error(`could not roll back the interrupted build in ${dir}: ${(error as Error).message}`);
        return 'committing';
      }
    }
    const root = await stat(dir).catch(() => undefined);
    if (root === undefined) return 'missing';
    const manifest = await stat(join(dir, ...MANIFEST_PATH.split('/'))).catch(() => undefined);
    return identityOf(root, manifest);
  }

  /** Answer `request` on the current generation, again on a newer one when the tree changed meanwhile. */
  readonly handler: Handler = async (request) => {
    // GET and HEAD only reach a handler with a body-less request: it can be asked again as is.
    for (let attempt = 0; ; attempt++) {
      const generation = this.current;
      const response = await generation.handler(request);
      if (!generation.retired || attempt === MAX_RETRIES) return response;
      await response.body?.cancel();
      // The tree changed during the request: answer it from the new one instead, once it is there
      // (a swap is two renames; between them the folder is missing for a moment).
      for (let wait = 0; this.current === generation && wait < (this.committing ? COMMIT_WAITS : SWAP_WAITS); wait++) {
        if (!(await this.check())) await new Promise((resolve) => setTimeout(resolve, SWAP_WAIT_MS));
      }
    }
  };

  /**
   * Look at the folder now; when it holds another tree than the current generation's, make a new
   * generation and tell `onChange`. Resolves whether it did. Calls at once share one look.
   */
  check(): Promise<boolean> {
    this.checking ??= this.look().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** Look every `intervalMs` until `close()`; the timer never keeps the process alive. */
  follow(intervalMs: number): void {
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.check().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  /** Stop looking. */
  close(): void {
    clearInterval(this.timer);
  }

  private async look(): Promise<boolean> {
    const identity = await ServedTree.identify(this.dir, true);
    this.committing = identity === 'committing';
    // Missing: a swap is between its two renames; committing: a build is moving files in. The
    // next look sees the new tree.
    if (identity === 'missing' || this.committing || (identity === this.current.identity && !this.current.retired)) return false;
    const old = this.current;
    // The new generation first, then the old one retired and kept answers dropped: a request
    // starting in between already runs on the new tree (src/answer-memo.ts keeps nothing of one
    // that started before the drop).
    this.current = this.generation(identity);
    old.retired = true;
    this.options.onChange?.();
    return true;
  }

  /** A generation for the tree with `identity`: its own handler over a loader that stays in that tree. */
  private generation(identity: string): Generation {
    const root = identity.split(' ')[0]!;
    const raw = this.options.makeLoader(this.dir);
    const generation: Generation = { identity, root, handler: () => Promise.reject(new Error('not ready')), retired: false };
    const loader: Loader = async (path) => {
      const value = await raw(path);
      // A read that ended after the folder was replaced, or once a commit into it began (the
      // manifest is replaced last, the marker is there until then), may have come from either tree.
      const now = await ServedTree.identify(this.dir);
      if (generation.retired || now !== generation.identity) {
        generation.retired = true;
        throw new TreeReplaced(`${this.dir} was replaced while ${path} was read`);
      }
      return value;
    };
    generation.handler = this.options.makeHandler(loader);
    return generation;
  }
}
