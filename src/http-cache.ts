/**
 * HTTP caching for any host of the runtime handler (edge Worker, Service Worker, Node): a
 * `Cache-Control` suited to a shared cache on every answer and a strong `ETag` computed from the
 * body, with `If-None-Match` → 304. Fetch API only, no Node built-ins.
 *
 * Every answer of the API is a pure function of the deployed build, so a short browser lifetime
 * plus a longer shared-cache lifetime (`s-maxage`) is safe: a new deploy is visible everywhere
 * within `s-maxage`. Content-hashed files (the search index) never change under their name and
 * are `immutable`.
 */
import type { AnswerMemo } from './answer-memo.ts';
import type { Handler } from './handler.ts';
import { shareRoute } from './route.ts';
import { SEARCH_DIR } from './search/format.ts';

/**
 * Response headers a cross-origin page may read (`Access-Control-Expose-Headers`), on every host:
 * the validator, the canonical URL of an id asked in another case, and where a rate limit stands.
 */
export const EXPOSED_HEADERS = 'ETag, Content-Location, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';

/** Lifetimes of API answers, in seconds. */
export interface CachingOptions {
  /** Browser (private cache) lifetime; default 60. */
  maxAge?: number;
  /** Shared-cache (CDN, edge) lifetime; default 300. */
  sMaxAge?: number;
  /**
   * Keep 200 answers by URL and send them again without the handler (src/answer-memo.ts); none
   * by default. For a long-lived process serving one build: clear it when the build changes.
   */
  memo?: AnswerMemo;
}

/** `Cache-Control` of content-hashed files: a year, and never revalidated. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** `Cache-Control` of answers no cache may keep (rate limiting, server errors, other methods). */
export const NO_STORE = 'no-store';

/** Statuses that depend on the build only (a success, a bad parameter, an unknown resource). */
const CACHEABLE_STATUSES = new Set([200, 400, 404]);

/** Headers a 304 repeats from the 200 it stands for (RFC 9110 §15.4.5), plus CORS. */
const NOT_MODIFIED_HEADERS = ['cache-control', 'content-location', 'etag', 'expires', 'vary'];

/** Lifetime of a static file of the tree that is not content-hashed (as `_headers` sets it). */
export const STATIC_CACHE_CONTROL = 'public, max-age=300';

/**
 * The one caching policy of every host (Node server, edge Worker, `_headers` for static hosts):
 * content-hashed search files are immutable; other files of the tree live 5 minutes; API answers
 * (`api` true) a minute in a browser and 5 minutes in a shared cache; an answer of another status
 * than 200, 400 or 404 (a rate limit, a server error) is never stored.
 */
export function cacheControlFor(path: string, status: number, api: boolean, options: CachingOptions = {}): string {
  if (!CACHEABLE_STATUSES.has(status)) return NO_STORE;
  if (!api && status === 200 && isContentHashed(path.replace(/^\/+/, ''))) return IMMUTABLE_CACHE_CONTROL;
  return api ? `public, max-age=${options.maxAge ?? 60}, s-maxage=${options.sMaxAge ?? 300}` : STATIC_CACHE_CONTROL;
}

/**
 * Wrap `handler` so that every answer carries `Cache-Control` (unless the handler set one) and
 * every 200 a strong ETag of its body (unless the handler set one); a GET or HEAD whose
 * `If-None-Match` matches gets a bodiless 304 instead. HEAD is answered from the GET answer, so
 * both carry the same ETag. `Access-Control-Expose-Headers` (`EXPOSED_HEADERS`) lets cross-origin pages read it.
 * With `options.memo`, 200 answers are kept by URL and sent again without the handler.
 */
export function withCaching(handler: Handler, options: CachingOptions = {}): Handler {
  const memo = options.memo;
  return async (request) => {
    const head = request.method === 'HEAD';
    if (memo === undefined) return answerAnew(request, head, 0);
    // An answer computed while the build changed is not kept: the build it started on decides.
    const generation = memo.generation;
    let kept = memo.get(request.url);
    const pending = kept === undefined ? memo.pending(request.url) : undefined;
    if (pending !== undefined) {
      // The same URL asked while it is being answered: wait for that answer.
      await pending;
      kept = memo.get(request.url);
    }
    if (kept !== undefined) return taggedResponse(request, kept.headers, kept.body, true);
    const done = memo.start(request.url);
    try {
      return await answerAnew(request, head, generation);
    } finally {
      done();
    }
  };

  /** The handler's answer to `request`, tagged (and kept, with a memo, as of build `generation`). */
  async function answerAnew(request: Request, head: boolean, generation: number): Promise<Response> {
    const response = await handler(head ? asGet(request) : request);
    const headers = new Headers(response.headers);
    if (!headers.has('cache-control')) headers.set('cache-control', cacheControlFor(new URL(request.url).pathname, response.status, true, options));
    headers.set('access-control-expose-headers', EXPOSED_HEADERS);
    if (response.status !== 200 || response.body === null) {
      if (head) await response.body?.cancel();
      return new Response(head ? null : response.body, { status: response.status, statusText: response.statusText, headers });
    }
    const own = headers.get('etag');
    if (own !== null) {
      // The handler tagged its body itself: it streams as it comes, never read here.
      const matched = etagMatches(request.headers.get('if-none-match'), own);
      if (head || matched) await response.body.cancel();
      if (matched) return notModified(headers);
      return new Response(head ? null : response.body, { status: 200, headers });
    }
    // API bodies are bounded JSON: reading one whole to hash it costs little, and gives its length.
    const body = await readBytes(response.body);
    const etag = await strongEtag(body);
    headers.set('etag', etag);
    headers.set('content-length', String(body.byteLength));
    if (memo === undefined) return taggedResponse(request, headers, body, false);
    return taggedResponse(request, headers, memo.keep(request.url, generation, headers, etag, body), true);
  }
}

/** The GET request of a HEAD, sharing its parsed route (src/route.ts). */
function asGet(request: Request): Request {
  const get = new Request(request, { method: 'GET' });
  shareRoute(request, get);
  return get;
}

/**
 * The 200 with `headers` (ETag and length set) and `body`, or its 304 when `If-None-Match`
 * matches; no body for HEAD. A `shared` body (kept by an `AnswerMemo`, sent to many) goes out as
 * one chunk of a stream: `new Response(bytes)` would copy it for every request.
 */
function taggedResponse(request: Request, headers: Headers, body: Uint8Array<ArrayBuffer>, shared: boolean): Response {
  if (etagMatches(request.headers.get('if-none-match'), headers.get('etag')!)) return notModified(headers);
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  const response = shared ? new Response(oneChunk(body), { status: 200, headers }) : new Response(body, { status: 200, headers });
  bodies.set(response, body);
  return response;
}

function oneChunk(body: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      controller.enqueue(body);
      controller.close();
    },
  });
}

/** The bytes of the answers this module made from bytes it holds, so a host need not read them back. */
const bodies = new WeakMap<Response, Uint8Array<ArrayBuffer>>();

/**
 * The whole body of `response` as bytes: the bytes `withCaching` made it from (its stream is
 * then cancelled unread), else read from the stream (`readBytes`).
 */
export async function bodyBytes(response: Response): Promise<Uint8Array<ArrayBuffer>> {
  const known = bodies.get(response);
  if (known === undefined) return response.body === null ? new Uint8Array(0) : readBytes(response.body);
  await response.body?.cancel();
  return known;
}

/**
 * All bytes of `body`. A body of one chunk (a `Response` made from a string or bytes, or one this
 * module sends) is that chunk itself, not a copy: `Response.arrayBuffer()` copies, and a 1 MiB
 * answer read by many requests at once left that much garbage per request.
 */
export async function readBytes(body: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    chunks.push(read.value);
    length += read.value.byteLength;
  }
  const only = chunks[0];
  if (chunks.length === 1 && only!.buffer instanceof ArrayBuffer) return only as Uint8Array<ArrayBuffer>;
  const all = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

/** A strong ETag of `body`: the quoted SHA-256, base64url (the form the Node server uses too). */
export async function strongEtag(body: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `"${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}"`;
}

/**
 * Whether `etag` has the form `strongEtag` gives (a quoted base64url SHA-256): such a tag names
 * exact bytes whatever the resource, so a host may share one body among all answers carrying it.
 */
export function isContentEtag(etag: string | undefined): etag is string {
  return etag !== undefined && /^"[A-Za-z0-9_-]{43}"$/.test(etag);
}

/**
 * Whether an `If-None-Match` header value matches `etag`: `*`, or any listed tag by weak
 * comparison (RFC 9110 §13.1.2), since a CDN that compresses a body may weaken its ETag
 * (`W/"…"`) before the client sees it.
 */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === wanted);
}

/** The 304 for an answer with `headers`: validators, caching and CORS headers, no body. */
export function notModified(headers: Headers): Response {
  const kept = new Headers();
  headers.forEach((value, name) => {
    if (NOT_MODIFIED_HEADERS.includes(name) || name.startsWith('access-control-')) kept.set(name, value);
  });
  return new Response(null, { status: 304, headers: kept });
}

/**
 * Whether a path of the static tree (relative, e.g. `api/v1/skills/_search/t.3fa9.json`, or a URL
 * pathname with a leading `/`) names a content-hashed file: every file of the search index is
 * named by a hash of its content, so it can be cached forever.
 */
export function isContentHashed(path: string): boolean {
  const relative = path.startsWith('/') ? path.slice(1) : path;
  return relative.startsWith(`${SEARCH_DIR}/`) && /^[A-Za-z0-9._-]+\.json$/.test(relative.slice(SEARCH_DIR.length + 1));
}

/** Add a field name to a `Vary` header value unless it is there already. */
export function addVary(current: string | undefined, name: string): string {
  if (current === undefined || current.trim() === '') return name;
  const names = current.split(',').map((part) => part.trim().toLowerCase());
  return names.includes('*') || names.includes(name.toLowerCase()) ? current : `${current}, ${name}`;
}
