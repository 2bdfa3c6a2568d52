// The root entry of the package (`skills-directory-api`): what docs/api.md "The package" documents
// for package users, for every host. No Node built-ins (see src/node/ for those); the rest of the
// runtime is internal.
export { createHandler, type Handler, type HandlerOptions } from './handler.ts';
export { withHostPolicy, type HostPolicyOptions } from './host-policy.ts';
export type { CachingOptions } from './http-cache.ts';
export { createBrowserHandler, isApiRequest } from './browser-api.ts';
export { cachedLoader, fetchLoader, mapLoader, type CacheOptions, type Loader } from './loader.ts';
export { staticPathFor } from './static-path.ts';
export { ENDPOINTS, type EndpointName } from './endpoints.ts';
export { matchRoute, type RouteMatch } from './route.ts';
export { ApiError, isApiError, type ErrorBody, type ErrorCode } from './errors.ts';
export type { Manifest } from './manifest.ts';
export { createClient, type ClientOptions, type SkillsClient } from './client.ts';
export { BundleError, bundleLoader, readBundle, type Bundle, type BundleSource } from './bundle.ts';
export type {
  Category,
  CategoryDetail,
  ChangeEntry,
  ChangesResponse,
  Pagination,
  SearchResult,
  SkillContent,
  SkillDetail,
  SkillStats,
  SkillSummary,
  Suggestion,
} from './schemas.ts';
