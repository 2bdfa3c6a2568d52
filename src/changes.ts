/**
 * `GET /api/v1/changes`: the change log a mirror follows (docs/api.md "Changes"). The build
 * keeps the log in the content folder and publishes it as page files (`changesPagePath`, 100
 * entries each); this answers `since` any cursor of the log with any `limit` from those files.
 *
 * A cursor is `<n>-<16 hex>`: the entry's position in the log (1-based) and a hash chained over
 * every entry up to it (builder/changes.ts), or `0` for the start. The position finds the page;
 * the hash makes a cursor of another log (a log started over, another directory) unknown
 * instead of silently pointing somewhere else.
 */
import { ApiError } from './errors.ts';
import type { Loader } from './loader.ts';
import type { Manifest } from './manifest.ts';
import { CHANGES_QUERY, type AnswerContext } from './endpoints.ts';
import { readQuery } from './param-spec.ts';
import { quote } from './params.ts';
import { START_CURSOR, cursorPosition } from './change-cursor.ts';
import { CHANGES_PAGE_SIZE, changesPagePath } from './paths.ts';
import type { ChangeEntry, ChangesResponse } from './schemas.ts';

export { CHANGE_CURSOR_RE, START_CURSOR, cursorPosition } from './change-cursor.ts';

/** A validated query of `/changes`. */
export interface ChangesQuery {
  /** The cursor asked from (`START_CURSOR` when `since` is absent). */
  since: string;
  /** Its position. */
  position: number;
  limit: number;
}

/** Read `since` and `limit` (src/endpoints.ts `CHANGES_QUERY`), throwing one INVALID_PARAMS that names every bad parameter. */
export function readChangesQuery(params: URLSearchParams): ChangesQuery {
  const { since = START_CURSOR, limit } = readQuery(CHANGES_QUERY, params, null);
  return { since, position: cursorPosition(since), limit };
}

/** `GET /api/v1/changes` (src/endpoints.ts `listChanges`). */
export const listChanges = async ({ load, manifest, url }: AnswerContext) => ({ json: await answerChanges(load, manifest, readChangesQuery(url.searchParams)) });

/** The answer to a `/changes` query from the page files; an unknown cursor is INVALID_PARAMS naming `since`. */
export async function answerChanges(load: Loader, manifest: Manifest, query: ChangesQuery): Promise<ChangesResponse> {
  const count = manifest.changes;
  if (count === undefined) throw new ApiError('SERVER_ERROR', 'This build has no change log: rebuild the output with this version');
  const { since, position, limit } = query;
  const pages = new Map<number, ChangeEntry[]>();
  const entry = async (n: number): Promise<ChangeEntry> => {
    const page = Math.ceil(n / CHANGES_PAGE_SIZE);
    let entries = pages.get(page);
    if (entries === undefined) pages.set(page, (entries = await readPage(load, page)));
    const found = entries[(n - 1) % CHANGES_PAGE_SIZE];
    if (found === undefined) throw new ApiError('SERVER_ERROR', `The file ${changesPagePath(page)} is missing entry ${n}: rebuild the output`);
    return found;
  };
  if (position > count || (position > 0 && (await entry(position)).cursor !== since)) {
    throw new ApiError('INVALID_PARAMS', `Invalid query parameter: since: unknown cursor ${quote(since)}; this log has ${count} entries (ask without since to start over)`, {
      details: { params: [{ param: 'since', message: `unknown cursor ${quote(since)}: not an entry of this change log` }] },
    });
  }
  const end = Math.min(count, position + limit);
  const data: ChangeEntry[] = [];
  for (let n = position + 1; n <= end; n++) data.push(await entry(n));
  return { data, pagination: { limit, hasMore: end < count }, meta: { cursor: data.at(-1)?.cursor ?? since } };
}

async function readPage(load: Loader, page: number): Promise<ChangeEntry[]> {
  const path = changesPagePath(page);
  const body = await load(path);
  const data = typeof body === 'object' && body !== null && 'data' in body ? (body as { data: unknown }).data : undefined;
  if (!Array.isArray(data)) throw new ApiError('SERVER_ERROR', `The file ${path} is missing or malformed: rebuild the output`);
  return data as ChangeEntry[];
}
