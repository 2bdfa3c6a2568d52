/**
 * The MCP server (Model Context Protocol, stdio): the directory as tools for an AI agent. Each tool
 * is one endpoint called through the typed client, so its input mirrors the endpoint's parameters
 * (src/query-schemas.ts) and its result is the API's JSON body as text; an API error is a tool
 * error whose text is the API's error body.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SkillsClient } from '../client.ts';
import { isApiError } from '../errors.ts';
import { ListParams, LocaleParams, SearchParams, SkillPathParams } from '../query-schemas.ts';

/** Name the server reports to clients. */
export const MCP_SERVER_NAME = 'skills-directory';

/** An MCP server whose tools answer through `client`. */
export function createMcpServer(client: SkillsClient, version: string): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version });
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

  server.registerTool(
    'search_skills',
    {
      title: 'Search skills',
      description:
        'Full-text search of the skills directory. Query syntax: plain terms (all must match), "an exact phrase", ' +
        'name:term / description:term / content:term to restrict a term to a field, -term to exclude, prefix* for a prefix. ' +
        'Returns {data: results with id, name, description, stars, score and <mark>-highlights, pagination, meta}.',
      inputSchema: SearchParams.shape,
      annotations: readOnly,
    },
    (params) => call(() => client.searchSkills(params)),
  );
  server.registerTool(
    'list_skills',
    {
      title: 'List skills',
      description: 'List skills, paged, sorted (stars, updated or name) and filtered by category slug and platform id. Returns {data: skill summaries, pagination}.',
      inputSchema: ListParams.shape,
      annotations: readOnly,
    },
    (params) => call(() => client.listSkills(params)),
  );
  server.registerTool(
    'get_skill',
    {
      title: 'Get a skill',
      description: 'One skill by owner and repo (its id is "owner/repo"): full description, Markdown instructions, license, author, categories, platforms and install commands.',
      inputSchema: SkillPathParams.shape,
      annotations: readOnly,
    },
    ({ owner, repo }) => call(() => client.getSkill(owner, repo)),
  );
  server.registerTool(
    'get_skill_content',
    {
      title: 'Get a skill\'s SKILL.md',
      description: 'The raw SKILL.md of a skill (front matter included) with its SHA-256 and size in bytes.',
      inputSchema: SkillPathParams.shape,
      annotations: readOnly,
    },
    ({ owner, repo }) => call(() => client.getSkillContent(owner, repo)),
  );
  server.registerTool(
    'list_categories',
    {
      title: 'List categories',
      description: 'Every category with its slug, name, description, skill count and subcategories; use a slug as the category filter of list_skills or search_skills.',
      inputSchema: LocaleParams.shape,
      annotations: readOnly,
    },
    (params) => call(() => client.listCategories(params)),
  );
  return server;
}

/** Serve `client` over stdin/stdout until the input ends. */
export async function serveMcpStdio(client: SkillsClient, version: string): Promise<void> {
  const server = createMcpServer(client, version);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  // The transport does not notice the end of stdin by itself.
  process.stdin.once('end', () => void server.close());
  await closed;
}

/** The API's JSON as the tool result; an API error as a tool error carrying the error body. */
async function call(request: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return { content: [{ type: 'text', text: JSON.stringify(await request()) }] };
  } catch (error) {
    const text = isApiError(error) ? JSON.stringify(error.toBody()) : `Error: ${error instanceof Error ? error.message : String(error)}`;
    return { isError: true, content: [{ type: 'text', text }] };
  }
}
