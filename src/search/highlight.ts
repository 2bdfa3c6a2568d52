/**
 * Search highlights (docs/decisions.md §5): the field text with every matched word wrapped in
 * `<mark>…</mark>` and everything else HTML-escaped, so text from the content never reaches a
 * page as markup. Words are found with the shared tokenizer on the original text, so offsets are
 * exact for any Unicode (`İ`, `ß`, emoji, combining accents) and no surrogate pair is ever split.
 */
import { processTerm, tokenize, type Token } from './options.ts';

/** Longest description highlight, ellipses included (the summary description length). */
export const DESCRIPTION_HIGHLIGHT_MAX = 200;
/** Characters of context kept before the first match when a long description is cut. */
const LEAD = 40;

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** HTML-escape `&`, `<`, `>`, `"` and `'`. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** What to mark in one field: single matched terms, and phrases (marked only where their words are adjacent). */
export interface MatchedWords {
  terms: ReadonlySet<string>;
  phrases: ReadonlyArray<readonly string[]>;
}

/** Tokens of `text` to mark: those whose term is in `matched.terms` or that are part of an occurrence of a phrase. */
function matchedTokens(text: string, matched: MatchedWords): Token[] {
  // Indexed words only, so adjacency skips stop words exactly as the index does.
  const indexed: Array<{ token: Token; term: string }> = [];
  for (const token of tokenize(text)) {
    const term = processTerm(token.text);
    if (term !== null) indexed.push({ token, term });
  }
  const marked = indexed.map((w) => matched.terms.has(w.term));
  for (const phrase of matched.phrases) {
    for (let i = 0; i + phrase.length <= indexed.length; i++) {
      if (phrase.every((term, k) => indexed[i + k]!.term === term)) for (let k = 0; k < phrase.length; k++) marked[i + k] = true;
    }
  }
  return indexed.filter((_, i) => marked[i]).map((w) => w.token);
}

/** `text[start, end)` with the given tokens (inside that range) marked and the rest escaped. */
function render(text: string, marks: readonly Token[], start: number, end: number): string {
  let out = '';
  let at = start;
  for (const t of marks) {
    if (t.start < start || t.end > end) continue;
    out += `${escapeHtml(text.slice(at, t.start))}<mark>${escapeHtml(t.text)}</mark>`;
    at = t.end;
  }
  return out + escapeHtml(text.slice(at, end));
}

/** The whole `text` with its matched words marked, or undefined when no word matches. */
export function highlightText(text: string, matched: MatchedWords): string | undefined {
  const marks = matchedTokens(text, matched);
  return marks.length === 0 ? undefined : render(text, marks, 0, text.length);
}

/**
 * A description highlight: the whole text when it fits in `max` characters (UTF-16 units), else
 * a window of whole words around the first match with `…` where it was cut. Undefined when no
 * word matches.
 */
export function highlightDescription(text: string, matched: MatchedWords, max = DESCRIPTION_HIGHLIGHT_MAX): string | undefined {
  const marks = matchedTokens(text, matched);
  const first = marks[0];
  if (first === undefined) return undefined;
  if (text.length <= max) return render(text, marks, 0, text.length);
  const budget = max - 2; // room for both ellipses
  // Keep the start when the match is near it; else start a little before the match.
  let start = first.end + LEAD <= budget ? 0 : Math.max(0, Math.min(first.start - LEAD, text.length - budget));
  if (start > 0) {
    // Start on a word: after the first whitespace at or after `start`, else at the match itself.
    const space = text.slice(start, first.start).search(/\s/);
    start = space < 0 ? first.start : start + space;
    while (start < first.start && /\s/.test(text[start]!)) start++;
  }
  let end = Math.min(text.length, start + budget);
  if (end < text.length) {
    // End on a word: at the last whitespace after the match, else mid-word but never mid-pair.
    let cut = end;
    while (cut > first.end && !/\s/.test(text[cut]!)) cut--;
    if (cut > first.end) end = cut;
    else if (/[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  }
  const body = render(text, marks, start, end).trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
