/**
 * Query evaluation over the split index (DECISIONS §5): which documents match and in what order.
 *
 * - A word clause matches its exact term; a `plain` word also every term it prefixes (from
 *   `IMPLICIT_PREFIX_MIN` characters) and every term one edit away that shares its first
 *   `TYPO_SHARED_PREFIX` characters (from `TYPO_MIN` characters); a `prefix*` clause every term
 *   it prefixes. Expansions are capped at `MAX_EXPANSIONS` per clause, the most frequent first.
 * - A phrase matches where its words are adjacent in one field: every pair of adjacent words is
 *   an entry of the pair dictionary; from three words on, the pairs' stored start positions must
 *   chain up (checked only for the candidates left after every other clause and filter).
 * - Positive clauses are ANDed; a document holding a negated clause anywhere (in its field, when
 *   it names one) is removed. A negated word matches that exact word only; `-word*` its prefix.
 * - Ranking is lexicographic: (1) the number of clauses matched by their exact term (a phrase is
 *   exact), (2) the sum over clauses of the best field weight (name 3, description 2, content 1)
 *   among the exact matches of the clause, or among its other matches when it has no exact one,
 *   (3) stars, (4) recency, then id — (3), (4) and id are the document number itself.
 *   `rankKey` packs (1) and (2) into one integer and `score` adds a fraction from the document
 *   number, so sorting by score is exactly that order.
 */
import type { Postings } from './codec.ts';
import { decodePositions } from './codec.ts';
import type { MatchedWords } from './highlight.ts';
import type { IndexReader, TermInfo } from './index-reader.ts';
import {
  IMPLICIT_PREFIX_MIN,
  MAX_CLAUSES,
  MAX_EXPANSIONS,
  TYPO_MIN,
  TYPO_SHARED_PREFIX,
  bestFieldWeight,
  isTypoOf,
} from './options.ts';
import { clauseFields, type Clause } from './query.ts';

/** One term a clause matches through, with its postings. */
export interface Expansion {
  info: TermInfo;
  exact: boolean;
  postings: Postings;
}

/** A clause with the entries it matches through (a phrase: its pairs of adjacent words, in order). */
export interface ClausePlan {
  clause: Clause;
  fields: number;
  terms: Expansion[];
}

/** Result of evaluating a query. */
export interface Matches {
  /** Number of documents in the index. */
  docCount: number;
  /** Matching documents, best first. */
  docs: Int32Array;
  /** `rankKey` of each entry of `docs`. */
  keys: Int32Array;
  /** Positive clauses and, per clause, the per-document state (bits 0–2 matched fields, 3–5 exact fields). */
  positive: Array<{ plan: ClausePlan; state: Uint8Array }>;
}

/** Restrictions from the filter parameters. */
export interface DocFilter {
  /** Only documents below this number (the `minStars` prefix); undefined: all. */
  below?: number;
  /** Allowed documents, each filter a sorted list; all must hold. */
  sets: ReadonlyArray<readonly number[]>;
  /** Excluded documents (`hasIndex=false`). */
  without?: readonly number[];
}

/** Integer of ranking factors (1) and (2); larger is better. */
export function rankKey(exactClauses: number, fieldWeight: number): number {
  // fieldWeight ≤ 3 per clause, at most MAX_CLAUSES clauses: it never reaches the next exact unit.
  return exactClauses * (4 * MAX_CLAUSES) + fieldWeight;
}

/** The `score` of a result: its rank key plus a fraction in (0, 1) that decreases with the document number. */
export function score(key: number, doc: number, docCount: number): number {
  return key + (docCount - doc) / (docCount + 1);
}

/** Pick at most `MAX_EXPANSIONS` non-exact terms, the most frequent first (ties by term). */
function capExpansions(exact: TermInfo | undefined, others: TermInfo[]): Array<{ info: TermInfo; exact: boolean }> {
  others.sort((a, b) => b.df - a.df || (a.term < b.term ? -1 : 1));
  const chosen = others.slice(0, MAX_EXPANSIONS).map((info) => ({ info, exact: false }));
  return exact === undefined ? chosen : [{ info: exact, exact: true }, ...chosen];
}

/** The terms a clause matches through (without postings); remembered by the reader. */
function expand(reader: IndexReader, clause: Clause): Promise<Array<{ info: TermInfo; exact: boolean }>> {
  const key = clause.kind === 'phrase' ? `"${clause.terms.join(' ')}"` : `${clause.negated ? '-' : ''}${clause.mode}:${clause.term}`;
  return reader.cached(key, () => expandUncached(reader, clause));
}

async function expandUncached(reader: IndexReader, clause: Clause): Promise<Array<{ info: TermInfo; exact: boolean }>> {
  if (clause.kind === 'phrase') {
    // The pairs of adjacent words; a missing pair: the phrase matches nothing (an empty plan).
    const pairs = clause.terms.slice(1).map((word, i) => `${clause.terms[i]!} ${word}`);
    const infos = await Promise.all(pairs.map((pair) => reader.lookup('pairs', pair)));
    if (infos.some((i) => i === undefined)) return [];
    return infos.map((info) => ({ info: info!, exact: true }));
  }
  const { term, mode } = clause;
  // A negated plain word excludes that word only (DECISIONS §5: "contain it"); `-word*` its prefix.
  if (mode === 'exact' || (mode === 'plain' && (clause.negated || term.length < IMPLICIT_PREFIX_MIN))) {
    const info = await reader.lookup('terms', term);
    return info === undefined ? [] : [{ info, exact: true }];
  }
  const typo = mode === 'plain' && term.length >= TYPO_MIN;
  const candidates = await reader.withPrefix(typo ? term.slice(0, TYPO_SHARED_PREFIX) : term);
  let exact: TermInfo | undefined;
  const others: TermInfo[] = [];
  for (const c of candidates) {
    if (c.term === term) exact = c;
    else if (c.term.startsWith(term) || (typo && isTypoOf(term, c.term))) others.push(c);
  }
  return capExpansions(exact, others);
}

/** Plan a clause: its terms and their postings. */
export async function planClause(reader: IndexReader, clause: Clause): Promise<ClausePlan> {
  const terms = await expand(reader, clause);
  const withPostings = await Promise.all(terms.map(async (t) => ({ ...t, postings: await reader.postings(t.info) })));
  return { clause, fields: clauseFields(clause), terms: withPostings };
}

/** Per-document state of a clause: bits 0–2 fields matched, bits 3–5 fields matched exactly. */
function clauseState(plan: ClausePlan, docCount: number): Uint8Array {
  const state = new Uint8Array(docCount);
  if (plan.clause.kind === 'phrase') {
    // Fields holding every pair of the phrase; with three words or more, that the pairs chain up
    // is checked later, on the few remaining candidates.
    if (plan.terms.length === 0) return state;
    const [first, ...rest] = plan.terms;
    const { docs, masks } = first!.postings;
    for (let i = 0; i < docs.length; i++) state[docs[i]!] = masks[i]! & plan.fields;
    for (const t of rest) {
      const next = new Uint8Array(docCount);
      const p = t.postings;
      for (let i = 0; i < p.docs.length; i++) next[p.docs[i]!] = state[p.docs[i]!]! & p.masks[i]!;
      state.set(next);
    }
    for (let d = 0; d < docCount; d++) state[d] = state[d]! | (state[d]! << 3);
    return state;
  }
  for (const t of plan.terms) {
    const { docs, masks } = t.postings;
    for (let i = 0; i < docs.length; i++) {
      const m = masks[i]! & plan.fields;
      if (m !== 0) state[docs[i]!] = state[docs[i]!]! | m | (t.exact ? m << 3 : 0);
    }
  }
  return state;
}

/**
 * Candidates: the documents of the driving clause (sorted) that every positive clause holds and
 * `open` allows. Typed arrays and index loops: this runs over tens of thousands of documents.
 */
function candidatesOf(driver: { plan: ClausePlan; state: Uint8Array }, states: readonly Uint8Array[], open: Uint8Array): Int32Array {
  const { plan, state } = driver;
  // One term (or a phrase): its postings are the sorted members; else scan the dense state.
  const src = plan.terms.length === 1 || plan.clause.kind === 'phrase' ? (plan.terms[0]?.postings.docs ?? new Int32Array(0)) : null;
  const n = src === null ? state.length : src.length;
  const out = new Int32Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const d = src === null ? i : src[i]!;
    if (state[d] === 0 || open[d] === 0) continue;
    let all = true;
    for (let k = 0; k < states.length; k++) {
      if (states[k]![d] === 0) {
        all = false;
        break;
      }
    }
    if (all) out[count++] = d;
  }
  return out.subarray(0, count);
}

/** Index of `doc` in sorted `docs`, or -1. */
function indexOf(docs: Int32Array, doc: number): number {
  let lo = 0;
  let hi = docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = docs[mid]!;
    if (d === doc) return mid;
    if (d < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** True when a phrase plan needs positions: three words or more (two words are one exact pair). */
function needsPositions(plan: ClausePlan): boolean {
  return plan.clause.kind === 'phrase' && plan.terms.length > 1;
}

/**
 * The fields of each candidate where the phrase's pairs chain up (pair k starts k words after
 * pair 0), given the fields where every pair occurs (`possible`); 0 when nowhere.
 */
async function verifyPhrase(reader: IndexReader, plan: ClausePlan, docs: ArrayLike<number>, possible: Uint8Array): Promise<Map<number, number>> {
  const verified = new Map<number, number>();
  const candidates = Array.from(docs);
  if (candidates.length === 0) return verified;
  const encoded = await Promise.all(plan.terms.map((t) => reader.positions(t.info)));
  // Start positions of every pair for every candidate: pair → (candidate → (field bit → positions)).
  const perWord = plan.terms.map((t, w) => {
    const idx = candidates.map((d) => indexOf(t.postings.docs, d));
    const decoded = decodePositions(encoded[w]!, t.postings.masks, [...new Set(idx)].sort((a, b) => a - b));
    return candidates.map((_, k) => decoded.get(idx[k]!));
  });
  candidates.forEach((doc, k) => {
    let fields = 0;
    for (let bit = 1; bit <= 4; bit <<= 1) {
      if (!(possible[doc]! & bit)) continue;
      const sets = perWord.map((w) => new Set(w[k]?.get(bit) ?? []));
      const starts = perWord[0]![k]?.get(bit) ?? [];
      if (starts.some((p) => sets.every((s, i) => s.has(p + i)))) fields |= bit;
    }
    verified.set(doc, fields);
  });
  return verified;
}

/** Evaluate planned clauses under a filter: the matching documents, ranked. */
export async function evaluate(reader: IndexReader, plans: readonly ClausePlan[], filter: DocFilter, docCount: number): Promise<Matches> {
  const positive = plans.filter((p) => !p.clause.negated).map((plan) => ({ plan, state: clauseState(plan, docCount) }));
  const negative = plans.filter((p) => p.clause.negated).map((plan) => ({ plan, state: clauseState(plan, docCount) }));

  // Drive from the clause with the fewest postings.
  const size = (p: ClausePlan): number => p.terms.reduce((n, t) => n + t.postings.docs.length, 0);
  let driver = positive[0]!;
  for (const p of positive) if (size(p.plan) < size(driver.plan)) driver = p;

  // One mask of what the filters and the negated words leave (a long negated phrase needs positions: later).
  const open = filterMask(filter, docCount) ?? new Uint8Array(docCount).fill(1);
  for (const n of negative) {
    if (needsPositions(n.plan)) continue;
    const st = n.state;
    for (let d = 0; d < docCount; d++) if (st[d] !== 0) open[d] = 0;
  }
  const states = positive.map((p) => p.state);
  let candidates = candidatesOf(driver, states, open);

  for (const p of positive) {
    if (!needsPositions(p.plan)) continue;
    const verified = await verifyPhrase(reader, p.plan, candidates, p.state);
    for (const [doc, fields] of verified) p.state[doc] = fields | (fields << 3);
    candidates = candidates.filter((d) => verified.get(d)! !== 0);
  }
  for (const n of negative) {
    if (!needsPositions(n.plan)) continue;
    const maybe = candidates.filter((d) => n.state[d] !== 0);
    const verified = await verifyPhrase(reader, n.plan, maybe, n.state);
    candidates = candidates.filter((d) => !verified.get(d));
  }

  // Rank with a counting sort by key, descending; candidates are increasing, so each key's
  // documents stay in document order (stars, recency, id).
  const n = candidates.length;
  const keyOfDoc = new Int32Array(n);
  const counts = new Int32Array(rankKey(MAX_CLAUSES, 3 * MAX_CLAUSES) + 2);
  for (let i = 0; i < n; i++) {
    const d = candidates[i]!;
    let exact = 0;
    let weight = 0;
    for (let k = 0; k < states.length; k++) {
      const s = states[k]![d]!;
      const exactFields = s >> 3;
      if (exactFields !== 0) exact++;
      weight += bestFieldWeight(exactFields !== 0 ? exactFields : s & 7);
    }
    const key = rankKey(exact, weight);
    keyOfDoc[i] = key;
    counts[key]!++;
  }
  // counts[key] becomes the first output slot of that key (higher keys first).
  let slot = 0;
  for (let key = counts.length - 1; key >= 0; key--) {
    const n = counts[key]!;
    counts[key] = slot;
    slot += n;
  }
  const docs = new Int32Array(n);
  const keys = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const at = counts[keyOfDoc[i]!]!++;
    docs[at] = candidates[i]!;
    keys[at] = keyOfDoc[i]!;
  }
  return { docCount, docs, keys, positive };
}

/** Allowed documents as a mask (null: all allowed). */
function filterMask(filter: DocFilter, docCount: number): Uint8Array | null {
  if (filter.below === undefined && filter.sets.length === 0 && filter.without === undefined) return null;
  const mask = new Uint8Array(docCount);
  mask.fill(1, 0, Math.min(docCount, filter.below ?? docCount));
  for (const set of filter.sets) {
    const keep = new Uint8Array(docCount);
    for (const d of set) if (d < docCount) keep[d] = mask[d]!;
    mask.set(keep);
  }
  for (const d of filter.without ?? []) if (d < docCount) mask[d] = 0;
  return mask;
}

/**
 * What matched a document in one field (bit), for highlights: every expansion of a word clause
 * whose postings hold the document in that field, every phrase verified there.
 */
export function matchedWords(matches: Matches, doc: number, bit: number): MatchedWords {
  const terms = new Set<string>();
  const phrases: string[][] = [];
  for (const { plan, state } of matches.positive) {
    if (!(state[doc]! & bit)) continue;
    if (plan.clause.kind === 'phrase') {
      phrases.push(plan.clause.terms);
      continue;
    }
    for (const t of plan.terms) {
      const i = indexOf(t.postings.docs, doc);
      if (i >= 0 && t.postings.masks[i]! & bit) terms.add(t.info.term);
    }
  }
  return { terms, phrases };
}
