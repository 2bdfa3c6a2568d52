/**
 * Round trip: the split index answers the same result ids, in the same order, as one unsplit
 * MiniSearch index of the same documents (same tokenizer and processTerm, same matching rules and
 * ranking applied to MiniSearch's matches, phrases checked on the text), for generated corpora
 * and a few hundred generated queries, with default sizes and with tiny chunks and packs (so
 * every term range, pack, positions piece and occurrence batch boundary is crossed).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SearchIndexOptions } from '../builder/search-index.ts';
import { parseQuery } from '../src/search/query.ts';
import { ReferenceIndex, allIds, buildIndex, corpusArb, filterArb, queryArb, referenceFilter } from './helpers/search-helpers.ts';

const TINY: SearchIndexOptions = { chunkBytes: 60, inlineMax: 3, packBytes: 40, shardSize: 3, occurrenceBatch: 7 };

describe.each([
  ['default sizes', {}],
  ['tiny chunks, packs, shards and occurrence batches', TINY],
])('split index = unsplit MiniSearch (%s)', (_, options) => {
  it('same ids in the same order for generated queries and filters', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(corpusArb(), fc.array(fc.tuple(queryArb, filterArb), { minLength: 10, maxLength: 10 }), async (skills, queries) => {
        const built = await buildIndex(skills, options);
        const reference = new ReferenceIndex(skills);
        for (const [q, filters] of queries) {
          let parsed;
          try {
            parsed = parseQuery(q);
          } catch {
            continue; // parse errors are the parser tests' business
          }
          const got = await allIds(built.engine, { q, ...filters });
          expect(got, `${q} ${JSON.stringify(filters)}`).toEqual(reference.search(parsed, referenceFilter(filters)));
          compared++;
        }
      }),
      { numRuns: 30 },
    );
    expect(compared).toBeGreaterThan(200);
  });
});
