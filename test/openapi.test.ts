/**
 * The OpenAPI 3.1 document (build/openapi.ts): its shape, that the build writes and serves it,
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
import { OPENAPI_PATH, openApiDocument } from '../build/openapi.ts';
import { readBundle } from '../src/bundle.ts';
import type { SkillsClient } from '../src/client.ts';
import { createHandler, type Handler } from '../src/handler.ts';
import type { Loader } from '../src/loader.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { fsLoader } from '../src/node/fs-loader.ts';
import { startServer } from '../src/node/server.ts';
import { buildToolsFixture, type ToolsFixture } from './fixtures/tools/build-fixture.ts';

type Operation = { operationId: string; parameters?: Array<{ name: string; in: string; required: boolean; schema: object }>; responses: Record<string, unknown> };
type Document = { openapi: string; paths: Record<string, { get: Operation }>; components: { schemas: Record<string, unknown> } };

const doc = openApiDocument() as unknown as Document;
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

/** The documented path template of a canonical URL path (`/api/v1/skills/{owner}/{repo}`), if any. */
function templateOf(pathname: string): string | undefined {
  return Object.keys(doc.paths).find((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname));
}

/** Validate one real answer against the document: its status must be documented, its body must match. */
async function checkAnswer(url: string, response: Response): Promise<{ status: number; body: unknown }> {
  const { pathname } = new URL(url, 'http://x');
  const template = templateOf(pathname);
  expect(template, `${pathname} is documented`).toBeDefined();
  const status = String(response.status);
  expect(Object.keys(doc.paths[template!]!.get.responses), `${url} answered ${status}`).toContain(status);
  const body = await response.json();
  const validate = validator(pointer('paths', template!, 'get', 'responses', status, 'content', 'application/json', 'schema'));
  expect(validate(body) ? [] : validate.errors, `${url} → ${status} ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
  return { status: response.status, body };
}

let fixture: ToolsFixture;
let handler: Handler;

beforeAll(async () => {
  fixture = await buildToolsFixture();
  handler = createHandler(fsLoader(fixture.dir));
});
afterAll(async () => {
  await fixture?.cleanup();
});

const ask = (h: Handler, url: string) => h(new Request(new URL(url, 'http://openapi.test')));

describe('the document', () => {
  it('is OpenAPI 3.1 with the 9 endpoints, whose operationIds are the typed client methods', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const operations = Object.fromEntries(Object.entries(doc.paths).map(([path, item]) => [path, item.get.operationId]));
    expect(operations).toEqual({
      '/api/v1/skills': 'listSkills',
      '/api/v1/skills/search': 'searchSkills',
      '/api/v1/skills/autocomplete': 'autocomplete',
      '/api/v1/skills/{owner}/{repo}': 'getSkill',
      '/api/v1/skills/{owner}/{repo}/content': 'getSkillContent',
      '/api/v1/skills/{owner}/{repo}/stats': 'getSkillStats',
      '/api/v1/categories': 'listCategories',
      '/api/v1/categories/{slug}': 'getCategory',
      '/api/v1/categories/{slug}/skills': 'listCategorySkills',
    } satisfies Record<string, keyof SkillsClient>);
  });

  it('declares every path parameter as required, and the query parameters of each endpoint', () => {
    const query: Record<string, string[]> = {};
    for (const [path, { get }] of Object.entries(doc.paths)) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(get.parameters?.filter((p) => p.in === 'path').map((p) => [p.name, p.required]) ?? []).toEqual(inPath.map((name) => [name, true]));
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
      listCategories: ['locale'],
      getCategory: ['locale'],
      listCategorySkills: list,
    });
  });

  it('documents the error body with its codes on every endpoint, and every schema compiles', () => {
    for (const [path, { get }] of Object.entries(doc.paths)) {
      expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '429', '500']));
      for (const status of Object.keys(get.responses)) {
        expect(() => validator(pointer('paths', path, 'get', 'responses', status, 'content', 'application/json', 'schema'))).not.toThrow();
      }
    }
    expect(Object.keys(doc.paths['/api/v1/skills/search']!.get.responses)).toEqual(['200', '400', '429', '500']);
    expect(Object.keys(doc.paths['/api/v1/categories/{slug}/skills']!.get.responses)).toEqual(['200', '400', '404', '429', '500']);
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
  ];

  it.each(ANSWERS)('%s → %i', async (url, status) => {
    expect((await checkAnswer(url, await ask(handler, url))).status).toBe(status);
  });

  it('covers every endpoint, and every error status of each', () => {
    const seen = new Set(ANSWERS.map(([url, status]) => `${templateOf(new URL(url, 'http://x').pathname)} ${status}`));
    for (const [path, { get }] of Object.entries(doc.paths)) {
      for (const status of Object.keys(get.responses).filter((s) => s !== '429' && s !== '500')) expect(seen).toContain(`${path} ${status}`);
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
