/**
 * Reads the split search index (format.ts) through a `Loader`, fetching only the files a query
 * needs. Every file is loaded and shape-checked once per reader: loads in flight are shared,
 * finished ones are kept in a bounded LRU, and decoded postings in a second LRU bounded by size.
 */
import { ApiError } from '../errors.ts';
import type { Loader } from '../loader.ts';
import { countVarints, decodePostings, decodeVarints, type Postings } from './codec.ts';
import {
  SEARCH_FORMAT,
  searchFilePath,
  type FilterFile,
  type PairDirectory,
  type SearchRoot,
  type StarsFile,
  type SummaryRow,
  type SummaryShard,
  type TermChunk,
  type TermPack,
} from './format.ts';

/** The two dictionaries: single terms, and pairs of adjacent words (`"compose file"`). */
export type Dictionary = 'terms' | 'pairs';

/** An entry of a dictionary: its document frequency and where it is. */
export interface TermInfo {
  dict: Dictionary;
  term: string;
  df: number;
  /** Chunk file and index of the entry in it. */
  file: string;
  index: number;
}

/** Most files kept loaded by one reader. */
const MAX_FILES = 256;
/** Most postings entries (documents) kept decoded by one reader. */
const MAX_DECODED = 4_000_000;
/** Most derived values (clause expansions) kept by one reader. */
const MAX_MEMO = 512;

/** Simple LRU map: a Map iterates in insertion order, so re-inserting on use keeps the oldest first. */
class Lru<V> {
  private readonly map = new Map<string, { value: V; weight: number }>();
  private weight = 0;
  constructor(private readonly maxWeight: number) {}

  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (hit === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V, weight = 1): void {
    const old = this.map.get(key);
    if (old !== undefined) this.weight -= old.weight;
    this.map.delete(key);
    this.map.set(key, { value, weight });
    this.weight += weight;
    while (this.weight > this.maxWeight && this.map.size > 1) {
      const [oldest, entry] = this.map.entries().next().value!;
      this.map.delete(oldest);
      this.weight -= entry.weight;
    }
  }

  delete(key: string): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    this.weight -= old.weight;
    this.map.delete(key);
  }
}

function broken(what: string): ApiError {
  return new ApiError('SERVER_ERROR', `The search index file ${what} is missing or malformed: rebuild the output`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function isPairs(value: unknown): value is Array<[string, string]> {
  return Array.isArray(value) && value.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string');
}

/** Index of the last entry of sorted `firsts` that is ≤ `term` (0 when `term` sorts before all). */
function rangeIndex(firsts: readonly string[], term: string): number {
  let lo = 0;
  let hi = firsts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (firsts[mid]! <= term) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Index of `term` in sorted `terms`, or -1. */
function find(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = terms[mid]!;
    if (t === term) return mid;
    if (t < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Reader of one built index (one root file). */
export class IndexReader {
  private readonly files = new Lru<Promise<unknown>>(MAX_FILES);
  private readonly decoded = new Lru<Postings>(MAX_DECODED);
  private readonly dfs = new WeakMap<TermChunk, Int32Array>();
  private readonly memo = new Lru<Promise<unknown>>(MAX_MEMO);
  private rootPromise: Promise<SearchRoot> | undefined;

  constructor(
    private readonly loader: Loader,
    private readonly rootPath: string,
  ) {}

  /** A search file, shape-checked once (the checked value is what the LRU keeps). */
  private file<T>(name: string, valid: (value: Record<string, unknown>) => boolean): Promise<T> {
    const path = searchFilePath(name);
    const hit = this.files.get(path);
    if (hit !== undefined) return hit as Promise<T>;
    const pending = this.loader(path).then((value) => {
      if (!isObject(value) || !valid(value)) throw broken(`${name}.json`);
      return value as T;
    });
    this.files.set(path, pending);
    pending.catch(() => this.files.delete(path));
    return pending;
  }

  /** `make()` once per `key` while it stays in the LRU (for values derived from the index alone). */
  cached<T>(key: string, make: () => Promise<T>): Promise<T> {
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit as Promise<T>;
    const pending = make();
    this.memo.set(key, pending);
    pending.catch(() => this.memo.delete(key));
    return pending;
  }

  /** The root file (read once). */
  root(): Promise<SearchRoot> {
    this.rootPromise ??= (async () => {
      const value = await this.loader(this.rootPath);
      if (!isObject(value) || value.format !== SEARCH_FORMAT) {
        throw new ApiError('SERVER_ERROR', `The search index ${this.rootPath} is missing or has another format: rebuild the output`);
      }
      const r = value as Partial<SearchRoot>;
      if (
        typeof r.docs !== 'number' ||
        !isStringArray(r.termFirst) ||
        !isStringArray(r.termFiles) ||
        r.termFirst.length !== r.termFiles.length ||
        !isStringArray(r.pairDirFirst) ||
        !isStringArray(r.pairDirFiles) ||
        r.pairDirFirst.length !== r.pairDirFiles.length ||
        !isObject(r.summaries) ||
        !isObject(r.filters) ||
        typeof r.stars !== 'string'
      ) {
        throw broken(this.rootPath);
      }
      return r as SearchRoot;
    })();
    this.rootPromise.catch(() => (this.rootPromise = undefined));
    return this.rootPromise;
  }

  /** The chunk file of a dictionary that holds `term`, if the dictionary has any chunk. */
  private async chunkFile(dict: Dictionary, term: string): Promise<string | undefined> {
    const root = await this.root();
    if (dict === 'terms') return root.termFiles[rangeIndex(root.termFirst, term)];
    const dirName = root.pairDirFiles[rangeIndex(root.pairDirFirst, term)];
    if (dirName === undefined) return undefined;
    const dir = await this.file<PairDirectory>(dirName, (d) => isStringArray(d.first) && isStringArray(d.files) && d.first.length === d.files.length);
    return dir.files[rangeIndex(dir.first, term)];
  }

  private chunk(file: string): Promise<TermChunk> {
    return this.file<TermChunk>(file, (c) =>
      isStringArray(c.terms) && isStringArray(c.postings) && c.terms.length === c.postings.length && isPairs(c.packs) && isPairs(c.positions),
    );
  }

  private info(dict: Dictionary, chunk: TermChunk, file: string, index: number): TermInfo {
    let dfs = this.dfs.get(chunk);
    if (dfs === undefined) {
      // Document frequencies of a whole chunk, computed once (prefix and typo scans read many).
      dfs = Int32Array.from(chunk.postings, (entry) => (entry.startsWith('=') ? Number(entry.slice(1)) : countVarints(entry)));
      this.dfs.set(chunk, dfs);
    }
    return { dict, term: chunk.terms[index]!, df: dfs[index]!, file, index };
  }

  /** The entry, when the dictionary has it. */
  async lookup(dict: Dictionary, term: string): Promise<TermInfo | undefined> {
    const file = await this.chunkFile(dict, term);
    if (file === undefined) return undefined;
    const chunk = await this.chunk(file);
    const index = find(chunk.terms, term);
    return index < 0 ? undefined : this.info(dict, chunk, file, index);
  }

  /** Every term starting with `prefix`, sorted (loads the chunks of that term range). */
  async withPrefix(prefix: string): Promise<TermInfo[]> {
    const root = await this.root();
    if (root.termFiles.length === 0) return [];
    const files = root.termFiles.slice(rangeIndex(root.termFirst, prefix), rangeIndex(root.termFirst, `${prefix}\uffff`) + 1);
    const chunks = await Promise.all(files.map((file) => this.chunk(file)));
    const found: TermInfo[] = [];
    chunks.forEach((chunk, k) => {
      let i = k === 0 ? lowerBound(chunk.terms, prefix) : 0;
      for (; i < chunk.terms.length && chunk.terms[i]!.startsWith(prefix); i++) found.push(this.info('terms', chunk, files[k]!, i));
    });
    return found;
  }

  /** Postings of a term (decoded once, kept in an LRU). */
  async postings(info: TermInfo): Promise<Postings> {
    // Terms never hold a space and pairs always do, so the entry text is a key across both.
    const hit = this.decoded.get(info.term);
    if (hit !== undefined) return hit;
    const chunk = await this.chunk(info.file);
    let encoded = chunk.postings[info.index]!;
    if (encoded.startsWith('=')) encoded = await this.packEntry(chunk.packs, info.term, 'postings');
    let postings: Postings;
    try {
      postings = decodePostings(encoded);
    } catch {
      throw broken(`postings of ${JSON.stringify(info.term)}`);
    }
    this.decoded.set(info.term, postings, postings.docs.length + 1);
    return postings;
  }

  /** Encoded positions of a pair (see codec.ts). */
  async positions(info: TermInfo): Promise<string> {
    const chunk = await this.chunk(info.file);
    return this.packEntry(chunk.positions, info.term, 'positions');
  }

  private async packEntry(packs: Array<[string, string]>, term: string, what: string): Promise<string> {
    const firsts = packs.map((p) => p[0]);
    const name = packs[rangeIndex(firsts, term)]?.[1];
    if (name === undefined) throw broken(`${what} of ${JSON.stringify(term)}`);
    const pack = await this.file<TermPack>(name, (p) => isStringArray(p.terms) && isStringArray(p.data) && p.terms.length === p.data.length);
    const index = find(pack.terms, term);
    if (index < 0) throw broken(`${name}.json (no ${what} of ${JSON.stringify(term)})`);
    return pack.data[index]!;
  }

  /** The summary rows of `docs`. */
  async summaries(docs: readonly number[]): Promise<Map<number, SummaryRow>> {
    const root = await this.root();
    const { size, prefix } = root.summaries;
    const shardNos = [...new Set(docs.map((d) => Math.floor(d / size)))];
    const shards = await Promise.all(
      shardNos.map((no) => this.file<SummaryShard>(`${prefix}.${no}`, (s) => Array.isArray(s.docs))),
    );
    const rows = new Map<number, SummaryRow>();
    for (const d of docs) {
      const shard = shards[shardNos.indexOf(Math.floor(d / size))]!;
      const row = shard.docs[d % size];
      if (!Array.isArray(row) || row.length < 5) throw broken(`${prefix}.${Math.floor(d / size)}.json`);
      rows.set(d, row);
    }
    return rows;
  }

  /** Documents of a filter key (`category/<slug>`, `platform/<id>`, `hasIndex`), increasing. */
  async filter(key: string): Promise<number[]> {
    const root = await this.root();
    const name = root.filters[key];
    if (name === undefined) return [];
    const file = await this.file<FilterFile>(name, (f) => typeof f.docs === 'string');
    const docs = decodeVarints(file.docs);
    for (let i = 0, d = -1; i < docs.length; i++) docs[i] = d += docs[i]!;
    return docs;
  }

  /** Number of documents with at least `min` stars (they are the first ones). */
  async withStars(min: number): Promise<number> {
    const root = await this.root();
    const file = await this.file<StarsFile>(root.stars, (f) => typeof f.stars === 'string');
    const pairs = decodeVarints(file.stars);
    let stars = 0;
    let count = 0;
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      stars = i === 0 ? pairs[0]! : stars - pairs[i]!;
      if (stars < min) break;
      count += pairs[i + 1]!;
    }
    return count;
  }
}

/** First index of sorted `terms` whose term is ≥ `term`. */
function lowerBound(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (terms[mid]! < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
