/**
 * Answers of the skill routes (src/endpoints.ts): the lists, search and autocomplete, and one
 * skill's detail, SKILL.md and statistics.
 */
import type { Answer, AnswerContext } from '../endpoints.ts';
import { ApiError } from '../errors.ts';
import { answerList, readListQuery } from '../lists.ts';
import { API_PREFIX, idKey, idShardPath, skillPath } from '../paths.ts';
import { readAutocompleteQuery, readSearchQuery } from './search-query.ts';
import { envelope } from './files.ts';

/** `GET /api/v1/skills`. */
export const listSkills: Answer = async ({ load, manifest, url }) => ({ json: await answerList(load, manifest, readListQuery(url.searchParams, manifest)) });

/** `GET /api/v1/skills/search`: its parameters read here (./search-query.ts), the typed options searched. */
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

/** A skill resource, with `Content-Location` naming its canonical URL when asked in another case. */
async function skillResource(context: SkillContext, resource: Resource) {
  const found = await findSkill(context, resource);
  if (found.canonical === undefined) return { json: found.body };
  const tail = resource === 'detail' ? '' : `/${resource}`;
  const location = `${context.basePath}${API_PREFIX}/skills/${encodeURIComponent(found.canonical.owner)}/${encodeURIComponent(found.canonical.repo)}${tail}${context.url.search}`;
  return { json: found.body, headers: { 'content-location': location } };
}

/**
 * A skill's file by its URL's owner and repo: the exact path first, then, when the build wrote
 * the id index, the id in any case (owners and repositories are case-insensitive on GitHub):
 * `canonical` then names the id as the content writes it. NOT_FOUND when there is no such skill.
 */
export async function findSkill(
  { load, manifest, path: { owner, repo } }: SkillContext,
  resource: Resource,
): Promise<{ body: unknown; canonical?: { owner: string; repo: string } }> {
  const path = skillPath(owner, repo, resource);
  const body = await load(path);
  if (body !== undefined) return { body: envelope(body, path) };
  if (manifest.idShards !== undefined) {
    const key = idKey(owner, repo);
    const shard = await load(idShardPath(key, manifest.idShards));
    const id = typeof shard === 'object' && shard !== null && Object.hasOwn(shard, key) ? (shard as Record<string, unknown>)[key] : undefined;
    const [canonicalOwner, canonicalRepo] = typeof id === 'string' ? id.split('/') : [];
    if (canonicalOwner !== undefined && canonicalRepo !== undefined && id !== `${owner}/${repo}`) {
      const canonical = skillPath(canonicalOwner, canonicalRepo, resource);
      return { body: envelope(await load(canonical), canonical), canonical: { owner: canonicalOwner, repo: canonicalRepo } };
    }
  }
  throw new ApiError('NOT_FOUND', `No skill ${owner}/${repo}`);
}
