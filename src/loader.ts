/**
 * Loaders: how the runtime reads a file of the static tree. A loader takes a path relative to
 * the output folder (from src/paths.ts) and resolves the parsed JSON, or `undefined` when the file
 * does not exist; any other failure (network, HTTP 5xx, invalid JSON) rejects.
 */

import { keepLoad, type InFlight } from './in-flight.ts';
import { Lru } from './lru.ts';
import { SEARCH_DIR } from './search/format.ts';
import { OWNER_RE, REPO_RE } from './paths.ts';
import { parseBytesPath } from './skill-files.ts';

/** Reads one JSON file of the static tree; `undefined` when it does not exist. */
export type Loader = (path: string) => Promise<unknown>;

/**
 * Reads the bytes of one skill file or archive of the static tree (`api/v1/skills/<o>/<r>/files/…`,
 * `…/archive.tar.gz`: src/skill-files.ts); `undefined` when it does not exist.
 */
export type BytesLoader = (path: string) => Promise<Uint8Array | undefined>;

/** Throws unless `path` names a skill file or archive (`parseBytesPath`). */
export function assertSafeBytesPath(path: string): void {
  if (parseBytesPath(path, OWNER_RE, REPO_RE) === undefined) throw new Error(`Refusing to load unsafe path ${JSON.stringify(path.slice(0, 200))}`);
}

/**
 * Bytes loader over HTTP, like `fetchLoader`: each segment of the path is percent-encoded, 404
 * resolves `undefined`, another non-2xx status rejects.
 */
export function fetchBytesLoader(baseUrl: string | URL, fetchImpl: typeof fetch = globalThis.fetch): BytesLoader {
  const base = new URL(baseUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return async (path) => {
    assertSafeBytesPath(path);
    const response = await fetchFile(fetchImpl, new URL(path.split('/').map(encodeURIComponent).join('/'), base));
    return response === undefined ? undefined : new Uint8Array(await response.arrayBuffer());
  };
}

/** GET `url`: the response when it is 2xx, undefined for a 404 (body discarded), else a rejection. */
async function fetchFile(fetchImpl: typeof fetch, url: URL, init?: RequestInit): Promise<Response | undefined> {
  const response = await fetchImpl(url, init);
  if (response.ok) return response;
  await response.body?.cancel();
  if (response.status === 404) return undefined;
  throw new Error(`GET ${url.href} answered ${response.status}`);
}

/**
 * Paths a loader accepts: relative, `.json`, made of safe characters, no `.`/`..` segments. The
 * handler never builds anything else; this is defence in depth for loaders used directly.
 */
const SAFE_PATH = /^(?!.*(?:^|\/)\.{1,2}(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*\.json$/;

/** Throws unless `path` is a safe relative path of the static tree. */
export function assertSafePath(path: string): void {
  if (!SAFE_PATH.test(path)) throw new Error(`Refusing to load unsafe path ${JSON.stringify(path.slice(0, 200))}`);
}

/**
 * Loader over HTTP: `path` is resolved against `baseUrl` (the URL of the output folder, e.g.
 * `https://example.github.io/skills/`; a missing trailing slash is added). 404 resolves
 * `undefined`; another non-2xx status or a body that is not JSON rejects.
 */
export function fetchLoader(baseUrl: string | URL, fetchImpl: typeof fetch = globalThis.fetch): Loader {
  const base = new URL(baseUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return async (path) => {
    assertSafePath(path);
    const response = await fetchFile(fetchImpl, new URL(path, base), { headers: { accept: 'application/json' } });
    return response === undefined ? undefined : await response.json();
  };
}

/** Bytes loader over an in-memory tree (path → bytes), the `mapLoader` of skill files and archives. */
export function mapBytesLoader(files: ReadonlyMap<string, unknown>): BytesLoader {
  return async (path) => {
    assertSafeBytesPath(path);
    const value = files.get(path);
    return value instanceof Uint8Array ? value : undefined;
  };
}

/** Loader over an in-memory tree (path → parsed JSON), e.g. a build emitted into a `Map` or a bundle. */
export function mapLoader(files: ReadonlyMap<string, unknown>): Loader {
  return async (path) => {
    assertSafePath(path);
    return files.get(path);
  };
}

export interface CacheOptions {
  /** Most files kept; the least recently used is dropped first. */
  maxEntries: number;
  /** Share a load under way with concurrent callers (default), or keep only settled answers (workerd): src/in-flight.ts. */
  inFlight?: InFlight;
  /**
   * Paths passed through without being kept. Default: the search index files, which the search
   * engine keeps itself (src/search/index-reader.ts), so one copy of each is held, not two.
   */
  passThrough?: (path: string) => boolean;
}

/** Whether `path` is a file of the search index (kept by the search engine's own cache). */
export function isSearchIndexFile(path: string): boolean {
  return path.startsWith(`${SEARCH_DIR}/`);
}

/**
 * Loader that remembers the last `maxEntries` answers (LRU, `undefined` answers included) and
 * (unless `inFlight` is `settled`) shares one in-flight load between concurrent callers of the
 * same path, so the manifest and hot pages are read once. A failed load is not remembered: the
 * next call retries. Search index files pass through (`passThrough`): the search engine keeps them.
 */
export function cachedLoader(loader: Loader, { maxEntries, inFlight = 'shared', passThrough = isSearchIndexFile }: CacheOptions): Loader {
  if (!(Number.isInteger(maxEntries) && maxEntries >= 1)) throw new RangeError('cachedLoader: maxEntries must be an integer ≥ 1');
  const entries = new Lru<Promise<unknown>>(maxEntries);
  return (path) => {
    if (passThrough(path)) return loader(path);
    const hit = entries.get(path);
    if (hit !== undefined) return hit;
    return keepLoad(
      loader(path),
      inFlight,
      (value) => entries.set(path, value),
      (failed) => {
        if (entries.get(path) === failed) entries.delete(path);
      },
    );
  };
}
