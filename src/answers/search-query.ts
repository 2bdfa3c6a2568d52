/**
 * The HTTP edge of search and autocomplete: their query parameters, read by the endpoint table's
 * specs (src/endpoints.ts `SEARCH_QUERY`, `AUTOCOMPLETE_QUERY`) into the typed options the search
 * engine takes (src/search/index.ts knows nothing of URLs).
 */
import { AUTOCOMPLETE_QUERY, SEARCH_QUERY } from '../endpoints.ts';
import { ApiError } from '../errors.ts';
import type { Manifest } from '../manifest.ts';
import { readQuery, type ValuesOf } from '../param-spec.ts';
import type { AutocompleteQuery, SearchQuery } from '../search/index.ts';

/**
 * Endpoint 5's options from its validated parameters (`SEARCH_QUERY`): `hasMarketplace` is
 * another name of `hasIndex`, and the two may not disagree.
 */
export function searchOptions(values: ValuesOf<typeof SEARCH_QUERY>): SearchQuery {
  const { q, page, limit, category, platform, minStars, hasIndex, hasMarketplace } = values;
  if (hasIndex !== undefined && hasMarketplace !== undefined && hasIndex !== hasMarketplace) {
    const message = 'hasMarketplace is another name of hasIndex: give one of them, or both with the same value';
    throw new ApiError('INVALID_PARAMS', `Invalid query parameter: ${message}`, { details: { params: [{ param: 'hasMarketplace', message }] } });
  }
  return { q, page, limit, category, platform, minStars, hasIndex: hasIndex ?? hasMarketplace };
}

/** Endpoint 5's parameters read and checked: one INVALID_PARAMS naming every bad parameter. */
export function readSearchQuery(params: URLSearchParams, manifest: Pick<Manifest, 'categories' | 'platforms'>): SearchQuery {
  return searchOptions(readQuery(SEARCH_QUERY, params, manifest));
}

/** Endpoint 6's parameters (`q`, `limit`) read and checked. */
export function readAutocompleteQuery(params: URLSearchParams): AutocompleteQuery {
  const { q, limit } = readQuery(AUTOCOMPLETE_QUERY, params, null);
  return { q, limit };
}
