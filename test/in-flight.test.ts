/**
 * Loads under way and isolated requests (src/in-flight.ts). workerd does not let one request wait
 * on another request's I/O: a request that does is cancelled as hung, a plain-text 500 (seen at
 * 10k skills with 16 concurrent open-phrase autocompletes: 3 in 384 before the fix, 0 in 384
 * after). Modelled here exactly: every load issued by a first request never settles (its I/O, as
 * another request sees it; AsyncLocalStorage tells which request issued a load), and a second
 * request for the same files must still be answered.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../src/handler.ts';
import { cachedLoader, mapLoader, type Loader } from '../src/loader.ts';
import { SAMPLE } from './contract/contract-data.ts';

/** Which request is running: loads issued by `hanging` never settle. */
const requestContext = new AsyncLocalStorage<'hanging' | 'other'>();

/** A loader over `files` whose loads never settle when issued by the `hanging` request. */
function hangsForFirstRequest(files: ReadonlyMap<string, unknown>): Loader {
  const inner = mapLoader(files);
  return (path) => (requestContext.getStore() === 'hanging' ? new Promise<never>(() => undefined) : inner(path));
}

/** A loader over `files` whose first load of each path never settles. */
function firstLoadHangs(files: ReadonlyMap<string, unknown>): Loader {
  const seen = new Set<string>();
  const inner = mapLoader(files);
  return (path) => {
    if (seen.has(path)) return inner(path);
    seen.add(path);
    return new Promise<never>(() => undefined);
  };
}

/** `promise`, or 'still waiting' once the event loop has turned a few hundred times. */
async function settledSoon<T>(promise: Promise<T>): Promise<T | 'still waiting'> {
  let waiting = true;
  const marker = new Promise<'still waiting'>((resolve) => {
    const spin = (n: number): void => {
      if (!waiting) return;
      if (n === 0) resolve('still waiting');
      else setImmediate(() => spin(n - 1));
    };
    spin(500);
  });
  try {
    return await Promise.race([promise, marker]);
  } finally {
    waiting = false;
  }
}

/**
 * `promise` once it settles, or 'still waiting' after `ms`: for what must be answered while
 * another load hangs. The answer may need the thread pool (a digest for the ETag), which a loaded
 * machine runs later than any fixed number of event-loop turns; only a hang takes the whole `ms`.
 */
async function answered<T>(promise: Promise<T>, ms = 10_000): Promise<T | 'still waiting'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const marker = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  try {
    return await Promise.race([promise, marker]);
  } finally {
    clearTimeout(timer);
  }
}

describe('cachedLoader', () => {
  it('shared (the default): concurrent callers get the one load under way', async () => {
    let calls = 0;
    const loader = cachedLoader(async () => ++calls, { maxEntries: 10 });
    const [a, b] = [loader('a.json'), loader('a.json')];
    expect(a).toBe(b);
    expect(await Promise.all([a, b])).toEqual([1, 1]);
    expect(calls).toBe(1);
  });

  it('settled: a second caller never waits on the first one\'s load, and later callers get the settled value', async () => {
    const loader = cachedLoader(firstLoadHangs(new Map([['a.json', { data: 1 }]])), { maxEntries: 10, inFlight: 'settled' });
    const first = loader('a.json');
    expect(await answered(loader('a.json'))).toEqual({ data: 1 });
    expect(await settledSoon(first)).toBe('still waiting');
    expect(await answered(loader('a.json'))).toEqual({ data: 1 });
  });
});

describe('the handler with inFlight: settled', () => {
  it.each([
    '/api/v1/skills?limit=3',
    '/api/v1/skills/shipyard-ops/docker-compose-helper',
    '/api/v1/skills/Shipyard-Ops/Docker-Compose-Helper',
    '/api/v1/skills/search?q=docker%20compose',
    '/api/v1/skills/search?q=%22compose%20file%22',
    '/api/v1/skills/autocomplete?q=%22pull%20re&limit=20',
    '/api/v1/categories/devops?locale=de',
  ])('%s: a second request is answered while the first one\'s loads hang', async (url) => {
    const files = await SAMPLE.files();
    const handler = createHandler(cachedLoader(hangsForFirstRequest(files), { maxEntries: 100, inFlight: 'settled' }), { inFlight: 'settled' });
    const request = (who: 'hanging' | 'other') => requestContext.run(who, () => handler(new Request(`http://x${url}`)));
    const first = request('hanging');
    const second = await answered(request('other'));
    expect(second, url).not.toBe('still waiting');
    expect((second as Response).status, url).toBe(200);
    expect(await settledSoon(first)).toBe('still waiting');
    // Later requests are answered from what the second one settled.
    expect((await answered(request('other')) as Response).status).toBe(200);
  });

  it('shared (the default) would make the second request wait: what workerd calls hung', async () => {
    const files = await SAMPLE.files();
    const handler = createHandler(cachedLoader(hangsForFirstRequest(files), { maxEntries: 100 }));
    void requestContext.run('hanging', () => handler(new Request('http://x/api/v1/skills?limit=3')));
    expect(await settledSoon(requestContext.run('other', () => handler(new Request('http://x/api/v1/skills?limit=3'))))).toBe('still waiting');
  });
});
