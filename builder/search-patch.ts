/**
 * The search index of an `--incremental` build patched instead of made again
 * (builder/search-index.ts): when the documents are the same skills in the same search order as
 * the index the output holds and only a few changed, only the terms whose occurrences in those
 * documents changed (field, position, the name's word count) are encoded again; the chunks are
 * cut where a whole build would cut them (the cuts depend only on the terms and each term's
 * `entrySize`, kept per term: `endsChunk`), and a chunk whose terms are the same and unchanged
 * keeps its files in the output (they are named by a hash of their content). The output is byte
 * for byte the whole build's. Postings number documents by search order: a change of stars or
 * date, an added or removed skill renumbers them, and the index is then made whole.
 *
 * What it keeps, per output, in the cache folder (the search memo): the documents' ids and token
 * keys in search order, every term with its `entrySize`, and every chunk with its files. The
 * entries of a chunk made again come from the output's files (builder/search-splice.ts), a
 * changed term's edited there; what they cannot give is gathered from every document's tokens,
 * the unchanged documents' from the token cache (builder/search-corpus.ts). The documents a
 * patch tokenized go into a small second token cache (the delta) beside it, so the large one is
 * not written again; a whole build writes the large one and removes the delta.
 */
import { rmSync } from 'node:fs';
import { searchFilePath } from '../src/search/format.ts';
import { readCheckedFile, sha256Hex, writeCheckedFile } from './checked-file.ts';
import type { SkillRecord } from './model.ts';
import { documentKey, mergeTokenCaches, readTokenCache, tokenizeCorpus, writeTokenCache, type TokenCache } from './search-corpus.ts';
import { ChunkWriter, TermEncoder, endsChunk, entrySize, placeOccurrence, type ChunkLayout, type Entry, type Put, type PutAs, type SearchIndexOptions, type SummaryMemo } from './search-index.ts';
import { docParts, readChunkEntries, spliceEntry, type DocPart, type ReadOutput } from './search-splice.ts';
import { compareCodeUnits } from './sort-orders.ts';
import { lowerBound, upperBound } from '../src/sorted.ts';

const FORMAT = 'skills-api-search-memo';
const VERSION = 1;

/** The layout of the index an earlier build wrote (see the module comment). */
export interface SearchMemo {
  /** Document ids in search order. */
  ids: string[];
  /** Their `documentKey`s, in the same order. */
  keys: string[];
  /** Every term (sorted) and its `entrySize`. */
  terms: string[];
  sizes: Int32Array;
  /** Every chunk, in term order. */
  chunks: ChunkLayout[];
}

/** The memo in `file` when whole and made by build code `code` with options `opt`; undefined otherwise. */
export function readSearchMemo(file: string, code: string, opt: Required<SearchIndexOptions>): SearchMemo | undefined {
  const body = memoBody(file, FORMAT, VERSION, code, opt);
  if (body === undefined) return undefined;
  try {
    const parsed = JSON.parse(body) as { ids: string[]; keys: string; terms: string; sizes: number[]; chunks: ChunkLayout[] };
    const keys = Buffer.from(parsed.keys, 'base64').toString('latin1');
    const memo: SearchMemo = {
      ids: parsed.ids,
      keys: parsed.ids.map((_, d) => keys.slice(d * 16, (d + 1) * 16)),
      terms: parsed.terms === '' ? [] : parsed.terms.split('\n'),
      sizes: Int32Array.from(parsed.sizes),
      chunks: parsed.chunks,
    };
    const counted = memo.chunks.reduce((sum, c) => sum + c.count, 0);
    if (keys.length !== memo.ids.length * 16 || memo.sizes.length !== memo.terms.length || counted !== memo.terms.length) return undefined;
    return memo;
  } catch {
    return undefined;
  }
}

/** Store the layout `writer` wrote for `docs` in `file`. Never throws: without it the next build makes the whole index. */
export function writeSearchMemo(file: string, code: string, opt: Required<SearchIndexOptions>, docs: readonly SkillRecord[], keys: readonly string[], writer: ChunkWriter): void {
  writeMemo(file, FORMAT, VERSION, code, opt, () => {
    if (writer.terms.some((term) => term.includes('\n'))) throw new Error('a term holds a line break');
    return JSON.stringify({
      ids: docs.map((s) => s.id),
      keys: Buffer.from(keys.join(''), 'latin1').toString('base64'),
      terms: writer.terms.join('\n'),
      sizes: writer.sizes,
      chunks: writer.chunks,
    });
  });
}

const SUMMARY_FORMAT = 'skills-api-summary-memo';
const SUMMARY_VERSION = 1;

/** The summary groups' memo in `file` (builder/search-index.ts `writeSummaries`) when whole and of this code and options; undefined otherwise. */
export function readSummaryMemo(file: string, code: string, opt: Required<SearchIndexOptions>): SummaryMemo | undefined {
  const body = memoBody(file, SUMMARY_FORMAT, SUMMARY_VERSION, code, opt);
  if (body === undefined) return undefined;
  try {
    const memo = JSON.parse(body) as SummaryMemo;
    const strings = (list: unknown): boolean => Array.isArray(list) && list.every((item) => typeof item === 'string');
    return strings(memo.keys) && strings(memo.names) && memo.keys.length === memo.names.length ? memo : undefined;
  } catch {
    return undefined;
  }
}

/** Store the summary groups' memo. Never throws: without it the next build makes every group's rows. */
export function writeSummaryMemo(file: string, code: string, opt: Required<SearchIndexOptions>, memo: SummaryMemo): void {
  writeMemo(file, SUMMARY_FORMAT, SUMMARY_VERSION, code, opt, () => JSON.stringify(memo));
}

/** The body of memo file `file` when whole and its header names `format`, `version`, build code `code` and options `opt`. */
function memoBody(file: string, format: string, version: number, code: string, opt: Required<SearchIndexOptions>): string | undefined {
  const read = readCheckedFile(file);
  if (read === undefined) return undefined;
  const { header, body } = read;
  return header.format === format && header.version === version && header.code === code && header.options === optionsKey(opt) ? body : undefined;
}

/** Write a memo file; on any failure remove it instead (a memo is only ever a shortcut). */
function writeMemo(file: string, format: string, version: number, code: string, opt: Required<SearchIndexOptions>, body: () => string): void {
  try {
    writeCheckedFile(file, { format, version, code, options: optionsKey(opt) }, body());
  } catch {
    rmSync(file, { force: true });
  }
}

function optionsKey(opt: Required<SearchIndexOptions>): string {
  return sha256Hex(JSON.stringify(Object.entries(opt).sort(([a], [b]) => compareCodeUnits(a, b))));
}

/** What `patchTerms` needs from the build. */
export interface PatchInput {
  docs: readonly SkillRecord[];
  /** `documentKey` of each of `docs`. */
  keys: readonly string[];
  memo: SearchMemo;
  /** The token cache (large and delta merged). */
  cache: TokenCache;
  opt: Required<SearchIndexOptions>;
  put: Put;
  putAs: PutAs;
  /** Keep these files of the live output (`OutputWriter.keep`); false when they cannot be kept. */
  keep: (paths: string[]) => boolean;
  /** Read a file of the live output: the entries of chunks made again come from there when it can. */
  read?: ReadOutput;
  /** Told where the entries came from. */
  onPatch?: (stats: PatchStats) => void;
}

/**
 * Whether the index of `docs` can be patched from the memo: the changed documents (by number)
 * and the documents the delta token cache is to hold (those the large one has not: `inLarge`);
 * undefined when the index must be made whole (other documents or order, a token missing from
 * the caches, more than `deltaMax` documents for the delta).
 */
export function planPatch(input: Pick<PatchInput, 'docs' | 'keys' | 'memo' | 'cache'> & { inLarge: (key: string) => boolean; deltaMax: number }): { changed: number[]; delta: SkillRecord[] } | undefined {
  const { docs, keys, memo, cache, inLarge, deltaMax } = input;
  if (memo.ids.length !== docs.length) return undefined;
  const changed: number[] = [];
  const delta: SkillRecord[] = [];
  for (let d = 0; d < docs.length; d++) {
    if (docs[d]!.id !== memo.ids[d]) return undefined;
    const key = keys[d]!;
    if (key !== memo.keys[d]) {
      changed.push(d);
      // The old tokens say which terms lose the document.
      if (!cache.docs.has(memo.keys[d]!)) return undefined;
    } else if (!cache.docs.has(key)) return undefined;
    if (!inLarge(key)) delta.push(docs[d]!);
    if (delta.length > deltaMax) return undefined;
  }
  return { changed, delta };
}

/** Patch the term chunks (see the module comment): returns the chunk writer, its chunks written or kept. */
export async function patchTerms(input: PatchInput, changed: readonly number[]): Promise<ChunkWriter> {
  const { docs, memo, cache, opt } = input;
  const changedDocs = changed.map((d) => docs[d]!);
  const fresh = tokenizeCorpus(changedDocs);
  const freshOf = new Map(changed.map((d, i) => [d, i]));

  // The terms whose entries change: those whose occurrences in a changed document changed.
  const affected = new Set<string>();
  for (const [i, d] of changed.entries()) {
    const before = cache.docs.get(memo.keys[d]!)!;
    const after = { tokens: fresh.tokens[i]!, description: fresh.starts[i * 2]!, content: fresh.starts[i * 2 + 1]! };
    const was = occurrences(before, cache.terms);
    const is = occurrences(after, fresh.terms);
    for (const [term, signature] of was) if (is.get(term) !== signature) affected.add(term);
    for (const [term, signature] of is) if (was.get(term) !== signature) affected.add(term);
  }
  const sortedAffected = [...affected].sort(compareCodeUnits);
  const gather = new Gather(input, changed, affected, fresh, freshOf);
  // The terms of the chunks the affected ones fall in are made again too: gathered at once (one
  // pass over every document's tokens, when the output's files cannot be read, costs the same
  // for one term or thousands).
  const entries = gather.entries(withNeighbours(sortedAffected, memo));

  // The new terms and their sizes: the memo's, those no document holds any more left out, the
  // affected ones with their new sizes; `old` is a term's index in the memo when unchanged.
  const terms: string[] = [];
  const sizes: number[] = [];
  const old: number[] = [];
  for (let i = 0, j = 0; i < memo.terms.length || j < sortedAffected.length; ) {
    const m = memo.terms[i];
    const a = sortedAffected[j];
    const order = m === undefined ? 1 : a === undefined ? -1 : compareCodeUnits(m, a);
    if (order < 0) {
      terms.push(m!);
      sizes.push(memo.sizes[i]!);
      old.push(i);
      i++;
      continue;
    }
    const entry = entries.get(a!);
    if (entry !== undefined) {
      terms.push(a!);
      sizes.push(entrySize(entry, opt.inlineMax));
      old.push(-1);
    }
    if (order === 0) i++;
    j++;
  }

  // Where a whole build cuts (`endsChunk`).
  const cuts: Array<[number, number]> = [];
  let from = 0;
  let bytes = 0;
  for (let i = 0; i < terms.length; i++) {
    bytes += sizes[i]!;
    if (endsChunk(terms[i]!, bytes, opt.chunkBytes)) {
      cuts.push([from, i + 1]);
      from = i + 1;
      bytes = 0;
    }
  }
  if (from < terms.length) cuts.push([from, terms.length]);

  // The memo's chunks by the index of their first term.
  const chunkAt = new Map<number, ChunkLayout>();
  let at = 0;
  for (const chunk of memo.chunks) {
    chunkAt.set(at, chunk);
    at += chunk.count;
  }
  /** The earlier chunk of the same, unchanged terms, whose files the output keeps. */
  const kept = cuts.map(([a, b]) => {
    const start = old[a]!;
    const chunk = start < 0 ? undefined : chunkAt.get(start);
    if (chunk === undefined || chunk.count !== b - a) return undefined;
    for (let i = a; i < b; i++) if (old[i] !== start + (i - a)) return undefined;
    // Two identical positions pieces of a term are one file, named twice in the chunk: kept once.
    const paths = [...new Set([chunk.file, ...chunk.packs.map((_, k) => `p.${chunk.file.slice(2)}.${k}`), ...chunk.positions])].map(searchFilePath);
    return input.keep(paths) ? chunk : undefined;
  });

  // Entries of the unchanged terms of the chunks made again.
  const missing: string[] = [];
  cuts.forEach(([a, b], c) => {
    if (kept[c] !== undefined) return;
    for (let i = a; i < b; i++) if (!entries.has(terms[i]!)) missing.push(terms[i]!);
  });
  if (missing.length > 0) for (const [term, entry] of gather.entries(missing)) entries.set(term, entry);

  const writer = new ChunkWriter(opt, input.put, input.putAs);
  for (const [c, [a, b]] of cuts.entries()) {
    const chunk = kept[c];
    if (chunk !== undefined) {
      writer.keep(chunk, terms.slice(a, b), sizes.slice(a, b));
      continue;
    }
    for (let i = a; i < b; i++) await writer.add(entries.get(terms[i]!)!);
    await writer.flush();
  }
  input.onPatch?.(gather.stats);
  return writer;
}

/**
 * `affected` (sorted) and the memo's other terms of the chunks they fall in, sorted: those chunks
 * change, so a patch needs those terms' entries too (unless the cuts move, see `patchTerms`).
 */
export function withNeighbours(affected: readonly string[], memo: Pick<SearchMemo, 'terms' | 'chunks'>): string[] {
  const starts: number[] = [];
  let at = 0;
  for (const chunk of memo.chunks) {
    starts.push(at);
    at += chunk.count;
  }
  const chunks = new Set<number>();
  for (const term of affected) {
    // The chunk holding the term's place among the memo's terms; one before it too when the term
    // would come first in a chunk (a new term may go either side of that cut).
    const place = lowerBound(memo.terms, term);
    const c = upperBound(starts, place) - 1;
    if (c >= 0) chunks.add(c);
    if (c > 0 && starts[c] === place) chunks.add(c - 1);
  }
  const wanted = new Set(affected);
  for (const c of chunks) for (let i = starts[c]!; i < starts[c]! + memo.chunks[c]!.count; i++) wanted.add(memo.terms[i]!);
  return [...wanted].sort(compareCodeUnits);
}

/** Where a patch's entries came from (tests and figures). */
export interface PatchStats {
  /** Affected terms, their entries edited from the output's files. */
  spliced: number;
  /** Unchanged terms of chunks made again, read from the output's files. */
  read: number;
  /** Terms gathered from every document's tokens (the files could not be read, or there were none). */
  scanned: number;
}

/**
 * The entries of chosen terms: from the files of the live output (builder/search-splice.ts),
 * the affected terms' edited there; the rest gathered from every document's tokens (`Scan`).
 */
class Gather {
  readonly stats: PatchStats = { spliced: 0, read: 0, scanned: 0 };
  private scan: Scan | undefined;
  /** Where each chunk of the memo starts among its terms, and the entries of those read. */
  private readonly starts: number[] = [];
  private readonly chunks = new Map<number, Map<string, Entry> | undefined>();
  private readonly parts: Map<string, DocPart[]>;
  private readonly changedSet: ReadonlySet<number>;

  constructor(
    private readonly input: PatchInput,
    changed: readonly number[],
    private readonly affected: ReadonlySet<string>,
    private readonly fresh: ReturnType<typeof tokenizeCorpus>,
    private readonly freshOf: ReadonlyMap<number, number>,
  ) {
    let at = 0;
    for (const chunk of input.memo.chunks) {
      this.starts.push(at);
      at += chunk.count;
    }
    this.changedSet = new Set(changed);
    const docs = changed.map((doc, i) => ({ doc, tokens: fresh.tokens[i]!, description: fresh.starts[i * 2]!, content: fresh.starts[i * 2 + 1]! }));
    this.parts = input.read === undefined ? new Map() : docParts(docs, fresh.terms, affected);
  }

  /** The entries of `terms` (sorted); a term no document holds has none. */
  entries(terms: readonly string[]): Map<string, Entry> {
    const found = new Map<string, Entry>();
    const rest: string[] = [];
    for (const term of terms) {
      const entry = this.fromOutput(term);
      if (entry === null) rest.push(term);
      else if (entry !== undefined) found.set(term, entry);
    }
    if (rest.length > 0) {
      this.stats.scanned += rest.length;
      this.scan ??= new Scan(this.input, this.fresh, this.freshOf);
      for (const [term, entry] of this.scan.entries(rest)) found.set(term, entry);
    }
    return found;
  }

  /** The entry of `term` from the output's files; undefined when no document holds it, null when the files cannot tell. */
  private fromOutput(term: string): Entry | undefined | null {
    const { memo, read, opt } = this.input;
    if (read === undefined) return null;
    const place = lowerBound(memo.terms, term);
    let old: Entry | undefined;
    if (memo.terms[place] === term) {
      const c = upperBound(this.starts, place) - 1;
      if (!this.chunks.has(c)) this.chunks.set(c, readChunkEntries(memo.chunks[c]!, read));
      old = this.chunks.get(c)?.get(term);
      // What the memo says of the term, as a check of what the files hold.
      if (old === undefined || entrySize(old, opt.inlineMax) !== memo.sizes[place]) return null;
    }
    if (!this.affected.has(term)) {
      if (old === undefined) return null;
      this.stats.read++;
      return old;
    }
    try {
      const entry = spliceEntry(term, old, this.changedSet, this.parts.get(term) ?? [], opt.packBytes);
      this.stats.spliced++;
      return entry;
    } catch {
      return null;
    }
  }
}

/** Gathers the occurrences of chosen terms over every document (the unchanged ones' tokens from the cache). */
class Scan {
  /** Per document: the name's word count (`Corpus.starts[2d]`), then where content starts. */
  private readonly starts: Int32Array;

  constructor(
    private readonly input: PatchInput,
    private readonly fresh: ReturnType<typeof tokenizeCorpus>,
    private readonly freshOf: ReadonlyMap<number, number>,
  ) {
    const { docs } = input;
    this.starts = new Int32Array(docs.length * 2);
    for (let d = 0; d < docs.length; d++) {
      const { description, content } = this.tokensOf(d);
      this.starts[d * 2] = description;
      this.starts[d * 2 + 1] = content;
    }
  }

  private tokensOf(d: number): { tokens: Int32Array; description: number; content: number; fresh: boolean } {
    const i = this.freshOf.get(d);
    if (i !== undefined) {
      const f = this.fresh;
      return { tokens: f.tokens[i]!, description: f.starts[i * 2]!, content: f.starts[i * 2 + 1]!, fresh: true };
    }
    const hit = this.input.cache.docs.get(this.input.keys[d]!)!;
    return { tokens: hit.tokens, description: hit.description, content: hit.content, fresh: false };
  }

  /** The entries of `terms` (sorted); a term no document holds has none. */
  entries(terms: readonly string[]): Map<string, Entry> {
    const found = new Map<string, Entry>();
    if (terms.length === 0) return found;
    const { cache, docs, opt } = this.input;
    const local = new Map(terms.map((term, i) => [term, i]));
    // Each term's rank in `terms` under the cache's numbers and the fresh ones.
    const fromCache = new Int32Array(cache.terms.length).fill(-1);
    cache.terms.forEach((term, n) => {
      const i = local.get(term);
      if (i !== undefined) fromCache[n] = i;
    });
    const fromFresh = Int32Array.from(this.fresh.terms, (term) => local.get(term) ?? -1);
    // One pass over every token: the hits (document, token index, rank) of the wanted terms, in
    // document and token order; then a counting sort by rank keeps that order within each term.
    const count = new Int32Array(terms.length);
    let hitDoc = new Int32Array(1 << 16);
    let hitAt = new Int32Array(1 << 16);
    let hitRank = new Int32Array(1 << 16);
    let hits = 0;
    for (let d = 0; d < docs.length; d++) {
      const { tokens, fresh } = this.tokensOf(d);
      const rank = fresh ? fromFresh : fromCache;
      for (let i = 0; i < tokens.length; i++) {
        const r = rank[tokens[i]!]!;
        if (r < 0) continue;
        if (hits === hitDoc.length) {
          hitDoc = grow(hitDoc);
          hitAt = grow(hitAt);
          hitRank = grow(hitRank);
        }
        hitDoc[hits] = d;
        hitAt[hits] = i;
        hitRank[hits++] = r;
        count[r]!++;
      }
    }
    const next = new Int32Array(terms.length);
    for (let r = 0, n = 0; r < terms.length; r++) {
      next[r] = n;
      n += count[r]!;
    }
    const doc = new Int32Array(hits);
    const bit = new Uint8Array(hits);
    const position = new Int32Array(hits);
    for (let h = 0; h < hits; h++) placeOccurrence(next[hitRank[h]!]!++, hitDoc[h]!, hitAt[h]!, this.starts, doc, bit, position);
    const encoder = new TermEncoder(opt);
    let x = 0;
    for (let r = 0; r < terms.length; r++) {
      const end = x + count[r]!;
      if (end > x) found.set(terms[r]!, encoder.entry(terms[r]!, doc, bit, position, x, end, this.starts));
      x = end;
    }
    return found;
  }
}

/**
 * Per term of one document, what its entry holds of the document: each occurrence's field and
 * position in the field, and the name's word count when it is in the name (the name focus,
 * builder/search-index.ts). A term whose text here is the same before and after an edit has the
 * same entry (documents keep their numbers).
 */
function occurrences(doc: { tokens: Int32Array; description: number; content: number }, terms: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  const { tokens, description, content } = doc;
  for (let i = 0; i < tokens.length; i++) {
    const term = terms[tokens[i]!]!;
    const at = i < description ? `n${i}|${description},` : i < content ? `d${i - description},` : `c${i - content},`;
    found.set(term, (found.get(term) ?? '') + at);
  }
  return found;
}

/** A copy of `array` twice as long. */
function grow(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/**
 * Write the delta token cache: the documents of `delta` (few: `deltaMax` at most), their tokens
 * taken from `cache` where it has them (a document patched by an earlier build) and only the
 * others tokenized.
 */
export function writeTokenDelta(file: string, code: string, delta: readonly SkillRecord[], cache: TokenCache | undefined): void {
  if (delta.length === 0) {
    rmSync(file, { force: true });
    return;
  }
  writeTokenCache(file, code, delta, tokenizeCorpus(delta, cache));
}

/** The token caches and memo of an incremental build's index, and how to keep the output's files. */
export interface IncrementalIndex {
  /** The large token cache (builder/search-corpus.ts); the delta and the memo are beside it. */
  file: string;
  /** The build code's hash: caches of other code are not used. */
  code: string;
  /** Keep these files of the live output (an in-place build); without it the index is made whole. */
  keep?: (paths: string[]) => boolean;
  /** The large token cache, already being read (builder/token-cache-thread.ts); read here when not given. */
  large?: Promise<TokenCache | undefined>;
  /** Read a file of the live output (see `PatchInput.read`). */
  read?: ReadOutput;
  /** Told where a patch's entries came from. */
  onPatch?: (stats: PatchStats) => void;
  /** Told how many summary groups were made (the others' names came from the memo and their files were kept). */
  onSummaries?: (made: number) => void;
}

/**
 * The term chunks of an incremental build: patched when the memo and the token caches allow it
 * (`planPatch`), otherwise made whole by `whole` from the corpus (unchanged documents' tokens from
 * the caches), the large token cache written again and the delta removed. The memo is written
 * either way.
 */
export async function incrementalTerms(
  docs: readonly SkillRecord[],
  opt: Required<SearchIndexOptions>,
  put: Put,
  putAs: PutAs,
  index: IncrementalIndex,
  whole: (corpus: ReturnType<typeof tokenizeCorpus>) => Promise<ChunkWriter>,
): Promise<ChunkWriter> {
  const { file, code, keep } = index;
  const deltaFile = `${file}.delta`;
  const memoFile = `${file}.memo`;
  const large = index.large === undefined ? readTokenCache(file, code) : await index.large;
  const cache = mergeTokenCaches(large, readTokenCache(deltaFile, code));
  const keys = docs.map(documentKey);
  const memo = keep === undefined || cache === undefined ? undefined : readSearchMemo(memoFile, code, opt);
  const deltaMax = Math.max(64, Math.ceil(docs.length / 100));
  const plan = memo === undefined || cache === undefined ? undefined : planPatch({ docs, keys, memo, cache, inLarge: (key) => large?.docs.has(key) === true, deltaMax });
  let writer: ChunkWriter;
  if (plan !== undefined) {
    const { read, onPatch } = index;
    writer = await patchTerms({ docs, keys, memo: memo!, cache: cache!, opt, put, putAs, keep: keep!, ...(read === undefined ? {} : { read }), ...(onPatch === undefined ? {} : { onPatch }) }, plan.changed);
    writeTokenDelta(deltaFile, code, plan.delta, cache);
  } else {
    const corpus = tokenizeCorpus(docs, cache);
    writeTokenCache(file, code, docs, corpus);
    rmSync(deltaFile, { force: true });
    writer = await whole(corpus);
  }
  writeSearchMemo(memoFile, code, opt, docs, keys, writer);
  return writer;
}
