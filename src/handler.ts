/**
 * The runtime handler: `(Request) => Promise<Response>` answering every endpoint of the API from
 * the static tree through a `Loader`. It reads nothing the build did not write, imports no Node
 * built-in, and runs unchanged in Node, a Service Worker, an edge Worker or over a bundle.
 */
import type { Answer, AnyEndpoint, Reply } from './endpoints.ts';
import { ApiError, isApiError } from './errors.ts';
import { JSON_HEADERS, jsonError, methodNotAllowed } from './host-policy.ts';
import { keepLoad, type InFlight } from './in-flight.ts';
import type { BytesLoader, Loader } from './loader.ts';
import { checkManifest, type Manifest } from './manifest.ts';
import { readQuery } from './param-spec.ts';
import { MANIFEST_PATH } from './paths.ts';
import { noEndpoint, normalizeBasePath, routeOf } from './route.ts';
import { createSearchEngine, type SearchEngine } from './search/index.ts';
import { TimeSlicer } from './fair.ts';

/** A request handler of the Fetch API. */
export type Handler = (request: Request) => Promise<Response>;

export interface HandlerOptions {
  /**
   * Path prefix the API is served under, e.g. `/my-repo/` on GitHub Pages: the handler answers
   * `<basePath>api/v1/...`. Default `/`.
   */
  basePath?: string;
  /** Called with the original error of every 500 answer (the response itself never shows it). */
  onError?: (error: unknown, request: Request) => void;
  /**
   * How the handler's own caches (the manifest, the search index reader) keep loads under way:
   * `shared` (default) or `settled` for hosts that isolate requests, such as workerd (src/in-flight.ts).
   */
  inFlight?: InFlight;
  /**
   * Reads the bytes of skill files and archives (src/files.ts). Without it those routes answer
   * NOT_FOUND; every host of a build passes one.
   */
  bytes?: BytesLoader;
  /**
   * The search engine of a manifest's index when the host already made one for that index (the
   * Service Worker starts searching with the root embedded in sw.js before the manifest arrives:
   * src/browser-api.ts); `undefined` lets the handler make its own.
   */
  searchEngine?: (manifest: Manifest) => SearchEngine | undefined;
}

/**
 * Create the handler over `loader`. The manifest is read once (and again only after a failed
 * read) and version-checked before any answer. Errors become the spec's error body: an
 * `ApiError` as is, anything else a 500 SERVER_ERROR with a generic message (the original error
 * is kept as `cause` and given to `onError`).
 */
export function createHandler(loader: Loader, options: HandlerOptions = {}): Handler {
  const basePath = normalizeBasePath(options.basePath);
  const inFlight = options.inFlight ?? 'shared';
  let manifest: Promise<Manifest> | undefined;
  const loadManifest = (): Promise<Manifest> =>
    manifest ??
    // Remember only a good manifest: a missing build may appear later.
    keepLoad(
      loader(MANIFEST_PATH).then(checkManifest),
      inFlight,
      (value) => (manifest = value),
      (failed) => {
        if (manifest === failed) manifest = undefined;
      },
    );
  // One search engine per manifest: it keeps the index files it loaded between requests.
  const engines = new WeakMap<Manifest, SearchEngine>();
  const engineFor = (m: Manifest): SearchEngine => {
    let engine = engines.get(m);
    if (engine === undefined) engines.set(m, (engine = options.searchEngine?.(m) ?? createSearchEngine(loader, m, inFlight, () => new TimeSlicer())));
    return engine;
  };

  // Each route's answer, imported on first use (src/endpoints.ts).
  const answers = new Map<AnyEndpoint, Promise<Answer>>();
  const answerOf = (endpoint: AnyEndpoint): Promise<Answer> => {
    let answer = answers.get(endpoint);
    if (answer === undefined) answers.set(endpoint, (answer = endpoint.answer()));
    return answer;
  };

  return async (request) => {
    const head = request.method === 'HEAD';
    // The host policy answers other methods before a handler sees them; a handler used alone refuses them the same way.
    if (request.method !== 'GET' && !head) return methodNotAllowed(request.method);
    try {
      const url = new URL(request.url);
      const route = routeOf(request, basePath);
      if (route === null) throw noEndpoint(url.pathname, basePath);
      const manifest = await loadManifest();
      const { endpoint, path } = route;
      const reply = await (await answerOf(endpoint))({
        request,
        url,
        basePath,
        path,
        query: () => readQuery(endpoint.query, url.searchParams, manifest),
        load: loader,
        manifest,
        search: () => engineFor(manifest),
        options,
      });
      return respond(reply, head);
    } catch (error) {
      const apiError = isApiError(error) ? error : new ApiError('SERVER_ERROR', 'Internal server error', { cause: error });
      if (apiError.status >= 500) options.onError?.(error, request);
      return jsonError(apiError, {}, head);
    }
  };
}

/** The 200 response of an answer: JSON with the API's headers, or bytes of their media type. */
function respond(reply: Reply, head: boolean): Response {
  if (reply instanceof Response) return reply;
  if ('json' in reply) return new Response(head ? null : JSON.stringify(reply.json), { status: 200, headers: { ...JSON_HEADERS, ...reply.headers } });
  return new Response(head ? null : reply.body, { status: 200, headers: { ...JSON_HEADERS, 'content-type': reply.type, ...reply.headers } });
}

export { readLocale } from './answers/categories.ts';
