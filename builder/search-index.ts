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
 * Phrases are answered from the positions of each term (where it occurs in each field), not from
 * a dictionary of word pairs: at 10k skills positions take 22 MB (about 2.5 characters per
 * indexed word), the pair dictionary of format 1 took 212 of its 227 MB. Positions are written in
 * two streams (name and description; content) and long ones cut at documents into pieces of
 * about `packBytes`, so a phrase query fetches only the pieces of its candidates.
 *
 * Memory stays near the size of the token stream: each document becomes one Int32Array of term
 * numbers (builder/search-corpus.ts: words are found by `WordIds.tokenize` and looked up by their
 * characters, no string per word of text; an incremental build takes an unchanged document's
 * numbers from its token cache); the occurrences of one range of terms at a time (at most `occurrenceBatch`) are
 * gathered by term into flat typed arrays, then encoded as postings and positions. Chunks are
 * written as they fill up, every file named by a hash of its content. Output depends only on the
 * input.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { SearchManifest } from '../src/manifest.ts';
import { PositionsWriter, PostingsWriter, encodeVarints } from '../src/search/codec.ts';
import {
  HAS_INDEX_FILTER,
  POSITION_STREAMS,
  SEARCH_FORMAT,
  categoryFilterKey,
  platformFilterKey,
  searchFilePath,
  shardOfGroup,
  type PositionRefs,
  type SearchRoot,
  type SummaryRow,
  type TermChunk,
  type TermPack,
} from '../src/search/format.ts';
import { FIELD_BIT, NAME_FOCUS } from '../src/search/options.ts';
import { documentKey, tokenizeCorpus, type Corpus } from './search-corpus.ts';
import { incrementalTerms, readSummaryMemo, writeSummaryMemo, type IncrementalIndex } from './search-patch.ts';
import { JsonText, type CategoryDef, type Emit, type SkillRecord } from './model.ts';
import { compareCodeUnits } from './sort-orders.ts';
import { qualitySummary } from './quality/index.ts';
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
  /** Summary shards per named group (a changed summary renames the shards of its group). */
  shardGroup?: number;
  /** Word occurrences gathered at once (memory: 9 bytes each). */
  occurrenceBatch?: number;
  /** Largest root (gzip bytes) the manifest carries a copy of. */
  rootCopyMaxGzip?: number;
}

const DEFAULTS: Required<SearchIndexOptions> = {
  chunkBytes: 12_000,
  inlineMax: 48,
  packBytes: 24_000,
  shardSize: 2,
  shardGroup: 32,
  occurrenceBatch: 16_000_000,
  rootCopyMaxGzip: 24 * 1024,
};

/** Longest full description kept for highlights (UTF-16 units). */
const FULL_DESCRIPTION_MAX = 4_000;

/** The document order: stars desc, updatedAt desc, id asc (ranking factors 3, 4, then id). */
export function searchOrder(skills: readonly SkillRecord[]): SkillRecord[] {
  // Each date parsed once, not in every comparison; keys by index, not looked up by record.
  const stars = skills.map((s) => s.stars);
  const updated = skills.map((s) => Date.parse(s.updatedAt));
  // Where the ids ascend (content's skills do), comparing indexes gives the ids' sign.
  let ascending = true;
  for (let i = 1; i < skills.length && ascending; i++) ascending = skills[i - 1]!.id < skills[i]!.id;
  const tie = ascending ? (i: number, j: number): number => i - j : (i: number, j: number): number => compareCodeUnits(skills[i]!.id, skills[j]!.id);
  return skills
    .map((_, i) => i)
    .sort((i, j) => stars[j]! - stars[i]! || updated[j]! - updated[i]! || tie(i, j))
    .map((i) => skills[i]!);
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
  incremental?: IncrementalIndex,
): Promise<SearchManifest> {
  const opt = { ...DEFAULTS, ...options };
  const docs = searchOrder(skills);
  const emitted = new Set<string>();
  /** Emit `data` as file `name`; identical files are written once. */
  const putAs = async (name: string, data: unknown): Promise<string> => {
    if (!emitted.has(name)) {
      emitted.add(name);
      await emit(searchFilePath(name), data);
    }
    return name;
  };
  /** Keep files of the live output as they are: they count as emitted. */
  const keepAs = (keep: (paths: string[]) => boolean) => (paths: string[]): boolean => {
    if (!keep(paths)) return false;
    for (const path of paths) emitted.add(path.slice(path.lastIndexOf('/') + 1, -'.json'.length));
    return true;
  };
  /** Emit `data` as `<kind>.<hash>`. Returns the file name. */
  const put: Put = (kind, data) => {
    // Serialized once: the text names the file and is what the writer writes.
    const text = JSON.stringify(data);
    return putAs(`${kind}.${hash(text)}`, new JsonText(text));
  };

  // `--incremental`: the token caches, and the chunks patched where they can be (builder/search-patch.ts).
  const terms = incremental === undefined
    ? await writeTerms(tokenizeCorpus(docs), opt, put, putAs)
    : await incrementalTerms(docs, opt, put, putAs, { ...incremental, keep: incremental.keep === undefined ? undefined : keepAs(incremental.keep) }, (corpus) => writeTerms(corpus, opt, put, putAs));
  // `--incremental`: the summary groups' memo beside the token cache (builder/search-patch.ts).
  const summaryMemoFile = incremental === undefined ? undefined : `${incremental.file}.summaries`;
  const last = summaryMemoFile === undefined || incremental?.keep === undefined ? undefined : readSummaryMemo(summaryMemoFile, incremental.code, opt);
  const { summaries, memo: summaryMemo, made } = await writeSummaries(docs, opt.shardSize, opt.shardGroup, emit, incremental?.keep, summaryMemoFile === undefined ? undefined : { last });
  if (summaryMemoFile !== undefined) writeSummaryMemo(summaryMemoFile, incremental!.code, opt, summaryMemo!);
  incremental?.onSummaries?.(made);
  const filters = await writeFilters(docs, categories, put);
  const stars = await put('s', { stars: starsTable(docs) });

  const root: SearchRoot = {
    format: SEARCH_FORMAT,
    docs: docs.length,
    termFirst: terms.first,
    termFiles: terms.files,
    packs: terms.postingsPacks,
    summaries,
    filters,
    stars,
    copies: copiesTable(docs),
  };
  const rootPath = searchFilePath(await put('r', root));
  // The copy rides in sw.js (a build with the site) or the manifest, which every first visit or
  // request reads, search or not: only while it costs little (docs/search-index.md "The root"); a
  // large directory's first search reads the root file instead, one round trip more.
  return gzipSync(JSON.stringify(root)).byteLength <= opt.rootCopyMaxGzip ? { root: rootPath, index: root } : { root: rootPath };
}

/** 64-bit hex digest of a file's text (collisions are out of reach at any corpus size). */
export function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export type Put = (kind: string, data: unknown) => Promise<string>;
export type PutAs = (name: string, data: unknown) => Promise<string>;

/** The positions of one term in one stream (format.ts `POSITION_STREAMS`), cut at documents into pieces of about `packBytes`. */
export interface Pieces {
  data: string[];
  /** Index in the term's postings where each piece starts (the first is 0). */
  starts: number[];
}

/** One term on its way into a chunk. */
export interface Entry {
  term: string;
  postings: string;
  head: Pieces;
  body: Pieces;
}

/**
 * What a chunk adds to its size count (`chunkBytes`): where the chunk is cut depends on these
 * numbers and the terms alone (`endsChunk`).
 */
export function entrySize(entry: Entry, inlineMax: number): number {
  // A term split over several positions packs costs the chunk one reference per piece.
  let refs = 0;
  for (const { data } of [entry.head, entry.body]) if (data.length > 1) refs += data.length * (entry.term.length + 30);
  return entry.term.length + 6 + (entry.postings.length > inlineMax ? 8 : entry.postings.length) + refs;
}

/**
 * Whether a chunk ends after `term`, `bytes` its size count with that term (`entrySize`): once
 * the count reaches `chunkBytes`, at the first term whose text's hash picks it (one in four), or
 * at twice `chunkBytes` whatever the term. Cut where the count alone reaches `chunkBytes`, a
 * change of one term's size moved every later cut until, by chance, two fell together again: one
 * new word in one skill could make a third of the index again. Cuts that the terms themselves
 * pick come back to the same terms right after a change (builder/search-patch.ts).
 */
export function endsChunk(term: string, bytes: number, chunkBytes: number): boolean {
  if (bytes >= 2 * chunkBytes) return true;
  if (bytes < chunkBytes) return false;
  // FNV-1a over the UTF-16 code units: the same on every build and host.
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return ((h >>> 0) & 3) === 0;
}

/** One chunk as written: its terms (a run of the sorted terms), its files and its packs' term ranges. */
export interface ChunkLayout {
  /** Its first term and how many terms it holds. */
  first: string;
  count: number;
  /** Its file (`t.<group>`), then its postings packs, then its positions packs. */
  file: string;
  packs: Array<[string, string]>;
  positions: string[];
}

/** Writes the sorted terms as chunks of about `chunkBytes` (`endsChunk`), with their postings and positions packs. */
export class ChunkWriter {
  readonly first: string[] = [];
  readonly files: string[] = [];
  /** First and last term of the postings packs of every chunk so far, in term order (`SearchRoot.packs`). */
  readonly postingsPacks: Array<[string, string]> = [];
  /** Every term added and its `entrySize`, in order, and every chunk (what an incremental build keeps, builder/search-patch.ts). */
  readonly terms: string[] = [];
  readonly sizes: number[] = [];
  readonly chunks: ChunkLayout[] = [];
  private entries: Entry[] = [];
  private bytes = 0;

  constructor(
    private readonly opt: Required<SearchIndexOptions>,
    private readonly put: Put,
    private readonly putAs: PutAs,
  ) {}

  async add(entry: Entry): Promise<void> {
    this.entries.push(entry);
    const size = entrySize(entry, this.opt.inlineMax);
    this.terms.push(entry.term);
    this.sizes.push(size);
    this.bytes += size;
    if (endsChunk(entry.term, this.bytes, this.opt.chunkBytes)) await this.flush();
  }

  /**
   * Take a chunk an earlier build wrote, whose files the output keeps, as the next one (between
   * chunks only). `sizes` are its terms' `entrySize`s.
   */
  keep(chunk: ChunkLayout, terms: readonly string[], sizes: readonly number[]): void {
    if (this.entries.length > 0) throw new Error('a kept chunk must start a chunk');
    this.first.push(chunk.first);
    this.files.push(chunk.file);
    this.postingsPacks.push(...chunk.packs);
    this.terms.push(...terms);
    this.sizes.push(...sizes);
    this.chunks.push(chunk);
  }

  async flush(): Promise<void> {
    if (this.entries.length === 0) return;
    const entries = this.entries;
    this.entries = [];
    this.bytes = 0;
    const long = entries.filter((e) => e.postings.length > this.opt.inlineMax);
    // A chunk's packs hold only its own terms: a change elsewhere renames neither them nor it.
    const packs = this.cut(long.map((e) => [e.term, e.postings]));
    const chunk: TermChunk = {
      terms: entries.map((e) => e.term),
      postings: entries.map((e) => (e.postings.length > this.opt.inlineMax ? `=${countOf(e.postings)}` : e.postings)),
      headPositions: await this.positionsPacks(entries.map((e) => [e.term, e.head])),
      bodyPositions: await this.positionsPacks(entries.map((e) => [e.term, e.body])),
    };
    // The chunk and its postings packs are named by one hash of all of them (format 5): the root
    // lists the packs by their terms alone, and pack k of chunk `t.<hash>` is `p.<hash>.<k>`.
    const texts = [chunk, ...packs].map((file) => JSON.stringify(file));
    const group = hash(texts.join('\n'));
    this.first.push(chunk.terms[0]!);
    const file = await this.putAs(`t.${group}`, new JsonText(texts[0]!));
    this.files.push(file);
    const ranges: Array<[string, string]> = [];
    for (const [k, pack] of packs.entries()) {
      await this.putAs(`p.${group}.${k}`, new JsonText(texts[k + 1]!));
      ranges.push([pack.terms[0]!, pack.terms[pack.terms.length - 1]!]);
    }
    this.postingsPacks.push(...ranges);
    const positions = [...chunk.headPositions, ...chunk.bodyPositions].map((ref) => ref[2]);
    this.chunks.push({ first: chunk.terms[0]!, count: entries.length, file, packs: ranges, positions });
  }

  /**
   * Positions packs of one stream of `entries`: runs of terms whose positions fit one pack share
   * packs; a term in several pieces gets one pack per piece. Refs come out sorted by (term, index).
   */
  private async positionsPacks(entries: ReadonlyArray<[string, Pieces]>): Promise<PositionRefs> {
    const refs: PositionRefs = [];
    let run: Array<[string, string]> = [];
    const flushRun = async (): Promise<void> => {
      for (const pack of this.cut(run)) refs.push([pack.terms[0]!, 0, await this.put('q', pack)]);
      run = [];
    };
    for (const [term, { data, starts }] of entries) {
      if (data.length === 1) run.push([term, data[0]!]);
      if (data.length <= 1) continue;
      await flushRun();
      for (const [k, piece] of data.entries()) {
        const pack: TermPack = { terms: [term], data: [piece] };
        refs.push([term, starts[k]!, await this.put('q', pack)]);
      }
    }
    await flushRun();
    return refs;
  }

  /** Cut `[term, data]` pairs (sorted) into packs of about `packBytes`. */
  private cut(entries: Array<[string, string]>): TermPack[] {
    const packs: TermPack[] = [];
    let pack: TermPack = { terms: [], data: [] };
    let size = 0;
    for (const [term, data] of entries) {
      if (size > 0 && size + data.length > this.opt.packBytes) {
        packs.push(pack);
        pack = { terms: [], data: [] };
        size = 0;
      }
      pack.terms.push(term);
      pack.data.push(data);
      size += term.length + data.length + 6;
    }
    if (pack.terms.length > 0) packs.push(pack);
    return packs;
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

/**
 * Term chunks: postings and positions of every term, for one range of terms at a time (at most
 * `occurrenceBatch` occurrences, or a single term).
 */
async function writeTerms(corpus: Corpus, opt: Required<SearchIndexOptions>, put: Put, putAs: PutAs): Promise<ChunkWriter> {
  const termCount = corpus.terms.length;
  const count = new Int32Array(termCount);
  for (const tokens of corpus.tokens) for (let i = 0; i < tokens.length; i++) count[tokens[i]!]!++;
  const writer = new ChunkWriter(opt, put, putAs);
  // One set of occurrence arrays for every range, sized for the largest: a range's arrays are
  // garbage only once the collector sees them so, and a new set per range could hold two at once.
  const ranges: Array<[number, number]> = [];
  let most = 0;
  for (let from = 0; from < termCount; ) {
    let to = from;
    let n = 0;
    while (to < termCount && (to === from || n + count[to]! <= opt.occurrenceBatch)) n += count[to++]!;
    ranges.push([from, to]);
    most = Math.max(most, n);
    from = to;
  }
  const slots: Occurrences = { doc: new Int32Array(most), bit: new Uint8Array(most), position: new Int32Array(most) };
  for (const [from, to] of ranges) await writeTermRange(corpus, from, to, count, slots, opt, writer);
  await writer.flush();
  return writer;
}

/**
 * Slot `k` of a counting sort of occurrences (writeTermRange, and the patch of
 * builder/search-patch.ts): token `i` of document `d`, its field and its position in that field
 * from where the document's description and content start (`starts[2d]`, `starts[2d + 1]`).
 */
export function placeOccurrence(k: number, d: number, i: number, starts: Int32Array, doc: Int32Array, bit: Uint8Array, position: Int32Array): void {
  const description = starts[d * 2]!;
  const content = starts[d * 2 + 1]!;
  doc[k] = d;
  if (i < description) {
    bit[k] = FIELD_BIT.name;
    position[k] = i;
  } else if (i < content) {
    bit[k] = FIELD_BIT.description;
    position[k] = i - description;
  } else {
    bit[k] = FIELD_BIT.content;
    position[k] = i - content;
  }
}

/** The occurrences of one range of terms, slot by slot: document, field bit, position in the field. */
interface Occurrences {
  doc: Int32Array;
  bit: Uint8Array;
  position: Int32Array;
}

/**
 * The terms in [from, to), `count` occurrences each, placed in `slots` (room for all of them).
 * One pass over the corpus places each occurrence in its term's slots (a counting sort, so a
 * term's occurrences come in document, field and position order); then each term's run of slots
 * gives its postings and positions.
 */
async function writeTermRange(
  corpus: Corpus,
  from: number,
  to: number,
  count: Int32Array,
  slots: Occurrences,
  opt: Required<SearchIndexOptions>,
  writer: ChunkWriter,
): Promise<void> {
  // next[t - from]: the next free slot of term t.
  const next = new Int32Array(to - from);
  for (let t = from + 1; t < to; t++) next[t - from] = next[t - from - 1]! + count[t - 1]!;
  const { doc, bit, position } = slots;
  // One flat loop per document (this runs over every token once per range).
  for (let d = 0; d < corpus.tokens.length; d++) {
    const tokens = corpus.tokens[d]!;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t >= from && t < to) placeOccurrence(next[t - from]!++, d, i, corpus.starts, doc, bit, position);
    }
  }

  const encoder = new TermEncoder(opt);
  let x = 0;
  for (let t = from; t < to; t++) {
    const end = x + count[t]!;
    await writer.add(encoder.entry(corpus.terms[t]!, doc, bit, position, x, end, corpus.starts));
    x = end;
  }
}

/**
 * Encodes one term's occurrences as its postings and positions pieces. The occurrences are
 * `doc`, `bit` and `position` at [x, end), in document, field and position order; `starts[2d]`
 * is document d's name word count.
 */
export class TermEncoder {
  private readonly postings = new PostingsWriter();
  private readonly head = new PositionsWriter();
  private readonly body = new PositionsWriter();

  constructor(private readonly opt: Required<SearchIndexOptions>) {}

  entry(term: string, doc: Int32Array, bit: Uint8Array, position: Int32Array, x: number, end: number, starts: ArrayLike<number>): Entry {
    const { postings, head, body, opt } = this;
    const pieces = { head: { data: [], starts: [] } as Pieces, body: { data: [], starts: [] } as Pieces };
    // Postings index where the current piece of each stream starts.
    let headStart = 0;
    let bodyStart = 0;
    let index = 0;
    while (x < end) {
      // Occurrences x..e-1 are in document d: one posting, then per field its count and positions.
      const d = doc[x]!;
      let mask = 0;
      let e = x;
      let inName = 0;
      while (e < end && doc[e] === d) {
        if (bit[e] === FIELD_BIT.name) inName++;
        mask |= bit[e++]!;
      }
      // At least half of the name's words are this term (`starts[2d]`: the name's word count).
      if (inName > 0 && 2 * inName >= starts[d * 2]!) mask |= NAME_FOCUS;
      postings.push(d, mask);
      for (let y = x; y < e; ) {
        let z = y;
        while (z < e && bit[z] === bit[y]) z++;
        (bit[y]! & POSITION_STREAMS.head ? head : body).field(position, y, z);
        y = z;
      }
      x = e;
      index++;
      // Cut long positions at a document: a phrase query fetches only the pieces of its candidates.
      if (head.size >= opt.packBytes) headStart = cut(head, pieces.head, headStart, index);
      if (body.size >= opt.packBytes) bodyStart = cut(body, pieces.body, bodyStart, index);
    }
    if (head.size > 0) cut(head, pieces.head, headStart, index);
    if (body.size > 0) cut(body, pieces.body, bodyStart, index);
    return { term, postings: postings.take(), ...pieces };
  }
}

/** End the piece of `out` that started at postings index `start`; returns where the next one starts. */
function cut(out: PositionsWriter, pieces: Pieces, start: number, next: number): number {
  pieces.data.push(out.take());
  pieces.starts.push(start);
  return next;
}

/**
 * Summary shards `d.<hash>.<i>`, `shardSize` documents each, `<hash>` a hash of the shard's group
 * of `group` shards: a changed summary renames the shards of its group only, and the root lists
 * one name per group (at 10k skills and 32 shards of 2, 157 names: with 16, their hashes took
 * 3.1 of the root's 12 KB gzipped). `keep` keeps a group's files in the live output (an
 * incremental build), all or none. With `memo` (an incremental build; `last`: what the last one
 * wrote, by group), a group whose `summaryGroupKey` is the last one's takes its name from there
 * and is neither made nor hashed when its files are kept. Returns the root's `summaries` and, with
 * `memo`, this build's.
 */
async function writeSummaries(
  docs: readonly SkillRecord[],
  shardSize: number,
  group: number,
  emit: Emit,
  keep?: (paths: string[]) => boolean,
  memo?: { last: SummaryMemo | undefined },
): Promise<{ summaries: SearchRoot['summaries']; memo?: SummaryMemo; made: number }> {
  const summaries: SearchRoot['summaries'] = { size: shardSize, group, groups: [] };
  const next: SummaryMemo = { keys: [], names: [] };
  const perGroup = shardSize * group;
  let made = 0;
  for (let g = 0; g * perGroup < docs.length; g++) {
    const members = docs.slice(g * perGroup, (g + 1) * perGroup);
    const key = memo === undefined ? '' : summaryGroupKey(members);
    const shardCount = Math.ceil(members.length / shardSize);
    const paths = (name: string): string[] => Array.from({ length: shardCount }, (_, k) => searchFilePath(shardOfGroup(name, g * group + k)));
    const last = memo?.last;
    const known = last !== undefined && last.keys[g] === key ? last.names[g] : undefined;
    if (known !== undefined && keep?.(paths(known)) === true) {
      summaries.groups.push(known);
      next.keys.push(key);
      next.names.push(known);
      continue;
    }
    made++;
    const shards: Array<{ docs: SummaryRow[] }> = [];
    for (let from = 0; from < members.length; from += shardSize) shards.push({ docs: members.slice(from, from + shardSize).map(summaryRow) });
    const digest = createHash('sha256');
    for (const shard of shards) digest.update(JSON.stringify(shard)).update('\n');
    const name = digest.digest('hex').slice(0, 16);
    summaries.groups.push(name);
    next.keys.push(key);
    next.names.push(name);
    // A group's shards are named by its hash: an incremental build keeps those the output holds.
    const files = paths(name);
    if (keep?.(files) === true) continue;
    for (const [k, shard] of shards.entries()) await emit(files[k]!, shard);
  }
  return { summaries, ...(memo === undefined ? {} : { memo: next }), made };
}

/** One document's row of its summary shard. */
function summaryRow(s: SkillRecord): SummaryRow {
  const short = truncateDescription(s.description);
  const row: SummaryRow = [s.owner, s.repo, s.name, s.stars, short];
  const full = short !== s.description ? s.description.slice(0, FULL_DESCRIPTION_MAX) : null;
  if (s.checks !== undefined) {
    const quality = qualitySummary(s.checks);
    row.push(full, [quality.flags, quality.duplicate ? 1 : 0]);
  } else if (full !== null) row.push(full);
  return row;
}

/** What the last build's summary groups were made of (`summaryGroupKey`) and their names, by group. */
export interface SummaryMemo {
  keys: string[];
  names: string[];
}

/**
 * A hash of everything the rows of `docs` are made of (`summaryRow`): each owner and repo,
 * `documentKey` (name and description), stars and quality summary, without making the rows.
 */
function summaryGroupKey(docs: readonly SkillRecord[]): string {
  // One text per group, hashed once: one hash update per group, not per skill.
  let text = '';
  for (const s of docs) {
    const quality = s.checks === undefined ? '-' : qualitySummary(s.checks);
    const checks = typeof quality === 'string' ? quality : `${quality.flags}${quality.duplicate ? '+' : ''}`;
    text += `${s.owner}\0${s.repo}\0${documentKey(s)}\0${s.stars}\0${checks}\n`;
  }
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
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

/**
 * The root's `copies`: each exact copy (`checks.duplicateOf`, builder/quality/duplicates.ts) whose
 * original is indexed too, as varint pairs (gap from the previous copy, original).
 */
function copiesTable(docs: readonly SkillRecord[]): string {
  const numberOf = new Map(docs.map((s, i) => [s.id, i]));
  const values: number[] = [];
  let previous = -1;
  docs.forEach((skill, i) => {
    const original = skill.checks?.duplicateOf === undefined ? undefined : numberOf.get(skill.checks.duplicateOf);
    if (original === undefined) return;
    values.push(i - previous, original);
    previous = i;
  });
  return encodeVarints(values);
}
