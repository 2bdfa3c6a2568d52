/**
 * Answers of the skill routes (src/endpoints.ts): the lists, search and autocomplete, and one
 * skill's detail, SKILL.md and statistics.
 */
import type { Answer, AnswerContext } from '../endpoints.ts';
import { ApiError } from '../errors.ts';
import { answerList, readListQuery } from '../lists.ts';
import { API_PREFIX, idKey, idShardPath, skillPath } from '../paths.ts';
import { readAutocompleteQuery, readSearchQuery } from '../search/index.ts';
import { envelope } from './files.ts';

/** `GET /api/v1/skills`. */
export const listSkills: Answer = async ({ load, manifest, url }) => ({ json: await answerList(load, manifest, readListQuery(url.searchParams, manifest)) });

/** `GET /api/v1/skills/search`: its query is read by the search runtime's own reader. */
export const searchSkills: Answer = async ({ search, url, manifest }) => ({ json: await search().search(readSearchQuery(url.searchParams, manifest)) });

/** `GET /api/v1/skills/autocomplete`. */
export const autocomplete: Answer = async ({ search, url }) => ({ json: await search().autocomplete(readAutocompleteQuery(url.searchParams)) });

type Resource = 'detail' | 'content' | 'stats';
type SkillContext = AnswerContext<'/:owner/:repo'>;

/** `GET /api/v1/skills/:owner/:repo`. */
export const skillDetail = (context: SkillContext) => skillResource(context, 'detail');
/** `GET /api/v1/skills/:owner/:repo/content`. */
export const skillContent = (context: SkillContext) => skillResource(context, 'content');
/** `GET /api/v1/skills/:owner/:repo/stats`. */
export const skillStats = (context: SkillContext) => skillResource(context, 'stats');

/**
 * A skill's file by its URL's owner and repo: the exact path first, then, when the build wrote
 * the id index, the id in any case (owners and repositories are case-insensitive on GitHub): the
 * answer is then the canonical skill, with `Content-Location` naming its canonical URL.
 */
async function skillResource({ load, manifest, path: { owner, repo }, url, basePath }: SkillContext, resource: Resource) {
  const path = skillPath(owner, repo, resource);
  const body = await load(path);
  if (body !== undefined) return { json: envelope(body, path) };
  if (manifest.idShards !== undefined) {
    const key = idKey(owner, repo);
    const shard = await load(idShardPath(key, manifest.idShards));
    const id = typeof shard === 'object' && shard !== null && Object.hasOwn(shard, key) ? (shard as Record<string, unknown>)[key] : undefined;
    const [canonicalOwner, canonicalRepo] = typeof id === 'string' ? id.split('/') : [];
    if (canonicalOwner !== undefined && canonicalRepo !== undefined && id !== `${owner}/${repo}`) {
      const canonical = skillPath(canonicalOwner, canonicalRepo, resource);
      const tail = resource === 'detail' ? '' : `/${resource}`;
      const location = `${basePath}${API_PREFIX}/skills/${encodeURIComponent(canonicalOwner)}/${encodeURIComponent(canonicalRepo)}${tail}${url.search}`;
      return { json: envelope(await load(canonical), canonical), headers: { 'content-location': location } };
    }
  }
  throw new ApiError('NOT_FOUND', `No skill ${owner}/${repo}`);
}
