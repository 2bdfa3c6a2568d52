/**
 * The MCP Skills Extension (SEP-2640) and MCP over Streamable HTTP, as hosts meet them: the SDK's
 * own `Client` over stdio (the real `skills-api mcp`) and over HTTP (`StreamableHTTPClientTransport`
 * against the real Node server's `/mcp`), raw JSON-RPC for the extension's methods (the SDK has no
 * helper for them) and for the transport's HTTP rules, and the MCP conformance suite's server
 * scenarios that apply to a read-only server.
 *
 * Expected values are computed independently: front matter with the `yaml` library straight from
 * the files the fixture wrote, digests with node:crypto over the bytes `resources/read` returns.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { createHandler, type Handler } from '../src/handler.ts';
import { fsLoader } from '../src/node/fs-loader.ts';
import { startServer, type RunningServer } from '../src/node/server.ts';
import { buildSkillsExtFixture, GENERATED_SKILLS, SKILL_FILES, type SkillsExtFixture } from './helpers/skills-ext-fixture.ts';
import { installNode22Tools, NODE22_SUPPORTED, run, type Node22Tools } from './helpers/node22-tools.ts';

const BIN = fileURLToPath(new URL('../bin/skills-api.js', import.meta.url));
const EXTENSION = 'io.modelcontextprotocol/skills';

/** The SEP-2640 wire shapes, checked strictly: an extra or missing field fails. */
const ResourceRef = z.strictObject({ uri: z.string(), digest: z.string().regex(/^sha256:[0-9a-f]{64}$/), size: z.number().int().nonnegative() });
const Entry = z.strictObject({ uri: z.string(), frontmatter: z.record(z.string(), z.unknown()), resources: z.array(ResourceRef) });
const ListResult = z.strictObject({ resultType: z.literal('complete'), skills: z.array(Entry), nextCursor: z.string().optional(), _meta: z.unknown().optional() });
const GetResult = z.strictObject({ resultType: z.literal('complete'), skill: Entry, _meta: z.unknown().optional() });
const DirectoryResult = z.strictObject({
  resultType: z.literal('complete'),
  resources: z.array(z.strictObject({ uri: z.string(), name: z.string(), description: z.string().optional(), mimeType: z.string().optional(), size: z.number().optional() })),
  nextCursor: z.string().optional(),
  _meta: z.unknown().optional(),
});
type Entry = z.infer<typeof Entry>;

let fixture: SkillsExtFixture;
let reference: Handler;

beforeAll(async () => {
  fixture = await buildSkillsExtFixture();
  reference = createHandler(fsLoader(fixture.dir));
}, 60_000);
afterAll(async () => {
  await fixture?.cleanup();
});

/** The API's JSON for a canonical path. */
async function api<T>(path: string): Promise<T> {
  const response = await reference(new Request(new URL(path, 'http://reference.test')));
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/** The front matter of a SKILL.md the fixture wrote, read with the `yaml` library. */
function frontMatterOf(text: string): Record<string, unknown> {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  return parseYaml(match![1]!) as Record<string, unknown>;
}

/** The files a skill's entry must list: every file the directory knows of (the detail's `files`), else its SKILL.md. */
async function expectedPaths(id: string): Promise<string[]> {
  const { data } = await api<{ data: { files?: { path: string }[] } }>(`/api/v1/skills/${id}`);
  if (data.files === undefined) return ['SKILL.md'];
  const paths = data.files.map((f) => f.path).sort();
  // A directory with file lists keeps every file the fixture wrote, no more (skill.json is metadata).
  expect(paths).toEqual(Object.keys(SKILL_FILES[id] ?? { 'SKILL.md': '' }).sort());
  return paths;
}

/** Every page of `skills/list`, following `nextCursor`. */
async function listAll(client: Client): Promise<{ entries: Entry[]; pages: number }> {
  const entries: Entry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.request({ method: 'skills/list', params: cursor === undefined ? {} : { cursor } } as never, ListResult);
    entries.push(...page.skills);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined && pages < 10);
  return { entries, pages };
}

/** The raw bytes of a `resources/read` answer. */
async function readBytes(client: Client, uri: string): Promise<{ bytes: Buffer; mimeType?: string; text: boolean }> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  const item = contents[0]! as { uri: string; mimeType?: string; text?: string; blob?: string };
  expect(item.uri).toBe(uri);
  const bytes = item.text !== undefined ? Buffer.from(item.text, 'utf8') : Buffer.from(item.blob!, 'base64');
  return { bytes, mimeType: item.mimeType, text: item.text !== undefined };
}

async function rpcError(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await request.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(McpError);
  return { code: (error as McpError).code, message: (error as McpError).message };
}

/** Every check of the extension, over a connected client. */
function extensionSuite(connect: () => Promise<Client>) {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it('declares the extension with directoryRead beside tools, resources and prompts', () => {
    const capabilities = client.getServerCapabilities() as Record<string, unknown> & { extensions?: Record<string, unknown> };
    expect(capabilities.extensions?.[EXTENSION]).toEqual({ directoryRead: true });
    expect(Object.keys(capabilities)).toEqual(expect.arrayContaining(['tools', 'resources', 'prompts']));
  });

  it('skills/list pages through every servable skill, by name, each entry a complete manifest', async () => {
    const { entries, pages } = await listAll(client);
    expect(pages).toBe(2);
    const generated = Array.from({ length: GENERATED_SKILLS }, (_, i) => `skill://gen/gen-skill-${String(i + 1).padStart(2, '0')}/SKILL.md`);
    // zed/fancy ("Fancy Name") is no Agent Skills name and zed/long-description's description is
    // over 1,024 characters: left out. acme/pdf-official is named pdf.
    expect(entries.map((e) => e.uri).sort()).toEqual([...generated, 'skill://acme/git-workflow/SKILL.md', 'skill://acme/pdf-official/pdf/SKILL.md'].sort());
    for (const entry of entries) {
      expect(entry.uri.split('/').at(-2)).toBe(entry.frontmatter.name);
      expect(entry.resources.filter((r) => r.uri === entry.uri)).toHaveLength(1);
    }
    const git = entries.find((e) => e.uri === 'skill://acme/git-workflow/SKILL.md')!;
    expect(git.frontmatter).toEqual(frontMatterOf(SKILL_FILES['acme/git-workflow']!['SKILL.md'] as string));
    expect(git.frontmatter).toEqual({ name: 'git-workflow', description: "Follow the team's Git conventions for branches and commits.", license: 'Apache-2.0', metadata: { version: '2.1.0', tags: ['git', 'commits'], updated: '2025-10-20' } });
    const pdf = entries.find((e) => e.uri === 'skill://acme/pdf-official/pdf/SKILL.md')!;
    expect(pdf.frontmatter).toEqual(frontMatterOf(SKILL_FILES['acme/pdf-official']!['SKILL.md'] as string));
  });

  it('every listed file reads back with the listed size and digest; SKILL.md is the raw file, BOM and CRLF included', async () => {
    for (const [id, root] of [['acme/git-workflow', 'skill://acme/git-workflow'], ['acme/pdf-official', 'skill://acme/pdf-official/pdf']] as const) {
      const { skill } = await client.request({ method: 'skills/get', params: { uri: `${root}/SKILL.md` } } as never, GetResult);
      expect(skill.resources.map((r) => r.uri).sort()).toEqual((await expectedPaths(id)).map((p) => `${root}/${p}`).sort());
      for (const ref of skill.resources) {
        const { bytes } = await readBytes(client, ref.uri);
        expect(bytes.length, ref.uri).toBe(ref.size);
        expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`, ref.uri).toBe(ref.digest);
        const written = SKILL_FILES[id]![ref.uri.slice(root.length + 1)]!;
        expect(bytes.equals(Buffer.from(written as string | Uint8Array)), ref.uri).toBe(true);
      }
      const content = await api<{ data: { sha: string; size: number } }>(`/api/v1/skills/${id}/content`);
      expect(skill.resources.find((r) => r.uri === `${root}/SKILL.md`)).toEqual({ uri: `${root}/SKILL.md`, digest: `sha256:${content.data.sha}`, size: content.data.size });
    }
    const skillMd = await readBytes(client, 'skill://acme/git-workflow/SKILL.md');
    expect(skillMd.mimeType).toBe('text/markdown');
    expect(skillMd.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('skills/get answers the listed entry; an unknown, unservable or non-SKILL.md URI is -32602', async () => {
    const { entries } = await listAll(client);
    for (const entry of entries.filter((e) => e.uri.startsWith('skill://acme/'))) {
      expect((await client.request({ method: 'skills/get', params: { uri: entry.uri } } as never, GetResult)).skill).toEqual(entry);
    }
    const get = (uri: string) => rpcError(client.request({ method: 'skills/get', params: { uri } } as never, GetResult));
    expect(await get('skill://acme/nothing/SKILL.md')).toMatchObject({ code: -32602, message: expect.stringContaining('no skill acme/nothing') });
    expect(await get('skill://zed/fancy/SKILL.md')).toMatchObject({ code: -32602, message: expect.stringContaining('"Fancy Name" is not an Agent Skills name') });
    expect(await get('skill://zed/long-description/SKILL.md')).toMatchObject({ code: -32602, message: expect.stringMatching(/description is 1\d{3} characters; the Agent Skills specification allows 1024$/) });
    expect(await get('skill://acme/pdf-official/SKILL.md')).toMatchObject({ code: -32602, message: expect.stringContaining('skill://acme/pdf-official/pdf/SKILL.md') });
    expect(await get('skill://acme/git-workflow/templates/commit.md')).toMatchObject({ code: -32602 });
    expect(await get('https://example.com/SKILL.md')).toMatchObject({ code: -32602 });
  });

  it('a missing or wrongly typed param of an extension method is -32602 naming it, in one line', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['skills/get', {}, 'params.uri: expected a string, got nothing'],
      ['skills/get', { uri: 5 }, 'params.uri: expected a string, got 5'],
      ['skills/list', { cursor: 2 }, 'params.cursor: expected a string, got 2'],
      ['resources/directory/read', {}, 'params.uri: expected a string, got nothing'],
      ['resources/directory/read', { uri: 'skill://acme/git-workflow', cursor: [] }, 'params.cursor: expected a string, got []'],
    ];
    for (const [method, params, message] of cases) {
      const error = await rpcError(client.request({ method, params } as never, z.unknown()));
      expect(error, `${method} ${JSON.stringify(params)}`).toMatchObject({ code: -32602, message: expect.stringContaining(message) });
      expect(error.message).not.toContain('\n');
    }
  });

  it('a cursor not given out is -32602', async () => {
    for (const cursor of ['0', 'abc', '2.5', '99']) {
      const error = await rpcError(client.request({ method: 'skills/list', params: { cursor } } as never, ListResult));
      expect(error.code, cursor).toBe(-32602);
    }
  });

  it('resources/directory/read lists direct children: files, folders as inode/directory; a file or unknown path is -32602', async () => {
    const paths = await expectedPaths('acme/git-workflow');
    const root = await client.request({ method: 'resources/directory/read', params: { uri: 'skill://acme/git-workflow' } } as never, DirectoryResult);
    const top = [...new Set(paths.map((p) => p.split('/')[0]!))].sort();
    expect(root.resources.map((r) => r.uri)).toEqual(top.map((name) => `skill://acme/git-workflow/${name}`));
    for (const child of root.resources) {
      const last = child.uri.split('/').at(-1)!;
      expect(child.mimeType === 'inode/directory', child.uri).toBe(paths.some((p) => p.startsWith(`${last}/`)));
      // The skill's SKILL.md is named and described by its front matter; every other child by its file name.
      expect(child.name).toBe(last === 'SKILL.md' ? 'git-workflow' : last);
    }
    expect(root.resources.find((r) => r.uri.endsWith('/SKILL.md'))).toMatchObject({ description: "Follow the team's Git conventions for branches and commits.", mimeType: 'text/markdown' });
    if (paths.includes('templates/commit.md')) {
      const templates = await client.request({ method: 'resources/directory/read', params: { uri: 'skill://acme/git-workflow/templates' } } as never, DirectoryResult);
      expect(templates.resources).toEqual([
        { uri: 'skill://acme/git-workflow/templates/commit.md', name: 'commit.md', mimeType: 'text/markdown', size: Buffer.byteLength(SKILL_FILES['acme/git-workflow']!['templates/commit.md'] as string) },
        { uri: 'skill://acme/git-workflow/templates/regional', name: 'regional', mimeType: 'inode/directory' },
      ]);
    }
    const above = await client.request({ method: 'resources/directory/read', params: { uri: 'skill://acme/pdf-official' } } as never, DirectoryResult);
    expect(above.resources).toEqual([{ uri: 'skill://acme/pdf-official/pdf', name: 'pdf', mimeType: 'inode/directory' }]);
    const read = (uri: string) => rpcError(client.request({ method: 'resources/directory/read', params: { uri } } as never, DirectoryResult));
    for (const uri of ['skill://acme/git-workflow/SKILL.md', 'skill://acme/git-workflow/nope', 'skill://acme/nothing', 'skill://acme', 'file:///etc']) {
      expect((await read(uri)).code, uri).toBe(-32602);
    }
  });

  it('a skill:// URI outside any skill, or with dot segments, is no resource', async () => {
    for (const uri of ['skill://acme/git-workflow/nope.md', 'skill://acme/git-workflow/templates%2Fcommit.md', 'skill://acme/git-workflow/skill.json', 'skill://acme/nothing/x.md', 'skill://acme/nothing/SKILL.md']) {
      expect((await rpcError(client.readResource({ uri }))).code, uri).toBe(-32602);
    }
    expect((await rpcError(client.readResource({ uri: 'skill://acme/nothing/SKILL.md' }))).message).toContain('no skill acme/nothing');
  });

  it('a skill:// URI\'s segments are percent-decoded, for SKILL.md and the other files alike', async () => {
    const plain = await readBytes(client, 'skill://acme/git-workflow/SKILL.md');
    const encoded = await client.readResource({ uri: 'skill://acme/git-%77orkflow/SKILL.md' });
    expect(Buffer.from((encoded.contents[0] as { text: string }).text, 'utf8').equals(plain.bytes)).toBe(true);
    const file = await readBytes(client, 'skill://acme/git-workflow/templates/commit.md');
    const fileEncoded = await client.readResource({ uri: 'skill://acme/git-%77orkflow/templates/commit.md' });
    expect(Buffer.from((fileEncoded.contents[0] as { text: string }).text, 'utf8').equals(file.bytes)).toBe(true);
  });

  it('the tools, resources and prompt of before are all still there', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('search_skills');
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['skill://{owner}/{repo}/SKILL.md', 'skill://{owner}/{repo}/{+path}']);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['skills-directory://categories']);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['find_skill_for_task']);
    const result = await client.callTool({ name: 'get_skill_content', arguments: { owner: 'acme', repo: 'git-workflow' } });
    expect(result.structuredContent).toEqual(await api('/api/v1/skills/acme/git-workflow/content'));
  });
}

describe('over stdio: skills-api mcp --dir', () => {
  extensionSuite(async () => {
    const client = new Client({ name: 'skills-ext-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--dir', fixture.dir], stderr: 'pipe' }));
    return client;
  });
});

describe('over stdio: skills-api mcp --bundle', () => {
  extensionSuite(async () => {
    const client = new Client({ name: 'skills-ext-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--bundle', fixture.bundle], stderr: 'pipe' }));
    return client;
  });
});

describe('over Streamable HTTP: the Node server at /mcp', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dir: fixture.dir, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('with the SDK client', () => {
    extensionSuite(async () => {
      const client = new Client({ name: 'skills-ext-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      return client;
    });
  });

  it('lists the same tools, skills and answers as stdio', async () => {
    const http = new Client({ name: 'a', version: '1' });
    await http.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const stdio = new Client({ name: 'b', version: '1' });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--dir', fixture.dir], stderr: 'pipe' }));
    try {
      expect((await http.listTools()).tools).toEqual((await stdio.listTools()).tools);
      expect((await listAll(http)).entries).toEqual((await listAll(stdio)).entries);
      const search = { name: 'search_skills', arguments: { q: 'pdf' } };
      const strip = (r: Record<string, unknown>) => ({ ...(r.structuredContent as object), meta: undefined });
      expect(strip(await http.callTool(search))).toEqual(strip(await stdio.callTool(search)));
      expect(http.getServerVersion()).toEqual(stdio.getServerVersion());
    } finally {
      await Promise.all([http.close(), stdio.close()]);
    }
  }, 60_000);

  /** A raw JSON-RPC POST to /mcp. */
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });

  it('answers raw JSON-RPC statelessly: no session id, JSON answers, no initialize needed', async () => {
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect(init.headers.get('content-type')).toMatch(/^application\/json/);
    expect(init.headers.get('cache-control')).toBe('no-store');
    expect(init.headers.get('access-control-allow-origin')).toBe('*');
    const initBody = (await init.json()) as { result: { capabilities: { extensions: Record<string, unknown> } } };
    expect(initBody.result.capabilities.extensions[EXTENSION]).toEqual({ directoryRead: true });
    const list = await post({ jsonrpc: '2.0', id: 2, method: 'skills/list', params: {} });
    const listBody = (await list.json()) as { id: number; result: unknown };
    expect(listBody.id).toBe(2);
    const page = ListResult.parse(listBody.result);
    // The API's first 50 skills by name, less those not servable.
    const apiPage = await api<{ data: { id: string }[] }>('/api/v1/skills?limit=50&sort=name&order=asc');
    const unservable = apiPage.data.filter((s) => s.id === 'zed/fancy' || s.id === 'zed/long-description').length;
    expect(page.skills.length).toBe(50 - unservable);
    expect(page.nextCursor).toBe('2');
    const get = (await (await post({ jsonrpc: '2.0', id: 3, method: 'skills/get', params: { uri: 'skill://nobody/nothing/SKILL.md' } })).json()) as { error: { code: number } };
    expect(get.error.code).toBe(-32602);
  });

  it('GET and DELETE are 405 with Allow; a preflight allows POST from any origin; a body over 1 MiB is 413', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      expect(((await response.json()) as { jsonrpc: string }).jsonrpc).toBe('2.0');
    }
    const preflight = await fetch(`${server.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-protocol-version' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const big = await post({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } });
    expect(big.status).toBe(413);
  });

  it('listening on loopback, another site (Host or Origin) is refused 403: DNS rebinding', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await post(ping, { origin: 'http://evil.example.com' })).status).toBe(403);
    expect((await post(ping, { origin: `http://localhost:${server.port}` })).status).toBe(200);
    // fetch cannot set Host: a raw request can.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/mcp', method: 'POST', headers: { host: 'evil.example.com', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end(JSON.stringify(ping));
    });
    expect(status).toBe(403);
  });

  it('leaves the API routes, their caching and the static files as they were', async () => {
    const list = await fetch(`${server.url}/api/v1/skills`);
    expect(list.status).toBe(200);
    const etag = list.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await fetch(`${server.url}/api/v1/skills`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(`${server.url}/api/v1/skills`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${server.url}/mcp/x`)).status).toBe(404);
  });
});

describe('the rate limit counts MCP requests', () => {
  it('answers 429 past the limit, with X-RateLimit-*', async () => {
    const server = await startServer({ dir: fixture.dir, host: '127.0.0.1', rateLimit: { limit: 2, windowMs: 60_000 } });
    try {
      const ping = () => fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      const statuses = [(await ping()).status, (await ping()).status];
      const third = await ping();
      expect([...statuses, third.status]).toEqual([200, 200, 429]);
      expect(third.headers.get('x-ratelimit-limit')).toBe('2');
    } finally {
      await server.close();
    }
  });
});

describe.runIf(NODE22_SUPPORTED)('third-party checkers on Node 22: the MCP conformance suite and the MCP Inspector\'s SEP-2640 verifier', () => {
  let tools: Node22Tools;
  let server: RunningServer;
  beforeAll(async () => {
    tools = await installNode22Tools(['@modelcontextprotocol/conformance@0.1.16', '@modelcontextprotocol/inspector@2.12.0']);
    server = await startServer({ dir: fixture.dir, host: '127.0.0.1' });
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await tools?.remove();
  });

  // The scenarios that apply to a read-only server with no sessions; the others call the suite's
  // own test tools and resources (test_simple_text, test://static-text), or logging, completion,
  // sampling and elicitation, which this server does not declare.
  it.each(['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'])('%s passes', async (scenario) => {
    const cli = join(tools.dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
    const result = await run(tools.node, [cli, 'server', '--url', `${server.url}/mcp`, '--scenario', scenario], { env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
    const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(result.stdout);
    expect(summary, result.stdout + result.stderr).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThan(0);
    expect(summary![1]).toBe(summary![2]);
    expect(result.code, result.stdout).toBe(0);
  }, 120_000);

  /** `mcp-inspector --cli <target…> --method skills/list --verify`: one report per skill. */
  async function verify(target: string[]): Promise<{ uri: string; ok: boolean; outcome: string; conformance: unknown[]; frontmatter: unknown[]; files: { status: string }[] }[]> {
    const launcher = join(tools.dir, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
    const result = await run(tools.node, [launcher, '--cli', ...target, '--method', 'skills/list', '--verify'], { env: { ...process.env, NO_COLOR: '1' }, timeout: 90_000 });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    return result.stdout.trim().split('\n').map((line) => JSON.parse(line) as never);
  }

  it.each([
    ['over HTTP', () => [`${server.url}/mcp`, '--transport', 'http']],
    ['over stdio', () => [process.execPath, BIN, 'mcp', '--dir', fixture.dir]],
  ])('the Inspector verifies every listed skill %s: conformance, front matter and every file\'s digest', async (_, target) => {
    const reports = await verify(target());
    expect(reports).toHaveLength(GENERATED_SKILLS + 2);
    for (const report of reports) {
      expect(report, report.uri).toMatchObject({ ok: true, outcome: 'verified', conformance: [], frontmatter: [] });
      expect(report.files.every((f) => f.status === 'verified'), report.uri).toBe(true);
    }
    const git = reports.find((r) => r.uri === 'skill://acme/git-workflow/SKILL.md')!;
    expect(git.files).toHaveLength((await expectedPaths('acme/git-workflow')).length);
  }, 120_000);
});
