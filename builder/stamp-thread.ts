/**
 * The no-change check's stamps (builder/up-to-date.ts `stampInputs`) taken in a thread of their
 * own, so an incremental build reads its caches while they are taken. Stamping a large content
 * folder is one `lstat` per file and a listing per changed folder: system calls that keep a core
 * busy for seconds, while reading and parsing the caches keeps the build's. The stamps are the
 * same either way; a thread that cannot be started or fails stamps in the calling thread instead.
 *
 * The thread also asks the no-change check itself as soon as it has the stamps, and says so in a
 * flag shared with the calling thread, which a read of a large cache looks at between lines
 * without waiting for a message: a build with nothing to do stops reading at once.
 */
import { startWorker } from './threads.ts';
import { stampInputs, type InputStamp } from './up-to-date.ts';

/** What the stamp thread posts: the stamp, or why it has none. */
export type StampMessage = { stamp: InputStamp } | { error: string };

/** Stamps being taken in a thread. */
export interface Stamping {
  /** The stamps (`stampInputs(root, cacheDir)`). */
  stamping: Promise<InputStamp>;
  /**
   * Whether the thread found, with `check`, that the build that wrote that output recorded these
   * very stamps (builder/up-to-date.ts `upToDate`); false until it knows, and without `check`.
   */
  nothingChanged(): boolean;
}

/**
 * `stampInputs(root, cacheDir)` in a thread of its own (the same in this thread when the thread
 * fails); with `check`, the output and key of the no-change check, the thread asks it too.
 */
export function stampInputsInThread(root: string, cacheDir: string, check?: { out: string; key: string }): Stamping {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const stamping = new Promise<InputStamp>((resolve) => {
    let settled = false;
    const here = (): void => {
      if (settled) return;
      settled = true;
      resolve(stampInputs(root, cacheDir));
    };
    let worker;
    try {
      worker = startWorker(import.meta.url, 'stamp-worker', { workerData: { root, cacheDir, check, flag: flag.buffer } });
    } catch {
      here();
      return;
    }
    worker.once('message', (message: StampMessage) => {
      if (settled) return;
      if ('stamp' in message) {
        settled = true;
        resolve(message.stamp);
      } else here();
    });
    worker.once('error', here);
    worker.once('exit', here);
  });
  return { stamping, nothingChanged: () => Atomics.load(flag, 0) === 1 };
}
