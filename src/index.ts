// Runtime core: the public API of the package for every host. No Node built-ins (see src/node/ for those).
export { createHandler, readLocale, type Handler, type HandlerOptions } from './handler.ts';
export { cachedLoader, fetchLoader, mapLoader, type CacheOptions, type Loader } from './loader.ts';
export { staticPathFor } from './static-path.ts';
export { createSearchEngine, readAutocompleteQuery, readSearchQuery, type AutocompleteQuery, type SearchAnswer, type SearchEngine, type SearchQuery } from './search/index.ts';
export { answerList, readListQuery, type ListQuery } from './lists.ts';
export { parseRoute, type Route } from './route.ts';
export { ApiError, isApiError, STATUS_OF, type ErrorBody, type ErrorCode } from './errors.ts';
export { checkManifest, type Manifest, type SearchManifest } from './manifest.ts';
export { ParamReader, type ParamProblem } from './params.ts';
export {
  API_PREFIX,
  DEFAULT_LOCALE,
  DEFAULT_ORDER,
  DEFAULT_SORT,
  FORMAT_VERSION,
  MANIFEST_PATH,
  MAX_LIMIT,
  ORDERS,
  PAGE_SIZE,
  SORTS,
  CHANGES_PAGE_SIZE,
  categoriesPath,
  categoryPath,
  changesPagePath,
  listKey,
  listOrdinalsPath,
  listPagePath,
  hasListPages,
  ordinalLocation,
  skillPath,
  type ListFilter,
  type Order,
  type Sort,
} from './paths.ts';
export type {
  Category,
  CategoryDetail,
  ChangeEntry,
  ChangesResponse,
  Pagination,
  SearchMeta,
  SearchResponse,
  SearchResult,
  SkillContent,
  SkillDetail,
  SkillListResponse,
  SkillStats,
  SkillSummary,
  Suggestion,
  SubcategoryRef,
  TopSkill,
} from './schemas.ts';
export { createClient, type ClientOptions, type SkillsClient } from './client.ts';
export { CHANGE_CURSOR_RE, START_CURSOR } from './changes.ts';
export { BUNDLE_VERSION, BundleError, bundleLoader, readBundle, type Bundle, type BundleSource } from './bundle.ts';
export { IMMUTABLE_CACHE_CONTROL, withCaching, type CachingOptions } from './http-cache.ts';
export { createBrowserHandler, isApiRequest } from './browser-api.ts';
