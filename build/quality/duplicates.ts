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

/**
 * A key equal for texts whose `normalizeText` is equal (and rarely for others): FNV-1a over the
 * text with the BOM and every run of whitespace dropped and ASCII case folded, plus that length.
 */
function foldedKey(text: string): string {
  let h = 0x811c9dc5;
  let n = 0;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (c >= 65 && c <= 90) c |= 0x20;
    h = Math.imul(h ^ c, 0x01000193);
    n++;
  }
  return `${mix32(h)}:${n}`;
}

/** FNV-1a 32-bit of a string's UTF-16 units, then a murmur3 finalizer so the low bits mix well. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix32(h);
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
 * regular expression cost a third of the time at 10k skills).
 */
function isWordUnit(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || (c >= 0xc0 && !(c >= 0x2000 && c <= 0x206f) && c !== 0x3000 && c !== 0xfeff);
}

/**
 * The set of word 5-shingles of a body (ASCII case folded), as sorted distinct 32-bit hashes: one
 * pass over the text hashes each word (FNV-1a) without building it, and a shingle's hash combines
 * its five word hashes in order.
 */
export function shingles(body: string): Uint32Array {
  const words = new Uint32Array((body.length >> 1) + 1);
  let count = 0;
  let h = 0;
  let inWord = false;
  for (let i = 0; i <= body.length; i++) {
    let c = i < body.length ? body.charCodeAt(i) : 32;
    if (isWordUnit(c)) {
      if (!inWord) {
        h = 0x811c9dc5;
        inWord = true;
      }
      // ASCII case folded here; other scripts as written.
      if (c >= 65 && c <= 90) c |= 0x20;
      h = Math.imul(h ^ c, 0x01000193);
    } else if (inWord) {
      words[count++] = mix32(h);
      inWord = false;
    }
  }
  const out = new Uint32Array(Math.max(0, count - SHINGLE + 1));
  for (let i = 0; i < out.length; i++) {
    let s = 0x9747b28c;
    for (let j = 0; j < SHINGLE; j++) s = Math.imul(s ^ words[i + j]!, 0x9e3779b1) + j;
    out[i] = mix32(s);
  }
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

/** One-permutation MinHash: the least hash per bin; an empty bin takes the next filled one's (densification). */
function sketch(set: Uint32Array): Uint32Array {
  const bins = new Uint32Array(BINS).fill(0xffffffff);
  const filled = new Uint8Array(BINS);
  for (let i = 0; i < set.length; i++) {
    const h = set[i]!;
    const bin = h & (BINS - 1);
    // Within a bin the rest of the hash orders the shingles.
    const value = h >>> 6;
    if (!filled[bin] || value < bins[bin]!) {
      bins[bin] = value;
      filled[bin] = 1;
    }
  }
  for (let i = 0; i < BINS; i++) {
    if (filled[i]) continue;
    for (let step = 1; step < BINS; step++) {
      const j = (i + step) % BINS;
      if (filled[j]) {
        // Salted by the distance, so densified bins do not all agree by accident.
        bins[i] = (bins[j]! + Math.imul(step, 0x9e3779b1)) >>> 0;
        break;
      }
    }
  }
  return bins;
}

/** Find exact and near copies among `skills`. */
export function findDuplicates(skills: readonly DuplicateInput[]): { bySkill: Map<string, DuplicateInfo>; groups: DuplicateGroup[]; similarPairs: number; candidates: number } {
  const sorted = [...skills].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const bySkill = new Map<string, DuplicateInfo>();

  // Exact copies.
  // A streaming hash of the whitespace-folded text sorts skills into candidate groups; only the
  // members of a group are normalized and compared in full (a hash collision is not a copy).
  const exact = new Map<string, DuplicateInput[]>();
  for (const skill of sorted) {
    const key = foldedKey(skill.raw);
    const group = exact.get(key);
    if (group === undefined) exact.set(key, [skill]);
    else group.push(skill);
  }
  const groups: DuplicateGroup[] = [];
  for (const members of exact.values()) {
    if (members.length < 2) continue;
    const byText = new Map<string, DuplicateInput[]>();
    for (const m of members) {
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

  // Near copies: LSH buckets of the sketches, candidates verified exactly.
  const sets = new Map<string, Uint32Array>();
  // Bucket keys are numbers: the band times 2^32 plus a hash of its bins (a collision only adds a
  // candidate, which the exact check then drops).
  const buckets = new Map<number, string[]>();
  for (const skill of sorted) {
    const set = shingles(skill.body);
    if (set.length < MIN_SHINGLES) continue;
    sets.set(skill.id, set);
    const bins = sketch(set);
    for (let band = 0; band < BANDS; band++) {
      let h = 0x27d4eb2d;
      for (let r = 0; r < ROWS; r++) h = Math.imul(h ^ bins[band * ROWS + r]!, 0x01000193);
      const key = band * 0x100000000 + mix32(h);
      const bucket = buckets.get(key);
      if (bucket === undefined) buckets.set(key, [skill.id]);
      else bucket.push(skill.id);
    }
  }
  const checked = new Set<string>();
  const links = new Map<string, { id: string; similarity: number }[]>();
  let similarPairs = 0;
  let candidates = 0;
  for (const bucket of buckets.values()) {
    if (bucket.length < 2) continue;
    // A huge bucket is one template copied everywhere: its first members stand for it.
    const members = bucket.slice(0, 200);
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const a = members[i]!;
        const b = members[j]!;
        const pair = `${a}\0${b}`;
        if (checked.has(pair)) continue;
        checked.add(pair);
        // Exact copies of each other are reported as such, not as near copies.
        if (bySkill.get(a)?.duplicateOf === b || bySkill.get(b)?.duplicateOf === a || (bySkill.get(a)?.duplicateOf !== undefined && bySkill.get(a)?.duplicateOf === bySkill.get(b)?.duplicateOf)) continue;
        candidates++;
        const similarity = jaccard(sets.get(a)!, sets.get(b)!);
        if (similarity < THRESHOLD) continue;
        similarPairs++;
        links.set(a, [...(links.get(a) ?? []), { id: b, similarity }]);
        links.set(b, [...(links.get(b) ?? []), { id: a, similarity }]);
      }
    }
  }
  for (const [id, found] of links) {
    const similar = found
      .sort((x, y) => y.similarity - x.similarity || (x.id < y.id ? -1 : 1))
      .slice(0, MAX_SIMILAR)
      .map((f) => f.id)
      .sort();
    bySkill.set(id, { ...bySkill.get(id), similar });
  }
  return { bySkill, groups, similarPairs, candidates };
}
