/**
 * One answer of the Node server, whatever produced it (the runtime handler, a static file, the
 * server's own errors), and the single place that writes it out: CORS, `Vary`, strong ETags with
 * `If-None-Match` → 304, gzip when the client accepts it, HEAD without a body. Keeping this in one
 * function is what makes the API and the static files behave the same on the wire.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';
import { ApiError } from '../errors.ts';

/** Status, headers (lower-case names) and body of one answer. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer | Readable | null;
}

/** Headers on every answer: anyone may read this public read-only API, and nothing is sniffed. */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Retry-After',
  'x-content-type-options': 'nosniff',
};

/** Headers a 304 repeats from the 200 it stands for (RFC 9110 §15.4.5); the rest describe a body. */
const NOT_MODIFIED_HEADERS = ['etag', 'vary', 'cache-control', 'expires', 'content-location'];

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|[\w.-]+\+(json|xml))|image\/svg\+xml)/i;

const gzipBuffer = promisify(gzip);

/** The JSON error answer for an `ApiError`, with extra headers (`Allow`, `Retry-After`). */
export function errorReply(error: ApiError, headers: Record<string, string> = {}): Reply {
  return {
    status: error.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: Buffer.from(JSON.stringify(error.toBody())),
  };
}

/**
 * Turn the runtime handler's `Response` into a `Reply`. A body without an ETag is read whole (API
 * bodies are bounded JSON) so a 200 gets a strong ETag and every answer a `Content-Length`; a body
 * the handler tagged itself is streamed as it comes.
 */
export async function replyFromResponse(response: Response): Promise<Reply> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (response.body === null) return { status: response.status, headers, body: null };
  if (headers['etag'] !== undefined) {
    // The DOM and Node typings of ReadableStream differ in name only.
    return { status: response.status, headers, body: Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>) };
  }
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status === 200) headers['etag'] = strongEtag(body);
  return { status: response.status, headers, body };
}

/** A strong ETag of a body: a quoted SHA-256 (base64url, so no character needs escaping). */
export function strongEtag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}

/**
 * Write `reply` to `res` for `req`. Never throws for a client that went away: a stream whose
 * reader disconnects is torn down quietly (the file or handler stream included).
 */
export async function send(req: IncomingMessage, res: ServerResponse, reply: Reply): Promise<void> {
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
  if (compress) {
    headers['content-encoding'] = 'gzip';
    delete headers['content-length'];
    // The gzip bytes are another representation: a strong ETag must differ from the plain one.
    if (headers['etag'] !== undefined) headers['etag'] = headers['etag'].replace(/"$/, '-gzip"');
  }

  if (reply.status === 200 && headers['etag'] !== undefined && etagMatches(req.headers['if-none-match'], headers['etag'])) {
    discard(body);
    const kept = Object.fromEntries(
      Object.entries(headers).filter(([name]) => NOT_MODIFIED_HEADERS.includes(name) || name in COMMON_HEADERS),
    );
    res.writeHead(304, kept).end();
    return;
  }

  if (Buffer.isBuffer(body)) {
    if (compress) body = await gzipBuffer(body);
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

/** Add a field name to a `Vary` header value unless it is there already. */
export function addVary(current: string | undefined, name: string): string {
  if (current === undefined || current.trim() === '') return name;
  const names = current.split(',').map((part) => part.trim().toLowerCase());
  return names.includes('*') || names.includes(name.toLowerCase()) ? current : `${current}, ${name}`;
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

/** `If-None-Match` check (weak comparison, as RFC 9110 §13.1.2 asks): `*` or any listed tag. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}
