/**
 * One answer of the Node server, whatever produced it (the runtime handler, a static file, the
 * server's own errors), and the single place that writes it out: CORS, `Vary`, gzip when the
 * client accepts it, HEAD without a body, streaming. Caching (ETags, `If-None-Match` → 304,
 * `Cache-Control`) is decided before, by the rules every host shares (src/http-cache.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { EXPOSED_HEADERS, addVary, bodyBytes, isContentEtag } from '../http-cache.ts';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';
import { ApiError } from '../errors.ts';
import { JSON_HEADERS } from '../host-policy.ts';
import { Lru } from '../lru.ts';

/** Status, headers (lower-case names) and body of one answer. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer | Readable | null;
}

/** Headers on every answer: anyone may read this public read-only API, and nothing is sniffed. */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS,
  'x-content-type-options': 'nosniff',
};

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|[\w.-]+\+(json|xml))|image\/svg\+xml)/i;

const gzipBuffer = promisify(gzip);

/** The JSON error answer for an `ApiError`, with extra headers (`Allow`, `Retry-After`). */
export function errorReply(error: ApiError, headers: Record<string, string> = {}): Reply {
  return {
    status: error.status,
    headers: { ...JSON_HEADERS, ...headers },
    body: Buffer.from(JSON.stringify(error.toBody())),
  };
}

/** Bytes of gzipped bodies `SharedGzip` keeps by default. */
export const SHARED_GZIP_BYTES = 16 * 1024 * 1024;

/**
 * Gzipped answer bodies kept by their content ETag (`withCaching`'s SHA-256 of the bytes,
 * `isContentEtag` in src/http-cache.ts): the same answer is gzipped once, not once per request,
 * and every connection asking for it is written the same bytes. The plain bodies are shared by
 * the runtime's `AnswerMemo` (src/answer-memo.ts); this is the same for their gzip form.
 */
export class SharedGzip {
  private readonly kept: Lru<Promise<Buffer>>;

  constructor(maxBytes = SHARED_GZIP_BYTES) {
    // Weighed by the plain length (the gzip length is unknown until done): an upper bound.
    this.kept = new Lru(maxBytes);
  }

  /**
   * The gzip of `body` tagged `etag`. The promise is kept at once, so requests arriving while it
   * is computed wait for the same one; a failure is not kept.
   */
  gzip(etag: string, body: Buffer): Promise<Buffer> {
    const kept = this.kept.get(etag);
    if (kept !== undefined) return kept;
    const zipped = gzipBuffer(body);
    this.kept.set(etag, zipped, body.length);
    zipped.catch(() => this.kept.delete(etag));
    return zipped;
  }
}

/**
 * Turn a `Response` of the runtime handler (wrapped in `withCaching`: its ETag, 304 and
 * `Cache-Control` decided) into a `Reply`. A body of known length (`withCaching` read it whole
 * to hash it) is read whole and keeps its `Content-Length`; one without (a handler that tagged a
 * stream itself) streams as it comes.
 */
export async function replyFromResponse(response: Response): Promise<Reply> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (response.body === null) return { status: response.status, headers, body: null };
  if (headers['content-length'] !== undefined || response.status !== 200) {
    return { status: response.status, headers, body: bufferOf(await bodyBytes(response)) };
  }
  // The DOM and Node typings of ReadableStream differ in name only.
  return { status: response.status, headers, body: Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>) };
}

/**
 * A `Buffer` over the memory of `bytes`, not a copy: an answer kept by the `AnswerMemo` is then
 * the very memory written to every connection asking for it.
 */
function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Write `reply` to `res` for `req`. Never throws for a client that went away: a stream whose
 * reader disconnects is torn down quietly (the file or handler stream included). With `shared`,
 * a whole body with a content ETag is gzipped once for every request asking for it.
 */
export async function send(req: IncomingMessage, res: ServerResponse, reply: Reply, shared?: SharedGzip): Promise<void> {
  const headers: Record<string, string> = { ...reply.headers, ...COMMON_HEADERS };
  headers['vary'] = addVary(headers['vary'], 'Accept-Encoding');
  let body = reply.body;
  const empty = body === null || (Buffer.isBuffer(body) ? body.length === 0 : headers['content-length'] === '0');
  const hasBody = !empty && reply.status !== 204 && reply.status !== 304;
  const compress =
    hasBody &&
    reply.status !== 206 &&
    headers['content-encoding'] === undefined &&
    COMPRESSIBLE.test(headers['content-type'] ?? '') &&
    acceptsGzip(req.headers['accept-encoding']);
  // A 304 names the representation the client holds: the gzip one's weak ETag when that is
  // what it sent back (the 200 it stands for would have been compressed).
  const etag = headers['etag'];
  if (reply.status === 304 && etag !== undefined && !etag.startsWith('W/') && acceptsGzip(req.headers['accept-encoding'])) {
    const held = String(req.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim());
    if (held.includes(`W/${etag}`)) headers['etag'] = `W/${etag}`;
  }
  // Whether the body may be gzipped once for every request (read before the tag is weakened).
  const sharedTag = shared !== undefined && isContentEtag(headers['etag']) ? headers['etag'] : undefined;
  if (compress) {
    headers['content-encoding'] = 'gzip';
    delete headers['content-length'];
    // The gzip bytes are another representation of the same content: its ETag is weak, as any
    // compressing proxy or CDN makes it, and still matches the content's (weak comparison,
    // src/http-cache.ts) when the client sends it back.
    if (headers['etag'] !== undefined && !headers['etag'].startsWith('W/')) headers['etag'] = `W/${headers['etag']}`;
  }

  if (Buffer.isBuffer(body)) {
    if (compress) body = sharedTag === undefined ? await gzipBuffer(body) : await shared!.gzip(sharedTag, body);
    headers['content-length'] = String(body.length);
  }
  if (req.method === 'HEAD' || !hasBody || body === null) {
    discard(body);
    res.writeHead(reply.status, headers).end();
    return;
  }
  res.writeHead(reply.status, headers);
  if (Buffer.isBuffer(body)) {
    res.end(body);
    return;
  }
  // pipeline destroys every stream when the client disconnects; there is nobody left to tell.
  const done = () => undefined;
  if (compress) pipeline(body, createGzip(), res, done);
  else pipeline(body, res, done);
}

/** Release a body that will not be sent. */
function discard(body: Reply['body']): void {
  if (body instanceof Readable) body.destroy();
}

/**
 * True when `Accept-Encoding` allows gzip: `gzip`/`x-gzip` with a q-value above 0, or `*` above 0
 * when gzip is not listed.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  let gzipQ: number | undefined;
  let anyQ: number | undefined;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    if (coding === 'gzip' || coding === 'x-gzip') gzipQ = quality;
    else if (coding === '*') anyQ = quality;
  }
  return (gzipQ ?? anyQ ?? 0) > 0;
}
