/**
 * Compatibility routes: answers in the shape of clients people already run, beside `/api/v1`
 * and from the same files. Documented in docs/api.md ("Compatibility routes").
 *
 * `GET <base>api/search?q=…&limit=…[&owner=…]` is the search of the open `skills` CLI (npm package
 * `skills`; `skills find <query>` with `SKILLS_API_URL` set to this site). It answers
 * `{ skills: [{ id, name, source, installs }] }`: `source` is the repository to give
 * `npx skills add` (`owner/repo` of an imported skill's GitHub repository, else the skill's id),
 * `installs` the skill's install count. The query is the search endpoint's (same syntax, same
 * errors); `owner` keeps the skills of one owner (case-insensitive) among the best 100 matches.
 */
import type { Loader } from './loader.ts';
import type { AnswerContext, COMPAT_SEARCH_QUERY } from './endpoints.ts';
import { MAX_LIMIT, skillPath } from './paths.ts';
import type { SearchEngine } from './search/index.ts';

/** One skill as the `skills` CLI reads it. */
export interface CompatSkill {
  id: string;
  name: string;
  source: string;
  installs: number;
}

/** `GET <base>api/search` (src/endpoints.ts `compatSearch`). */
export const compatSearch = async ({ load, search, query }: AnswerContext<'/api/search', typeof COMPAT_SEARCH_QUERY>) => {
  const { q = '', limit, owner } = query();
  return { json: await answerCompatSearch(load, search(), { q, limit, owner: owner?.trim().toLowerCase() }) };
};

/** The `skills` CLI's search answer to a query read by `COMPAT_SEARCH_QUERY`. */
export async function answerCompatSearch(
  load: Loader,
  engine: SearchEngine,
  { q, limit, owner }: { q: string; limit: number; owner: string | undefined },
): Promise<{ skills: CompatSkill[] }> {
  // With an owner, its skills among the best matches: the search itself has no owner filter.
  const query = { q, page: 1, limit: owner === undefined || owner === '' ? limit : MAX_LIMIT };
  const found = (await engine.search(query)).data.filter((r) => owner === undefined || owner === '' || r.owner.toLowerCase() === owner).slice(0, limit);
  return {
    skills: await Promise.all(
      found.map(async (r) => {
        const [detail, stats] = await Promise.all([load(skillPath(r.owner, r.repo, 'detail')), load(skillPath(r.owner, r.repo, 'stats'))]);
        const repository = (detail as { data?: { source?: { repository?: unknown } } } | undefined)?.data?.source?.repository;
        const github = typeof repository === 'string' ? /^https:\/\/github\.com\/([^/]+\/[^/]+)$/.exec(repository)?.[1] : undefined;
        const installs = (stats as { data?: { installs?: unknown } } | undefined)?.data?.installs;
        return { id: r.id, name: r.name, source: github ?? r.id, installs: typeof installs === 'number' ? installs : 0 };
      }),
    ),
  };
}
