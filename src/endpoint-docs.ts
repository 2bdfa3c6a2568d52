/**
 * The words of the endpoint table (src/endpoints.ts), by the same names: each route's summary and
 * description, and its MCP tool's title and description. Apart from the table because every
 * runtime bundle carries the table, and none of them reads these: the Service Worker's `sw.js` is
 * fetched before a cold search, and these were 1.3 KiB of it gzipped (BENCHMARKS.md). Their
 * readers are the OpenAPI document (builder/openapi.ts) and the MCP tools (src/node/mcp.ts).
 */
import type { EndpointName } from './endpoints.ts';

/** The words of one route. */
export interface EndpointDocs {
  readonly summary: string;
  readonly description: string;
  /** Those of its MCP tool, for a route with one (`Endpoint.mcp`). */
  readonly mcp?: { readonly title: string; readonly description: string };
}

/** Every route's words, by its name in the table. */
export const ENDPOINT_DOCS: { readonly [K in EndpointName]: EndpointDocs } = {
  listSkills: {
    summary: 'List skills',
    description: 'Every skill, paged, sorted and filtered by category (subcategories included) and platform.',
    mcp: {
      title: 'List skills',
      description: 'List skills, paged, sorted (stars, updated or name) and filtered by category slug and platform id.',
    },
  },
  searchSkills: {
    summary: 'Search skills',
    description:
      'Full-text search with the query syntax `term`, `"a phrase"`, `name:term` (also `description:`, `content:`), `-term`, `prefix*`; ' +
      'every positive clause must match. Results are ordered by `score` (exact full terms, field weight, stars, recency), ties by id. ' +
      'Highlights wrap matched words in `<mark>`…`</mark>`; everything else in them is HTML-escaped. ' +
      '`hasMarketplace` is accepted as an alias of `hasIndex`.',
    mcp: {
      title: 'Search skills',
      description:
        'Full-text search of the skills directory; a plain sentence works ("merge several PDF files into one"). ' +
        'Query syntax: plain terms (other forms and synonyms of a word match too; when fewer than 10 skills hold every term, the skills holding the most follow them and meta.relaxed is true), "an exact phrase", ' +
        'name:term / description:term / content:term to restrict a term to a field, -term to exclude, prefix* for a prefix. ' +
        'Results are ranked by relevance; each has id ("owner/repo"), name, description and stars.',
    },
  },
  autocomplete: {
    summary: 'Autocomplete a query',
    description: 'Completions of the last word of `q`, each with the number of skills matching the completed query; by count, then text.',
    mcp: {
      title: 'Complete a search query',
      description: 'Completions of the last word of a partial query, each with the number of skills the completed query finds.',
    },
  },
  getSkill: {
    summary: 'Get a skill',
    description: 'The skill detail: the summary fields with the full description, the Markdown body and repository metadata.',
    mcp: {
      title: 'Get a skill',
      description: 'One skill by owner and repo (its id is "owner/repo"): full description, Markdown instructions, license, author, categories, platforms, install commands and, for imported skills, its source repository.',
    },
  },
  getSkillFile: {
    summary: 'Get one file of a skill',
    description:
      "The raw bytes of one file of the skill's folder (`path` as the detail's `files` lists it), with its media type, an ETag from its SHA-256, " +
      'and `Content-Security-Policy: sandbox`. A static file at the same path. `..`, encoded separators, NUL and double encoding are NOT_FOUND.',
  },
  getSkillArchive: {
    summary: 'Get the skill folder as a .tar.gz',
    description: "Every file of the skill's folder as a deterministic ustar `.tar.gz` (sorted entries, time 0, owner 0, modes 0644/0755); size and SHA-256 in the detail's `archive`.",
  },
  getSkillContent: {
    summary: 'Get the raw SKILL.md',
    description: 'The raw SKILL.md text, front matter included, with its SHA-256 hex and byte size.',
    mcp: {
      title: "Get a skill's SKILL.md",
      description: 'The raw SKILL.md of a skill (front matter included) with its SHA-256 and size in bytes.',
    },
  },
  getSkillStats: {
    summary: 'Get usage statistics',
    description: 'Views, installs, favorites and the star history (dates ascending).',
    mcp: {
      title: "Get a skill's usage statistics",
      description: 'Views, installs, favorites and the star history (date and stars, oldest first) of a skill.',
    },
  },
  listCategories: {
    summary: 'List categories',
    description: 'Every top-level category with its subcategories and skill counts, in the requested language.',
    mcp: {
      title: 'List categories',
      description: 'Every category with its slug, name, description, skill count and subcategories; use a slug as the category filter of list_skills or search_skills.',
    },
  },
  getCategory: {
    summary: 'Get a category',
    description: 'One category or subcategory with its 5 most-starred skills (`topSkills`, ties by id).',
    mcp: {
      title: 'Get a category',
      description: 'One category (top-level or subcategory) with its subcategories and its five most-starred skills.',
    },
  },
  listCategorySkills: {
    summary: 'List the skills of a category',
    description: 'Like `GET /skills?category={slug}`; a `category` parameter narrows further (intersection).',
    mcp: {
      title: "List a category's skills",
      description: 'The skills of one category (and its subcategories), paged, sorted and filtered like list_skills.',
    },
  },
  listChanges: {
    summary: 'The change log',
    description:
      'Every skill added, updated (its files or descriptive metadata changed) or removed, oldest first, as the builds saw them; ' +
      'entries only ever append. `meta.cursor` is the `since` of the next request: from it the answer holds only newer entries ' +
      '(none: `data: []`, the same cursor). A removed skill keeps its entries; its detail is 404. ' +
      'A cursor this log does not hold (another directory, a log started over) is INVALID_PARAMS naming `since`: start again without it.',
    mcp: {
      title: 'List changes to the directory',
      description:
        'The change log, oldest first: each entry says a skill (id "owner/repo") was added, updated or removed, when, and its state hash. ' +
        'Pass meta.cursor of an answer as since to get only what changed after it; no since starts from the beginning.',
    },
  },
  compatSearch: {
    summary: 'Search, in the shape of the open skills CLI',
    description:
      'A compatibility route for the `skills` CLI (`SKILLS_API_URL`): the search of `/api/v1/skills/search` (same syntax and errors) ' +
      "answered as `{ skills: [{ id, name, source, installs }] }`; `owner` keeps one owner's skills among the best 100 matches.",
  },
  mcp: {
    summary: 'MCP over Streamable HTTP (Node server)',
    description:
      'The directory as MCP tools, resources, a prompt and skills (the Skills Extension), stateless: POST JSON-RPC messages, ' +
      'each answered as JSON, never an event stream; GET and DELETE are 405 (no sessions). Answered by the Node server only; ' +
      'a server listening on loopback refuses a Host or Origin naming another machine (403). docs/mcp.md.',
  },
};
