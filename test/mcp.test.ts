/**
 * The MCP server, as an agent meets it: the SDK's own `Client` over a `StdioClientTransport` that
 * spawns the real CLI (`skills-api mcp --bundle FILE`, and `--url URL`). Every tool's result must
 * be the API's JSON for the same parameters, errors included.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, type Handler } from '../src/handler.ts';
import { fsLoader } from '../src/node/fs-loader.ts';
import { startServer, type RunningServer } from '../src/node/server.ts';
import { buildToolsFixture, type ToolsFixture } from './fixtures/tools/build-fixture.ts';

const BIN = fileURLToPath(new URL('../bin/skills-api.js', import.meta.url));

let fixture: ToolsFixture;
let reference: Handler;

/** An SDK client connected to `skills-api mcp <args>` over stdio. */
async function connect(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], stderr: 'pipe' });
  const client = new Client({ name: 'skills-api-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The text of a tool result's only content item. */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as Array<{ type: string; text: string }>;
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  return content[0]!.text;
}

/** The API's body for a canonical path, `meta.took` zeroed. */
async function apiBody(path: string): Promise<unknown> {
  return zeroTook(await (await reference(new Request(new URL(path, 'http://reference.test')))).json());
}

function zeroTook(body: unknown): unknown {
  const meta = (body as { meta?: object }).meta;
  return meta === undefined ? body : { ...(body as object), meta: { ...meta, took: 0 } };
}

beforeAll(async () => {
  fixture = await buildToolsFixture();
  reference = createHandler(fsLoader(fixture.dir));
});
afterAll(async () => {
  await fixture?.cleanup();
});

describe('skills-api mcp --bundle', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(['--bundle', fixture.bundle]);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('reports itself and lists the five tools with inputs mirroring the API parameters', async () => {
    expect(client.getServerVersion()?.name).toBe('skills-directory');
    const { tools } = await client.listTools();
    const inputs = Object.fromEntries(
      tools.map((tool) => [tool.name, { properties: Object.keys(tool.inputSchema.properties ?? {}), required: tool.inputSchema.required ?? [] }]),
    );
    expect(inputs).toEqual({
      search_skills: { properties: ['q', 'page', 'limit', 'category', 'platform', 'minStars', 'hasIndex'], required: ['q'] },
      list_skills: { properties: ['page', 'limit', 'sort', 'order', 'category', 'platform'], required: [] },
      get_skill: { properties: ['owner', 'repo'], required: ['owner', 'repo'] },
      get_skill_content: { properties: ['owner', 'repo'], required: ['owner', 'repo'] },
      list_categories: { properties: ['locale'], required: [] },
    });
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['search_skills', { q: 'pdf' }, '/api/v1/skills/search?q=pdf'],
    ['search_skills', { q: 'name:pdf -summarize', hasIndex: true, minStars: 100, limit: 5 }, '/api/v1/skills/search?q=name%3Apdf+-summarize&hasIndex=true&minStars=100&limit=5'],
    ['list_skills', {}, '/api/v1/skills'],
    ['list_skills', { category: 'development', sort: 'name', order: 'asc', limit: 2, page: 2 }, '/api/v1/skills?category=development&sort=name&order=asc&limit=2&page=2'],
    ['get_skill', { owner: 'acme', repo: 'pdf-toolkit' }, '/api/v1/skills/acme/pdf-toolkit'],
    ['get_skill_content', { owner: 'evil', repo: 'escape-artist' }, '/api/v1/skills/evil/escape-artist/content'],
    ['list_categories', {}, '/api/v1/categories'],
    ['list_categories', { locale: 'de' }, '/api/v1/categories?locale=de'],
  ])('%s %j answers the API JSON', async (name, args, path) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError ?? false).toBe(false);
    expect(zeroTook(JSON.parse(textOf(result)))).toEqual(await apiBody(path));
  });

  it('an API error is a tool error carrying the API error body', async () => {
    const notFound = await client.callTool({ name: 'get_skill', arguments: { owner: 'acme', repo: 'nope' } });
    expect(notFound.isError).toBe(true);
    expect(JSON.parse(textOf(notFound))).toEqual(await apiBody('/api/v1/skills/acme/nope'));
    const tooShort = await client.callTool({ name: 'search_skills', arguments: { q: 'a' } });
    expect(tooShort.isError).toBe(true);
    expect(JSON.parse(textOf(tooShort))).toEqual({ error: { code: 'INVALID_QUERY', message: expect.any(String) } });
    const unknownCategory = await client.callTool({ name: 'list_skills', arguments: { category: 'nope' } });
    expect(JSON.parse(textOf(unknownCategory))).toMatchObject({ error: { code: 'INVALID_PARAMS', details: { params: [{ param: 'category' }] } } });
  });

  it('arguments outside the parameter schemas are refused before any request', async () => {
    for (const args of [{ limit: 500 }, { sort: 'popular' }, { page: 0 }]) {
      // The SDK answers a tool error or a protocol error, depending on its version: either refuses.
      let refused: { isError: boolean; text: string };
      try {
        const result = await client.callTool({ name: 'list_skills', arguments: args });
        refused = { isError: result.isError === true, text: textOf(result) };
      } catch (error) {
        refused = { isError: true, text: (error as Error).message };
      }
      expect(refused.isError, JSON.stringify(args)).toBe(true);
      expect(refused.text).not.toContain('"data"');
    }
  });
});

describe('skills-api mcp --url', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dir: fixture.dir, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers through a canonical API server, and the process ends when the client closes', async () => {
    const client = await connect(['--url', server.url]);
    const result = await client.callTool({ name: 'search_skills', arguments: { q: 'prose', category: 'writing' } });
    expect(zeroTook(JSON.parse(textOf(result)))).toEqual(await apiBody('/api/v1/skills/search?q=prose&category=writing'));
    const transport = client.transport as StdioClientTransport;
    const pid = transport.pid;
    await client.close();
    expect(pid).toBeTypeOf('number');
    // The child is gone shortly after its stdin closes.
    await expect.poll(() => isRunning(pid!), { timeout: 10_000 }).toBe(false);
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
