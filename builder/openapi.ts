/**
 * The OpenAPI 3.1 document of the canonical API, generated from the endpoint table
 * (src/endpoints.ts: paths, parameters, descriptions, errors) and the zod schemas of the responses
 * (src/schemas.ts) with zod 4's `z.toJSONSchema`.
 * The build writes it to `api/v1/openapi.json`; test/openapi.test.ts validates real answers of
 * every endpoint, errors included, against it.
 */
import { z } from 'zod';
import { STATUS_OF, type ErrorCode } from '../src/errors.ts';
import { API_PREFIX, FORMAT_VERSION } from '../src/paths.ts';
import { ENDPOINT_DOCS } from '../src/endpoint-docs.ts';
import { endpointList, type EndpointName, type ResponseSpec } from '../src/endpoints.ts';
import { zodQuery } from '../src/param-zod.ts';
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
  CompatSearchResponse: S.CompatSearchResponse,
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

/** One path of the document. */
interface Endpoint {
  /** Absolute path, `{name}` for a parameter. */
  path: string;
  /** The path is not under `/api/v1` (the compatibility routes). */
  root: boolean;
  operationId: string;
  summary: string;
  description: string;
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  response: ResponseSpec;
  errors: readonly ErrorCode[];
  /** Answered to POST instead of GET and HEAD (`/mcp`). */
  post?: boolean;
}

/** Static files of the build that clients read directly: no route of the handler, documented here. */
const FILES: Endpoint[] = [
  {
    path: `/${API_PREFIX}/manifest.json`,
    root: false,
    operationId: 'getManifest',
    summary: 'The build manifest',
    description: 'A static file of the build: layout format version, totals, slugs, the search index entry, the content fingerprint.',
    response: 'Manifest' as ResponseSpec,
    errors: [],
  },
  {
    path: `/${API_PREFIX}/quality.json`,
    root: false,
    operationId: 'getQualityReport',
    summary: 'The quality report',
    description: 'A static file of the build: skills passing each loading profile, skills breaking each rule, flags by kind and severity, groups of exact copies, near copies.',
    response: 'QualityReport' as ResponseSpec,
    errors: [],
  },
  {
    path: `/${API_PREFIX}/openapi.json`,
    root: false,
    operationId: 'getOpenApi',
    summary: 'This document',
    description: 'A static file of the build: the OpenAPI description of the API.',
    response: 'OpenApiDocument' as ResponseSpec,
    errors: [],
  },
];

/** The endpoint table's routes (src/endpoints.ts), then the files, then the routes outside `/api/v1`. */
function endpoints(): Endpoint[] {
  const routes = endpointList().map(([operationId, e]): Endpoint => {
    const hasPath = Object.keys(e.pathParams).length > 0;
    const hasQuery = Object.keys(e.query).length > 0;
    const { summary, description } = ENDPOINT_DOCS[operationId as EndpointName];
    return {
      path: e.path.replace(/[:*]([A-Za-z]+)/g, '{$1}'),
      root: !e.path.startsWith(`/${API_PREFIX}/`),
      operationId,
      summary,
      description,
      ...(hasPath ? { pathParams: zodQuery(e.pathParams, 'openapi') } : {}),
      ...(hasQuery ? { query: zodQuery(e.query, 'openapi') } : {}),
      response: e.response,
      errors: e.errors,
      ...(e.methods?.includes('POST') ? { post: true } : {}),
    };
  });
  return [...routes.filter((r) => !r.root), ...FILES, ...routes.filter((r) => r.root)];
}

/** The schema of a success body: a named component, or bytes of a media type. */
function successContent(response: ResponseSpec): Record<string, unknown> {
  if (typeof response === 'string') return json(ref(response));
  return { [response.media]: { schema: { description: response.description } } };
}

/** Defaults of each query parameter, from the table. */
function defaultsOf(name: string): Record<string, unknown> {
  const entry = endpointList().find(([operationId]) => operationId === name)?.[1];
  if (entry === undefined) return {};
  return Object.fromEntries(Object.entries(entry.query).flatMap(([param, spec]) => (spec.default === undefined ? [] : [[param, spec.default]])));
}

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
  for (const endpoint of endpoints()) {
    if (endpoint.post === true) {
      paths[endpoint.path] = postPath(endpoint);
      continue;
    }
    const get = operation(endpoint);
    const pathParameters = parametersOf(endpoint.pathParams, 'path', {});
    paths[endpoint.path] = {
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
  const parameters = parametersOf(endpoint.query, 'query', defaultsOf(endpoint.operationId));
  // A skill answers another case of its id with `Content-Location`.
  const skill = endpoint.path.startsWith(`/${API_PREFIX}/skills/{owner}/{repo}`);
  const responses: Record<string, unknown> = {
    '200': {
      description: 'Success',
      headers: skill ? { ...SUCCESS_HEADERS, 'Content-Location': ref('ContentLocation', 'headers') } : SUCCESS_HEADERS,
      content: successContent(endpoint.response),
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

/**
 * The path item of a route answered to POST (`/mcp`, MCP's Streamable HTTP transport): JSON-RPC
 * in, JSON-RPC out, its own CORS preflight; GET and DELETE are 405 (a server without sessions).
 */
function postPath(endpoint: Endpoint): Record<string, unknown> {
  const jsonRpc = { description: 'a JSON-RPC 2.0 message, or an array of them (a batch)', oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }] };
  const rpcError = (description: string): Record<string, unknown> => ({ description, content: json({ type: 'object', description: 'a JSON-RPC error without an id' }) });
  return {
    post: {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      description: endpoint.description,
      tags: [tagOf(endpoint)],
      requestBody: { required: true, content: json(jsonRpc) },
      responses: {
        '200': { description: 'The JSON-RPC answer', content: successContent(endpoint.response) },
        '202': { description: 'Accepted: the request held only notifications or responses; no body' },
        '403': rpcError('A Host or Origin naming another machine, to a server listening on loopback only'),
        '405': rpcError('Another method than POST: this MCP server keeps no sessions'),
        '429': ref('RateLimited', 'responses'),
        '501': { description: 'Error SERVER_ERROR: the MCP SDK, an optional peer dependency, is not installed', content: errorContent(['SERVER_ERROR']) },
      },
    },
    options: {
      operationId: `${endpoint.operationId}_options`,
      summary: 'CORS preflight',
      description: 'Browsers ask before a cross-origin POST: any origin may POST JSON-RPC with any request header.',
      tags: [tagOf(endpoint)],
      responses: { '204': { description: 'A CORS preflight (`Access-Control-Request-Method` set): any origin may POST' }, '405': rpcError('An OPTIONS that is no CORS preflight') },
    },
  };
}

/** Operations are grouped by what they read. */
const TAGS = [
  { name: 'skills', description: 'Skills: lists, one skill, its SKILL.md and statistics, search and autocomplete' },
  { name: 'categories', description: 'The category tree and the skills of a category' },
  { name: 'changes', description: 'The change log that mirrors follow' },
  { name: 'files', description: 'Static files of the build that clients read directly' },
  { name: 'compatibility', description: 'Routes in the shape of clients people already run (not versioned)' },
  { name: 'mcp', description: 'The directory to AI agents over the Model Context Protocol (Node server)' },
];

function tagOf(endpoint: Endpoint): string {
  if (endpoint.post === true) return 'mcp';
  if (endpoint.root) return 'compatibility';
  if (endpoint.path.endsWith('.json')) return 'files';
  // The first segment under /api/v1 names the resource an operation reads.
  const resource = endpoint.path.split('/')[3];
  return resource === 'categories' || resource === 'changes' ? resource : 'skills';
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
              .describe('INVALID_PARAMS: one entry per invalid parameter; the errors of search `q` name it the same way'),
          })
          .optional()
          .describe('extra data; INVALID_PARAMS, INVALID_QUERY, QUERY_TOO_LONG and INVALID_SYNTAX give `{ params: [{ param, message }] }`'),
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
