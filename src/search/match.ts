/**
 * Query evaluation over the split index (docs/decisions.md §5): which documents match and in what order.
 *
 * - A word clause matches its exact term; a `plain` word also its other forms (every term with
 *   its stem, and its synonyms: forms.ts), every term it prefixes (from `IMPLICIT_PREFIX_MIN`
 *   characters) and every term one edit away that shares its first `TYPO_SHARED_PREFIX`
 *   characters (from `TYPO_MIN` characters); a `prefix*` clause every term it prefixes (each
 *   counts as written). Prefix and typo expansions are capped at `MAX_EXPANSIONS` per clause, the
 *   most frequent first; forms are not capped (a word has few).
 * - A phrase matches where its words sit at consecutive positions of one field (stop words are
 *   not counted, so they are transparent): the documents holding all its words in a common field
 *   are candidates, and the words' stored positions are checked only for the candidates left after
 *   every other clause and filter.
 * - Positive clauses are ANDed; a document holding a negated clause anywhere (in its field, when
 *   it names one) is removed. A negated word matches that exact word only; `-word*` its prefix.
 *   When fewer than `RELAX_BELOW` documents hold every plain word (unquoted, no field) and others
 *   hold some, the query is *relaxed*: documents holding at least one plain word and every other
 *   clause match, those holding the most plain words first.
 * - Ranking (docs/api.md "Ranking"): (1) the number of positive clauses matched (all of them unless
 *   relaxed), (2) the relevance: the sum over clauses of the clause's weight (`clauseWeight`, from
 *   how many documents it matches) times the best match weight in the document (`MATCH_WEIGHT`:
 *   field weight times kind: exact 5, other form 4, prefix or typo 1), (3) an exact copy directly
 *   after its original when both have the same (1) and (2), (4) stars, recency, then id — the
 *   document number itself. `rankKey` packs (1) and (2) into one integer, and `score` adds a
 *   fraction from the position, so sorting by score is exactly that order.
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
import { stemOf, stemScanPrefix, synonymsOf } from './forms.ts';
import { VERIFIED, type IndexReader, type TermInfo } from './index-reader.ts';
import {
  IMPLICIT_PREFIX_MIN,
  MAX_EXPANSIONS,
  NAME_FOCUS,
  NAME_FOCUS_WEIGHT,
  TYPO_MIN,
  TYPO_SHARED_PREFIX,
  bestFieldWeight,
  isTypoOf,
} from './options.ts';
import { clauseFields, formatClause, type Clause } from './query.ts';

/** How a term matches a clause: 2 as written, 1 another form (stem, synonym), 0 a prefix or a typo. */
export type MatchKind = 0 | 1 | 2;
export const EXACT: MatchKind = 2;
export const FORM: MatchKind = 1;
export const LOOSE: MatchKind = 0;

/** Weight of a match kind in the relevance (exact above other forms above prefixes and typos). */
export const KIND_WEIGHT: readonly number[] = [1, 4, 5];

/**
 * A term a clause matches through, without postings: an index term, or the words of a
 * multi-word synonym (`words`; it matches where they all occur in one field).
 */
export interface TermRef {
  info: TermInfo;
  kind: MatchKind;
  words?: TermInfo[];
}

/** One term a clause matches through, with its postings. */
export interface Expansion extends TermRef {
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
  /** Positive clauses and, per clause, the per-document state (bits 0–2 matched fields, 3–6 best match level). */
  positive: Array<{ plan: ClausePlan; state: Uint8Array }>;
  /** True when no document held every plain word (the query was relaxed). */
  relaxed: boolean;
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

/** This many key units per clause matched, above any relevance (≤ 32 clauses × 20 (focused name 4 × exact 5) × `MAX_CLAUSE_WEIGHT`). */
const MATCHED_UNIT = 1 << 20;
/** Largest clause weight (`clauseWeight`). */
const MAX_CLAUSE_WEIGHT = 100;

/** Integer of ranking factors (1) and (2); larger is better. */
export function rankKey(matchedClauses: number, relevance: number): number {
  return matchedClauses * MATCHED_UNIT + relevance;
}

/** The `score` of a result: its rank key plus a fraction in (0, 1) that decreases with its position among `total` results. */
export function score(key: number, position: number, total: number): number {
  return key + (total - position) / (total + 1);
}

/**
 * The weight of a clause matching `df` of `docCount` documents: the rarer, the heavier
 * (`round(10 · ln(1 + docCount / df))`, at most `MAX_CLAUSE_WEIGHT`), so a document holding the
 * rare words of a query ranks above one holding its common ones.
 */
export function clauseWeight(df: number, docCount: number): number {
  return Math.min(MAX_CLAUSE_WEIGHT, Math.round(10 * Math.log(1 + docCount / Math.max(1, df))));
}

/**
 * Match level of a postings mask (field bits, and `NAME_FOCUS`) and a kind (bits 3–6 of a state
 * byte): `kind · 4 + field weight`, the field weight 4 for a `NAME_FOCUS` name match.
 */
function level(mask: number, kind: MatchKind): number {
  if ((mask & 7) === 0) return 0;
  return kind * 4 + ((mask & NAME_FOCUS) !== 0 && (mask & 1) !== 0 ? NAME_FOCUS_WEIGHT : bestFieldWeight(mask & 7));
}

/** Relevance weight of each match level: field weight (focused name 4, name 3, description 2, content 1) times `KIND_WEIGHT`. */
const LEVEL_WEIGHT = Int32Array.from({ length: 16 }, (_, l) => (l === 0 || l > 12 ? 0 : (((l - 1) % 4) + 1) * KIND_WEIGHT[Math.floor((l - 1) / 4)]!));

/** Weight of a state byte's best match. */
function stateWeight(state: number): number {
  return LEVEL_WEIGHT[state >> 3]!;
}

/** The form terms first (uncapped), then at most `MAX_EXPANSIONS` prefix and typo terms, the most frequent first (ties by term). */
function capExpansions(exact: TermInfo | undefined, forms: TermInfo[], others: TermInfo[]): TermRef[] {
  const byDf = (a: TermInfo, b: TermInfo): number => b.df - a.df || (a.term < b.term ? -1 : 1);
  const chosen: TermRef[] = exact === undefined ? [] : [{ info: exact, kind: EXACT }];
  for (const info of forms.sort(byDf)) chosen.push({ info, kind: FORM });
  for (const info of others.sort(byDf).slice(0, MAX_EXPANSIONS)) chosen.push({ info, kind: LOOSE });
  return chosen;
}

/** The terms a clause matches through (without postings); remembered by the reader. */
function expand(reader: IndexReader, clause: Clause): Promise<TermRef[]> {
  const key = clause.kind === 'phrase' ? `"${clause.terms.join(' ')}"` : `${clause.negated ? '-' : ''}${clause.mode}:${clause.term}`;
  return reader.cached(key, () => expandUncached(reader, clause));
}

async function expandUncached(reader: IndexReader, clause: Clause): Promise<TermRef[]> {
  if (clause.kind === 'phrase') {
    // Its words, exactly; a missing word: the phrase matches nothing (an empty plan).
    const infos = await Promise.all(clause.terms.map((term) => reader.lookup(term)));
    if (infos.some((i) => i === undefined)) return [];
    return infos.map((info) => ({ info: info!, kind: EXACT }));
  }
  const { term, mode } = clause;
  // A negated plain word excludes that word only (docs/decisions.md §5: "contain it"); `-word*` its prefix.
  if (mode === 'exact' || (mode === 'plain' && clause.negated)) {
    const info = await reader.lookup(term);
    return info === undefined ? [] : [{ info, kind: EXACT }];
  }
  if (mode === 'prefix') {
    // The prefix is what was asked for: every term it begins counts as written.
    const candidates = await reader.withPrefix(term);
    const exact = candidates.find((c) => c.term === term);
    return capExpansions(exact, [], candidates.filter((c) => c !== exact)).map((t) => ({ ...t, kind: EXACT }));
  }
  const typo = term.length >= TYPO_MIN;
  // A word under IMPLICIT_PREFIX_MIN characters (`js`, `ml`) matches itself and its synonyms only.
  const short = term.length < IMPLICIT_PREFIX_MIN;
  // One scan covers the prefix, typo and stem candidates: the shortest of their beginnings.
  let scan = typo ? term.slice(0, TYPO_SHARED_PREFIX) : term;
  const stemPrefix = short ? null : stemScanPrefix(term);
  if (stemPrefix !== null && stemPrefix.length < scan.length) scan = stemPrefix;
  const stem = stemOf(term);
  const synonyms = synonymsOf(term);
  // The packs of the word itself and of its stem's range load with the chunks of the scan.
  if (scan !== term) void reader.prefetch(term).catch(() => undefined);
  if (stemPrefix !== null && stemPrefix !== scan) void reader.prefetch(stemPrefix, `${stemPrefix}\uffff`).catch(() => undefined);
  const [candidates, singles, multis] = await Promise.all([
    short ? reader.lookup(term).then((info) => (info === undefined ? [] : [info])) : reader.withPrefix(scan),
    Promise.all(synonyms.filter((s) => s.length === 1).map((s) => reader.lookup(s[0]!))),
    Promise.all(synonyms.filter((s) => s.length > 1).map((s) => Promise.all(s.map((w) => reader.lookup(w))))),
  ]);
  let exact: TermInfo | undefined;
  const forms: TermInfo[] = [];
  const others: TermInfo[] = [];
  for (const c of candidates) {
    if (c.term === term) exact = c;
    else if (stemPrefix !== null && c.term.startsWith(stemPrefix) && stemOf(c.term) === stem) forms.push(c);
    else if (c.term.startsWith(term) || (typo && isTypoOf(term, c.term))) others.push(c);
  }
  const chosen = new Set(forms.map((f) => f.term));
  for (const s of singles) {
    if (s === undefined || s.term === term || chosen.has(s.term)) continue;
    chosen.add(s.term);
    forms.push(s);
  }
  const refs = capExpansions(exact, forms, others.filter((o) => !chosen.has(o.term)));
  for (const words of multis) {
    if (words.some((w) => w === undefined)) continue;
    const ws = words as TermInfo[];
    const name = ws.map((w) => w.term).join(' ');
    refs.push({ info: { term: name, df: Math.min(...ws.map((w) => w.df)), file: '', index: -1 }, kind: FORM, words: ws });
  }
  return refs;
}

/** Documents holding every one of `lists` in a common field (masks ANDed), increasing. */
function intersect(lists: readonly Postings[]): Postings {
  let docs = lists[0]!.docs;
  let masks = lists[0]!.masks;
  for (const next of lists.slice(1)) {
    const outDocs: number[] = [];
    const outMasks: number[] = [];
    for (let i = 0, j = 0; i < docs.length && j < next.docs.length; ) {
      if (docs[i]! < next.docs[j]!) i++;
      else if (docs[i]! > next.docs[j]!) j++;
      else {
        const m = masks[i]! & next.masks[j]!;
        if (m !== 0) {
          outDocs.push(docs[i]!);
          outMasks.push(m);
        }
        i++;
        j++;
      }
    }
    docs = Int32Array.from(outDocs);
    masks = Uint8Array.from(outMasks);
  }
  return { docs, masks } as Postings;
}

/** Plan a clause: its terms and their postings. */
export async function planClause(reader: IndexReader, clause: Clause): Promise<ClausePlan> {
  const terms = await expand(reader, clause);
  const withPostings = await Promise.all(
    terms.map(async (t) => ({
      ...t,
      postings: t.words === undefined ? await reader.postings(t.info) : intersect(await Promise.all(t.words.map((w) => reader.postings(w)))),
    })),
  );
  return { clause, fields: clauseFields(clause), terms: withPostings };
}

/** Per-document state of a clause: bits 0–2 fields matched, bits 3–6 the level of its best match (`level`). */
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
    for (let d = 0; d < docCount; d++) state[d] = phraseState(state[d]!);
    return state;
  }
  for (const t of plan.terms) {
    const { docs, masks } = t.postings;
    for (let i = 0; i < docs.length; i++) {
      const m = masks[i]! & plan.fields;
      if (m === 0) continue;
      const d = docs[i]!;
      const old = state[d]!;
      const l = level(m | (masks[i]! & NAME_FOCUS), t.kind);
      const best = LEVEL_WEIGHT[l]! > LEVEL_WEIGHT[old >> 3]! ? l : old >> 3;
      state[d] = (old & 7) | m | (best << 3);
    }
  }
  return state;
}

/** The state byte of a phrase found in `fields` (a phrase matches as written). */
function phraseState(fields: number): number {
  return fields | (level(fields, EXACT) << 3);
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

/**
 * Fewer documents than this holding every plain word relaxes the query: they still rank first
 * (they match the most clauses), and the documents holding some of the words follow, so a
 * sentence with one word no skill shares with the best ones is not left with a handful of
 * answers (docs/api.md "Relaxation").
 */
export const RELAX_BELOW = 10;

/** Evaluate planned clauses under a filter: the matching documents, ranked (relaxed when fewer than `RELAX_BELOW` hold every plain word). */
export async function evaluate(
  reader: IndexReader,
  plans: readonly ClausePlan[],
  filter: DocFilter,
  docCount: number,
  originals?: Int32Array,
): Promise<Matches> {
  let selected = await select(reader, plans, filter, docCount, false);
  if (selected.candidates.length < RELAX_BELOW && relaxable(plans)) {
    const relaxed = await select(reader, plans, filter, docCount, true);
    // Relaxed only when that adds documents: words matching nothing at all stay an empty,
    // unrelaxed answer, and so do full matches that no partial match would follow.
    if (relaxed.candidates.length > selected.candidates.length) selected = relaxed;
  }
  return rank(selected.candidates, selected.positive, docCount, selected.relaxed, originals);
}

/** How many documents match planned clauses under a filter (`evaluate` without the ranking, never relaxed). */
export async function countMatches(reader: IndexReader, plans: readonly ClausePlan[], filter: DocFilter, docCount: number): Promise<number> {
  return (await select(reader, plans, filter, docCount, false)).candidates.length;
}

/** The state of a planned clause, from the reader's LRU when it has it (see `IndexReader.clauseState`). */
function stateOf(reader: IndexReader, plan: ClausePlan, docCount: number): Uint8Array {
  return reader.clauseState(formatClause(plan.clause), docCount, () => clauseState(plan, docCount));
}

/** A plain word: unquoted, without a field, not excluded (the clauses a relaxed query may miss). */
function isPlainWord(clause: Clause): boolean {
  return clause.kind === 'word' && clause.mode === 'plain' && clause.field === null && !clause.negated;
}

/** True when a query may be relaxed: it has two plain words or more. */
function relaxable(plans: readonly ClausePlan[]): boolean {
  return plans.filter((p) => isPlainWord(p.clause)).length >= 2;
}

/**
 * The matching documents (increasing) and the positive clauses with their states. `relax`:
 * documents holding at least one plain word (and every other positive clause) instead of all.
 */
async function select(
  reader: IndexReader,
  plans: readonly ClausePlan[],
  filter: DocFilter,
  docCount: number,
  relax: boolean,
): Promise<{ candidates: Int32Array; positive: Matches['positive']; relaxed: boolean }> {
  const positive = plans.filter((p) => !p.clause.negated).map((plan) => ({ plan, state: stateOf(reader, plan, docCount) }));
  const negative = plans.filter((p) => p.clause.negated).map((plan) => ({ plan, state: stateOf(reader, plan, docCount) }));

  // One mask of what the filters and the negated words leave (a negated phrase needs positions: later).
  const open = filterMask(filter, docCount) ?? new Uint8Array(docCount).fill(1);
  for (const n of negative) {
    if (needsPositions(n.plan)) continue;
    const st = n.state;
    for (let d = 0; d < docCount; d++) if (st[d] !== 0) open[d] = 0;
  }
  let candidates: Int32Array;
  if (relax) {
    const required = positive.filter((p) => !isPlainWord(p.plan.clause)).map((p) => p.state);
    const optional = positive.filter((p) => isPlainWord(p.plan.clause)).map((p) => p.state);
    const out = new Int32Array(docCount);
    let count = 0;
    for (let d = 0; d < docCount; d++) {
      if (open[d] === 0 || !required.every((st) => st[d] !== 0) || !optional.some((st) => st[d] !== 0)) continue;
      out[count++] = d;
    }
    candidates = out.subarray(0, count);
  } else {
    // Drive from the clause with the fewest postings (a phrase: those of its rarest word).
    const size = (p: ClausePlan): number =>
      p.clause.kind === 'phrase' ? (rarest(p)?.postings.docs.length ?? 0) : p.terms.reduce((n, t) => n + t.postings.docs.length, 0);
    let driver = positive[0]!;
    for (const p of positive) if (size(p.plan) < size(driver.plan)) driver = p;
    candidates = candidatesOf(driver, positive.map((p) => p.state), open);
  }

  for (const p of positive) {
    if (!needsPositions(p.plan)) continue;
    const verified = await verifyPhrase(reader, p.plan, candidates, p.state);
    // The state may be shared (the reader keeps it): what is written here holds for any query.
    let kept = 0;
    for (let i = 0; i < candidates.length; i++) {
      const doc = candidates[i]!;
      const fields = verified[doc]! & 7;
      p.state[doc] = phraseState(fields);
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
  return { candidates, positive, relaxed: relax };
}

/**
 * The documents a clause matches, for its weight: a word clause's matches in its fields (its
 * state never changes), a phrase's rarest word (its state is narrowed as candidates are verified,
 * so it cannot be counted).
 */
function clauseDf(plan: ClausePlan, state: Uint8Array): number {
  if (plan.clause.kind === 'phrase') return rarest(plan)?.postings.docs.length ?? 0;
  let df = 0;
  for (let d = 0; d < state.length; d++) if (state[d] !== 0) df++;
  return df;
}

/** `candidates` (increasing) ranked by their clause states (see the module comment); `originals[d]`: the original of copy d, or -1. */
function rank(candidates: Int32Array, positive: Matches['positive'], docCount: number, relaxed: boolean, originals?: Int32Array): Matches {
  const states = positive.map((p) => p.state);
  const weights = positive.map((p) => clauseWeight(clauseDf(p.plan, p.state), docCount));
  const n = candidates.length;
  const keyOfDoc = new Int32Array(n);
  const clauses = states.length;
  for (let i = 0; i < n; i++) {
    const d = candidates[i]!;
    let matched = 0;
    let relevance = 0;
    for (let k = 0; k < clauses; k++) {
      const st = states[k]![d]!;
      if (st === 0) continue;
      matched++;
      relevance += weights[k]! * stateWeight(st);
    }
    keyOfDoc[i] = rankKey(matched, relevance);
  }
  // Order by key (descending), then document number: one native numeric sort of packed values
  // (candidates are increasing, so their index is their document order; a comparator sort is
  // several times slower on the tens of thousands of candidates of a common word).
  const packed = new Float64Array(n);
  let top = 0;
  for (let i = 0; i < n; i++) top = Math.max(top, keyOfDoc[i]!);
  for (let i = 0; i < n; i++) packed[i] = (top - keyOfDoc[i]!) * INDEX_SPAN + i;
  packed.sort();
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = packed[i]! % INDEX_SPAN;
  if (originals !== undefined) placeCopies(order, candidates, keyOfDoc, originals);
  const docs = new Int32Array(n);
  const keys = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    docs[i] = candidates[order[i]!]!;
    keys[i] = keyOfDoc[order[i]!]!;
  }
  return { docCount, docs, keys, positive, relaxed };
}

/** Candidate indexes packed below a rank key (`rank`): more than any candidate count. */
const INDEX_SPAN = 2 ** 22;

/**
 * Within each run of equal keys of `order`, move every exact copy whose original is in the same
 * run to directly after it (the original first, then its copies by number); other documents keep
 * their order. Runs without a copy are left as they are.
 */
function placeCopies(order: Int32Array, candidates: Int32Array, keyOfDoc: Int32Array, originals: Int32Array): void {
  const n = order.length;
  for (let start = 0; start < n; ) {
    const key = keyOfDoc[order[start]!]!;
    let end = start + 1;
    while (end < n && keyOfDoc[order[end]!] === key) end++;
    // The anchor of a copy is its original when that is in the run; of anything else, itself.
    let anchor: Map<number, number> | undefined;
    for (let k = start; k < end; k++) {
      const d = candidates[order[k]!]!;
      const original = d < originals.length ? originals[d]! : -1;
      if (original < 0) continue;
      const at = indexOf(candidates, original);
      if (at >= 0 && keyOfDoc[at] === key) (anchor ??= new Map()).set(order[k]!, original);
    }
    if (anchor !== undefined) {
      const copyOf = anchor;
      const run = Array.from(order.subarray(start, end));
      const anchorOf = (i: number): number => copyOf.get(i) ?? candidates[i]!;
      run.sort((a, b) => anchorOf(a) - anchorOf(b) || (copyOf.has(a) ? 1 : 0) - (copyOf.has(b) ? 1 : 0) || candidates[a]! - candidates[b]!);
      order.set(run, start);
    }
    start = end;
  }
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
      if (i >= 0 && t.postings.masks[i]! & bit) for (const word of t.words ?? [t.info]) terms.add(word.term);
    }
  }
  return { terms, phrases };
}
