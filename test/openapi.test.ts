/**
 * The OpenAPI 3.1 document (builder/openapi.ts): its shape, that the build writes and serves it,
 * and that real answers of every endpoint, errors included, validate against it (ajv, JSON Schema
 * 2020-12): from the runtime handler over a real build, from the Node server (429) and from a
 * failing tree (500). The numeric parameter schemas are checked to accept exactly what the
 * handler accepts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH, openApiDocument } from '../builder/openapi.ts';
import { readBundle } from '../src/bundle.ts';
import type { SkillsClient } from '../src/client.ts';
import { createHandler, type Handler } from '../src/handler.ts';
import type { Loader } from '../src/loader.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { fsBytesLoader, fsLoader } from '../src/node/fs-loader.ts';
import { startServer } from '../src/node/server.ts';
import { buildToolsFixture, type ToolsFixture } from './helpers/tools-fixture.ts';

type Parameter = { name: string; in: string; required: boolean; schema: object };
type Operation = { operationId: string; parameters?: Parameter[]; responses: Record<string, { $ref?: string; content?: Record<string, unknown>; headers?: Record<string, unknown> }> };
type PathItem = { parameters?: Parameter[]; get: Operation; head: Operation; options: Operation; post?: Operation & { requestBody: { required: boolean; content: Record<string, unknown> } } };
type Document = { openapi: string; paths: Record<string, PathItem>; components: { schemas: Record<string, unknown>; responses: Record<string, { content?: object; headers?: object }> } };

const doc = openApiDocument() as unknown as Document;
/** The paths answered to GET and HEAD: every one but the table's POST routes (`/mcp`). */
const getPaths = Object.entries(doc.paths).filter(([, item]) => item.post === undefined);
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(doc, 'openapi.json');

/** JSON pointer into the document, as a `$ref` (`~1` for `/`, braces percent-encoded). */
function pointer(...segments: string[]): string {
  return `openapi.json#/${segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/')}`;
}

const validators = new Map<string, ValidateFunction>();
function validator(ref: string): ValidateFunction {
  let validate = validators.get(ref);
  if (validate === undefined) validators.set(ref, (validate = ajv.compile({ $ref: ref })));
  return validate;
}

/** The `$ref` of the body schema of `status` at `path` (responses shared in components followed). */
function bodyRef(path: string, status: string): string {
  const response = doc.paths[path]!.get.responses[status]!;
  if (response.$ref !== undefined) {
    const name = response.$ref.split('/').at(-1)!;
    return pointer('components', 'responses', name, 'content', 'application/json', 'schema');
  }
  return pointer('paths', path, 'get', 'responses', status, 'content', 'application/json', 'schema');
}

/** The documented path template of a canonical URL path (`/api/v1/skills/{owner}/{repo}`), if any. */
function templateOf(pathname: string): string | undefined {
  // `{path}` of a skill file spans segments.
  return Object.keys(doc.paths).find((template) => new RegExp(`^${template.replace('{path}', '.+').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname));
}

/** Validate one real answer against the document: its status must be documented, its body must match. */
async function checkAnswer(url: string, response: Response): Promise<{ status: number; body: unknown }> {
  const { pathname } = new URL(url, 'http://x');
  const template = templateOf(pathname);
  expect(template, `${pathname} is documented`).toBeDefined();
  const status = String(response.status);
  expect(Object.keys(doc.paths[template!]!.get.responses), `${url} answered ${status}`).toContain(status);
  const documented = doc.paths[template!]!.get.responses[status]!.content;
  if (documented !== undefined && documented['application/json'] === undefined) {
    // Raw bytes: of the documented media type (any, for a skill's file).
    const type = Object.keys(documented)[0]!;
    if (type !== '*/*') expect(response.headers.get('content-type')).toBe(type);
    return { status: response.status, body: new Uint8Array(await response.arrayBuffer()) };
  }
  const body = await response.json();
  const validate = validator(bodyRef(template!, status));
  expect(validate(body) ? [] : validate.errors, `${url} → ${status} ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
  return { status: response.status, body };
}

let fixture: ToolsFixture;
let handler: Handler;

beforeAll(async () => {
  fixture = await buildToolsFixture();
  handler = createHandler(fsLoader(fixture.dir), { bytes: fsBytesLoader(fixture.dir) });
});
afterAll(async () => {
  await fixture?.cleanup();
});

const ask = (h: Handler, url: string) => h(new Request(new URL(url, 'http://openapi.test')));

describe('the document', () => {
  it('is OpenAPI 3.1 with the 11 endpoints and the change log, whose operationIds are the typed client methods, the served files and the compatibility route', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc).not.toHaveProperty('jsonSchemaDialect');
    const operations = Object.fromEntries(getPaths.map(([path, item]) => [path, item.get.operationId]));
    expect(operations).toEqual({
      '/api/v1/manifest.json': 'getManifest',
      '/api/v1/openapi.json': 'getOpenApi',
      '/api/v1/quality.json': 'getQualityReport',
      '/api/search': 'compatSearch',
      '/api/v1/skills': 'listSkills',
      '/api/v1/skills/search': 'searchSkills',
      '/api/v1/skills/autocomplete': 'autocomplete',
      '/api/v1/skills/{owner}/{repo}': 'getSkill',
      '/api/v1/skills/{owner}/{repo}/content': 'getSkillContent',
      '/api/v1/skills/{owner}/{repo}/stats': 'getSkillStats',
      '/api/v1/skills/{owner}/{repo}/files/{path}': 'getSkillFile',
      '/api/v1/skills/{owner}/{repo}/archive.tar.gz': 'getSkillArchive',
      '/api/v1/categories': 'listCategories',
      '/api/v1/categories/{slug}': 'getCategory',
      '/api/v1/categories/{slug}/skills': 'listCategorySkills',
      '/api/v1/changes': 'listChanges',
    } satisfies Record<string, keyof SkillsClient | 'getManifest' | 'getOpenApi' | 'getQualityReport' | 'compatSearch'>);
    // Every path also answers HEAD (headers only) and a CORS preflight.
    for (const [, item] of getPaths) {
      expect(Object.keys(item.head.responses)).toEqual(Object.keys(item.get.responses));
      expect(Object.values(item.head.responses).every((r) => r.content === undefined)).toBe(true);
      expect(Object.keys(item.options.responses)).toEqual(['204', '405']);
    }
  });

  it('lists /mcp from the endpoint table: POST of JSON-RPC, its own preflight, no GET', () => {
    const mcp = doc.paths['/mcp']!;
    expect(Object.keys(mcp)).toEqual(['post', 'options']);
    expect(mcp.post!.operationId).toBe('mcp');
    expect(mcp.post!.requestBody.required).toBe(true);
    expect(Object.keys(mcp.post!.responses)).toEqual(['200', '202', '403', '405', '429', '501']);
    expect(Object.keys(mcp.post!.responses['200']!.content!)).toEqual(['application/json']);
    expect(Object.keys(mcp.options.responses)).toEqual(['204', '405']);
  });

  it('declares every path parameter as required, and the query parameters of each endpoint', () => {
    const query: Record<string, string[]> = {};
    for (const [path, { get, parameters }] of getPaths) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      // Declared once on the path item, for every method.
      expect(parameters?.map((p) => [p.name, p.in, p.required]) ?? []).toEqual(inPath.map((name) => [name, 'path', true]));
      query[get.operationId] = get.parameters?.filter((p) => p.in === 'query').map((p) => `${p.name}${p.required ? '!' : ''}`) ?? [];
    }
    const list = ['page', 'limit', 'sort', 'order', 'category', 'platform'];
    expect(query).toEqual({
      listSkills: list,
      searchSkills: ['q!', 'page', 'limit', 'category', 'platform', 'minStars', 'hasIndex', 'hasMarketplace'],
      autocomplete: ['q', 'limit'],
      getSkill: [],
      getSkillContent: [],
      getSkillStats: [],
      getSkillFile: [],
      getSkillArchive: [],
      listCategories: ['locale'],
      getCategory: ['locale'],
      listCategorySkills: list,
      getManifest: [],
      getOpenApi: [],
      getQualityReport: [],
      compatSearch: ['q!', 'limit', 'owner'],
      listChanges: ['since', 'limit'],
    });
  });

  it('documents the error body with its codes on every endpoint, and every schema compiles', () => {
    for (const [path, { get }] of getPaths) {
      expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '304', '414', '429', '431', '500']));
      // The 200 of a file or the archive is raw bytes, not JSON.
      for (const status of Object.keys(get.responses).filter((s) => s !== '304' && !(s === '200' && get.responses[s]!.content?.['application/json'] === undefined))) {
        expect(() => validator(bodyRef(path, status))).not.toThrow();
      }
      expect(Object.keys(get.responses['200']!.headers ?? {})).toEqual(expect.arrayContaining(['ETag', 'Access-Control-Allow-Origin', 'X-RateLimit-Limit']));
    }
    expect(Object.keys(doc.paths['/api/v1/skills/search']!.get.responses)).toEqual(['200', '304', '400', '414', '429', '431', '500']);
    expect(Object.keys(doc.paths['/api/v1/categories/{slug}/skills']!.get.responses)).toEqual(['200', '304', '400', '404', '414', '429', '431', '500']);
    expect(Object.keys(doc.components.responses['RateLimited']!.headers!)).toEqual(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
    // INVALID_PARAMS details have a schema: one entry per parameter.
    const invalid = validator(bodyRef('/api/v1/skills', '400'));
    expect(invalid({ error: { code: 'INVALID_PARAMS', message: 'x', details: { params: [{ param: 'limit', message: 'y' }] } } })).toBe(true);
    expect(invalid({ error: { code: 'INVALID_PARAMS', message: 'x', details: { params: [{ param: 1 }] } } })).toBe(false);
  });

  it('is strict: an extra field, a missing field or a code of another status does not validate', async () => {
    const list = validator(pointer('paths', '/api/v1/skills', 'get', 'responses', '200', 'content', 'application/json', 'schema'));
    const body = (await (await ask(handler, '/api/v1/skills?limit=1')).json()) as { data: Array<Record<string, unknown>>; pagination: object };
    expect(list(body)).toBe(true);
    expect(list({ ...body, extra: 1 })).toBe(false);
    expect(list({ ...body, data: [{ ...body.data[0], stars: -1 }] })).toBe(false);
    expect(list({ data: body.data })).toBe(false);
    const notFound = validator(pointer('paths', '/api/v1/skills/{owner}/{repo}', 'get', 'responses', '404', 'content', 'application/json', 'schema'));
    expect(notFound({ error: { code: 'NOT_FOUND', message: 'x' } })).toBe(true);
    expect(notFound({ error: { code: 'INVALID_PARAMS', message: 'x' } })).toBe(false);
  });

  it('is written by the build to api/v1/openapi.json, served by the Node server, and in the bundle', async () => {
    expect(OPENAPI_PATH).toBe('api/v1/openapi.json');
    expect(JSON.parse(await readFile(join(fixture.dir, OPENAPI_PATH), 'utf8'))).toEqual(doc);
    const running = await startServer({ dir: fixture.dir, host: '127.0.0.1' });
    try {
      const served = await fetch(`${running.url}/${OPENAPI_PATH}`);
      expect(served.status).toBe(200);
      expect(await served.json()).toEqual(doc);
    } finally {
      await running.close();
    }
    const bundle = await readBundle(await readFile(fixture.bundle));
    expect(JSON.parse(bundle.files.get(OPENAPI_PATH)!)).toEqual(doc);
  });

  it('is deterministic', () => {
    expect(JSON.stringify(openApiDocument())).toBe(JSON.stringify(doc));
  });
});

describe('real answers validate against the document', () => {
  const ANSWERS: Array<[url: string, status: number]> = [
    ['/api/v1/skills', 200],
    ['/api/v1/skills?sort=name&order=asc&limit=2&page=2', 200],
    ['/api/v1/skills?category=development&platform=claude-code&sort=updated', 200],
    ['/api/v1/skills?page=99', 200],
    ['/api/v1/skills?limit=0', 400],
    ['/api/v1/skills?sort=popular&category=nope&page=1.5', 400],
    ['/api/v1/skills/acme/pdf-toolkit', 200],
    ['/api/v1/skills/evil/escape-artist', 200],
    ['/api/v1/skills/acme/nope', 404],
    ['/api/v1/skills/acme/pdf-toolkit/content', 200],
    ['/api/v1/skills/acme/nope/content', 404],
    ['/api/v1/skills/acme/pdf-toolkit/stats', 200],
    ['/api/v1/skills/zed/prose-polisher/stats', 200],
    ['/api/v1/skills/acme/nope/stats', 404],
    ['/api/v1/skills/acme/pdf-toolkit/files/SKILL.md', 200],
    ['/api/v1/skills/acme/pdf-toolkit/files/no/such.md', 404],
    ['/api/v1/skills/acme/pdf-toolkit/archive.tar.gz', 200],
    ['/api/v1/skills/acme/nope/archive.tar.gz', 404],
    ['/api/v1/skills/search?q=pdf', 200],
    ['/api/v1/skills/search?q=name:pdf%20-summarize&hasIndex=true&minStars=1', 200],
    ['/api/v1/skills/search?q=%22long%20pdf%22&hasMarketplace=false&category=writing', 200],
    ['/api/v1/skills/search?q=nothingmatchesthis', 200],
    ['/api/v1/skills/search?q=a', 400],
    ['/api/v1/skills/search?q=*', 400],
    [`/api/v1/skills/search?q=${'x'.repeat(201)}`, 400],
    ['/api/v1/skills/search?q=%22open', 400],
    ['/api/v1/skills/search?q=color:red', 400],
    ['/api/v1/skills/search?q=pdf&minStars=-1', 400],
    ['/api/v1/skills/search', 400],
    ['/api/v1/skills/autocomplete?q=pd', 200],
    ['/api/v1/skills/autocomplete?q=pdf%20su&limit=3', 200],
    ['/api/v1/skills/autocomplete?q=', 200],
    ['/api/v1/skills/autocomplete?q=pd&limit=21', 400],
    ['/api/v1/categories', 200],
    ['/api/v1/categories?locale=de', 200],
    ['/api/v1/categories?locale=zz-Latn-ZZ', 200],
    ['/api/v1/categories?locale=../de', 400],
    ['/api/v1/categories/development', 200],
    ['/api/v1/categories/code-review?locale=de', 200],
    ['/api/v1/categories/writing?locale=', 400],
    ['/api/v1/categories/nope', 404],
    ['/api/v1/categories/development/skills', 200],
    ['/api/v1/categories/development/skills?category=code-review&limit=1', 200],
    ['/api/v1/categories/development/skills?order=sideways', 400],
    ['/api/v1/categories/nope/skills', 404],
    ['/api/search?q=pdf', 200],
    ['/api/search?q=pdf&owner=ACME&limit=1', 200],
    ['/api/search?q=a', 400],
    ['/api/v1/changes', 200],
    ['/api/v1/changes?limit=2', 200],
    ['/api/v1/changes?since=999-0123456789abcdef', 400],
    ['/api/v1/changes?since=yesterday&limit=101', 400],
  ];

  it.each(ANSWERS)('%s → %i', async (url, status) => {
    expect((await checkAnswer(url, await ask(handler, url))).status).toBe(status);
  });

  it('covers every endpoint, and every error status of each', () => {
    const seen = new Set(ANSWERS.map(([url, status]) => `${templateOf(new URL(url, 'http://x').pathname)} ${status}`));
    // 304, 414, 429, 431 and 500 come from the host or a broken tree: checked below. The two
    // static files are read from the build output.
    for (const [path, { get }] of getPaths) {
      if (path.endsWith('.json')) continue;
      for (const status of Object.keys(get.responses).filter((s) => !['304', '414', '429', '431', '500'].includes(s))) expect(seen).toContain(`${path} ${status}`);
    }
  });

  it('the served manifest.json and openapi.json validate', async () => {
    for (const file of ['manifest.json', 'openapi.json', 'quality.json']) {
      const path = `/api/v1/${file}`;
      await checkAnswer(path, new Response(await readFile(join(fixture.dir, 'api', 'v1', file))));
    }
  });

  it('from the Node server: 304 with ETag, 414 and 431 validate; 405 carries Allow as documented', async () => {
    const running = await startServer({ dir: fixture.dir, host: '127.0.0.1' });
    try {
      const first = await fetch(`${running.url}/api/v1/skills`);
      const etag = first.headers.get('etag')!;
      await first.arrayBuffer();
      const again = await fetch(`${running.url}/api/v1/skills`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(Object.keys(doc.paths['/api/v1/skills']!.get.responses)).toContain('304');
      expect(again.headers.get('etag')).toBe(etag);
      await checkAnswer('/api/v1/skills', await fetch(`${running.url}/api/v1/skills?q=${'x'.repeat(9000)}`));
      await checkAnswer('/api/v1/skills', await fetch(`${running.url}/api/v1/skills`, { headers: { 'x-big': 'y'.repeat(17_000) } }));
      const refused = await fetch(`${running.url}/api/v1/skills`, { method: 'DELETE' });
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toBe('GET, HEAD');
      const schema = validator(pointer('components', 'responses', 'MethodNotAllowed', 'content', 'application/json', 'schema'));
      expect(schema(await refused.json())).toBe(true);
    } finally {
      await running.close();
    }
  });

  it('RATE_LIMITED (429) from the Node server validates', async () => {
    const running = await startServer({ dir: fixture.dir, host: '127.0.0.1', rateLimit: { limit: 1, windowMs: 60_000 } });
    try {
      await checkAnswer('/api/v1/categories', await fetch(`${running.url}/api/v1/categories`));
      const limited = await checkAnswer('/api/v1/skills/search?q=pdf', await fetch(`${running.url}/api/v1/skills/search?q=pdf`));
      expect(limited.status).toBe(429);
    } finally {
      await running.close();
    }
  });

  it('SERVER_ERROR (500) from a broken tree validates, for every endpoint', async () => {
    const good = fsLoader(fixture.dir);
    // Only the manifest can be read: every other file fails as a broken disk would.
    const broken: Loader = async (path) => {
      if (path === MANIFEST_PATH) return good(path);
      throw new Error(`disk error reading ${path}`);
    };
    const failing = createHandler(broken, { onError: () => undefined });
    for (const url of ['/api/v1/skills', '/api/v1/skills/acme/pdf-toolkit', '/api/v1/skills/acme/pdf-toolkit/content', '/api/v1/skills/acme/pdf-toolkit/stats', '/api/v1/skills/search?q=pdf', '/api/v1/skills/autocomplete?q=pd', '/api/v1/categories', '/api/v1/categories/development', '/api/v1/categories/development/skills']) {
      expect((await checkAnswer(url, await ask(failing, url))).status, url).toBe(500);
    }
  });
});

describe('the parameter schemas accept exactly what the handler accepts', () => {
  /** The schema of query parameter `name` of the endpoint at `path`. */
  function parameterSchema(path: string, name: string): ValidateFunction {
    const index = doc.paths[path]!.get.parameters!.findIndex((p) => p.name === name);
    return validator(pointer('paths', path, 'get', 'parameters', String(index), 'schema'));
  }

  const CASES: Array<[path: string, name: string, base: string]> = [
    ['/api/v1/skills', 'page', ''],
    ['/api/v1/skills', 'limit', ''],
    ['/api/v1/categories/{slug}/skills', 'limit', ''],
    ['/api/v1/skills/search', 'page', 'q=pdf&'],
    ['/api/v1/skills/search', 'limit', 'q=pdf&'],
    ['/api/v1/skills/search', 'minStars', 'q=pdf&'],
    ['/api/v1/skills/autocomplete', 'limit', 'q=pd&'],
  ];
  const BOUNDARIES = [-1, 0, 1, 2, 19, 20, 21, 99, 100, 101, 999_999_999, 1_000_000_000, 999_999_999_999_999, 1_000_000_000_000_000];

  it.each(CASES)('%s %s', async (path, name, base) => {
    const schema = parameterSchema(path, name);
    const url = path.replace('{slug}', 'development');
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.integer({ min: -3, max: 130 }), fc.constantFrom(...BOUNDARIES)), async (n) => {
        const response = await ask(handler, `${url}?${base}${name}=${n}`);
        expect(response.status !== 400, `${name}=${n}`).toBe(schema(n));
      }),
      { numRuns: 40, examples: BOUNDARIES.map((n) => [n]) },
    );
  });
});
