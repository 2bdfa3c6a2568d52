/**
 * The OpenAPI 3.1 document of the canonical API, generated from the zod schemas of the responses
 * (src/schemas.ts) and of the parameters (src/query-schemas.ts) with zod 4's `z.toJSONSchema`.
 * The build writes it to `api/v1/openapi.json`; test/openapi.test.ts validates real answers of
 * every endpoint, errors included, against it.
 */
import { z } from 'zod';
import { STATUS_OF, type ErrorCode } from '../src/errors.ts';
import { API_PREFIX } from '../src/paths.ts';
import {
  AutocompleteParams,
  CategoryPathParams,
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
} satisfies Record<string, z.ZodType>;
type ComponentName = keyof typeof COMPONENTS;

/** Defaults the handler applies, shown in the parameters' schemas. */
const DEFAULTS: Record<string, unknown> = { page: 1, limit: 20, sort: 'stars', order: 'desc', locale: 'en' };

/** One endpoint of the document. */
interface Endpoint {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  /** Overrides of `DEFAULTS` for this endpoint's query. */
  defaults?: Record<string, unknown>;
  response: ComponentName;
  errors: ErrorCode[];
}

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
    query: SearchParams.extend({ hasMarketplace: SearchParams.shape.hasIndex.describe('alias of hasIndex') }),
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
];

/** Errors every endpoint can answer: a rate limit (when the host sets one) and an internal error. */
const COMMON_ERRORS: ErrorCode[] = ['RATE_LIMITED', 'SERVER_ERROR'];

/**
 * The OpenAPI 3.1 document. Paths are absolute (`/api/v1/...`); the server URL `../..` is relative
 * to the document's own location (`<base>/api/v1/openapi.json`), so the document stays right on
 * any host and under any base path. Deterministic: depends only on the schemas.
 */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const endpoint of ENDPOINTS) {
    paths[`/${API_PREFIX}${endpoint.path}`] = { get: operation(endpoint) };
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Skills Directory Read API',
      version: '1',
      description:
        'A read-only directory of skills (documents describing a reusable capability, kept in a repository and identified by owner and repo), ' +
        'answered from a static JSON tree. Every success body has its payload under `data`; paged lists add `pagination`, search adds `meta`. ' +
        'Every error body is `{ "error": { "code", "message", "details"? } }`.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '../..', description: 'the host serving this document' }],
    paths,
    components: { schemas: { ...componentSchemas(), ErrorResponse: errorResponseSchema() } },
  };
}

function operation(endpoint: Endpoint): Record<string, unknown> {
  const parameters = [
    ...parametersOf(endpoint.pathParams, 'path', {}),
    ...parametersOf(endpoint.query, 'query', { ...DEFAULTS, ...endpoint.defaults }),
  ];
  const responses: Record<string, unknown> = {
    '200': { description: 'Success', content: json(ref(endpoint.response)) },
  };
  // One response per status, listing the codes it can carry (the three search codes share 400).
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...endpoint.errors, ...COMMON_ERRORS]) {
    const status = STATUS_OF[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `Error ${codes.join(', ')}${status === 429 ? ' (only when the host sets a rate limit; see Retry-After)' : ''}`,
      content: json({
        allOf: [ref('ErrorResponse'), { properties: { error: { properties: { code: { enum: codes } } } } }],
      }),
    };
  }
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
  };
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
          .unknown()
          .optional()
          .describe('extra data; INVALID_PARAMS gives `{ params: [{ param, message }] }`, one entry per invalid parameter'),
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

function ref(name: ComponentName | 'ErrorResponse'): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

function json(schema: unknown): Record<string, unknown> {
  return { 'application/json': { schema } };
}
