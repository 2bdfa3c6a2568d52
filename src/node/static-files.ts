/**
 * Static files of the output folder, served through serve-handler (MIME types, Range, ETag) behind
 * our own path guard: serve-handler with `symlinks: false` still serves files through a symlinked
 * *directory* (docs/decisions.md H29), so it is only ever handed a path already proven to be a regular
 * file reached without any link.
 */
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import serveHandler from 'serve-handler';
import { ApiError } from '../errors.ts';
import { etagMatches, notModified } from '../http-cache.ts';
import { errorReply, type Reply } from './reply.ts';
import { resolveInside } from './safe-path.ts';

/**
 * The answer for a static file at URL path `pathname` (percent-encoded, as in the URL) under
 * `root`, or undefined when there is no such file: missing, a folder without `index.html`, reached
 * through a symbolic link, or a path that is malformed or would leave the folder.
 */
export async function staticReply(root: string, pathname: string, req: IncomingMessage): Promise<Reply | undefined> {
  const segments = decodeSegments(pathname);
  if (segments === undefined) return undefined;
  let found = await resolveInside(root, segments);
  if (found?.stats.isDirectory()) {
    segments.push('index.html');
    found = await resolveInside(root, segments);
  } else if (pathname.endsWith('/')) {
    // `/index.html/` names a folder, and a file is none.
    return undefined;
  }
  if (found === undefined || !found.stats.isFile()) return undefined;

  const capture = new CapturedResponse();
  // serve-handler sees only what it needs: the proven path, `Range`, and a JSON `Accept` for its
  // own (rare) errors. Conditional requests are answered below, by the rule the API follows.
  const request = {
    url: `/${segments.map(encodeURIComponent).join('/')}`,
    headers: { accept: 'application/json', ...(req.headers.range === undefined ? {} : { range: req.headers.range }) },
  };
  await serveHandler(
    request as IncomingMessage,
    capture as unknown as ServerResponse,
    { public: found.root, cleanUrls: false, directoryListing: false, symlinks: false, etag: true },
    {
      // A body not sent (304, HEAD, client gone) must close its file too: `pipe` never does.
      createReadStream: (path: string, options?: object) => {
        const stream = createReadStream(path, options);
        capture.once('close', () => stream.destroy());
        return stream;
      },
    } as never,
  );
  const reply: Reply = { status: capture.statusCode, headers: capture.head, body: capture };
  // If-None-Match is weighed before Range (RFC 9110 §13.2.2): a match is a 304 even for a range.
  const etag = reply.headers['etag'];
  const ifNoneMatch = req.headers['if-none-match'];
  if ((reply.status === 200 || reply.status === 206) && etag !== undefined && etagMatches(ifNoneMatch ?? null, etag)) {
    capture.destroy();
    const headers: Record<string, string> = {};
    notModified(new Headers(reply.headers)).headers.forEach((value, name) => (headers[name] = value));
    return { status: 304, headers, body: null };
  }
  if (reply.status === 416) {
    // serve-handler goes on to send the whole file with its 416: the file is not what was asked.
    capture.destroy();
    const range = reply.headers['content-range'];
    return errorReply(new ApiError('INVALID_PARAMS', `The range ${JSON.stringify(String(req.headers.range).slice(0, 100))} is outside the file`, { status: 416 }), range === undefined ? {} : { 'content-range': range });
  }
  return reply;
}

/** Decode each `/` segment of a URL path once; undefined when the percent-encoding is malformed. */
function decodeSegments(pathname: string): string[] | undefined {
  const parts = pathname.split('/').slice(1);
  // A trailing slash names the folder itself.
  if (parts.at(-1) === '') parts.pop();
  try {
    return parts.map((part) => decodeURIComponent(part));
  } catch {
    return undefined;
  }
}

/**
 * Stands in for the `ServerResponse` serve-handler writes to: records status and headers, and
 * passes the body through, so send() can decide about 304, gzip and HEAD afterwards.
 */
class CapturedResponse extends PassThrough {
  statusCode = 200;
  readonly head: Record<string, string> = {};

  setHeader(name: string, value: string | number): this {
    this.head[name.toLowerCase()] = String(value);
    return this;
  }

  writeHead(status: number, headers: Record<string, string | number> = {}): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
    return this;
  }
}
