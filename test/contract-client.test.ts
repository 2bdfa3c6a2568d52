/**
 * The typed client. The shared contract suite runs through the client's own request path against
 * the real Node server; then every method is checked, from every kind of source (a canonical API
 * server, a plain static host, a bundle, a loader), against the runtime handler's answer over the
 * same real build, and every error is checked to arrive as an `ApiError` with code and status.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import serveHandler from 'serve-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ClientOptions, type SkillsClient } from '../src/client.ts';
import { ApiError } from '../src/errors.ts';
import { createHandler, type Handler } from '../src/handler.ts';
import { fsLoader } from '../src/node/fs-loader.ts';
import { startServer, type RunningServer } from '../src/node/server.ts';
import { writeContractTree } from './contract/contract-data.ts';
import { defineContractSuite } from './contract/suite.ts';
import { buildToolsFixture, type ToolsFixture } from './helpers/tools-fixture.ts';

defineContractSuite('typed client → Node server', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'contract-client-'));
  await writeContractTree(dir);
  const running = await startServer({ dir, host: '127.0.0.1' });
  const client = createClient({ baseUrl: running.url });
  return {
    fetch: (path, init) => client.fetch(path, init),
    hosted: ['mcp'],
    close: async () => {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

let fixture: ToolsFixture;
let server: RunningServer;
let staticHost: { url: string; server: Server };
let reference: Handler;

/** A plain static file server of `dir` (no API code): what GitHub Pages or S3 would be. */
async function startStaticHost(dir: string): Promise<{ url: string; server: Server }> {
  const host = createServer((req, res) => void serveHandler(req, res, { public: dir, directoryListing: false }));
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(host.address() as AddressInfo).port}/`, server: host };
}

beforeAll(async () => {
  fixture = await buildToolsFixture();
  server = await startServer({ dir: fixture.dir, host: '127.0.0.1' });
  staticHost = await startStaticHost(fixture.dir);
  reference = createHandler(fsLoader(fixture.dir));
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => staticHost?.server.close(resolve));
  await fixture?.cleanup();
});

/** The handler's body for a canonical path (the oracle), `meta.took` removed. */
async function expected(path: string): Promise<unknown> {
  return withoutTook(await (await reference(new Request(new URL(path, 'http://reference.test')))).json());
}

function withoutTook(body: unknown): unknown {
  const meta = (body as { meta?: { took?: number } }).meta;
  if (meta?.took !== undefined) {
    expect(meta.took).toBeGreaterThanOrEqual(0);
    return { ...(body as object), meta: { ...meta, took: 0 } };
  }
  return body;
}

/** The ApiError `promise` rejects with. */
async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const SOURCES: Array<[name: string, options: () => Promise<ClientOptions>]> = [
  ['baseUrl (canonical API server)', async () => ({ baseUrl: server.url })],
  ['staticBaseUrl (plain static host)', async () => ({ staticBaseUrl: staticHost.url })],
  ['bundle (bytes of the file)', async () => ({ bundle: await readFile(fixture.bundle) })],
  ['loader (the output folder)', async () => ({ loader: fsLoader(fixture.dir) })],
];

describe.each(SOURCES)('client from %s', (_name, options) => {
  let client: SkillsClient;
  beforeAll(async () => {
    client = createClient(await options());
  });

  it('answers every endpoint like the handler', async () => {
    const calls: Array<[() => Promise<unknown>, string]> = [
      [() => client.listSkills(), '/api/v1/skills'],
      [() => client.listSkills({ sort: 'name', order: 'asc', limit: 2, page: 2, category: 'development', platform: 'claude-code' }), '/api/v1/skills?sort=name&order=asc&limit=2&page=2&category=development&platform=claude-code'],
      [() => client.getSkill('acme', 'pdf-toolkit'), '/api/v1/skills/acme/pdf-toolkit'],
      [() => client.getSkillContent('acme', 'pdf-toolkit'), '/api/v1/skills/acme/pdf-toolkit/content'],
      [() => client.getSkillStats('acme', 'pdf-toolkit'), '/api/v1/skills/acme/pdf-toolkit/stats'],
      [() => client.searchSkills({ q: 'pdf' }), '/api/v1/skills/search?q=pdf'],
      [() => client.searchSkills({ q: 'name:pdf -summarize', minStars: 10, hasIndex: true, limit: 5 }), '/api/v1/skills/search?q=name%3Apdf+-summarize&minStars=10&hasIndex=true&limit=5'],
      [() => client.searchSkills({ q: 'prose', category: 'writing', platform: 'codex', page: 1 }), '/api/v1/skills/search?q=prose&category=writing&platform=codex&page=1'],
      [() => client.autocomplete({ q: 'pd' }), '/api/v1/skills/autocomplete?q=pd'],
      [() => client.autocomplete({ q: 'pdf su', limit: 1 }), '/api/v1/skills/autocomplete?q=pdf+su&limit=1'],
      [() => client.listCategories(), '/api/v1/categories'],
      [() => client.listCategories({ locale: 'de' }), '/api/v1/categories?locale=de'],
      [() => client.getCategory('development', { locale: 'de' }), '/api/v1/categories/development?locale=de'],
      [() => client.listCategorySkills('development', { category: 'code-review' }), '/api/v1/categories/development/skills?category=code-review'],
    ];
    for (const [call, path] of calls) {
      const body = await call();
      expect(withoutTook(body), path).toEqual(await expected(path));
    }
    // The calls above are not vacuous: they found what the fixture holds.
    expect((await client.searchSkills({ q: 'pdf' })).data.map((r) => r.id)).toEqual(['acme/pdf-toolkit', 'zed/pdf-summarizer', 'evil/escape-artist']);
    expect((await client.getSkill('acme', 'pdf-toolkit')).data.name).toBe('PDF Toolkit');
  });

  it('throws ApiError with the code, status, message and details of every error', async () => {
    let error = await apiError(client.getSkill('acme', 'no-such-skill'));
    expect([error.code, error.status, error.message]).toEqual(['NOT_FOUND', 404, 'No skill acme/no-such-skill']);
    error = await apiError(client.searchSkills({ q: 'a' }));
    expect([error.code, error.status]).toEqual(['INVALID_QUERY', 400]);
    error = await apiError(client.searchSkills({ q: 'x'.repeat(201) }));
    expect([error.code, error.status]).toEqual(['QUERY_TOO_LONG', 400]);
    error = await apiError(client.searchSkills({ q: '"unbalanced' }));
    expect([error.code, error.status]).toEqual(['INVALID_SYNTAX', 400]);
    error = await apiError(client.listSkills({ limit: 101, sort: 'popular' as never }));
    expect([error.code, error.status]).toEqual(['INVALID_PARAMS', 400]);
    expect(error.details).toEqual({ params: [expect.objectContaining({ param: 'limit' }), expect.objectContaining({ param: 'sort' })] });
    error = await apiError(client.getCategory('no-such-category'));
    expect([error.code, error.status]).toEqual(['NOT_FOUND', 404]);
    error = await apiError(client.listCategories({ locale: 'not a locale' }));
    expect([error.code, error.status]).toEqual(['INVALID_PARAMS', 400]);
  });

  it('encodes path segments: a hostile owner or slug never reaches another path', async () => {
    const calls = [() => client.getSkill('..', '..'), () => client.getSkill('.', 'manifest'), () => client.getSkill('acme/pdf-toolkit', ''), () => client.getSkillStats('../../api/v1', 'manifest'), () => client.getCategory('../skills'), () => client.getCategory('..')];
    for (const call of calls) expect((await apiError(call())).code).toBe('NOT_FOUND');
  });
});

describe('client for browsers', () => {
  it('bundles for the browser with no Node built-in and no zod; the handler is a separate chunk', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../src/client.ts', import.meta.url))],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      outdir: 'out',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.startsWith('node:') || input.includes('node_modules/zod'))).toEqual([]);
    // What a page loads up front: the entry and the chunks it imports statically.
    const outputs = result.metafile.outputs;
    const upFront = new Set<string>();
    const visit = (path: string) => {
      if (upFront.has(path)) return;
      upFront.add(path);
      for (const next of outputs[path]!.imports) if (next.kind === 'import-statement') visit(next.path);
    };
    // Modules imported dynamically are entry points of their own: the client's is the one of src/client.ts.
    visit(Object.keys(outputs).find((path) => outputs[path]!.entryPoint?.endsWith('src/client.ts') === true)!);
    const modules = [...upFront].flatMap((path) => Object.keys(outputs[path]!.inputs)).map((input) => input.replace(/^.*src\//, 'src/'));
    // The endpoint table's declarations (its methods' paths) come with it; its answers, the
    // handler and search do not.
    expect(modules).toEqual(expect.arrayContaining(['src/client.ts', 'src/endpoints.ts', 'src/errors.ts']));
    const lazy = ['src/handler.ts', 'src/lists.ts', 'src/compat.ts', 'src/changes.ts', 'src/files.ts', 'src/search/index.ts', 'src/search/match.ts', 'src/answers/skills.ts'];
    expect(modules.filter((module) => lazy.includes(module))).toEqual([]);
  });
});

describe('client sources and transport', () => {
  it('needs exactly one source', () => {
    expect(() => createClient({} as ClientOptions)).toThrow('createClient: give exactly one of baseUrl, staticBaseUrl, bundle, loader (got none)');
    expect(() => createClient({ baseUrl: 'http://a', bundle: new Uint8Array() } as unknown as ClientOptions)).toThrow('(got baseUrl, bundle)');
  });

  it('requests <baseUrl>/api/v1/... with the injected fetch, keeping a path prefix', async () => {
    const seen: string[] = [];
    const client = createClient({
      baseUrl: 'https://example.test/mirror',
      fetch: async (input) => {
        seen.push(String(input));
        return new Response('{"data":[],"pagination":{"page":1,"limit":2,"total":0,"totalPages":0}}', { headers: { 'content-type': 'application/json' } });
      },
    });
    await client.listSkills({ limit: 2, category: undefined });
    await client.getSkill('a b', 'c');
    await client.getCategory('x/../..');
    // A URL parser resolves `.`/`..` segments away (climbing out of /skills/): never requested.
    for (const [owner, repo] of [['..', '..'], ['.', 'x'], ['x', '..']] as const) {
      const error = await apiError(client.getSkillStats(owner, repo));
      expect([error.code, error.status]).toEqual(['NOT_FOUND', 404]);
    }
    expect((await apiError(client.listCategorySkills('..'))).code).toBe('NOT_FOUND');
    expect(seen).toEqual([
      'https://example.test/mirror/api/v1/skills?limit=2',
      'https://example.test/mirror/api/v1/skills/a%20b/c',
      'https://example.test/mirror/api/v1/categories/x%2F..%2F..',
    ]);
  });

  it('a hostile segment reaches no file: the loader is asked for nothing but the manifest', async () => {
    const seen = new Set<string>();
    const client = createClient({
      loader: (path) => {
        seen.add(path);
        return fsLoader(fixture.dir)(path);
      },
    });
    await apiError(client.getSkill('..', '..'));
    await apiError(client.getSkillContent('..%2F..', 'manifest'));
    await apiError(client.getCategory('..'));
    expect((await client.listSkills({ limit: 1 })).data).toHaveLength(1);
    seen.delete('api/v1/skills/_list/all/stars-desc/1.json');
    expect([...seen]).toEqual(['api/v1/manifest.json']);
  });

  it('turns an error answer without an error body (a static host asked for the canonical API) into an ApiError', async () => {
    const client = createClient({ baseUrl: staticHost.url });
    const error = await apiError(client.listSkills());
    expect([error.code, error.status]).toEqual(['NOT_FOUND', 404]);
  });

  it('an unreadable bundle rejects every call with the bundle error, and a later call retries', async () => {
    const client = createClient({ bundle: new Uint8Array([1, 2, 3]) });
    await expect(client.listSkills()).rejects.toThrow(/not a skills directory bundle|corrupt/);
    await expect(client.listSkills()).rejects.toThrow(/not a skills directory bundle|corrupt/);
  });

  it('a server that cannot be reached is the fetch error, not an API answer', async () => {
    const closed = await startServer({ dir: fixture.dir, host: '127.0.0.1' });
    await closed.close();
    await expect(createClient({ baseUrl: closed.url }).listSkills()).rejects.toThrow('fetch failed');
  });
});
