/**
 * The typed client: one method per endpoint of the table (src/endpoints.ts), parameters typed
 * from its declarations and results from the zod schemas (types only: the client carries no zod), failures thrown as `ApiError` with the answer's
 * `code`, `status`, `message` and `details`. Runs anywhere `fetch` does (browsers, Node, Deno,
 * Bun, Workers). Four sources, every one answered by the same runtime handler or a server of it:
 *
 * - `{ baseUrl }`: a canonical API server (`npm start`, an edge Worker), requested over HTTP;
 * - `{ staticBaseUrl }`: a plain static host of the tree (no server code, no Service Worker): the
 *   client runs the handler itself over the files it fetches;
 * - `{ bundle }`: an offline bundle (bytes, Blob, Response, stream, or one already read);
 * - `{ loader }`: any `Loader` of the static tree.
 *
 * The handler and bundle reader are imported on first use only, so a `baseUrl` client stays small.
 */
import type { z } from 'zod';
import { endpointList, type ENDPOINTS, type Endpoint, type PathNames } from './endpoints.ts';
import { ApiError, type ErrorCode } from './errors.ts';
import type { Bundle, BundleSource } from './bundle.ts';
import type { Handler } from './handler.ts';
import type { BytesLoader, Loader } from './loader.ts';
import type { ParamsOf, QuerySpec } from './param-spec.ts';
import type * as S from './schemas.ts';

export type { AutocompleteParams, ChangesParams, ListParams, LocaleParams, SearchParams } from './query-schemas.ts';

/** Response bodies, one per endpoint. */
export type SkillListResponse = z.infer<typeof S.SkillListResponse>;
export type SkillDetailResponse = z.infer<typeof S.SkillDetailResponse>;
export type SkillContentResponse = z.infer<typeof S.SkillContentResponse>;
export type SkillStatsResponse = z.infer<typeof S.SkillStatsResponse>;
export type SearchResponse = z.infer<typeof S.SearchResponse>;
export type AutocompleteResponse = z.infer<typeof S.AutocompleteResponse>;
export type CategoryListResponse = z.infer<typeof S.CategoryListResponse>;
export type CategoryDetailResponse = z.infer<typeof S.CategoryDetailResponse>;
export type ChangesResponse = z.infer<typeof S.ChangesResponse>;

/** Where the client gets its answers (exactly one source). */
export type ClientOptions =
  | { baseUrl: string | URL; fetch?: typeof fetch }
  | { staticBaseUrl: string | URL; fetch?: typeof fetch }
  | { bundle: BundleSource | Bundle }
  | { loader: Loader; bytes?: BytesLoader };

/** The success body of an endpoint: its response schema's type, or the bytes of a route answering another media type. */
export type ResponseOf<E> = E extends { response: infer R } ? (R extends keyof typeof S ? z.infer<(typeof S)[R]> : Uint8Array) : never;

/** A method's arguments: the path parameters in order, then the query (optional when nothing in it is required). */
type ArgsOf<P extends string, Q extends QuerySpec> = [...Strings<PathNames<P>>, ...QueryArg<Q>];
type Strings<T extends string[]> = { [I in keyof T]: string };
type QueryArg<Q extends QuerySpec> = keyof Q extends never ? [] : {} extends ParamsOf<Q> ? [params?: ParamsOf<Q>] : [params: ParamsOf<Q>];

/** The method of one endpoint. */
export type MethodOf<E> = E extends Endpoint<infer P, infer Q, infer _R> ? (...args: ArgsOf<P, Q>) => Promise<ResponseOf<E>> : never;

/** The endpoints that are client methods (all but `client: false`). */
type ClientEndpoints = { [K in keyof typeof ENDPOINTS as (typeof ENDPOINTS)[K] extends { client: false } ? never : K]: (typeof ENDPOINTS)[K] };

/**
 * A client of the Skills Directory API: one method per endpoint of the table (src/endpoints.ts),
 * named by its operation (`listSkills`, `getSkill(owner, repo)`, `getCategory(slug, params?)`,
 * `searchSkills(params)` …), taking the path parameters in order and then the query. Every method
 * resolves the API's JSON body.
 */
export type SkillsClient = { [K in keyof ClientEndpoints]: MethodOf<ClientEndpoints[K]> } & {
  /**
   * The raw answer to a canonical request such as `/api/v1/skills?page=2` (status, headers and
   * body as the API gives them; never throws for an error status).
   */
  fetch(path: string, init?: RequestInit): Promise<Response>;
};

/** Files of the static tree kept parsed by a client that runs the handler itself. */
const CACHE_ENTRIES = 500;

/** Create a client over one source; see `ClientOptions`. */
export function createClient(options: ClientOptions): SkillsClient {
  const send = transport(options);
  const methods: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [name, endpoint] of endpointList()) {
    if (endpoint.client === false) continue;
    const count = endpoint.path.split('/').filter((part) => part.startsWith(':') || part.startsWith('*')).length;
    // `async` so a bad segment rejects like any API error instead of throwing synchronously.
    methods[name] = async (...args) => {
      let i = 0;
      const path = endpoint.path.replace(/([:*])[A-Za-z]+/g, (_, kind: string) => {
        const value = String(args[i++]);
        return kind === '*' ? value.split('/').map(segment).join('/') : segment(value);
      });
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries((args[count] ?? {}) as object)) {
        if (value !== undefined) query.set(key, String(value));
      }
      const response = await send(`${path}${query.size === 0 ? '' : `?${query}`}`);
      if (typeof endpoint.response !== 'string') return bytesOf(response, path);
      return readBody(response, path);
    };
  }
  return { ...methods, fetch: send } as SkillsClient;
}

/** The bytes of a success of a route answering another media type; an error answer becomes an `ApiError` as `readBody` makes it. */
async function bytesOf(response: Response, path: string): Promise<Uint8Array> {
  return response.ok ? new Uint8Array(await response.arrayBuffer()) : readBody(response, path);
}

/** `(path, init) => Response` for the source: HTTP to a server, or the handler in-process. */
function transport(options: ClientOptions): (path: string, init?: RequestInit) => Promise<Response> {
  const given = (['baseUrl', 'staticBaseUrl', 'bundle', 'loader'] as const).filter((key) => key in options);
  if (given.length !== 1) throw new TypeError(`createClient: give exactly one of baseUrl, staticBaseUrl, bundle, loader (got ${given.join(', ') || 'none'})`);
  if ('baseUrl' in options) {
    const base = directoryUrl(options.baseUrl);
    const fetchImpl = options.fetch ?? globalThis.fetch;
    return (path, init) => fetchImpl(new URL(relativePath(path), base), init);
  }
  // A static host that cannot be reached: the handler answers its fetch failure as any failure
  // (500); the caller gets the failure itself instead, as from a server (`baseUrl`).
  const unreachable = { error: undefined as unknown, serial: 0 };
  const local: ClientOptions = 'staticBaseUrl' in options ? { ...options, fetch: watchedFetch(options.fetch ?? globalThis.fetch, unreachable) } : options;
  let handler: Promise<Handler> | undefined;
  const makeHandler = async (): Promise<Handler> => {
    const [{ createHandler }, { cachedLoader }] = await Promise.all([import('./handler.ts'), import('./loader.ts')]);
    const { loader, bytes } = await localLoader(local);
    return createHandler(cachedLoader(loader, { maxEntries: CACHE_ENTRIES }), bytes === undefined ? {} : { bytes });
  };
  return async (path, init) => {
    // A failed setup (an unreadable bundle) is retried by the next call, not remembered.
    handler ??= makeHandler().catch((error: unknown) => {
      handler = undefined;
      throw error;
    });
    const before = unreachable.serial;
    const response = await (await handler)(new Request(new URL(relativePath(path), 'http://localhost/'), init));
    if (response.status === 500 && unreachable.serial > before) throw unreachable.error;
    return response;
  };
}

/** `fetchImpl`, noting in `failed` each failure to fetch (the error, and one more in its count). */
function watchedFetch(fetchImpl: typeof fetch, failed: { error: unknown; serial: number }): typeof fetch {
  return async (input, init) => {
    try {
      return await fetchImpl(input, init);
    } catch (error) {
      failed.error = error;
      failed.serial += 1;
      throw error;
    }
  };
}

/** The JSON loader of a local source, and its bytes loader for skill files and archives. */
async function localLoader(options: ClientOptions): Promise<{ loader: Loader; bytes?: BytesLoader }> {
  if ('loader' in options) return options.bytes === undefined ? { loader: options.loader } : { loader: options.loader, bytes: options.bytes };
  if ('staticBaseUrl' in options) {
    const { fetchBytesLoader, fetchLoader } = await import('./loader.ts');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    return { loader: fetchLoader(directoryUrl(options.staticBaseUrl), fetchImpl), bytes: fetchBytesLoader(directoryUrl(options.staticBaseUrl), fetchImpl) };
  }
  if (!('bundle' in options)) throw new TypeError('createClient: no source');
  const { bundleBytesLoader, bundleLoader, readBundle } = await import('./bundle.ts');
  const source = options.bundle;
  const bundle = isBundle(source) ? source : await readBundle(source);
  return { loader: bundleLoader(bundle), bytes: bundleBytesLoader(bundle) };
}

function isBundle(value: BundleSource | Bundle): value is Bundle {
  return typeof value === 'object' && value !== null && 'header' in value && 'files' in value && value.files instanceof Map;
}

/** The parsed body of a success; an error answer becomes an `ApiError` with its code and status. */
async function readBody<T>(response: Response, path: string): Promise<T> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(response.ok ? 'SERVER_ERROR' : codeForStatus(response.status), `GET ${path} answered ${response.status} with a body that is not JSON`, {
      status: response.ok ? 500 : response.status,
    });
  }
  if (response.ok) return body as T;
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? (error.code as ErrorCode) : codeForStatus(response.status);
  const message = typeof error?.message === 'string' ? error.message : `GET ${path} answered ${response.status}`;
  throw new ApiError(code, message, { status: response.status, details: error?.details });
}

/** The code for an error answer without an error body (a proxy's page, a static host's 404). */
function codeForStatus(status: number): ErrorCode {
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 405) return 'METHOD_NOT_ALLOWED';
  return status >= 400 && status < 500 ? 'INVALID_PARAMS' : 'SERVER_ERROR';
}

/**
 * A path segment, percent-encoded, so `a/b` stays one segment. `.` and `..` (also encoded as
 * `%2E`) would be resolved away by any URL parser, climbing out of the path: they name no skill
 * or category, so they are answered here with the API's NOT_FOUND. The API validates the rest.
 */
function segment(value: string): string {
  if (value === '.' || value === '..') throw new ApiError('NOT_FOUND', `No skill or category is named ${JSON.stringify(value)}`);
  return encodeURIComponent(value);
}

/** `/api/v1/...` → `api/v1/...`, resolved against the base folder. */
function relativePath(path: string): string {
  return path.replace(/^\/+/, '');
}

/** The URL as a folder (with a trailing slash), so relative paths resolve below it. */
function directoryUrl(url: string | URL): URL {
  const base = new URL(url);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return base;
}
