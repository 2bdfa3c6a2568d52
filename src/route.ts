/**
 * Routing of request paths to the endpoints of the table (src/endpoints.ts), shared by the
 * handler, the hosts, the search limit and `staticPathFor`. Every path parameter is decoded once
 * and validated against its pattern before it is returned, so `..`, `%2e%2e`, `%00`, `%2f` or
 * double-encoded segments can never name a file: such a path has no route.
 */
import { endpointList, type AnyEndpoint, type EndpointName } from './endpoints.ts';
import type { PathParam } from './param-spec.ts';
import { ApiError } from './errors.ts';
import { quote } from './params.ts';
import { API_PREFIX } from './paths.ts';

/** A request path matched to its endpoint, with its decoded path parameters. */
export interface RouteMatch {
  name: EndpointName;
  endpoint: AnyEndpoint;
  path: Record<string, string>;
}

/** Longest request target (path and query, in UTF-8 bytes) a host answers; longer is 414 (docs/api.md "Limits"). */
export const MAX_URL_BYTES = 8 * 1024;

/** `basePath` as a prefix that starts and ends with `/` (`repo` → `/repo/`, `` → `/`). */
export function normalizeBasePath(basePath = '/'): string {
  const trimmed = basePath.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '/' : `/${trimmed}/`;
}

/** One segment of a pattern: a literal, a `:name` parameter or a last `*name` rest. */
type Part = { literal: string } | { name: string; pattern: RegExp; rest: boolean; valid?: ((value: string) => boolean) | undefined };

type Route = { name: EndpointName; endpoint: AnyEndpoint; parts: Part[] };

/** The table's patterns, split on first use (the table's modules import this one). */
let routes: readonly Route[] | undefined;
const splitRoutes = (): readonly Route[] => endpointList().map(([name, endpoint]) => ({ name, endpoint, parts: splitPattern(endpoint.path, endpoint.pathParams) }));

/** A path pattern (`/a/:x/*y`) as parts, each parameter with its pattern. */
function splitPattern(path: string, params: Readonly<Record<string, PathParam>>): Part[] {
  return path
    .slice(1)
    .split('/')
    .map((part): Part => {
      if (part[0] !== ':' && part[0] !== '*') return { literal: part };
      const param = params[part.slice(1)]!;
      return { name: part.slice(1), pattern: param.pattern, rest: part[0] === '*', valid: param.valid };
    });
}

/**
 * The path parameters of `pathname` (after the base path `/`) under one pattern, or null when it
 * does not match: what `matchRoute` does for each entry of the table, for a pattern of any shape.
 */
export function matchPattern(pattern: string, params: Readonly<Record<string, PathParam>>, pathname: string): Record<string, string> | null {
  return matchParts(splitPattern(pattern, params), pathname.slice(1).replace(/\/$/, '').split('/'));
}

/** The route of a URL pathname, or null for any path that is not an endpoint. One trailing slash is ignored. */
export function matchRoute(pathname: string, basePath = '/'): RouteMatch | null {
  const segments = segmentsOf(pathname, basePath);
  if (segments === null) return null;
  routes ??= splitRoutes();
  for (const route of routes) {
    const path = matchParts(route.parts, segments);
    if (path !== null) return { name: route.name, endpoint: route.endpoint, path };
  }
  return null;
}

/** The segments of `pathname` after the base path, one trailing slash ignored; null outside the base. */
function segmentsOf(pathname: string, basePath: string): string[] | null {
  const base = normalizeBasePath(basePath);
  if (!pathname.startsWith(base)) return null;
  let rest = pathname.slice(base.length);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  return rest.split('/');
}

function matchParts(parts: readonly Part[], segments: readonly string[]): Record<string, string> | null {
  const fit = fitParts(parts, segments);
  return fit !== null && 'path' in fit ? fit.path : null;
}

/**
 * `segments` under `parts`: null when they do not have its shape (number of segments, literals);
 * otherwise the decoded parameters, or the first parameter whose value does not fit.
 */
function fitParts(parts: readonly Part[], segments: readonly string[]): { path: Record<string, string> } | { miss: { name: string; value: string } } | null {
  const last = parts.at(-1);
  const rest = last !== undefined && 'rest' in last && last.rest;
  if (rest ? segments.length < parts.length : segments.length !== parts.length) return null;
  if (!parts.every((part, i) => !('literal' in part) || segments[i] === part.literal)) return null;
  const path: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    if ('literal' in part) continue;
    const raw = part.rest ? segments.slice(i) : [segments[i]!];
    const values = raw.map((one) => segment(one, part.pattern));
    const bad = values.indexOf(null);
    const value = bad >= 0 ? raw[bad]! : values.join('/');
    if (bad >= 0 || (part.valid !== undefined && !part.valid(value))) return { miss: { name: part.name, value } };
    path[part.name] = value;
  }
  return { path };
}

/**
 * Why a path with the shape of a route (its literals, its number of segments) has none: the first
 * path parameter whose value does not fit, as a phrase for the 404's message
 * (`"DevOps" does not fit :slug, the category slug …`); undefined when no route has that shape.
 */
export function missedParam(pathname: string, basePath = '/'): string | undefined {
  const segments = segmentsOf(pathname, basePath);
  if (segments === null) return undefined;
  routes ??= splitRoutes();
  for (const route of routes) {
    const fit = fitParts(route.parts, segments);
    if (fit === null || !('miss' in fit)) continue;
    const { name, value } = fit.miss;
    const description = route.endpoint.pathParams[name]?.description;
    const what = description === undefined ? '' : description.startsWith('the ') ? `, ${description}` : `, the ${description}`;
    return `${quote(value)} does not fit :${name}${what}`;
  }
  return undefined;
}

/** The 404 of a path that is no endpoint, saying which path parameter did not fit when one did not (`missedParam`). */
export function noEndpoint(pathname: string, basePath = '/'): ApiError {
  const missed = missedParam(pathname, basePath);
  return new ApiError('NOT_FOUND', `No endpoint at ${quote(pathname)}${missed === undefined ? '' : `: ${missed}`}`);
}

/** Decode one segment and check it against `re`; null when it is malformed or does not match. */
function segment(raw: string, re: RegExp): string | null {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return re.test(value) ? value : null;
}

/** Routes kept per request, so the hosts, the search limit and the handler parse a path once. */
const parsed = new WeakMap<Request, { basePath: string; route: RouteMatch | null }>();

/** The route of `request` (see `matchRoute`), parsed once per request object. */
export function routeOf(request: Request, basePath = '/'): RouteMatch | null {
  const kept = parsed.get(request);
  if (kept !== undefined && kept.basePath === basePath) return kept.route;
  const route = matchRoute(new URL(request.url).pathname, basePath);
  parsed.set(request, { basePath, route });
  return route;
}

/** Let `copy` (the same request under another method) share the route parsed for `request`. */
export function shareRoute(request: Request, copy: Request): void {
  const kept = parsed.get(request);
  if (kept !== undefined) parsed.set(copy, kept);
}

/**
 * Whether a URL pathname belongs to the runtime handler rather than to the static files: anything
 * under `<base>api/v1` (unknown paths there are the handler's 404), and the table's routes
 * outside it, except those a host answers itself (`hosted`, such as `/mcp`). Every host routes with this.
 */
export function isHandlerPath(pathname: string, basePath = '/'): boolean {
  return isHandlerRoute(pathname, matchRoute(pathname, basePath), basePath);
}

/** `isHandlerPath` for a host that matched the route of `pathname` already (`matchRoute`). */
export function isHandlerRoute(pathname: string, route: RouteMatch | null, basePath = '/'): boolean {
  const prefix = `${normalizeBasePath(basePath)}${API_PREFIX}`;
  if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return true;
  return route !== null && route.endpoint.hosted !== true;
}

/**
 * Keep `route` (what `matchRoute` gave for the request's path under `basePath`) as the route of
 * `request`, for a host that matched it before making the request: the host policy, the search
 * limit and the handler then read it instead of parsing the path again.
 */
export function keepRoute(request: Request, route: RouteMatch | null, basePath = '/'): void {
  parsed.set(request, { basePath, route });
}
