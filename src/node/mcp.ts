/**
 * The MCP server (Model Context Protocol, stdio): the directory for an AI agent.
 *
 * - **Tools**, one per endpoint, called through the typed client (so every answer is the API's),
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
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { SkillsClient } from '../client.ts';
import { isApiError } from '../errors.ts';
import { AutocompleteParams, CategoryPathParams, ChangesParams, ListParams, LocaleParams, SearchParams, SkillPathParams } from '../query-schemas.ts';
import {
  AutocompleteResponse,
  CategoryDetailResponse,
  CategoryListResponse,
  ChangesResponse,
  SearchResponse,
  SkillContentResponse,
  SkillDetailResponse,
  SkillListResponse,
  SkillStatsResponse,
  type SearchResponse as SearchBody,
} from '../schemas.ts';
import { formatCategories, formatCategory, formatSearch, formatSkill, formatSkillList } from './cli-output.ts';
import type { Turns } from '../fair.ts';
import { registerSkillsExtension } from './mcp-skills.ts';
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
    answer(request, text, shape, source);

  server.registerTool(
    'search_skills',
    {
      title: 'Search skills',
      description:
        'Full-text search of the skills directory; a plain sentence works ("merge several PDF files into one"). ' +
        'Query syntax: plain terms (other forms and synonyms of a word match too; when no skill holds every term, the skills holding the most are listed and meta.relaxed is true), "an exact phrase", ' +
        'name:term / description:term / content:term to restrict a term to a field, -term to exclude, prefix* for a prefix. ' +
        'Results are ranked by relevance; each has id ("owner/repo"), name, description and stars.',
      inputSchema: { ...SearchParams.shape, hasMarketplace: z.boolean().optional().describe('the same filter as hasIndex') },
      outputSchema: SearchResponse.shape,
      annotations: readOnly,
    },
    ({ hasMarketplace, ...params }) =>
      call(() => client.searchSkills({ ...params, ...(params.hasIndex === undefined && hasMarketplace !== undefined ? { hasIndex: hasMarketplace } : {}) }), (b) => formatSearch(b, PLAIN), withoutHighlights),
  );
  server.registerTool(
    'autocomplete',
    {
      title: 'Complete a search query',
      description: 'Completions of the last word of a partial query, each with the number of skills the completed query finds.',
      inputSchema: AutocompleteParams.shape,
      outputSchema: AutocompleteResponse.shape,
      annotations: readOnly,
    },
    (params) => call(() => client.autocomplete(params), (b) => (b.data.length === 0 ? 'No completions.\n' : b.data.map((s) => `${oneLine(s.text)} (${count(s.count)})\n`).join(''))),
  );
  server.registerTool(
    'list_skills',
    {
      title: 'List skills',
      description: 'List skills, paged, sorted (stars, updated or name) and filtered by category slug and platform id.',
      inputSchema: ListParams.shape,
      outputSchema: SkillListResponse.shape,
      annotations: readOnly,
    },
    (params) => call(() => client.listSkills(params), (b) => formatSkillList(b, PLAIN)),
  );
  server.registerTool(
    'get_skill',
    {
      title: 'Get a skill',
      description: 'One skill by owner and repo (its id is "owner/repo"): full description, Markdown instructions, license, author, categories, platforms, install commands and, for imported skills, its source repository.',
      inputSchema: SkillPathParams.shape,
      outputSchema: SkillDetailResponse.shape,
      annotations: readOnly,
    },
    ({ owner, repo }) => call(() => client.getSkill(owner, repo), (b) => `${formatSkill(b.data, PLAIN)}\n${sanitize(b.data.content)}\n`),
  );
  server.registerTool(
    'get_skill_content',
    {
      title: "Get a skill's SKILL.md",
      description: 'The raw SKILL.md of a skill (front matter included) with its SHA-256 and size in bytes.',
      inputSchema: SkillPathParams.shape,
      outputSchema: SkillContentResponse.shape,
      annotations: readOnly,
    },
    ({ owner, repo }) => call(() => client.getSkillContent(owner, repo), (b) => sanitize(b.data.content)),
  );
  server.registerTool(
    'get_skill_stats',
    {
      title: "Get a skill's usage statistics",
      description: 'Views, installs, favorites and the star history (date and stars, oldest first) of a skill.',
      inputSchema: SkillPathParams.shape,
      outputSchema: SkillStatsResponse.shape,
      annotations: readOnly,
    },
    ({ owner, repo }) =>
      call(
        () => client.getSkillStats(owner, repo),
        ({ data: s }) =>
          `${count(s.views)} views, ${count(s.installs)} installs, ${count(s.favorites)} favorites\n` +
          (s.starHistory.length === 0 ? 'No star history.\n' : s.starHistory.map((p) => `${p.date}: ${count(p.stars)} stars\n`).join('')),
      ),
  );
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
          const command = data.installCommands[platform];
          if (command === undefined) throw new ToolError(`${data.id} has no install command for ${JSON.stringify(platform)}; it has: ${platforms.join(', ') || 'none'}`);
          return { id: data.id, platform, command, platforms };
        },
        (b) => `${sanitize(b.command)}\n`,
      ),
  );
  server.registerTool(
    'list_categories',
    {
      title: 'List categories',
      description: 'Every category with its slug, name, description, skill count and subcategories; use a slug as the category filter of list_skills or search_skills.',
      inputSchema: LocaleParams.shape,
      outputSchema: CategoryListResponse.shape,
      annotations: readOnly,
    },
    (params) => call(() => client.listCategories(params), (b) => formatCategories(b.data, PLAIN)),
  );
  server.registerTool(
    'get_category',
    {
      title: 'Get a category',
      description: 'One category (top-level or subcategory) with its subcategories and its five most-starred skills.',
      inputSchema: { ...CategoryPathParams.shape, ...LocaleParams.shape },
      outputSchema: CategoryDetailResponse.shape,
      annotations: readOnly,
    },
    ({ slug, ...params }) => call(() => client.getCategory(slug, params), (b) => formatCategory(b.data, PLAIN)),
  );
  server.registerTool(
    'list_category_skills',
    {
      title: "List a category's skills",
      description: 'The skills of one category (and its subcategories), paged, sorted and filtered like list_skills.',
      inputSchema: { ...CategoryPathParams.shape, ...ListParams.omit({ category: true }).shape },
      outputSchema: SkillListResponse.shape,
      annotations: readOnly,
    },
    ({ slug, ...params }) => call(() => client.listCategorySkills(slug, params), (b) => formatSkillList(b, PLAIN)),
  );

  server.registerTool(
    'list_changes',
    {
      title: 'List changes to the directory',
      description:
        'The change log, oldest first: each entry says a skill (id "owner/repo") was added, updated or removed, when, and its state hash. ' +
        'Pass meta.cursor of an answer as since to get only what changed after it; no since starts from the beginning.',
      inputSchema: ChangesParams.shape,
      outputSchema: ChangesResponse.shape,
      annotations: readOnly,
    },
    (params) =>
      call(
        () => client.listChanges(params),
        (b) =>
          (b.data.length === 0 ? 'No changes.\n' : b.data.map((e) => `${e.at} ${e.change} ${oneLine(e.id)}\n`).join('')) +
          `${b.pagination.hasMore ? 'More changes follow; ask' : 'Up to date; ask later'} with since=${b.meta.cursor}\n`,
      ),
  );
  server.registerResource(
    'skill',
    new ResourceTemplate('skill://{owner}/{repo}/SKILL.md', { list: undefined }),
    { title: "A skill's SKILL.md", description: 'The raw SKILL.md of the skill owner/repo', mimeType: 'text/markdown' },
    async (uri, { owner, repo }) => {
      const { data } = await client.getSkillContent(String(owner), String(repo));
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: data.content }] };
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
async function answer<T extends object>(request: () => Promise<T>, text: (body: T) => string, shape: (body: T) => object, source: string): Promise<CallToolResult> {
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
