/**
 * The search index's corpus (builder/search-index.ts): every document as term numbers, terms
 * numbered in sorted order, and the token cache of `--incremental` builds, which keeps each
 * document's tokens by what they depend on so an unchanged document is not scanned again
 * (scanning every word of every SKILL.md is most of the index's time at 100k skills).
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ASCII_WORD, isWordCodePoint, processTerm } from '../src/search/options.ts';
import type { SkillRecord } from './model.ts';
import { derivedOf } from './record-memo.ts';
import { compareCodeUnits } from './sort-orders.ts';

/** Every document as term numbers (stop words dropped), terms numbered in sorted order. */
export interface Corpus {
  /** Sorted terms; a term's number is its index. */
  terms: string[];
  /** Per document: the term numbers of name, description and content, one after the other. */
  tokens: Int32Array[];
  /** Per document: where description and content start in `tokens` (2 numbers each). */
  starts: Int32Array;
}

// Module constants, not the imported bindings: read once per character, an import can cost a
// getter call each time where modules are compiled to CommonJS (tsx, as the build runs in a clone).
const IS_ASCII_WORD = ASCII_WORD;
const isWordAbove = isWordCodePoint;

/** Term numbers of a document so far: `buffer[0, n)`. */
interface TokenBuffer {
  buffer: Int32Array;
  n: number;
}

/**
 * The term number (or -1: not indexed) of each raw word met, keyed by the word's UTF-16 units in
 * the text, so looking a word up makes no string (words repeat: only a new word is sliced and
 * given to `processTerm`). Open addressing over FNV-1a hashes, each slot holding all a probe
 * reads side by side (at 100k skills the table outgrows the caches); the words' units live in one
 * Uint16Array. Emptied when large, to bound memory on text of endless distinct words.
 */
class WordIds {
  /** Per slot: its word's hash, where its units start, their count (-1: an empty slot) and its term number. */
  private slots = new Int32Array(4 << 16).fill(-1);
  private units = new Uint16Array(1 << 20);
  private used = 0;
  private count = 0;

  /**
   * Append the term number of each word of `text` (the words of `words()`, src/search/options.ts)
   * to `out`, leaving out words that are not indexed (-1), computing a word's number with
   * `make(word)` the first time it is met. No string is made of a word met before (the build reads
   * 120M words at 100k skills; a string per word and a Map lookup by it cost twice the time of a
   * scan and a table keyed by ranges), and each word is hashed as it is scanned: its units are
   * read twice (scanned, then compared with the stored word), not three times.
   */
  tokenize(text: string, make: (word: string) => number, out: TokenBuffer): void {
    let start = -1;
    let h = 0;
    for (let i = 0; i < text.length; ) {
      const c = text.charCodeAt(i);
      let size = 1;
      let word: boolean;
      if (c < 128) word = IS_ASCII_WORD[c] === 1;
      else {
        const cp = text.codePointAt(i)!;
        if (cp > 0xffff) size = 2;
        word = isWordAbove(cp);
      }
      if (word) {
        if (start < 0) {
          start = i;
          h = 0x811c9dc5 | 0;
        }
        h = Math.imul(h ^ c, 16777619);
        if (size === 2) h = Math.imul(h ^ text.charCodeAt(i + 1), 16777619);
      } else if (start >= 0) {
        this.push(this.find(text, start, i, h, make), out);
        start = -1;
      }
      i += size;
    }
    if (start >= 0) this.push(this.find(text, start, text.length, h, make), out);
  }

  private push(id: number, out: TokenBuffer): void {
    if (id < 0) return;
    if (out.n === out.buffer.length) out.buffer = grow(out.buffer, out.n + 1);
    out.buffer[out.n++] = id;
  }

  /** The term number of `text[start, end)`, whose units hash to `h` (FNV-1a), computing it with `make(word)` the first time. */
  private find(text: string, start: number, end: number, h: number, make: (word: string) => number): number {
    const slots = this.slots;
    const mask = (slots.length >> 2) - 1;
    const len = end - start;
    let slot = h & mask;
    for (let s = slot << 2; slots[s + 2]! >= 0; s = slot << 2) {
      if (slots[s] === h && slots[s + 2] === len) {
        const units = this.units;
        const at = slots[s + 1]! - start;
        let k = start;
        while (k < end && units[at + k] === text.charCodeAt(k)) k++;
        if (k === end) return slots[s + 3]!;
      }
      slot = (slot + 1) & mask;
    }
    const id = make(text.slice(start, end));
    if (this.count >= 1_000_000) {
      this.count = 0;
      this.used = 0;
      this.slots.fill(-1);
      slot = h & mask;
    }
    this.store(text, start, len, h, id, slot);
    return id;
  }

  private store(text: string, start: number, len: number, h: number, id: number, slot: number): void {
    if (this.used + len > this.units.length) this.units = grow(this.units, this.used + len);
    for (let k = 0; k < len; k++) this.units[this.used + k] = text.charCodeAt(start + k);
    const s = slot << 2;
    this.slots[s] = h;
    this.slots[s + 1] = this.used;
    this.slots[s + 2] = len;
    this.slots[s + 3] = id;
    this.used += len;
    this.count++;
    // At most half full, so probes stay short: double and re-insert every entry.
    if (this.count * 2 > this.slots.length >> 2) {
      const old = this.slots;
      const slots = (this.slots = new Int32Array(old.length * 2).fill(-1));
      const mask = (slots.length >> 2) - 1;
      for (let x = 0; x < old.length; x += 4) {
        if (old[x + 2]! < 0) continue;
        let t = old[x]! & mask;
        while (slots[(t << 2) + 2]! >= 0) t = (t + 1) & mask;
        slots.set(old.subarray(x, x + 4), t << 2);
      }
    }
  }
}

/** A copy of `array` with room for at least `size` values (doubling). */
function grow<T extends Int32Array | Uint16Array>(array: T, size: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(array.length * 2, size));
  bigger.set(array);
  return bigger;
}

/**
 * Tokenize every document once with the shared options. A document `cache` holds tokens of (by
 * `documentKey`) is taken from it, not scanned again; the terms and numbers are the same as when
 * every document is scanned.
 */
export function tokenizeCorpus(docs: readonly SkillRecord[], cache?: TokenCache): Corpus {
  const ids = new Map<string, number>();
  const found: string[] = [];
  const idOf = (term: string): number => {
    let id = ids.get(term);
    if (id === undefined) {
      id = found.length;
      ids.set(term, id);
      found.push(term);
    }
    return id;
  };
  const termOf = (word: string): number => {
    const term = processTerm(word);
    return term === null ? -1 : idOf(term);
  };
  // The cached documents' term numbers are those of the cache's terms: each such term gets this
  // corpus's number when first met, so terms no document holds any more are dropped.
  const fromCache = cache === undefined ? undefined : new Int32Array(cache.terms.length).fill(-1);
  const known = new WordIds();
  const tokens: Int32Array[] = [];
  const starts = new Int32Array(docs.length * 2);
  const out: TokenBuffer = { buffer: new Int32Array(1024), n: 0 };
  for (const [d, skill] of docs.entries()) {
    const hit = cache?.docs.get(documentKey(skill));
    if (hit !== undefined) {
      const copy = hit.tokens.slice();
      for (let i = 0; i < copy.length; i++) {
        const old = copy[i]!;
        let id = fromCache![old]!;
        if (id < 0) id = fromCache![old] = idOf(cache!.terms[old]!);
        copy[i] = id;
      }
      starts[d * 2] = hit.description;
      starts[d * 2 + 1] = hit.content;
      tokens.push(copy);
      continue;
    }
    out.n = 0;
    known.tokenize(skill.name, termOf, out);
    starts[d * 2] = out.n;
    known.tokenize(skill.description, termOf, out);
    starts[d * 2 + 1] = out.n;
    known.tokenize(skill.body, termOf, out);
    tokens.push(out.buffer.slice(0, out.n));
  }
  // Renumber in sorted order, so number order is term order.
  const order = found.map((_, i) => i).sort((i, j) => compareCodeUnits(found[i]!, found[j]!));
  const renumber = new Int32Array(found.length);
  order.forEach((old, rank) => (renumber[old] = rank));
  for (const t of tokens) for (let i = 0; i < t.length; i++) t[i] = renumber[t[i]!]!;
  return { terms: order.map((i) => found[i]!), tokens, starts };
}

/**
 * What a document's tokens depend on: its name, its description and its SKILL.md (by SHA-256: the
 * body is the SKILL.md's, builder/model.ts). 16 bytes of a SHA-256.
 */
export function documentKey(skill: Pick<SkillRecord, 'name' | 'description' | 'sha'>): string {
  // Once per record: a record restored from the build cache brings it (builder/record-memo.ts).
  const memo = derivedOf(skill);
  return (memo.doc ??= createHash('sha256').update(`${skill.name}\0${skill.description}\0${skill.sha}`).digest('binary').slice(0, KEY_BYTES));
}

const KEY_BYTES = 16;
const FORMAT = 'skills-api-search-tokens';
const VERSION = 1;

/** The tokens of an earlier build's documents, by `documentKey`, numbered by that build's `terms`. */
export interface TokenCache {
  terms: string[];
  docs: Map<string, { description: number; content: number; tokens: Int32Array }>;
}

/**
 * The token cache in `file` when it is whole and of build code `code`; undefined otherwise. The
 * file: a JSON header line (format, version, code, counts, the body's SHA-256), then the body: per
 * document its key, then per document 4 numbers (where its description and content start, where
 * its tokens start and how many), every document's tokens, and the terms, one per line. Numbers
 * are 32-bit little-endian (the format is only read on the machine that wrote it).
 */
export function readTokenCache(file: string, code: string): TokenCache | undefined {
  const bytes = readTokenCacheBytes(file, code);
  return bytes === undefined ? undefined : tokenCacheOf(bytes);
}

/** The body of a token cache file that passed every check of `readTokenCache`, with its counts. */
export interface TokenCacheBytes {
  docs: number;
  tokens: number;
  /** The body, in a buffer of its own (it can be moved to another thread). */
  body: Uint8Array;
}

/**
 * The body of the token cache in `file` when it is whole, of build code `code`, and every token
 * of every document names a term; undefined otherwise. The checks of `readTokenCache`, without
 * building its map (builder/token-cache-thread.ts makes them in another thread).
 */
export function readTokenCacheBytes(file: string, code: string): TokenCacheBytes | undefined {
  const read = readAligned(file);
  if (read === undefined) return undefined;
  try {
    const { header, body } = read;
    const { docs, tokens } = header;
    if (header.format !== FORMAT || header.version !== VERSION || header.code !== code || !Number.isSafeInteger(docs) || !Number.isSafeInteger(tokens)) return undefined;
    if (header.checksum !== createHash('sha256').update(body).digest('hex')) return undefined;
    const count = docs as number;
    const metaStart = align(count * KEY_BYTES);
    const meta = new Int32Array(body.buffer, metaStart, count * 4);
    const tokensStart = metaStart + count * 16;
    const all = new Int32Array(body.buffer, tokensStart, tokens as number);
    let terms = 1;
    for (let at = tokensStart + (tokens as number) * 4; at < body.length; at++) if (body[at] === 0x0a) terms += 1;
    for (let d = 0; d < count; d++) {
      const at = meta[d * 4 + 2]!;
      const length = meta[d * 4 + 3]!;
      if (at < 0 || length < 0 || at + length > all.length) return undefined;
      for (let i = at; i < at + length; i++) if (all[i]! < 0 || all[i]! >= terms) return undefined;
    }
    return { docs: count, tokens: tokens as number, body };
  } catch {
    return undefined;
  }
}

/** The token cache of a body `readTokenCacheBytes` checked. */
export function tokenCacheOf({ docs: count, tokens, body }: TokenCacheBytes): TokenCache {
  const keysEnd = count * KEY_BYTES;
  const metaStart = align(keysEnd);
  const meta = new Int32Array(body.buffer, metaStart, count * 4);
  const tokensStart = metaStart + count * 16;
  const all = new Int32Array(body.buffer, tokensStart, tokens);
  const terms = Buffer.from(body.buffer, tokensStart + tokens * 4).toString('utf8').split('\n');
  const found = new Map<string, { description: number; content: number; tokens: Int32Array }>();
  const keys = Buffer.from(body.buffer, 0, keysEnd).toString('latin1');
  for (let d = 0; d < count; d++) {
    const at = meta[d * 4 + 2]!;
    found.set(keys.slice(d * KEY_BYTES, (d + 1) * KEY_BYTES), { description: meta[d * 4]!, content: meta[d * 4 + 1]!, tokens: all.subarray(at, at + meta[d * 4 + 3]!) });
  }
  return { terms, docs: found };
}

/**
 * The header line of `file` and the bytes after it, read straight into a buffer of their own
 * (typed arrays over it need its start aligned; reading the whole file and copying the body held
 * both, hundreds of megabytes each, at once). Undefined when it cannot be read or has no header.
 */
function readAligned(file: string): { header: Record<string, unknown>; body: Uint8Array } | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    // The header is one short JSON line; read until its line break.
    let head = Buffer.alloc(0);
    let end = -1;
    while (end === -1 && head.length < size) {
      const chunk = Buffer.alloc(Math.min(4096, size - head.length));
      const got = readSync(fd, chunk, 0, chunk.length, head.length);
      if (got === 0) return undefined;
      head = Buffer.concat([head, chunk.subarray(0, got)]);
      end = head.indexOf(0x0a);
    }
    if (end === -1) return undefined;
    const header = JSON.parse(head.toString('utf8', 0, end)) as unknown;
    if (typeof header !== 'object' || header === null || Array.isArray(header)) return undefined;
    const body = new Uint8Array(size - end - 1);
    for (let at = 0; at < body.length; ) {
      const got = readSync(fd, body, at, body.length - at, end + 1 + at);
      if (got === 0) return undefined;
      at += got;
    }
    return { header: header as Record<string, unknown>, body };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Store `corpus` of `docs` (in corpus order) in `file` for build code `code`, replacing it
 * atomically. Never throws: without the file the next build scans every document.
 */
export function writeTokenCache(file: string, code: string, docs: readonly SkillRecord[], corpus: Corpus): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    // Terms are stored one per line: a term holding a line break (never made by `WordIds.tokenize`) is not stored.
    if (corpus.terms.some((term) => term.includes('\n'))) throw new Error('a term holds a line break');
    const total = corpus.tokens.reduce((sum, t) => sum + t.length, 0);
    const keys = Buffer.from(docs.map(documentKey).join(''), 'latin1');
    const meta = new Int32Array(docs.length * 4);
    let at = 0;
    corpus.tokens.forEach((t, d) => {
      meta.set([corpus.starts[d * 2]!, corpus.starts[d * 2 + 1]!, at, t.length], d * 4);
      at += t.length;
    });
    const tokens = new Int32Array(total);
    at = 0;
    for (const t of corpus.tokens) {
      tokens.set(t, at);
      at += t.length;
    }
    const parts = [keys, Buffer.alloc(align(keys.length) - keys.length), Buffer.from(meta.buffer), Buffer.from(tokens.buffer), Buffer.from(corpus.terms.join('\n'), 'utf8')];
    const hash = createHash('sha256');
    for (const part of parts) hash.update(part);
    const header = { format: FORMAT, version: VERSION, code, docs: docs.length, tokens: total, checksum: hash.digest('hex') };
    mkdirSync(dirname(file), { recursive: true });
    const fd = openSync(temporary, 'w');
    try {
      for (const part of [Buffer.from(`${JSON.stringify(header)}\n`), ...parts]) {
        for (let written = 0; written < part.length; ) written += writeSync(fd, part, written, part.length - written);
      }
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
      rmSync(file, { force: true });
    } catch {
      // A stale file is only a slower next build: its keys still say what each entry is.
    }
  }
}

/**
 * Two token caches as one: `main`, and `delta` (the documents an incremental build that patched
 * the index tokenized, builder/search-patch.ts) with its tokens renumbered into `main`'s terms
 * (terms only `delta` has are added after them). Either may be missing.
 */
export function mergeTokenCaches(main: TokenCache | undefined, delta: TokenCache | undefined): TokenCache | undefined {
  if (main === undefined || delta === undefined) return main ?? delta;
  const terms = [...main.terms];
  // Each of `delta`'s terms gets `main`'s number, or a new one after them.
  const deltaNumber = new Map(delta.terms.map((term, i) => [term, i]));
  const renumber = new Int32Array(delta.terms.length).fill(-1);
  for (let n = 0; n < main.terms.length; n++) {
    const i = deltaNumber.get(main.terms[n]!);
    if (i !== undefined) renumber[i] = n;
  }
  for (let i = 0; i < renumber.length; i++) {
    if (renumber[i]! >= 0) continue;
    renumber[i] = terms.length;
    terms.push(delta.terms[i]!);
  }
  const docs = new Map(main.docs);
  for (const [key, doc] of delta.docs) {
    const tokens = doc.tokens.slice();
    for (let i = 0; i < tokens.length; i++) tokens[i] = renumber[tokens[i]!]!;
    docs.set(key, { description: doc.description, content: doc.content, tokens });
  }
  return { terms, docs };
}

/** `n` rounded up to a multiple of 4. */
function align(n: number): number {
  return (n + 3) & ~3;
}
