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
const BINS = 64;
const BANDS = 16;
const ROWS = BINS / BANDS;
/** Most near-copy links kept per skill: a template copied a thousand times links to its closest. */
const MAX_SIMILAR = 20;

/** The text copies are compared on: no BOM, LF line ends, no trailing whitespace, one blank line at most, lower case. */
export function normalizeText(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .normalize('NFC')
    .toLowerCase();
}

/** FNV-1a 32-bit of a string's UTF-16 units, then a murmur3 finalizer so the low bits mix well. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The set of word 5-shingles of a body, as 32-bit hashes. */
export function shingles(body: string): Set<number> {
  const words = normalizeText(body).match(/[\p{L}\p{N}]+/gu) ?? [];
  const out = new Set<number>();
  for (let i = 0; i + SHINGLE <= words.length; i++) out.add(hash32(words.slice(i, i + SHINGLE).join(' ')));
  return out;
}

/** Exact Jaccard similarity of two sets. */
export function jaccard(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let both = 0;
  for (const x of small) if (large.has(x)) both++;
  const union = a.size + b.size - both;
  return union === 0 ? 0 : both / union;
}

/** One-permutation MinHash: the least hash per bin; an empty bin takes the next filled one's (densification). */
function sketch(set: ReadonlySet<number>): Uint32Array {
  const bins = new Uint32Array(BINS).fill(0xffffffff);
  const filled = new Uint8Array(BINS);
  for (const h of set) {
    const bin = h % BINS;
    // Within a bin the rest of the hash orders the shingles.
    const value = Math.floor(h / BINS);
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
export function findDuplicates(skills: readonly DuplicateInput[]): { bySkill: Map<string, DuplicateInfo>; groups: DuplicateGroup[]; similarPairs: number } {
  const sorted = [...skills].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const bySkill = new Map<string, DuplicateInfo>();

  // Exact copies.
  const normalized = new Map(sorted.map((skill) => [skill.id, normalizeText(skill.raw)]));
  const exact = new Map<string, DuplicateInput[]>();
  for (const skill of sorted) {
    const text = normalized.get(skill.id)!;
    const key = `${hash32(text)}:${text.length}`;
    const group = exact.get(key);
    if (group === undefined) exact.set(key, [skill]);
    else group.push(skill);
  }
  const groups: DuplicateGroup[] = [];
  for (const members of exact.values()) {
    if (members.length < 2) continue;
    // Same hash and length: confirm the texts are equal (a hash collision is not a copy).
    const byText = new Map<string, DuplicateInput[]>();
    for (const m of members) byText.set(normalized.get(m.id)!, [...(byText.get(normalized.get(m.id)!) ?? []), m]);
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
  const sets = new Map<string, Set<number>>();
  const buckets = new Map<string, string[]>();
  for (const skill of sorted) {
    const set = shingles(skill.body);
    if (set.size < MIN_SHINGLES) continue;
    sets.set(skill.id, set);
    const bins = sketch(set);
    for (let band = 0; band < BANDS; band++) {
      const key = `${band}:${Array.from(bins.subarray(band * ROWS, band * ROWS + ROWS)).join(',')}`;
      const bucket = buckets.get(key);
      if (bucket === undefined) buckets.set(key, [skill.id]);
      else bucket.push(skill.id);
    }
  }
  const checked = new Set<string>();
  const links = new Map<string, { id: string; similarity: number }[]>();
  let similarPairs = 0;
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
  return { bySkill, groups, similarPairs };
}
