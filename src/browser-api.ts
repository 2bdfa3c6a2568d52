/**
 * The canonical API inside a browser (docs/decisions.md §1.3): which requests a Service Worker answers,
 * and the handler it answers them with. Shared by the worker entry (service-worker.ts) and the
 * page helper (page-api.ts), which runs the same handler in the page while no worker controls it.
 */
import { createHandler, type Handler } from './handler.ts';
import { withHostPolicy } from './host-policy.ts';
import { cachedLoader, fetchBytesLoader, fetchLoader } from './loader.ts';
import { MANIFEST_PATH } from './paths.ts';
import { isHandlerRoute, matchRoute, normalizeBasePath } from './route.ts';

/** Set by the site build (esbuild `define`, see builder/site.ts); absent when this file is imported unbundled. */
declare const __SKILLS_API_BASE__: string | undefined;

/** What sw.js exposes when a page loads it as a classic script (see service-worker.ts). */
export interface PageHandlerGlobal {
  skillsDirectoryApi?: { handle: Handler };
}

/** Static files the in-browser handler keeps parsed in memory (the manifest and hot list pages). */
const CACHE_ENTRIES = 500;

/**
 * The path prefix the site is served under (`/` or `/repo/`), fixed at build time by
 * `npm run build -- --base /repo/`; `/` when the code runs unbundled.
 */
export function siteBasePath(): string {
  return normalizeBasePath(typeof __SKILLS_API_BASE__ === 'string' ? __SKILLS_API_BASE__ : '/');
}

/**
 * Whether the in-browser handler answers a request for `url`: same origin as the site, path
 * under `<basePath>api/v1`, and not a file of the static tree. A path the handler routes is
 * always answered (also `/skills/owner/name.json`, where `name.json` is a valid repo); any other
 * `.json` path is a static file (`manifest.json`, list pages, search chunks) and goes to the
 * network — that is how the handler's own loader and static-only clients reach the files. Every
 * other path under the prefix gets the handler's 404 error body, as from `npm start`.
 */
export function isApiRequest(url: URL, origin: string, basePath: string): boolean {
  if (url.origin !== origin) return false;
  const route = matchRoute(url.pathname, basePath);
  if (!isHandlerRoute(url.pathname, route, basePath)) return false;
  return route !== null || !url.pathname.endsWith('.json');
}

/** Options of `createBrowserHandler`. */
export interface BrowserHandlerOptions {
  /**
   * Start reading the manifest now instead of at the first request (default false). The Service
   * Worker does, as it starts: every answer needs the manifest first, so its round trip then
   * overlaps the browser activating the worker and the page's first request reaching it.
   */
  prefetchManifest?: boolean;
}

/**
 * The runtime handler over the static tree of the site at `siteUrl` (the URL of the output
 * folder, e.g. `https://user.github.io/repo/`): files are fetched from the network (browser HTTP
 * cache included) and the last few hundred kept parsed. Its base path is the path of `siteUrl`.
 *
 * The manifest is always revalidated with the server (`cache: 'no-cache'`, a 304 when unchanged;
 * read once per handler): it names the content-hashed search files, and a manifest kept from
 * before a deploy (GitHub Pages caches for 10 minutes) would point at files that are gone.
 */
export function createBrowserHandler(
  siteUrl: string | URL,
  fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init),
  { prefetchManifest = false }: BrowserHandlerOptions = {},
): Handler {
  const site = new URL(siteUrl);
  const manifestUrl = new URL(MANIFEST_PATH, site).href;
  const revalidating: typeof fetch = (input, init) =>
    fetchImpl(input, String(input) === manifestUrl ? { ...init, cache: 'no-cache' } : init);
  const loader = cachedLoader(fetchLoader(site, revalidating), { maxEntries: CACHE_ENTRIES });
  // The loader shares a load under way, so the handler's first request joins this one; a failed
  // load is not kept (the request that needs it reads again and answers its error).
  if (prefetchManifest) loader(MANIFEST_PATH).catch(() => undefined);
  const handler = createHandler(loader, {
    basePath: site.pathname,
    bytes: fetchBytesLoader(site, fetchImpl),
    onError: (error, request) => console.error(`skills API: 500 on ${request.url}`, error),
  });
  // The host policy of every host (src/host-policy.ts); the browser's HTTP cache is the page's own.
  return withHostPolicy(handler, { basePath: site.pathname });
}
