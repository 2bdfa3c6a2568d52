/**
 * A per-client request limit for the Node server (the spec's RATE_LIMITED, 429). Fixed windows:
 * at most `limit` requests per client address in each `windowMs`; the table is dropped at every
 * window boundary, so memory stays bounded by the clients of one window.
 */

/** At most `limit` requests per client in each window of `windowMs` milliseconds. */
export interface RateLimitOptions {
  limit: number;
  windowMs: number;
}

/**
 * A limiter: call it with a client key for each request; it answers undefined when the request
 * may go on, or the whole seconds until the window ends (for `Retry-After`) when it may not.
 * `now` is injectable for tests.
 */
export function createRateLimiter(options: RateLimitOptions, now: () => number = Date.now): (client: string) => number | undefined {
  let windowStart = now();
  let counts = new Map<string, number>();
  return (client) => {
    const time = now();
    if (time - windowStart >= options.windowMs) {
      windowStart = time;
      counts = new Map();
    }
    const count = (counts.get(client) ?? 0) + 1;
    counts.set(client, count);
    if (count <= options.limit) return undefined;
    return Math.max(1, Math.ceil((windowStart + options.windowMs - time) / 1000));
  };
}
