/**
 * Zod schemas of the query and path parameters of every endpoint, as the handler accepts them
 * (src/params.ts, src/lists.ts, DECISIONS §4). The handler validates with `ParamReader`, not with
 * these: they describe the same rules for the OpenAPI document (build/openapi.ts), the MCP tools'
 * inputs (src/node/mcp.ts) and the typed client's parameter types (src/client.ts, types only, so
 * the runtime path carries no zod). test/openapi.test.ts checks that they agree with the handler.
 */
import { z } from 'zod';
import { CHANGE_CURSOR_RE } from './changes.ts';
import { CHANGES_PAGE_SIZE, LOCALE_RE, MAX_LIMIT, MAX_PAGE, ORDERS, OWNER_RE, REPO_RE, SLUG_RE, SORTS } from './paths.ts';

/** Longest search query (spec "Limits"): the search runtime's own constant. */
export { MAX_QUERY_LENGTH } from './search/options.ts';
import { MAX_QUERY_LENGTH } from './search/options.ts';
/** Most autocomplete suggestions (DECISIONS §4): the search runtime's own constant. */
export { AUTOCOMPLETE_MAX as MAX_SUGGESTIONS } from './search/index.ts';
import { AUTOCOMPLETE_MAX as MAX_SUGGESTIONS } from './search/index.ts';

// `ParamReader.positiveInt` accepts 1–9 decimal digits, `nonNegativeInt` up to 15.
const Page = z.int().min(1).max(MAX_PAGE).describe('1-based page number (default 1); a page past the end answers `data: []`');
const Slug = z.string().regex(SLUG_RE);

/** `owner` and `repo` of `/skills/:owner/:repo[...]`. */
export const SkillPathParams = z.object({
  owner: z.string().regex(OWNER_RE).describe('owner segment of the skill id'),
  repo: z.string().regex(REPO_RE).describe('repo segment of the skill id'),
});
export type SkillPathParams = z.infer<typeof SkillPathParams>;

/** `:slug` of `/categories/:slug[...]`. */
export const CategoryPathParams = z.object({
  slug: Slug.describe('category slug (top-level or subcategory)'),
});
export type CategoryPathParams = z.infer<typeof CategoryPathParams>;

/** Query of `GET /skills` and `GET /categories/:slug/skills`. */
export const ListParams = z.object({
  page: Page.optional(),
  limit: z.int().min(1).max(MAX_LIMIT).optional().describe(`items per page (default 20, at most ${MAX_LIMIT})`),
  sort: z.enum(SORTS).optional().describe('sort key (default stars); ties break by id'),
  order: z.enum(ORDERS).optional().describe('sort order (default desc)'),
  category: Slug.optional().describe('only skills of this category or one of its subcategories'),
  platform: Slug.optional().describe('only skills supporting this platform id'),
});
export type ListParams = z.infer<typeof ListParams>;

/** Query of `GET /skills/search`. `hasMarketplace` is accepted by the API as an alias of `hasIndex`. */
export const SearchParams = z.object({
  q: z.string().max(MAX_QUERY_LENGTH).describe('search query: terms, "a phrase", name:term, description:term, content:term, -term, prefix*'),
  page: Page.optional(),
  limit: z.int().min(1).max(MAX_LIMIT).optional().describe(`results per page (default 20, at most ${MAX_LIMIT})`),
  category: Slug.optional().describe('only skills of this category or one of its subcategories'),
  platform: Slug.optional().describe('only skills supporting this platform id'),
  minStars: z.int().min(0).max(999_999_999_999_999).optional().describe('only skills with at least this many stars'),
  hasIndex: z.boolean().optional().describe('only skills that have (true) or lack (false) a .claude-plugin/marketplace.json'),
});
export type SearchParams = z.infer<typeof SearchParams>;

/** Query of `GET /skills/autocomplete`. */
export const AutocompleteParams = z.object({
  q: z.string().max(MAX_QUERY_LENGTH).describe('partial query; the last word is completed (empty: no suggestions)'),
  limit: z.int().min(1).max(MAX_SUGGESTIONS).optional().describe(`most suggestions (default 5, at most ${MAX_SUGGESTIONS})`),
});
export type AutocompleteParams = z.infer<typeof AutocompleteParams>;

/** Query of `GET /categories` and `GET /categories/:slug`. */
export const LocaleParams = z.object({
  locale: z
    .string()
    .regex(LOCALE_RE)
    .optional()
    .describe('language code (default en); a well-formed code without translation falls back to its language, then en'),
});
export type LocaleParams = z.infer<typeof LocaleParams>;

/** Query of `GET /changes` (src/changes.ts). */
export const ChangesParams = z.object({
  since: z
    .string()
    .regex(CHANGE_CURSOR_RE)
    .optional()
    .describe('a cursor of this log (an entry\'s `cursor` or a `meta.cursor`; `0` is the start): only entries after it. Default: from the start'),
  limit: z.int().min(1).max(CHANGES_PAGE_SIZE).optional().describe(`entries per page (default and at most ${CHANGES_PAGE_SIZE})`),
});
export type ChangesParams = z.infer<typeof ChangesParams>;
