/**
 * The thread side of builder/stamp-thread.ts: stamps the inputs of one content folder
 * (builder/up-to-date.ts `stampInputs`), marks the shared flag when the build that wrote the
 * output recorded the same stamps (nothing changed: the build may stop reading its caches at
 * once), and posts the stamp, or the error that stopped it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { stampInputs, upToDate } from './up-to-date.ts';
import type { StampMessage } from './stamp-thread.ts';

const { root, cacheDir, check, flag } = workerData as { root: string; cacheDir: string; check?: { out: string; key: string }; flag: SharedArrayBuffer };
let message: StampMessage;
try {
  const stamp = stampInputs(root, cacheDir);
  if (check !== undefined && upToDate(cacheDir, root, check.out, check.key, stamp) !== undefined) Atomics.store(new Int32Array(flag), 0, 1);
  message = { stamp };
} catch (error) {
  message = { error: error instanceof Error ? error.message : String(error) };
}
parentPort!.postMessage(message);
