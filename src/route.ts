/**
 * Routing of canonical API paths (`/api/v1/...`), shared by the handler and `staticPathFor`.
 * Every path segment is decoded once and validated against the identifier rules of src/paths.ts
 * before it is returned, so `..`, `%2e%2e`, `%00`, `%2f` or double-encoded segments can never
 * name a file: such a path has no route.
 */
import { API_PREFIX, OWNER_RE, REPO_RE, SLUG_RE } from './paths.ts';
import { ARCHIVE_NAME, FILES_DIR, filePathProblem } from './skill-files.ts';

/** One endpoint of the API with its path parameters. */
export type Route =
  | { kind: 'skills' }
  | { kind: 'search' }
  | { kind: 'autocomplete' }
  | { kind: 'skill'; owner: string; repo: string; resource: 'detail' | 'content' | 'stats' }
  /** One file of a skill's folder, `path` decoded (src/files.ts). */
  | { kind: 'skill-file'; owner: string; repo: string; path: string }
  /** The `.tar.gz` of a skill's folder (src/files.ts). */
  | { kind: 'skill-archive'; owner: string; repo: string }
  | { kind: 'categories' }
  | { kind: 'category'; slug: string }
  | { kind: 'category-skills'; slug: string }
  /** The change log (src/changes.ts). */
  | { kind: 'changes' }
  /** `<base>api/search`: the open `skills` CLI's search (src/compat.ts), beside `/api/v1`. */
  | { kind: 'compat-search' };

/** Longest request target (path and query, in UTF-8 bytes) a host answers; longer is 414 (BAD_INPUTS 30). */
export const MAX_URL_BYTES = 8 * 1024;

/** Path of the compatibility search route, after the base path. */
export const COMPAT_SEARCH_PATH = 'api/search';

/** `basePath` as a prefix that starts and ends with `/` (`repo` → `/repo/`, `` → `/`). */
export function normalizeBasePath(basePath = '/'): string {
  const trimmed = basePath.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '/' : `/${trimmed}/`;
}

/**
 * The segments after `<basePath>api/v1` of a URL pathname (still percent-encoded), or null when
 * the pathname is not under it. One trailing slash is ignored.
 */
export function apiSegments(pathname: string, basePath = '/'): string[] | null {
  const prefix = `${normalizeBasePath(basePath)}${API_PREFIX}`;
  if (!pathname.startsWith(prefix)) return null;
  let rest = pathname.slice(prefix.length);
  if (rest !== '' && !rest.startsWith('/')) return null;
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  return rest === '' ? [] : rest.slice(1).split('/');
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

/**
 * Whether a URL pathname belongs to the runtime handler rather than to the static files: anything
 * under `<base>api/v1`, and the compatibility routes beside it. Every host routes with this.
 */
export function isHandlerPath(pathname: string, basePath = '/'): boolean {
  const base = normalizeBasePath(basePath);
  const prefix = `${base}${API_PREFIX}`;
  return pathname === prefix || pathname.startsWith(`${prefix}/`) || isCompatSearch(pathname, base);
}

function isCompatSearch(pathname: string, base: string): boolean {
  return pathname === `${base}${COMPAT_SEARCH_PATH}` || pathname === `${base}${COMPAT_SEARCH_PATH}/`;
}

/**
 * The route of `…/skills/:owner/:repo/files/<path>` or `…/archive.tar.gz`. Each segment of the
 * file path is decoded once and must be a valid file name (src/skill-files.ts): `..`, `%2e%2e`,
 * `%2f`, `%00`, a backslash or double encoding (`%252e`, as `%` is no file name's) has no route.
 */
function fileRoute(rawOwner: string, rawRepo: string, kind: string, rest: readonly string[]): Route | null {
  const owner = segment(rawOwner, OWNER_RE);
  const repo = segment(rawRepo, REPO_RE);
  if (owner === null || repo === null) return null;
  if (kind === ARCHIVE_NAME) return rest.length === 0 ? { kind: 'skill-archive', owner, repo } : null;
  if (rest.length === 0) return null;
  const parts: string[] = [];
  for (const raw of rest) {
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return null;
    }
    parts.push(value);
  }
  const path = parts.join('/');
  // A decoded `/` would join two segments into one file name: such a path has no route.
  if (parts.some((part) => part.includes('/')) || filePathProblem(path) !== undefined) return null;
  return { kind: 'skill-file', owner, repo, path };
}

/** The route of a URL pathname, or null for any path that is not an endpoint of the API. */
export function parseRoute(pathname: string, basePath = '/'): Route | null {
  if (isCompatSearch(pathname, normalizeBasePath(basePath))) return { kind: 'compat-search' };
  const segments = apiSegments(pathname, basePath);
  if (segments === null) return null;
  const [head, a, b, c, ...more] = segments;
  if (head === 'skills' && a !== undefined && b !== undefined && (c === FILES_DIR || c === ARCHIVE_NAME)) return fileRoute(a, b, c, more);
  if (more.length > 0) return null;
  if (head === 'skills') {
    if (a === undefined) return { kind: 'skills' };
    if (b === undefined) return a === 'search' ? { kind: 'search' } : a === 'autocomplete' ? { kind: 'autocomplete' } : null;
    const owner = segment(a, OWNER_RE);
    const repo = segment(b, REPO_RE);
    if (owner === null || repo === null) return null;
    if (c === undefined) return { kind: 'skill', owner, repo, resource: 'detail' };
    if (c === 'content' || c === 'stats') return { kind: 'skill', owner, repo, resource: c };
    return null;
  }
  if (head === 'changes' && a === undefined) return { kind: 'changes' };
  if (head === 'categories' && c === undefined) {
    if (a === undefined) return { kind: 'categories' };
    const slug = segment(a, SLUG_RE);
    if (slug === null) return null;
    if (b === undefined) return { kind: 'category', slug };
    return b === 'skills' ? { kind: 'category-skills', slug } : null;
  }
  return null;
}
