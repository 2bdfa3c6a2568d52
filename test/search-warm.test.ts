/**
 * The Service Worker's warm-up search (src/search/warm.ts): a made-up index the runtime makes
 * itself, searched once while the first real search waits for its files.
 */
import { describe, expect, it } from 'vitest';
import { WARM_DOCS, WARM_QUERY, warmSearch } from '../src/search/warm.ts';

describe('warmSearch', () => {
  it('searches its made-up index through the whole engine: many matches, ranked, highlighted', async () => {
    const answer = await warmSearch();
    expect(answer).toBeDefined();
    const { data, pagination, meta } = answer!;
    expect(meta.query).toBe(WARM_QUERY);
    // Enough matches for the loops over them to be worth warming (and not the whole index: it matches).
    expect(pagination.total).toBeGreaterThan(WARM_DOCS / 3);
    expect(pagination.total).toBeLessThan(WARM_DOCS);
    expect(data).toHaveLength(20);
    const scores = data.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // Both words in the name rank first; highlights ran (an accented description among the rows).
    expect(data[0]!.highlights?.name).toBe(`<mark>Alpha</mark> <mark>testing</mark> ${data[0]!.name.split(' ').at(-1)}`);
    expect(data.some((r) => r.description.startsWith('Café'))).toBe(true);
  });

  it('gives the thread back at its next file once told to stop, without failing', async () => {
    // Its reads: the chunk (the root is given), then a summary shard per result.
    let reads = 0;
    expect(await warmSearch(() => (reads++, false))).toBeDefined();
    expect(reads).toBe(21);
    // Told to stop once the chunk is read: it matches and ranks, then stops at the summaries.
    let asked = 0;
    expect(await warmSearch(() => ++asked > 1)).toBeUndefined();
    expect(asked).toBeGreaterThan(1);
    expect(await warmSearch(() => true)).toBeUndefined();
  });
});
