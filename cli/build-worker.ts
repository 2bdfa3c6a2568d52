/**
 * The build thread of the command line (cli/build-thread.ts): runs `runBuild` with the options it
 * was started with and posts each step, then the report or the failure (a `BuildError` with its
 * name and problems).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runBuild, type BuildOptions } from '../builder/build.ts';
import type { Problem } from '../builder/model.ts';
import type { BuildMessage } from './build-thread.ts';

const port = parentPort!;
const post = (message: BuildMessage): void => port.postMessage(message);
try {
  post({ report: await runBuild({ ...(workerData as BuildOptions), onProgress: (step, files) => post({ step, files }) }) });
} catch (error) {
  const e: Error & { problems?: Problem[] } = error instanceof Error ? error : new Error(String(error));
  post({ error: { name: e.name, message: e.message, ...(e.stack === undefined ? {} : { stack: e.stack }), ...(Array.isArray(e.problems) ? { problems: e.problems } : {}) } });
}
