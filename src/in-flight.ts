/**
 * How the runtime's caches keep a load that is still under way: shared with concurrent callers of
 * the same key (one read of a hot file, the default), or kept only once it settled.
 *
 * `settled` is for hosts that isolate requests: Cloudflare's workerd does not let one request wait
 * on a promise whose I/O belongs to another request (the waiting request is judged hung and
 * answered a plain-text 500). There concurrent first calls each load for themselves, and later
 * calls get the settled value, which any request may read.
 */
export type InFlight = 'shared' | 'settled';

/**
 * Put `pending` into a cache through `keep` the way `mode` says, and give it back. Shared: at once,
 * and `drop` runs if it fails (a failure is never remembered). Settled: only its value, once it
 * resolved, as an already-resolved promise.
 */
export function keepLoad<T>(pending: Promise<T>, mode: InFlight, keep: (value: Promise<T>) => void, drop: (value: Promise<T>) => void): Promise<T> {
  if (mode === 'shared') {
    keep(pending);
    pending.catch(() => drop(pending));
  } else {
    pending.then(
      (value) => keep(Promise.resolve(value)),
      () => undefined,
    );
  }
  return pending;
}
