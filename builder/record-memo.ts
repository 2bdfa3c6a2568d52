/**
 * Values derived from one skill record alone, computed once per record and kept in the build
 * cache beside it (builder/build-cache.ts), so an incremental build does not hash 100k unchanged
 * records again to find them: the state hash of the change log (builder/changes.ts
 * `skillStateHash`), the key of the search token cache (builder/search-corpus.ts
 * `documentKey`) and the hash of the skill's list summary (builder/page-memo.ts `summaryHashOf`).
 *
 * A value is tied to the record object it was computed from or restored with: a record restored
 * from a cache line gets the values stored on that same line (the line is written from one record
 * and its values together), and a record made anew has none until they are computed. The build
 * cache's code hash covers the modules that compute them, so values of other build code are never
 * read.
 */

/** The derived values of one record, as far as known. */
export interface DerivedValues {
  /** `skillStateHash` (64 hex digits). */
  state?: string;
  /** `documentKey` (16 bytes as a latin1 string). */
  doc?: string;
  /**
   * The list summary's `summaryHash`, after the key of the quality part it was made with (the
   * only part of a summary not of the record alone): `<quality key>:<hash>`.
   */
  summary?: string;
}

const memos = new WeakMap<object, DerivedValues>();

/** The derived values known for `record` (an object kept for it, filled in as they are computed). */
export function derivedOf(record: object): DerivedValues {
  let values = memos.get(record);
  if (values === undefined) {
    values = {};
    memos.set(record, values);
  }
  return values;
}

/** The values known for `record`, if any, without keeping an object for it. */
export function knownDerived(record: object): DerivedValues | undefined {
  const values = memos.get(record);
  return values === undefined || (values.state === undefined && values.doc === undefined && values.summary === undefined) ? undefined : values;
}

/** Give `record` (just restored from a stored line) the values stored on that line. */
export function seedDerived(record: object, values: DerivedValues | undefined): void {
  if (values === undefined) return;
  memos.set(record, {
    ...(values.state === undefined ? {} : { state: values.state }),
    ...(values.doc === undefined ? {} : { doc: values.doc }),
    ...(values.summary === undefined ? {} : { summary: values.summary }),
  });
}

/** Whether a stored value has the shape of derived values (a damaged or foreign line is never used). */
export function isDerived(value: unknown): value is DerivedValues {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { state, doc, summary } = value as Record<string, unknown>;
  return (state === undefined || (typeof state === 'string' && /^[0-9a-f]{64}$/.test(state))) &&
    (doc === undefined || (typeof doc === 'string' && doc.length === 16 && !/[^\x00-\xff]/.test(doc))) &&
    (summary === undefined || (typeof summary === 'string' && SUMMARY_MEMO.test(summary)));
}

/** A stored `summary` value: a quality key (`builder/page-memo.ts` `summaryHashOf`), then the hash. */
const SUMMARY_MEMO = /^(?:\d+\+?)?:[A-Za-z0-9_-]{22}$/;
