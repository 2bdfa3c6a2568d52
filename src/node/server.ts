/**
 * The Node HTTP server: the canonical API (`/api/v1/...`) answered by the runtime handler, and
 * every other path (and every existing `.json` file under `/api/v1`) served as a static file of
 * the output folder. The library function only starts
 * and stops the server; signals and printing belong to the command-line entry points.
 */
import { STATUS_CODES, createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createClient } from '../client.ts';
import { ApiError } from '../errors.ts';
import { isSearchRequest, Turns, type SearchLimitOptions } from '../fair.ts';
import { AnswerMemo } from '../answer-memo.ts';
import { cacheControlFor } from '../http-cache.ts';
import { createHandler, type Handler } from '../handler.ts';
import { JSON_HEADERS, METHODS, refusal, tooLong, withHostPolicy } from '../host-policy.ts';
import { cachedLoader, type Loader } from '../loader.ts';
import { ENDPOINTS } from '../endpoints.ts';
import { MAX_URL_BYTES, isHandlerPath, isHandlerRoute, keepRoute, matchRoute } from '../route.ts';
import { fsBytesLoader, fsLoader } from './fs-loader.ts';
import type { McpHttpHandler } from './mcp-http.ts';
import { createRateLimiter, rateLimitHeaders, type RateLimitOptions } from './rate-limit.ts';
import { errorReply, replyFromResponse, send, SharedGzip, type Reply } from './reply.ts';
import { isTreeReplaced, ServedTree } from './served-tree.ts';
import { staticReply } from './static-files.ts';

/** Longest request target answered; longer is 414 (docs/decisions.md H30): the same on every host. */
export { MAX_URL_BYTES };
/** Request line plus headers; more is 431 (or 414 when the request line alone is too long). */
export const MAX_HEADER_BYTES = 16 * 1024;
/**
 * API answers other than searches prepared at once (searches have their own limit, src/fair.ts);
 * the others wait their turn. Preparing an answer holds copies of its body while it is made,
 * read and hashed: 200 connections asking at once for 200 URLs of a 1 MiB answer peaked at
 * 200–630 MiB with no limit, 185–196 MiB with 4 (8: 191–249 MiB). Four is also as many files as
 * Node reads at once (libuv's thread pool), so a wait costs no throughput.
 */
export const MAX_PREPARING = 4;
/** Files of the static tree the API handler keeps parsed in memory. */
const CACHE_ENTRIES = 2000;
/** How often a server looks whether its folder was rebuilt (`ServerOptions.follow`), in milliseconds. */
export const FOLLOW_INTERVAL_MS = 1000;
/** Where the server answers MCP over Streamable HTTP (src/node/mcp-http.ts): its entry of the endpoint table. */
export const MCP_PATH = ENDPOINTS.mcp.path;
/** MCP requests answered at once, and waiting (more are 429): each may describe a page of skills. */
export const MCP_AT_ONCE = 2;
export const MCP_WAITING = 64;
/** Answer to a CORS preflight for `/mcp`: any origin may POST JSON-RPC with the MCP headers. */
const MCP_PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-max-age': '86400',
};
/** Headers about the connection to this server, not about the request the handler sees. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export interface ServerOptions {
  /** The output folder of a build: served as static files and read by the API handler. */
  dir: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; default all interfaces. */
  host?: string;
  /** Answers `/api/v1/...`; default the runtime handler over `dir`, errors logged to stderr. */
  handler?: Handler;
  /** Per-client limit on `/api/v1/...` requests; none by default. */
  rateLimit?: RateLimitOptions;
  /** Searches running at once and waiting (src/fair.ts); default 1 and 64. */
  searchLimit?: SearchLimitOptions;
  /**
   * Paths the host answers itself, before anything else, by exact pathname (`skills-api dev`
   * uses it for its reload stream and the page that listens to it). None by default.
   */
  routes?: ReadonlyMap<string, (req: IncomingMessage, res: ServerResponse) => void>;
  /**
   * Milliseconds between looks at `dir` (one `stat` of the folder and one of its manifest): when a
   * build replaced it, the API answers from the new tree and forgets everything kept of the old
   * one (src/node/served-tree.ts). Default `FOLLOW_INTERVAL_MS`; `false` never looks by itself
   * (`reload()` still does). Not with a `handler` of your own.
   */
  follow?: number | false;
}

export interface RunningServer {
  /** Base URL, e.g. `http://localhost:3000` (`localhost` when listening on every interface). */
  url: string;
  port: number;
  server: Server;
  /** Forget the answers kept by URL (src/answer-memo.ts): the build in `dir` was replaced. */
  forgetAnswers(): void;
  /**
   * Look at `dir` now: when a build replaced it, answer from the new tree (a new handler and file
   * cache; requests under way finish on the tree they started on or are answered again on the new
   * one) and forget the kept answers. Resolves whether the tree changed. With a `handler` of your
   * own, only forgets the kept answers (and resolves true).
   */
  reload(): Promise<boolean>;
  /** Stop accepting connections, drop idle keep-alive ones, resolve once closed. */
  close(): Promise<void>;
}

/** The runtime handler over the build output `dir`, its files kept parsed in memory, errors logged to stderr. */
export function createDirHandler(dir: string): Handler {
  return handlerOver(fsLoader(dir), dir);
}

/**
 * The runtime handler over `loader` (the JSON files of the tree in `dir`) and the raw skill files
 * of `dir`, its files kept parsed in memory, errors logged to stderr.
 */
function handlerOver(loader: Loader, dir: string): Handler {
  return createHandler(cachedLoader(loader, { maxEntries: CACHE_ENTRIES }), {
    bytes: fsBytesLoader(dir),
    // A read that landed in a rebuilt tree is answered again on it (src/node/served-tree.ts).
    onError: (error, request) => {
      if (!isTreeReplaced(error)) console.error(`500 on ${request.url}:`, error);
    },
  });
}

/** Start serving `dir`; resolves once the server listens. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  // The host policy of every host (src/host-policy.ts): ETags, 304s and Cache-Control of API
  // answers (src/http-cache.ts), one search at a time so lists and skills stay fast under heavy
  // searches (src/fair.ts), answers kept by URL, one body per content (src/answer-memo.ts).
  const memo = new AnswerMemo();
  // Without a handler of its own, the server follows its folder: one handler and file cache per
  // tree, and no kept answer outlives the tree it came from (src/node/served-tree.ts).
  const tree =
    options.handler === undefined
      ? await ServedTree.open(options.dir, { makeLoader: fsLoader, makeHandler: (loader) => handlerOver(loader, options.dir), onChange: () => memo.clear() })
      : undefined;
  if (tree !== undefined && options.follow !== false) tree.follow(options.follow ?? FOLLOW_INTERVAL_MS);
  const handler = withHostPolicy(options.handler ?? tree!.handler, { searchLimit: options.searchLimit ?? {}, caching: { memo } });
  const limit = options.rateLimit === undefined ? undefined : createRateLimiter(options.rateLimit, options.rateLimit.now);
  const preparing = new Turns(MAX_PREPARING);
  // An answer is gzipped once for every connection asking for it (src/node/reply.ts).
  const shared = new SharedGzip();

  // MCP answers through the same handler (caching, search limits) as the API; the SDK, an
  // optional peer dependency, is loaded when `/mcp` is first asked.
  let mcpHttp: Promise<McpHttpHandler | string> | undefined;
  const mcpTurns = new Turns(MCP_AT_ONCE, MCP_WAITING);
  const loopbackOnly = isLoopback(options.host);
  const answerMcp = async (req: IncomingMessage, url: URL): Promise<Reply> => {
    // A server listening on loopback only is a local one: a Host or Origin naming another
    // machine is a page of another site reaching it through DNS rebinding (the MCP transport's
    // security rules). Listening on other interfaces, the directory is public, as its API is.
    if (loopbackOnly && !fromLoopback(req)) {
      // Read and drop the body, so the connection can carry the next request.
      req.resume();
      return { status: 403, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }, body: Buffer.from(JSON.stringify(FORBIDDEN_ORIGIN)) };
    }
    mcpHttp ??= loadMcpHttp((request) => handler(request));
    const mcpHandler = await mcpHttp;
    if (typeof mcpHandler === 'string') return errorReply(new ApiError('SERVER_ERROR', mcpHandler, { status: 501 }), { 'cache-control': 'no-store' });
    if (mcpTurns.full) {
      req.resume();
      return errorReply(new ApiError('RATE_LIMITED', 'Too many MCP requests at once; retry in 1 s'), { 'retry-after': '1', 'cache-control': 'no-store' });
    }
    const reply = await mcpTurns.run(async () => replyFromResponse(await mcpHandler(toRequest(req, url))));
    // A body refused before it was read whole (413) leaves the connection unusable: say so.
    const close: Record<string, string> = req.complete ? {} : { connection: 'close' };
    return { ...reply, headers: { ...reply.headers, 'cache-control': 'no-store', ...close } };
  };

  // Whether each request's path is the handler's, as routing decided it (for its Cache-Control below).
  const handlerPaths = new WeakMap<IncomingMessage, { pathname: string; api: boolean }>();
  const answerRequest = async (req: IncomingMessage): Promise<Reply> => {
    const target = req.url ?? '/';
    const long = tooLong(target);
    if (long !== undefined) return replyFromResponse(long);
    let url: URL;
    try {
      url = new URL(target, originOf(req));
    } catch {
      return errorReply(new ApiError('INVALID_PARAMS', 'The request URL is malformed', { status: 400 }));
    }
    // The route is matched once per request: the host policy, the search limit and the handler
    // read it from the request (`keepRoute`). Routes the table marks `hosted` are answered here.
    const route = matchRoute(url.pathname);
    const api = isHandlerRoute(url.pathname, route);
    handlerPaths.set(req, { pathname: url.pathname, api });
    const mcp = route?.endpoint.hosted === true && route.name === 'mcp';
    // While limiting, every API answer says where the client stands (X-RateLimit-*); an MCP request
    // counts as one, a CORS preflight as none (refused, it would hide the 429 from a browser).
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    const decision = (api || mcp) && limit !== undefined && !preflight ? limit(req.socket.remoteAddress ?? '') : undefined;
    const limited = (reply: Reply): Reply =>
      decision === undefined ? reply : { ...reply, headers: { ...reply.headers, ...rateLimitHeaders(decision) } };
    if (decision?.allowed === false) {
      return limited(errorReply(new ApiError('RATE_LIMITED', `Too many requests; retry in ${decision.reset} s`)));
    }
    // `/mcp` takes POST: its own preflight and answer, before the policy of the API.
    if (mcp && preflight) {
      return { status: 204, headers: MCP_PREFLIGHT_HEADERS, body: null };
    }
    if (mcp) return limited(await answerMcp(req, url));
    // The CORS preflight and other methods than GET and HEAD (src/host-policy.ts), on every path:
    // a Fetch `Request` cannot even be made for some methods (TRACE, TRACK throw).
    const refused = refusal({ method: req.method ?? 'GET', target, preflight: req.headers['access-control-request-method'] !== undefined });
    if (refused !== undefined) return replyFromResponse(refused);
    // The documented `.json` files of the static tree are served as files here too, as on any
    // static host. No canonical URL names an existing `.json` file (files live at least one
    // segment deeper than `:owner/:repo`, or under `_`-names no owner can take), so a `.json`
    // path that is not a file falls through to the handler unchanged.
    // A skill's own `.json` file is answered by the handler, with the headers of every skill file.
    if (api && url.pathname.endsWith('.json') && route?.name !== 'getSkillFile') {
      const file = await staticReply(options.dir, url.pathname, req);
      if (file !== undefined) return limited(file);
    }
    if (api) {
      const request = toRequest(req, url);
      keepRoute(request, route);
      const prepare = async () => replyFromResponse(await handler(request));
      return limited(await (isSearchRequest(request, options.searchLimit?.basePath) ? prepare() : preparing.run(prepare)));
    }
    const file = await staticReply(options.dir, url.pathname, req);
    if (file !== undefined) return file;
    return errorReply(new ApiError('NOT_FOUND', `No file at ${JSON.stringify(url.pathname.slice(0, 200))}`));
  };

  // Every answer gets the hosts' one caching policy (src/http-cache.ts), unless it set its own.
  const answerWithPolicy = async (req: IncomingMessage): Promise<Reply> => {
    const reply = await answerRequest(req);
    if (reply.headers['cache-control'] !== undefined) return reply;
    const target = req.url ?? '/';
    const pathname = target.startsWith('/') ? target.split('?')[0]! : '/';
    // What routing found for this path already, unless the URL parser changed it (dot segments).
    const seen = handlerPaths.get(req);
    const api = (seen !== undefined && seen.pathname === pathname ? seen.api : isHandlerPath(pathname)) && !pathname.endsWith('.json');
    return { ...reply, headers: { ...reply.headers, 'cache-control': cacheControlFor(pathname, reply.status, api) } };
  };

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const route = options.routes?.get((req.url ?? '/').split('?')[0]!);
    if (route !== undefined && (req.method === 'GET' || req.method === 'HEAD')) route(req, res);
    else inTurn(req, res, () => respond(req, res, answerWithPolicy, shared));
  });
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    tree?.close();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${displayHost(options.host)}:${port}`,
    port,
    server,
    forgetAnswers: () => memo.clear(),
    reload: async () => {
      if (tree !== undefined) return tree.check();
      memo.clear();
      return true;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        tree?.close();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

/**
 * The `/mcp` handler over `handler`, or why there is none: the message when the MCP SDK is not
 * installed. `skills-api mcp` says the same when it cannot load it.
 */
async function loadMcpHttp(handler: Handler): Promise<McpHttpHandler | string> {
  const client = createClient({ baseUrl: 'http://localhost/', fetch: async (input, init) => handler(new Request(input, init)) });
  try {
    const { createMcpHttpHandler } = await import('./mcp-http.ts');
    return createMcpHttpHandler(client, 'this server');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ERR_MODULE_NOT_FOUND' && message.includes('@modelcontextprotocol/sdk')) {
      return 'MCP over HTTP needs the MCP SDK, an optional peer dependency of this server: npm install @modelcontextprotocol/sdk';
    }
    throw error;
  }
}

/** The 403 answer to a request of another site to a loopback server's `/mcp`: a JSON-RPC error without an id. */
const FORBIDDEN_ORIGIN = { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: this MCP server listens on loopback only and answers only Host and Origin headers naming this machine' } };

/** Whether `host` (the `--host` of the server) is a loopback interface only. */
function isLoopback(host: string | undefined): boolean {
  return host !== undefined && (host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host));
}

/** Whether the request's Host and Origin (when given) name this machine (localhost, 127.x, [::1], any port). */
function fromLoopback(req: IncomingMessage): boolean {
  const loopbackName = (name: string) => /^(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?::\d{1,5})?$/i.test(name);
  if (!loopbackName(req.headers.host ?? '')) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const match = /^https?:\/\/([^/]+)$/i.exec(origin);
  return match !== null && loopbackName(match[1]!);
}

/** The 405 answer, with `Allow`. */
function notAllowed(method: string): Reply {
  return errorReply(new ApiError('METHOD_NOT_ALLOWED', `Method ${method.slice(0, 20)} is not allowed; use GET or HEAD`), { allow: 'GET, HEAD' });
}

/**
 * CONNECT never reaches the request handler (Node hands it to a `connect` listener, or closes the
 * socket when there is none): answered 405 like every other method, then closed.
 */
function answerConnect(_req: IncomingMessage, socket: Socket): void {
  socket.end(rawAnswer(new ApiError('METHOD_NOT_ALLOWED', 'Method CONNECT is not allowed; use GET or HEAD'), { allow: METHODS }));
}

/** Most requests one connection may have waiting (pipelined) before it is closed. */
export const MAX_PIPELINED = 32;

/** Per connection: the reply being written, and how many wait behind it. */
const turns = new WeakMap<Socket, { last: Promise<void>; waiting: number }>();

/**
 * Run `reply` once every earlier reply on the same connection has been written out (`finish`) or
 * the connection closed. Node parses all pipelined requests of a packet at once; answering them
 * all at once held every body in memory while a client that never reads kept the socket full
 * (200 sockets × 20 pipelined 1 MiB answers: 2.4 GB). One reply at a time per connection keeps
 * that to one body per connection, and a connection queuing more than `MAX_PIPELINED` is closed.
 */
function inTurn(req: IncomingMessage, res: ServerResponse, reply: () => Promise<void>): void {
  const socket = req.socket;
  const turn = turns.get(socket) ?? { last: Promise.resolve(), waiting: 0 };
  turns.set(socket, turn);
  if (turn.waiting >= MAX_PIPELINED) {
    socket.destroy();
    return;
  }
  turn.waiting++;
  const written = new Promise<void>((resolve) => {
    res.once('finish', resolve);
    res.once('close', resolve);
  });
  turn.last = turn.last.then(async () => {
    turn.waiting--;
    if (!socket.destroyed) await reply();
    else res.destroy();
    await written;
  });
}

/** Answer one request; an unexpected failure is a 500 (or a dropped connection once started). */
async function respond(req: IncomingMessage, res: ServerResponse, answer: (req: IncomingMessage) => Promise<Reply>, shared: SharedGzip): Promise<void> {
  try {
    await send(req, res, await answer(req), shared);
  } catch (error) {
    console.error(`500 on ${req.method} ${req.url?.slice(0, 200)}:`, error);
    if (res.headersSent) res.destroy();
    else await send(req, res, errorReply(new ApiError('SERVER_ERROR', 'Internal server error'))).catch(() => res.destroy());
  }
}

/** The Fetch API request for the handler. HEAD is asked as GET so it gets the same ETag and length. */
function toRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const hasBody = method !== 'GET';
  return new Request(url, {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

/** `http://<Host>` when the Host header is a plain host[:port], else `http://localhost`. */
function originOf(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  return /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host) ? `http://${host}` : 'http://localhost';
}

function displayHost(host: string | undefined): string {
  if (host === undefined || host === '' || host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Requests Node's parser rejects before any handler runs: too large (431, or 414 when the request
 * line alone is over the URL limit), timed out (408), malformed (400). Answered on the raw socket,
 * which is then closed; the server itself goes on.
 */
function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void {
  // A response already under way on this keep-alive socket cannot be followed by another.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight) {
    socket.destroy();
    return;
  }
  let status = 400;
  if (error.code === 'HPE_HEADER_OVERFLOW') status = requestLineBytes(error.rawPacket) > MAX_URL_BYTES ? 414 : 431;
  else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') status = 408;
  const message =
    status === 414 ? `The URL is longer than ${MAX_URL_BYTES} bytes` :
    status === 431 ? `The request headers are larger than ${MAX_HEADER_BYTES} bytes` :
    status === 408 ? 'The request took too long to arrive' : 'Malformed HTTP request';
  socket.end(rawAnswer(new ApiError('INVALID_PARAMS', message, { status })));
}

/** A JSON error answer written on a raw socket (the connection then closes), with the policy's JSON headers. */
function rawAnswer(error: ApiError, extra: Record<string, string> = {}): string {
  const body = JSON.stringify(error.toBody());
  const headers = { connection: 'close', ...extra, ...JSON_HEADERS, 'content-length': String(Buffer.byteLength(body)) };
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
}

/** Length of the request line in what the parser had buffered (all of it when it never ended). */
function requestLineBytes(raw: Buffer | undefined): number {
  if (raw === undefined) return 0;
  const end = raw.indexOf('\r\n');
  return end === -1 ? raw.length : end;
}
