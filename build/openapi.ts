/**
 * The OpenAPI 3.1 document of the canonical API, generated from the zod schemas of the responses
 * (src/schemas.ts) and of the parameters (src/query-schemas.ts) with zod 4's `z.toJSONSchema`.
 * The build writes it to `api/v1/openapi.json`; test/openapi.test.ts validates real answers of
 * every endpoint, errors included, against it.
 */
import { z } from 'zod';
import { STATUS_OF, type ErrorCode } from '../src/errors.ts';
import { API_PREFIX, FORMAT_VERSION } from '../src/paths.ts';
import {
  AutocompleteParams,
  CategoryPathParams,
  ChangesParams,
  ListParams,
  LocaleParams,
  SearchParams,
  SkillPathParams,
} from '../src/query-schemas.ts';
import * as S from '../src/schemas.ts';

/** Where the build writes the document (a name with a `.`, so no skill or slug can collide). */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/** Named schemas of `components.schemas`, referenced as `#/components/schemas/<name>`. */
const COMPONENTS = {
  SkillSummary: S.SkillSummary,
  SkillSource: S.SkillSource,
  SkillDetail: S.SkillDetail,
  SkillContent: S.SkillContent,
  SkillStats: S.SkillStats,
  SubcategoryRef: S.SubcategoryRef,
  Category: S.Category,
  TopSkill: S.TopSkill,
  CategoryDetail: S.CategoryDetail,
  Pagination: S.Pagination,
  SearchResult: S.SearchResult,
  SearchMeta: S.SearchMeta,
  Suggestion: S.Suggestion,
  SkillListResponse: S.SkillListResponse,
  SkillDetailResponse: S.SkillDetailResponse,
  SkillContentResponse: S.SkillContentResponse,
  SkillStatsResponse: S.SkillStatsResponse,
  SearchResponse: S.SearchResponse,
  AutocompleteResponse: S.AutocompleteResponse,
  CategoryListResponse: S.CategoryListResponse,
  CategoryDetailResponse: S.CategoryDetailResponse,
  ChangeEntry: S.ChangeEntry,
  ChangesPagination: S.ChangesPagination,
  ChangesResponse: S.ChangesResponse,
  CompatSearchResponse: z.object({
    skills: z.array(z.object({ id: z.string(), name: z.string(), source: z.string().describe('owner/repo to give `npx skills add`'), installs: z.int().min(0) })),
  }),
  Manifest: z.looseObject({
    format: z.literal(FORMAT_VERSION),
    pageSize: z.int(),
    skillCount: z.int().min(0),
    locales: z.array(z.string()),
    categories: z.array(z.string()),
    platforms: z.array(z.string()),
    lists: z.record(z.string(), z.int().min(0)),
    idShards: z.int().min(1).optional(),
    search: z.looseObject({ root: z.string() }).optional(),
    changes: z.int().min(0).optional(),
    contentHash: z.string().optional(),
    builtAt: z.string().optional(),
    generator: z.object({ name: z.string(), version: z.string() }).optional().describe('the package and version that built the tree'),
  }),
  QualityReport: z.object({
    format: z.literal('skills-api-quality'),
    version: z.literal(1),
    skills: z.int().min(0),
    profiles: z.record(z.string(), z.object({ pass: z.int().min(0), fail: z.int().min(0) })),
    rules: z.record(z.string(), z.int().min(0)),
    flags: z.record(z.string(), z.int().min(0)),
    severities: z.record(z.string(), z.int().min(0)),
    duplicateGroups: z.array(z.object({ original: z.string(), copies: z.array(z.string()) })),
    similarSkills: z.int().min(0),
    similarPairs: z.int().min(0),
  }),
  OpenApiDocument: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
} satisfies Record<string, z.ZodType>;
type ComponentName = keyof typeof COMPONENTS;

/** Defaults the handler applies, shown in the parameters' schemas. */
const DEFAULTS: Record<string, unknown> = { page: 1, limit: 20, sort: 'stars', order: 'desc', locale: 'en' };

/** One endpoint of the document. */
interface Endpoint {
  /** Path after `/api/v1`, or from the root when `root` is set. */
  path: string;
  /** The path is not under `/api/v1` (the compatibility routes). */
  root?: boolean;
  operationId: string;
  summary: string;
  description: string;
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  /** Overrides of `DEFAULTS` for this endpoint's query. */
  defaults?: Record<string, unknown>;
  response: ComponentName;
  /** The 200 is raw bytes of this media type (any type for a file: its own), not JSON `response`. */
  bytes?: string;
  errors: ErrorCode[];
}

/** `:owner/:repo` plus a skill file's path, which may hold `/` (each segment percent-encoded). */
const SkillFilePathParams = SkillPathParams.extend({
  path: z.string().describe('the file path as the detail\'s `files` lists it; `/` separates folders, each segment percent-encoded'),
});

const ENDPOINTS: Endpoint[] = [
  {
    path: '/skills',
    operationId: 'listSkills',
    summary: 'List skills',
    description: 'Every skill, paged, sorted and filtered by category (subcategories included) and platform.',
    query: ListParams,
    response: 'SkillListResponse',
    errors: ['INVALID_PARAMS'],
  },
  {
    path: '/skills/search',
    operationId: 'searchSkills',
    summary: 'Search skills',
    description:
      'Full-text search with the query syntax `term`, `"a phrase"`, `name:term` (also `description:`, `content:`), `-term`, `prefix*`; ' +
      'every positive clause must match. Results are ordered by `score` (exact full terms, field weight, stars, recency), ties by id. ' +
      'Highlights wrap matched words in `<mark>`…`</mark>`; everything else in them is HTML-escaped. ' +
      '`hasMarketplace` is accepted as an alias of `hasIndex`.',
    query: SearchParams.extend({
      // Empty, one character or only stop words: INVALID_QUERY (a 400, documented below).
      q: SearchParams.shape.q.min(1).describe(`${SearchParams.shape.q.description ?? ''}; empty, one character or only stop words: INVALID_QUERY`),
      hasMarketplace: SearchParams.shape.hasIndex.describe('alias of hasIndex'),
    }),
    response: 'SearchResponse',
    errors: ['INVALID_PARAMS', 'INVALID_QUERY', 'QUERY_TOO_LONG', 'INVALID_SYNTAX'],
  },
  {
    path: '/skills/autocomplete',
    operationId: 'autocomplete',
    summary: 'Autocomplete a query',
    description: 'Completions of the last word of `q`, each with the number of skills matching the completed query; by count, then text.',
    query: AutocompleteParams.extend({ q: AutocompleteParams.shape.q.optional() }),
    defaults: { limit: 5 },
    response: 'AutocompleteResponse',
    errors: ['INVALID_PARAMS', 'INVALID_QUERY', 'QUERY_TOO_LONG', 'INVALID_SYNTAX'],
  },
  {
    path: '/skills/{owner}/{repo}',
    operationId: 'getSkill',
    summary: 'Get a skill',
    description: 'The skill detail: the summary fields with the full description, the Markdown body and repository metadata.',
    pathParams: SkillPathParams,
    response: 'SkillDetailResponse',
    errors: ['NOT_FOUND'],
  },
  {
    path: '/skills/{owner}/{repo}/files/{path}',
    operationId: 'getSkillFile',
    summary: 'Get one file of a skill',
    description:
      'The raw bytes of one file of the skill\'s folder (`path` as the detail\'s `files` lists it), with its media type, an ETag from its SHA-256, ' +
      'and `Content-Security-Policy: sandbox`. A static file at the same path. `..`, encoded separators, NUL and double encoding are NOT_FOUND.',
    pathParams: SkillFilePathParams,
    response: 'SkillDetailResponse',
    bytes: '*/*',
    errors: ['NOT_FOUND'],
  },
  {
    path: '/skills/{owner}/{repo}/archive.tar.gz',
    operationId: 'getSkillArchive',
    summary: 'Get the skill folder as a .tar.gz',
    description: 'Every file of the skill\'s folder as a deterministic ustar `.tar.gz` (sorted entries, time 0, owner 0, modes 0644/0755); size and SHA-256 in the detail\'s `archive`.',
    pathParams: SkillPathParams,
    response: 'SkillDetailResponse',
    bytes: 'application/gzip',
    errors: ['NOT_FOUND'],
  },
  {
    path: '/skills/{owner}/{repo}/content',
    operationId: 'getSkillContent',
    summary: 'Get the raw SKILL.md',
    description: 'The raw SKILL.md text, front matter included, with its SHA-256 hex and byte size.',
    pathParams: SkillPathParams,
    response: 'SkillContentResponse',
    errors: ['NOT_FOUND'],
  },
  {
    path: '/skills/{owner}/{repo}/stats',
    operationId: 'getSkillStats',
    summary: 'Get usage statistics',
    description: 'Views, installs, favorites and the star history (dates ascending).',
    pathParams: SkillPathParams,
    response: 'SkillStatsResponse',
    errors: ['NOT_FOUND'],
  },
  {
    path: '/categories',
    operationId: 'listCategories',
    summary: 'List categories',
    description: 'Every top-level category with its subcategories and skill counts, in the requested language.',
    query: LocaleParams,
    response: 'CategoryListResponse',
    errors: ['INVALID_PARAMS'],
  },
  {
    path: '/categories/{slug}',
    operationId: 'getCategory',
    summary: 'Get a category',
    description: 'One category or subcategory with its 5 most-starred skills (`topSkills`, ties by id).',
    pathParams: CategoryPathParams,
    query: LocaleParams,
    response: 'CategoryDetailResponse',
    errors: ['INVALID_PARAMS', 'NOT_FOUND'],
  },
  {
    path: '/categories/{slug}/skills',
    operationId: 'listCategorySkills',
    summary: 'List the skills of a category',
    description: 'Like `GET /skills?category={slug}`; a `category` parameter narrows further (intersection).',
    pathParams: CategoryPathParams,
    query: ListParams,
    response: 'SkillListResponse',
    errors: ['INVALID_PARAMS', 'NOT_FOUND'],
  },
  {
    path: '/changes',
    operationId: 'listChanges',
    summary: 'The change log',
    description:
      'Every skill added, updated (its files or descriptive metadata changed) or removed, oldest first, as the builds saw them; ' +
      'entries only ever append. `meta.cursor` is the `since` of the next request: from it the answer holds only newer entries ' +
      '(none: `data: []`, the same cursor). A removed skill keeps its entries; its detail is 404. ' +
      'A cursor this log does not hold (another directory, a log started over) is INVALID_PARAMS naming `since`: start again without it.',
    query: ChangesParams,
    defaults: { limit: 100 },
    response: 'ChangesResponse',
    errors: ['INVALID_PARAMS'],
  },
  {
    path: '/manifest.json',
    operationId: 'getManifest',
    summary: 'The build manifest',
    description: 'A static file of the build: layout format version, totals, slugs, the search index entry, the content fingerprint.',
    response: 'Manifest',
    errors: [],
  },
  {
    path: '/quality.json',
    operationId: 'getQualityReport',
    summary: 'The quality report',
    description: 'A static file of the build: skills passing each loading profile, skills breaking each rule, flags by kind and severity, groups of exact copies, near copies.',
    response: 'QualityReport',
    errors: [],
  },
  {
    path: '/openapi.json',
    operationId: 'getOpenApi',
    summary: 'This document',
    description: 'A static file of the build: the OpenAPI description of the API.',
    response: 'OpenApiDocument',
    errors: [],
  },
  {
    path: '/api/search',
    root: true,
    operationId: 'compatSearch',
    summary: 'Search, in the shape of the open skills CLI',
    description:
      'A compatibility route for the `skills` CLI (`SKILLS_API_URL`): the search of `/api/v1/skills/search` (same syntax and errors) ' +
      'answered as `{ skills: [{ id, name, source, installs }] }`; `owner` keeps one owner\'s skills among the best 100 matches.',
    query: z.object({
      q: SearchParams.shape.q.min(1),
      limit: SearchParams.shape.limit,
      owner: z.string().optional().describe('only skills of this owner (case-insensitive)'),
    }),
    response: 'CompatSearchResponse',
    errors: ['INVALID_PARAMS', 'INVALID_QUERY', 'QUERY_TOO_LONG', 'INVALID_SYNTAX'],
  },
];


/**
 * The OpenAPI 3.1 document. Paths are absolute (`/api/v1/...`); the server URL `../..` is relative
 * to the document's own location (`<base>/api/v1/openapi.json`), so the document stays right on
 * any host and under any base path. Deterministic: depends only on the schemas.
 *
 * It describes what the hosts send, not only the happy path: every GET also answers HEAD (same
 * headers, no body), 304 to a matching `If-None-Match`, 405 to other methods, 414/431 to
 * oversized requests, 429 with `Retry-After` and `X-RateLimit-*` when the host limits. No
 * `jsonSchemaDialect`: 3.1's default dialect is meant, and Prism 5 validates nothing when the
 * field is present. `security: []`: the API needs no credentials.
 */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const endpoint of ENDPOINTS) {
    const get = operation(endpoint);
    const pathParameters = parametersOf(endpoint.pathParams, 'path', {});
    paths[endpoint.root === true ? endpoint.path : `/${API_PREFIX}${endpoint.path}`] = {
      // Shared by every operation of the path.
      ...(pathParameters.length > 0 ? { parameters: pathParameters } : {}),
      get,
      head: { ...headOf(get), operationId: `${endpoint.operationId}_head`, summary: `${endpoint.summary} (headers only)` },
      // Any other method (POST, PUT, PATCH, DELETE, …) answers this path 405 with `Allow: GET, HEAD`
      // (components.responses.MethodNotAllowed); an OPTIONS that is no CORS preflight does too.
      options: {
        operationId: `${endpoint.operationId}_options`,
        summary: 'CORS preflight',
        description: 'Browsers ask before a cross-origin request with headers of their own (`If-None-Match`): any origin may GET and HEAD.',
        tags: [tagOf(endpoint)],
        responses: {
          '204': { description: 'A CORS preflight (`Access-Control-Request-Method` set): any origin may GET', headers: PREFLIGHT_HEADERS },
          '405': ref('MethodNotAllowed', 'responses'),
        },
      },
    };
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Skills Directory Read API',
      version: '1',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'A read-only directory of skills (documents describing a reusable capability, kept in a repository and identified by owner and repo), ' +
        'answered from a static JSON tree. Every success body has its payload under `data`; paged lists add `pagination`, search adds `meta`. ' +
        'Every error body is `{ "error": { "code", "message", "details"? } }`. Skill ids are case-insensitive: another case of an id answers ' +
        'the skill with `Content-Location` naming its canonical URL. No credentials are needed. Only GET and HEAD are answered: ' +
        'any other method is 405 METHOD_NOT_ALLOWED with `Allow: GET, HEAD` (`components.responses.MethodNotAllowed`).',
    },
    servers: [{ url: '../..', description: 'the host serving this document' }],
    security: [],
    tags: TAGS,
    paths,
    components: {
      schemas: { ...componentSchemas(), ErrorResponse: errorResponseSchema() },
      headers: HEADERS,
      responses: SHARED_RESPONSES,
    },
  };
}

/** Headers the hosts send, by name in `components.headers`. */
const HEADERS: Record<string, unknown> = {
  ETag: { description: 'strong entity tag of the body; send it back in `If-None-Match` for a 304', schema: { type: 'string' } },
  AccessControlAllowOrigin: { description: 'CORS: every origin', schema: { type: 'string', const: '*' } },
  ContentLocation: { description: 'the canonical URL, when the skill was asked for with its id in another case', schema: { type: 'string' } },
  RetryAfter: { description: 'seconds until the rate limit window resets', schema: { type: 'integer', minimum: 0 } },
  RateLimitLimit: { description: 'requests allowed per window (only when the host sets a rate limit)', schema: { type: 'integer', minimum: 1 } },
  RateLimitRemaining: { description: 'requests left in this window (only when the host sets a rate limit)', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'seconds until this window ends (only when the host sets a rate limit)', schema: { type: 'integer', minimum: 0 } },
  Allow: { description: 'the methods the API answers', schema: { type: 'string', const: 'GET, HEAD' } },
};

/** Headers of a successful answer. */
const SUCCESS_HEADERS = {
  ETag: ref('ETag', 'headers'),
  'Access-Control-Allow-Origin': ref('AccessControlAllowOrigin', 'headers'),
  'X-RateLimit-Limit': ref('RateLimitLimit', 'headers'),
  'X-RateLimit-Remaining': ref('RateLimitRemaining', 'headers'),
  'X-RateLimit-Reset': ref('RateLimitReset', 'headers'),
};

const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Origin': ref('AccessControlAllowOrigin', 'headers'),
  'Access-Control-Allow-Methods': { description: 'GET, HEAD', schema: { type: 'string' } },
  'Access-Control-Allow-Headers': { description: 'any request header', schema: { type: 'string' } },
  'Access-Control-Max-Age': { description: 'seconds the preflight may be cached', schema: { type: 'string' } },
};

/** The error body with its code limited to `codes`. */
function errorContent(codes: readonly ErrorCode[]): Record<string, unknown> {
  return json({ allOf: [ref('ErrorResponse'), { properties: { error: { properties: { code: { enum: codes } } } } }] });
}

/** Responses every operation shares, by name in `components.responses`. */
const SHARED_RESPONSES: Record<string, unknown> = {
  NotModified: { description: 'Not modified: the `If-None-Match` tag matches; no body', headers: { ETag: ref('ETag', 'headers') } },
  MethodNotAllowed: {
    description: 'Error METHOD_NOT_ALLOWED: only GET and HEAD are answered',
    headers: { Allow: ref('Allow', 'headers'), 'Access-Control-Allow-Origin': ref('AccessControlAllowOrigin', 'headers') },
    content: errorContent(['METHOD_NOT_ALLOWED']),
  },
  UriTooLong: { description: 'Error INVALID_PARAMS: the URL is longer than 8 KiB (Node server)', content: errorContent(['INVALID_PARAMS']) },
  HeadersTooLarge: { description: 'Error INVALID_PARAMS: the request headers are larger than 16 KiB (Node server)', content: errorContent(['INVALID_PARAMS']) },
  RateLimited: {
    description: 'Error RATE_LIMITED (only when the host sets a rate limit)',
    headers: {
      'Retry-After': ref('RetryAfter', 'headers'),
      'X-RateLimit-Limit': ref('RateLimitLimit', 'headers'),
      'X-RateLimit-Remaining': ref('RateLimitRemaining', 'headers'),
      'X-RateLimit-Reset': ref('RateLimitReset', 'headers'),
    },
    content: errorContent(['RATE_LIMITED']),
  },
};

function operation(endpoint: Endpoint): Record<string, unknown> {
  // Path parameters are declared once on the path item.
  const parameters = parametersOf(endpoint.query, 'query', { ...DEFAULTS, ...endpoint.defaults });
  const skill = endpoint.pathParams === SkillPathParams || endpoint.pathParams === SkillFilePathParams;
  const responses: Record<string, unknown> = {
    '200': {
      description: 'Success',
      headers: skill ? { ...SUCCESS_HEADERS, 'Content-Location': ref('ContentLocation', 'headers') } : SUCCESS_HEADERS,
      content: endpoint.bytes === undefined ? json(ref(endpoint.response)) : { [endpoint.bytes]: { schema: { description: 'the bytes of the file' } } },
    },
    '304': ref('NotModified', 'responses'),
  };
  // One response per status, listing the codes it can carry (the three search codes share 400).
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...endpoint.errors, 'SERVER_ERROR' as const]) {
    const status = STATUS_OF[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = { description: `Error ${codes.join(', ')}`, content: errorContent(codes) };
  }
  responses['414'] = ref('UriTooLong', 'responses');
  responses['429'] = ref('RateLimited', 'responses');
  responses['431'] = ref('HeadersTooLarge', 'responses');
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    tags: [tagOf(endpoint)],
    ...(parameters.length > 0 ? { parameters } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  };
}

/** Operations are grouped by what they read. */
const TAGS = [
  { name: 'skills', description: 'Skills: lists, one skill, its SKILL.md and statistics, search and autocomplete' },
  { name: 'categories', description: 'The category tree and the skills of a category' },
  { name: 'changes', description: 'The change log that mirrors follow' },
  { name: 'files', description: 'Static files of the build that clients read directly' },
  { name: 'compatibility', description: 'Routes in the shape of clients people already run (not versioned)' },
];

function tagOf(endpoint: Endpoint): string {
  if (endpoint.root === true) return 'compatibility';
  if (endpoint.path.endsWith('.json')) return 'files';
  if (endpoint.path === '/changes') return 'changes';
  return endpoint.path.startsWith('/categories') ? 'categories' : 'skills';
}

/** The HEAD operation of a GET: the same parameters and statuses, headers only. */
function headOf(get: Record<string, unknown>): Record<string, unknown> {
  const responses = Object.fromEntries(
    Object.entries(get.responses as Record<string, Record<string, unknown>>).map(([status, response]) => {
      if ('$ref' in response) return [status, response];
      const { content: _content, ...rest } = response;
      return [status, rest];
    }),
  );
  return { ...get, responses };
}

/** One parameter object per property of `schema`; its description moves up to the parameter. */
function parametersOf(schema: z.ZodObject | undefined, where: 'path' | 'query', defaults: Record<string, unknown>): unknown[] {
  if (schema === undefined) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const { description, ...rest } = jsonSchemaOf(field as z.ZodType, 'input');
    const required = where === 'path' || !(field as z.ZodType).safeParse(undefined).success;
    const withDefault = name in defaults && !required ? { ...rest, default: defaults[name] } : rest;
    return { name, in: where, required, ...(description === undefined ? {} : { description }), schema: withDefault };
  });
}

/** Every component, with `$ref`s between them (zod's registry output). */
function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` });
  const out: Record<string, unknown> = {};
  for (const id of Object.keys(COMPONENTS)) out[id] = stripRoot(schemas[id] as Record<string, unknown>);
  return out;
}

/** The error body with the known codes as an enum (src/schemas.ts keeps `code` a plain string). */
function errorResponseSchema(): Record<string, unknown> {
  const codes = Object.keys(STATUS_OF) as [ErrorCode, ...ErrorCode[]];
  return jsonSchemaOf(
    z.object({
      error: z.object({
        code: z.enum(codes).describe('machine-readable error code'),
        message: z.string().describe('human-readable explanation naming the parameter or resource'),
        details: z
          .looseObject({
            params: z
              .array(z.object({ param: z.string().describe('the parameter'), message: z.string().describe('what is wrong with it') }))
              .optional()
              .describe('INVALID_PARAMS: one entry per invalid parameter'),
          })
          .optional()
          .describe('extra data; INVALID_PARAMS gives `{ params: [{ param, message }] }`'),
      }),
    }),
    'output',
  );
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return stripRoot(z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Record<string, unknown>);
}

/** Drop `$schema`/`$id`: a component is not a root document (the dialect is set once). */
function stripRoot(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

function ref(name: string, kind: 'schemas' | 'responses' | 'headers' = 'schemas'): { $ref: string } {
  return { $ref: `#/components/${kind}/${name}` };
}

function json(schema: unknown): Record<string, unknown> {
  return { 'application/json': { schema } };
}
