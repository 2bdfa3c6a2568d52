/**
 * The MCP server (Model Context Protocol, stdio): the directory for an AI agent.
 *
 * - **Tools**, one per endpoint of the table that names one (src/endpoints.ts `mcp`), called through the typed client (so every answer is the API's),
 *   plus `get_install_command`. Each declares an `outputSchema` (the API's response schema,
 *   src/schemas.ts) and returns the answer as `structuredContent`; its text is the readable form the
 *   CLI prints (no HTML, no raw scores), since agents read text. Search results lose their
 *   `<mark>` highlights in both. An API error is a tool error with the API's code and message; a
 *   source that cannot be reached says which one.
 * - **Resources**: `skill://{owner}/{repo}/SKILL.md` (a template: the raw SKILL.md of any skill)
 *   and `skills-directory://categories` (the category tree as JSON).
 * - **Prompts**: `find_skill_for_task`.
 * - **Skills**: the MCP Skills Extension (SEP-2640): `skills/list`, `skills/get`, every file of a
 *   skill as a `skill://` resource, `resources/directory/read` (src/node/mcp-skills.ts).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ResponseOf, SkillsClient } from '../client.ts';
import { ENDPOINT_DOCS } from '../endpoint-docs.ts';
import { endpointList, type ENDPOINTS, type EndpointName } from '../endpoints.ts';
import { isApiError } from '../errors.ts';
import { zodQuery } from '../param-zod.ts';
import { SkillPathParams } from '../query-schemas.ts';
import * as S from '../schemas.ts';
import type { SearchResponse as SearchBody } from '../schemas.ts';
import { formatCategories, formatCategory, formatSearch, formatSkill, formatSkillList } from './cli-output.ts';
import type { Turns } from '../fair.ts';
import { parseSkillUri, registerSkillsExtension } from './mcp-skills.ts';
import { count, oneLine, sanitize, styleFor } from './terminal-text.ts';

/** Name the server reports to clients. */
export const MCP_SERVER_NAME = 'skills-directory';

/** Plain text: no terminal emphasis. */
const PLAIN = { style: styleFor({ isTTY: false }, {}) };

/** `get_install_command`'s answer. */
const InstallCommand = z.object({
  id: z.string(),
  platform: z.string(),
  command: z.string(),
  platforms: z.array(z.string()).describe('every platform the skill has a command for'),
});

/**
 * An MCP server whose tools answer through `client`. `source` names where the answers come from
 * (a URL, a bundle or a folder), for errors; `skillLoads`, shared by servers made per request,
 * bounds the skills they describe at once (src/node/mcp-skills.ts).
 */
export function createMcpServer(client: SkillsClient, version: string, source = 'the directory', skillLoads?: Turns): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version });
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
  const call = <T extends object>(request: () => Promise<T>, text: (body: T) => string, shape: (body: T) => object = (b) => b) =>
    toolResult(request, text, shape, source);
  /** The readable text of each tool's answer (JSON for an endpoint without one). */
  const TEXT: { [K in EndpointName]?: (body: ResponseOf<(typeof ENDPOINTS)[K]>) => string } = {
    searchSkills: (b) => formatSearch(b, PLAIN),
    autocomplete: (b) => (b.data.length === 0 ? 'No completions.\n' : b.data.map((s) => `${oneLine(s.text)} (${count(s.count)})\n`).join('')),
    listSkills: (b) => formatSkillList(b, PLAIN),
    getSkill: (b) => `${formatSkill(b.data, PLAIN)}\n${sanitize(b.data.content)}\n`,
    getSkillContent: (b) => sanitize(b.data.content),
    getSkillStats: ({ data: s }) =>
      `${count(s.views)} views, ${count(s.installs)} installs, ${count(s.favorites)} favorites\n` +
      (s.starHistory.length === 0 ? 'No star history.\n' : s.starHistory.map((p) => `${p.date}: ${count(p.stars)} stars\n`).join('')),
    listCategories: (b) => formatCategories(b.data, PLAIN),
    getCategory: (b) => formatCategory(b.data, PLAIN),
    listCategorySkills: (b) => formatSkillList(b, PLAIN),
    listChanges: (b) =>
      (b.data.length === 0 ? 'No changes.\n' : b.data.map((e) => `${e.at} ${e.change} ${oneLine(e.id)}\n`).join('')) +
      `${b.pagination.hasMore ? 'More changes follow; ask' : 'Up to date; ask later'} with since=${b.meta.cursor}\n`,
  };
  /** The structured content of a tool whose answer is not the API's body as it is. */
  const SHAPES: { [K in EndpointName]?: (body: ResponseOf<(typeof ENDPOINTS)[K]>) => object } = {
    searchSkills: withoutHighlights,
  };

  // One tool per endpoint the table gives one (src/endpoints.ts `mcp`): its parameters in, the
  // API's response schema out, answered by the client method of the same endpoint.
  for (const [name, endpoint] of endpointList()) {
    if (endpoint.mcp === undefined || typeof endpoint.response !== 'string') continue;
    const { tool, omit = [] } = endpoint.mcp;
    const { title, description } = ENDPOINT_DOCS[name as EndpointName].mcp!;
    const pathNames = Object.keys(endpoint.pathParams);
    const query = Object.fromEntries(Object.entries(endpoint.query).filter(([param]) => !omit.includes(param)));
    const method = client[name as keyof SkillsClient] as (...args: unknown[]) => Promise<object>;
    const text = (TEXT as Record<string, ((body: object) => string) | undefined>)[name] ?? ((body: object) => `${JSON.stringify(body, null, 2)}\n`);
    server.registerTool(
      tool,
      {
        title,
        description,
        inputSchema: { ...zodQuery(endpoint.pathParams).shape, ...zodQuery(query).shape },
        outputSchema: (S[endpoint.response] as z.ZodObject).shape,
        annotations: readOnly,
      },
      (args: Record<string, unknown>) => {
        const params = Object.fromEntries(Object.entries(args).filter(([param]) => !pathNames.includes(param)));
        return call(() => method(...pathNames.map((param) => args[param]), params), text, (SHAPES as Record<string, ((body: object) => object) | undefined>)[name]);
      },
    );
  }
  server.registerTool(
    'get_install_command',
    {
      title: 'How to install a skill',
      description: 'The install instruction of a skill for one platform (claude-code, codex, chatgpt, …): a shell command or a plain-language instruction.',
      inputSchema: { ...SkillPathParams.shape, platform: z.string().min(1).max(100).describe('platform id, e.g. claude-code or codex') },
      outputSchema: InstallCommand.shape,
      annotations: readOnly,
    },
    ({ owner, repo, platform }) =>
      call(
        async () => {
          const { data } = await client.getSkill(owner, repo);
          const platforms = Object.keys(data.installCommands).sort();
          // Own keys only: `toString` or `__proto__` is no platform.
          const command = Object.hasOwn(data.installCommands, platform) ? data.installCommands[platform] : undefined;
          if (command === undefined) throw new ToolError(`${data.id} has no install command for ${JSON.stringify(platform)}; it has: ${platforms.join(', ') || 'none'}`);
          return { id: data.id, platform, command, platforms };
        },
        (b) => `${sanitize(b.command)}\n`,
      ),
  );
  server.registerResource(
    'skill',
    new ResourceTemplate('skill://{owner}/{repo}/SKILL.md', { list: undefined }),
    { title: "A skill's SKILL.md", description: 'The raw SKILL.md of the skill owner/repo', mimeType: 'text/markdown' },
    async (uri) => {
      // Segments are percent-encoded in a skill URI (docs/mcp.md); an unknown skill is an unknown resource.
      const [owner, repo] = parseSkillUri(uri.href) ?? [];
      if (owner === undefined || repo === undefined) throw new McpError(ErrorCode.InvalidParams, `Resource ${uri.href} not found`);
      try {
        const { data } = await client.getSkillContent(owner, repo);
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: data.content }] };
      } catch (error) {
        if (isApiError(error) && error.status === 404) throw new McpError(ErrorCode.InvalidParams, `Resource ${uri.href} not found: no skill ${owner}/${repo}`);
        throw error;
      }
    },
  );
  server.registerResource(
    'categories',
    'skills-directory://categories',
    { title: 'Categories', description: 'The category tree of the directory (JSON)', mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify((await client.listCategories()).data) }] }),
  );
  registerSkillsExtension(server, client, source, skillLoads);

  server.registerPrompt(
    'find_skill_for_task',
    {
      title: 'Find a skill for a task',
      description: 'Find the skills of the directory that fit a task, and how to install the best one',
      argsSchema: {
        task: z.string().min(1).max(2000).describe('what the skill should help with'),
        platform: z.string().max(100).optional().describe('where it will run, e.g. claude-code or codex'),
      },
    },
    ({ task, platform }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Find a skill in the skills directory for this task: ${task}\n\n` +
              'Search with search_skills using two or three key terms of the task (try a phrase in quotes or name:term when ' +
              'a first search finds too much, fewer terms when it finds nothing). Read the best two or three results with ' +
              'get_skill, compare what their instructions cover, and recommend one, saying why. ' +
              `Then give its install instruction with get_install_command${platform === undefined ? '' : ` for the platform ${platform}`}.`,
          },
        },
      ],
    }),
  );
  return server;
}

/** Serve `client` over stdin/stdout until the input ends. */
export async function serveMcpStdio(client: SkillsClient, version: string, source?: string): Promise<void> {
  const server = createMcpServer(client, version, source);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  // The transport does not notice the end of stdin by itself.
  process.stdin.once('end', () => void server.close());
  await closed;
}

/** A tool failure whose message is for the agent as it is. */
class ToolError extends Error {}

/** Search results without their `<mark>` highlights (HTML is for pages, not agents). */
function withoutHighlights(body: SearchBody): object {
  return { ...body, data: body.data.map(({ highlights: _, ...result }) => result) };
}

/** The answer as structured content and readable text; a failure as a tool error that says what failed. */
async function toolResult<T extends object>(request: () => Promise<T>, text: (body: T) => string, shape: (body: T) => object, source: string): Promise<CallToolResult> {
  try {
    const body = await request();
    return { structuredContent: shape(body) as Record<string, unknown>, content: [{ type: 'text', text: text(body) }] };
  } catch (error) {
    let message: string;
    if (isApiError(error)) message = `${error.code} (${error.status}): ${error.message}`;
    else if (error instanceof ToolError) message = error.message;
    else if (error instanceof TypeError && error.message === 'fetch failed') {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      message = `Cannot reach ${source}${cause === undefined ? '' : `: ${cause}`}`;
    } else message = `Failed reading ${source}: ${error instanceof Error ? error.message : String(error)}`;
    return { isError: true, content: [{ type: 'text', text: message }] };
  }
}
