/**
 * src/http-cache.ts on its own: the ETag helpers, the content-hashed path rule, and `withCaching`
 * around the real in-memory handler (the edge Worker test covers it over HTTP in workerd).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../src/handler.ts';
import { AnswerMemo } from '../src/answer-memo.ts';
import { etagMatches, isContentEtag, isContentHashed, readBytes, strongEtag, withCaching } from '../src/http-cache.ts';
import { mapLoader } from '../src/loader.ts';
import { contractFiles } from './contract/contract-data.ts';

describe('strongEtag', () => {
  it('is the quoted base64url SHA-256 of the bytes (the Node server’s form)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        expect(await strongEtag(bytes)).toBe(`"${createHash('sha256').update(bytes).digest('base64url')}"`);
      }),
    );
  });
});

describe('etagMatches', () => {
  it.each([
    [null, false],
    ['"abc"', true],
    ['W/"abc"', true],
    [' "x" , W/"abc" ', true],
    ['*', true],
    ['"abcd"', false],
    ['"ab"', false],
    ['abc', false],
    ['', false],
  ])('If-None-Match %j vs "abc" → %s', (header, expected) => {
    expect(etagMatches(header, '"abc"')).toBe(expected);
  });
});

describe('isContentHashed', () => {
  it.each([
    ['api/v1/skills/_search/r.3fa9c0.json', true],
    ['/api/v1/skills/_search/d.3fa9c0.12.json', true],
    ['api/v1/skills/_search/sub/r.json', false],
    ['api/v1/skills/_search/%2e%2e.json', false],
    ['api/v1/skills/_search/r.3fa9c0.txt', false],
    ['api/v1/skills/_search/', false],
    ['api/v1/skills/_list/all/stars-desc/1.json', false],
    ['api/v1/manifest.json', false],
    ['/_search/r.json', false],
  ])('%s → %s', (path, expected) => {
    expect(isContentHashed(path)).toBe(expected);
  });
});

describe('withCaching(handler)', () => {
  const handler = async () => withCaching(createHandler(mapLoader(await contractFiles())), { maxAge: 5, sMaxAge: 50 });
  const request = (path: string, init?: RequestInit) => new Request(new URL(path, 'http://localhost'), init);

  it('adds Cache-Control and an ETag of the body without changing status or body', async () => {
    const plain = createHandler(mapLoader(await contractFiles()));
    const cached = await handler();
    for (const path of ['/api/v1/skills', '/api/v1/categories?locale=de', '/api/v1/skills?page=0', '/api/v1/nope']) {
      const [a, b] = [await plain(request(path)), await cached(request(path))];
      expect(b.status).toBe(a.status);
      const body = await b.text();
      expect(body).toBe(await a.text());
      expect(b.headers.get('cache-control')).toBe('public, max-age=5, s-maxage=50');
      expect(b.headers.get('etag')).toBe(b.status === 200 ? await strongEtag(new TextEncoder().encode(body)) : null);
      expect(b.headers.get('content-type')).toBe(a.headers.get('content-type'));
    }
  });

  it('answers 304 to a matching If-None-Match, with the validators and CORS only', async () => {
    const cached = await handler();
    const etag = (await cached(request('/api/v1/skills'))).headers.get('etag')!;
    const response = await cached(request('/api/v1/skills', { headers: { 'if-none-match': etag } }));
    expect(response.status).toBe(304);
    expect(response.body).toBeNull();
    expect([...response.headers.keys()].sort()).toEqual(['access-control-allow-origin', 'access-control-expose-headers', 'cache-control', 'etag']);
  });

  it('HEAD gets the GET ETag and no body; other methods are no-store', async () => {
    const cached = await handler();
    const get = await cached(request('/api/v1/categories'));
    const head = await cached(request('/api/v1/categories', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    const post = await cached(request('/api/v1/categories', { method: 'POST', body: '' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('cache-control')).toBe('no-store');
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('keeps a Cache-Control or ETag the handler set itself', async () => {
    const cached = withCaching(async () => new Response('{}', { headers: { 'cache-control': 'private', etag: '"mine"' } }));
    const response = await cached(request('/x'));
    expect(response.headers.get('cache-control')).toBe('private');
    expect(response.headers.get('etag')).toBe('"mine"');
    expect((await cached(request('/x', { headers: { 'if-none-match': '"mine"' } }))).status).toBe(304);
  });

  it('a server error is never stored', async () => {
    const cached = withCaching(async () => new Response('{"error":{}}', { status: 500 }));
    expect((await cached(request('/x'))).headers.get('cache-control')).toBe('no-store');
  });
});

describe('readBytes', () => {
  const streamOf = (chunks: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });

  it('is every chunk in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 50 }), { maxLength: 6 }), async (chunks) => {
        expect([...(await readBytes(streamOf(chunks)))]).toEqual(chunks.flatMap((chunk) => [...chunk]));
      }),
    );
  });

  it('hands back a single chunk itself, not a copy', async () => {
    const chunk = new Uint8Array([1, 2, 3]);
    expect(await readBytes(streamOf([chunk]))).toBe(chunk);
  });
});

describe('withCaching with an AnswerMemo', () => {
  const request = (path: string, init?: RequestInit) => new Request(new URL(path, 'http://localhost'), init);
  /** A handler that counts its calls; `gate`, while set, holds every call until it is opened. */
  const counting = (body: (path: string) => string | null = () => '{"data":"same"}') => {
    const state = { calls: 0, gate: undefined as Promise<void> | undefined };
    const handler = async (r: Request) => {
      state.calls++;
      await state.gate;
      const text = body(new URL(r.url).pathname);
      return text === null ? new Response('{"error":{}}', { status: 404 }) : new Response(text, { headers: { 'content-type': 'application/json' } });
    };
    return { state, handler };
  };

  it('answers a URL again without the handler: same status, headers and bytes; 304 and HEAD from the kept answer', async () => {
    const { state, handler } = counting();
    const cached = withCaching(handler, { memo: new AnswerMemo() });
    const first = await cached(request('/a'));
    const firstBody = await first.text();
    const again = await cached(request('/a'));
    expect(state.calls).toBe(1);
    expect(await again.text()).toBe(firstBody);
    expect([...again.headers]).toEqual([...first.headers]);
    expect(isContentEtag(again.headers.get('etag')!)).toBe(true);
    const notModified = await cached(request('/a', { headers: { 'if-none-match': first.headers.get('etag')! } }));
    expect(notModified.status).toBe(304);
    const head = await cached(request('/a', { method: 'HEAD' }));
    expect(head.body).toBeNull();
    expect(head.headers.get('content-length')).toBe(String(firstBody.length));
    expect(state.calls).toBe(1);
  });

  it('keeps one body for every URL whose answer has the same bytes', async () => {
    const memo = new AnswerMemo();
    const { handler } = counting();
    const cached = withCaching(handler, { memo });
    await (await cached(request('/a'))).text();
    await (await cached(request('/b?x=1'))).text();
    const [a, b] = [memo.get('http://localhost/a')!, memo.get('http://localhost/b?x=1')!];
    expect(b.body).toBe(a.body);
  });

  it('computes a URL asked many times at once only once', async () => {
    const { state, handler } = counting();
    let open!: () => void;
    state.gate = new Promise<void>((resolve) => (open = resolve));
    const cached = withCaching(handler, { memo: new AnswerMemo() });
    const answers = Array.from({ length: 20 }, () => cached(request('/a')));
    await expect.poll(() => state.calls).toBe(1);
    open();
    const bodies = await Promise.all(answers.map(async (answer) => (await answer).text()));
    expect(new Set(bodies)).toEqual(new Set(['{"data":"same"}']));
    expect(state.calls).toBe(1);
  });

  it('keeps no error answer and no body over an eighth of its room', async () => {
    const { state, handler } = counting((path) => (path === '/missing' ? null : path === '/big' ? 'x'.repeat(200) : '{}'));
    const cached = withCaching(handler, { memo: new AnswerMemo({ maxBytes: 1000 }) });
    for (let i = 0; i < 2; i++) {
      expect((await cached(request('/missing'))).status).toBe(404);
      expect((await cached(request('/big'))).status).toBe(200);
    }
    expect(state.calls).toBe(4);
  });

  it('after clear() answers anew, and keeps nothing computed before it', async () => {
    const memo = new AnswerMemo();
    let version = 1;
    const cached = withCaching(async () => new Response(`{"v":${version}}`), { memo });
    expect(await (await cached(request('/a'))).text()).toBe('{"v":1}');
    version = 2;
    expect(await (await cached(request('/a'))).text()).toBe('{"v":1}');
    memo.clear();
    expect(await (await cached(request('/a'))).text()).toBe('{"v":2}');

    // An answer of the old build that finishes after clear() is sent but not kept.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const slow = withCaching(async () => {
      await gate;
      return new Response(`{"v":${version}}`);
    }, { memo });
    const pending = slow(request('/b'));
    memo.clear();
    version = 3;
    open();
    expect(await (await pending).text()).toBe('{"v":3}');
    expect(memo.get('http://localhost/b')).toBeUndefined();
  });
});
