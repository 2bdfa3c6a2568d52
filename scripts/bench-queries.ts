/**
 * The fixed queries of the search benchmark (every syntax form of docs/decisions.md §5, with words the
 * synthetic generator uses), the adversarial ones (docs/decisions.md H22–H23), and their translations for
 * the engines that do not speak our syntax: Pagefind (no fields, no exclusion, no `*`: the
 * clause is dropped or reduced to its words) and a single MiniSearch index (a query tree).
 */
import type { Query, SearchOptions } from 'minisearch';
import { processTerm } from '../src/search/options.ts';

/** One benchmark query and the syntax form it exercises. */
export interface BenchQuery {
  q: string;
  form: string;
}

export const QUERIES: readonly BenchQuery[] = [
  { q: 'docker', form: 'term' },
  { q: 'kubernetes', form: 'term' },
  { q: 'invoice', form: 'term' },
  { q: 'workflow', form: 'common term' },
  { q: 'terraform plan', form: 'terms' },
  { q: 'react component testing', form: 'terms' },
  { q: 'the security audit', form: 'terms + stop word' },
  { q: '"pull request"', form: 'phrase' },
  { q: '"error handling"', form: 'phrase' },
  { q: 'name:docker', form: 'field:term' },
  { q: 'description:security', form: 'field:term' },
  { q: 'name:"code review"', form: 'field:"phrase"' },
  { q: 'content:"connection pool"', form: 'field:"phrase"' },
  { q: 'docker -kubernetes', form: '-term' },
  { q: 'review -python -javascript', form: '-term' },
  { q: 'kube*', form: 'prefix*' },
  { q: 'terra*', form: 'prefix*' },
  { q: 'pyth*', form: 'prefix*' },
  { q: 'kuberntes', form: 'typo' },
  { q: 'reconcilation', form: 'typo' },
  { q: 'cafe', form: 'accent folding' },
  { q: 'name:docker -kubernetes "compose file"', form: 'mixed' },
  { q: 'security audit "least privilege"', form: 'mixed' },
  { q: 'description:invoice reconciliation', form: 'mixed' },
  { q: 'llm agent* -openai', form: 'mixed' },
];

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const LONG_WORDS = ['kubernetes', 'terraform', 'dashboard', 'migration', 'reconciliation', 'accessibility', 'performance', 'documentation'];

/** Repeat generated clauses joined by spaces while the query stays within `max` characters. */
function fill(max: number, clause: (i: number) => string): string {
  let q = clause(0);
  for (let i = 1; ; i++) {
    const next = `${q} ${clause(i)}`;
    if (next.length > max) return q;
    q = next;
  }
}

/** Hostile queries, each at most 200 characters except the one that must be rejected for length. */
export const ADVERSARIAL: readonly BenchQuery[] = [
  { q: fill(200, (i) => LETTERS[i % 26]!), form: '100 one-letter terms' },
  { q: fill(200, (i) => `${LETTERS[i % 26]}${LETTERS[(i * 7 + 3) % 26]}*`), form: '50 two-letter prefixes' },
  { q: fill(200, (i) => `${LETTERS[i % 26]}${LETTERS[(i * 5 + 1) % 26]}`), form: '66 two-letter terms' },
  { q: fill(200, (i) => `${LONG_WORDS[i % LONG_WORDS.length]!.slice(0, 3)}*`), form: '40 high-df prefixes' },
  { q: fill(200, (i) => LONG_WORDS[i % LONG_WORDS.length]!.replace(/(.)(.)$/, '$2$1')), form: '18 typo terms' },
  { q: fill(200, (i) => `"${LONG_WORDS[i % 8]!} ${LONG_WORDS[(i + 3) % 8]!}"`), form: '8 phrases' },
  { q: `docker ${fill(192, (i) => `-${LETTERS[i % 26]}${LETTERS[(i * 3) % 26]}*`)}`, form: 'term + 47 excluded prefixes' },
  { q: LETTERS.split('').join(',').repeat(4).slice(0, 200), form: '100 terms in one clause' },
  { q: 'data code file test review run use'.repeat(6).slice(0, 200), form: 'glued common words' },
  { q: fill(200, () => 'data'), form: '40 × the same term' },
  { q: fill(1000, (i) => LETTERS[i % 26]!), form: '500 terms (over 200 chars: rejected)' },
];

interface Clause {
  negated: boolean;
  field: string | null;
  words: string[];
  prefix: boolean;
}

/** A forgiving parse of our syntax (for translation only; the real parser is src/search/query.ts). */
function clauses(q: string): Clause[] {
  const out: Clause[] = [];
  for (const m of q.matchAll(/(-)?(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))/g)) {
    const text = m[3] ?? m[4] ?? '';
    const words = text.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
    if (words.length === 0) continue;
    out.push({ negated: m[1] === '-', field: m[2]?.toLowerCase() ?? null, words, prefix: m[3] === undefined && text.endsWith('*') });
  }
  return out;
}

/**
 * Our query in Pagefind's syntax: positive clauses only (Pagefind has no exclusion), field
 * restrictions and `*` removed (it has neither; it matches prefixes of the last word by itself),
 * phrases kept in quotes.
 */
export function toPagefind(q: string): string {
  return clauses(q)
    .filter((c) => !c.negated)
    .map((c) => (c.words.length > 1 ? `"${c.words.join(' ')}"` : c.words[0]!))
    .join(' ');
}

/**
 * Our query as a MiniSearch query tree: every positive clause AND-ed (a phrase becomes its words,
 * unverified), `field:` restricts the fields, `term*` is a prefix, plain words get MiniSearch's
 * own prefix and fuzzy matching; excluded clauses are subtracted with AND_NOT. Stop words are
 * dropped first (inside an AND, a word the index never holds would match nothing).
 */
export function toMiniSearch(q: string): Query {
  const positive: Query[] = [];
  const negative: Query[] = [];
  for (const c of clauses(q)) {
    c.words = c.words.filter((w) => processTerm(w) !== null);
    if (c.words.length === 0) continue;
    const options: SearchOptions = {
      combineWith: 'AND',
      prefix: c.prefix || (c.words.length === 1 && !c.negated),
      fuzzy: c.words.length === 1 && !c.negated && !c.prefix ? 0.2 : false,
      ...(c.field === null ? {} : { fields: [c.field] }),
    };
    (c.negated ? negative : positive).push({ ...options, queries: c.words });
  }
  const all: Query = { combineWith: 'AND', queries: positive };
  return negative.length === 0 ? all : { combineWith: 'AND_NOT', queries: [all, ...negative] };
}
