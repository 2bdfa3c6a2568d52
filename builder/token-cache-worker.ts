/**
 * The thread side of builder/token-cache-thread.ts: reads and checks one token cache file
 * (builder/search-corpus.ts `readTokenCacheBytes`) and moves its body to the calling thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readTokenCacheBytes } from './search-corpus.ts';
import type { TokenCacheMessage } from './token-cache-thread.ts';

const { file, code } = workerData as { file: string; code: string };
let message: TokenCacheMessage;
try {
  message = { bytes: readTokenCacheBytes(file, code) ?? null };
} catch (error) {
  message = { error: error instanceof Error ? error.message : String(error) };
}
parentPort!.postMessage(message, message.bytes?.body === undefined ? [] : [message.bytes.body.buffer as ArrayBuffer]);
