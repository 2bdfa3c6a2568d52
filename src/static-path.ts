/**
 * The canonical URL → static file mapping (docs/decisions.md §3): which file of the static tree holds the
 * exact answer of a canonical API request, so a plain static host, a cache or a client can skip
 * the handler.
 */
import { ApiError } from './errors.ts';
import { matchRoute } from './route.ts';

/**
 * The static file (path relative to the output folder, from src/paths.ts) whose JSON is the body
 * of the successful answer to `url`, or null when no single file is that answer: search and
 * autocomplete, a `limit` other than 20, two filters at once (`category` + `platform`, or a
 * `category` narrowing `/categories/:slug/skills` to another slug), a category or platform list
 * in order `asc` (no page files, src/paths.ts `hasListPages`), a repeated or malformed
 * parameter, or a path that is not an endpoint. Unknown parameters are ignored, like the API does.
 *
 * Mapping (defaults `page=1`, `sort=stars`, `order=desc`, `locale=en`):
 * - `/api/v1/skills/:owner/:repo[/content|/stats]` → `api/v1/skills/:owner/:repo/{index,content,stats}.json`
 * - `/api/v1/skills/:owner/:repo/files/<path>` and `…/archive.tar.gz` → the file at the same path
 *   (its bytes are the answer, not JSON; the path decoded)
 * - `/api/v1/skills?sort&order&page` → `api/v1/skills/_list/all/<sort>-<order>/<page>.json`
 * - `/api/v1/skills?sort&order=desc&page&category|platform` → `api/v1/skills/_list/<list>/<sort>-desc/<page>.json`
 * - `/api/v1/categories/:slug/skills?…` → the `category=:slug` list page
 * - `/api/v1/categories?locale=L` → `api/v1/categories/index[.L].json`
 * - `/api/v1/categories/:slug?locale=L` → `api/v1/categories/:slug/index[.L].json`
 * - `/api/v1/changes[?since=C]` at the default limit, when `C` is `0` or the cursor of entry
 *   100·k → `api/v1/changes/<k+1>.json` (whether `C` is really this log's is not checked)
 *
 * The mapping is syntactic (it reads no manifest), so the file may not exist: an unknown skill,
 * category or platform, a page past the last one (the API answers `data: []` there), or a locale
 * without translation (the API falls back to English; only the built locales have files).
 * `url` may be absolute or a path; `basePath` is the prefix the API is served under (default `/`).
 */
export function staticPathFor(url: string | URL, basePath = '/'): string | null {
  const parsed = new URL(url, 'http://localhost/');
  const route = matchRoute(parsed.pathname, basePath);
  // Each route says which file holds its answer (src/endpoints.ts `staticFile`); search has none.
  if (route?.endpoint.staticFile === undefined) return null;
  try {
    return route.endpoint.staticFile(route.path as never, parsed.searchParams);
  } catch (error) {
    // An invalid parameter: the answer is an error, not a file.
    if (error instanceof ApiError) return null;
    throw error;
  }
}
