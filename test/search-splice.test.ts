/**
 * Entries edited where documents changed (builder/search-splice.ts) against the entries a whole
 * build encodes (`TermEncoder`), over random documents: names, descriptions and contents of a
 * few words, some documents changed, added to or taken out of a term, and positions cut into
 * many pieces (tiny `packBytes`). Then the chunks read back from their files, and refused when a
 * file is not what its name says.
 */
import { describe, expect, it } from 'vitest';
import { ChunkWriter, TermEncoder, placeOccurrence, type ChunkLayout, type Entry, type SearchIndexOptions } from '../builder/search-index.ts';
import { docParts, readChunkEntries, spliceEntry } from '../builder/search-splice.ts';
import { searchFilePath } from '../src/search/format.ts';

const TERMS = ['alpha', 'beta', 'gamma', 'delta', 'omega'];

interface Doc {
  tokens: Int32Array;
  description: number;
  content: number;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomDoc(next: () => number): Doc {
  const name = Math.floor(next() * 4);
  const description = Math.floor(next() * 8);
  const content = Math.floor(next() * 40);
  const tokens = Int32Array.from({ length: name + description + content }, () => Math.floor(next() * TERMS.length));
  return { tokens, description: name, content: name + description };
}

function options(packBytes: number): Required<SearchIndexOptions> {
  return { chunkBytes: 300, inlineMax: 12, packBytes, shardSize: 2, shardGroup: 32, occurrenceBatch: 1_000_000, rootCopyMaxGzip: 0 };
}

/** The entry of term number `t` over `docs` as a whole build encodes it. */
function encoded(t: number, docs: readonly Doc[], packBytes: number): Entry | undefined {
  const starts = new Int32Array(docs.length * 2);
  docs.forEach((d, i) => {
    starts[i * 2] = d.description;
    starts[i * 2 + 1] = d.content;
  });
  const total = docs.reduce((sum, d) => sum + d.tokens.length, 0);
  const doc = new Int32Array(total);
  const bit = new Uint8Array(total);
  const position = new Int32Array(total);
  let k = 0;
  docs.forEach((d, i) => {
    for (let x = 0; x < d.tokens.length; x++) if (d.tokens[x] === t) placeOccurrence(k++, i, x, starts, doc, bit, position);
  });
  return k === 0 ? undefined : new TermEncoder(options(packBytes)).entry(TERMS[t]!, doc, bit, position, 0, k, starts);
}

describe('an entry edited where documents changed', () => {
  it('is the entry a whole build encodes, for 600 random edits', () => {
    const next = random(2026);
    let checked = 0;
    for (let trial = 0; trial < 600; trial++) {
      const packBytes = 4 + Math.floor(next() * 40);
      const before = Array.from({ length: 5 + Math.floor(next() * 40) }, () => randomDoc(next));
      const after = [...before];
      const changed = new Set<number>();
      for (let c = 1 + Math.floor(next() * 3); c > 0; c--) {
        const d = Math.floor(next() * after.length);
        changed.add(d);
        // Half of the time an edit in the middle: the same words, one more inserted.
        const old = after[d]!;
        if (next() < 0.5 && old.tokens.length > old.content) {
          const at = old.content + Math.floor(next() * (old.tokens.length - old.content));
          const tokens = Int32Array.from([...old.tokens.slice(0, at), Math.floor(next() * TERMS.length), ...old.tokens.slice(at)]);
          after[d] = { ...old, tokens };
        } else after[d] = randomDoc(next);
      }
      const docs = [...changed].sort((a, b) => a - b).map((d) => ({ doc: d, ...after[d]! }));
      const parts = docParts(docs, TERMS, new Set(TERMS));
      for (let t = 0; t < TERMS.length; t++) {
        const expected = encoded(t, after, packBytes);
        const actual = spliceEntry(TERMS[t]!, encoded(t, before, packBytes), changed, parts.get(TERMS[t]!) ?? [], packBytes);
        expect(actual, `trial ${trial}, ${TERMS[t]}`).toEqual(expected);
        checked++;
      }
    }
    expect(checked).toBe(3000);
  });

  it('is refused when its positions do not fit its postings', () => {
    const docs = [randomDoc(random(1)), randomDoc(random(2))].map((d) => ({ ...d, tokens: Int32Array.from([0, 0, 1, 0]), description: 1, content: 2 }));
    const entry = encoded(0, docs, 100)!;
    const parts = docParts([{ doc: 0, ...docs[0]! }], TERMS, new Set(['alpha']));
    expect(() => spliceEntry('alpha', { ...entry, body: { data: [entry.body.data[0]!.slice(0, -1)], starts: [0] } }, new Set([0]), parts.get('alpha')!, 100)).toThrow(/varint|positions/);
    expect(() => spliceEntry('alpha', { ...entry, body: { data: [`${entry.body.data[0]!}10`], starts: [0] } }, new Set([0]), parts.get('alpha')!, 100)).toThrow(/positions/);
  });
});

describe('the entries of a chunk read back from its files', () => {
  /** The files a chunk writer makes of `entries`, and its layout. */
  async function written(entries: Entry[]): Promise<{ files: Map<string, string>; chunks: ChunkLayout[] }> {
    const files = new Map<string, string>();
    const putAs = async (name: string, data: unknown): Promise<string> => {
      files.set(searchFilePath(name), JSON.stringify(data));
      return name;
    };
    const { hash } = await import('../builder/search-index.ts');
    const writer = new ChunkWriter(options(24), async (kind, data) => putAs(`${kind}.${hash(JSON.stringify(data))}`, data), putAs);
    for (const entry of entries) await writer.add(entry);
    await writer.flush();
    return { files, chunks: writer.chunks };
  }

  it('are the entries written, and refused when a file is missing or not what its name says', async () => {
    const next = random(7);
    const docs = Array.from({ length: 60 }, () => randomDoc(next));
    const entries = TERMS.map((_, t) => encoded(t, docs, 24)!).filter((e) => e !== undefined);
    const { files, chunks } = await written(entries);
    expect(entries.some((e) => e.body.data.length > 1), 'a term in several pieces').toBe(true);
    const read = [...chunks.flatMap((chunk) => [...readChunkEntries(chunk, (path) => files.get(path))!.values()])];
    expect(read).toEqual(entries);

    const chunk = chunks[0]!;
    for (const path of [searchFilePath(chunk.file), searchFilePath(chunk.positions[0]!)]) {
      const text = files.get(path)!;
      expect(readChunkEntries(chunk, (p) => (p === path ? undefined : files.get(p)))).toBeUndefined();
      expect(readChunkEntries(chunk, (p) => (p === path ? text.replace('"terms":["', '"terms":["x') : files.get(p)))).toBeUndefined();
    }
  });
});
