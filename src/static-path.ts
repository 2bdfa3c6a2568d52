/**
 * The canonical URL → static file mapping (DECISIONS §3): which file of the static tree holds the
 * exact answer of a canonical API request, so a plain static host, a cache or a client can skip
 * the handler.
 */
import { ApiError } from './errors.ts';
import { readChangesQuery } from './changes.ts';
import { readListQuery } from './lists.ts';
import { ParamReader } from './params.ts';
import { CHANGES_PAGE_SIZE, LOCALE_RE, PAGE_SIZE, categoriesPath, changesPagePath, categoryPath, hasListPages, listPagePath, skillPath } from './paths.ts';
import { parseRoute } from './route.ts';
import { skillArchivePath, skillFilePath } from './skill-files.ts';

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
  const route = parseRoute(parsed.pathname, basePath);
  if (route === null) return null;
  const params = parsed.searchParams;
  try {
    switch (route.kind) {
      case 'skill':
        return skillPath(route.owner, route.repo, route.resource);
      case 'skill-file':
        return skillFilePath(route.owner, route.repo, route.path);
      case 'skill-archive':
        return skillArchivePath(route.owner, route.repo);
      case 'skills':
      case 'category-skills': {
        const query = readListQuery(params, null, route.kind === 'category-skills' ? route.slug : undefined);
        const [filter, ...more] = query.filters;
        const list = filter ?? { kind: 'all' };
        if (query.limit !== PAGE_SIZE || more.length > 0 || !hasListPages(list, query.order)) return null;
        return listPagePath(list, query.sort, query.order, query.page);
      }
      case 'categories':
      case 'category': {
        const reader = new ParamReader(params);
        const locale = reader.raw('locale') ?? 'en';
        reader.done();
        if (!LOCALE_RE.test(locale)) return null;
        return route.kind === 'categories' ? categoriesPath(locale) : categoryPath(route.slug, locale);
      }
      case 'changes': {
        // A page file answers from the start or from the last entry of a full page, at the default limit.
        const { position, limit } = readChangesQuery(params);
        if (limit !== CHANGES_PAGE_SIZE || position % CHANGES_PAGE_SIZE !== 0) return null;
        return changesPagePath(position / CHANGES_PAGE_SIZE + 1);
      }
      case 'search':
      case 'autocomplete':
      case 'compat-search':
        return null;
    }
  } catch (error) {
    // An invalid parameter: the answer is an error, not a file.
    if (error instanceof ApiError) return null;
    throw error;
  }
}
