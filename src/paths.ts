/**
 * The static layout: where the build writes each resource and where the runtime reads it.
 * This file is the contract between `builder/` and `src/`; both import it, neither hard-codes a path.
 *
 * All paths are relative to the output folder (no leading slash), always end in `.json`, and use
 * names starting with `_` or containing `.` for everything that is not a skill or category, so no
 * `owner` (`[A-Za-z0-9-]`), category slug or platform id (`[a-z0-9-]`) can collide with them.
 *
 * | canonical URL                                   | static file                                              |
 * |-------------------------------------------------|----------------------------------------------------------|
 * | /api/v1/skills/:owner/:repo                     | api/v1/skills/:owner/:repo/index.json                    |
 * | /api/v1/skills/:owner/:repo/content             | api/v1/skills/:owner/:repo/content.json                  |
 * | /api/v1/skills/:owner/:repo/stats               | api/v1/skills/:owner/:repo/stats.json                    |
 * | /api/v1/skills?sort=S&order=O&page=P            | api/v1/skills/_list/all/S-O/P.json                       |
 * | /api/v1/skills?category=C&sort=S&order=desc&page=P | api/v1/skills/_list/category/C/S-desc/P.json           |
 * | /api/v1/skills?platform=X&sort=S&order=desc&page=P | api/v1/skills/_list/platform/X/S-desc/P.json           |
 * | /api/v1/categories/:slug/skills?…               | same files as `/api/v1/skills?category=:slug&…`          |
 * | /api/v1/categories?locale=L                     | api/v1/categories/index.json (en), index.L.json (others) |
 * | /api/v1/categories/:slug?locale=L               | api/v1/categories/:slug/index.json, index.L.json         |
 * | (any list, any sort and order)                  | api/v1/skills/_list/<list>/S-O/ordinals.json             |
 * | /api/v1/changes[?since=C] (C: entry 100·(P-1))  | api/v1/changes/P.json (`changesPagePath`)                |
 *
 * List pages hold exactly the body of the canonical answer at the default limit (20); page files
 * exist for pages 1..totalPages (page 1 always, even when empty). Defaults: sort `stars`, order `desc`.
 * Which lists have page files (`hasListPages`): the `all` list in both orders, category and
 * platform lists in order `desc` only — their `asc` pages would double the biggest part of the
 * tree for the rarer order. Every list has an ordinals file in every sort and order; the runtime
 * answers a filtered `asc` list from its `asc` ordinals and its `desc` pages (src/lists.ts), so a
 * plain static host without the runtime serves filtered lists in order `desc` only.
 */

/**
 * Version of the static tree layout and manifest; the runtime rejects any other. 2: filtered
 * lists have no `asc` page files (a format-1 runtime would look for them).
 */
export const FORMAT_VERSION = 2;

/** Prefix of every API path and file. */
export const API_PREFIX = 'api/v1';
/** The build manifest (see `Manifest` in manifest.ts). */
export const MANIFEST_PATH = `${API_PREFIX}/manifest.json`;

/** Page size of the pre-built list pages (the spec's default `limit`). */
export const PAGE_SIZE = 20;
export const MAX_LIMIT = 100;
/** Largest `page` (nine digits): a higher one is INVALID_PARAMS. */
export const MAX_PAGE = 999_999_999;
export const SORTS = ['stars', 'updated', 'name'] as const;
export const ORDERS = ['asc', 'desc'] as const;
export type Sort = (typeof SORTS)[number];
export type Order = (typeof ORDERS)[number];
export const DEFAULT_SORT: Sort = 'stars';
export const DEFAULT_ORDER: Order = 'desc';
export const DEFAULT_LOCALE = 'en';

/** A list the build writes pages for: every skill, one category (with subcategories), one platform. */
export type ListFilter = { kind: 'all' } | { kind: 'category'; slug: string } | { kind: 'platform'; id: string };

/** Stable key of a list: `all`, `category/<slug>`, `platform/<id>` (also the manifest's `lists` key). */
export function listKey(filter: ListFilter): string {
  switch (filter.kind) {
    case 'all':
      return 'all';
    case 'category':
      return `category/${filter.slug}`;
    case 'platform':
      return `platform/${filter.id}`;
  }
}

/** File of one skill resource. */
export function skillPath(owner: string, repo: string, kind: 'detail' | 'content' | 'stats'): string {
  const file = kind === 'detail' ? 'index' : kind;
  return `${API_PREFIX}/skills/${owner}/${repo}/${file}.json`;
}

/**
 * Whether the build writes page files for `filter` in `order`: always for the `all` list, only in
 * order `desc` for a category or platform list (see the header).
 */
export function hasListPages(filter: ListFilter, order: Order): boolean {
  return filter.kind === 'all' || order === 'desc';
}

/** File of one pre-built list page (1-based `page`, `PAGE_SIZE` items); exists only if `hasListPages`. */
export function listPagePath(filter: ListFilter, sort: Sort, order: Order, page: number): string {
  return `${API_PREFIX}/skills/_list/${listKey(filter)}/${sort}-${order}/${page}.json`;
}

/**
 * File holding a list's members as ordinals, in the given sort order: `{ "ordinals": number[] }`.
 * An ordinal is a skill's 0-based position in the `all` list sorted `stars`/`desc`, so the summary
 * of ordinal `n` is item `n % PAGE_SIZE` of `listPagePath({kind:'all'}, 'stars', 'desc', ⌊n / PAGE_SIZE⌋ + 1)`.
 * The runtime uses these to answer combined filters (category + platform) at any page and limit,
 * and a filtered list in order `asc`, which has no page files (`hasListPages`).
 */
export function listOrdinalsPath(filter: ListFilter, sort: Sort, order: Order): string {
  return `${API_PREFIX}/skills/_list/${listKey(filter)}/${sort}-${order}/ordinals.json`;
}

/** Where the summary of ordinal `n` lives: the page file and the index inside its `data`. */
export function ordinalLocation(n: number): { path: string; index: number } {
  return {
    path: listPagePath({ kind: 'all' }, DEFAULT_SORT, DEFAULT_ORDER, Math.floor(n / PAGE_SIZE) + 1),
    index: n % PAGE_SIZE,
  };
}

/**
 * The change log (docs/api.md "Changes"): entries per page file, which is also the default and
 * the largest `limit` of `/api/v1/changes`, so each page file is the exact answer at the default.
 */
export const CHANGES_PAGE_SIZE = 100;

/**
 * File of one page of the change log (1-based): entries `(page-1)*100+1 .. page*100`, the exact
 * answer to `/api/v1/changes?since=<cursor of entry (page-1)*100>` (page 1: no `since`). Pages
 * 1..⌊entries/100⌋+1 exist, so the page after the last full one is there and empty.
 */
export function changesPagePath(page: number): string {
  return `${API_PREFIX}/changes/${page}.json`;
}

/** File of the category list in one locale. */
/**
 * Skills per file of the id index, about: the index has the smallest power of two of files that
 * keeps them near this size (a few KiB each).
 */
export const IDS_PER_SHARD = 256;

/** Number of id index files for `skillCount` skills: a power of two ≥ 1. */
export function idShardCount(skillCount: number): number {
  let shards = 1;
  while (shards * IDS_PER_SHARD < skillCount) shards *= 2;
  return shards;
}

/** The lookup key of an id: lower case, as GitHub compares owners and repositories (ids are ASCII). */
export function idKey(owner: string, repo: string): string {
  return `${owner}/${repo}`.toLowerCase();
}

/**
 * The id index file holding `key` (see `idKey`) when the index has `shards` files:
 * `api/v1/skills/_ids/<n>.json`, `{ "<key>": "<Canonical/Id>" }`. FNV-1a over the key's UTF-16
 * code units picks the file, the same in the build and every runtime.
 */
export function idShardPath(key: string, shards: number): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return `${API_PREFIX}/skills/_ids/${hash % shards}.json`;
}

export function categoriesPath(locale: string): string {
  return locale === DEFAULT_LOCALE ? `${API_PREFIX}/categories/index.json` : `${API_PREFIX}/categories/index.${locale}.json`;
}

/** File of one category record (with `topSkills`) in one locale. */
export function categoryPath(slug: string, locale: string): string {
  return locale === DEFAULT_LOCALE
    ? `${API_PREFIX}/categories/${slug}/index.json`
    : `${API_PREFIX}/categories/${slug}/index.${locale}.json`;
}

/** Skill path segments (docs/decisions.md §2). Anything else can never name a file of the tree. */
export const OWNER_RE = /^(?!-)[A-Za-z0-9-]{1,39}(?<!-)$/;
export const REPO_RE = /^(?!\.\.?$)(?!.*\.git$)[A-Za-z0-9._-]{1,100}$/;
/** Category slugs and platform ids. */
export const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Well-formed locale code (`en`, `de`, `zh-TW`, `pt-BR`, `sr-Latn`). */
export const LOCALE_RE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;
