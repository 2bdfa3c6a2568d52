/**
 * The no-change check's stamps (builder/up-to-date.ts `stampInputs`) taken in a thread of their
 * own, so an incremental build reads its caches while they are taken, or half in a thread and
 * half in the caller's when the build waits for them. Stamping a large content
 * folder is one `lstat` per file and a listing per changed folder: system calls that keep a core
 * busy for seconds, while reading and parsing the caches keeps the build's. The stamps are the
 * same either way; a thread that cannot be started or fails stamps in the calling thread instead.
 */
import { inThreadOrHere, threadAwaitingWork, type ThreadAwaitingWork } from './threads.ts';
import { stampInputs, stampInputsInHalves, stampOwners, type HalfStamp, type InputStamp } from './up-to-date.ts';

/**
 * What the stamp thread posts: the stamp, the stamps of the owner folders it was given (their
 * folders' stamps as JSON, up-to-date.ts `portableHalf`), or why it has none.
 */
export type StampMessage = { stamp: InputStamp } | { half: HalfStamp } | { error: string };

/**
 * `stampInputs(root, cacheDir)` in a thread of its own; the same in this thread when the thread
 * fails, rejecting with what `stampInputs` throws there.
 */
export function stampInputsInThread(root: string, cacheDir: string): Promise<InputStamp> {
  return inThreadOrHere<StampMessage, InputStamp>(
    import.meta.url,
    'stamp-worker',
    { root, cacheDir },
    (message) => ('stamp' in message ? { value: message.stamp } : undefined),
    () => stampInputs(root, cacheDir),
  );
}

/**
 * `stampInputs(root, cacheDir)` with half of the owner folders stamped in a thread of its own
 * while this thread stamps the other half (up-to-date.ts `stampInputsInHalves`): for a build that
 * waits for the stamps, with at least `minOwners` owner folders (default `SPLIT_OWNERS`). The same
 * stamp; a thread that cannot be started or fails leaves its half to this thread. With `early`
 * (a content folder known to be large) the thread starts before the owner folders are listed, so
 * that it has loaded its modules when its half is ready for it.
 */
export function stampInputsInTwoThreads(root: string, cacheDir: string, minOwners?: number, early = false): Promise<InputStamp> {
  const start = (): ThreadAwaitingWork<string[], HalfStamp> =>
    threadAwaitingWork<string[], StampMessage, HalfStamp>(
      import.meta.url,
      'stamp-worker',
      { root, cacheDir, half: true },
      (message) => ('half' in message ? { value: message.half } : undefined),
      (owners) => stampOwners(root, cacheDir, 1, owners),
    );
  const ahead = early ? start() : undefined;
  let given = false;
  const stamping = stampInputsInHalves(
    root,
    cacheDir,
    (owners) => {
      given = true;
      return (ahead ?? start()).give(owners);
    },
    minOwners,
  );
  // A content folder too small for two threads after all: the thread started ahead gets no work.
  return stamping.finally(() => {
    if (!given) ahead?.cancel();
  });
}
