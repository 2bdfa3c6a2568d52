/**
 * Reads the split search index (format.ts) through a `Loader`, fetching only the files a query
 * needs. Every file is loaded and shape-checked once per reader: loads in flight are shared,
 * finished ones are kept in a bounded LRU, and decoded postings in a second LRU bounded by size.
 * Positions (phrase queries only) are fetched per piece: only the packs that hold the wanted
 * documents of a term; what a phrase was verified to match is kept in a third LRU, so the next
 * page of a phrase query (or the same query again) verifies nothing. A fourth keeps each clause's
 * per-document state, which autocomplete's completions and repeated queries share.
 */
import { lowerBound, partitionPoint, sortedIndexOf, upperBound } from '../sorted.ts';
import { Lru } from '../lru.ts';
import { keepLoad, type InFlight } from '../in-flight.ts';
import { ApiError } from '../errors.ts';
import type { Loader } from '../loader.ts';
import { PositionTable, countVarints, decodePositions, decodePostings, decodeVarints, type Postings } from './codec.ts';
import {
  POSITION_STREAMS,
  SEARCH_FORMAT,
  postingsPackNames,
  searchFilePath,
  summaryShardName,
  type FilterFile,
  type PositionRefs,
  type PositionStream,
  type SearchRoot,
  type StarsFile,
  type SummaryRow,
  type SummaryShard,
  type TermChunk,
  type TermPack,
} from './format.ts';

/** A term of the index: its document frequency and where it is. */
export interface TermInfo {
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
/** Most bytes of phrase verifications (one byte per document and phrase) remembered by one reader. */
const MAX_VERIFIED_BYTES = 8 * 1024 * 1024;
/** Most bytes of clause states (one byte per document and clause) remembered by one reader. */
const MAX_STATE_BYTES = 16 * 1024 * 1024;
/** Bit of a `phraseMatches` byte: the document was verified (the low bits are then its fields). */
export const VERIFIED = 0x80;

function broken(what: string): ApiError {
  return new ApiError('SERVER_ERROR', `The search index file ${what} is missing or malformed: rebuild the output`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function isPackRefs(value: unknown): value is SearchRoot['packs'] {
  return Array.isArray(value) && value.every((p) => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'string'));
}

function isPositionRefs(value: unknown): value is PositionRefs {
  return (
    Array.isArray(value) &&
    value.every((p) => Array.isArray(p) && p.length === 3 && typeof p[0] === 'string' && Number.isInteger(p[1]) && p[1] >= 0 && typeof p[2] === 'string')
  );
}

/** Index of the last entry of sorted `firsts` that is ≤ `term` (0 when `term` sorts before all). */
function rangeIndex(firsts: readonly string[], term: string): number {
  return Math.max(0, upperBound(firsts, term) - 1);
}

/** Reader of one built index (one root file). */
export class IndexReader {
  private readonly files = new Lru<Promise<unknown>>(MAX_FILES);
  private readonly decoded = new Lru<Postings>(MAX_DECODED);
  private readonly dfs = new WeakMap<TermChunk, Int32Array>();
  private readonly packLists = new WeakMap<SearchRoot, { firsts: string[]; names: string[] }>();
  private readonly memo = new Lru<Promise<unknown>>(MAX_MEMO);
  private readonly phrases = new Lru<Uint8Array>(MAX_VERIFIED_BYTES);
  private readonly states = new Lru<Uint8Array>(MAX_STATE_BYTES);
  private rootPromise: Promise<SearchRoot> | undefined;

  constructor(
    private readonly loader: Loader,
    private readonly rootPath: string,
    /** How loads under way are shared between concurrent requests (src/in-flight.ts). */
    private readonly inFlight: InFlight = 'shared',
    /** A copy of the root (`manifest.search.index`, or the one sw.js carries): no request for the root. */
    private readonly rootCopy?: unknown,
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
    return keepLoad(pending, this.inFlight, (value) => this.files.set(path, value), () => this.files.delete(path));
  }

  /** `make()` once per `key` while it stays in the LRU (for values derived from the index alone). */
  cached<T>(key: string, make: () => Promise<T>): Promise<T> {
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit as Promise<T>;
    return keepLoad(make(), this.inFlight, (value) => this.memo.set(key, value), () => this.memo.delete(key));
  }

  /**
   * What is known of a phrase (`key`: its words and field), one byte per document: `VERIFIED` once
   * checked, with the fields where its words are adjacent in the low bits. The caller fills in what
   * it verifies. A typed array, not a Map: a repeated phrase query reads it for thousands of
   * candidates, and a byte per document is smaller than a Map entry per verified one.
   */
  phraseMatches(key: string, docCount: number): Uint8Array {
    let known = this.phrases.get(key);
    if (known === undefined || known.length !== docCount) this.phrases.set(key, (known = new Uint8Array(docCount)), docCount);
    return known;
  }

  /**
   * The per-document state of a clause (`key`: the clause as written), made by `make` once while it
   * stays in the LRU: autocomplete evaluates up to 20 queries sharing their first words, and a
   * repeated search skips a pass over every posting of every expansion. Callers may only add what
   * holds for any query: a phrase's verified fields (see `phraseMatches`).
   */
  clauseState(key: string, docCount: number, make: () => Uint8Array): Uint8Array {
    let state = this.states.get(key);
    if (state === undefined || state.length !== docCount) this.states.set(key, (state = make()), docCount);
    return state;
  }

  /** The root file (read once). */
  root(): Promise<SearchRoot> {
    if (this.rootPromise !== undefined) return this.rootPromise;
    const pending = (async () => {
      const value = this.rootCopy ?? (await this.loader(this.rootPath));
      if (!isObject(value)) throw broken(this.rootPath);
      if (value.format !== SEARCH_FORMAT) {
        throw new ApiError(
          'SERVER_ERROR',
          `The search index ${this.rootPath} has format ${JSON.stringify(value.format)}; this runtime reads format ${SEARCH_FORMAT}: rebuild the output`,
        );
      }
      const r = value as Partial<SearchRoot>;
      if (
        typeof r.docs !== 'number' ||
        !isStringArray(r.termFirst) ||
        !isStringArray(r.termFiles) ||
        r.termFirst.length !== r.termFiles.length ||
        !isPackRefs(r.packs) ||
        !isObject(r.summaries) ||
        !Number.isInteger(r.summaries.size) ||
        !(r.summaries.size > 0) ||
        !Number.isInteger(r.summaries.group) ||
        !(r.summaries.group > 0) ||
        !isStringArray(r.summaries.groups) ||
        !isObject(r.filters) ||
        typeof r.stars !== 'string' ||
        typeof r.copies !== 'string'
      ) {
        throw broken(this.rootPath);
      }
      return r as SearchRoot;
    })();
    return keepLoad(
      pending,
      this.inFlight,
      (value) => (this.rootPromise = value),
      (failed) => {
        if (this.rootPromise === failed) this.rootPromise = undefined;
      },
    );
  }

  private chunk(file: string): Promise<TermChunk> {
    return this.file<TermChunk>(file, (c) =>
      isStringArray(c.terms) && isStringArray(c.postings) && c.terms.length === c.postings.length && isPositionRefs(c.headPositions) && isPositionRefs(c.bodyPositions),
    );
  }

  private pack(name: string): Promise<TermPack> {
    return this.file<TermPack>(name, (p) => isStringArray(p.terms) && isStringArray(p.data) && p.terms.length === p.data.length);
  }

  private info(chunk: TermChunk, file: string, index: number): TermInfo {
    let dfs = this.dfs.get(chunk);
    if (dfs === undefined) {
      // Document frequencies of a whole chunk, computed once (prefix and typo scans read many).
      dfs = Int32Array.from(chunk.postings, (entry) => (entry.startsWith('=') ? Number(entry.slice(1)) : countVarints(entry)));
      this.dfs.set(chunk, dfs);
    }
    return { term: chunk.terms[index]!, df: dfs[index]!, file, index };
  }

  /**
   * Start loading the postings packs that may hold the long postings of the terms in
   * [`from`, `to`] while their chunks load, so a word costs one round trip, not two (a pack
   * fetched for a term whose postings turn out inline is the price; docs/search-index.md).
   */
  private prefetchPacks(root: SearchRoot, from: string, to: string): void {
    const { firsts, names } = this.packsOf(root);
    // The pack whose range holds `from`, and the next one when it starts within [from, to].
    const at = upperBound(firsts, from) - 1;
    for (const i of [at, at + 1]) {
      const pack = root.packs[i];
      if (pack === undefined || pack[1] < from || pack[0] > to) continue;
      // Errors surface when the postings are read; this load is only started early.
      this.pack(names[i]!).catch(() => undefined);
    }
  }

  /** The first term and the file name of every postings pack of `root` (computed once). */
  private packsOf(root: SearchRoot): { firsts: string[]; names: string[] } {
    let lists = this.packLists.get(root);
    if (lists === undefined) this.packLists.set(root, (lists = { firsts: root.packs.map((p) => p[0]), names: postingsPackNames(root) }));
    return lists;
  }

  /**
   * Start loading the postings packs of the terms in [`from`, `to`] (at most two) without waiting:
   * a scan over a short prefix starts at the prefix, while the word asked for may sit in a pack
   * further on, which would otherwise wait for the chunk.
   */
  async prefetch(from: string, to = from): Promise<void> {
    this.prefetchPacks(await this.root(), from, to);
  }

  /** The term, when the index has it. */
  async lookup(term: string): Promise<TermInfo | undefined> {
    const root = await this.root();
    const file = root.termFiles[rangeIndex(root.termFirst, term)];
    if (file === undefined) return undefined;
    this.prefetchPacks(root, term, term);
    const chunk = await this.chunk(file);
    const index = sortedIndexOf(chunk.terms, term);
    return index < 0 ? undefined : this.info(chunk, file, index);
  }

  /** Every term starting with `prefix`, sorted (loads the chunks of that term range). */
  async withPrefix(prefix: string): Promise<TermInfo[]> {
    const root = await this.root();
    if (root.termFiles.length === 0) return [];
    const files = root.termFiles.slice(rangeIndex(root.termFirst, prefix), rangeIndex(root.termFirst, `${prefix}\uffff`) + 1);
    this.prefetchPacks(root, prefix, `${prefix}\uffff`);
    const chunks = await Promise.all(files.map((file) => this.chunk(file)));
    const found: TermInfo[] = [];
    chunks.forEach((chunk, k) => {
      let i = k === 0 ? lowerBound(chunk.terms, prefix) : 0;
      for (; i < chunk.terms.length && chunk.terms[i]!.startsWith(prefix); i++) found.push(this.info(chunk, files[k]!, i));
    });
    return found;
  }

  /** Postings of a term (decoded once, kept in an LRU). */
  async postings(info: TermInfo): Promise<Postings> {
    const hit = this.decoded.get(info.term);
    if (hit !== undefined) return hit;
    const chunk = await this.chunk(info.file);
    let encoded = chunk.postings[info.index]!;
    if (encoded.startsWith('=')) encoded = await this.packedPostings(await this.root(), info.term);
    let postings: Postings;
    try {
      postings = decodePostings(encoded);
    } catch {
      throw broken(`postings of ${JSON.stringify(info.term)}`);
    }
    this.decoded.set(info.term, postings, postings.docs.length + 1);
    return postings;
  }

  /**
   * Positions of a term in the fields of `stream` in the documents at `wanted` indexes of its
   * postings (increasing), given its postings masks: row `k` of the table is `wanted[k]`. Loads
   * only the packs holding them.
   */
  async positions(info: TermInfo, masks: Uint8Array, stream: PositionStream, wanted: Int32Array): Promise<PositionTable> {
    const chunk = await this.chunk(info.file);
    const refs = stream === 'head' ? chunk.headPositions : chunk.bodyPositions;
    // Wanted indexes increase, so each pack holds one run of them: the pack of index i is the
    // last ref at or before (term, i).
    const runs: Array<{ ref: number; from: number; to: number }> = [];
    for (let k = 0; k < wanted.length; k++) {
      const ref = lastRefAtOrBefore(refs, info.term, wanted[k]!);
      if (ref < 0) throw broken(`${info.file}.json (no positions of ${JSON.stringify(info.term)})`);
      const last = runs[runs.length - 1];
      if (last !== undefined && last.ref === ref) last.to = k + 1;
      else runs.push({ ref, from: k, to: k + 1 });
    }
    const packs = await Promise.all(runs.map((run) => this.pack(refs[run.ref]![2])));
    const table = new PositionTable(wanted.length);
    runs.forEach((run, r) => {
      const [first, start, name] = refs[run.ref]!;
      // A pack led by this term holds its postings from `start` up to the next ref of the term.
      const from = first === info.term ? start : 0;
      const next = refs[run.ref + 1];
      const to = next !== undefined && next[0] === info.term ? next[1] : masks.length;
      const pack = packs[r]!;
      const at = sortedIndexOf(pack.terms, info.term);
      if (at < 0) throw broken(`${name}.json (no positions of ${JSON.stringify(info.term)})`);
      try {
        decodePositions(pack.data[at]!, masks.subarray(from, to), POSITION_STREAMS[stream], wanted.subarray(run.from, run.to).map((i) => i - from), table, run.from);
      } catch {
        throw broken(`${name}.json (positions of ${JSON.stringify(info.term)})`);
      }
    });
    return table;
  }

  /** Postings of `term` from the postings pack that holds them. */
  private async packedPostings(root: SearchRoot, term: string): Promise<string> {
    const { firsts, names } = this.packsOf(root);
    const name = root.packs.length === 0 ? undefined : names[rangeIndex(firsts, term)];
    if (name === undefined) throw broken(`postings of ${JSON.stringify(term)}`);
    const pack = await this.pack(name);
    const index = sortedIndexOf(pack.terms, term);
    if (index < 0) throw broken(`${name}.json (no postings of ${JSON.stringify(term)})`);
    return pack.data[index]!;
  }

  /** The summary rows of `docs`. */
  async summaries(docs: readonly number[]): Promise<Map<number, SummaryRow>> {
    const root = await this.root();
    const { size } = root.summaries;
    const shardNos = [...new Set(docs.map((d) => Math.floor(d / size)))];
    const nameOf = (no: number): string => {
      const name = summaryShardName(root.summaries, no);
      if (name === undefined) throw broken(`${this.rootPath} (no summary shard ${no})`);
      return name;
    };
    // Every shard of the page at once: over HTTP/2 that is one round trip whatever their number.
    const shards = await Promise.all(shardNos.map((no) => this.file<SummaryShard>(nameOf(no), (s) => Array.isArray(s.docs))));
    const rows = new Map<number, SummaryRow>();
    for (const d of docs) {
      const shard = shards[shardNos.indexOf(Math.floor(d / size))]!;
      const row = shard.docs[d % size];
      if (!Array.isArray(row) || row.length < 5) throw broken(`${nameOf(Math.floor(d / size))}.json`);
      rows.set(d, row);
    }
    return rows;
  }

  /**
   * Per document, the document it is an exact copy of, or -1 (decoded once from the root's
   * `copies`).
   */
  async originals(): Promise<Int32Array> {
    const root = await this.root();
    return this.cached('originals', async () => {
      const out = new Int32Array(root.docs).fill(-1);
      let pairs: number[];
      try {
        pairs = decodeVarints(root.copies);
      } catch {
        throw broken(this.rootPath);
      }
      for (let i = 0, copy = -1; i + 1 < pairs.length; i += 2) {
        copy += pairs[i]!;
        const original = pairs[i + 1]!;
        if (copy >= root.docs || original >= root.docs) throw broken(this.rootPath);
        out[copy] = original;
      }
      return out;
    });
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

/** Index of the last ref of sorted `refs` whose (term, index) is ≤ (`term`, `index`), or -1. */
function lastRefAtOrBefore(refs: PositionRefs, term: string, index: number): number {
  return partitionPoint(refs.length, (mid) => {
    const [t, i] = refs[mid]!;
    return t < term || (t === term && i <= index);
  }) - 1;
}
