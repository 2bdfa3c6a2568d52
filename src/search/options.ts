/**
 * Text processing shared by the search build (builder/search-index.ts) and the search runtime: the
 * tokenizer, case/accent folding, English stop words, `processTerm`, the indexed fields with their
 * bits and weights, and the limits that keep a query cheap. Both sides must agree on every rule
 * here, so nothing else tokenizes or folds text. No Node built-ins: this runs in every host.
 */

/** Indexed fields, in bit order. */
export const FIELDS = ['name', 'description', 'content'] as const;
export type Field = (typeof FIELDS)[number];

/** Bit of each field in a postings mask. */
export const FIELD_BIT: Readonly<Record<Field, number>> = { name: 1, description: 2, content: 4 };
/** Every field. */
export const ALL_FIELDS = 7;
/**
 * Postings mask bit beside the field bits: the term makes up at least half of the skill's name
 * (`pdf` in "pdf", `docker` in "docker-expert", not `pdf` in "pdf-api-io-automation"). Such a
 * name match ranks above other name matches (docs/api.md "Ranking"). Only with the name bit.
 */
export const NAME_FOCUS = 8;
/** Ranking weight of a `NAME_FOCUS` match (above the name's). */
export const NAME_FOCUS_WEIGHT = 4;
/** Ranking weight of each field (docs/decisions.md §5: name > description > content). */
export const FIELD_WEIGHT: Readonly<Record<Field, number>> = { name: 3, description: 2, content: 1 };

/** Longest indexed term (folded, UTF-16 units): longer runs are hashes, base64 or noise. */
export const MAX_TERM_LENGTH = 40;
/** Most clauses in one query; more is INVALID_QUERY (a query must stay cheap). */
export const MAX_CLAUSES = 32;
/** Most prefix/typo expansions per clause, the most frequent first. */
export const MAX_EXPANSIONS = 50;
/** Shortest prefix of an explicit `prefix*` clause (and of an autocompleted word). */
export const MIN_PREFIX = 2;
/** Shortest plain term that also matches as a prefix (`doc` → `docker`). */
export const IMPLICIT_PREFIX_MIN = 3;
/** Shortest plain term that also matches with one typo. */
export const TYPO_MIN = 5;
/**
 * A typo candidate shares this many leading characters with the query term. Terms are stored
 * sorted in range chunks, so this bounds the typo search to the chunks of one short prefix.
 */
export const TYPO_SHARED_PREFIX = 3;
/** Longest `q` in characters (code points). */
export const MAX_QUERY_LENGTH = 200;

/**
 * English stop words, dropped from the index and from queries (Lucene's English set plus a few
 * pronouns and auxiliaries that carry no meaning in a skill directory).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'been', 'but', 'by', 'can', 'do', 'does', 'for', 'from', 'had', 'has',
  'have', 'he', 'her', 'his', 'i', 'if', 'in', 'into', 'is', 'it', 'its', 'me', 'my', 'no', 'not', 'of', 'on', 'or',
  'our', 'she', 'so', 'such', 'that', 'the', 'their', 'them', 'then', 'there', 'these', 'they', 'this', 'those', 'to',
  'us', 'was', 'we', 'were', 'what', 'when', 'which', 'who', 'will', 'with', 'you', 'your',
]);

/**
 * Words that only phrase a request in a search query ("how do I …", "I need help using …",
 * "merge several files into one"): dropped from a query's bare single words, kept in the index (a
 * quoted word, a `field:` word and a phrase still match them); a query of nothing else is refused (INVALID_QUERY, docs/api.md),
 * which lists them; this is the one list in the code.
 */
export const REQUEST_WORDS: ReadonlySet<string> = new Set([
  'how', 'why', 'where', 'whether', 'would', 'could', 'should', 'shall', 'may', 'might', 'must', 'did', 'doing',
  'want', 'wants', 'wanted', 'need', 'needs', 'needed', 'help', 'helps', 'please', 'use', 'using', 'used',
  'something', 'anything', 'some', 'any', 'way', 'ways', 'like', 'get', 'getting', 'just', 'let', 'lets', 'know',
  'try', 'trying', 'able', 'also', 'really', 'several', 'one', 'other', 'others', 'another', 'multiple', 'many', 'every', 'all', 'more', 'much',
  'thing', 'things', 'stuff', 'make', 'making', 'good', 'best', 'easy', 'easily', 'quickly', 'well', 'am', 'im', 'up', 'build', 'create', 'write', 'find', 'set',
]);

/** A character of a word: a letter, digit or combining mark (so `é` written as `e` + U+0301 stays one word). */
const WORD_CHARACTER = '[\\p{L}\\p{N}\\p{M}]';
/** A word: a run of word characters. */
const WORD = new RegExp(`${WORD_CHARACTER}+`, 'gu');
/**
 * A word of an ASCII text: the same runs, since the only ASCII word characters are letters and
 * digits. The Unicode classes above take a while to compile, and a first search in a just-started
 * Service Worker (a query is mostly ASCII) would wait for that.
 */
const ASCII_WORD_RUN = /[0-9A-Za-z]+/g;
const IS_WORD_CHARACTER = new RegExp(`^${WORD_CHARACTER}$`, 'u');
/** Word character or not, per code point above ASCII once met (`isWordCodePoint`). */
const OTHER_WORD = new Map<number, boolean>();
const MARKS = /\p{M}+/gu;
const ASCII = /^[\x00-\x7f]*$/;
const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;

/** The word pattern for `text`: the ASCII one when it is all ASCII. */
const wordPattern = (text: string): RegExp => (ASCII.test(text) ? ASCII_WORD_RUN : WORD);

/** One word of a text with its UTF-16 offsets in the original text. */
export interface Token {
  text: string;
  start: number;
  end: number;
}

/**
 * The words of `text` with their offsets. Offsets are computed on the original string (before any
 * folding), so highlights mark exactly the characters that were written.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(wordPattern(text))) tokens.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return tokens;
}

/** The words of `text` as strings (the MiniSearch `tokenize` option). */
export function words(text: string): string[] {
  return text.match(wordPattern(text)) ?? [];
}

/**
 * Case- and accent-insensitive form of a word: compatibility decomposition (NFKD: `ﬁ` → `fi`,
 * `１` → `1`), combining marks removed (`é` → `e`, `İ` → `I`), lower-cased, `ß` → `ss`, and only
 * letters and digits kept (a few compatibility characters decompose to punctuation or a space:
 * `⒈` → `1.`). A term is letters and digits only.
 */
export function fold(word: string): string {
  // Fast path: ASCII has nothing to decompose (most words of most skills).
  if (ASCII.test(word)) return word.toLowerCase();
  return word.normalize('NFKD').replace(MARKS, '').toLowerCase().replace(/ß/g, 'ss').replace(NOT_ALNUM, '');
}

/**
 * Whether code point `cp` is a word character, as `WORD_CHARACTER` reads it (by code point, as
 * the `u` regexp reads: a lone surrogate is none): the rule of `words()`, for the build's
 * tokenizer (builder/search-corpus.ts), which finds the same words without a regexp and reads
 * ASCII through `ASCII_WORD` first.
 */
export function isWordCodePoint(cp: number): boolean {
  if (cp < 128) return ASCII_WORD[cp] === 1;
  let known = OTHER_WORD.get(cp);
  if (known === undefined) OTHER_WORD.set(cp, (known = IS_WORD_CHARACTER.test(String.fromCodePoint(cp))));
  return known;
}

/** Word character or not, per ASCII code: letters and digits, as `WORD_CHARACTER` reads them. */
export const ASCII_WORD: Readonly<Uint8Array> = Uint8Array.from({ length: 128 }, (_, c) => ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0));

/** The indexed term of a word, or null when it is not indexed (stop word, empty or too long). */
export function processTerm(word: string): string | null {
  const term = fold(word);
  if (term === '' || term.length > MAX_TERM_LENGTH || STOP_WORDS.has(term)) return null;
  return term;
}

/** The indexed terms of `text`, in order (stop words dropped). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    const term = processTerm(word);
    if (term !== null) out.push(term);
  }
  return out;
}

/** Weight of the best field in a mask (0 for an empty mask). */
export function bestFieldWeight(mask: number): number {
  return BEST_WEIGHT[mask & 7]!;
}
const BEST_WEIGHT = Array.from({ length: 8 }, (_, mask) =>
  mask & 1 ? FIELD_WEIGHT.name : mask & 2 ? FIELD_WEIGHT.description : mask & 4 ? FIELD_WEIGHT.content : 0,
);

/**
 * True when `candidate` is `term` with exactly one character inserted, deleted or replaced, or two
 * neighbouring characters swapped (Damerau distance 1), compared by UTF-16 units.
 */
export function isOneEdit(term: string, candidate: string): boolean {
  const la = term.length;
  const lb = candidate.length;
  if (Math.abs(la - lb) > 1 || term === candidate) return false;
  let i = 0;
  while (i < la && i < lb && term.charCodeAt(i) === candidate.charCodeAt(i)) i++;
  if (la === lb) {
    if (term.slice(i + 1) === candidate.slice(i + 1)) return true;
    // Two neighbouring characters swapped (`kuberentes`, `terrafrom`): the commonest typo, one edit as people count it.
    return (
      i + 1 < la &&
      term.charCodeAt(i) === candidate.charCodeAt(i + 1) &&
      term.charCodeAt(i + 1) === candidate.charCodeAt(i) &&
      term.slice(i + 2) === candidate.slice(i + 2)
    );
  }
  return la > lb ? term.slice(i + 1) === candidate.slice(i) : term.slice(i) === candidate.slice(i + 1);
}

/** True when `candidate` is a typo match of the query term `term` (docs/decisions.md §5, rules above). */
export function isTypoOf(term: string, candidate: string): boolean {
  return (
    term.length >= TYPO_MIN &&
    candidate.length >= TYPO_SHARED_PREFIX &&
    candidate.slice(0, TYPO_SHARED_PREFIX) === term.slice(0, TYPO_SHARED_PREFIX) &&
    isOneEdit(term, candidate)
  );
}
