/**
 * Fair CPU (src/fair.ts): searches limited to a few at once with a bounded queue (past it a 429
 * with Retry-After), light requests never waiting for them, and long work giving the thread back.
 */
import { describe, expect, it } from 'vitest';
import { SLICE_MS, TimeSlicer, Turns, isSearchRequest, limitSearches } from '../src/fair.ts';

const request = (path: string): Request => new Request(`http://x${path}`);

describe('limitSearches', () => {
  it('runs at most `max` searches, queues `queue` more, refuses the rest; lists pass meanwhile', async () => {
    const gates: Array<() => void> = [];
    const started: string[] = [];
    const handler = limitSearches(
      async (r) => {
        const path = new URL(r.url).pathname + new URL(r.url).search;
        started.push(path);
        if (isSearchRequest(r)) await new Promise<void>((resolve) => gates.push(resolve));
        return new Response(path);
      },
      { max: 1, queue: 1 },
    );
    const first = handler(request('/api/v1/skills/search?q=a'));
    const second = handler(request('/api/v1/skills/autocomplete?q=b'));
    const refused = await handler(request('/api/search?q=c'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    // A list is answered while the search holds the only turn.
    expect(await (await handler(request('/api/v1/skills?page=2'))).text()).toBe('/api/v1/skills?page=2');
    await expect.poll(() => started.length).toBe(2);
    expect(started).toEqual(['/api/v1/skills/search?q=a', '/api/v1/skills?page=2']);
    gates.shift()!();
    expect(await (await first).text()).toBe('/api/v1/skills/search?q=a');
    // The queued one gets the turn when the first ends.
    await expect.poll(() => gates.length).toBe(1);
    gates.shift()!();
    expect(await (await second).text()).toBe('/api/v1/skills/autocomplete?q=b');
  });

  it('a search that throws gives its turn back', async () => {
    let calls = 0;
    const handler = limitSearches(async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
      return new Response('ok');
    }, { max: 1, queue: 0 });
    await expect(handler(request('/api/v1/skills/search?q=a'))).rejects.toThrow('boom');
    expect((await handler(request('/api/v1/skills/search?q=a'))).status).toBe(200);
  });
});

describe('Turns', () => {
  it('runs at most `max` tasks at once, the others first come first served, and says when `queue` wait', async () => {
    const turns = new Turns(2, 3);
    const gates = new Map<number, () => void>();
    const started: number[] = [];
    const task = (n: number) => () =>
      new Promise<number>((resolve) => {
        started.push(n);
        gates.set(n, () => resolve(n));
      });
    const runs = [1, 2, 3, 4, 5].map((n) => turns.run(task(n)));
    await expect.poll(() => started).toEqual([1, 2]);
    expect(turns.full).toBe(true);
    gates.get(2)!();
    await expect.poll(() => started).toEqual([1, 2, 3]);
    expect(turns.full).toBe(false);
    for (const n of [1, 3, 4, 5]) {
      await expect.poll(() => gates.has(n)).toBe(true);
      gates.get(n)!();
    }
    expect(await Promise.all(runs)).toEqual([1, 2, 3, 4, 5]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
  });

  it('a task that throws gives its turn back', async () => {
    const turns = new Turns(1);
    await expect(turns.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await turns.run(async () => 'next')).toBe('next');
  });
});

describe('TimeSlicer', () => {
  it('gives the thread back between slices, so other callbacks run in the middle of a long job', async () => {
    const busy = (ms: number): void => {
      const end = performance.now() + ms;
      while (performance.now() < end) {
        // Work that never yields by itself.
      }
    };
    const steps = 10 * SLICE_MS;
    let done = 0;
    let seenAt: number | undefined;
    setImmediate(() => (seenAt = done));
    const slicer = new TimeSlicer();
    for (let i = 0; i < steps; i++) {
      busy(1);
      done++;
      await slicer.tick();
    }
    expect(seenAt).toBeDefined();
    expect(seenAt!).toBeLessThan(steps);
  });

  it('light work never waits: a tick within the slice is already resolved', async () => {
    const slicer = new TimeSlicer();
    let ran = false;
    setImmediate(() => (ran = true));
    await slicer.tick();
    expect(ran).toBe(false);
  });
});
