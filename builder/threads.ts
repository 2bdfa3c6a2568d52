/**
 * Worker threads of the build, started from real modules next to the code that uses them.
 *
 * In the published package the modules are `.js` files and Node runs them as they are. In a clone
 * they are `.ts` files, which Node 20 cannot run by itself: the thread then registers tsx (a
 * development dependency, present wherever the `.ts` sources run) before importing the module,
 * whatever started the process (the tsx CLI, vitest, a script).
 */
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Start the worker module `name` (without extension) found next to `base` (the caller's
 * `import.meta.url`), with the caller's own extension.
 */
export function startWorker(base: string, name: string, options: WorkerOptions = {}): Worker {
  const extension = extname(fileURLToPath(base));
  const url = new URL(`./${name}${extension}`, base);
  if (extension !== '.ts') return new Worker(url, options);
  // tsx's ESM API (its `import` entry sits beside the `require` one), resolved from here so any
  // working directory finds it, registered inside the thread by a plain JavaScript entry: a
  // `--import` flag is not honoured by the threads of every host (vitest's, for one).
  const api = pathToFileURL(createRequire(base).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return new Worker(new URL('./ts-thread.mjs', import.meta.url), { ...options, argv: [...(options.argv ?? []), api, url.href] });
}

/**
 * The answer of the worker module `name` next to `base` (started with `workerData`), read from its
 * first message by `take`; or `here()` in the calling thread when the thread cannot start, fails,
 * exits without a word, or `take` finds no answer in its message (undefined). A `here` that throws
 * rejects the promise. For work that gives the same result in either thread, moved off the
 * caller's so that it runs beside the caller's own work.
 */
export function inThreadOrHere<M, T>(base: string, name: string, workerData: unknown, take: (message: M) => { value: T } | undefined, here: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (answer: () => T): void => {
      if (settled) return;
      settled = true;
      try {
        resolve(answer());
      } catch (error) {
        reject(error as Error);
      }
    };
    let worker: Worker;
    try {
      worker = startWorker(base, name, { workerData });
    } catch {
      settle(here);
      return;
    }
    worker.once('message', (message: M) => {
      const taken = take(message);
      settle(taken === undefined ? here : () => taken.value);
    });
    worker.once('error', () => settle(here));
    worker.once('exit', () => settle(here));
  });
}

/** A worker thread started ahead of its work (`threadAwaitingWork`). */
export interface ThreadAwaitingWork<I, T> {
  /** Post `input` to the thread: its answer, or the calling thread's own when the thread cannot give one. */
  give(input: I): Promise<T>;
  /** Stop a thread that will get no work. */
  cancel(): void;
}

/**
 * The worker module `name` next to `base`, started now (with `workerData`) and given its work
 * later, as a message (`give`): the answer `take` reads from its first message, or `here(input)`
 * in the calling thread when the thread cannot start, fails, exits without a word, or `take`
 * finds no answer in its message. For work whose input is known only after the time a thread
 * takes to start (loading its modules), which the caller spends finding that input.
 */
export function threadAwaitingWork<I, M, T>(base: string, name: string, workerData: unknown, take: (message: M) => { value: T } | undefined, here: (input: I) => T): ThreadAwaitingWork<I, T> {
  let worker: Worker | undefined;
  try {
    worker = startWorker(base, name, { workerData });
  } catch {
    worker = undefined;
  }
  let answer: { message: M } | undefined;
  let ended = worker === undefined;
  const waiting: Array<() => void> = [];
  const wake = (): void => {
    for (const settle of waiting.splice(0)) settle();
  };
  worker?.once('message', (message: M) => {
    answer = { message };
    wake();
  });
  const end = (): void => {
    ended = true;
    wake();
  };
  worker?.once('error', end);
  worker?.once('exit', end);
  return {
    give(input) {
      return new Promise<T>((resolve, reject) => {
        const settle = (): void => {
          try {
            const taken = answer === undefined ? undefined : take(answer.message);
            resolve(taken === undefined ? here(input) : taken.value);
          } catch (error) {
            reject(error as Error);
          }
        };
        if (worker === undefined || ended || answer !== undefined) {
          settle();
          return;
        }
        waiting.push(settle);
        worker.postMessage(input);
      });
    },
    cancel() {
      void worker?.terminate();
    },
  };
}
