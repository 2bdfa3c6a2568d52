/**
 * The Cloudflare Worker entry (wrangler.toml `main`): the canonical API at the edge, answered by
 * the same runtime handler as every other host, reading the build output deployed as the
 * Worker's static assets (`env.ASSETS`), or published to an R2 bucket (`env.TREE`, r2-loader.ts).
 * Runtime core: no Node built-ins.
 *
 * Routing (wrangler.toml sends `/api/*` to the Worker first; every other path is served by the
 * static assets directly and reaches the Worker only when no file matches):
 * - `/api/v1/...json` that exists as a file — served as the file, as on any static host and the
 *   Node server (no canonical URL names an existing `.json` file); content-hashed search index
 *   files (`/api/v1/skills/_search/…`) with `Cache-Control: immutable`;
 * - any other `/api/v1[/...]` — the runtime handler, with `Cache-Control` and `ETag` (src/http-cache.ts);
 * - anything else — the static file, or the same JSON NOT_FOUND the Node server answers.
 *
 * Before any of it, the host policy of every host (src/host-policy.ts): 414, the CORS preflight,
 * 405 for methods other than GET and HEAD.
 *
 * The Workers runtime compresses a body (gzip, br) for each client by its `Accept-Encoding`, after
 * the Worker has answered: so every answer says `Vary: Accept-Encoding`, and its ETag is weak
 * (`W/"…"`), as a compressed representation's must be. `If-None-Match` compares weakly, so the
 * weak tag revalidates (304) whichever encoding the client holds.
 */
import { ApiError } from '../errors.ts';
import { createHandler, type Handler } from '../handler.ts';
import { jsonError, refusal, requestLine, withHostPolicy } from '../host-policy.ts';
import { addVary, cacheControlFor, etagMatches, notModified } from '../http-cache.ts';
import { cachedLoader, type BytesLoader, type Loader } from '../loader.ts';
import { isHandlerRoute, keepRoute, matchRoute } from '../route.ts';
import { assetsBytesLoader, assetsLoader, type AssetsBinding } from './assets-loader.ts';
import { r2Files, r2Handler, type R2BucketLike } from './r2-loader.ts';

/**
 * The Worker's bindings: the build output as static assets (wrangler.toml `[assets] binding =
 * "ASSETS"`), or in an R2 bucket (`[[r2_buckets]] binding = "TREE"`, docs/edge.md "The tree in
 * R2"), which wins when both are bound.
 */
export interface Env {
  ASSETS?: AssetsBinding;
  /** The bucket `skills-api deploy` publishes to. */
  TREE?: R2BucketLike;
  /** Key prefix of the tree in the bucket (the `--to s3://<bucket>/<prefix>` of the deploy); default none. */
  TREE_PREFIX?: string;
  /** How often an isolate looks for a newly deployed manifest in the bucket, in seconds; default 30. */
  TREE_REFRESH_SECONDS?: string;
}

/** Default of `TREE_REFRESH_SECONDS`: a deploy reaches every isolate within half a minute. */
const TREE_REFRESH_SECONDS = 30;

/**
 * Parsed files an isolate keeps (LRU). An isolate has 128 MB; list pages and skill files are a
 * few KB, so this bounds the cache at a few MB while keeping the manifest and hot pages parsed.
 */
const CACHE_ENTRIES = 500;

/** Largest unused request body read to keep the connection usable. */
const MAX_DISCARD = 64 * 1024;

/** One handler per assets binding, so its file cache lives as long as the isolate. */
const handlers = new WeakMap<AssetsBinding, Handler>();

/** The runtime handler over `loader` and `bytes`, with the isolate's file cache and the caching headers. */
function handlerOver(loader: Loader, bytes: BytesLoader): Handler {
  // workerd refuses a request waiting on another request's I/O: caches keep settled answers only.
  const cached = cachedLoader(loader, { maxEntries: CACHE_ENTRIES, inFlight: 'settled' });
  return withHostPolicy(createHandler(cached, { inFlight: 'settled', bytes, onError: (error, request) => console.error(`500 on ${request.url}:`, error) }), { caching: {} });
}

async function apiHandler(env: Env): Promise<Handler> {
  if (env.TREE !== undefined) {
    const refresh = Number(env.TREE_REFRESH_SECONDS ?? TREE_REFRESH_SECONDS);
    const bytes = assetsBytesLoader(files(env));
    return r2Handler(env.TREE, env.TREE_PREFIX ?? '', Number.isFinite(refresh) && refresh >= 0 ? refresh : TREE_REFRESH_SECONDS, (loader) => handlerOver(loader, bytes));
  }
  const assets = files(env);
  let handler = handlers.get(assets);
  if (handler === undefined) handlers.set(assets, (handler = handlerOver(assetsLoader(assets), assetsBytesLoader(assets))));
  return handler;
}

/** Where the Worker reads files: the R2 bucket when bound, else the static assets. */
function files(env: Env): AssetsBinding {
  if (env.TREE !== undefined) return r2Files(env.TREE, env.TREE_PREFIX ?? '');
  if (env.ASSETS === undefined) throw new Error('The Worker has neither an ASSETS nor a TREE binding: see wrangler.toml');
  return env.ASSETS;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    try {
      // The host policy (src/host-policy.ts), on every path: 414 for a target longer than the
      // limit (ours, not the runtime's), the CORS preflight, 405 for other methods.
      const refused = refusal(requestLine(request));
      if (refused !== undefined) {
        await discardBody(request);
        return encodable(refused);
      }
      return encodable(await answerRequest(request, env));
    } catch (error) {
      // Whatever escapes (a target the URL parser refuses, a failing binding): our JSON 500 with
      // CORS, never the runtime's plain-text page.
      console.error(`500 on ${request.url}:`, error);
      return encodable(jsonError(new ApiError('SERVER_ERROR', 'Internal server error')));
    }
  },
};

/** `response` as the runtime may re-encode it: `Vary: Accept-Encoding` and a weak ETag. */
function encodable(response: Response): Response {
  // Headers of a fetched or handler response may be immutable: a copy takes new ones.
  const out = new Response(response.body, response);
  out.headers.set('vary', addVary(out.headers.get('vary') ?? undefined, 'Accept-Encoding'));
  const etag = out.headers.get('etag');
  if (etag !== null && !etag.startsWith('W/')) out.headers.set('etag', `W/${etag}`);
  return out;
}

/** The Worker's answer to `request` (see the routing above), before `encodable`. */
async function answerRequest(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url);
  // The route is matched once: the host policy and the handler read it from the request.
  const route = matchRoute(url.pathname);
  keepRoute(request, route);
  const api = isHandlerRoute(url.pathname, route);
  // A skill's own `.json` file is the handler's too (src/files.ts), as on the Node server.
  if (api && !(url.pathname.endsWith('.json') && route?.name !== 'getSkillFile')) return (await apiHandler(env))(request);
  const file = await files(env).fetch(request);
  if (file.status === 404) {
    await file.body?.cancel();
    // A `.json` path under the API that is no file is the handler's (a JSON 404 or an answer).
    if (api) return (await apiHandler(env))(request);
    return jsonError(new ApiError('NOT_FOUND', `No file at ${JSON.stringify(url.pathname.slice(0, 200))}`));
  }
  if (file.status !== 200 && file.status !== 304) return file;
  // The hosts' one caching policy (src/http-cache.ts): a search index file never changes under
  // its name; every other file lives 5 minutes.
  const cached = new Response(file.body, file);
  cached.headers.set('cache-control', cacheControlFor(url.pathname, 200, false));
  if (api) {
    // What the build's `_headers` adds to /api/v1/* on the static-assets Worker (builder/site.ts):
    // with the tree in R2 no `_headers` applies, so the Worker sets both itself.
    cached.headers.set('access-control-allow-origin', '*');
    cached.headers.set('x-content-type-options', 'nosniff');
  }
  // Revalidation by the rule of every host, `If-None-Match: *` included (the assets server
  // answers that one with the whole file).
  const etag = cached.headers.get('etag');
  if (cached.status === 200 && etag !== null && etagMatches(request.headers.get('if-none-match'), etag)) {
    await cached.body?.cancel();
    return notModified(cached.headers);
  }
  return cached;
}

/**
 * Read and drop a request body nobody uses. workerd does not reuse a connection whose request
 * body was left unread (cancelling is not enough) and resets it under the client's next request;
 * bodies past `MAX_DISCARD` bytes are cancelled instead (that client loses its keep-alive).
 */
async function discardBody(request: Request): Promise<void> {
  if (request.body === null) return;
  const reader = request.body.getReader();
  for (let bytes = 0; bytes <= MAX_DISCARD; ) {
    const chunk = await reader.read();
    if (chunk.done) return;
    bytes += chunk.value.byteLength;
  }
  await reader.cancel();
}
