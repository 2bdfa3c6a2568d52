/**
 * The canonical API inside a browser (docs/decisions.md §1.3): which requests a Service Worker answers,
 * and the handler it answers them with. Shared by the worker entry (service-worker.ts) and the
 * page helper (page-api.ts), which runs the same handler in the page while no worker controls it.
 */
import { TimeSlicer } from './fair.ts';
import { createHandler, type Handler } from './handler.ts';
import { withHostPolicy } from './host-policy.ts';
import { keepLoad } from './in-flight.ts';
import { cachedLoader, fetchBytesLoader, fetchLoader, isSearchIndexFile, type Loader } from './loader.ts';
import { Lru } from './lru.ts';
import type { SearchManifest } from './manifest.ts';
import { MANIFEST_PATH } from './paths.ts';
import { isHandlerRoute, matchRoute, normalizeBasePath } from './route.ts';
import type { Suggestion } from './schemas.ts';
import { readAutocompleteQuery, readSearchQuery } from './answers/search-query.ts';
import { createSearchEngine, type AutocompleteQuery, type SearchAnswer, type SearchEngine, type SearchQuery } from './search/index.ts';

/** Set by the site build (esbuild `define`, see builder/site.ts); absent when this file is imported unbundled. */
declare const __SKILLS_API_BASE__: string | undefined;
/**
 * Set by the site build in sw.js only: the JSON of the build's `{ root, index }` search entry (the
 * root file's path and a copy of it), or `""` when the build embedded none.
 */
declare const __SKILLS_API_SEARCH__: string | undefined;

/** What sw.js exposes when a page loads it as a classic script (see service-worker.ts). */
export interface PageHandlerGlobal {
  skillsDirectoryApi?: { handle: Handler };
}

/** Static files the in-browser handler keeps parsed in memory (the manifest and hot list pages). */
const CACHE_ENTRIES = 500;
/**
 * Search index files kept by the layer the engines share (the index reader keeps its own), so a
 * file the early search below asked for is not fetched again: a cold search reads about 30.
 */
const SHARED_SEARCH_FILES = 64;

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

/**
 * The search entry the site build embedded in sw.js (`{ root, index }`: the root file's path and a
 * copy of the root; docs/search-index.md), or `undefined` (no index, a large root, unbundled code).
 */
export function embeddedSearch(): SearchManifest | undefined {
  const text = typeof __SKILLS_API_SEARCH__ === 'string' ? __SKILLS_API_SEARCH__ : '';
  if (!text.startsWith('{')) return undefined;
  const entry = JSON.parse(text) as Partial<SearchManifest>;
  return typeof entry.root === 'string' && typeof entry.index === 'object' ? (entry as SearchManifest) : undefined;
}

/** Options of `createBrowserHandler`. */
export interface BrowserHandlerOptions {
  /**
   * Start reading the manifest now instead of at the first request (default false). A page that
   * calls the handler directly (no worker controls it yet) does: every answer needs the manifest,
   * so its round trip overlaps the page's own work. The Service Worker does not (its script only
   * registers listeners: docs/search-index.md, "A cold first search").
   */
  prefetchManifest?: boolean;
  /**
   * The build's search root (`embeddedSearch()`): a search asked for before the manifest arrives
   * starts at once with it, fetching its term chunks and summaries while the manifest is on its
   * way. The manifest decides: when it names this root (the same content-hashed file), its
   * searches run on that same engine and find those files loaded or under way; when it names
   * another (a newer deploy), they run on an engine of their own and the early files are unused.
   */
  search?: SearchManifest;
  /**
   * Run once, a task after the first early search sent its file requests, while they are on their
   * way: the Service Worker's warm-up of the search code (src/search/warm.ts). Its argument says
   * whether a search file has come back since: the warm-up then gives the thread back.
   */
  warm?: (stop: () => boolean) => unknown;
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
  { prefetchManifest = false, search, warm }: BrowserHandlerOptions = {},
): Handler {
  const site = new URL(siteUrl);
  const manifestUrl = new URL(MANIFEST_PATH, site).href;
  const revalidating: typeof fetch = (input, init) =>
    fetchImpl(input, String(input) === manifestUrl ? { ...init, cache: 'no-cache' } : init);
  const files = fetchLoader(site, revalidating);
  const cached = cachedLoader(files, { maxEntries: CACHE_ENTRIES });
  // Search files never change under their name (content-hashed), so every engine may share them.
  const searchFiles = new Lru<Promise<unknown>>(SHARED_SEARCH_FILES);
  if (search?.index !== undefined) searchFiles.set(search.root, Promise.resolve(search.index));
  let manifestRead = false;
  /** Search files loaded so far (the warm-up stops at the first after it started). */
  let searchFilesBack = 0;
  const loader: Loader = (path) => {
    if (path === MANIFEST_PATH) {
      return cached(path).then((value) => {
        manifestRead = true;
        return value;
      });
    }
    if (search === undefined || !isSearchIndexFile(path)) return cached(path);
    const hit = searchFiles.get(path);
    if (hit !== undefined) return hit;
    const loading = files(path).then((value) => {
      searchFilesBack++;
      return value;
    });
    return keepLoad(loading, 'shared', (value) => searchFiles.set(path, value), (failed) => {
      if (searchFiles.get(path) === failed) searchFiles.delete(path);
    });
  };
  // The loader shares a load under way, so the handler's first request joins this one; a failed
  // load is not kept (the request that needs it reads again and answers its error).
  if (prefetchManifest) loader(MANIFEST_PATH).catch(() => undefined);
  const early = search?.index === undefined ? undefined : new EarlySearch(createSearchEngine(loader, { search }, 'shared', () => new TimeSlicer()));
  // Made at the first request, after an early search has sent its fetches: building the table's
  // handler then runs while they are on their way instead of before the worker may activate.
  // The host policy of every host (src/host-policy.ts); the browser's HTTP cache is the page's own.
  let answer: Handler | undefined;
  const answerOf = (): Handler => (answer ??= withHostPolicy(createHandler(loader, {
    basePath: site.pathname,
    bytes: fetchBytesLoader(site, fetchImpl),
    onError: (error, request) => console.error(`skills API: 500 on ${request.url}`, error),
    searchEngine: (manifest) => (early !== undefined && manifest.search?.root === search?.root ? early : undefined),
  }), { basePath: site.pathname }));
  if (early === undefined) return (request) => answerOf()(request);
  let warmed = false;
  const basePath = normalizeBasePath(site.pathname);
  return (request) => {
    if (manifestRead || !early.start(request, basePath)) return answerOf()(request);
    if (warm !== undefined && !warmed) {
      warmed = true;
      const before = searchFilesBack;
      setTimeout(() => warm(() => searchFilesBack !== before), 0);
    }
    // The early search sends its file requests within this task (its first files are in memory:
    // the embedded root); the handler's manifest read waits for the next one. A worker's first
    // fetch() is its slowest to send (docs/search-index.md), and the manifest is not needed
    // before the search's files are back, so it goes out after them.
    return new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => answerOf()(request));
  };
}

/** No categories nor platforms: what an early search's parameters are checked against (it has no `category` or `platform`). */
const NO_FILTERS = { categories: [], platforms: [] };

/** What a search answers for `query`: its options in a fixed order. */
function searchKey(query: SearchQuery): string {
  return `search ${JSON.stringify([query.q, query.page, query.limit, query.category, query.platform, query.minStars, query.hasIndex])}`;
}

/** What autocomplete answers for `query`. */
function autocompleteKey(query: AutocompleteQuery): string {
  return `autocomplete ${JSON.stringify([query.q, query.limit])}`;
}

/**
 * The engine of the embedded root, with the searches and autocompletes started before the
 * manifest arrived: the handler's first request of the same one takes that answer (once) instead
 * of running it again.
 */
class EarlySearch implements SearchEngine {
  private readonly started = new Map<string, Promise<unknown>>();

  constructor(private readonly engine: SearchEngine) {}

  search(query: SearchQuery): Promise<SearchAnswer> {
    return (this.take(searchKey(query)) as Promise<SearchAnswer> | undefined) ?? this.engine.search(query);
  }

  autocomplete(query: AutocompleteQuery): Promise<{ data: Suggestion[] }> {
    return (this.take(autocompleteKey(query)) as Promise<{ data: Suggestion[] }> | undefined) ?? this.engine.autocomplete(query);
  }

  private take(key: string): Promise<unknown> | undefined {
    const answer = this.started.get(key);
    this.started.delete(key);
    return answer;
  }

  /**
   * Start a plain search (`q`, optionally `page` and `limit`: the parameters that need no manifest
   * to check) or an autocomplete without waiting; the request itself is answered by the handler,
   * which takes this answer when the manifest names the same index. Anything else starts nothing.
   * True when it started one (or one was already under way).
   */
  start(request: Request, basePath: string): boolean {
    if (request.method !== 'GET') return false;
    const url = new URL(request.url);
    const params = url.searchParams;
    if (url.pathname === `${basePath}api/v1/skills/autocomplete`) {
      let query: AutocompleteQuery;
      try {
        query = readAutocompleteQuery(params);
      } catch {
        return false;
      }
      this.begin(autocompleteKey(query), () => this.engine.autocomplete(query));
      return true;
    }
    if (url.pathname !== `${basePath}api/v1/skills/search`) return false;
    if ([...params.keys()].some((key) => key !== 'q' && key !== 'page' && key !== 'limit')) return false;
    let query: SearchQuery;
    try {
      // Read as the endpoint reads them; these parameters check nothing against the manifest.
      query = readSearchQuery(params, NO_FILTERS);
    } catch {
      return false;
    }
    this.begin(searchKey(query), () => this.engine.search(query));
    return true;
  }

  private begin(key: string, run: () => Promise<unknown>): void {
    if (this.started.has(key)) return;
    const answer = run();
    this.started.set(key, answer);
    // Its errors (a bad query, a missing file) are the handler's to answer, when it takes it; an
    // answer never taken (the manifest named another index) is dropped a while after it settled.
    answer.catch(() => undefined).finally(() => setTimeout(() => {
      if (this.started.get(key) === answer) this.started.delete(key);
    }, 30_000));
  }
}
