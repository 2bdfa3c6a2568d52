/**
 * The thread side of builder/stamp-thread.ts: stamps the inputs of one content folder
 * (builder/up-to-date.ts `stampInputs`), or with `owners` only those owner folders (`stampOwners`,
 * the second half), and posts what it found, or the error that stopped it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { stampInputs, stampOwners } from './up-to-date.ts';
import type { StampMessage } from './stamp-thread.ts';

const { root, cacheDir, owners } = workerData as { root: string; cacheDir: string; owners?: string[] };
let message: StampMessage;
try {
  message = owners === undefined ? { stamp: stampInputs(root, cacheDir) } : { owners: stampOwners(root, cacheDir, 1, owners) };
} catch (error) {
  message = { error: error instanceof Error ? error.message : String(error) };
}
parentPort!.postMessage(message);
