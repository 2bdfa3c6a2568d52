/**
 * The runtime handler: `(Request) => Promise<Response>` answering every endpoint of the API from
 * the static tree through a `Loader`. It reads nothing the build did not write, imports no Node
 * built-in, and runs unchanged in Node, a Service Worker, an edge Worker or over a bundle.
 */
import { answerChanges, readChangesQuery } from './changes.ts';
import { answerCompatSearch } from './compat.ts';
import { ApiError, isApiError } from './errors.ts';
import { keepLoad, type InFlight } from './in-flight.ts';
import { answerList, readListQuery } from './lists.ts';
import { answerFile } from './files.ts';
import type { BytesLoader, Loader } from './loader.ts';
import { checkManifest, type Manifest } from './manifest.ts';
import { ParamReader, quote } from './params.ts';
import { API_PREFIX, DEFAULT_LOCALE, LOCALE_RE, MANIFEST_PATH, categoriesPath, categoryPath, idKey, idShardPath, skillPath } from './paths.ts';
import { normalizeBasePath, parseRoute, type Route } from './route.ts';
import { skillArchivePath, skillFileUrlPath } from './skill-files.ts';
import { createSearchEngine, readAutocompleteQuery, readSearchQuery, type SearchEngine } from './search/index.ts';

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
}

/** Methods the API answers; any other is 405 with this list in `Allow`. */
const ALLOW = 'GET, HEAD';

const HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'access-control-allow-origin': '*',
  'x-content-type-options': 'nosniff',
} as const;

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
    if (engine === undefined) engines.set(m, (engine = createSearchEngine(loader, m, inFlight)));
    return engine;
  };

  return async (request) => {
    const head = request.method === 'HEAD';
    if (request.method !== 'GET' && !head) {
      const error = new ApiError('METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed; use GET or HEAD`);
      return respond(error.status, error.toBody(), head, { allow: ALLOW });
    }
    try {
      const url = new URL(request.url);
      const route = parseRoute(url.pathname, basePath);
      if (route === null) throw new ApiError('NOT_FOUND', `No endpoint at ${quote(url.pathname)}`);
      const m = await loadManifest();
      const params = url.searchParams;
      if (route.kind === 'skill-file' || route.kind === 'skill-archive') {
        // The detail lists each file with its SHA-256; found in any case of the id, like a skill.
        const found = await findSkill(loader, m, { kind: 'skill', owner: route.owner, repo: route.repo, resource: 'detail' });
        const [owner, repo] = (found.canonical ?? `${route.owner}/${route.repo}`).split('/') as [string, string];
        const moved: Record<string, string> = found.canonical === undefined ? {} : { 'content-location': `${basePath}${fileUrlTail(owner, repo, route)}` };
        return await answerFile(options.bytes, found.body, owner, repo, route, head, moved);
      }
      if (route.kind === 'skill') {
        const found = await findSkill(loader, m, route);
        // Another case of the id: the canonical skill, and where it lives.
        const moved: Record<string, string> = found.canonical === undefined ? {} : { 'content-location': canonicalUrl(url, basePath, found.canonical, route.resource) };
        return respond(200, found.body, head, moved);
      }
      const body =
        route.kind === 'search'
          ? await engineFor(m).search(readSearchQuery(params, m))
          : route.kind === 'autocomplete'
            ? await engineFor(m).autocomplete(readAutocompleteQuery(params))
            : route.kind === 'compat-search'
              ? await answerCompatSearch(loader, engineFor(m), params)
              : await answer(loader, m, route, params);
      return respond(200, body, head);
    } catch (error) {
      const apiError = isApiError(error) ? error : new ApiError('SERVER_ERROR', 'Internal server error', { cause: error });
      if (apiError.status >= 500) options.onError?.(error, request);
      return respond(apiError.status, apiError.toBody(), head);
    }
  };
}

function respond(status: number, body: unknown, head: boolean, extra: Record<string, string> = {}): Response {
  return new Response(head ? null : JSON.stringify(body), { status, headers: { ...HEADERS, ...extra } });
}

type SkillRoute = Extract<Route, { kind: 'skill' }>;

/**
 * A skill's file by its URL's owner and repo: the exact path first, then, when the build wrote
 * the id index, the id in any case (owners and repositories are case-insensitive on GitHub):
 * `canonical` then names the id as the content writes it.
 */
async function findSkill(load: Loader, manifest: Manifest, route: SkillRoute): Promise<{ body: unknown; canonical?: string }> {
  const path = skillPath(route.owner, route.repo, route.resource);
  const body = await load(path);
  if (body !== undefined) return { body: envelope(body, path) };
  if (manifest.idShards !== undefined) {
    const key = idKey(route.owner, route.repo);
    const shard = await load(idShardPath(key, manifest.idShards));
    const id = typeof shard === 'object' && shard !== null && Object.hasOwn(shard, key) ? (shard as Record<string, unknown>)[key] : undefined;
    const [owner, repo] = typeof id === 'string' ? id.split('/') : [];
    if (owner !== undefined && repo !== undefined && id !== `${route.owner}/${route.repo}`) {
      const canonical = skillPath(owner, repo, route.resource);
      return { body: envelope(await load(canonical), canonical), canonical: id as string };
    }
  }
  throw new ApiError('NOT_FOUND', `No skill ${route.owner}/${route.repo}`);
}

/** The canonical URL path of a skill resource, for `Content-Location`. */
function canonicalUrl(url: URL, basePath: string, id: string, resource: SkillRoute['resource']): string {
  const [owner, repo] = id.split('/') as [string, string];
  const tail = resource === 'detail' ? '' : `/${resource}`;
  return `${basePath}${API_PREFIX}/skills/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}${tail}${url.search}`;
}

/** The URL path after the base of a file route of skill `owner/repo`, for `Content-Location`. */
function fileUrlTail(owner: string, repo: string, route: Extract<Route, { kind: 'skill-file' | 'skill-archive' }>): string {
  return route.kind === 'skill-archive' ? skillArchivePath(owner, repo) : skillFileUrlPath(owner, repo, route.path);
}

/** The success body of one route other than search and a skill's. */
async function answer(load: Loader, manifest: Manifest, route: Exclude<Route, { kind: 'search' | 'autocomplete' | 'skill' | 'skill-file' | 'skill-archive' | 'compat-search' }>, params: URLSearchParams): Promise<unknown> {
  switch (route.kind) {
    case 'skills':
      return answerList(load, manifest, readListQuery(params, manifest));
    case 'category-skills':
      knownCategory(manifest, route.slug);
      return answerList(load, manifest, readListQuery(params, manifest, route.slug));
    case 'categories': {
      const path = categoriesPath(readLocale(params, manifest));
      return envelope(await load(path), path);
    }
    case 'category': {
      knownCategory(manifest, route.slug);
      const path = categoryPath(route.slug, readLocale(params, manifest));
      return envelope(await load(path), path);
    }
    case 'changes':
      return answerChanges(load, manifest, readChangesQuery(params));
  }
}

function knownCategory(manifest: Manifest, slug: string): void {
  if (!manifest.categories.includes(slug)) throw new ApiError('NOT_FOUND', `No category ${quote(slug)}`);
}

/** A resource file must hold `{ data }`; a missing or malformed one fails this request only. */
function envelope(body: unknown, path: string): unknown {
  if (typeof body !== 'object' || body === null || !('data' in body)) {
    throw new ApiError('SERVER_ERROR', `The file ${path} is missing or malformed: rebuild the output`);
  }
  return body;
}

/**
 * The locale to answer in: `locale` must be well-formed (else INVALID_PARAMS); it is matched
 * case-insensitively against the built locales, dropping subtags from the end (`de-AT` → `de`),
 * and falls back to `en` when nothing matches (DECISIONS §4).
 */
export function readLocale(params: URLSearchParams, manifest: Pick<Manifest, 'locales'>): string {
  const reader = new ParamReader(params);
  const raw = reader.raw('locale');
  if (raw !== undefined && !LOCALE_RE.test(raw)) reader.fail('locale', `locale must be a language code such as en, de or zh-TW, got ${quote(raw)}`);
  reader.done();
  if (raw === undefined) return DEFAULT_LOCALE;
  for (let tag = raw.toLowerCase(); ; tag = tag.slice(0, tag.lastIndexOf('-'))) {
    const found = manifest.locales.find((locale) => locale.toLowerCase() === tag);
    if (found !== undefined) return found;
    if (!tag.includes('-')) return DEFAULT_LOCALE;
  }
}
