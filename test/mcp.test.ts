/**
 * The MCP server, as an agent meets it: the SDK's own `Client` over a `StdioClientTransport` that
 * spawns the real CLI (`skills-api mcp --bundle FILE`, and `--url URL`), and the MCP Inspector's
 * CLI. Every tool's structured result must be the API's JSON for the same parameters; its text is
 * readable, without HTML or raw scores.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, type Handler } from '../src/handler.ts';
import { fsLoader } from '../src/node/fs-loader.ts';
import { startServer, type RunningServer } from '../src/node/server.ts';
import { buildToolsFixture, type ToolsFixture } from './helpers/tools-fixture.ts';
import { installNode22Tools, NODE22_SUPPORTED, run, type Node22Tools } from './helpers/node22-tools.ts';

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

  it('reports itself and lists a tool per endpoint plus get_install_command, each with input and output schemas', async () => {
    expect(client.getServerVersion()?.name).toBe('skills-directory');
    const { tools } = await client.listTools();
    const inputs = Object.fromEntries(
      tools.map((tool) => [tool.name, { properties: Object.keys(tool.inputSchema.properties ?? {}), required: tool.inputSchema.required ?? [] }]),
    );
    expect(inputs).toEqual({
      search_skills: { properties: ['q', 'page', 'limit', 'category', 'platform', 'minStars', 'hasIndex', 'hasMarketplace'], required: ['q'] },
      autocomplete: { properties: ['q', 'limit'], required: ['q'] },
      list_skills: { properties: ['page', 'limit', 'sort', 'order', 'category', 'platform'], required: [] },
      get_skill: { properties: ['owner', 'repo'], required: ['owner', 'repo'] },
      get_skill_content: { properties: ['owner', 'repo'], required: ['owner', 'repo'] },
      get_skill_stats: { properties: ['owner', 'repo'], required: ['owner', 'repo'] },
      get_install_command: { properties: ['owner', 'repo', 'platform'], required: ['owner', 'repo', 'platform'] },
      list_categories: { properties: ['locale'], required: [] },
      get_category: { properties: ['slug', 'locale'], required: ['slug'] },
      list_category_skills: { properties: ['slug', 'page', 'limit', 'sort', 'order', 'platform'], required: ['slug'] },
      list_changes: { properties: ['since', 'limit'], required: [] },
    });
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['search_skills', { q: 'pdf' }, '/api/v1/skills/search?q=pdf'],
    ['search_skills', { q: 'name:pdf -summarize', hasIndex: true, minStars: 100, limit: 5 }, '/api/v1/skills/search?q=name%3Apdf+-summarize&hasIndex=true&minStars=100&limit=5'],
    ['search_skills', { q: 'pdf', hasMarketplace: true }, '/api/v1/skills/search?q=pdf&hasMarketplace=true'],
    ['search_skills', { q: 'pdf', hasMarketplace: false }, '/api/v1/skills/search?q=pdf&hasMarketplace=false'],
    ['autocomplete', { q: 'pd' }, '/api/v1/skills/autocomplete?q=pd'],
    ['list_skills', {}, '/api/v1/skills'],
    ['list_skills', { category: 'development', sort: 'name', order: 'asc', limit: 2, page: 2 }, '/api/v1/skills?category=development&sort=name&order=asc&limit=2&page=2'],
    ['get_skill', { owner: 'acme', repo: 'pdf-toolkit' }, '/api/v1/skills/acme/pdf-toolkit'],
    ['get_skill_content', { owner: 'evil', repo: 'escape-artist' }, '/api/v1/skills/evil/escape-artist/content'],
    ['get_skill_stats', { owner: 'acme', repo: 'pdf-toolkit' }, '/api/v1/skills/acme/pdf-toolkit/stats'],
    ['list_categories', {}, '/api/v1/categories'],
    ['list_categories', { locale: 'de' }, '/api/v1/categories?locale=de'],
    ['get_category', { slug: 'development' }, '/api/v1/categories/development'],
    ['list_category_skills', { slug: 'development', limit: 1 }, '/api/v1/categories/development/skills?limit=1'],
    ['list_changes', {}, '/api/v1/changes'],
    ['list_changes', { since: '2-b1eb3b0e52b36d0d', limit: 2 }, '/api/v1/changes?since=2-b1eb3b0e52b36d0d&limit=2'],
  ])('%s %j answers the API JSON as structured content, readable text beside it', async (name, args, path) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError ?? false).toBe(false);
    const expected = (await apiBody(path)) as { data: unknown[] };
    const structured = zeroTook(result.structuredContent);
    // Search results come without their HTML highlights.
    expect(structured).toEqual(name === 'search_skills' ? { ...expected, data: expected.data.map((r) => ({ ...(r as object), highlights: undefined })) } : expected);
    const text = textOf(result);
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/<\/?mark>|"data"|score/);
  });

  it('list_changes says what changed and which cursor to ask from next', async () => {
    const text = textOf(await client.callTool({ name: 'list_changes', arguments: { limit: 2 } }));
    expect(text).toMatch(/^\S+ added acme\/pdf-toolkit\n\S+ added acme\/review-bot\nMore changes follow; ask with since=2-[0-9a-f]{16}\n$/);
    const bad = await client.callTool({ name: 'list_changes', arguments: { since: '99-0123456789abcdef' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^INVALID_PARAMS \(400\): .*since/);
  });

  it('search text names the results without HTML or scores', async () => {
    const text = textOf(await client.callTool({ name: 'search_skills', arguments: { q: 'pdf' } }));
    expect(text).toMatch(/^\d+ skills? for pdf/);
    expect(text).toContain('acme/pdf-toolkit');
    expect(text).not.toMatch(/\d+\.\d{2,}/);
  });

  it('get_install_command answers one platform, or says which platforms there are', async () => {
    const detail = (await apiBody('/api/v1/skills/acme/pdf-toolkit')) as { data: { installCommands: Record<string, string> } };
    const [platform, command] = Object.entries(detail.data.installCommands)[0]!;
    const result = await client.callTool({ name: 'get_install_command', arguments: { owner: 'acme', repo: 'pdf-toolkit', platform } });
    expect(result.structuredContent).toEqual({ id: 'acme/pdf-toolkit', platform, command, platforms: Object.keys(detail.data.installCommands).sort() });
    expect(textOf(result)).toBe(`${command}\n`);
    const missing = await client.callTool({ name: 'get_install_command', arguments: { owner: 'acme', repo: 'pdf-toolkit', platform: 'nowhere' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe(`acme/pdf-toolkit has no install command for "nowhere"; it has: ${Object.keys(detail.data.installCommands).sort().join(', ')}`);
    // A name every object has is no platform either.
    for (const inherited of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      const none = await client.callTool({ name: 'get_install_command', arguments: { owner: 'acme', repo: 'pdf-toolkit', platform: inherited } });
      expect(none.isError, inherited).toBe(true);
      expect(textOf(none), inherited).toBe(`acme/pdf-toolkit has no install command for ${JSON.stringify(inherited)}; it has: ${Object.keys(detail.data.installCommands).sort().join(', ')}`);
    }
  });

  it('an API error is a tool error with the code and message', async () => {
    const notFound = await client.callTool({ name: 'get_skill', arguments: { owner: 'acme', repo: 'nope' } });
    expect(notFound.isError).toBe(true);
    expect(textOf(notFound)).toBe('NOT_FOUND (404): No skill acme/nope');
    const tooShort = await client.callTool({ name: 'search_skills', arguments: { q: 'a' } });
    expect(tooShort.isError).toBe(true);
    expect(textOf(tooShort)).toMatch(/^INVALID_QUERY \(400\): /);
    const unknownCategory = await client.callTool({ name: 'list_skills', arguments: { category: 'nope' } });
    expect(textOf(unknownCategory)).toMatch(/^INVALID_PARAMS \(400\): .*category/);
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

  it('resources: a SKILL.md template and the categories; a prompt to find a skill for a task', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['skill://{owner}/{repo}/SKILL.md', 'skill://{owner}/{repo}/{+path}']);
    const skill = await client.readResource({ uri: 'skill://acme/pdf-toolkit/SKILL.md' });
    const raw = (await apiBody('/api/v1/skills/acme/pdf-toolkit/content')) as { data: { content: string } };
    expect(skill.contents).toEqual([{ uri: 'skill://acme/pdf-toolkit/SKILL.md', mimeType: 'text/markdown', text: raw.data.content }]);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['skills-directory://categories']);
    const categories = await client.readResource({ uri: 'skills-directory://categories' });
    expect(JSON.parse((categories.contents[0] as { text: string }).text)).toEqual(((await apiBody('/api/v1/categories')) as { data: unknown }).data);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['find_skill_for_task']);
    const prompt = await client.getPrompt({ name: 'find_skill_for_task', arguments: { task: 'fill PDF forms', platform: 'codex' } });
    const message = prompt.messages[0]!.content as { type: string; text: string };
    expect(message.text).toContain('fill PDF forms');
    expect(message.text).toContain('search_skills');
    expect(message.text).toContain('get_install_command for the platform codex');
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

  it('names the server it cannot reach', async () => {
    // A port that was just free: nothing listens there.
    const gone = await startServer({ dir: fixture.dir, host: '127.0.0.1' });
    await gone.close();
    const client = await connect(['--url', gone.url]);
    const result = await client.callTool({ name: 'list_skills', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Cannot reach ${gone.url}: connect ECONNREFUSED 127.0.0.1:${gone.port}`);
    await client.close();
    // A static host as well: its fetch failure, not the in-process handler's 500.
    const fromStatic = await connect(['--static-url', gone.url]);
    const answer = await fromStatic.callTool({ name: 'list_skills', arguments: {} });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toBe(`Cannot reach ${gone.url}: connect ECONNREFUSED 127.0.0.1:${gone.port}`);
    await fromStatic.close();
  });

  it('answers through a canonical API server, and the process ends when the client closes', async () => {
    const client = await connect(['--url', server.url]);
    const result = await client.callTool({ name: 'list_skills', arguments: { category: 'writing' } });
    expect(result.structuredContent).toEqual(await apiBody('/api/v1/skills?category=writing'));
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

describe.runIf(NODE22_SUPPORTED)('the MCP Inspector CLI (@modelcontextprotocol/inspector --cli, on Node 22)', () => {
  let tools: Node22Tools;
  beforeAll(async () => {
    tools = await installNode22Tools(['@modelcontextprotocol/inspector@2.12.0']);
  }, 300_000);
  afterAll(async () => {
    await tools?.remove();
  });

  /** `mcp-inspector --cli node bin/skills-api.js mcp --bundle FILE --method <method> …`, its JSON answer. */
  async function inspect(...args: string[]): Promise<Record<string, unknown>> {
    const launcher = join(tools.dir, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
    const result = await run(tools.node, [launcher, '--cli', process.execPath, BIN, 'mcp', '--bundle', fixture.bundle, '--method', ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  it('lists the tools, resource templates and prompts, and calls a tool with structured content', async () => {
    const tools = (await inspect('tools/list')).tools as { name: string; outputSchema?: object }[];
    expect(tools.map((t) => t.name).sort()).toEqual([
      'autocomplete', 'get_category', 'get_install_command', 'get_skill', 'get_skill_content', 'get_skill_stats',
      'list_categories', 'list_category_skills', 'list_changes', 'list_skills', 'search_skills',
    ]);
    expect(tools.every((t) => t.outputSchema !== undefined)).toBe(true);
    const called = await inspect('tools/call', '--tool-name', 'search_skills', '--tool-arg', 'q=pdf', '--tool-arg', 'hasMarketplace=true');
    const expected = (await apiBody('/api/v1/skills/search?q=pdf&hasMarketplace=true')) as { data: { id: string }[] };
    expect((called.structuredContent as { data: { id: string }[] }).data.map((r) => r.id)).toEqual(expected.data.map((r) => r.id));
    expect(JSON.stringify(called.content)).not.toMatch(/<\/?mark>/);
    const templates = (await inspect('resources/templates/list')).resourceTemplates as { uriTemplate: string }[];
    expect(templates.map((t) => t.uriTemplate)).toEqual(['skill://{owner}/{repo}/SKILL.md', 'skill://{owner}/{repo}/{+path}']);
    const prompts = (await inspect('prompts/list')).prompts as { name: string }[];
    expect(prompts.map((p) => p.name)).toEqual(['find_skill_for_task']);
  }, 120_000);
});
