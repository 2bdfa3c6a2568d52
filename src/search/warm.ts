/**
 * A search over a built-in index of two documents, run once by the Service Worker while its first
 * request waits for the network (src/service-worker.ts): a worker starts with none of the search
 * code compiled, and a cold search spends more time compiling and running that code for the
 * first time than matching (docs/search-index.md "A cold search"). Run here, it costs a few
 * milliseconds of a thread that would otherwise wait for files, and the real search that follows
 * finds its functions compiled.
 *
 * The index is written out below, in the format of the build (`test/search-warm.test.ts` checks
 * that the build writes an index answering the query the same for the same two documents), and
 * the query takes every branch a plain word does: its exact term, stemmed forms, a typo, a prefix,
 * ranking and highlights.
 */
import { SEARCH_FORMAT, searchFilePath, type SearchRoot } from './format.ts';
import { mapLoader } from '../loader.ts';
import { createSearchEngine, type SearchAnswer } from './index.ts';

/** The two documents of the built-in index (the build's input of the test). */
export const WARM_DOCS = [
  { owner: 'warm', repo: 'alpha', name: 'Alpha testing', description: 'Tests alphas and alpha builds', body: 'Testing the alpha build.', stars: 2 },
  { owner: 'warm', repo: 'alpah', name: 'Alpah', description: 'Tested alphabet notes', body: 'Test notes.', stars: 1 },
] as const;

/** What the warm-up searches for. */
export const WARM_QUERY = 'alpha testing';

const ROOT = searchFilePath('r.warm');
const ROOT_FILE: SearchRoot = { format: SEARCH_FORMAT, docs: 2, termFirst: ['alpah'], termFiles: ['t.warm'], packs: [], summaries: { size: 2, group: 32, groups: ['warm'] }, filters: {}, stars: 's.warm', copies: '' };

/** The files of the index of `WARM_DOCS`, by path (positions left out: the query has no phrase). */
const FILES = new Map<string, unknown>([
  [ROOT, ROOT_FILE],
  [searchFilePath('t.warm'), {
    terms: ['alpah', 'alpha', 'alphabet', 'alphas', 'build', 'builds', 'notes', 'test', 'tested', 'testing', 'tests'],
    postings: ['x9', 'v', 'x2', 'i', 'k', 'i', 'x6', 'x4', 'x2', 't', 'i'],
    headPositions: [],
    bodyPositions: [],
  }],
  [searchFilePath('d.warm.0'), { docs: WARM_DOCS.map((d) => [d.owner, d.repo, d.name, d.stars, d.description]) }],
  [searchFilePath('s.warm'), { stars: '2111' }],
]);

/**
 * Search the built-in index once (see the module comment); its answer, for the test. Never
 * rejects: a warm-up that fails has only not warmed anything.
 */
export async function warmSearch(): Promise<SearchAnswer | undefined> {
  try {
    const engine = createSearchEngine(mapLoader(FILES), { search: { root: ROOT, index: ROOT_FILE } });
    return await engine.search({ q: WARM_QUERY, page: 1, limit: 20 });
  } catch {
    return undefined;
  }
}
