/**
 * The Node HTTP server on a real socket (port 0) over a real build output: static files and API
 * answers on the wire (ETag/304, gzip, HEAD, CORS), symbolic links and hostile paths (docs/decisions.md
 * H28, H29), oversized requests (docs/decisions.md H30), clients that vanish, rate limiting.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPOSED_HEADERS, strongEtag } from '../src/http-cache.ts';
import { MAX_PIPELINED, MAX_PREPARING, startServer, type RunningServer } from '../src/node/server.ts';
import { FORMAT_VERSION } from '../src/paths.ts';
import { contractContent, writeContractTree } from './contract/contract-data.ts';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-OUTPUT';
/** A JSON file big enough to still be streaming when a client hangs up (and worth compressing). */
const BIG = JSON.stringify({ data: Array.from({ length: 60_000 }, (_, i) => ({ i, hex: randomBytes(16).toString('hex') })) });
const PAGE = '<!doctype html><title>Skills</title><p>Skills Directory</p>\n';

let root: string;
let out: string;
let server: RunningServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'server-test-'));
  out = join(root, 'public');
  const outside = join(root, 'outside');
  await mkdir(join(outside, 'etc'), { recursive: true });
  await writeFile(join(outside, 'secret.json'), JSON.stringify({ secret: SECRET }));
  await writeFile(join(outside, 'etc', 'passwd'), SECRET);
  await writeContractTree(out);
  await writeFile(join(out, 'index.html'), PAGE);
  await mkdir(join(out, 'files'));
  await writeFile(join(out, 'files', 'big.json'), BIG);
  await writeFile(join(out, 'files', 'empty.txt'), '');
  // docs/decisions.md H29: a symlinked directory and a symlinked file inside the served folder.
  await symlink(outside, join(out, 'linked-dir'), 'dir');
  await symlink(join(outside, 'secret.json'), join(out, 'linked.json'));
  await symlink(outside, join(out, 'api', 'v1', 'linked-dir'), 'dir');
  server = await startServer({ dir: out, host: '127.0.0.1' });
});

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with node:http (no automatic decompression, the path sent exactly as given). */
function raw(path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Send raw bytes on a socket; resolves the status line the server answers, or '' when it just closes. */
function rawSocket(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(text.split('\r\n')[0] ?? '') : reject(error)));
  });
}

async function stillServing(): Promise<void> {
  const answer = await raw('/api/v1/categories');
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body.toString())).toHaveProperty('data');
}

describe('static files', () => {
  it('serves a file with a strong ETag, CORS, Vary and its type', async () => {
    const answer = await raw('/files/big.json');
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe(BIG);
    expect(answer.headers['etag']).toMatch(/^"[^"]+"$/);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(BIG)));
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-expose-headers']).toBe(EXPOSED_HEADERS);
    expect(answer.headers['vary']).toBe('Accept-Encoding');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves index.html for / and for a folder', async () => {
    for (const path of ['/', '/index.html']) {
      const answer = await raw(path);
      expect(answer.status).toBe(200);
      expect(answer.body.toString()).toBe(PAGE);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    }
    // A folder without index.html is not listed.
    const folder = await raw('/files/');
    expect(folder.status).toBe(404);
    expect(folder.body.toString()).not.toContain('big.json');
  });

  it('answers 304 to If-None-Match with the current ETag, with CORS and no body', async () => {
    const first = await raw('/files/big.json');
    const etag = String(first.headers['etag']);
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await raw('/files/big.json', { headers: { 'if-none-match': inm } });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers['etag']).toBe(etag);
      expect(again.headers['access-control-allow-origin']).toBe('*');
    }
    expect((await raw('/files/big.json', { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
  });

  it('gzips when Accept-Encoding allows, with its own ETag that also revalidates', async () => {
    const plain = await raw('/files/big.json');
    const zipped = await raw('/files/big.json', { headers: { 'accept-encoding': 'br;q=1, gzip;q=0.8' } });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.body.length).toBeLessThan(Buffer.byteLength(BIG));
    expect(gunzipSync(zipped.body).toString()).toBe(BIG);
    // Another representation of the same content: the weak form of its ETag, as a CDN makes it.
    expect(zipped.headers['etag']).toBe(`W/${plain.headers['etag']}`);
    const again = await raw('/files/big.json', { headers: { 'accept-encoding': 'gzip', 'if-none-match': String(zipped.headers['etag']) } });
    expect(again.status).toBe(304);
    // gzip;q=0 refuses it.
    const refused = await raw('/files/big.json', { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString()).toBe(BIG);
  });

  it('HEAD has the headers of GET and no body', async () => {
    const get = await raw('/files/big.json');
    const head = await raw('/files/big.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['etag', 'content-type', 'content-length', 'access-control-allow-origin', 'vary']) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
  });

  it('serves an empty file and a byte range', async () => {
    const empty = await raw('/files/empty.txt', { headers: { 'accept-encoding': 'gzip' } });
    expect(empty.status).toBe(200);
    expect(empty.body.length).toBe(0);
    const range = await raw('/files/big.json', { headers: { range: 'bytes=0-9', 'accept-encoding': 'gzip' } });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body.toString()).toBe(BIG.slice(0, 10));
  });

  it('weighs If-None-Match before Range; a range outside the file is a 416 JSON error without the file', async () => {
    const etag = String((await raw('/files/big.json')).headers['etag']);
    for (const inm of ['*', etag]) expect((await raw('/files/big.json', { headers: { range: 'bytes=0-9', 'if-none-match': inm } })).status).toBe(304);
    const outside = await raw('/files/big.json', { headers: { range: 'bytes=999999999-' } });
    expect(outside.status).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${Buffer.byteLength(BIG)}`);
    expect(JSON.parse(outside.body.toString())).toHaveProperty('error.code', 'INVALID_PARAMS');
    expect(outside.body.length).toBeLessThan(200);
  });

  it('a file named as a folder (`/index.html/`) is not found', async () => {
    expect((await raw('/index.html/')).status).toBe(404);
    expect((await raw('/files/big.json/')).status).toBe(404);
  });

  it('refuses other methods with 405 and Allow', async () => {
    const answer = await raw('/index.html', { method: 'DELETE' });
    expect(answer.status).toBe(405);
    expect(answer.headers['allow']).toBe('GET, HEAD');
    expect(JSON.parse(answer.body.toString())).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' } });
  });

  // (A method Node's parser does not know, such as TRACK, is a 400 from the parser: see below.)
  it.each(['TRACE', 'PROPFIND', 'POST', 'OPTIONS'])('%s on the API and on a file is a 405 JSON error, never a 500', async (method) => {
    for (const path of ['/api/v1/skills', '/index.html']) {
      const answer = await raw(path, { method });
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers['allow']).toBe('GET, HEAD');
      expect(JSON.parse(answer.body.toString())).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' } });
    }
  });

  it('CONNECT is a 405 JSON error, and the server goes on', async () => {
    // rawSocket resolves the status line.
    expect(await rawSocket('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')).toBe('HTTP/1.1 405 Method Not Allowed');
    await stillServing();
  });

  it('sends the hosts\' one caching policy: API answers, static files, content-hashed search files, errors', async () => {
    const search = (await readdir(join(out, 'api/v1/skills/_search')))[0]!;
    const cases: [string, string][] = [
      ['/api/v1/skills', 'public, max-age=60, s-maxage=300'],
      ['/api/v1/skills/nobody/nothing', 'public, max-age=60, s-maxage=300'],
      ['/api/v1/manifest.json', 'public, max-age=300'],
      [`/api/v1/skills/_search/${search}`, 'public, max-age=31536000, immutable'],
    ];
    for (const [path, expected] of cases) expect((await raw(path)).headers['cache-control'], path).toBe(expected);
  });

  it('answers a CORS preflight', async () => {
    const answer = await raw('/api/v1/skills', {
      method: 'OPTIONS',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-allow-methods']).toBe('GET, HEAD');
  });
});

describe('never a file through a link or outside the folder', () => {
  it.each(['/linked-dir/secret.json', '/linked-dir/etc/passwd', '/linked.json', '/linked-dir/', '/linked-dir'])(
    'a symbolic link inside the folder is not followed: %s → 404 (docs/decisions.md H29)',
    async (path) => {
      const answer = await raw(path);
      expect(answer.status).toBe(404);
      expect(answer.body.toString()).not.toContain(SECRET);
    },
  );

  it.each([
    '/..%2f..%2fetc/passwd',
    '/..%2foutside%2fsecret.json',
    '/%2e%2e/outside/secret.json',
    '/%2e%2e%2foutside%2fsecret.json',
    '/../outside/secret.json',
    '/files/..%2f..%2foutside/secret.json',
    '/%252e%252e/outside/secret.json',
    '/%25252e%25252e/outside/secret.json',
    '/index.html%00',
    '/index.html%00.json',
    '/%00',
    '/files%5c..%5c..%5coutside%5csecret.json',
    '/linked-dir%2fsecret.json',
    '/%E0%A4%A',
    '/api/v1/linked-dir/secret.json',
    '/api/v1/skills/..%2f..%2f..%2f..%2foutside/secret.json',
  ])('hostile path %s → 404 or 400, never a file outside (docs/decisions.md H28)', async (path) => {
    const answer = await raw(path);
    expect([400, 404]).toContain(answer.status);
    expect(answer.body.toString()).not.toContain(SECRET);
    expect(JSON.parse(answer.body.toString())).toHaveProperty('error.code');
  });
});

describe('the API through the server', () => {
  it('serves the documented .json files of the tree as files, like a static host', async () => {
    const manifest = await raw('/api/v1/manifest.json');
    expect(manifest.status).toBe(200);
    expect(JSON.parse(manifest.body.toString())).toHaveProperty('format', FORMAT_VERSION);
    const page = await raw('/api/v1/skills/_list/all/stars-desc/1.json');
    const canonical = await raw('/api/v1/skills');
    expect(page.status).toBe(200);
    expect(JSON.parse(page.body.toString())).toEqual(JSON.parse(canonical.body.toString()));
    // A .json path that is no file is still the handler's: a JSON 404.
    const missing = await raw('/api/v1/skills/_list/all/stars-desc/9999.json');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString())).toHaveProperty('error.code', 'NOT_FOUND');
  });

  it('answers with a strong ETag, 304 on If-None-Match, gzip, HEAD without a body', async () => {
    const path = '/api/v1/skills?limit=50&sort=name';
    const get = await raw(path);
    expect(get.status).toBe(200);
    const body = JSON.parse(get.body.toString()) as { data: unknown[] };
    expect(body.data).toHaveLength(Math.min(50, (await contractContent()).skills.length));
    const etag = String(get.headers['etag']);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(get.headers['access-control-allow-origin']).toBe('*');
    expect(get.headers['vary']).toBe('Accept-Encoding');

    const notModified = await raw(path, { headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);

    const zipped = await raw(path, { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).equals(get.body)).toBe(true);
    expect(zipped.headers['content-length']).toBe(String(zipped.body.length));
    expect(zipped.headers['etag']).toBe(`W/${etag}`);
    expect((await raw(path, { headers: { 'accept-encoding': 'gzip', 'if-none-match': `W/${etag}` } })).status).toBe(304);
    // The runtime's ETag (src/http-cache.ts), the same on every host.
    expect(etag).toBe(await strongEtag(new Uint8Array(get.body)));

    const head = await raw(path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['etag']).toBe(etag);
    expect(head.headers['content-length']).toBe(String(get.body.length));
  });

  it('an error answer is the JSON error body with CORS, no ETag', async () => {
    const answer = await raw('/api/v1/skills?limit=0');
    expect(answer.status).toBe(400);
    expect(answer.headers['etag']).toBeUndefined();
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(answer.body.toString())).toMatchObject({ error: { code: 'INVALID_PARAMS' } });
  });
});

describe('oversized and broken requests (docs/decisions.md H30)', () => {
  it('a URL over 8 KiB is 414, and the server keeps serving', async () => {
    for (const length of [8 * 1024 + 1, 12 * 1024]) {
      const answer = await raw(`/api/v1/skills?q=${'a'.repeat(length)}`);
      expect(answer.status).toBe(414);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ error: { code: 'INVALID_PARAMS' } });
    }
    // Past the parser's limit the request line alone decides: still 414.
    expect(await rawSocket(`GET /${'a'.repeat(40 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`)).toBe('HTTP/1.1 414 URI Too Long');
    await stillServing();
  });

  it('headers over the limit are 431, and the server keeps serving', async () => {
    const answer = await raw('/api/v1/skills', { headers: { 'x-big': 'b'.repeat(20 * 1024) } });
    expect(answer.status).toBe(431);
    expect(await rawSocket(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(40 * 1024)}\r\n\r\n`)).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    await stillServing();
  });

  it('a malformed request is 400, and the server keeps serving', async () => {
    expect(await rawSocket('NOT HTTP AT ALL\r\n\r\n')).toBe('HTTP/1.1 400 Bad Request');
    await stillServing();
  });

  it('a client that hangs up mid-response does not hurt the server', async () => {
    for (const headers of [{}, { 'accept-encoding': 'gzip' }]) {
      await new Promise<void>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server.port, path: '/files/big.json', headers, agent: false }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
        req.end();
      });
    }
    // Hang up right after sending, before any answer.
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.end('GET /files/big.json HTTP/1.1\r\nHost: x\r\n\r\n');
        socket.destroy();
        resolve();
      });
    });
    await stillServing();
    expect((await raw('/files/big.json')).body.toString()).toBe(BIG);
  });
});

describe('options', () => {
  it('rate limits API requests per client with 429 RATE_LIMITED and Retry-After; static files are not limited', async () => {
    const limited = await startServer({ dir: out, host: '127.0.0.1', rateLimit: { limit: 2, windowMs: 60_000 } });
    try {
      const get = (path: string) => fetch(new URL(path, limited.url));
      // CORS preflights count for nothing (a refused one would hide the 429 from a browser).
      for (const path of ['/api/v1/categories', '/mcp', '/api/v1/skills', '/api/v1/categories']) {
        const preflight = await fetch(new URL(path, limited.url), { method: 'OPTIONS', headers: { origin: 'https://example.com', 'access-control-request-method': path === '/mcp' ? 'POST' : 'GET' } });
        expect(preflight.status, path).toBe(204);
      }
      expect((await get('/api/v1/categories')).status).toBe(200);
      expect((await get('/api/v1/skills')).status).toBe(200);
      const third = await get('/api/v1/categories');
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await third.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
      expect((await get('/index.html')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('a handler that throws is a 500 SERVER_ERROR for that request only', async () => {
    let calls = 0;
    const failing = await startServer({
      dir: out,
      host: '127.0.0.1',
      handler: async () => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
        return Response.json({ data: 'fine' });
      },
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const first = await fetch(new URL('/api/v1/skills', failing.url));
      expect(first.status).toBe(500);
      expect(await first.json()).toEqual({ error: { code: 'SERVER_ERROR', message: 'Internal server error' } });
      const second = await fetch(new URL('/api/v1/skills', failing.url));
      expect(await second.json()).toEqual({ data: 'fine' });
      expect(errors).toHaveLength(1);
    } finally {
      console.error = original;
      await failing.close();
    }
  });

  it('streams a handler body that carries its own ETag, and stops it when the client leaves', async () => {
    let cancelled = false;
    const streaming = await startServer({
      dir: out,
      host: '127.0.0.1',
      handler: async () => {
        let n = 0;
        const body = new ReadableStream<Uint8Array>({
          pull: (controller) => {
            n += 1;
            controller.enqueue(new TextEncoder().encode(`chunk ${n}\n`.repeat(1000)));
          },
          cancel: () => {
            cancelled = true;
          },
        });
        return new Response(body, { headers: { etag: '"endless"', 'content-type': 'text/plain' } });
      },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const req = request(new URL('/api/v1/stream', streaming.url), { agent: false }, (res) => {
          expect(res.headers['etag']).toBe('"endless"');
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
        req.end();
      });
      await expect.poll(() => cancelled).toBe(true);
    } finally {
      await streaming.close();
    }
  });

  it('reports the URL it listens on', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const any = await startServer({ dir: out });
    try {
      expect(any.url).toBe(`http://localhost:${any.port}`);
    } finally {
      await any.close();
    }
  });
});

describe('pipelined requests from a client that does not read', () => {
  it('are answered one at a time per connection (one body in memory), and other clients are served meanwhile', async () => {
    const body = JSON.stringify({ data: 'x'.repeat(16 * 1024 * 1024) });
    let started = 0;
    const big = await startServer({
      dir: out,
      host: '127.0.0.1',
      handler: async () => {
        started++;
        return new Response(body, { headers: { 'content-type': 'application/json' } });
      },
    });
    try {
      const socket = connect(big.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.pause();
      // Five URLs, so each is answered anew (the server answers a URL it has answered from memory).
      socket.write([1, 2, 3, 4, 5].map((n) => `GET /api/v1/skills/a/b?n=${n} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n`).join(''));
      await expect.poll(() => started, { timeout: 10_000 }).toBe(1);
      // Node has parsed all five by now; without turns it would have started them in these ticks.
      for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(started).toBe(1);
      // Another client is answered while that connection is stuck.
      const other = await fetch(`${big.url}/api/v1/skills/c/d`, { headers: { 'accept-encoding': 'identity' } });
      expect(other.status).toBe(200);
      await other.arrayBuffer();
      expect(started).toBe(2);
      // Reading lets the rest through, in order.
      let received = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      socket.resume();
      await expect.poll(() => received > 5 * body.length, { timeout: 30_000 }).toBe(true);
      expect(started).toBe(6);
      socket.destroy();
    } finally {
      await big.close();
    }
  }, 60_000);

  it('one answer for many connections asking for the same URL at once: computed once, the same bytes to all', async () => {
    const body = JSON.stringify({ data: 'y'.repeat(1024 * 1024) });
    let calls = 0;
    const same = await startServer({
      dir: out,
      host: '127.0.0.1',
      handler: async () => {
        calls++;
        return new Response(body, { headers: { 'content-type': 'application/json' } });
      },
    });
    try {
      const received = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          new Promise<string>((resolve, reject) => {
            const chunks: Buffer[] = [];
            const encoding = i % 2 === 0 ? 'identity' : 'gzip';
            const socket = connect(same.port, '127.0.0.1', () =>
              socket.write(`GET /api/v1/skills/big/one HTTP/1.1\r\nHost: x\r\nAccept-Encoding: ${encoding}\r\nConnection: close\r\n\r\n`),
            );
            socket.on('data', (chunk: Buffer) => chunks.push(chunk));
            socket.on('error', reject);
            socket.on('end', () => {
              const raw = Buffer.concat(chunks);
              const split = raw.indexOf('\r\n\r\n');
              const payload = raw.subarray(split + 4);
              resolve((encoding === 'gzip' ? gunzipSync(payload) : payload).toString());
            });
          }),
        ),
      );
      expect(new Set(received)).toEqual(new Set([body]));
      expect(calls).toBe(1);
    } finally {
      await same.close();
    }
  }, 60_000);

  it(`prepares at most ${MAX_PREPARING} answers at once (searches have their own limit and pass)`, async () => {
    let running = 0;
    let most = 0;
    const gates: Array<() => void> = [];
    const searches: string[] = [];
    const held = await startServer({
      dir: out,
      host: '127.0.0.1',
      handler: async (r) => {
        const url = new URL(r.url);
        if (url.pathname.endsWith('/search')) {
          searches.push(url.search);
          return new Response('{"data":[]}');
        }
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => gates.push(resolve));
        running--;
        return new Response(JSON.stringify({ data: url.search }));
      },
    });
    try {
      const answers = Array.from({ length: 12 }, (_, i) => fetch(`${held.url}/api/v1/skills/a/b?n=${i}`));
      await expect.poll(() => running).toBe(MAX_PREPARING);
      // Every turn is held, and a search is still answered.
      const search = await fetch(`${held.url}/api/v1/skills/search?q=x`);
      expect(search.status).toBe(200);
      expect(searches).toEqual(['?q=x']);
      while ((await Promise.race([Promise.all(answers).then(() => true), new Promise((resolve) => setTimeout(resolve, 20, false))])) === false) {
        gates.splice(0).forEach((open) => open());
      }
      const bodies = await Promise.all(answers.map(async (answer) => ((await (await answer).json()) as { data: string }).data));
      expect(bodies).toEqual(Array.from({ length: 12 }, (_, i) => `?n=${i}`));
      expect(most).toBe(MAX_PREPARING);
    } finally {
      gates.splice(0).forEach((open) => open());
      await held.close();
    }
  }, 30_000);

  it(`closes a connection that queues more than ${MAX_PIPELINED} requests at once`, async () => {
    // All requests arrive in one packet, so Node parses them together: the queue overflows at once.
    const answered = await new Promise<number>((resolve) => {
      let text = '';
      const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /api/v1/categories HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(MAX_PIPELINED + 40)));
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text.split('HTTP/1.1 200').length - 1));
      socket.on('error', () => undefined);
    });
    expect(answered).toBeLessThanOrEqual(MAX_PIPELINED);
    await stillServing();
  }, 30_000);
});
