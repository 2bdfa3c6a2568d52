/**
 * Cursors of the change log (src/changes.ts, docs/api.md "Changes"): `<n>-<16 hex>`, the entry's
 * position in the log (1-based) and a hash chained over every entry up to it (builder/changes.ts),
 * or `0` for the start. Apart from the answer so the endpoint table can declare `since` without
 * loading it.
 */

/** The cursor before the first entry: `since=0` is the same as no `since`. */
export const START_CURSOR = '0';

/** A well-formed cursor: `0`, or a position ≥ 1 and 16 hex digits of the chained hash. */
export const CHANGE_CURSOR_RE = /^(?:0|[1-9][0-9]{0,14}-[0-9a-f]{16})$/;

/** The position of a well-formed cursor (0 for the start). */
export function cursorPosition(cursor: string): number {
  return cursor === START_CURSOR ? 0 : Number(cursor.slice(0, cursor.indexOf('-')));
}
