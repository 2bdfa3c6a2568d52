/**
 * Top files (format 4, docs/search-index.md): beside the postings of every term held by enough
 * documents, the summary rows of its best-ranked documents, so the first page of a search comes
 * in one or two files instead of one summary shard per result (a browser over HTTP/1.1 fetches
 * six files at a time). The build (build/search-index.ts) and the runtime (index-reader.ts) both
 * pick a term's best documents with `topDocs`, so they always agree on which rows a file holds.
 */
import type { Postings } from './codec.ts';
import { NAME_FOCUS, NAME_FOCUS_WEIGHT, bestFieldWeight } from './options.ts';

/**
 * Field level of a postings mask: 4 for a focused name, else the field weight (name 3,
 * description 2, content 1). A term's matches rank by it, then by document number (match.ts
 * `level`, the match kind being the same for every document of one term).
 */
export function fieldLevel(mask: number): number {
  return (mask & NAME_FOCUS) !== 0 && (mask & 1) !== 0 ? NAME_FOCUS_WEIGHT : bestFieldWeight(mask & 7);
}

/**
 * The first `k` documents of `postings` by field level (highest first), then document number:
 * where a search of that term alone ranks them. A document of a query's first page is among the
 * top documents of the term it matches best through, whenever that query has one clause; others
 * fall back to the summary shards.
 */
export function topDocs(postings: Postings, k: number): number[] {
  const out: number[] = [];
  for (let level = NAME_FOCUS_WEIGHT; level >= 1 && out.length < k; level--) {
    for (let i = 0; i < postings.docs.length && out.length < k; i++) if (fieldLevel(postings.masks[i]!) === level) out.push(postings.docs[i]!);
  }
  return out;
}
