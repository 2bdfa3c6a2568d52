/**
 * A search over a made-up index of `WARM_DOCS` documents, run by the Service Worker while its
 * first search waits for its files (src/browser-api.ts `warm`). A worker starts with none of the
 * search code compiled: its first search runs the code that decodes postings, matches, ranks and
 * highlights for the first time, over thousands of documents for a common word, and spends more
 * time there than it would with that code compiled and optimised. Run here, the same functions
 * run over as many documents while the thread would otherwise wait for the network, and the real
 * search that follows finds them compiled (docs/search-index.md, "A cold first search").
 *
 * The index is made in memory by the runtime's own encoders: two words with several forms each,
 * common enough for the loops to be optimised, a description with an accent (the folding of
 * other letters), and summaries made on demand. It shares nothing with any real index: its
 * engine is its own.
 */
import { encodePostings } from './codec.ts';
import { SEARCH_FORMAT, SEARCH_DIR, searchFilePath, type SearchRoot, type SummaryRow, type TermChunk } from './format.ts';
import { createSearchEngine, type SearchAnswer } from './index.ts';

/** Documents of the made-up index: enough for a loop over them to be optimised while it runs. */
export const WARM_DOCS = 3000;

/** What the warm-up searches for: two words, each with other forms in the index. */
export const WARM_QUERY = 'alpha testing';

/** Postings masks (src/search/codec.ts): name 1, description 2, content 4, a focused name 8. */
const NAME = 1 | 8;
const DESCRIPTION = 2;
const CONTENT = 4;

/** Each term (sorted) and its mask in document `d`, 0 where the document lacks it. */
const TERMS: Array<[term: string, mask: (d: number) => number]> = [
  ['alpah', (d) => (d % 97 === 0 ? CONTENT : 0)],
  ['alpha', (d) => (d % 4 === 3 ? 0 : d % 10 === 0 ? NAME : d % 5 === 0 ? DESCRIPTION : CONTENT)],
  ['alphabet', (d) => (d % 31 === 0 ? CONTENT : 0)],
  ['alphas', (d) => (d % 7 === 0 ? DESCRIPTION : 0)],
  ['test', (d) => (d % 3 === 0 ? 0 : CONTENT)],
  ['tested', (d) => (d % 11 === 0 ? CONTENT : 0)],
  ['testing', (d) => (d % 2 === 1 ? 0 : d % 6 === 0 ? NAME | CONTENT : d % 4 === 0 ? DESCRIPTION : CONTENT)],
  ['tests', (d) => (d % 13 === 0 ? DESCRIPTION : 0)],
];

const ROOT_NAME = 'r.warm';
const ROOT: SearchRoot = {
  format: SEARCH_FORMAT,
  docs: WARM_DOCS,
  termFirst: [TERMS[0]![0]],
  termFiles: ['t.warm'],
  packs: [],
  summaries: { size: 2, group: 32, groups: Array.from({ length: Math.ceil(WARM_DOCS / 64) }, () => 'warm') },
  filters: {},
  stars: 's.warm',
  copies: '',
};

/** The chunk of every term, made at the warm-up (never kept). */
function chunk(): TermChunk {
  const postings = TERMS.map(([, mask]) => {
    const docs: number[] = [];
    const masks: number[] = [];
    for (let d = 0; d < WARM_DOCS; d++) {
      const m = mask(d);
      if (m !== 0) {
        docs.push(d);
        masks.push(m);
      }
    }
    return encodePostings(docs, masks);
  });
  return { terms: TERMS.map(([term]) => term), postings, headPositions: [], bodyPositions: [] };
}

/** The summary row of document `d`. */
function row(d: number): SummaryRow {
  const name = d % 10 === 0 ? `Alpha testing ${d}` : `Tool ${d}`;
  return ['warm', `tool-${d}`, name, d % 50, d % 3 === 0 ? 'Café notes for alpha testing and tests' : 'Testing the alpha builds of a tool'];
}

/** Path of a summary shard of the made-up index, with its number. */
const SHARD_PATH = new RegExp(`^${SEARCH_DIR}/d\\.warm\\.(\\d+)\\.json$`);

/** Files of the made-up index by path; summary shards made on demand. */
function load(path: string): unknown {
  if (path === searchFilePath(ROOT_NAME)) return ROOT;
  if (path === searchFilePath('t.warm')) return chunk();
  const shard = SHARD_PATH.exec(path);
  if (shard !== null) {
    const first = Number(shard[1]) * ROOT.summaries.size;
    return { docs: [row(first), row(first + 1)].filter((_, k) => first + k < WARM_DOCS) };
  }
  if (path === searchFilePath('s.warm')) return { stars: '' };
  return undefined;
}

/** Why a warm-up stopped early (`warmSearch`'s `stop`). */
class Stopped extends Error {}

/**
 * Search the made-up index once (see the module comment); its answer, for the test. `stop` is
 * asked each time the search reads a file: once it says true (the real search's files are back),
 * the warm-up ends there, so it holds the thread for one step of its own at most. Never rejects:
 * a warm-up that fails or stops has only not warmed everything.
 */
export async function warmSearch(stop: () => boolean = () => false): Promise<SearchAnswer | undefined> {
  const files = async (path: string): Promise<unknown> => {
    if (stop()) throw new Stopped();
    return load(path);
  };
  try {
    const engine = createSearchEngine(files, { search: { root: searchFilePath(ROOT_NAME), index: ROOT } });
    return await engine.search({ q: WARM_QUERY, page: 1, limit: 20 });
  } catch {
    return undefined;
  }
}
