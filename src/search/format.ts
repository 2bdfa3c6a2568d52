/**
 * The files of the split search index, all under `api/v1/skills/_search/` (no owner can be named
 * `_search`), all JSON, all named by a hash of their content so a CDN can cache them forever.
 * The build (build/search-index.ts) writes them; the runtime (index-reader.ts) reads only the
 * ones a query needs. Integer lists are varint strings (codec.ts).
 *
 * Documents are numbered 0..n-1 in the order stars desc, updatedAt desc, id asc: the number
 * alone encodes ranking factors (3) and (4) and the final tie by id, and `stars ≥ X` is a prefix.
 *
 * - root `r.<hash>.json` (`SearchRoot`, path in `manifest.search.root`): document count, the
 *   first term and file of every term chunk, the same for every pair directory, the summary
 *   shards, the filter files.
 * - term chunk `t.<hash>.json` (`TermChunk`): a range of the sorted terms; per term its postings
 *   inline, or `=<df>` when they are long and live in a postings pack the chunk lists.
 * - pair chunk `u.<hash>.json` (`TermChunk`): the same for pairs of adjacent words (`"compose file"`,
 *   stop words skipped as in the index), the phrase index; it also lists positions packs.
 * - pair directory `v.<hash>.json` (`PairDirectory`): first pair and file of up to 256 pair
 *   chunks (the root lists the directories: pairs have too many chunks to list there).
 * - postings pack `p.<hash>.json` (`TermPack`): long postings of a run of consecutive entries.
 * - positions pack `q.<hash>.json` (`TermPack`): where each pair starts (codec.ts positions), read
 *   only to verify phrases of three or more words.
 * - summary shard `d.<hash>.<i>.json` (`SummaryShard`): the result summaries of documents
 *   `i·size … i·size+size-1`; `<hash>` is one hash over every shard (the root lists no per-shard
 *   names, so it stays small at any corpus size).
 * - filter `f.<hash>.json` (`FilterFile`): the documents of one category (subcategories included),
 *   platform, or of `hasIndex` true.
 * - stars `s.<hash>.json` (`StarsFile`): distinct star counts with their document counts, for `minStars`.
 */
import { API_PREFIX } from '../paths.ts';

/** Version of the search files; the runtime refuses another. */
export const SEARCH_FORMAT = 1;

/** Folder of every search file. */
export const SEARCH_DIR = `${API_PREFIX}/skills/_search`;

/** Path of a search file from its name (`t.3fa9…`). */
export function searchFilePath(name: string): string {
  return `${SEARCH_DIR}/${name}.json`;
}

/** Entry file of the index. */
export interface SearchRoot {
  format: number;
  /** Number of documents. */
  docs: number;
  /** First term of each term chunk, sorted (parallel to `termFiles`). */
  termFirst: string[];
  /** File name of each term chunk. */
  termFiles: string[];
  /** First pair of each pair directory file, sorted (parallel to `pairDirFiles`). */
  pairDirFirst: string[];
  /** File name of each pair directory file. */
  pairDirFiles: string[];
  /** Summary shards: `size` documents each, file `${prefix}.${i}`. */
  summaries: { size: number; prefix: string };
  /** Filter file names by key: `category/<slug>`, `platform/<id>`, `hasIndex`. A missing key is an empty set. */
  filters: Record<string, string>;
  /** Stars file name. */
  stars: string;
}

/** A run of consecutive pair chunks: the first pair of each and its file. */
export interface PairDirectory {
  first: string[];
  files: string[];
}

/** A range of consecutive dictionary entries (terms, or pairs `"word1 word2"`), sorted by code unit. */
export interface TermChunk {
  /** Sorted entries. */
  terms: string[];
  /** Per entry: its postings (varint string), or `=<df>` when they are in a postings pack. */
  postings: string[];
  /** Postings packs of this chunk: first entry of each and its file. */
  packs: Array<[string, string]>;
  /** Positions packs covering every entry of this chunk (pair chunks only; empty for terms). */
  positions: Array<[string, string]>;
}

/** Postings or positions of a run of consecutive entries. */
export interface TermPack {
  terms: string[];
  data: string[];
}

/** One search result summary: owner, repo, name, stars, summary description (≤ 200), full description when longer. */
export type SummaryRow = [owner: string, repo: string, name: string, stars: number, description: string, full?: string];

export interface SummaryShard {
  docs: SummaryRow[];
}

/** Documents of one filter value: varint gaps (first from -1). */
export interface FilterFile {
  docs: string;
}

/**
 * Distinct star counts from the highest, each with its number of documents, as varint pairs
 * `(star count, documents)`: the first star count as is, every next one as its drop from the
 * previous. Documents with `stars ≥ X` are the first `Σ documents of counts ≥ X`.
 */
export interface StarsFile {
  stars: string;
}

/** Filter key of a category slug. */
export function categoryFilterKey(slug: string): string {
  return `category/${slug}`;
}

/** Filter key of a platform id. */
export function platformFilterKey(id: string): string {
  return `platform/${id}`;
}

export const HAS_INDEX_FILTER = 'hasIndex';
