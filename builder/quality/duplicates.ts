/**
 * Copies among skills, near-linear in the number of skills (never all pairs):
 *
 * - **Exact copies**: SKILL.md texts equal once normalized (BOM, line endings, trailing
 *   whitespace, blank-line runs, case) form one group, by hash. The skill created first is the
 *   original (ties by id); every other one gets `duplicateOf`.
 * - **Near copies**: word 5-shingles of the normalized body (front matter left out, so a renamed
 *   copy still counts), sketched with one-permutation MinHash (`BINS` bins, one hash per shingle)
 *   and bucketed by LSH (`BANDS` bands of `ROWS` bins); pairs sharing a bucket are verified with
 *   the exact Jaccard similarity of their shingle sets, and linked (`similar`) at `THRESHOLD` or
 *   more. Bodies of fewer than `MIN_SHINGLES` shingles are too short to call.
 *
 * Deterministic: the same skills in any order give the same groups and links.
 */

/** What the detector needs of a skill. */
export interface DuplicateInput {
  id: string;
  createdAt: string;
  /** The raw SKILL.md. */
  raw: string;
  /** The Markdown body (front matter removed). */
  body: string;
}

/** What it finds for one skill. */
export interface DuplicateInfo {
  /** The original of an exact copy. */
  duplicateOf?: string;
  /** Near copies (other ids), sorted. */
  similar?: string[];
}

/** A group of exact copies. */
export interface DuplicateGroup {
  original: string;
  copies: string[];
}

/** Shingle Jaccard at or above which two bodies are near copies (measured: docs/quality.md). */
export const THRESHOLD = 0.8;
const SHINGLE = 5;
const MIN_SHINGLES = 20;
/** A power of two (bins are taken from the low bits). */
const BINS = 64;
const BANDS = 16;
const ROWS = BINS / BANDS;
/** Most near-copy links kept per skill: a template copied a thousand times links to its closest. */
const MAX_SIMILAR = 20;

/** The text copies are compared on: no BOM, LF line ends, no trailing whitespace, one blank line at most, ASCII lower case. */
export function normalizeText(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    // Spaces and tabs only (as `foldedKey` drops them), so equal texts always share a key.
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^[ \t\n]+|[ \t\n]+$/g, '')
    // ASCII case only, as `foldedKey` and `shingles` fold it.
    .replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/** murmur3's finalizer: every input bit reaches every output bit. */
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Whether a UTF-16 unit belongs to a word: ASCII letters and digits, and everything from U+00C0 on
 * but general punctuation and the ideographic space (a cheap stand-in for \p{L}\p{N}, whose
 * regular expression is far slower on this hot path, run for every character of every skill).
 */
function isWordUnit(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || (c >= 0xc0 && !(c >= 0x2000 && c <= 0x206f) && c !== 0x3000 && c !== 0xfeff);
}

/**
 * Hashes of the words of `text[from, to)` (FNV-1a, ASCII case folded, other scripts as written)
 * written into `out` from `at`; returns the end. One pass over char codes, no word built.
 */
function wordHashes(text: string, from: number, to: number, out: Uint32Array, at: number): number {
  let h = 0;
  let inWord = false;
  for (let i = from; i <= to; i++) {
    let c = i < to ? text.charCodeAt(i) : 32;
    if (isWordUnit(c)) {
      if (!inWord) {
        h = 0x811c9dc5;
        inWord = true;
      }
      if (c >= 65 && c <= 90) c |= 0x20;
      h = Math.imul(h ^ c, 0x01000193);
    } else if (inWord) {
      out[at++] = mix32(h);
      inWord = false;
    }
  }
  return at;
}

/** The hash of the shingle of `SHINGLE` words starting at `words[i]`. */
function shingleHash(words: Uint32Array, i: number): number {
  let s = 0x9747b28c;
  for (let j = 0; j < SHINGLE; j++) s = Math.imul(s ^ words[i + j]!, 0x9e3779b1) + j;
  return mix32(s);
}

/** The set of word 5-shingles of a body (ASCII case folded), as sorted distinct 32-bit hashes. */
export function shingles(body: string): Uint32Array {
  const words = new Uint32Array((body.length >> 1) + 1);
  const count = wordHashes(body, 0, body.length, words, 0);
  const out = new Uint32Array(Math.max(0, count - SHINGLE + 1));
  for (let i = 0; i < out.length; i++) out[i] = shingleHash(words, i);
  out.sort();
  // Distinct values, in place.
  let n = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[n++] = out[i]!;
  return out.subarray(0, n);
}

/** Exact Jaccard similarity of two sorted sets of distinct values. */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let both = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      both++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  const union = a.length + b.length - both;
  return union === 0 ? 0 : both / union;
}

/**
 * One skill read in one pass over its raw text: the key of its exact-copy group and the LSH keys
 * of its body's MinHash sketch. Its shingle set is not kept (at 100k skills that is gigabytes):
 * only skills that share a bucket get theirs, from `shingles`, to verify.
 */
export interface Sketch {
  /** Equal for texts whose `normalizeText` is equal (and rarely for others): the sequence of word hashes of the whole raw text. */
  exactKey: number;
  /** One key per band, or none when the body is too short to call. */
  bands: Uint32Array | undefined;
}

/** Reused between skills: word hashes of one text. */
let scratch = new Uint32Array(1 << 16);

export function sketchSkill(skill: Pick<DuplicateInput, 'raw' | 'body'>): Sketch {
  const { raw, body } = skill;
  if (scratch.length < (raw.length >> 1) + 2) scratch = new Uint32Array((raw.length >> 1) + 2);
  // The body is the raw text's tail (front-matter.ts): its words start where the head's end.
  // A word cannot span the two, the head ending with a line break.
  const headEnd = raw.endsWith(body) ? raw.length - body.length : -1;
  let bodyStart: number;
  let count: number;
  if (headEnd >= 0) {
    bodyStart = wordHashes(raw, 0, headEnd, scratch, 0);
    count = wordHashes(raw, headEnd, raw.length, scratch, bodyStart);
  } else {
    // Not its tail (a caller's own body): the raw text's words, then the body's apart.
    const rawCount = wordHashes(raw, 0, raw.length, scratch, 0);
    if (scratch.length < rawCount + (body.length >> 1) + 2) {
      const grown = new Uint32Array(rawCount + (body.length >> 1) + 2);
      grown.set(scratch.subarray(0, rawCount));
      scratch = grown;
    }
    bodyStart = rawCount;
    count = wordHashes(body, 0, body.length, scratch, rawCount);
  }
  // Whitespace, line ends, a BOM and ASCII case (all `normalizeText` changes) never change the
  // word sequence, so equal normalized texts always share this key.
  let key = 0x811c9dc5;
  const rawWords = headEnd >= 0 ? count : bodyStart;
  for (let i = 0; i < rawWords; i++) key = Math.imul(key ^ scratch[i]!, 0x01000193);
  const exactKey = mix32(key) * 0x200000 + (rawWords & 0x1fffff);

  const shingleCount = count - bodyStart - SHINGLE + 1;
  // Distinct shingles are at most this many: fewer than MIN_SHINGLES in all is too short.
  if (shingleCount < MIN_SHINGLES) return { exactKey, bands: undefined };
  // One-permutation MinHash straight from the shingle hashes (a repeated shingle changes no
  // minimum, so the set needs no sorting): the least hash per bin.
  const bins = new Uint32Array(BINS).fill(0xffffffff);
  const filled = new Uint8Array(BINS);
  let distinctBins = 0;
  for (let i = bodyStart; i < bodyStart + shingleCount; i++) {
    const h = shingleHash(scratch, i);
    const bin = h & (BINS - 1);
    // Within a bin the rest of the hash orders the shingles.
    const value = h >>> 6;
    if (!filled[bin]) {
      filled[bin] = 1;
      distinctBins++;
      bins[bin] = value;
    } else if (value < bins[bin]!) bins[bin] = value;
  }
  // A body of few distinct shingles (a line repeated) is too short to call, as before.
  if (distinctBins < Math.min(BINS, MIN_SHINGLES) && distinctShingles(scratch, bodyStart, shingleCount) < MIN_SHINGLES) return { exactKey, bands: undefined };
  // An empty bin takes the next filled one's (densification), salted by the distance so
  // densified bins do not all agree by accident.
  for (let i = 0; i < BINS; i++) {
    if (filled[i]) continue;
    for (let step = 1; step < BINS; step++) {
      const j = (i + step) % BINS;
      if (filled[j]) {
        bins[i] = (bins[j]! + Math.imul(step, 0x9e3779b1)) >>> 0;
        break;
      }
    }
  }
  const bands = new Uint32Array(BANDS);
  for (let band = 0; band < BANDS; band++) {
    let h = 0x27d4eb2d;
    for (let r = 0; r < ROWS; r++) h = Math.imul(h ^ bins[band * ROWS + r]!, 0x01000193);
    bands[band] = mix32(h);
  }
  return { exactKey, bands };
}

/** How many distinct shingles start at `words[from, from + count)` (only for short or repetitive bodies). */
function distinctShingles(words: Uint32Array, from: number, count: number): number {
  const seen = new Set<number>();
  for (let i = from; i < from + count && seen.size < MIN_SHINGLES; i++) seen.add(shingleHash(words, i));
  return seen.size;
}

/** Find exact and near copies among `skills` (`sketches` by id: computed earlier, else here). */
export function findDuplicates(skills: readonly DuplicateInput[], sketches?: ReadonlyMap<string, Sketch>): { bySkill: Map<string, DuplicateInfo>; groups: DuplicateGroup[]; similarPairs: number; candidates: number } {
  const sorted = [...skills].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const n = sorted.length;
  const bySkill = new Map<string, DuplicateInfo>();
  const sketched = sorted.map((skill) => sketches?.get(skill.id) ?? sketchSkill(skill));

  // Exact copies: skills sharing a key are normalized and compared in full (a key collision is
  // not a copy).
  const exact = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const key = sketched[i]!.exactKey;
    const group = exact.get(key);
    if (group === undefined) exact.set(key, [i]);
    else group.push(i);
  }
  const groups: DuplicateGroup[] = [];
  for (const members of exact.values()) {
    if (members.length < 2) continue;
    const byText = new Map<string, DuplicateInput[]>();
    for (const i of members) {
      const m = sorted[i]!;
      const text = normalizeText(m.raw);
      byText.set(text, [...(byText.get(text) ?? []), m]);
    }
    for (const group of byText.values()) {
      if (group.length < 2) continue;
      const ordered = [...group].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
      const original = ordered[0]!.id;
      const copies = ordered.slice(1).map((s) => s.id).sort();
      groups.push({ original, copies });
      for (const copy of copies) bySkill.set(copy, { duplicateOf: original });
    }
  }
  groups.sort((a, b) => (a.original < b.original ? -1 : 1));

  // Near copies: per band, skills sorted by that band's key (packed with their index into one
  // float, so a native numeric sort does it); runs of equal keys are the LSH buckets. Candidates
  // are verified with the exact Jaccard of their shingle sets, built only for them.
  const indexBits = Math.max(21, Math.ceil(Math.log2(n + 1)));
  const keyScale = 2 ** indexBits;
  // Fewer key bits when there are more skills than 2^21 (a shared key only adds a candidate).
  const keyShift = 2 ** Math.max(0, indexBits - 21);
  const packed = new Float64Array(n);
  const sets = new Map<number, Uint32Array>();
  const setOf = (i: number): Uint32Array => {
    let set = sets.get(i);
    if (set === undefined) sets.set(i, (set = shingles(sorted[i]!.body)));
    return set;
  };
  const checked = new Set<number>();
  const links = new Map<number, { id: string; similarity: number }[]>();
  let similarPairs = 0;
  let candidates = 0;
  for (let band = 0; band < BANDS; band++) {
    let m = 0;
    for (let i = 0; i < n; i++) {
      const bands = sketched[i]!.bands;
      if (bands !== undefined) packed[m++] = Math.floor(bands[band]! / keyShift) * keyScale + i;
    }
    const keys = packed.subarray(0, m).sort();
    for (let start = 0; start < m; ) {
      const bucket = Math.floor(keys[start]! / keyScale);
      let end = start + 1;
      while (end < m && Math.floor(keys[end]! / keyScale) === bucket) end++;
      // Most buckets hold one skill: no pair, and no array made for it.
      if (end - start < 2) {
        start = end;
        continue;
      }
      // A huge bucket is one template copied everywhere: its first members stand for it.
      const members: number[] = [];
      for (let k = start; k < Math.min(end, start + 200); k++) members.push(keys[k]! % keyScale);
      start = end;
      for (let x = 0; x < members.length; x++) {
        for (let y = x + 1; y < members.length; y++) {
          const i = members[x]!;
          const j = members[y]!;
          const pair = i * keyScale + j;
          if (checked.has(pair)) continue;
          checked.add(pair);
          const a = sorted[i]!.id;
          const b = sorted[j]!.id;
          // Exact copies of each other are reported as such, not as near copies.
          const ofA = bySkill.get(a)?.duplicateOf;
          const ofB = bySkill.get(b)?.duplicateOf;
          if (ofA === b || ofB === a || (ofA !== undefined && ofA === ofB)) continue;
          candidates++;
          const similarity = jaccard(setOf(i), setOf(j));
          if (similarity < THRESHOLD) continue;
          similarPairs++;
          links.set(i, [...(links.get(i) ?? []), { id: b, similarity }]);
          links.set(j, [...(links.get(j) ?? []), { id: a, similarity }]);
        }
      }
    }
  }
  for (const [i, found] of [...links].sort(([x], [y]) => x - y)) {
    const similar = found
      .sort((x, y) => y.similarity - x.similarity || (x.id < y.id ? -1 : 1))
      .slice(0, MAX_SIMILAR)
      .map((f) => f.id)
      .sort();
    const id = sorted[i]!.id;
    bySkill.set(id, { ...bySkill.get(id), similar });
  }
  return { bySkill, groups, similarPairs, candidates };
}
