/**
 * Skill lists (endpoints 1 and 9) at any page and limit, with any combination of filters, computed
 * from the pre-built 20-item pages: a single list reads only the pages covering the requested
 * range; a category or platform list in order `asc`, which has no pages of its own (src/paths.ts
 * `hasListPages`), maps the range of its `asc` ordinals to positions in its `desc` ordinals and
 * reads the `desc` pages holding them; combined filters intersect the lists' ordinals files and
 * then read only the summaries of the requested range (`listOrdinalsPath`, `ordinalLocation`).
 */
import { ApiError } from './errors.ts';
import type { Loader } from './loader.ts';
import type { Manifest } from './manifest.ts';
import { LIST_QUERY, listFilters } from './endpoints.ts';
import { readQuery } from './param-spec.ts';
import {
  PAGE_SIZE,
  hasListPages,
  listKey,
  listOrdinalsPath,
  listPagePath,
  ordinalLocation,
  type ListFilter,
  type Order,
  type Sort,
} from './paths.ts';
import type { SkillListResponse, SkillSummary } from './schemas.ts';

/** A validated list request. `filters` are intersected; none means every skill. */
export interface ListQuery {
  page: number;
  limit: number;
  sort: Sort;
  order: Order;
  filters: ListFilter[];
}

/**
 * Read `page`, `limit`, `sort`, `order`, `category` and `platform`, throwing one INVALID_PARAMS
 * naming every bad parameter. With a manifest, `category` and `platform` must be known; without
 * one (static path mapping) they need only be well-formed. `scope` is the `:slug` of
 * `/categories/:slug/skills`, intersected with the filters.
 */
export function readListQuery(params: URLSearchParams, manifest: Manifest | null, scope?: string): ListQuery {
  const { page, limit, sort, order, category, platform } = readQuery(LIST_QUERY, params, manifest);
  return { page, limit, sort, order, filters: listFilters(scope, category, platform) };
}

/** The body of a list answer: the requested page of summaries and its pagination. */
export async function answerList(load: Loader, manifest: Manifest, query: ListQuery): Promise<SkillListResponse> {
  const { page, limit, sort, order, filters } = query;
  const start = (page - 1) * limit;
  if (filters.length <= 1) {
    const filter: ListFilter = filters[0] ?? { kind: 'all' };
    const total = listTotal(manifest, filter);
    const end = Math.min(start + limit, total);
    let data: SkillSummary[] = [];
    if (start < end) {
      data = hasListPages(filter, order)
        ? await readRange(load, (p) => listPagePath(filter, sort, order, p), start, end)
        : await readFromDescPages(load, filter, sort, order, start, end);
    }
    return { data, pagination: pagination(page, limit, total) };
  }
  // Iterate the smallest list (already in the requested order), keep what every other list holds.
  const sizes = filters.map((f) => listTotal(manifest, f));
  const smallest = sizes.indexOf(Math.min(...sizes));
  const lists = await Promise.all(filters.map((f) => readOrdinals(load, listOrdinalsPath(f, sort, order))));
  const others = lists.filter((_, i) => i !== smallest).map((ordinals) => new Set(ordinals));
  const matched = lists[smallest]!.filter((n) => others.every((set) => set.has(n)));
  const data = await readItems(load, matched.slice(start, start + limit).map(ordinalLocation));
  return { data, pagination: pagination(page, limit, matched.length) };
}

function pagination(page: number, limit: number, total: number): SkillListResponse['pagination'] {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}

function listTotal(manifest: Manifest, filter: ListFilter): number {
  const total = manifest.lists[listKey(filter)];
  if (typeof total !== 'number') throw new ApiError('SERVER_ERROR', `manifest.json → lists: no list ${listKey(filter)}`);
  return total;
}

/** Items `start..end-1` of a list, read from the pre-built pages that cover them (in parallel). */
async function readRange(load: Loader, pathOf: (page: number) => string, start: number, end: number): Promise<SkillSummary[]> {
  const first = Math.floor(start / PAGE_SIZE) + 1;
  const last = Math.floor((end - 1) / PAGE_SIZE) + 1;
  const pages = await Promise.all(
    Array.from({ length: last - first + 1 }, (_, i) => readPage(load, pathOf(first + i))),
  );
  const items = pages.flat().slice(start - (first - 1) * PAGE_SIZE, end - (first - 1) * PAGE_SIZE);
  if (items.length !== end - start) throw new ApiError('SERVER_ERROR', `List pages ${pathOf(first)}… hold fewer items than the manifest says`);
  return items;
}

/**
 * Items `start..end-1` of a list without pages in `order` (a filtered list in `asc`): the list's
 * ordinals in `order` name the skills, their positions in its `desc` ordinals locate them in its
 * `desc` pages — usually one to three pages around the mirrored range. Not simply the reversed
 * `desc` range: both orders break ties by id ascending (builder/sort-orders.ts).
 */
async function readFromDescPages(load: Loader, filter: ListFilter, sort: Sort, order: Order, start: number, end: number): Promise<SkillSummary[]> {
  const ordinalsPath = listOrdinalsPath(filter, sort, order);
  const descPath = listOrdinalsPath(filter, sort, 'desc');
  const [ordinals, desc] = await Promise.all([readOrdinals(load, ordinalsPath), readOrdinals(load, descPath)]);
  const wanted = new Map(ordinals.slice(start, end).map((n, i) => [n, i]));
  if (wanted.size !== end - start) throw new ApiError('SERVER_ERROR', `Ordinals file ${ordinalsPath} holds fewer items than the manifest says`);
  const locations: Array<{ path: string; index: number }> = new Array(wanted.size);
  let found = 0;
  desc.forEach((n, position) => {
    const i = wanted.get(n);
    if (i === undefined) return;
    locations[i] = { path: listPagePath(filter, sort, 'desc', Math.floor(position / PAGE_SIZE) + 1), index: position % PAGE_SIZE };
    found++;
  });
  if (found !== wanted.size) throw new ApiError('SERVER_ERROR', `Ordinals files ${ordinalsPath} and ${descPath} disagree`);
  return readItems(load, locations);
}

/** The summaries at `locations` (page file, index in its `data`), reading each page once. */
async function readItems(load: Loader, locations: ReadonlyArray<{ path: string; index: number }>): Promise<SkillSummary[]> {
  const paths = [...new Set(locations.map((l) => l.path))];
  const pages = new Map(await Promise.all(paths.map(async (path) => [path, await readPage(load, path)] as const)));
  return locations.map(({ path, index }) => {
    const item = pages.get(path)![index];
    if (item === undefined) throw new ApiError('SERVER_ERROR', `${path} has no item ${index}`);
    return item;
  });
}

/** The `data` of one list page file; a missing or malformed file is a SERVER_ERROR. */
async function readPage(load: Loader, path: string): Promise<SkillSummary[]> {
  const body = await load(path);
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) throw new ApiError('SERVER_ERROR', `List page ${path} is missing or malformed`);
  return data as SkillSummary[];
}

/** The ordinals of one ordinals file; a missing or malformed file is a SERVER_ERROR. */
async function readOrdinals(load: Loader, path: string): Promise<number[]> {
  const body = await load(path);
  const ordinals = (body as { ordinals?: unknown } | undefined)?.ordinals;
  if (!Array.isArray(ordinals)) throw new ApiError('SERVER_ERROR', `Ordinals file ${path} is missing or malformed`);
  return ordinals as number[];
}
