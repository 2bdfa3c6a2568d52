/**
 * A per-client request limit for the Node server (the spec's RATE_LIMITED, 429). Fixed windows:
 * at most `limit` requests per client address in each `windowMs`; the table is dropped at every
 * window boundary, so memory stays bounded by the clients of one window.
 */

/** At most `limit` requests per client in each window of `windowMs` milliseconds. */
export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  /** The clock, in milliseconds (default `Date.now`): tests move time without waiting for it. */
  now?: () => number;
}

/** What the limiter decided for one request, with what the `X-RateLimit-*` headers report. */
export interface RateLimitDecision {
  /** The request may go on. */
  allowed: boolean;
  /** Requests allowed per window. */
  limit: number;
  /** Requests this client has left in the current window (0 once refused). */
  remaining: number;
  /** Whole seconds until the window ends and the count starts again (at least 1). */
  reset: number;
}

/**
 * A limiter: call it with a client key for each request; it answers whether the request may go
 * on, how many the client has left and when the window ends (`Retry-After` of a refusal).
 * `now` is injectable for tests.
 */
export function createRateLimiter(options: RateLimitOptions, now: () => number = Date.now): (client: string) => RateLimitDecision {
  let windowStart = now();
  let counts = new Map<string, number>();
  return (client) => {
    const time = now();
    if (time - windowStart >= options.windowMs) {
      windowStart = time;
      counts = new Map();
    }
    const count = (counts.get(client) ?? 0) + 1;
    // Refused requests are not counted further: the number stays bounded and meaningful.
    if (count <= options.limit) counts.set(client, count);
    return {
      allowed: count <= options.limit,
      limit: options.limit,
      remaining: Math.max(0, options.limit - count),
      reset: Math.max(1, Math.ceil((windowStart + options.windowMs - time) / 1000)),
    };
  };
}

/** The `X-RateLimit-*` headers of an answer, and `Retry-After` when the request was refused. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.reset),
    ...(decision.allowed ? {} : { 'retry-after': String(decision.reset) }),
  };
}

const WINDOWS: Record<string, number> = { s: 1_000, sec: 1_000, min: 60_000, m: 60_000, h: 3_600_000, hour: 3_600_000 };

/**
 * A `--rate-limit` value: `N/s`, `N/min` or `N/h` (N a positive whole number), or a bare `N`
 * (per minute, as before). Undefined when not a valid value.
 */
export function parseRateLimit(value: string): RateLimitOptions | undefined {
  const match = /^([1-9]\d{0,8})(?:\/(s|sec|m|min|h|hour))?$/.exec(value.trim());
  if (match === null) return undefined;
  return { limit: Number(match[1]), windowMs: WINDOWS[match[2] ?? 'min']! };
}
