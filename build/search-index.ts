/**
 * Builds the split search index (file formats: src/search/format.ts, encodings:
 * src/search/codec.ts) with the shared text options (src/search/options.ts: tokenizer, folding,
 * stop words, `processTerm`) — the same options the tests give MiniSearch.
 *
 * MiniSearch itself is not run here: it keeps no word positions (phrases need adjacency), and
 * indexing 10k realistic skills with it takes about two minutes (BENCHMARKS.md) while the postings
 * it would give are a by-product of one tokenizer pass. test/search-roundtrip.test.ts checks that
 * the split index answers exactly what one MiniSearch index of the same documents answers.
 *
 * Memory stays near the size of the token stream: each document becomes one Int32Array of term
 * numbers; term postings are counted then filled into flat arrays; word pairs (the phrase index)
 * are collected one range of first words at a time. Chunks are written as they fill up, every
 * file named by a hash of its content. Output depends only on the input.
 */
import { createHash } from 'node:crypto';
import type { SearchManifest } from '../src/manifest.ts';
import { VarintWriter, encodeVarints } from '../src/search/codec.ts';
import {
  HAS_INDEX_FILTER,
  SEARCH_FORMAT,
  categoryFilterKey,
  platformFilterKey,
  searchFilePath,
  type PairDirectory,
  type SearchRoot,
  type SummaryRow,
  type TermChunk,
  type TermPack,
} from '../src/search/format.ts';
import { processTerm, words } from '../src/search/options.ts';
import type { CategoryDef, Emit, SkillRecord } from './model.ts';
import { compareCodeUnits } from './sort-orders.ts';
import { truncateDescription } from './summary.ts';

/** Size knobs of the split (bytes are JSON characters before compression). */
export interface SearchIndexOptions {
  /** Target size of a chunk. */
  chunkBytes?: number;
  /** Postings longer than this live in a postings pack instead of the chunk. */
  inlineMax?: number;
  /** Target size of a postings pack and of a positions pack. */
  packBytes?: number;
  /** Documents per summary shard. */
  shardSize?: number;
  /** Word pairs collected at once (memory: about 17 bytes each). */
  pairBatch?: number;
}

const DEFAULTS: Required<SearchIndexOptions> = {
  chunkBytes: 24_000,
  inlineMax: 48,
  packBytes: 24_000,
  shardSize: 4,
  pairBatch: 8_000_000,
};

/** Longest full description kept for highlights (UTF-16 units). */
const FULL_DESCRIPTION_MAX = 4_000;
/** Field bits in token order: name, description, content. */
const BITS = [1, 2, 4] as const;

/** The document order: stars desc, updatedAt desc, id asc (ranking factors 3, 4, then id). */
export function searchOrder(skills: readonly SkillRecord[]): SkillRecord[] {
  return [...skills].sort(
    (a, b) => b.stars - a.stars || Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || compareCodeUnits(a.id, b.id),
  );
}

/**
 * Build the index of `skills` and emit its files through `emit`; returns the manifest entry.
 * `categories` gives the category tree, so a top-level category's filter holds the skills of its
 * subcategories too.
 */
export async function buildSearchIndex(
  skills: SkillRecord[],
  emit: Emit,
  categories: readonly CategoryDef[] = [],
  options: SearchIndexOptions = {},
): Promise<SearchManifest> {
  const opt = { ...DEFAULTS, ...options };
  const docs = searchOrder(skills);
  const emitted = new Set<string>();
  /** Emit `data` as `<kind>.<hash>`; identical files are written once. Returns the file name. */
  const put = async (kind: string, data: unknown): Promise<string> => {
    const name = `${kind}.${hash(JSON.stringify(data))}`;
    if (!emitted.has(name)) {
      emitted.add(name);
      await emit(searchFilePath(name), data);
    }
    return name;
  };

  const corpus = tokenizeCorpus(docs);
  const terms = await writeTerms(corpus, opt, put);
  const pairs = await writePairs(corpus, opt, put);
  const summaries = await writeSummaries(docs, opt.shardSize, emit);
  const filters = await writeFilters(docs, categories, put);
  const stars = await put('s', { stars: starsTable(docs) });

  const root: SearchRoot = {
    format: SEARCH_FORMAT,
    docs: docs.length,
    termFirst: terms.first,
    termFiles: terms.files,
    ...(await writeDirectory(pairs, put)),
    summaries,
    filters,
    stars,
  };
  return { root: searchFilePath(await put('r', root)) };
}

/** Pair chunks listed per directory file (the root lists the directory files). */
const DIRECTORY_SIZE = 256;

/**
 * Directory files `v.<hash>` of the pair chunks: the pair dictionary has far more chunks than the
 * term dictionary, and the root (read by every query) must stay small.
 */
async function writeDirectory(pairs: ChunkWriter, put: Put): Promise<Pick<SearchRoot, 'pairDirFirst' | 'pairDirFiles'>> {
  const pairDirFirst: string[] = [];
  const pairDirFiles: string[] = [];
  for (let i = 0; i < pairs.first.length; i += DIRECTORY_SIZE) {
    const directory: PairDirectory = { first: pairs.first.slice(i, i + DIRECTORY_SIZE), files: pairs.files.slice(i, i + DIRECTORY_SIZE) };
    pairDirFirst.push(directory.first[0]!);
    pairDirFiles.push(await put('v', directory));
  }
  return { pairDirFirst, pairDirFiles };
}

/** 64-bit hex digest of a file's text (collisions are out of reach at any corpus size). */
function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Every document as term numbers (stop words dropped), terms numbered in sorted order. */
interface Corpus {
  /** Sorted terms; a term's number is its index. */
  terms: string[];
  /** Per document: the term numbers of name, description and content, one after the other. */
  tokens: Int32Array[];
  /** Per document: where description and content start in `tokens` (2 numbers each). */
  starts: Int32Array;
}

/** Tokenize every document once with the shared options. */
function tokenizeCorpus(docs: readonly SkillRecord[]): Corpus {
  const ids = new Map<string, number>();
  const found: string[] = [];
  // Words repeat (Zipf): remember each word's term number; cleared when large to bound memory.
  let cache = new Map<string, number>();
  const tokens: Int32Array[] = [];
  const starts = new Int32Array(docs.length * 2);
  const buffer: number[] = [];
  docs.forEach((skill, d) => {
    buffer.length = 0;
    [skill.name, skill.description, skill.body].forEach((text, f) => {
      if (f > 0) starts[d * 2 + f - 1] = buffer.length;
      for (const word of words(text)) {
        let id = cache.get(word);
        if (id === undefined) {
          const term = processTerm(word);
          if (term === null) id = -1;
          else {
            id = ids.get(term);
            if (id === undefined) {
              id = found.length;
              ids.set(term, id);
              found.push(term);
            }
          }
          if (cache.size >= 1_000_000) cache = new Map();
          cache.set(word, id);
        }
        if (id >= 0) buffer.push(id);
      }
    });
    tokens.push(Int32Array.from(buffer));
  });
  // Renumber in sorted order, so number order is term order (and pair order is "a b" string order).
  const order = found.map((_, i) => i).sort((i, j) => compareCodeUnits(found[i]!, found[j]!));
  const renumber = new Int32Array(found.length);
  order.forEach((old, rank) => (renumber[old] = rank));
  for (const t of tokens) for (let i = 0; i < t.length; i++) t[i] = renumber[t[i]!]!;
  return { terms: order.map((i) => found[i]!), tokens, starts };
}

/** Call `visit(field, from, to)` for the three fields of document `d`. */
function fields(corpus: Corpus, d: number, visit: (field: number, from: number, to: number) => void): void {
  const end = corpus.tokens[d]!.length;
  const s1 = corpus.starts[d * 2]!;
  const s2 = corpus.starts[d * 2 + 1]!;
  visit(0, 0, s1);
  visit(1, s1, s2);
  visit(2, s2, end);
}

type Put = (kind: string, data: unknown) => Promise<string>;

/** Writes a sorted dictionary as chunks of about `chunkBytes`, with their packs. */
class ChunkWriter {
  readonly first: string[] = [];
  readonly files: string[] = [];
  private entries: Array<{ term: string; postings: string; positions?: string }> = [];
  private bytes = 0;

  constructor(
    private readonly kind: string,
    private readonly opt: Required<SearchIndexOptions>,
    private readonly put: Put,
  ) {}

  async add(term: string, postings: string, positions?: string): Promise<void> {
    this.entries.push({ term, postings, positions });
    this.bytes += term.length + 6 + (postings.length > this.opt.inlineMax ? 8 : postings.length);
    if (this.bytes >= this.opt.chunkBytes) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.entries.length === 0) return;
    const entries = this.entries;
    this.entries = [];
    this.bytes = 0;
    const long = entries.filter((e) => e.postings.length > this.opt.inlineMax);
    const chunk: TermChunk = {
      terms: entries.map((e) => e.term),
      postings: entries.map((e) => (e.postings.length > this.opt.inlineMax ? `=${countOf(e.postings)}` : e.postings)),
      packs: await this.packs('p', long.map((e) => [e.term, e.postings])),
      positions: await this.packs(
        'q',
        entries.flatMap((e) => (e.positions === undefined ? [] : [[e.term, e.positions] as [string, string]])),
      ),
    };
    this.first.push(chunk.terms[0]!);
    this.files.push(await this.put(this.kind, chunk));
  }

  /** Cut `[entry, data]` pairs (sorted) into packs of about `packBytes`; returns each pack's first entry and file. */
  private async packs(kind: string, entries: Array<[string, string]>): Promise<Array<[string, string]>> {
    const refs: Array<[string, string]> = [];
    let pack: TermPack = { terms: [], data: [] };
    let size = 0;
    const flush = async (): Promise<void> => {
      if (pack.terms.length === 0) return;
      refs.push([pack.terms[0]!, await this.put(kind, pack)]);
      pack = { terms: [], data: [] };
      size = 0;
    };
    for (const [term, data] of entries) {
      if (size > 0 && size + data.length > this.opt.packBytes) await flush();
      pack.terms.push(term);
      pack.data.push(data);
      size += term.length + data.length + 6;
    }
    await flush();
    return refs;
  }
}

/** Number of varints in an encoded string (each ends with a terminal digit `0-9a-v`). */
function countOf(encoded: string): number {
  let n = 0;
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 97 && c <= 118)) n++;
  }
  return n;
}

/** Term chunks: postings of every term, counted then filled into flat arrays (documents increasing). */
async function writeTerms(corpus: Corpus, opt: Required<SearchIndexOptions>, put: Put): Promise<ChunkWriter> {
  const termCount = corpus.terms.length;
  const docCount = corpus.tokens.length;
  const last = new Int32Array(termCount).fill(-1);
  const df = new Int32Array(termCount + 1);
  for (let d = 0; d < docCount; d++) {
    const tokens = corpus.tokens[d]!;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (last[t] !== d) {
        last[t] = d;
        df[t]!++;
      }
    }
  }
  // offsets[t] .. offsets[t + 1]: the postings of term t.
  const offsets = new Int32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) offsets[t + 1] = offsets[t]! + df[t]!;
  const postDocs = new Int32Array(offsets[termCount]!);
  const postMasks = new Uint8Array(offsets[termCount]!);
  const fill = offsets.slice(0, termCount);
  const slot = new Int32Array(termCount);
  last.fill(-1);
  for (let d = 0; d < docCount; d++) {
    const tokens = corpus.tokens[d]!;
    fields(corpus, d, (f, from, to) => {
      for (let i = from; i < to; i++) {
        const t = tokens[i]!;
        if (last[t] !== d) {
          last[t] = d;
          slot[t] = fill[t]!++;
          postDocs[slot[t]!] = d;
        }
        postMasks[slot[t]!] = postMasks[slot[t]!]! | BITS[f]!;
      }
    });
  }
  const writer = new ChunkWriter('t', opt, put);
  const out = new VarintWriter();
  for (let t = 0; t < termCount; t++) {
    let prev = -1;
    for (let k = offsets[t]!; k < offsets[t + 1]!; k++) {
      out.push((postDocs[k]! - prev) * 8 + postMasks[k]!);
      prev = postDocs[k]!;
    }
    await writer.add(corpus.terms[t]!, out.take());
  }
  await writer.flush();
  return writer;
}

/**
 * Pair chunks: every pair of adjacent indexed words of a field, with its postings and the
 * positions where it starts. Pairs are collected for one range of first words at a time (at most
 * `pairBatch` occurrences) and put in (first, second) order by two stable counting sorts, so the
 * occurrences of a pair stay in document, field and position order.
 */
async function writePairs(corpus: Corpus, opt: Required<SearchIndexOptions>, put: Put): Promise<ChunkWriter> {
  const termCount = corpus.terms.length;
  const docCount = corpus.tokens.length;
  const perFirst = new Int32Array(termCount);
  for (let d = 0; d < docCount; d++) {
    const tokens = corpus.tokens[d]!;
    fields(corpus, d, (_, from, to) => {
      for (let i = from; i + 1 < to; i++) perFirst[tokens[i]!]!++;
    });
  }
  const writer = new ChunkWriter('u', opt, put);
  let from = 0;
  while (from < termCount) {
    let to = from;
    let n = 0;
    while (to < termCount && (to === from || n + perFirst[to]! <= opt.pairBatch)) n += perFirst[to++]!;
    await writePairRange(corpus, from, to, n, writer);
    from = to;
  }
  await writer.flush();
  return writer;
}

/** Stable counting sort of `order` by `key[order[i]]` (keys in [0, size)). */
function countingSort(order: Int32Array, key: Int32Array, size: number): Int32Array {
  // Index loops: for-of over typed arrays is several times slower in V8.
  const n = order.length;
  const start = new Int32Array(size + 1);
  for (let j = 0; j < n; j++) start[key[order[j]!]! + 1]!++;
  for (let k = 0; k < size; k++) start[k + 1]! += start[k]!;
  const sorted = new Int32Array(n);
  for (let j = 0; j < n; j++) {
    const i = order[j]!;
    sorted[start[key[i]!]!++] = i;
  }
  return sorted;
}

/** The pairs whose first word is in [from, to), `n` occurrences in all. */
async function writePairRange(corpus: Corpus, from: number, to: number, n: number, writer: ChunkWriter): Promise<void> {
  const first = new Int32Array(n);
  const second = new Int32Array(n);
  const doc = new Int32Array(n);
  const bit = new Uint8Array(n);
  const position = new Int32Array(n);
  let k = 0;
  for (let d = 0; d < corpus.tokens.length; d++) {
    const tokens = corpus.tokens[d]!;
    fields(corpus, d, (f, start, end) => {
      for (let i = start; i + 1 < end; i++) {
        const a = tokens[i]!;
        if (a < from || a >= to) continue;
        first[k] = a - from;
        second[k] = tokens[i + 1]!;
        doc[k] = d;
        bit[k] = BITS[f]!;
        position[k++] = i - start;
      }
    });
  }
  const byOccurrence = new Int32Array(n);
  for (let i = 0; i < n; i++) byOccurrence[i] = i;
  const order = countingSort(countingSort(byOccurrence, second, corpus.terms.length), first, to - from);
  // Gather into sorted order once, so the grouping below reads memory sequentially.
  const gather = <T extends Int32Array | Uint8Array>(values: T): T => {
    const sorted = new (values.constructor as new (n: number) => T)(n);
    for (let j = 0; j < n; j++) sorted[j] = values[order[j]!]!;
    return sorted;
  };
  const [A, B, D, F, P] = [gather(first), gather(second), gather(doc), gather(bit), gather(position)];

  const out = new VarintWriter();
  const pos = new VarintWriter();
  for (let g = 0; g < n; ) {
    const a = A[g]!;
    const b = B[g]!;
    let h = g;
    while (h < n && A[h] === a && B[h] === b) h++;
    // Occurrences g..h-1 of the pair: postings per document, positions per document and field
    // (within a document, fields come in bit order and positions increase).
    let prev = -1;
    for (let x = g; x < h; ) {
      const d = D[x]!;
      let mask = 0;
      let e = x;
      while (e < h && D[e] === d) mask |= F[e++]!;
      out.push((d - prev) * 8 + mask);
      prev = d;
      for (let y = x; y < e; ) {
        let z = y;
        while (z < e && F[z] === F[y]) z++;
        pos.push(z - y);
        for (let w = y; w < z; w++) pos.push(w === y ? P[w]! : P[w]! - P[w - 1]!);
        y = z;
      }
      x = e;
    }
    await writer.add(`${corpus.terms[from + a]!} ${corpus.terms[b]!}`, out.take(), pos.take());
    g = h;
  }
}

/**
 * Summary shards `d.<hash>.<i>`, `shardSize` documents each. One hash covers every shard (so the
 * root needs no list of names): a change to any summary renames them all.
 */
async function writeSummaries(docs: readonly SkillRecord[], shardSize: number, emit: Emit): Promise<SearchRoot['summaries']> {
  const shards: Array<{ docs: SummaryRow[] }> = [];
  for (let from = 0; from < docs.length; from += shardSize) {
    shards.push({
      docs: docs.slice(from, from + shardSize).map((s): SummaryRow => {
        const short = truncateDescription(s.description);
        const row: SummaryRow = [s.owner, s.repo, s.name, s.stars, short];
        if (short !== s.description) row.push(s.description.slice(0, FULL_DESCRIPTION_MAX));
        return row;
      }),
    });
  }
  const digest = createHash('sha256');
  for (const shard of shards) digest.update(JSON.stringify(shard)).update('\n');
  const prefix = `d.${digest.digest('hex').slice(0, 16)}`;
  for (const [i, shard] of shards.entries()) await emit(searchFilePath(`${prefix}.${i}`), shard);
  return { size: shardSize, prefix };
}

/** Filter files: every category slug (a top-level one with its subcategories), every platform, hasIndex. */
async function writeFilters(docs: readonly SkillRecord[], categories: readonly CategoryDef[], put: Put): Promise<Record<string, string>> {
  const parentOf = new Map<string, string>();
  for (const def of categories) for (const sub of def.subcategories) parentOf.set(sub.slug, def.slug);
  const sets = new Map<string, number[]>();
  const add = (key: string, doc: number): void => {
    let set = sets.get(key);
    if (set === undefined) sets.set(key, (set = []));
    if (set[set.length - 1] !== doc) set.push(doc);
  };
  docs.forEach((skill, doc) => {
    for (const slug of skill.categories) {
      add(categoryFilterKey(slug), doc);
      const parent = parentOf.get(slug);
      if (parent !== undefined) add(categoryFilterKey(parent), doc);
    }
    for (const id of skill.platforms) add(platformFilterKey(id), doc);
    if (skill.hasIndex) add(HAS_INDEX_FILTER, doc);
  });
  const filters: Record<string, string> = {};
  for (const key of [...sets.keys()].sort(compareCodeUnits)) {
    const set = sets.get(key)!;
    filters[key] = await put('f', { docs: encodeVarints(set.map((d, i) => d - (i === 0 ? -1 : set[i - 1]!))) });
  }
  return filters;
}

/** The stars table (see `StarsFile`): documents are in stars-desc order, so runs of equal stars. */
function starsTable(docs: readonly SkillRecord[]): string {
  const values: number[] = [];
  let previous = -1;
  for (const skill of docs) {
    if (skill.stars !== previous) {
      values.push(previous === -1 ? skill.stars : previous - skill.stars, 0);
      previous = skill.stars;
    }
    values[values.length - 1] = values[values.length - 1]! + 1;
  }
  return encodeVarints(values);
}
