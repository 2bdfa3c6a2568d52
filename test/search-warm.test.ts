/**
 * The warm-up search of the Service Worker (src/search/warm.ts): its built-in index answers its
 * query as the index the build writes for the same two documents does, so the code it runs is the
 * code a real search runs (a built-in index the runtime no longer reads would warm nothing).
 */
import { describe, expect, it } from 'vitest';
import { WARM_DOCS, WARM_QUERY, warmSearch } from '../src/search/warm.ts';
import { buildIndex, makeSkill } from './helpers/search-helpers.ts';

describe('the warm-up search', () => {
  it('answers its query as the build’s index of the same documents does', async () => {
    const built = await buildIndex(WARM_DOCS.map((doc, i) => makeSkill(i, { ...doc })), {}, []);
    const expected = await built.engine.search(new URLSearchParams({ q: WARM_QUERY }));
    const answer = await warmSearch();
    expect(answer).toBeDefined();
    expect(answer!.data.map((r) => r.id)).toEqual(['warm/alpha', 'warm/alpah']);
    // Every branch of a plain word was taken: stemmed forms, the typo, the prefix, highlights.
    expect(answer!.data[0]!.highlights?.description).toBe('<mark>Tests</mark> <mark>alphas</mark> and <mark>alpha</mark> builds');
    expect(answer!.data[1]!.highlights?.description).toBe('<mark>Tested</mark> <mark>alphabet</mark> notes');
    expect({ ...answer, meta: { ...answer!.meta, took: 0 } }).toEqual({ ...expected, meta: { ...expected.meta, took: 0 } });
  });
});
