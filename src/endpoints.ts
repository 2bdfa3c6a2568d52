/**
 * The endpoint table: every route the runtime handler answers, declared once. An entry holds the
 * route's path pattern, its parameters (src/param-spec.ts), its answer (in a file of its own,
 * loaded on first use), its response and errors; its description for people and agents is in
 * src/endpoint-docs.ts, by the same name (the runtime's bundles carry this table, not those words).
 * Derived from it:
 *
 * - the handler's routing (`matchRoute`, src/route.ts) and query validation (`readQuery`);
 * - the search limit of busy hosts (`heavy`, src/fair.ts) and `staticPathFor` (`staticFile`);
 * - the OpenAPI document (builder/openapi.ts) and the MCP tools (`mcp`, src/node/mcp.ts);
 * - the typed client's methods and their types (src/client.ts), one per entry unless `client: false`;
 * - the contract suite's route list (test/contract/suite.ts).
 *
 * A path pattern is taken after the base path: literal segments, `:name` for one segment and a
 * last `*name` for the rest of the path; each parameter is decoded once and must match its
 * pattern, so `..`, `%2e%2e`, `%00` or `%2f` can never name a file. Runtime core: no Node
 * built-ins, no zod (responses are named, their zod schemas live in src/schemas.ts).
 */
import { ApiError, type ErrorCode } from './errors.ts';
import type { HandlerOptions } from './handler.ts';
import type { Loader } from './loader.ts';
import type { Manifest } from './manifest.ts';
import { CHANGE_CURSOR_RE, START_CURSOR, cursorPosition } from './change-cursor.ts';
import { readQuery, type PathParam, type QuerySpec, type ValuesOf } from './param-spec.ts';
import { quote } from './params.ts';
import { filePathProblem, skillArchivePath, skillFilePath } from './skill-files.ts';
import {
  DEFAULT_LOCALE,
  DEFAULT_ORDER,
  DEFAULT_SORT,
  LOCALE_RE,
  MAX_LIMIT,
  MAX_PAGE,
  ORDERS,
  OWNER_RE,
  PAGE_SIZE,
  REPO_RE,
  SLUG_RE,
  SORTS,
  CHANGES_PAGE_SIZE,
  categoriesPath,
  categoryPath,
  changesPagePath,
  hasListPages,
  listPagePath,
  skillPath,
  type ListFilter,
} from './paths.ts';
import type * as S from './schemas.ts';
import type { SearchEngine } from './search/index.ts';

/**
 * Limits of the search routes. The search runtime (src/search/) keeps the same numbers for now
 * (`MAX_QUERY_LENGTH`, `AUTOCOMPLETE_DEFAULT`, `AUTOCOMPLETE_MAX`; test/endpoints.test.ts checks
 * they agree): importing them from there would load the search engine with the table, and the
 * typed client loads the table up front.
 */
export const MAX_QUERY_LENGTH = 200;
export const AUTOCOMPLETE_DEFAULT = 5;
export const AUTOCOMPLETE_MAX = 20;

/** The answer of an endpoint: a JSON body, or bytes of another media type; extra headers either way. */
export type Reply =
  | { json: unknown; headers?: Record<string, string> }
  | { body: Uint8Array<ArrayBuffer> | string | ReadableStream<Uint8Array<ArrayBuffer>>; type: string; headers?: Record<string, string> }
  /** A response the answer made whole (its headers, HEAD included). */
  | Response;

/** The names of a path pattern's parameters, in order (`/a/:x/b/*y` → `['x', 'y']`). */
export type PathNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? [Name, ...PathNames<`/${Rest}`>]
  : P extends `${string}:${infer Name}`
    ? [Name]
    : P extends `${string}*${infer Name}`
      ? [Name]
      : [];

/** The decoded path parameters of a pattern. */
export type PathValues<P extends string> = { [K in PathNames<P>[number]]: string };

/** What an answer is given: the request, its decoded path parameters, and the build. */
export interface AnswerContext<P extends string = string, Q extends QuerySpec = QuerySpec> {
  request: Request;
  url: URL;
  /** The handler's base path, `/` or `/repo/`. */
  basePath: string;
  path: PathValues<P>;
  /** The query, validated by the entry's `query` (throws INVALID_PARAMS); call it when the answer wants it. */
  query(): ValuesOf<Q>;
  load: Loader;
  manifest: Manifest;
  /** The search engine of this build (it keeps the index files it read). */
  search(): SearchEngine;
  /** The handler's options: what its host gives answers beyond the JSON loader. */
  options: HandlerOptions;
}

/** An answer function. */
export type Answer<P extends string = string, Q extends QuerySpec = QuerySpec> = (context: AnswerContext<P, Q>) => Promise<Reply>;

/** What a route answers on success: a response schema of src/schemas.ts by name, or bytes of a media type. */
export type ResponseSpec = keyof typeof S | { media: string; description: string };

/** One entry of the table. */
export interface Endpoint<P extends string = string, Q extends QuerySpec = QuerySpec, R extends ResponseSpec = ResponseSpec> {
  /** Path after the base path, e.g. `/api/v1/skills/:owner/:repo`. */
  readonly path: P;
  /** The pattern of each `:name` / `*name` of `path`. */
  readonly pathParams: string extends P ? Readonly<Record<string, PathParam>> : { readonly [K in PathNames<P>[number]]: PathParam };
  /** Query parameters (what the answer reads through `query()`, or its own reader says). */
  readonly query: Q;
  /** The answer, imported on first use (so a client that only calls a server never loads it). */
  readonly answer: () => Promise<Answer<NoInfer<P>, NoInfer<Q>>>;
  readonly response: R;
  /** Error codes the route answers with, besides SERVER_ERROR. */
  readonly errors: readonly ErrorCode[];
  /** Costly to answer (a search): a busy host runs few at once (src/fair.ts). */
  readonly heavy?: boolean;
  /** Not a method of the typed client (a compatibility route, or one only some hosts answer). */
  readonly client?: false;
  /** The methods the route answers when they are not GET and HEAD (OpenAPI describes those). */
  readonly methods?: readonly 'POST'[];
  /**
   * Answered by a host that can run it, not by the runtime handler: the Node server answers `/mcp`
   * with the MCP SDK's transport (src/node/mcp-http.ts). On every other host it is no route of the
   * handler (`isHandlerPath` is false: a static host's own 404, 405 to POST).
   */
  readonly hosted?: true;
  /** The MCP tool of this route (src/node/mcp.ts); its title and description are in src/endpoint-docs.ts. */
  readonly mcp?: {
    readonly tool: string;
    /** Query parameters the tool leaves out. */
    readonly omit?: readonly string[];
  };
  /**
   * The static file whose JSON is the whole success answer, when there is one (`staticPathFor`,
   * src/static-path.ts); may throw INVALID_PARAMS for a bad query (then there is none).
   */
  readonly staticFile?: (path: PathValues<P>, params: URLSearchParams) => string | null;
}

/** An entry, its types inferred from its path and query. */
function endpoint<const P extends string, const Q extends QuerySpec, const R extends ResponseSpec>(entry: Endpoint<P, Q, R>): Endpoint<P, Q, R> {
  return entry;
}

// Parameters shared by several routes.
const owner = { kind: 'text', pattern: OWNER_RE, description: 'owner segment of the skill id', required: true } as const satisfies PathParam;
const repo = { kind: 'text', pattern: REPO_RE, description: 'repo segment of the skill id', required: true } as const satisfies PathParam;
const slug = { kind: 'text', pattern: SLUG_RE, description: 'category slug (top-level or subcategory)', required: true } as const satisfies PathParam;
const page = { kind: 'int', min: 1, max: MAX_PAGE, default: 1, description: '1-based page number (default 1); a page past the end answers `data: []`' } as const;
const category = { kind: 'member', of: 'categories', what: 'category', description: 'only skills of this category or one of its subcategories' } as const;
const platform = { kind: 'member', of: 'platforms', what: 'platform', description: 'only skills supporting this platform id' } as const;
const qDescription = 'search query: terms, "a phrase", name:term, description:term, content:term, -term, prefix*';

/** Query of the skill lists (`/skills`, `/categories/:slug/skills`). */
export const LIST_QUERY = {
  page,
  limit: { kind: 'int', min: 1, max: MAX_LIMIT, default: PAGE_SIZE, description: `items per page (default 20, at most ${MAX_LIMIT})` },
  sort: { kind: 'enum', values: SORTS, default: DEFAULT_SORT, description: 'sort key (default stars); ties break by id' },
  order: { kind: 'enum', values: ORDERS, default: DEFAULT_ORDER, description: 'sort order (default desc)' },
  category,
  platform,
} as const satisfies QuerySpec;

/** Query of the search; read by `readSearchQuery` (src/search/index.ts), which follows it. */
export const SEARCH_QUERY = {
  q: {
    kind: 'text',
    maxLength: MAX_QUERY_LENGTH,
    required: true,
    description: qDescription,
    openapi: { minLength: 1, description: `${qDescription}; empty, one character or only stop words: INVALID_QUERY` },
  },
  page,
  limit: { kind: 'int', min: 1, max: MAX_LIMIT, default: PAGE_SIZE, description: `results per page (default 20, at most ${MAX_LIMIT})` },
  category,
  platform,
  minStars: { kind: 'int', min: 0, max: 999_999_999_999_999, description: 'only skills with at least this many stars' },
  hasIndex: { kind: 'boolean', description: 'only skills that have (true) or lack (false) a .claude-plugin/marketplace.json' },
  hasMarketplace: { kind: 'boolean', description: 'alias of hasIndex' },
} as const satisfies QuerySpec;

/** Query of autocomplete; read by `readAutocompleteQuery` (src/search/index.ts), which follows it. */
export const AUTOCOMPLETE_QUERY = {
  // Tools and the client ask for `q`; the API answers no suggestions without it.
  q: { kind: 'text', maxLength: MAX_QUERY_LENGTH, required: true, description: 'partial query; the last word is completed (empty: no suggestions)', openapi: { required: false } },
  limit: { kind: 'int', min: 1, max: AUTOCOMPLETE_MAX, default: AUTOCOMPLETE_DEFAULT, description: `most suggestions (default 5, at most ${AUTOCOMPLETE_MAX})` },
} as const satisfies QuerySpec;

/** Query of the category routes. */
export const LOCALE_QUERY = {
  locale: {
    kind: 'text',
    pattern: LOCALE_RE,
    mustBe: 'a language code such as en, de or zh-TW',
    default: DEFAULT_LOCALE,
    description: 'language code (default en); a well-formed code without translation falls back to its language, then en',
  },
} as const satisfies QuerySpec;

/** Query of the `skills` CLI's search route. */
export const COMPAT_SEARCH_QUERY = {
  q: { kind: 'text', maxLength: MAX_QUERY_LENGTH, required: true, description: qDescription, openapi: { minLength: 1 } },
  limit: SEARCH_QUERY.limit,
  owner: { kind: 'text', description: 'only skills of this owner (case-insensitive)' },
} as const satisfies QuerySpec;

/** Query of the change log; read by `readChangesQuery` (src/changes.ts). */
export const CHANGES_QUERY = {
  since: {
    kind: 'text',
    pattern: CHANGE_CURSOR_RE,
    mustBe: "a cursor of the change log (an entry's cursor or meta.cursor, 0 for the start)",
    description: "a cursor of this log (an entry's `cursor` or a `meta.cursor`; `0` is the start): only entries after it. Default: from the start",
  },
  limit: { kind: 'int', min: 1, max: CHANGES_PAGE_SIZE, default: CHANGES_PAGE_SIZE, description: `entries per page (default and at most ${CHANGES_PAGE_SIZE})` },
} as const satisfies QuerySpec;

const skills = () => import('./answers/skills.ts');
const categories = () => import('./answers/categories.ts');

/** Every route, in the order of the OpenAPI document; the key is the operation (and client method). */
export const ENDPOINTS = {
  listSkills: endpoint({
    path: '/api/v1/skills',
    pathParams: {},
    query: LIST_QUERY,
    answer: async () => (await skills()).listSkills,
    response: 'SkillListResponse',
    errors: ['INVALID_PARAMS'],
    mcp: { tool: 'list_skills' },
    staticFile: (_path, params) => staticListFile(params),
  }),
  searchSkills: endpoint({
    path: '/api/v1/skills/search',
    pathParams: {},
    query: SEARCH_QUERY,
    answer: async () => (await skills()).searchSkills,
    response: 'SearchResponse',
    errors: ['INVALID_PARAMS', 'INVALID_QUERY', 'QUERY_TOO_LONG', 'INVALID_SYNTAX'],
    heavy: true,
    mcp: { tool: 'search_skills' },
  }),
  autocomplete: endpoint({
    path: '/api/v1/skills/autocomplete',
    pathParams: {},
    query: AUTOCOMPLETE_QUERY,
    answer: async () => (await skills()).autocomplete,
    response: 'AutocompleteResponse',
    errors: ['INVALID_PARAMS', 'INVALID_QUERY', 'QUERY_TOO_LONG', 'INVALID_SYNTAX'],
    heavy: true,
    mcp: { tool: 'autocomplete' },
  }),
  getSkill: endpoint({
    path: '/api/v1/skills/:owner/:repo',
    pathParams: { owner, repo },
    query: {},
    answer: async () => (await skills()).skillDetail,
    response: 'SkillDetailResponse',
    errors: ['NOT_FOUND'],
    mcp: { tool: 'get_skill' },
    staticFile: (path) => skillFile(path, 'detail'),
  }),
  getSkillFile: endpoint({
    path: '/api/v1/skills/:owner/:repo/files/*path',
    pathParams: {
      owner,
      repo,
      path: {
        kind: 'text',
        // Each segment decoded once: a decoded `/` would join two segments into one file name.
        pattern: /^[^/]+$/,
        rest: true,
        valid: (path) => filePathProblem(path) === undefined,
        required: true,
        description: "the file path as the detail's `files` lists it; `/` separates folders, each segment percent-encoded",
      },
    },
    query: {},
    answer: async () => (await import('./files.ts')).skillFile,
    response: { media: '*/*', description: 'the bytes of the file' },
    errors: ['NOT_FOUND'],
    staticFile: (path) => skillFilePath(path.owner, path.repo, path.path),
  }),
  getSkillArchive: endpoint({
    path: '/api/v1/skills/:owner/:repo/archive.tar.gz',
    pathParams: { owner, repo },
    query: {},
    answer: async () => (await import('./files.ts')).skillArchive,
    response: { media: 'application/gzip', description: 'the bytes of the file' },
    errors: ['NOT_FOUND'],
    staticFile: (path) => skillArchivePath(path.owner, path.repo),
  }),
  getSkillContent: endpoint({
    path: '/api/v1/skills/:owner/:repo/content',
    pathParams: { owner, repo },
    query: {},
    answer: async () => (await skills()).skillContent,
    response: 'SkillContentResponse',
    errors: ['NOT_FOUND'],
    mcp: { tool: 'get_skill_content' },
    staticFile: (path) => skillFile(path, 'content'),
  }),
  getSkillStats: endpoint({
    path: '/api/v1/skills/:owner/:repo/stats',
    pathParams: { owner, repo },
    query: {},
    answer: async () => (await skills()).skillStats,
    response: 'SkillStatsResponse',
    errors: ['NOT_FOUND'],
    mcp: { tool: 'get_skill_stats' },
    staticFile: (path) => skillFile(path, 'stats'),
  }),
  listCategories: endpoint({
    path: '/api/v1/categories',
    pathParams: {},
    query: LOCALE_QUERY,
    answer: async () => (await categories()).listCategories,
    response: 'CategoryListResponse',
    errors: ['INVALID_PARAMS'],
    mcp: { tool: 'list_categories' },
    staticFile: (_path, params) => staticCategoryFile(undefined, params),
  }),
  getCategory: endpoint({
    path: '/api/v1/categories/:slug',
    pathParams: { slug },
    query: LOCALE_QUERY,
    answer: async () => (await categories()).getCategory,
    response: 'CategoryDetailResponse',
    errors: ['INVALID_PARAMS', 'NOT_FOUND'],
    mcp: { tool: 'get_category' },
    staticFile: (path, params) => staticCategoryFile(path.slug, params),
  }),
  listCategorySkills: endpoint({
    path: '/api/v1/categories/:slug/skills',
    pathParams: { slug },
    query: LIST_QUERY,
    answer: async () => (await categories()).listCategorySkills,
    response: 'SkillListResponse',
    errors: ['INVALID_PARAMS', 'NOT_FOUND'],
    mcp: { tool: 'list_category_skills', omit: ['category'] },
    staticFile: (path, params) => staticListFile(params, path.slug),
  }),
  listChanges: endpoint({
    path: '/api/v1/changes',
    pathParams: {},
    query: CHANGES_QUERY,
    answer: async () => (await import('./changes.ts')).listChanges,
    response: 'ChangesResponse',
    errors: ['INVALID_PARAMS'],
    mcp: { tool: 'list_changes' },
    staticFile: (_path, params) => staticChangesFile(params),
  }),
  compatSearch: endpoint({
    path: '/api/search',
    pathParams: {},
    query: COMPAT_SEARCH_QUERY,
    answer: async () => (await import('./compat.ts')).compatSearch,
    response: 'CompatSearchResponse',
    errors: ['INVALID_PARAMS', 'INVALID_QUERY', 'QUERY_TOO_LONG', 'INVALID_SYNTAX'],
    heavy: true,
    client: false,
  }),
  mcp: endpoint({
    path: '/mcp',
    pathParams: {},
    query: {},
    methods: ['POST'],
    hosted: true,
    answer: async () => notHosted,
    response: { media: 'application/json', description: 'the JSON-RPC answer: a response, or an array of them for a batch' },
    errors: ['RATE_LIMITED'],
    client: false,
  }),
};

/** The answer of a hosted route where the host cannot run it: no endpoint there. */
async function notHosted(context: AnswerContext): Promise<never> {
  throw new ApiError('NOT_FOUND', `No endpoint at ${quote(context.url.pathname)}`);
}

/** The name of an endpoint (its OpenAPI operation and client method). */
export type EndpointName = keyof typeof ENDPOINTS;

/** Any entry of the table. */
export type AnyEndpoint = Endpoint<string, QuerySpec>;

/** The table's entries as a list of `[name, entry]`, in order. */
export function endpointList(): ReadonlyArray<readonly [EndpointName, AnyEndpoint]> {
  return Object.entries(ENDPOINTS) as unknown as ReadonlyArray<readonly [EndpointName, AnyEndpoint]>;
}

function skillFile(path: { owner: string; repo: string }, resource: 'detail' | 'content' | 'stats'): string {
  return skillPath(path.owner, path.repo, resource);
}

/** A list page file: default limit, one filter at most, and an order that has pages (src/paths.ts `hasListPages`). */
function staticListFile(params: URLSearchParams, scope?: string): string | null {
  const query = readQuery(LIST_QUERY, params, null);
  const [filter, ...more] = listFilters(scope, query.category, query.platform);
  const list = filter ?? { kind: 'all' as const };
  if (query.limit !== PAGE_SIZE || more.length > 0 || !hasListPages(list, query.order)) return null;
  return listPagePath(list, query.sort, query.order, query.page);
}

/**
 * The filters of a list request, intersected: the `:slug` of `/categories/:slug/skills`, the
 * `category` and the `platform` (none: every skill).
 */
export function listFilters(scope: string | undefined, category: string | undefined, platform: string | undefined): ListFilter[] {
  const filters: ListFilter[] = [];
  for (const slug of new Set([scope, category])) if (slug !== undefined) filters.push({ kind: 'category', slug });
  if (platform !== undefined) filters.push({ kind: 'platform', id: platform });
  return filters;
}

/**
 * A page file of the change log: at the default limit, from the start or from the last entry of
 * a full page (whether the cursor is really this log's is not checked).
 */
function staticChangesFile(params: URLSearchParams): string | null {
  const { since = START_CURSOR, limit } = readQuery(CHANGES_QUERY, params, null);
  const position = cursorPosition(since);
  if (limit !== CHANGES_PAGE_SIZE || position % CHANGES_PAGE_SIZE !== 0) return null;
  return changesPagePath(position / CHANGES_PAGE_SIZE + 1);
}

/** The category file of the locale as given (only built locales have files). */
function staticCategoryFile(slug: string | undefined, params: URLSearchParams): string {
  const { locale } = readQuery(LOCALE_QUERY, params, null);
  return slug === undefined ? categoriesPath(locale) : categoryPath(slug, locale);
}
