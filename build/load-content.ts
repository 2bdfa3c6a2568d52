/**
 * Loads and validates a content folder (DECISIONS §2) into the build model: categories.json,
 * platforms.json and every `skills/<owner>/<repo>/` folder. Nothing is thrown for bad content:
 * every problem of every file is collected (file + field), the valid skills are returned, and the
 * caller decides whether problems are fatal (see `runBuild`).
 *
 * Untrusted input rules: symbolic links are never followed (discovery does not descend into them,
 * files are opened with O_NOFOLLOW), every file is size-checked before it is read, folder names
 * are checked before they can become output paths, and case/Unicode variants of one id collide.
 */
import { createHash } from 'node:crypto';
import { promises as fs, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fg from 'fast-glob';
import type { z } from 'zod';
import {
  CategoriesFile,
  PlatformsFile,
  StatsFile,
  categoriesProblems,
  platformsProblems,
  skillJsonProblems,
  skillJsonSchema,
  statsProblems,
  type KnownIds,
  type SkillJson,
} from './content-schemas.ts';
import { FrontMatterError, parseFrontMatter, type FrontMatter } from './front-matter.ts';
import type { CategoryDef, Content, PlatformDef, Problem, SkillRecord } from './model.ts';
import { problem, zodProblems } from './problems.ts';
import { UnsafeFileError, isMissing, lstatOrUndefined, lstatOrUndefinedSync, readRegularFile } from './safe-read.ts';
import { identityKey, segmentProblem } from './skill-names.ts';
import { compareCodeUnits } from './sort-orders.ts';

/** What `loadContent` found. */
export interface LoadResult {
  /** The valid skills (sorted by id), categories and platforms (file order). */
  content: Content;
  /** Every problem found, content-wide ones first, then per skill folder in id order. */
  problems: Problem[];
  /**
   * Folders left out of `content.skills` because of their problems (`skills/<owner>/<repo>`, or
   * `skills/<owner>` for an owner folder that cannot be read), sorted.
   */
  skipped: string[];
}

/** How many skill folders are read at once. */
const CONCURRENCY = 16;

/** A `skills/<owner>/<repo>` folder found by discovery. */
interface Candidate {
  owner: string;
  repo: string;
  /** `skills/<owner>/<repo>`, relative to the content folder. */
  dir: string;
}

/**
 * Load `contentDir`. Problems inside a skill folder leave that skill out (listed in `skipped`);
 * problems of categories.json, platforms.json or the `skills` folder itself affect everything.
 */
export async function loadContent(contentDir: string): Promise<LoadResult> {
  const root = resolve(contentDir);
  const rootStats = await lstatOrUndefined(root);
  if (rootStats === undefined || !(rootStats.isDirectory() || rootStats.isSymbolicLink())) {
    return failed([problem('.', `content folder ${JSON.stringify(contentDir)} not found`)]);
  }
  // The content folder itself may be a link (the user named it); nothing below it may be.
  const realRoot = await fs.realpath(root);
  const problems: Problem[] = [];

  const categories = await loadJsonFile(realRoot, 'categories.json', CategoriesFile, categoriesProblems, problems);
  const platforms = await loadJsonFile(realRoot, 'platforms.json', PlatformsFile, platformsProblems, problems);
  const known: KnownIds = {
    categories: categories && new Set(categories.categories.flatMap((c) => [c.slug, ...c.subcategories.map((s) => s.slug)])),
    platforms: platforms && new Set(platforms.platforms.map((p) => p.id)),
  };

  const found = await discover(realRoot, problems);
  const collisions = collisionProblems(found.candidates);
  // One schema for every skill.json: building it (and zod's compiled fast path) per skill cost
  // more than validating.
  const skillSchema = skillJsonSchema(known);
  const results = await mapLimit(found.candidates, CONCURRENCY, (candidate) =>
    loadSkill(realRoot, candidate, skillSchema, platforms?.platforms ?? [], collisions.get(candidate.dir) ?? []),
  );

  const skills: SkillRecord[] = [];
  const skipped = [...found.skipped];
  results.forEach((result, i) => {
    problems.push(...result.problems);
    if (result.record !== undefined) skills.push(result.record);
    else skipped.push(found.candidates[i]!.dir);
  });
  skills.sort((a, b) => compareCodeUnits(a.id, b.id));
  skipped.sort(compareCodeUnits);
  return {
    content: { skills, categories: categories?.categories ?? [], platforms: platforms?.platforms ?? [] },
    problems,
    skipped,
  };
}

function failed(problems: Problem[]): LoadResult {
  return { content: { skills: [], categories: [], platforms: [] }, problems, skipped: [] };
}

/**
 * Read, parse and validate one JSON file of the content folder, appending its problems.
 * Returns the parsed value only when the file has no problem at all.
 */
async function loadJsonFile<T extends z.ZodType>(
  root: string,
  file: string,
  schema: T,
  crossCheck: (file: string, raw: unknown) => Problem[],
  problems: Problem[],
  required = true,
): Promise<z.output<T> | undefined> {
  const raw = await readJson(root, file, required, problems);
  if (raw === undefined) return undefined;
  const found: Problem[] = [];
  const parsed = schema.safeParse(raw);
  if (!parsed.success) found.push(...zodProblems(file, parsed.error, raw));
  found.push(...crossCheck(file, raw));
  problems.push(...found);
  return parsed.success && found.length === 0 ? parsed.data : undefined;
}

/** The parsed JSON of `file`, or undefined (missing optional file, or a problem recorded). */
async function readJson(root: string, file: string, required: boolean, problems: Problem[]): Promise<unknown> {
  const read = await readText(root, file, problems);
  if (read === 'missing' && required) problems.push(problem(file, 'missing (required)'));
  if (typeof read === 'string') return undefined;
  try {
    return JSON.parse(read.text.startsWith('\uFEFF') ? read.text.slice(1) : read.text) as unknown;
  } catch (error) {
    problems.push(problem(file, `is not valid JSON: ${(error as Error).message}`));
    return undefined;
  }
}

/**
 * The bytes and UTF-8 text (BOM kept) of `file`; `'missing'`, or `'invalid'` after recording a
 * problem (a link, not a regular file, too large, not UTF-8).
 */
async function readText(root: string, file: string, problems: Problem[]): Promise<{ text: string; bytes: Buffer } | 'missing' | 'invalid'> {
  let bytes: Buffer | undefined;
  try {
    bytes = readRegularFile(join(root, file));
  } catch (error) {
    if (!(error instanceof UnsafeFileError)) throw error;
    problems.push(problem(file, error.message));
    return 'invalid';
  }
  if (bytes === undefined) return 'missing';
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), bytes };
  } catch {
    problems.push(problem(file, 'is not valid UTF-8'));
    return 'invalid';
  }
}

/**
 * Every `skills/<owner>/<repo>` folder, sorted. Links at either level are problems (and their
 * path is skipped); plain files beside the folders (a README, `.DS_Store`) are ignored.
 */
async function discover(root: string, problems: Problem[]): Promise<{ candidates: Candidate[]; skipped: string[] }> {
  const skillsStats = await lstatOrUndefined(join(root, 'skills'));
  if (skillsStats === undefined || skillsStats.isSymbolicLink() || !skillsStats.isDirectory()) {
    const why = skillsStats === undefined ? 'missing: expected skills/<owner>/<repo>/ folders' : 'must be a folder, not a link or file';
    problems.push(problem('skills', why));
    return { candidates: [], skipped: [] };
  }
  const entries = await fg(['skills/*', 'skills/*/*'], {
    cwd: root,
    dot: true,
    onlyFiles: false,
    followSymbolicLinks: false,
    objectMode: true,
  });
  entries.sort((a, b) => compareCodeUnits(a.path, b.path));
  const owners = new Set<string>();
  const candidates: Candidate[] = [];
  const skipped: string[] = [];
  for (const entry of entries) {
    const parts = entry.path.split('/');
    const isOwner = parts.length === 2;
    if (!isOwner && !owners.has(parts[1]!)) continue; // inside a linked owner (never listed) or a file
    if (entry.dirent.isSymbolicLink()) {
      problems.push(problem(entry.path, 'is a symbolic link, not followed'));
      skipped.push(entry.path);
    } else if (entry.dirent.isDirectory()) {
      if (isOwner) owners.add(parts[1]!);
      else candidates.push({ owner: parts[1]!, repo: parts[2]!, dir: entry.path });
    }
  }
  return { candidates, skipped };
}

/** For each folder whose id collides with another (case, Unicode form), a problem naming the others. */
function collisionProblems(candidates: readonly Candidate[]): Map<string, Problem[]> {
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const key = identityKey(c.owner, c.repo);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const out = new Map<string, Problem[]>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    for (const c of group) {
      const others = group.filter((o) => o !== c).map((o) => o.dir);
      out.set(c.dir, [problem(c.dir, `same id as ${others.join(', ')} (ids are case-insensitive): rename or remove one`)]);
    }
  }
  return out;
}

/** Validate one skill folder; a record only when it has no problem. */
async function loadSkill(
  root: string,
  candidate: Candidate,
  skillSchema: ReturnType<typeof skillJsonSchema>,
  platforms: readonly PlatformDef[],
  collisions: readonly Problem[],
): Promise<{ record?: SkillRecord; problems: Problem[] }> {
  const { owner, repo, dir } = candidate;
  const problems: Problem[] = [...collisions];
  for (const [kind, name] of [['owner', owner], ['repo', repo]] as const) {
    const why = segmentProblem(kind, name);
    if (why !== undefined) problems.push(problem(dir, why, kind));
  }
  const abs = join(root, dir);
  // Discovery never lists links, but a folder swapped for one since then must not be read.
  const real = realpathOrUndefined(abs);
  if (real === undefined || real !== abs) {
    problems.push(problem(dir, real === undefined ? 'disappeared while building' : 'resolves outside its place in the content folder'));
    return { problems };
  }

  const skillFile = `${dir}/SKILL.md`;
  const read = await readText(root, skillFile, problems);
  let frontMatter: FrontMatter | undefined;
  if (read === 'missing') problems.push(problem(skillFile, 'missing (required)'));
  if (typeof read !== 'string') {
    try {
      frontMatter = parseFrontMatter(read.text);
    } catch (error) {
      if (!(error instanceof FrontMatterError)) throw error;
      for (const issue of error.issues) problems.push(problem(skillFile, issue.message, issue.field));
    }
  }

  const json: SkillJson | undefined = await loadJsonFile(
    root,
    `${dir}/skill.json`,
    skillSchema,
    skillJsonProblems,
    problems,
  );
  const stats = await loadJsonFile(root, `${dir}/stats.json`, StatsFile, statsProblems, problems, false);
  const hasIndex = await isRegularFileChain(root, [dir, '.claude-plugin', 'marketplace.json']);

  if (problems.length > 0 || typeof read === 'string' || frontMatter === undefined || json === undefined) return { problems };
  return { problems, record: skillRecord(candidate, frontMatter, read, json, stats, hasIndex, platforms) };
}

/** The real path of `path` (sync, like every per-skill read: see `readRegularFile`), or undefined when missing. */
function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** True when every folder of `parts` is a real folder and the last part a regular file (no links). */
async function isRegularFileChain(root: string, parts: readonly string[]): Promise<boolean> {
  let path = root;
  for (const [i, part] of parts.entries()) {
    path = join(path, part);
    const stats = lstatOrUndefinedSync(path);
    if (stats === undefined) return false;
    if (i === parts.length - 1 ? !stats.isFile() : !stats.isDirectory()) return false;
  }
  return true;
}

/** Assemble a valid skill's record (DECISIONS §2: skill.json overrides the front matter). */
function skillRecord(
  { owner, repo, dir }: Candidate,
  frontMatter: FrontMatter,
  { text, bytes }: { text: string; bytes: Buffer },
  json: SkillJson,
  stats: z.output<typeof StatsFile> | undefined,
  hasIndex: boolean,
  platforms: readonly PlatformDef[],
): SkillRecord {
  const id = `${owner}/${repo}`;
  const name = json.name ?? frontMatter.name;
  const fmLicense = frontMatter.data.license;
  const license = json.license ?? (typeof fmLicense === 'string' && fmLicense.trim() !== '' ? fmLicense.trim() : 'NOASSERTION');
  const skillPlatforms = [...new Set(json.platforms)].sort(compareCodeUnits);
  const values: Record<string, string> = { owner, repo, id, name };
  const installCommands = Object.fromEntries(
    skillPlatforms.map((platformId) => {
      const override = json.installCommands !== undefined && Object.hasOwn(json.installCommands, platformId)
        ? json.installCommands[platformId]
        : undefined;
      const template = platforms.find((p) => p.id === platformId)?.install ?? '';
      // One pass, so a name containing "{repo}" is never expanded again.
      return [platformId, override ?? template.replace(/\{(owner|repo|id|name)\}/g, (_, key: string) => values[key]!)];
    }),
  );
  return {
    id,
    owner,
    repo,
    dir,
    name,
    description: json.description ?? frontMatter.description,
    body: frontMatter.body,
    raw: text,
    sha: createHash('sha256').update(bytes).digest('hex'),
    size: bytes.length,
    frontMatter: frontMatter.data,
    stars: json.stars,
    forks: json.forks,
    watchers: json.watchers,
    openIssues: json.openIssues,
    license,
    createdAt: json.createdAt,
    updatedAt: json.updatedAt,
    pushedAt: json.pushedAt,
    author: { name: json.author.name, avatar: json.author.avatar },
    categories: [...new Set(json.categories)].sort(compareCodeUnits),
    platforms: skillPlatforms,
    installCommands,
    hasIndex,
    stats: stats ?? { views: 0, installs: 0, favorites: 0, starHistory: [] },
  };
}

/** `fn` over `items` with at most `limit` running at once; results in input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

