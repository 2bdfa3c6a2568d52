/**
 * Zod schemas of the query and path parameters of the endpoints, made from the endpoint table's
 * declarations (src/endpoints.ts, src/param-zod.ts): for the MCP tools' inputs, the benchmarks and
 * tests that want a schema object. The types are the table's (`ParamsOf`), so the typed client
 * carries no zod.
 */
import { AUTOCOMPLETE_QUERY, CHANGES_QUERY, ENDPOINTS, LIST_QUERY, LOCALE_QUERY, SEARCH_QUERY } from './endpoints.ts';
import type { ParamsOf } from './param-spec.ts';
import { zodQuery } from './param-zod.ts';

/** Longest search query and most autocomplete suggestions (docs/api.md "Limits"). */
export { MAX_QUERY_LENGTH, AUTOCOMPLETE_MAX as MAX_SUGGESTIONS } from './endpoints.ts';

/** `owner` and `repo` of `/skills/:owner/:repo[...]`. */
export const SkillPathParams = zodQuery(ENDPOINTS.getSkill.pathParams);
export type SkillPathParams = ParamsOf<typeof ENDPOINTS.getSkill.pathParams>;

/** `:slug` of `/categories/:slug[...]`. */
export const CategoryPathParams = zodQuery(ENDPOINTS.getCategory.pathParams);
export type CategoryPathParams = ParamsOf<typeof ENDPOINTS.getCategory.pathParams>;

/** Query of `GET /skills` and `GET /categories/:slug/skills`. */
export const ListParams = zodQuery(LIST_QUERY);
export type ListParams = ParamsOf<typeof LIST_QUERY>;

/** Query of `GET /skills/search`. `hasMarketplace` is another name of `hasIndex`. */
export const SearchParams = zodQuery(SEARCH_QUERY);
export type SearchParams = ParamsOf<typeof SEARCH_QUERY>;

/** Query of `GET /skills/autocomplete`. */
export const AutocompleteParams = zodQuery(AUTOCOMPLETE_QUERY);
export type AutocompleteParams = ParamsOf<typeof AUTOCOMPLETE_QUERY>;

/** Query of `GET /categories` and `GET /categories/:slug`. */
export const LocaleParams = zodQuery(LOCALE_QUERY);
export type LocaleParams = ParamsOf<typeof LOCALE_QUERY>;

/** Query of `GET /changes` (src/changes.ts). */
export const ChangesParams = zodQuery(CHANGES_QUERY);
export type ChangesParams = ParamsOf<typeof CHANGES_QUERY>;
