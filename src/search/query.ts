/**
 * The search query language (docs/decisions.md §5): whitespace-separated clauses, each `term`,
 * `"a phrase"`, `field:term`, `field:"a phrase"`, `-term`, `-"a phrase"` or `term*`, with
 * fields `name`, `description`, `content`. `parseQuery` turns `q` into clauses of folded terms
 * (stop words dropped) or throws the coded error; it never throws anything else.
 *
 * Choices the spec leaves open:
 * - A bare clause holding several words (`docker-compose`, `node.js`) is the phrase of them.
 * - A quoted single word (`"docker"`) matches that word exactly, without prefix or typo.
 * - A phrase drops its stop words; its remaining words must be adjacent (stop words between them
 *   do not count), all in one field.
 * - `-` combines with a field (`-name:draft`); a `-` clause matches exact words only, or the
 *   prefix when written `-draft*`.
 * - Repeated clauses count once; at most `MAX_CLAUSES` words in all, else INVALID_QUERY.
 * - Bare single words that only phrase a request (`REQUEST_WORDS`: how, want, need, help, …) are
 *   dropped like stop words (docs/api.md "Request words").
 * - Words over `MAX_TERM_LENGTH` characters are ignored like stop words (the index drops them too).
 * - A prefix needs at least `MIN_PREFIX` characters (INVALID_QUERY otherwise); a prefix may be a
 *   stop word (`the*` finds `theme`).
 * - Length is counted in code points.
 */
import { ApiError } from '../errors.ts';
import { quote } from '../params.ts';
import {
  ALL_FIELDS,
  FIELD_BIT,
  FIELDS,
  MAX_CLAUSES,
  MAX_QUERY_LENGTH,
  MAX_TERM_LENGTH,
  MIN_PREFIX,
  REQUEST_WORDS,
  fold,
  processTerm,
  words,
  type Field,
} from './options.ts';

/** How a single-word clause matches. `plain`: exact, prefix and typo; `prefix`: `term*`; `exact`: `"term"`. */
export type WordMode = 'plain' | 'prefix' | 'exact';

/** One clause of a query, terms folded. */
export type Clause =
  | { kind: 'word'; negated: boolean; field: Field | null; term: string; mode: WordMode }
  | { kind: 'phrase'; negated: boolean; field: Field | null; terms: string[] };

/** A parsed query: its clauses (positive and negated, in the order written) and its normalized text. */
export interface ParsedQuery {
  clauses: Clause[];
  /** `meta.query`: terms folded, stop words dropped, repeats removed, syntax kept. */
  normalized: string;
}

/** Field bits a clause may match in. */
export function clauseFields(clause: Clause): number {
  return clause.field === null ? ALL_FIELDS : FIELD_BIT[clause.field];
}

/** The clause as written in a normalized query. */
export function formatClause(clause: Clause): string {
  const head = `${clause.negated ? '-' : ''}${clause.field === null ? '' : `${clause.field}:`}`;
  if (clause.kind === 'phrase') return `${head}"${clause.terms.join(' ')}"`;
  return head + (clause.mode === 'exact' ? `"${clause.term}"` : clause.mode === 'prefix' ? `${clause.term}*` : clause.term);
}

function syntax(message: string): ApiError {
  return queryError('INVALID_SYNTAX', message);
}

/**
 * An error of `q`: as every error of a parameter, its `details.params` names it (docs/api.md
 * "Errors"), so a client can show the message beside the search box.
 */
function queryError(code: 'INVALID_QUERY' | 'QUERY_TOO_LONG' | 'INVALID_SYNTAX', message: string): ApiError {
  return new ApiError(code, message, { details: { params: [{ param: 'q', message }] } });
}

const SPACE = /\s/;
const FIELD_PREFIX = /([A-Za-z]+):/y;

/** Throws QUERY_TOO_LONG when `q` has more than `MAX_QUERY_LENGTH` characters (code points); search and autocomplete share it. */
export function checkQueryLength(q: string): void {
  const length = [...q].length;
  if (length > MAX_QUERY_LENGTH) {
    throw queryError('QUERY_TOO_LONG', `q is ${length} characters long; the limit is ${MAX_QUERY_LENGTH}`);
  }
}

/** Parse `q` (docs/decisions.md §5). Throws ApiError INVALID_QUERY, QUERY_TOO_LONG or INVALID_SYNTAX. */
export function parseQuery(q: string | undefined): ParsedQuery {
  if (q === undefined) throw queryError('INVALID_QUERY', 'q is required: give a search query');
  checkQueryLength(q);
  const text = q.trim();
  if (text === '') throw queryError('INVALID_QUERY', 'q is empty: give a search query');
  if (/^[\s*]+$/.test(text)) throw queryError('INVALID_QUERY', `q ${quote(text)} is too broad: give at least one word`);
  if ([...text].length === 1) throw queryError('INVALID_QUERY', `q ${quote(text)} is too short: give at least 2 characters`);

  let clauses: Clause[] = [];
  const seen = new Set<string>();
  /** Bare single words that only phrase a request (`REQUEST_WORDS`): dropped like stop words. */
  const requestWords = new Set<Clause>();
  let i = 0;
  while (i < text.length) {
    if (SPACE.test(text[i]!)) {
      i++;
      continue;
    }
    const start = i;
    const atEnd = (): boolean => i >= text.length || SPACE.test(text[i]!);
    let negated = false;
    if (text[i] === '-') {
      negated = true;
      i++;
      if (atEnd()) throw syntax(`"-" has nothing after it: write -word or -"a phrase"`);
    }
    let field: Field | null = null;
    FIELD_PREFIX.lastIndex = i;
    const fieldMatch = FIELD_PREFIX.exec(text);
    if (fieldMatch !== null) {
      const name = fieldMatch[1]!.toLowerCase();
      if (!(FIELDS as readonly string[]).includes(name)) {
        // Pasted text (`error: ENOENT`, a URL) reads as a field too: say how to search for it as it is.
        throw syntax(`unknown field ${quote(fieldMatch[1]!)} in ${quote(clauseText(text, start))}: use ${FIELDS.join(', ')}, or put it in quotes to search for its words`);
      }
      field = name as Field;
      i += fieldMatch[0].length;
      if (atEnd()) throw syntax(`${quote(text.slice(start, i))} has nothing after the colon: write ${name}:word or ${name}:"a phrase"`);
    }
    let clause: Clause | null;
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      if (close < 0) throw syntax(`unbalanced quote in ${quote(text.slice(start))}: close the phrase with "`);
      const inner = text.slice(i + 1, close);
      i = close + 1;
      if (text[i] === '*') throw syntax(`${quote(text.slice(start, i + 1))}: * may only end a word, not a phrase`);
      clause = wordsClause(inner, negated, field, 'exact');
    } else {
      const from = i;
      while (i < text.length && !SPACE.test(text[i]!) && text[i] !== '"') i++;
      const bare = text.slice(from, i);
      const star = bare.indexOf('*');
      if (star >= 0 && star !== bare.length - 1) throw syntax(`${quote(text.slice(start, i))}: * may only end a word`);
      if (star >= 0) {
        const found = words(bare.slice(0, -1));
        if (found.length !== 1) {
          throw syntax(`${quote(text.slice(start, i))}: * may only end a single word${found.length === 0 ? ' (nothing before it)' : ''}`);
        }
        const term = fold(found[0]!);
        if (term.length < MIN_PREFIX) {
          throw queryError('INVALID_QUERY', `prefix ${quote(text.slice(start, i))} is too short: give at least ${MIN_PREFIX} characters before *`);
        }
        clause = { kind: 'word', negated, field, term, mode: 'prefix' };
      } else {
        clause = wordsClause(bare, negated, field, 'plain');
        if (clause?.kind === 'word' && !negated && field === null && REQUEST_WORDS.has(clause.term)) requestWords.add(clause);
      }
    }
    if (clause === null) continue;
    const key = formatClause(clause);
    if (seen.has(key)) continue;
    seen.add(key);
    clauses.push(clause);
  }
  // Stop words like the others (docs/decisions.md §5): a query made only of them has nothing to search for.
  if (requestWords.size > 0) clauses = clauses.filter((c) => !requestWords.has(c));

  const wordCount = clauses.reduce((n, c) => n + (c.kind === 'phrase' ? c.terms.length : 1), 0);
  if (wordCount > MAX_CLAUSES) throw queryError('INVALID_QUERY', `q has ${wordCount} search words; the limit is ${MAX_CLAUSES}`);
  if (clauses.length === 0) {
    throw queryError('INVALID_QUERY', `q has no searchable words: stop words (words that only phrase a request, such as how, need, help, included), punctuation, symbols and words over ${MAX_TERM_LENGTH} characters are ignored; quote a word to search for it ("help")`);
  }
  if (clauses.every((c) => c.negated)) {
    throw queryError('INVALID_QUERY', 'q only excludes: add at least one word to search for');
  }
  const normalized = clauses.map(formatClause).join(' ');
  // `x!` is one character once interpreted: as short as `x` (and meta.query must parse again).
  if ([...normalized].length === 1) throw queryError('INVALID_QUERY', `q ${quote(text)} holds one searchable character (${quote(normalized)}): give at least 2 letters or digits`);
  return { clauses, normalized };
}

/** The clause of a run of text: nothing (no indexed word), one word in `mode`, or a phrase. */
function wordsClause(text: string, negated: boolean, field: Field | null, mode: WordMode): Clause | null {
  const terms: string[] = [];
  for (const word of words(text)) {
    const term = processTerm(word);
    if (term !== null) terms.push(term);
  }
  if (terms.length === 0) return null;
  if (terms.length === 1) return { kind: 'word', negated, field, term: terms[0]!, mode };
  return { kind: 'phrase', negated, field, terms };
}

/** The clause starting at `start`, up to the next whitespace (for messages). */
function clauseText(text: string, start: number): string {
  let end = start;
  while (end < text.length && !SPACE.test(text[end]!)) end++;
  return text.slice(start, end);
}
