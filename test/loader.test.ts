/**
 * src/loader.ts: the HTTP loader against a real server, the in-memory loader, and the LRU cache
 * with in-flight de-duplication.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertSafePath, cachedLoader, fetchLoader, mapLoader, type Loader } from '../src/loader.ts';
import { SEARCH_DIR } from '../src/search/format.ts';

describe('fetchLoader', () => {
  let server: Server;
  let origin: string;
  const requested: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      requested.push(req.url!);
      if (req.url === '/site/api/v1/ok.json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[1]}');
      else if (req.url === '/site/api/v1/broken.json') res.writeHead(200).end('{"data":');
      else if (req.url === '/site/api/v1/fail.json') res.writeHead(503).end('busy');
      else res.writeHead(404).end('not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('resolves paths against the base URL, with or without a trailing slash', async () => {
    for (const base of [`${origin}/site`, `${origin}/site/`, new URL(`${origin}/site/`)]) {
      expect(await fetchLoader(base)('api/v1/ok.json')).toEqual({ data: [1] });
    }
  });

  it('resolves undefined on 404 and rejects other failures', async () => {
    const load = fetchLoader(`${origin}/site/`);
    expect(await load('api/v1/missing.json')).toBeUndefined();
    await expect(load('api/v1/fail.json')).rejects.toThrow(/503/);
    await expect(load('api/v1/broken.json')).rejects.toThrow();
  });

  it('uses the given fetch', async () => {
    const seen: string[] = [];
    const load = fetchLoader('https://example.invalid/x/', async (input) => {
      seen.push(String(input));
      return new Response('{"a":1}');
    });
    expect(await load('api/v1/manifest.json')).toEqual({ a: 1 });
    expect(seen).toEqual(['https://example.invalid/x/api/v1/manifest.json']);
  });

  it('refuses unsafe paths without requesting anything', async () => {
    const before = requested.length;
    await expect(fetchLoader(`${origin}/site/`)('../secret.json')).rejects.toThrow(/unsafe/);
    expect(requested.length).toBe(before);
  });
});

describe('assertSafePath', () => {
  it.each(['api/v1/manifest.json', 'api/v1/skills/a/b.c/index.json', 'api/v1/skills/a/.../index.json', 'x.json'])('accepts %s', (path) => {
    expect(() => assertSafePath(path)).not.toThrow();
  });
  it.each(['', '/etc/passwd.json', '../x.json', 'a/../x.json', 'a/./x.json', 'a//x.json', 'a/x', 'a\\x.json', 'a/%2e%2e/x.json', 'a/\0.json', 'https://evil/x.json', 'a/x.json/'])('rejects %j', (path) => {
    expect(() => assertSafePath(path)).toThrow();
  });
});

describe('mapLoader', () => {
  it('answers from the map, undefined when absent', async () => {
    const load = mapLoader(new Map([['a/b.json', { x: 1 }]]));
    expect(await load('a/b.json')).toEqual({ x: 1 });
    expect(await load('a/c.json')).toBeUndefined();
    await expect(load('../a/b.json')).rejects.toThrow();
  });
});

describe('cachedLoader', () => {
  function counting(answer: (path: string, n: number) => Promise<unknown>): { load: Loader; calls: string[] } {
    const calls: string[] = [];
    return { calls, load: (path) => answer(path, calls.push(path)) };
  }

  it('shares one in-flight load between concurrent callers', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { load, calls } = counting(async (path) => (await gate, { path }));
    const cached = cachedLoader(load, { maxEntries: 10 });
    const all = Promise.all([cached('m.json'), cached('m.json'), cached('m.json')]);
    release();
    expect(await all).toEqual([{ path: 'm.json' }, { path: 'm.json' }, { path: 'm.json' }]);
    expect(calls).toEqual(['m.json']);
  });

  it('evicts the least recently used entry, remembers undefined answers', async () => {
    const { load, calls } = counting(async (path) => (path === 'none.json' ? undefined : path));
    const cached = cachedLoader(load, { maxEntries: 2 });
    await cached('a.json');
    await cached('b.json');
    await cached('a.json'); // a is now the most recent
    await cached('c.json'); // evicts b
    await cached('a.json');
    await cached('b.json');
    expect(calls).toEqual(['a.json', 'b.json', 'c.json', 'b.json']);
    const { load: load2, calls: calls2 } = counting(async () => undefined);
    const cached2 = cachedLoader(load2, { maxEntries: 2 });
    expect(await cached2('none.json')).toBeUndefined();
    expect(await cached2('none.json')).toBeUndefined();
    expect(calls2).toHaveLength(1);
  });

  it('does not remember a failure', async () => {
    const { load, calls } = counting(async (_path, n) => {
      if (n === 1) throw new Error('flaky');
      return 'ok';
    });
    const cached = cachedLoader(load, { maxEntries: 2 });
    await expect(cached('x.json')).rejects.toThrow('flaky');
    expect(await cached('x.json')).toBe('ok');
    expect(calls).toHaveLength(2);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects maxEntries %s', (maxEntries) => {
    expect(() => cachedLoader(async () => undefined, { maxEntries })).toThrow(RangeError);
  });
});

describe('cachedLoader and the search index', () => {
  it('passes search index files through (the search engine keeps them), keeps the rest', async () => {
    const reads: string[] = [];
    const load = cachedLoader(async (path) => (reads.push(path), { path }), { maxEntries: 10 });
    for (let i = 0; i < 2; i++) {
      await load('api/v1/manifest.json');
      await load(`${SEARCH_DIR}/t.abc.json`);
    }
    expect(reads).toEqual(['api/v1/manifest.json', `${SEARCH_DIR}/t.abc.json`, `${SEARCH_DIR}/t.abc.json`]);
    const keepAll = cachedLoader(async (path) => (reads.push(path), { path }), { maxEntries: 10, passThrough: () => false });
    reads.length = 0;
    await keepAll(`${SEARCH_DIR}/t.abc.json`);
    await keepAll(`${SEARCH_DIR}/t.abc.json`);
    expect(reads).toEqual([`${SEARCH_DIR}/t.abc.json`]);
  });
});
