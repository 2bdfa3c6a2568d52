/**
 * Search and autocomplete (endpoints 5 and 6) over the split index the build wrote. The handler
 * routes `/api/v1/skills/search` and `/api/v1/skills/autocomplete` here; one engine per manifest
 * keeps the loaded index files and decoded postings between requests.
 */
import type { InFlight } from '../in-flight.ts';
import { ApiError, isApiError } from '../errors.ts';
import type { Loader } from '../loader.ts';
import type { Manifest } from '../manifest.ts';
import type { Pagination, SearchMeta, SearchResult, Suggestion } from '../schemas.ts';
import { HAS_INDEX_FILTER, categoryFilterKey, platformFilterKey } from './format.ts';
import { stemOf } from './forms.ts';
import { highlightDescription, highlightText } from './highlight.ts';
import { IndexReader } from './index-reader.ts';
import { countMatches, evaluate, matchedWords, planClause, score, type ClausePlan, type DocFilter } from './match.ts';
import { FIELD_BIT, MIN_PREFIX, fold, isTypoOf } from './options.ts';
import { checkQueryLength, formatClause, parseQuery, type ParsedQuery } from './query.ts';

/** Default and largest number of autocomplete suggestions (docs/decisions.md §4). */
export const AUTOCOMPLETE_DEFAULT = 5;
export const AUTOCOMPLETE_MAX = 20;
/** Completions of a lone word considered (the most frequent terms), before ordering by count. */
const AUTOCOMPLETE_CANDIDATES = 20;
/**
 * Completions of the last word after other words considered at most: the words most frequent in
 * the whole directory are seldom those most frequent beside the others (`docker comp`: compose).
 */
const AUTOCOMPLETE_CANDIDATES_AFTER_WORDS = 50;

export interface SearchAnswer {
  data: SearchResult[];
  pagination: Pagination;
  meta: SearchMeta;
}

/** Endpoint 5's options, already checked by the caller (the HTTP edge: src/answers/search-query.ts). */
export interface SearchQuery {
  /** The query text as given (parsed by the engine: its errors are the query codes of docs/decisions.md §5). */
  q: string | undefined;
  page: number;
  limit: number;
  /** A category slug of the manifest. */
  category?: string | undefined;
  /** A platform id of the manifest. */
  platform?: string | undefined;
  minStars?: number | undefined;
  /** `hasIndex`, or its other name `hasMarketplace`. */
  hasIndex?: boolean | undefined;
}

/** Endpoint 6's options, already checked by the caller. */
export interface AutocompleteQuery {
  q: string | undefined;
  limit: number;
}

export interface SearchEngine {
  /** Endpoint 5. */
  search(query: SearchQuery): Promise<SearchAnswer>;
  /** Endpoint 6. */
  autocomplete(query: AutocompleteQuery): Promise<{ data: Suggestion[] }>;
}

const LAST_WORD = /[\p{L}\p{N}\p{M}]+$/u;

/** Throw the INVALID_SYNTAX error of `q`, if it has one (other query errors are not syntax). */
function syntaxCheck(q: string): void {
  try {
    parseQuery(q);
  } catch (error) {
    if (isApiError(error) && error.code === 'INVALID_SYNTAX') throw error;
  }
}

/** Plan the clauses of a parsed query; `plans` shares clause plans between the queries of one request. */
function plan(idx: IndexReader, query: ParsedQuery, plans: Map<string, Promise<ClausePlan>>): Promise<ClausePlan[]> {
  return Promise.all(
    query.clauses.map((clause) => {
      const key = formatClause(clause);
      let planned = plans.get(key);
      if (planned === undefined) plans.set(key, (planned = planClause(idx, clause)));
      return planned;
    }),
  );
}

/**
 * Lets other work in between the slices of one request (src/fair.ts `TimeSlicer` on a busy host):
 * `tick()` resolves at once while the slice lasts, later after yielding.
 */
export interface Slicer {
  tick(): Promise<void>;
}

/** A slicer that never yields (one request at a time: tests, tools). */
function noSlicer(): Slicer {
  return { tick: async () => undefined };
}

function now(): number {
  return globalThis.performance?.now() ?? Date.now();
}

/**
 * Create the engine over the index named by `manifest.search`. Both methods throw `ApiError`:
 * INVALID_PARAMS naming every bad parameter, the query codes of docs/decisions.md §5, SERVER_ERROR when
 * the build wrote no search index or a file of it is missing.
 */
export function createSearchEngine(loader: Loader, manifest: Pick<Manifest, 'search'>, inFlight: InFlight = 'shared', slicer: () => Slicer = noSlicer): SearchEngine {
  const reader = manifest.search === undefined ? undefined : new IndexReader(loader, manifest.search.root, inFlight, manifest.search.index);
  const index = (): IndexReader => {
    if (reader === undefined) throw new ApiError('SERVER_ERROR', 'Search is not available: the search index was not built');
    return reader;
  };

  return {
    async search({ q, page, limit, category, platform, minStars, hasIndex: wantIndex }) {
      const started = now();
      const query = parseQuery(q);
      const idx = index();

      const [categorySet, platformSet, indexSet, below] = await Promise.all([
        category === undefined ? undefined : idx.filter(categoryFilterKey(category)),
        platform === undefined ? undefined : idx.filter(platformFilterKey(platform)),
        wantIndex === undefined ? undefined : idx.filter(HAS_INDEX_FILTER),
        minStars === undefined ? undefined : idx.withStars(minStars),
      ]);
      const filter: DocFilter = {
        below,
        sets: [categorySet, platformSet, wantIndex === true ? indexSet : undefined].filter((s) => s !== undefined),
        without: wantIndex === false ? indexSet : undefined,
      };
      const [plans, originals, root] = await Promise.all([plan(idx, query, new Map()), idx.originals(), idx.root()]);
      // Matching is one slice of work: past a slice, other requests get in before the page. The
      // slice starts here, not before planning, which mostly waits for files (a slice counting
      // that wait would give the thread back after every cold search, for nothing).
      const slice = slicer();
      const matches = await evaluate(idx, plans, filter, root.docs, originals);

      const total = matches.docs.length;
      const from = Math.min(total, (page - 1) * limit);
      const pageDocs = [...matches.docs.subarray(from, Math.min(total, from + limit))];
      // The page's summaries are asked for before the thread is given back, so their files are on
      // their way during the other work; yielding first would put that work (in a Service Worker:
      // the manifest and the handler of a first request) before the last layer of a cold search.
      // Handled at once: a failed read is answered below, not reported as unhandled in between.
      const loading = idx.summaries(pageDocs);
      loading.catch(() => undefined);
      await slice.tick();
      const rows = await loading;
      const data = pageDocs.map((doc, k): SearchResult => {
        const [owner, repo, name, stars, description, full, quality] = rows.get(doc)!;
        const result: SearchResult = {
          id: `${owner}/${repo}`,
          owner,
          repo,
          name,
          description,
          stars,
          score: score(matches.keys[from + k]!, from + k, total),
        };
        if (quality !== undefined) result.quality = { flags: quality[0], duplicate: quality[1] === 1 };
        const highlights: NonNullable<SearchResult['highlights']> = {};
        const nameMark = highlightText(name, matchedWords(matches, doc, FIELD_BIT.name));
        if (nameMark !== undefined) highlights.name = nameMark;
        const descriptionMark = highlightDescription(full ?? description, matchedWords(matches, doc, FIELD_BIT.description));
        if (descriptionMark !== undefined) highlights.description = descriptionMark;
        if (nameMark !== undefined || descriptionMark !== undefined) result.highlights = highlights;
        return result;
      });
      return {
        data,
        pagination: { page, limit, total, totalPages: Math.ceil(total / limit) },
        meta: { query: query.normalized, took: Math.round((now() - started) * 100) / 100, ...(matches.relaxed ? { relaxed: true as const } : {}) },
      };
    },

    async autocomplete({ q, limit }) {
      if (q === undefined || q.trim() === '') return { data: [] };
      checkQueryLength(q);
      const last = LAST_WORD.exec(q);
      if (last === null) return { data: [] };
      const prefix = fold(last[0]);
      if (prefix.length < MIN_PREFIX) return { data: [] };
      const idx = index();

      const head = q.slice(0, last.index);
      // An open phrase is completed and closed: `"compose fi` → `"compose file"`.
      const close = (head.split('"').length - 1) % 2 === 1 ? '"' : '';
      syntaxCheck(q + close);
      const candidates = (await idx.withPrefix(prefix))
        .sort((a, b) => b.df - a.df || (a.term < b.term ? -1 : 1))
        .slice(0, AUTOCOMPLETE_CANDIDATES_AFTER_WORDS);
      const plans = new Map<string, Promise<ClausePlan>>();
      const counted: Completion[] = [];
      const texts = new Set<string>();
      const docCount = (await idx.root()).docs;
      // After other words, more completions than a lone word's are counted. Not inside a phrase:
      // each count there checks positions over long postings, and 50 of them cost 1.3-1.6 times
      // the answer time of open-phrase completions (BENCHMARKS.md "Relevance").
      const afterWords = close === '' && holdsClause(head);
      // Up to 50 counts: other requests get the thread between them (the host's slicer).
      const slice = slicer();
      for (const [k, candidate] of candidates.entries()) {
        // A lone word's count is about its own: the most frequent words are the ones. After other
        // words, the next, rarer words are counted too, until one is in fewer skills than the 20th
        // of the completions found so far (a count is at most about the number of skills holding
        // the word). Whatever `limit`, the same completions are counted.
        if (k >= AUTOCOMPLETE_CANDIDATES) {
          if (!afterWords) break;
          const found = distinctCompletions(counted);
          if (found.length >= AUTOCOMPLETE_MAX && candidate.df < found[AUTOCOMPLETE_MAX - 1]!.count) break;
        }
        await slice.tick();
        let query: ParsedQuery;
        try {
          query = parseQuery(head + candidate.term + close);
        } catch {
          // A completion that is not a valid search on its own (only exclusions, too long) is no
          // suggestion (syntax errors were reported above: they do not depend on the completion).
          continue;
        }
        if (texts.has(query.normalized)) continue;
        texts.add(query.normalized);
        // Only the count: no ranking, and the first words' clause states are shared (the reader keeps them).
        const count = await countMatches(idx, await plan(idx, query, plans), { sets: [] }, docCount);
        if (count > 0) counted.push({ text: query.normalized, count, word: candidate.term, df: candidate.df });
      }
      const data = distinctCompletions(counted).slice(0, limit).map(({ text, count }) => ({ text, count }));
      return { data };
    },
  };
}

/** A completion counted by autocomplete: its text, count, last word and how many skills hold that word. */
interface Completion {
  text: string;
  count: number;
  word: string;
  df: number;
}

/**
 * The completions to show, by count, then text: of several that find about the same skills only
 * one, with its own count (docs/api.md "autocomplete"): of last words of one stem, the shortest
 * (`python test`, not `… tests`; ties: the word in more skills); of a word that the search of a
 * word in more skills reaches as a typo (`docker compete` and `… complete`), the latter; of words
 * with the same count, one beginning with the other, the one in more skills (ties: the shorter):
 * `github action`, not `… actionable`; `python text`, not `… tex`.
 */
function distinctCompletions(completions: readonly Completion[]): Completion[] {
  const byStem = new Map<string, Completion>();
  for (const completion of completions) {
    const stem = stemOf(completion.word);
    const kept = byStem.get(stem);
    if (kept === undefined || completion.word.length < kept.word.length || (completion.word.length === kept.word.length && completion.df > kept.df)) byStem.set(stem, completion);
  }
  const byFrequency = [...byStem.values()].sort((a, b) => b.df - a.df || a.word.length - b.word.length || (a.word < b.word ? -1 : 1));
  const notTypos: Completion[] = [];
  for (const completion of byFrequency) if (!notTypos.some((other) => isTypoOf(other.word, completion.word))) notTypos.push(completion);
  notTypos.sort((a, b) => b.count - a.count || b.df - a.df || a.word.length - b.word.length || (a.word < b.word ? -1 : 1));
  const shown: Completion[] = [];
  const prefixes = (a: string, b: string): boolean => a.startsWith(b) || b.startsWith(a);
  for (const completion of notTypos) if (!shown.some((other) => other.count === completion.count && prefixes(other.word, completion.word))) shown.push(completion);
  return shown.sort((a, b) => b.count - a.count || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}

/** Whether `text` (the words before the one completed) holds a clause of its own. */
function holdsClause(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    return parseQuery(text).clauses.length > 0;
  } catch {
    return false;
  }
}
