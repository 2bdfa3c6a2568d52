/**
 * Fair CPU for hosts that answer many requests on one thread (the Node server): a search or an
 * autocomplete can cost a thousand times a list page, so
 *
 * - `limitSearches` lets at most `max` searches (one by default) run at once; others wait in a bounded queue, and
 *   past it the answer is a 429 RATE_LIMITED error with `Retry-After` (the client retries), never
 *   a pile of half-done work. Light requests (lists, skills, categories) never wait for it;
 * - `TimeSlicer` makes a running search give the thread back every few milliseconds, so a light
 *   request that arrives meanwhile is answered between two slices instead of after the search.
 *
 * Runtime core: no Node built-ins (the yield uses `setImmediate` where the host has it).
 */
import { ApiError } from './errors.ts';
import type { Handler } from './handler.ts';
import { jsonError } from './host-policy.ts';
import { routeOf } from './route.ts';

/** Options of `limitSearches`. */
export interface SearchLimitOptions {
  /**
   * Searches running at once; default 1. The searches share one thread: running two at once
   * answers them no sooner (measured: BENCHMARKS.md "Fair CPU"), and a list request then waits
   * behind two slices instead of one.
   */
  max?: number;
  /** Searches waiting for a turn before more are refused; default 64. */
  queue?: number;
  /** The handler's base path (as given to `createHandler`); default `/`. */
  basePath?: string;
}

/** Whether `request` is a search: a route the endpoint table marks `heavy` (src/endpoints.ts). */
export function isSearchRequest(request: Request, basePath = '/'): boolean {
  return routeOf(request, basePath)?.endpoint.heavy === true;
}

/** `handler` with at most `max` searches at once (see the module comment). */
export function limitSearches(handler: Handler, { max = 1, queue = 64, basePath = '/' }: SearchLimitOptions = {}): Handler {
  const turns = new Turns(max, queue);
  return async (request) => {
    if (!isSearchRequest(request, basePath)) return handler(request);
    if (turns.full) {
      return jsonError(new ApiError('RATE_LIMITED', 'The server is busy with other searches; retry in a second'), { 'retry-after': '1', 'cache-control': 'no-store' });
    }
    return turns.run(() => handler(request));
  };
}

/**
 * At most `max` tasks at once; the others wait for a turn, first come first served. `full` says
 * when `queue` tasks wait already, for a caller that refuses rather than queue more.
 */
export class Turns {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly max: number,
    readonly queue = Number.POSITIVE_INFINITY,
  ) {}

  /** Whether `max` tasks run and `queue` wait. */
  get full(): boolean {
    return this.running >= this.max && this.waiting.length >= this.queue;
  }

  /** Run `task` in its turn. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    // The turn is handed over by `release`: `running` stays counted for the next task.
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.running--;
  }
}

/** Milliseconds of work a search does before giving the thread back. */
export const SLICE_MS = 8;

function now(): number {
  return globalThis.performance?.now() ?? Date.now();
}

/** Let the host run other work (I/O callbacks, other requests) before going on. */
function yieldToHost(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate !== undefined ? immediate(resolve) : setTimeout(resolve, 0)));
}

/** Gives the thread back once per `SLICE_MS` of work: call `tick()` between steps of a long job. */
export class TimeSlicer {
  #since = now();

  /** Yield when the current slice is used up; otherwise a resolved promise (light work never waits). */
  async tick(): Promise<void> {
    if (now() - this.#since < SLICE_MS) return;
    await yieldToHost();
    this.#since = now();
  }
}
