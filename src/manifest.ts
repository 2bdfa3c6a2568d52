/**
 * The build manifest (`api/v1/manifest.json`): what the runtime needs to validate parameters and
 * compute pagination without reading anything else. Versioned: the runtime rejects a `format`
 * other than `FORMAT_VERSION` with a clear error.
 */
import { ApiError } from './errors.ts';
import { FORMAT_VERSION } from './paths.ts';
import type { SearchRoot } from './search/format.ts';

/** Search index entry point, written by the search build (see src/search/). */
export interface SearchManifest {
  /** Path of the search index root file (content-hashed name). */
  root: string;
  /**
   * A copy of the root file (docs/search-index.md), so a cold search starts with the term chunks
   * instead of waiting for the root; only in a build without the site (with it, `sw.js` carries
   * the copy) and while the root is small (else the runtime reads the file). The runtime checks
   * its format as it checks the file's.
   */
  index?: SearchRoot;
}

export interface Manifest {
  /** Layout/manifest format version, `FORMAT_VERSION`. */
  format: number;
  /** Page size of the pre-built list pages. */
  pageSize: number;
  /** Number of skills. */
  skillCount: number;
  /** Locales that have category translations; `en` first. */
  locales: string[];
  /** Every category slug, top-level and subcategory, sorted. */
  categories: string[];
  /** Every platform id, sorted. */
  platforms: string[];
  /** Total of every pre-built list by `listKey` (`all`, `category/<slug>`, `platform/<id>`). */
  lists: Record<string, number>;
  /**
   * Files of the id index (`idShardPath`), which makes skill URLs case-insensitive; absent in
   * outputs built before it existed (lookups are then exact).
   */
  idShards?: number;
  /** The search index, when the build wrote one. */
  search?: SearchManifest;
  /**
   * SHA-256 fingerprint of the content folder the output was built from (builder/load-content.ts
   * `contentFingerprint`): `skills-api start` rebuilds when the content no longer matches it.
   */
  contentHash?: string;
  /**
   * Entries of the change log, published as `changesPagePath` files (src/changes.ts); absent in
   * outputs built before the log existed.
   */
  changes?: number;
  /** Build time, only when SOURCE_DATE_EPOCH was set (builds are otherwise timestamp-free). */
  builtAt?: string;
  /** The package and version that built the tree; absent in outputs built before it was recorded. */
  generator?: { name: string; version: string };
}

/** Check the manifest's shape and version; throws a SERVER_ERROR naming what is wrong. */
export function checkManifest(value: unknown): Manifest {
  if (typeof value !== 'object' || value === null) {
    throw new ApiError('SERVER_ERROR', 'manifest.json is missing or not a JSON object: run the build first');
  }
  const m = value as Partial<Manifest>;
  if (m.format !== FORMAT_VERSION) {
    throw new ApiError(
      'SERVER_ERROR',
      `manifest.json has format ${JSON.stringify(m.format)}, this runtime reads format ${FORMAT_VERSION}: rebuild the output with this version`,
    );
  }
  for (const key of ['locales', 'categories', 'platforms'] as const) {
    if (!Array.isArray(m[key])) throw new ApiError('SERVER_ERROR', `manifest.json → ${key}: expected an array`);
  }
  if (typeof m.lists !== 'object' || m.lists === null) throw new ApiError('SERVER_ERROR', 'manifest.json → lists: expected an object');
  if (typeof m.pageSize !== 'number' || typeof m.skillCount !== 'number') {
    throw new ApiError('SERVER_ERROR', 'manifest.json → pageSize/skillCount: expected numbers');
  }
  return m as Manifest;
}
