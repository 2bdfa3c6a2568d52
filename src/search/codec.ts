/**
 * Compact string encodings of the search index files (JSON strings, so every host's loader reads
 * them; gzip compresses them well).
 *
 * Varint string: each non-negative integer is written big-endian in 5-bit groups, one character
 * per group; every group but the last uses a "continuation" character, the last a "terminal"
 * one. 0–31 take one character, up to 1,023 two, up to 32,767 three. Terminal digits are
 * `0-9a-v`, continuation digits `w-z A-Z - _` (all JSON-safe without escaping).
 *
 * Postings of one term: for each document holding it, in increasing document number, the value
 * `(gap << 4) | mask`, where `gap` is the distance from the previous document (the first document
 * counts from -1, so gaps are ≥ 1) and `mask` the fields holding the term (name 1, description 2,
 * content 4, see options.ts).
 *
 * Positions of one term in a set of fields (a position stream, format.ts): for each document of
 * its postings, in the same order, for each field bit of that document's mask that is in the set,
 * from low to high: the number of occurrences, then the positions (word index in the field, stop
 * words not counted), the first as is and the rest as gaps. A phrase matches where its words sit
 * at consecutive positions of one field.
 */

const TERMINAL = '0123456789abcdefghijklmnopqrstuv';
const CONTINUATION = 'wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_';

/** One-character strings by char code (short varint strings are concatenated from these). */
const CHAR = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
/** The digits are ASCII, so UTF-8 decoding is exact. */
const ASCII_DECODER = new TextDecoder();

/** charCode → digit value, +32 for a continuation digit, -1 for anything else. */
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < 32; i++) {
  DIGIT[TERMINAL.charCodeAt(i)] = i;
  DIGIT[CONTINUATION.charCodeAt(i)] = 32 + i;
}

/** The value of varint digit `code` (a char code): 0–31 terminal, 32–63 continuation (+32), -1 not a digit. */
export function varintDigit(code: number): number {
  return code < 128 ? DIGIT[code]! : -1;
}

/**
 * Builds varint strings in a reusable byte buffer (the build writes millions of them; one string
 * per number would drown the garbage collector). `take()` returns the text and empties the buffer.
 */
export class VarintWriter {
  private buf = new Uint8Array(1024);
  private len = 0;

  /** Append `n`, a non-negative safe integer. */
  push(n: number): void {
    if (!(Number.isSafeInteger(n) && n >= 0)) throw new RangeError(`varint: ${n} is not a non-negative integer`);
    let digits = 1;
    for (let rest = Math.floor(n / 32); rest > 0; rest = Math.floor(rest / 32)) digits++;
    if (this.len + digits > this.buf.length) {
      const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.len + digits));
      bigger.set(this.buf.subarray(0, this.len));
      this.buf = bigger;
    }
    let at = this.len + digits - 1;
    this.buf[at] = TERMINAL.charCodeAt(n % 32);
    for (n = Math.floor(n / 32); n > 0; n = Math.floor(n / 32)) this.buf[--at] = CONTINUATION.charCodeAt(n % 32);
    this.len += digits;
  }

  /** Characters written since the last `take()`. */
  get size(): number {
    return this.len;
  }

  /** The text written since the last `take()`. */
  take(): string {
    let s = '';
    if (this.len <= 16) {
      for (let i = 0; i < this.len; i++) s += CHAR[this.buf[i]!]!;
    } else {
      s = ASCII_DECODER.decode(this.buf.subarray(0, this.len));
    }
    this.len = 0;
    return s;
  }
}

/** Encode a list of non-negative integers. */
export function encodeVarints(values: readonly number[]): string {
  const out = new VarintWriter();
  for (const v of values) out.push(v);
  return out.take();
}

/** Decode a varint string; throws on a character outside the alphabet or a cut-off number. */
export function decodeVarints(s: string): number[] {
  const out: number[] = [];
  let acc = 0;
  let open = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const d = c < 128 ? DIGIT[c]! : -1;
    if (d < 0) throw new Error(`varint: bad character at ${i}`);
    if (d >= 32) {
      acc = acc * 32 + (d - 32);
      open = true;
    } else {
      out.push(acc * 32 + d);
      acc = 0;
      open = false;
    }
  }
  if (open) throw new Error('varint: truncated number');
  return out;
}

/** Number of integers in a varint string (its terminal digits), without decoding it. */
export function countVarints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && DIGIT[c]! >= 0 && DIGIT[c]! < 32) n++;
  }
  return n;
}

/** The documents of one term and the fields of each (parallel arrays, documents increasing). */
export interface Postings {
  docs: Int32Array;
  masks: Uint8Array;
}

/**
 * Postings encoder, one document at a time (see the file comment): the build streams every term's
 * postings through it, and `encodePostings` is a loop over it, so the tests of one check the other.
 */
export class PostingsWriter {
  private readonly out = new VarintWriter();
  private prev = -1;

  /** Append `doc` (greater than the previous one of this term) with its field `mask`. */
  push(doc: number, mask: number): void {
    if (doc <= this.prev || mask < 1 || mask > 15 || (mask & 8 && !(mask & 1))) {
      throw new RangeError('postings: documents must increase, masks be 1–15 (8 only with the name bit)');
    }
    this.out.push((doc - this.prev) * 16 + mask);
    this.prev = doc;
  }

  /** The postings written since the last `take()`; the next push starts a new term. */
  take(): string {
    this.prev = -1;
    return this.out.take();
  }
}

/** Encode postings (see the file comment). */
export function encodePostings(docs: readonly number[], masks: readonly number[]): string {
  const out = new PostingsWriter();
  for (let i = 0; i < docs.length; i++) out.push(docs[i]!, masks[i]!);
  return out.take();
}

/** Decode postings. */
export function decodePostings(s: string): Postings {
  const values = decodeVarints(s);
  const docs = new Int32Array(values.length);
  const masks = new Uint8Array(values.length);
  let doc = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    doc += Math.floor(v / 16);
    docs[i] = doc;
    masks[i] = v & 15;
  }
  return { docs, masks };
}

/** Positions of one term in one document: one sorted array per field bit set in its mask (low bit first). */
export type DocPositions = number[][];

/**
 * Positions encoder, one field of one document at a time: its number of occurrences, then the
 * positions, the first as is and the rest as gaps. The build streams every term through it and
 * `encodePositions` is a loop over it (one copy, tested through either).
 */
export class PositionsWriter {
  private readonly out = new VarintWriter();

  /** Append one field's positions `positions[from, to)`, increasing. */
  field(positions: ArrayLike<number>, from = 0, to = positions.length): void {
    this.out.push(to - from);
    for (let i = from; i < to; i++) this.out.push(i === from ? positions[i]! : positions[i]! - positions[i - 1]!);
  }

  /** Characters written since the last `take()`. */
  get size(): number {
    return this.out.size;
  }

  /** The positions written since the last `take()`. */
  take(): string {
    return this.out.take();
  }
}

/** Encode the positions of one term (documents in postings order). */
export function encodePositions(perDoc: readonly DocPositions[]): string {
  const out = new PositionsWriter();
  for (const fields of perDoc) for (const positions of fields) out.field(positions);
  return out.take();
}

/**
 * Decoded positions of one term for chosen documents ("rows"), in flat typed arrays (a phrase
 * query reads thousands of them: no object per document). Rows are filled in order.
 */
export class PositionTable {
  /** The positions of row `r` in field slot `f` (0 name, 1 description, 2 content) are `values[start[3r+f] .. start[3r+f+1])`. */
  readonly start: Int32Array;
  values = new Int32Array(256);
  private length = 0;

  constructor(readonly rows: number) {
    this.start = new Int32Array(rows * 3 + 1);
  }

  /** Append a position to the slot being filled. */
  push(p: number): void {
    if (this.length === this.values.length) {
      const bigger = new Int32Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = p;
  }

  /** End slot `f` of row `r` (every slot before it is ended). */
  close(r: number, f: number): void {
    this.start[r * 3 + f + 1] = this.length;
  }
}

/**
 * Decode the positions of one term (or of a piece of them, `masks` being the masks of the postings
 * the piece covers) in the field bits `fields` (a position stream holds some fields only) for the
 * postings at `wanted` indexes (increasing) into rows `row`, `row + 1`, … of `table`; other
 * fields' slots stay empty. Throws when the text is malformed or ends before the last wanted posting.
 */
export function decodePositions(s: string, masks: Uint8Array, fields: number, wanted: ArrayLike<number>, table: PositionTable, row: number): void {
  let at = 0;
  /** The next varint of `s`. */
  const next = (): number => {
    let acc = 0;
    for (;;) {
      const c = s.charCodeAt(at);
      const d = c < 128 ? DIGIT[c]! : -1;
      if (d < 0) throw new Error(at >= s.length ? 'varint: truncated number' : `varint: bad character at ${at}`);
      at++;
      if (d < 32) return acc * 32 + d;
      acc = acc * 32 + (d - 32);
    }
  };
  let w = 0;
  for (let i = 0; i < masks.length && w < wanted.length; i++) {
    const keep = wanted[w] === i;
    for (let f = 0; f < 3; f++) {
      if (masks[i]! & fields & (1 << f)) {
        const count = next();
        let p = 0;
        for (let k = 0; k < count; k++) {
          const v = next();
          if (keep) table.push((p = k === 0 ? v : p + v));
        }
      }
      if (keep) table.close(row + w, f);
    }
    if (keep) w++;
  }
  if (w < wanted.length) throw new Error('positions: fewer documents than the postings');
}
