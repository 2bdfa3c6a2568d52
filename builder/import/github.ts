/**
 * Repository metadata from GitHub's "get a repository" REST answer (`GET /repos/{owner}/{repo}`,
 * what `gh api repos/OWNER/REPO` prints): stars, forks, watchers, open issues, license, owner and
 * avatar, last push. Read from saved answers (`--github-meta DIR/<owner>/<repo>.json`) or asked
 * live (`--github-api URL`), with the last answer and its ETag kept in the cache folder so an
 * unchanged repository costs a 304 (which GitHub does not count against the rate limit).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** What the importer takes from a repository's metadata. */
export interface RepoMeta {
  stars: number;
  forks: number;
  /** Subscribers (GitHub's `watchers_count` is the star count). */
  watchers: number;
  openIssues: number;
  /** SPDX id of the repository's license, when GitHub detected one. */
  license?: string;
  ownerLogin: string;
  avatar: string;
  pushedAt?: string;
  defaultBranch?: string;
}

/** The metadata of a REST answer, or a message saying what is wrong with it. */
export function metaFromRest(body: unknown): RepoMeta | string {
  if (typeof body !== 'object' || body === null) return 'not a JSON object';
  const b = body as Record<string, unknown>;
  const count = (key: string): number | string => {
    const value = b[key];
    return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : `${key}: expected a whole number ≥ 0`;
  };
  const counts = ['stargazers_count', 'forks_count', 'open_issues_count'].map(count);
  const bad = counts.find((c) => typeof c === 'string');
  if (bad !== undefined) return bad as string;
  const owner = b.owner as Record<string, unknown> | null | undefined;
  if (typeof owner !== 'object' || owner === null || typeof owner.login !== 'string') return 'owner.login: expected a string';
  const avatar = typeof owner.avatar_url === 'string' && /^https:\/\/[^\s]+$/.test(owner.avatar_url) ? owner.avatar_url : `https://github.com/${owner.login}.png`;
  const license = (b.license as Record<string, unknown> | null | undefined)?.spdx_id;
  const pushed = typeof b.pushed_at === 'string' && !Number.isNaN(Date.parse(b.pushed_at)) ? new Date(b.pushed_at).toISOString() : undefined;
  const subscribers = Number.isSafeInteger(b.subscribers_count) && (b.subscribers_count as number) >= 0 ? (b.subscribers_count as number) : 0;
  return {
    stars: counts[0] as number,
    forks: counts[1] as number,
    watchers: subscribers,
    openIssues: counts[2] as number,
    ...(typeof license === 'string' && license !== 'NOASSERTION' && license.trim() !== '' ? { license } : {}),
    ownerLogin: owner.login,
    avatar,
    ...(pushed === undefined ? {} : { pushedAt: pushed }),
    ...(typeof b.default_branch === 'string' && b.default_branch !== '' ? { defaultBranch: b.default_branch } : {}),
  };
}

/** How metadata is found; `none` gives none (zeros, one warning per repository). */
export type MetaSource =
  | { kind: 'saved'; dir: string }
  | { kind: 'live'; apiUrl: string; token: string | undefined; cacheDir: string }
  | { kind: 'none' };

/** The metadata of one repository, or why there is none. */
export interface MetaAnswer {
  meta?: RepoMeta;
  warning?: string;
}

/** Fetches metadata; a live source stops asking after a rate-limit answer and says so once. */
export function metaReader(source: MetaSource): (owner: string, repo: string) => Promise<MetaAnswer> {
  let limited: string | undefined;
  return async (owner, repo) => {
    if (source.kind === 'none') return { warning: `${owner}/${repo}: no repository metadata (pass --github-meta DIR or --github-api URL): counts are 0` };
    if (source.kind === 'saved') return readSaved(source.dir, owner, repo);
    const cacheFile = join(source.cacheDir, 'github', owner.toLowerCase(), `${repo.toLowerCase()}.json`);
    const cached = await readCached(cacheFile);
    if (limited !== undefined) return fromCache(cached, `${owner}/${repo}: ${limited}`);
    let response: Response;
    try {
      response = await fetch(`${source.apiUrl.replace(/\/+$/, '')}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`, {
        headers: {
          accept: 'application/vnd.github+json',
          'user-agent': 'skills-directory-api-import',
          'x-github-api-version': '2022-11-28',
          ...(source.token === undefined || source.token === '' ? {} : { authorization: `Bearer ${source.token}` }),
          ...(cached?.etag === undefined ? {} : { 'if-none-match': cached.etag }),
        },
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      return fromCache(cached, `${owner}/${repo}: GitHub API not reachable (${(error as Error).message})`);
    }
    if (response.status === 304 && cached !== undefined) return answerOf(cached.body, `${owner}/${repo}`);
    if ((response.status === 403 || response.status === 429) && (response.headers.get('x-ratelimit-remaining') === '0' || response.headers.has('retry-after'))) {
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      const when = Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString()}` : '';
      limited = `GitHub API rate limit reached${when}: set GITHUB_TOKEN (5,000 requests an hour) or pass --github-meta DIR; the last known metadata is kept`;
      await response.body?.cancel();
      return fromCache(cached, `${owner}/${repo}: ${limited}`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      return fromCache(cached, `${owner}/${repo}: GitHub API answered ${response.status}`);
    }
    const body = (await response.json()) as unknown;
    const answer = answerOf(body, `${owner}/${repo}`);
    if (answer.meta !== undefined) await writeCached(cacheFile, { etag: response.headers.get('etag') ?? undefined, body });
    return answer;
  };
}

/** A saved REST answer `DIR/<owner>/<repo>.json` (names compared as given, then lower-cased). */
async function readSaved(dir: string, owner: string, repo: string): Promise<MetaAnswer> {
  for (const file of [join(dir, owner, `${repo}.json`), join(dir, owner.toLowerCase(), `${repo.toLowerCase()}.json`)]) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    try {
      return answerOf(JSON.parse(text) as unknown, file);
    } catch (error) {
      return { warning: `${file}: not valid JSON (${(error as Error).message}): counts are 0` };
    }
  }
  return { warning: `${owner}/${repo}: no saved metadata at ${join(dir, owner, `${repo}.json`)}: counts are 0` };
}

function answerOf(body: unknown, where: string): MetaAnswer {
  const meta = metaFromRest(body);
  return typeof meta === 'string' ? { warning: `${where} → ${meta}: counts are 0` } : { meta };
}

interface Cached {
  etag?: string | undefined;
  body: unknown;
}

async function readCached(file: string): Promise<Cached | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as Cached;
    return typeof value === 'object' && value !== null && 'body' in value ? value : undefined;
  } catch {
    return undefined;
  }
}

async function writeCached(file: string, value: Cached): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(`${file}.tmp`, JSON.stringify(value));
  await rename(`${file}.tmp`, file);
}

function fromCache(cached: Cached | undefined, warning: string): MetaAnswer {
  if (cached === undefined) return { warning };
  const answer = answerOf(cached.body, warning);
  return answer.meta === undefined ? { warning } : { meta: answer.meta, warning };
}
