/**
 * The host policy of the API, one copy for every host (Node server, edge Worker, Service Worker,
 * the handler itself): which methods are answered, the CORS preflight, the longest URL, the JSON
 * error answer and its headers. `withHostPolicy` wraps a handler in all of it, plus the search
 * limit (src/fair.ts) and HTTP caching (src/http-cache.ts) a host asks for; hosts only adapt I/O.
 * Runtime core: no Node built-ins.
 */
import { ApiError } from './errors.ts';
import { limitSearches, type SearchLimitOptions } from './fair.ts';
import type { Handler } from './handler.ts';
import { withCaching, type CachingOptions } from './http-cache.ts';
import { MAX_URL_BYTES, routeOf } from './route.ts';

/** Methods the API answers; any other is 405 with this list in `Allow`. */
export const METHODS = 'GET, HEAD';

/** Headers of every JSON answer: anyone may read this public read-only API, and nothing is sniffed. */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'access-control-allow-origin': '*',
  'x-content-type-options': 'nosniff',
};

/** The answer to a CORS preflight: any origin may GET and HEAD with any request header, for a day. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': METHODS,
  'access-control-allow-headers': '*',
  'access-control-max-age': '86400',
};

/** The JSON error answer of `error` (no body for HEAD), with extra headers (`Allow`, `Retry-After`). */
export function jsonError(error: ApiError, extra: Record<string, string> = {}, head = false): Response {
  return new Response(head ? null : JSON.stringify(error.toBody()), { status: error.status, headers: { ...JSON_HEADERS, ...extra } });
}

/** What a host knows of a request before it makes a Fetch `Request` of it (some methods cannot be one). */
export interface RequestLine {
  method: string;
  /** Path and query as sent. */
  target: string;
  /** Whether `Access-Control-Request-Method` is set (an OPTIONS is then a CORS preflight). */
  preflight: boolean;
}

/** Headers of the policy's own answers: no cache may keep them. */
const REFUSAL_HEADERS = { 'cache-control': 'no-store' };

/** The 414 answer when the request target is longer than `MAX_URL_BYTES` (UTF-8), else undefined. */
export function tooLong(target: string): Response | undefined {
  if (new TextEncoder().encode(target).length <= MAX_URL_BYTES) return undefined;
  return jsonError(new ApiError('INVALID_PARAMS', `The URL is longer than ${MAX_URL_BYTES} bytes`, { status: 414 }), REFUSAL_HEADERS);
}

/**
 * The policy's answer to a request no endpoint sees, or undefined to go on: a target longer than
 * `MAX_URL_BYTES` is 414, a CORS preflight 204, another method than GET and HEAD 405, on every
 * path of every host.
 */
export function refusal(line: RequestLine): Response | undefined {
  const long = tooLong(line.target);
  if (long !== undefined) return long;
  // A browser asks before a cross-origin request with headers of its own (`If-None-Match`).
  if (line.method === 'OPTIONS' && line.preflight) return new Response(null, { status: 204, headers: { ...PREFLIGHT_HEADERS, ...REFUSAL_HEADERS } });
  if (line.method !== 'GET' && line.method !== 'HEAD') return methodNotAllowed(line.method);
  return undefined;
}

/** The 405 answer, with `Allow`. */
export function methodNotAllowed(method: string): Response {
  return jsonError(new ApiError('METHOD_NOT_ALLOWED', `Method ${method.slice(0, 20)} is not allowed; use GET or HEAD`), { allow: METHODS, ...REFUSAL_HEADERS });
}

/** The `RequestLine` of a Fetch request. */
export function requestLine(request: Request): RequestLine {
  const url = new URL(request.url);
  return { method: request.method, target: url.pathname + url.search, preflight: request.headers.has('access-control-request-method') };
}

/** What `withHostPolicy` adds around a handler. */
export interface HostPolicyOptions {
  /** The handler's base path; default `/`. */
  basePath?: string;
  /** Searches at once (src/fair.ts); none by default. */
  searchLimit?: SearchLimitOptions;
  /** ETags, 304 and `Cache-Control` (src/http-cache.ts); none by default. */
  caching?: CachingOptions;
}

/**
 * `handler` behind the host policy: `refusal` first, then the search limit and caching the host
 * asks for. The route is parsed once for all of them (src/route.ts `routeOf`). Hosts put this
 * around the runtime handler and only adapt their I/O to it.
 */
export function withHostPolicy(handler: Handler, options: HostPolicyOptions = {}): Handler {
  const basePath = options.basePath ?? '/';
  let inner = handler;
  if (options.searchLimit !== undefined) inner = limitSearches(inner, { ...options.searchLimit, basePath: options.searchLimit.basePath ?? basePath });
  if (options.caching !== undefined) inner = withCaching(inner, options.caching);
  return async (request) => {
    const refused = refusal(requestLine(request));
    if (refused !== undefined) return refused;
    routeOf(request, basePath);
    return inner(request);
  };
}
