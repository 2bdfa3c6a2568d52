/**
 * The thread side of builder/stamp-thread.ts: stamps the inputs of one content folder
 * (builder/up-to-date.ts `stampInputs`), or with `half` only the owner folders it is then sent
 * as its one message (`stampOwners`, the second half), and posts what it found, or the error that
 * stopped it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { portableHalf, portableStamp, stampInputs, stampOwners } from './up-to-date.ts';
import type { StampMessage } from './stamp-thread.ts';

const { root, cacheDir, half } = workerData as { root: string; cacheDir: string; half?: boolean };

/** What the thread posts for owner folders `given`, or for the whole content folder without them. */
function stamped(given: string[] | undefined): StampMessage {
  try {
    return given === undefined ? { stamp: portableStamp(stampInputs(root, cacheDir)) } : { half: portableHalf(stampOwners(root, cacheDir, 1, given)) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

// One half (threads.ts `threadAwaitingWork`): its owner folders come as the one message.
if (half === true) parentPort!.once('message', (given: string[]) => parentPort!.postMessage(stamped(given)));
else parentPort!.postMessage(stamped(undefined));
