/**
 * Entries of the term index that an earlier build wrote, read back from the live output's files
 * and edited where documents changed (builder/search-patch.ts). An edit in the middle of one
 * SKILL.md moves the positions of every later word, so a few hundred terms change and their
 * chunks are made again; their entries, and those of the other terms of those chunks, come from
 * the files instead of from a pass over every document's tokens.
 *
 * Every file of the index is named by a hash of its text (builder/search-index.ts). A file is
 * taken only when its text still has that hash; otherwise the patch gathers the chunk's terms
 * from the tokens, as a whole build would.
 *
 * The encodings (src/search/codec.ts) are per document: a posting is one varint of the gap from
 * the previous document and the mask, and a document's positions in a stream are its fields'
 * counts and positions, independent of other documents. Editing some documents of an entry keeps
 * the text of every other document, encodes again only the gap after an edited document, and
 * cuts the positions into pieces again where a whole build cuts them (`TermEncoder`).
 */
import { PositionsWriter, VarintWriter, varintDigit } from '../src/search/codec.ts';
import { POSITION_STREAMS, searchFilePath, type TermChunk, type TermPack } from '../src/search/format.ts';
import { FIELD_BIT, NAME_FOCUS } from '../src/search/options.ts';
import { hash, type ChunkLayout, type Entry, type Pieces } from './search-index.ts';

/** The text of a file of the live output by its path (`searchFilePath`); undefined when it cannot be read. */
export type ReadOutput = (path: string) => string | undefined;

/** What one document holds of one term: its posting's mask and its positions text in each stream. */
export interface DocPart {
  doc: number;
  mask: number;
  head: string;
  body: string;
}

/**
 * The entries of the terms of `chunk`, from its term file, postings packs and positions packs;
 * undefined when a file is missing, does not have the hash its name says, or does not hold what
 * the layout says.
 */
export function readChunkEntries(chunk: ChunkLayout, read: ReadOutput): Map<string, Entry> | undefined {
  try {
    const group = chunk.file.slice('t.'.length);
    const texts = [chunk.file, ...chunk.packs.map((_, k) => `p.${group}.${k}`)].map((name) => read(searchFilePath(name)));
    if (texts.some((text) => text === undefined) || hash(texts.join('\n')) !== group) return undefined;
    const file = JSON.parse(texts[0]!) as TermChunk;
    if (file.terms.length !== chunk.count || file.terms[0] !== chunk.first) return undefined;
    const long = new Map<string, string>();
    for (const text of texts.slice(1)) {
      const pack = JSON.parse(text!) as TermPack;
      pack.terms.forEach((term, i) => long.set(term, pack.data[i]!));
    }
    const entries = new Map<string, Entry>();
    for (const [i, term] of file.terms.entries()) {
      const inline = file.postings[i]!;
      const postings = inline.startsWith('=') ? long.get(term) : inline;
      if (postings === undefined) return undefined;
      entries.set(term, { term, postings, head: { data: [], starts: [] }, body: { data: [], starts: [] } });
    }
    for (const [stream, refs] of [['head', file.headPositions], ['body', file.bodyPositions]] as const) {
      for (const [first, start, name] of refs) {
        const text = read(searchFilePath(name));
        if (text === undefined || name !== `q.${hash(text)}`) return undefined;
        const pack = JSON.parse(text) as TermPack;
        if (pack.terms[0] !== first) return undefined;
        for (const [i, term] of pack.terms.entries()) {
          const pieces = entries.get(term)?.[stream];
          if (pieces === undefined) return undefined;
          // A pack of one term may be a piece of a longer run of its positions; a pack of
          // several terms holds each of them whole.
          pieces.data.push(pack.data[i]!);
          pieces.starts.push(pack.terms.length === 1 ? start : 0);
        }
      }
    }
    return entries;
  } catch {
    return undefined;
  }
}

/**
 * Per wanted term, what each of `docs` (in document order) holds of it, as `TermEncoder` encodes
 * it: `description` and `content` are where those fields start in `tokens` (the name's word count
 * first), `terms` the text of each token number.
 */
export function docParts(
  docs: ReadonlyArray<{ doc: number; tokens: Int32Array; description: number; content: number }>,
  terms: readonly string[],
  wanted: ReadonlySet<string>,
): Map<string, DocPart[]> {
  const parts = new Map<string, DocPart[]>();
  const head = new PositionsWriter();
  const body = new PositionsWriter();
  for (const { doc, tokens, description, content } of docs) {
    // Token indexes of each wanted term, in order (and so by field, then position).
    const at = new Map<number, number[]>();
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (!wanted.has(terms[t]!)) continue;
      const list = at.get(t);
      if (list === undefined) at.set(t, [i]);
      else list.push(i);
    }
    for (const [t, indexes] of at) {
      const name = indexes.filter((i) => i < description);
      const summary = indexes.filter((i) => i >= description && i < content).map((i) => i - description);
      const text = indexes.filter((i) => i >= content).map((i) => i - content);
      let mask = 0;
      if (name.length > 0) {
        mask |= FIELD_BIT.name;
        head.field(name);
        // At least half of the name's words are this term (`TermEncoder`).
        if (2 * name.length >= description) mask |= NAME_FOCUS;
      }
      if (summary.length > 0) {
        mask |= FIELD_BIT.description;
        head.field(summary);
      }
      if (text.length > 0) {
        mask |= FIELD_BIT.content;
        body.field(text);
      }
      const term = terms[t]!;
      const list = parts.get(term);
      const part = { doc, mask, head: head.take(), body: body.take() };
      if (list === undefined) parts.set(term, [part]);
      else list.push(part);
    }
  }
  return parts;
}

/**
 * The entry of `term` with the documents of `changed` taken out of `old` (undefined: a term no
 * document held) and `parts` (of changed documents, in document order) put in; undefined when no
 * document holds the term. Throws when `old` is malformed. The result is the entry `TermEncoder`
 * gives for the same occurrences, cut into pieces of `packBytes` the same way.
 */
export function spliceEntry(term: string, old: Entry | undefined, changed: ReadonlySet<number>, parts: readonly DocPart[], packBytes: number): Entry | undefined {
  const postings = new Text();
  const head = new StreamText(packBytes);
  const body = new StreamText(packBytes);
  const digits = new VarintWriter();
  let index = 0;
  let previous = -1;
  let p = 0;
  const emit = (part: DocPart): void => {
    digits.push((part.doc - previous) * 16 + part.mask);
    postings.text(digits.take());
    previous = part.doc;
    if (part.head !== '') head.text(part.head);
    if (part.body !== '') body.text(part.body);
    index++;
    head.after(index);
    body.after(index);
  };
  if (old !== undefined) {
    const s = old.postings;
    const heads = new PiecesReader(old.head, POSITION_STREAMS.head);
    const bodies = new PiecesReader(old.body, POSITION_STREAMS.body);
    let at = 0;
    let doc = -1;
    for (let n = 0; at < s.length; n++) {
      const from = at;
      const value = readVarint(s, at);
      at = varintEnd;
      const before = doc;
      doc += Math.floor(value / 16);
      const mask = value & 15;
      heads.next(mask, n);
      bodies.next(mask, n);
      while (p < parts.length && parts[p]!.doc < doc) emit(parts[p++]!);
      if (changed.has(doc)) continue;
      // The same previous document: the same varint.
      if (before === previous) postings.copy(0, s, from, at);
      else {
        digits.push((doc - previous) * 16 + mask);
        postings.text(digits.take());
      }
      previous = doc;
      heads.copyTo(head);
      bodies.copyTo(body);
      index++;
      head.after(index);
      body.after(index);
    }
    heads.done();
    bodies.done();
  }
  while (p < parts.length) emit(parts[p++]!);
  if (index === 0) return undefined;
  return { term, postings: postings.take(), head: head.end(index), body: body.end(index) };
}

/** Where the varint `readVarint` or `skipVarints` read last ends. */
let varintEnd = 0;

/** The varint of `s` at `at`; its end is left in `varintEnd`. Throws when malformed. */
function readVarint(s: string, at: number): number {
  let value = 0;
  for (;;) {
    const d = varintDigit(s.charCodeAt(at));
    if (d < 0) throw new Error(at >= s.length ? 'varint: truncated number' : `varint: bad character at ${at}`);
    at++;
    if (d < 32) {
      varintEnd = at;
      return value * 32 + d;
    }
    value = value * 32 + (d - 32);
  }
}

/** Step over `count` varints of `s` from `at` (their values are not needed); the end is left in `varintEnd`. */
function skipVarints(s: string, at: number, count: number): void {
  while (count > 0) {
    const d = varintDigit(s.charCodeAt(at));
    if (d < 0) throw new Error(at >= s.length ? 'varint: truncated number' : `varint: bad character at ${at}`);
    at++;
    if (d < 32) count--;
  }
  varintEnd = at;
}

/** Text made of copied ranges of sources and new text; adjacent ranges of one source are copied as one. */
class Text {
  private readonly parts: string[] = [];
  private source = -1;
  private sourceText = '';
  private from = 0;
  private to = 0;
  size = 0;

  /** Append `text[from, to)`; `source` names the text (ranges of one source join when adjacent). */
  copy(source: number, text: string, from: number, to: number): void {
    if (from === to) return;
    if (source !== this.source || from !== this.to) {
      this.close();
      this.source = source;
      this.sourceText = text;
      this.from = from;
    }
    this.to = to;
    this.size += to - from;
  }

  text(text: string): void {
    this.close();
    this.parts.push(text);
    this.size += text.length;
  }

  take(): string {
    this.close();
    const text = this.parts.join('');
    this.parts.length = 0;
    this.size = 0;
    return text;
  }

  private close(): void {
    if (this.source >= 0) this.parts.push(this.from === 0 && this.to === this.sourceText.length ? this.sourceText : this.sourceText.slice(this.from, this.to));
    this.source = -1;
    this.sourceText = '';
  }
}

/** One position stream of an entry being made, cut into pieces as `TermEncoder` cuts them. */
class StreamText extends Text {
  private readonly pieces: Pieces = { data: [], starts: [] };
  private start = 0;

  constructor(private readonly packBytes: number) {
    super();
  }

  /** After `index` postings: a piece ends once it holds `packBytes`. */
  after(index: number): void {
    if (this.size >= this.packBytes) this.cut(index);
  }

  /** The pieces, the last one ended. */
  end(index: number): Pieces {
    if (this.size > 0) this.cut(index);
    return this.pieces;
  }

  private cut(next: number): void {
    this.pieces.data.push(this.take());
    this.pieces.starts.push(this.start);
    this.start = next;
  }
}

/** Reads one stream's positions of an entry document by document, across its pieces. */
class PiecesReader {
  private k = 0;
  private at = 0;
  private from = 0;
  private to = 0;

  constructor(
    private readonly pieces: Pieces,
    private readonly fields: number,
  ) {}

  /** Step over the positions of posting `n`, whose mask is `mask`. */
  next(mask: number, n: number): void {
    const bits = mask & this.fields;
    if (bits === 0) {
      this.from = this.to = this.at;
      return;
    }
    const { data, starts } = this.pieces;
    if (this.k < data.length && this.at === data[this.k]!.length) {
      this.k++;
      this.at = 0;
    }
    if (this.k >= data.length || starts[this.k]! > n) throw new Error('positions: fewer than the postings say');
    const s = data[this.k]!;
    this.from = this.at;
    for (let bit = 1; bit <= 4; bit <<= 1) {
      if ((bits & bit) === 0) continue;
      const count = readVarint(s, this.at);
      skipVarints(s, varintEnd, count);
      this.at = varintEnd;
    }
    this.to = this.at;
  }

  /** Copy the positions last stepped over to `out`. */
  copyTo(out: Text): void {
    if (this.to > this.from) out.copy(this.k, this.pieces.data[this.k]!, this.from, this.to);
  }

  /** Throws unless every piece was read to its end. */
  done(): void {
    const { data } = this.pieces;
    if (data.length > 0 && (this.k !== data.length - 1 || this.at !== data[this.k]!.length)) throw new Error('positions: more than the postings say');
  }
}
