/**
 * The command line's build (`runBuild`, builder/build.ts) run in a worker thread whose young
 * generation is larger than Node's default. A large build keeps hundreds of thousands of objects
 * (records, paths, the output's record) that each survive a few collections of the young
 * generation before they are promoted; with Node's default 16 MiB semi-spaces those collections
 * copy them again and again. The size of the young generation is fixed when an isolate starts
 * (`v8.setFlagsFromString` later changes nothing), and a thread's own isolate takes it from its
 * `resourceLimits`, so the build gets one without a flag on the command line or in
 * `NODE_OPTIONS`. Everything else is as in the calling thread: the same options (but
 * `onProgress`, relayed as messages), the same report, a `BuildError` with its problems.
 * The thread's side is cli/build-worker.ts.
 *
 * The old generation may grow `BUILD_HEAP_GROWING_PERCENT` percent past what the last full
 * collection left, instead of V8's own factor (up to four times it): a large build turns over
 * gigabytes of short-lived text while it holds a few hundred megabytes, and the default let the
 * garbage pile up to several times what it holds before collecting (BENCHMARKS.md). Not for an
 * `--incremental` build whose build cache is there: it reads little text and holds what it
 * keeps (records, the output's record) from the start, so growing by half at a time collected it
 * all again seven or eight times while the heap grew to its size (2 s of a one-change build at
 * 100k). V8's flags are the process's, so it is set here, for each build, by the command line,
 * never by the library's `runBuild`.
 */
import type { BuildOptions, BuildReport } from '../builder/build.ts';
import type { Problem } from '../builder/model.ts';
import { existsSync, realpathSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { cacheFile, resolveCacheDir } from '../builder/build-cache.ts';
import { startWorker } from '../builder/threads.ts';

/**
 * Semi-space size of the build thread, in MiB (Node's default is 16; its young generation is three
 * of them). Two of them stay committed once grown, for the whole build: larger ones cost a large
 * build's peak memory more than they save its collector (BENCHMARKS.md).
 */
export const BUILD_SEMI_SPACE_MB = 32;

/** How far the build thread's old generation grows past what its last full collection left, in percent. */
export const BUILD_HEAP_GROWING_PERCENT = 50;

/** What the build thread posts: its steps, then the report or the failure. */
export type BuildMessage =
  | { step: string; files: number }
  | { report: BuildReport }
  | { error: { name: string; message: string; stack?: string; problems?: Problem[] } };

/**
 * `runBuild(options)` in a thread of its own with a larger young generation: resolves its report,
 * rejects with its error (a `BuildError` keeps its name and `problems`), reports its steps
 * through `options.onProgress` in this thread.
 */
export function buildInThread(options: BuildOptions): Promise<BuildReport> {
  const { onProgress, ...data } = options;
  setFlagsFromString(`--heap-growing-percent=${buildHeapGrowingPercent(options)}`);
  const worker = startWorker(import.meta.url, 'build-worker', {
    workerData: data,
    resourceLimits: { maxYoungGenerationSizeMb: 3 * BUILD_SEMI_SPACE_MB },
  });
  return new Promise<BuildReport>((resolve, reject) => {
    let settled = false;
    worker.on('message', (message: BuildMessage) => {
      if ('step' in message) onProgress?.(message.step, message.files);
      else if ('report' in message) {
        settled = true;
        resolve(message.report);
      } else {
        settled = true;
        reject(errorFrom(message.error));
      }
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the build thread stopped (exit code ${code}) before the build ended`));
    });
  });
}

/** An error posted by the build thread, as the calling code knows it (a `BuildError`: its name and problems). */
function errorFrom(posted: { name: string; message: string; stack?: string; problems?: Problem[] }): Error {
  const error = new Error(posted.message) as Error & { problems?: Problem[] };
  error.name = posted.name;
  if (posted.stack !== undefined) error.stack = posted.stack;
  if (posted.problems !== undefined) error.problems = posted.problems;
  return error;
}

/**
 * The old generation's growth a build of `options` runs with: `BUILD_HEAP_GROWING_PERCENT`, or 0
 * (V8's own factor) for an incremental build whose build cache exists (most skills then come from it).
 */
export function buildHeapGrowingPercent(options: BuildOptions): number {
  if (options.incremental !== true) return BUILD_HEAP_GROWING_PERCENT;
  try {
    return existsSync(cacheFile(resolveCacheDir(options.cacheDir), realpathSync.native(options.contentDir))) ? 0 : BUILD_HEAP_GROWING_PERCENT;
  } catch {
    return BUILD_HEAP_GROWING_PERCENT;
  }
}
