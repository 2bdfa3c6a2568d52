/**
 * Query evaluation over the split index (DECISIONS §5): which documents match and in what order.
 *
 * - A word clause matches its exact term; a `plain` word also every term it prefixes (from
 *   `IMPLICIT_PREFIX_MIN` characters) and every term one edit away that shares its first
 *   `TYPO_SHARED_PREFIX` characters (from `TYPO_MIN` characters); a `prefix*` clause every term
 *   it prefixes. Expansions are capped at `MAX_EXPANSIONS` per clause, the most frequent first.
 * - A phrase matches where its words sit at consecutive positions of one field (stop words are
 *   not counted, so they are transparent): the documents holding all its words in a common field
 *   are candidates, and the words' stored positions are checked only for the candidates left after
 *   every other clause and filter.
 * - Positive clauses are ANDed; a document holding a negated clause anywhere (in its field, when
 *   it names one) is removed. A negated word matches that exact word only; `-word*` its prefix.
 * - Ranking is lexicographic: (1) the number of clauses matched by their exact term (a phrase is
 *   exact), (2) the sum over clauses of the best field weight (name 3, description 2, content 1)
 *   among the exact matches of the clause, or among its other matches when it has no exact one,
 *   (3) stars, (4) recency, then id — (3), (4) and id are the document number itself.
 *   `rankKey` packs (1) and (2) into one integer and `score` adds a fraction from the document
 *   number, so sorting by score is exactly that order.
 *
 * Shared caches. The reader (index-reader.ts) keeps per-clause arrays between queries and between
 * the concurrent requests of one engine; everything here relies on these invariants:
 * - A clause state (`clauseState`, one byte per document, keyed by the clause as written) is a
 *   function of the clause and the index only, never of the query around it, its filters or its
 *   page: evaluation reads it and must never clear or narrow it for one query. The one write
 *   allowed is a phrase's verification result (`select`), which holds for any query.
 * - A phrase's verification bytes (`phraseMatches`) only ever go from unknown to `VERIFIED` plus
 *   the fields found; a document once verified is never re-checked nor changed.
 * - The arrays are sized by the document count of the index that made them; a reader serves one
 *   index, and an array of another length is remade, never reused.
 * - Every write is idempotent: two requests verifying the same phrase at once (their position
 *   loads interleave) write the same bytes for the same documents, so neither can spoil the other.
 */
import type { PositionTable, Postings } from './codec.ts';
import { POSITION_STREAMS, type PositionStream } from './format.ts';
import type { MatchedWords } from './highlight.ts';
import { VERIFIED, type IndexReader, type TermInfo } from './index-reader.ts';
import {
  IMPLICIT_PREFIX_MIN,
  MAX_CLAUSES,
  MAX_EXPANSIONS,
  TYPO_MIN,
  TYPO_SHARED_PREFIX,
  bestFieldWeight,
  isTypoOf,
} from './options.ts';
import { clauseFields, formatClause, type Clause } from './query.ts';

/** One term a clause matches through, with its postings. */
export interface Expansion {
  info: TermInfo;
  exact: boolean;
  postings: Postings;
}

/** A clause with the terms it matches through (a phrase: its words, in order). */
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

/**
 * What one clause adds to the rank key of a document, by its state byte: `rankKey` is linear, so
 * a document's key is the sum over clauses (one exact unit when it matched exactly, plus the best
 * field weight of its exact matches, or of its other matches when none is exact). A table, because
 * the ranking loop runs over every candidate (thousands) of every query.
 */
const KEY_OF_STATE = Int32Array.from({ length: 64 }, (_, state) => {
  const exactFields = state >> 3;
  return rankKey(exactFields !== 0 ? 1 : 0, bestFieldWeight(exactFields !== 0 ? exactFields : state & 7));
});

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
    // Its words, exactly; a missing word: the phrase matches nothing (an empty plan).
    const infos = await Promise.all(clause.terms.map((term) => reader.lookup(term)));
    if (infos.some((i) => i === undefined)) return [];
    return infos.map((info) => ({ info: info!, exact: true }));
  }
  const { term, mode } = clause;
  // A negated plain word excludes that word only (DECISIONS §5: "contain it"); `-word*` its prefix.
  if (mode === 'exact' || (mode === 'plain' && (clause.negated || term.length < IMPLICIT_PREFIX_MIN))) {
    const info = await reader.lookup(term);
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
    // Fields holding every word of the phrase; that the words are adjacent there is checked
    // later, on the remaining candidates (`verifyPhrase`).
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
  // One term (or a phrase: its rarest word): its postings are the sorted members; else scan the dense state.
  const src = plan.terms.length === 1 || plan.clause.kind === 'phrase' ? (rarest(plan)?.postings.docs ?? new Int32Array(0)) : null;
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

/** The term of a plan with the fewest documents. */
function rarest(plan: ClausePlan): Expansion | undefined {
  let best = plan.terms[0];
  for (const t of plan.terms) if (t.postings.docs.length < best!.postings.docs.length) best = t;
  return best;
}

/** True when a plan needs positions: a phrase whose words are all in the index. */
function needsPositions(plan: ClausePlan): boolean {
  return plan.clause.kind === 'phrase' && plan.terms.length > 0;
}

/**
 * The fields of each candidate where the phrase's words are adjacent (word k at k positions after
 * word 0), given the fields where every word occurs (`possible`, which depends on the index and
 * the clause only): one byte per document, `VERIFIED` plus those fields for every candidate (0
 * fields when nowhere); other documents may hold what was verified before.
 */
async function verifyPhrase(reader: IndexReader, plan: ClausePlan, candidates: Int32Array, possible: Uint8Array): Promise<Uint8Array> {
  const clause = plan.clause as Extract<Clause, { kind: 'phrase' }>;
  const key = `${clause.field ?? ''}:${clause.terms.join(' ')}`;
  const known = reader.phraseMatches(key, possible.length);
  const docs = candidates.filter((d) => (known[d]! & VERIFIED) === 0);
  const found = new Uint8Array(docs.length);
  // Each position stream, for the candidates that may hold the phrase in its fields only.
  const streams = (Object.keys(POSITION_STREAMS) as PositionStream[]).map(async (stream) => {
    const bits = POSITION_STREAMS[stream];
    const ks: number[] = [];
    for (let k = 0; k < docs.length; k++) if (possible[docs[k]!]! & bits) ks.push(k);
    if (ks.length === 0) return;
    // Row r of each word's table: candidate ks[r] (every candidate is in every word's postings).
    const tables = await Promise.all(
      plan.terms.map((t) => {
        const rows = new Int32Array(ks.length);
        for (let r = 0; r < ks.length; r++) rows[r] = indexOf(t.postings.docs, docs[ks[r]!]!);
        return reader.positions(t.info, t.postings.masks, stream, rows);
      }),
    );
    const cursor = new Int32Array(tables.length);
    ks.forEach((k, r) => {
      const may = possible[docs[k]!]! & bits;
      for (let f = 0; f < 3; f++) if (may & (1 << f) && adjacent(tables, r, f, cursor)) found[k] = found[k]! | (1 << f);
    });
  });
  await Promise.all(streams);
  for (let k = 0; k < docs.length; k++) known[docs[k]!] = VERIFIED | found[k]!;
  return known;
}

/**
 * True when, in row `r` and field slot `f`, some position p of word 0 has word w at p + w for every
 * w. Positions are sorted, so one forward cursor per word suffices (`cursor`: scratch space).
 */
function adjacent(tables: readonly PositionTable[], r: number, f: number, cursor: Int32Array): boolean {
  const slot = r * 3 + f;
  for (let w = 1; w < tables.length; w++) cursor[w] = tables[w]!.start[slot]!;
  const first = tables[0]!;
  for (let x = first.start[slot]!; x < first.start[slot + 1]!; x++) {
    const p = first.values[x]!;
    let all = true;
    for (let w = 1; w < tables.length && all; w++) {
      const { start, values } = tables[w]!;
      const end = start[slot + 1]!;
      let j = cursor[w]!;
      while (j < end && values[j]! < p + w) j++;
      cursor[w] = j;
      if (j === end) return false; // later p are larger: word w has nothing left to match
      all = values[j] === p + w;
    }
    if (all) return true;
  }
  return false;
}

/** Evaluate planned clauses under a filter: the matching documents, ranked. */
export async function evaluate(reader: IndexReader, plans: readonly ClausePlan[], filter: DocFilter, docCount: number): Promise<Matches> {
  const { candidates, positive } = await select(reader, plans, filter, docCount);
  return rank(candidates, positive, docCount);
}

/** How many documents match planned clauses under a filter (`evaluate` without the ranking). */
export async function countMatches(reader: IndexReader, plans: readonly ClausePlan[], filter: DocFilter, docCount: number): Promise<number> {
  return (await select(reader, plans, filter, docCount)).candidates.length;
}

/** The state of a planned clause, from the reader's LRU when it has it (see `IndexReader.clauseState`). */
function stateOf(reader: IndexReader, plan: ClausePlan, docCount: number): Uint8Array {
  return reader.clauseState(formatClause(plan.clause), docCount, () => clauseState(plan, docCount));
}

/** The matching documents (increasing) and the positive clauses with their states. */
async function select(
  reader: IndexReader,
  plans: readonly ClausePlan[],
  filter: DocFilter,
  docCount: number,
): Promise<{ candidates: Int32Array; positive: Matches['positive'] }> {
  const positive = plans.filter((p) => !p.clause.negated).map((plan) => ({ plan, state: stateOf(reader, plan, docCount) }));
  const negative = plans.filter((p) => p.clause.negated).map((plan) => ({ plan, state: stateOf(reader, plan, docCount) }));

  // Drive from the clause with the fewest postings (a phrase: those of its rarest word).
  const size = (p: ClausePlan): number =>
    p.clause.kind === 'phrase' ? (rarest(p)?.postings.docs.length ?? 0) : p.terms.reduce((n, t) => n + t.postings.docs.length, 0);
  let driver = positive[0]!;
  for (const p of positive) if (size(p.plan) < size(driver.plan)) driver = p;

  // One mask of what the filters and the negated words leave (a negated phrase needs positions: later).
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
    // The state may be shared (the reader keeps it): what is written here holds for any query.
    let kept = 0;
    for (let i = 0; i < candidates.length; i++) {
      const doc = candidates[i]!;
      const fields = verified[doc]! & 7;
      p.state[doc] = fields | (fields << 3);
      if (fields !== 0) candidates[kept++] = doc;
    }
    candidates = candidates.subarray(0, kept);
  }
  for (const n of negative) {
    if (!needsPositions(n.plan)) continue;
    const maybe = candidates.filter((d) => n.state[d] !== 0);
    const verified = await verifyPhrase(reader, n.plan, maybe, n.state);
    // Candidates outside `maybe` lack a word of the phrase: their byte has no field bits either.
    candidates = candidates.filter((d) => (verified[d]! & 7) === 0);
  }
  return { candidates, positive };
}

/** `candidates` (increasing) ranked by their clause states (see the module comment). */
function rank(candidates: Int32Array, positive: Matches['positive'], docCount: number): Matches {
  const states = positive.map((p) => p.state);

  // Rank with a counting sort by key, descending; candidates are increasing, so each key's
  // documents stay in document order (stars, recency, id).
  const n = candidates.length;
  const keyOfDoc = new Int32Array(n);
  const counts = new Int32Array(rankKey(MAX_CLAUSES, 3 * MAX_CLAUSES) + 2);
  const clauses = states.length;
  for (let i = 0; i < n; i++) {
    const d = candidates[i]!;
    let key = 0;
    for (let k = 0; k < clauses; k++) key += KEY_OF_STATE[states[k]![d]!]!;
    keyOfDoc[i] = key;
    counts[key]!++;
  }
  // counts[key] becomes the first output slot of that key (higher keys first).
  let slot = 0;
  for (let key = counts.length - 1; key >= 0; key--) {
    const count = counts[key]!;
    counts[key] = slot;
    slot += count;
  }
  const docs = new Int32Array(n);
  const keys = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const key = keyOfDoc[i]!;
    const at = counts[key]!++;
    docs[at] = candidates[i]!;
    keys[at] = key;
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
