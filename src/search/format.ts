/**
 * The files of the split search index, all under `api/v1/skills/_search/` (no owner can be named
 * `_search`), all JSON, all named by a hash of their content so a CDN can cache them forever.
 * The build (builder/search-index.ts) writes them; the runtime (index-reader.ts) reads only the
 * ones a query needs. Integer lists are varint strings (codec.ts).
 *
 * Documents are numbered 0..n-1 in the order stars desc, updatedAt desc, id asc: the number
 * alone encodes ranking factors (3) and (4) and the final tie by id, and `stars ≥ X` is a prefix.
 *
 * - root `r.<hash>.json` (`SearchRoot`, path in `manifest.search.root`, and a copy of it in
 *   `sw.js`, or in `manifest.search.index` for a build without the site, so a cold search starts
 *   with the term chunks): document count, the
 *   first term and file of every term chunk, the first and last term of every postings pack, the
 *   summary shards, the filter files.
 * - term chunk `t.<hash>.json` (`TermChunk`): a range of the sorted terms; per term its postings
 *   inline, or `=<df>` when they are long and live in a postings pack the root lists; and the
 *   positions packs of its terms. `<hash>` is a hash of the chunk and its postings packs together.
 * - postings pack `p.<hash>.<k>.json` (`TermPack`): long postings of a run of consecutive terms of
 *   one chunk, the `k`-th pack of chunk `t.<hash>` (format 5: named by its chunk, so the root lists
 *   packs by their terms alone). The root lists them (format 4), so a word's pack is fetched
 *   together with its chunk.
 * - positions pack `q.<hash>.json` (`TermPack`): where each term occurs (codec.ts positions), read
 *   only by phrase queries: either the whole positions of a run of consecutive terms, or one piece
 *   of the positions of a term too long for one pack (the positions of a range of its postings).
 *   Each term has two position streams (`POSITION_STREAMS`): name and description ("head"), and
 *   content ("body"), so `name:"…"` and `description:"…"` never load content positions, and an
 *   unrestricted phrase loads each stream only for the documents holding its words there.
 *   Phrases are checked on positions: there is no dictionary of word pairs (format 1 had one: 212
 *   of its 227 MB at 10k skills).
 * - summary shard `d.<hash>.<i>.json` (`SummaryShard`): the result summaries of documents
 *   `i·size … i·size+size-1`; `<hash>` is the hash of its group of `group` consecutive shards
 *   (format 4), so a changed summary renames only the shards of its group, while the root lists
 *   one name per group rather than per shard.
 * - filter `f.<hash>.json` (`FilterFile`): the documents of one category (subcategories included),
 *   platform, or of `hasIndex` true.
 * - stars `s.<hash>.json` (`StarsFile`): distinct star counts with their document counts, for `minStars`.
 * - the root's `copies` (format 3): each exact copy with its original, so a copy ranks right below it.
 */
import { API_PREFIX } from '../paths.ts';

/** Version of the search files; the runtime refuses another. */
export const SEARCH_FORMAT = 5;

/** Folder of every search file. */
export const SEARCH_DIR = `${API_PREFIX}/skills/_search`;

/** Path of a search file from its name (`t.3fa9…`). */
export function searchFilePath(name: string): string {
  return `${SEARCH_DIR}/${name}.json`;
}

/** Name of summary shard `i` (`SearchRoot.summaries`), or undefined when the root has no such shard. */
export function summaryShardName(summaries: SearchRoot['summaries'], i: number): string | undefined {
  const group = summaries.groups[Math.floor(i / summaries.group)];
  return group === undefined ? undefined : shardOfGroup(group, i);
}

/** Name of summary shard `i`, of the group named `group`. */
export function shardOfGroup(group: string, i: number): string {
  return `d.${group}.${i}`;
}

/**
 * The file name of every postings pack of `root`, in the order of `root.packs` (format 5): pack
 * `k` of the chunk `t.<hash>` holding its first term is `p.<hash>.<k>`, `k` counted from 0 among
 * the packs of that chunk.
 */
export function postingsPackNames(root: Pick<SearchRoot, 'termFirst' | 'termFiles' | 'packs'>): string[] {
  const names: string[] = [];
  let chunk = -1;
  let k = 0;
  // Both lists are sorted: one walk finds each pack's chunk (the last whose first term is ≤ its own).
  let at = 0;
  for (const [first] of root.packs) {
    while (at + 1 < root.termFirst.length && root.termFirst[at + 1]! <= first) at++;
    k = at === chunk ? k + 1 : 0;
    chunk = at;
    names.push(`p.${(root.termFiles[at] ?? '').slice(2)}.${k}`);
  }
  return names;
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
  /**
   * Postings packs (format 4): first and last term of each, sorted by first term. The long
   * postings of a term are in the last pack whose first term is at most the term; a term after
   * that pack's last term has its postings inline in its chunk (no pack to fetch). Each pack's file
   * is named by its chunk (format 5, `postingsPackNames`).
   */
  packs: Array<[first: string, last: string]>;
  /**
   * Summary shards (format 4): `size` documents each; shard `i` is file `d.${groups[g]}.${i}` with
   * `g = floor(i / group)`, `groups[g]` a hash of that group's shards.
   */
  summaries: { size: number; group: number; groups: string[] };
  /** Filter file names by key: `category/<slug>`, `platform/<id>`, `hasIndex`. A missing key is an empty set. */
  filters: Record<string, string>;
  /** Stars file name. */
  stars: string;
  /**
   * Exact copies (the quality pass's `duplicateOf`) with their originals, as varint pairs
   * `(copy, original)`, copies increasing and written as gaps from the previous copy (the first
   * from -1). Empty when no skill is a copy of another indexed skill.
   */
  copies: string;
}

/** A range of consecutive terms, sorted by code unit. */
export interface TermChunk {
  /** Sorted terms. */
  terms: string[];
  /** Per term: its postings (varint string), or `=<df>` when they are in a postings pack (`SearchRoot.packs`). */
  postings: string[];
  /** Positions packs of the head stream (name and description) of this chunk's terms. */
  headPositions: PositionRefs;
  /** Positions packs of the body stream (content) of this chunk's terms. */
  bodyPositions: PositionRefs;
}

/**
 * The positions packs of one stream of a chunk, sorted by (term, index): the first term of each,
 * the index in that term's postings where the pack's positions of it start (0 unless the pack is
 * a piece of a term split over several packs), and its file. The positions of postings `i` of
 * term `t` are in the last pack whose (term, index) is at most (`t`, `i`). A term without
 * occurrences in the stream's fields has no entry.
 */
export type PositionRefs = Array<[string, number, string]>;

/** The two position streams: the field bits each holds (options.ts `FIELD_BIT`). */
export const POSITION_STREAMS = { head: 3, body: 4 } as const;
export type PositionStream = keyof typeof POSITION_STREAMS;

/** Postings or positions of a run of consecutive terms. */
export interface TermPack {
  terms: string[];
  data: string[];
}

/**
 * One search result summary: owner, repo, name, stars, summary description (≤ 200), full
 * description when longer (else null when more follows), and the quality summary (flags worth a
 * review, 1 when an exact copy) when the build computed one. Runtimes that predate an element
 * ignore it.
 */
export type SummaryRow = [owner: string, repo: string, name: string, stars: number, description: string, full?: string | null, quality?: [flags: number, duplicate: 0 | 1]];

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
