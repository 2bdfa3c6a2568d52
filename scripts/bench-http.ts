/**
 * The network side of the search benchmark: a plain static file server on 127.0.0.1 (no
 * compression, no caching headers) and a counting `fetch` that measures what each engine's own
 * client code downloads. A response counts as the smaller of its raw size and its gzip size at
 * the default level 6 (what a static host sends with `Content-Encoding: gzip`; files that are
 * already compressed, like Pagefind's, are sent as they are).
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** A running static server. */
export interface StaticServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  origin: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.html': 'text/html; charset=utf-8',
};

/** Serve the files under `root` on an ephemeral port of 127.0.0.1 (GET only, 404 for anything else). */
export async function startStaticServer(root: string): Promise<StaticServer> {
  const base = resolve(root);
  const server: Server = createServer((req, res) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const file = resolve(base, `.${pathname}`);
      // Only files strictly inside the root: the benchmark server never leaves its folder.
      const inside = file.startsWith(base + sep);
      const info = inside ? await stat(file).catch(() => undefined) : undefined;
      if (req.method !== 'GET' || info === undefined || !info.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': body.length });
      res.end(body);
    })().catch(() => res.writeHead(500).end());
  });
  // Keep idle connections open longer than the client does: a server closing a kept-alive socket
  // while the client reuses it makes fetch fail on a loaded machine.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('static server has no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** gzip size of bytes, at the level a static host uses. */
export function gzipSize(bytes: Uint8Array): number {
  return gzipSync(bytes, { level: 6 }).length;
}

/** What was transferred: size on the wire (see file comment) and raw size, per response. */
export interface Transfer {
  url: string;
  raw: number;
  wire: number;
}

/** Wire size of a response body: gzip when it helps. Memoized by URL (files never change during a run). */
const wireSizes = new Map<string, number>();
function wireSize(url: string, bytes: Uint8Array): number {
  let size = wireSizes.get(url);
  if (size === undefined) {
    size = Math.min(bytes.length, gzipSize(bytes));
    wireSizes.set(url, size);
  }
  return size;
}

/** Connection failures retried by every CountingFetch so far (reported with the figures). */
export let networkRetries = 0;

/** The real fetch, captured before any engine replaces the global one (Pagefind uses the global). */
const realFetch = globalThis.fetch;

/** A `fetch` that records every response it returns (fully read, then handed back as a new Response). */
export class CountingFetch {
  readonly transfers: Transfer[] = [];

  constructor(private readonly inner: typeof fetch = realFetch) {}

  readonly fetch = (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    let response: Response;
    try {
      response = await this.inner(input, init);
    } catch {
      // A refused or reset local connection (seen on an overloaded machine) is not the engine's
      // doing: try once more, and count it so the report can say so.
      networkRetries++;
      response = await this.inner(input, init);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const url = input instanceof Request ? input.url : String(input);
    this.transfers.push({ url, raw: bytes.length, wire: wireSize(url.replace(/\?.*$/, ''), bytes) });
    const copy = new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
    // Pagefind reads `response.url` in error messages; keep it.
    Object.defineProperty(copy, 'url', { value: response.url });
    return copy;
  }) as typeof fetch;

  /** Total wire bytes so far. */
  get bytes(): number {
    return this.transfers.reduce((n, t) => n + t.wire, 0);
  }

  get requests(): number {
    return this.transfers.length;
  }
}
