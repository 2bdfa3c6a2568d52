/**
 * The no-change check's stamps (builder/up-to-date.ts `stampInputs`) taken in a thread of their
 * own, so an incremental build reads its caches while they are taken. Stamping a large content
 * folder is one `lstat` per file and a listing per changed folder: system calls that keep a core
 * busy for seconds, while reading and parsing the caches keeps the build's. The stamps are the
 * same either way; a thread that cannot be started or fails stamps in the calling thread instead.
 */
import { inThreadOrHere } from './threads.ts';
import { stampInputs, type InputStamp } from './up-to-date.ts';

/** What the stamp thread posts: the stamp, or why it has none. */
export type StampMessage = { stamp: InputStamp } | { error: string };

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
