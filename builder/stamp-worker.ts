/**
 * The thread side of builder/stamp-thread.ts: stamps the inputs of one content folder
 * (builder/up-to-date.ts `stampInputs`) and posts the stamp, or the error that stopped it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { stampInputs } from './up-to-date.ts';
import type { StampMessage } from './stamp-thread.ts';

const { root, cacheDir } = workerData as { root: string; cacheDir: string };
let message: StampMessage;
try {
  message = { stamp: stampInputs(root, cacheDir) };
} catch (error) {
  message = { error: error instanceof Error ? error.message : String(error) };
}
parentPort!.postMessage(message);
