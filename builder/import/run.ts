/**
 * `skills-api import`: git repositories → the content folder (docs/import.md).
 *
 * Per repository: open it (builder/import/git.ts), find its skills (discover.ts), read each
 * SKILL.md from the commit and check it as the build does, take the dates from the history, the
 * counts from GitHub's metadata (github.ts), categories (classify.ts) and install commands
 * (install.ts). Then, for every repository at once: give each skill its id (kept from earlier
 * imports through `imports.json`; a new id never takes one that exists), write the skill folders
 * whose bytes changed, and remove the folders of skills gone upstream.
 *
 * Deterministic: the same commits, metadata and date give byte-identical files. The importer
 * only touches what it owns (the folders listed in `imports.json`); hand-made skill folders,
 * categories.json and platforms.json are left as they are (the last two are written once when
 * missing). A repository that cannot be read keeps its skills as they were.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';
import { FrontMatterError, parseFrontMatter } from '../../src/text/front-matter.ts';
import { MAX_FILE_BYTES } from '../safe-read.ts';
import { identityKey, segmentProblem } from '../skill-names.ts';
import { compareCodeUnits } from '../sort-orders.ts';
import { categoriesFor, frontMatterLabels } from './classify.ts';
import { CATALOG_FILES, catalogHints, profileOfSkills } from './categories-repo.ts';
import { discover, manifestPaths, type DeclaringPlugin, type FoundSkill } from './discover.ts';
import { folderDates, listTree, openRepository, readBlobs, type Repository, type TreeEntry } from './git.ts';
import { metaReader, type MetaSource, type RepoMeta } from './github.ts';
import { oneLine } from '../../src/plain-text.ts';
import { IMPORT_PLATFORMS, installCommands } from './install.ts';
import { licenseFilesOf, licenseFor } from './license.ts';
import { nestedSkillProblem } from './nested.ts';
import { selectSkillFiles, syncSkillFiles, type LeftOutFile, type Selection } from './skill-files.ts';
import type { SourceSpec } from './sources.ts';

/** The importer's record of what it owns: skill key (`<repository>#<path>`) → id. */
export const STATE_FILE = 'imports.json';
const STATE_FORMAT = 'skills-api-imports';
const STATE_VERSION = 1;
/** Files the importer writes in a skill folder (and removes with the skill). */
const OWNED_FILES = ['SKILL.md', 'skill.json', 'stats.json', '.claude-plugin/marketplace.json'] as const;

/** Options of `runImport`. */
export interface ImportOptions {
  sources: readonly SourceSpec[];
  /** The content folder written. */
  out: string;
  /** Clones of URL sources and the GitHub answers' cache. */
  cacheDir: string;
  meta: MetaSource;
  /** Also import skills whose front matter says `metadata.internal: true`. */
  includeInternal?: boolean;
  /** Remove the skills of repositories that are not among `sources`. */
  prune?: boolean;
  /** The day a star-history point is recorded for (`YYYY-MM-DD`). */
  today: string;
  /** Told as each repository starts (`done` repositories behind it). */
  onProgress?: (done: number, total: number, label: string) => void;
  /** Warnings (metadata missing, a repository that cannot be read). */
  warn?: (text: string) => void;
}

/** One line of the report: a SKILL.md found and what became of it. */
export interface ReportedSkill {
  repository: string;
  /** The SKILL.md (or declared folder) in the repository. */
  path: string;
  status: 'imported' | 'skipped';
  id?: string;
  reason?: string;
  categories?: string[];
  /** How the categories were chosen. */
  categoriesBy?: string;
  /** The skill folder this skill sits in, when nested (docs/import.md). */
  parent?: string;
  /** The license written, and where it came from (builder/import/license.ts). */
  license?: string;
  licenseBy?: string;
  /** Files of the skill folder kept, and their bytes (docs/import.md "Whole folders"). */
  files?: number;
  bytes?: number;
  /** Files of the folder left out, each with the reason (a link, a name, past a limit). */
  leftOut?: LeftOutFile[];
}

/** What an import did (`--report FILE` writes it as JSON). */
export interface ImportReport {
  format: 'skills-api-import-report';
  version: 1;
  repositories: { source: string; repository?: string; commit?: string; skills: number; error?: string }[];
  skills: ReportedSkill[];
  /** Skills imported, written anew or changed, removed, skipped. */
  counts: { imported: number; added: number; changed: number; removed: number; skipped: number; unchanged: number };
  /** Imported skills per category slug. */
  categories: Record<string, number>;
  ms: number;
}

/** A skill ready to be written, before it has an id. */
interface Pending {
  key: string;
  repository: string;
  github: string | undefined;
  owner: string;
  /** The id's repo segment wanted (the folder name, made valid). */
  segment: string;
  /** A second choice on collision: `<segment>-<plugin or repository name>`. */
  context: string;
  /** The skill folder in its repository (`.` for the root). */
  folder: string;
  skillMd: Buffer;
  /** The repository the skill's files are read from when written, and which files. */
  repo: Repository;
  files: Selection;
  json: (previous: PreviousSkill | undefined) => Record<string, unknown>;
  stars: number | undefined;
  plugin: DeclaringPlugin | undefined;
  report: ReportedSkill;
}

/** What an earlier import left in a skill folder. */
interface PreviousSkill {
  json?: Record<string, unknown>;
  stats?: { views: number; installs: number; favorites: number; starHistory: { date: string; stars: number }[] };
}

/** Import `options.sources` into `options.out`. */
export async function runImport(options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  const out = resolve(options.out);
  const warn = options.warn ?? (() => undefined);
  await mkdir(join(out, 'skills'), { recursive: true });
  await ensureSharedFiles(out);
  const facts = await contentFacts(out);
  const state = await readState(out);
  const readMeta = metaReader(options.meta);

  const report: ImportReport = {
    format: 'skills-api-import-report',
    version: 1,
    repositories: [],
    skills: [],
    counts: { imported: 0, added: 0, changed: 0, removed: 0, skipped: 0, unchanged: 0 },
    categories: {},
    ms: 0,
  };
  const pending: Pending[] = [];
  /** Repositories read completely: their skills not seen now are gone upstream. */
  const readRepositories = new Set<string>();
  // Skills still upstream but skipped for their own problems this run (a front matter broken for a
  // night): an earlier import's folder stays as it was, statistics included, and is no removal.
  const held = new Set<string>();

  for (const [index, spec] of options.sources.entries()) {
    options.onProgress?.(index, options.sources.length, spec.url);
    try {
      const found = await readSource(spec, options, facts, readMeta, warn);
      readRepositories.add(found.repository);
      pending.push(...found.pending);
      for (const key of found.held) held.add(key);
      report.skills.push(...found.skipped);
      report.repositories.push({ source: spec.url, repository: found.repository, commit: found.commit, skills: found.pending.length });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      warn(`${spec.url}: ${message}; its skills are kept as they were`);
      report.repositories.push({ source: spec.url, skills: 0, error: message });
    }
  }
  options.onProgress?.(options.sources.length, options.sources.length, 'writing');

  // Ids: kept ones first, so a new skill never takes an id an earlier import gave.
  const taken = new Set(facts.ids.keys());
  const ids = new Map<string, string>();
  pending.sort((a, b) => compareCodeUnits(a.key, b.key));
  for (const p of pending) {
    const kept = state[p.key];
    if (kept !== undefined) {
      ids.set(p.key, kept);
      taken.add(identityKey(...(kept.split('/') as [string, string])));
    }
  }
  for (const p of pending) {
    if (ids.has(p.key)) continue;
    const id = freeId(p.owner, [p.segment, p.context], taken);
    ids.set(p.key, id);
    taken.add(identityKey(...(id.split('/') as [string, string])));
  }

  // Write what changed.
  const nextState: Record<string, string> = {};
  for (const p of pending) {
    const id = ids.get(p.key)!;
    nextState[p.key] = id;
    const folder = join(out, 'skills', ...id.split('/'));
    const previous = await readPrevious(folder);
    const files: [string, Buffer | undefined][] = [
      ['SKILL.md', p.skillMd],
      ['skill.json', jsonBytes(p.json(previous))],
      ['stats.json', statsBytes(previous?.stats, p.stars, options.today)],
      ['.claude-plugin/marketplace.json', p.plugin === undefined ? undefined : jsonBytes(marketplaceOf(p.plugin, p.folder))],
    ];
    let changed = false;
    for (const [name, bytes] of files) changed = (await syncFile(join(folder, name), bytes)) || changed;
    // Every other file of the skill's folder (a skill is its folder).
    changed = (await syncSkillFiles(p.repo, folder, p.files.kept)) || changed;
    const isNew = state[p.key] === undefined;
    if (isNew) report.counts.added++;
    else if (changed) report.counts.changed++;
    else report.counts.unchanged++;
    report.counts.imported++;
    report.skills.push({ ...p.report, id });
    for (const slug of p.report.categories ?? []) report.categories[slug] = (report.categories[slug] ?? 0) + 1;
  }
  // Skills gone upstream (or, with --prune, of repositories no longer listed) are removed. A run in
  // which a source could not be read prunes nothing: which repository it was is unknown.
  const prune = options.prune === true && report.repositories.every((r) => r.error === undefined);
  for (const [key, id] of Object.entries(state)) {
    if (nextState[key] !== undefined) continue;
    const repository = key.slice(0, key.lastIndexOf('#'));
    // Read this run (and the skill is no longer there), or not among this run's repositories.
    const gone = !held.has(key) && (readRepositories.has(repository) || prune);
    if (!gone) {
      nextState[key] = id;
      continue;
    }
    await removeSkill(join(out, 'skills', ...id.split('/')));
    report.counts.removed++;
  }
  await writeState(out, nextState);
  report.counts.skipped = report.skills.filter((s) => s.status === 'skipped').length;
  report.skills.sort((a, b) => compareCodeUnits(`${a.repository}#${a.path}`, `${b.repository}#${b.path}`));
  report.categories = Object.fromEntries(Object.entries(report.categories).sort(([a], [b]) => compareCodeUnits(a, b)));
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** Read one repository: its skills ready to write, and what was skipped. */
async function readSource(
  spec: SourceSpec,
  options: ImportOptions,
  facts: ContentFacts,
  readMeta: ReturnType<typeof metaReader>,
  warn: (text: string) => void,
): Promise<{ repository: string; commit: string; pending: Pending[]; skipped: ReportedSkill[]; held: string[] }> {
  const repo = await openRepository(spec.url, join(options.cacheDir, 'repositories'), spec.ref);
  const remote = repo.remoteUrl ?? spec.url;
  const github = githubSlug(remote);
  const repository = github !== undefined ? `https://github.com/${github}` : repositoryOf(remote);
  const owner = spec.owner ?? github?.split('/')[0];
  if (owner === undefined) throw new Error(`cannot tell the owner of ${remote} (not a GitHub URL): give "owner" for it in the sources file`);
  const ownerProblem = segmentProblem('owner', owner);
  if (ownerProblem !== undefined) throw new Error(`owner ${ownerProblem}`);
  const repoName = github?.split('/')[1] ?? basename(remote).replace(/\.git$/i, '');

  const entries = await listTree(repo);
  const manifestFiles = manifestPaths(entries);
  // Entries by path: the lookups below are per skill, over trees of thousands of files.
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const manifests = await readManifests(repo, manifestFiles, byPath);
  const discovered = discover({ entries, manifests });
  const skipped: ReportedSkill[] = discovered.passed.map((p) => ({ repository, path: p.path, status: 'skipped', reason: p.reason }));
  const include = spec.include === undefined ? undefined : picomatch(spec.include, { dot: true });
  const exclude = spec.exclude === undefined ? undefined : picomatch(spec.exclude, { dot: true });
  const skills = discovered.skills.filter((skill) => {
    const why = include !== undefined && !include(skill.path) ? 'not matched by include' : exclude?.(skill.path) === true ? 'matched by exclude' : undefined;
    if (why !== undefined) skipped.push({ repository, path: skill.entry.path, status: 'skipped', reason: `${why} (sources file)` });
    return why === undefined;
  });

  const licenseFiles = new Map(skills.map((skill) => [skill.path, licenseFilesOf(skill.path, (path) => byPath.get(path)?.mode.startsWith('100') === true)]));
  const licenseEntries = [...licenseFiles.values()].flatMap((f) => [f.own, f.above]).filter((p): p is string => p !== undefined).map((p) => byPath.get(p)!);
  const catalog = CATALOG_FILES.map((path) => byPath.get(path)).find((e) => e !== undefined && e.mode.startsWith('100'));
  const blobs = await readBlobs(repo, [...skills.map((s) => s.entry.oid), ...licenseEntries.map((e) => e.oid), ...(catalog === undefined ? [] : [catalog.oid])], MAX_FILE_BYTES);
  // The sizes of every file in the skills' folders (no bytes yet: those are read when written).
  const inSkills = entries.filter((e) => skills.some((s) => s.path === '.' || e.path.startsWith(`${s.path}/`)));
  const sizes = new Map([...(await readBlobs(repo, inSkills.map((e) => e.oid), -1))].map(([oid, blob]) => [oid, blob.size]));
  const dates = await folderDates(repo, skills.map((s) => s.path));
  const metaAnswer = github === undefined ? { warning: `${remote}: not on GitHub, no repository metadata: counts are 0` } : await readMeta(...(github.split('/') as [string, string]));
  if (metaAnswer.warning !== undefined) warn(metaAnswer.warning);
  const meta = metaAnswer.meta;
  const knownCategories = facts.categories;
  if (spec.category !== undefined && !knownCategories.has(spec.category)) throw new Error(`sources file → category: unknown category ${JSON.stringify(spec.category)}`);
  const hints = catalogHints(catalog === undefined ? undefined : blobs.get(catalog.oid)?.bytes);
  const profile = profileOfSkills(skills.map((s) => blobs.get(s.entry.oid)?.bytes), knownCategories, spec.category);
  const platforms = IMPORT_PLATFORMS.filter((id) => facts.platforms.has(id));
  if (platforms.length === 0) throw new Error(`platforms.json of ${options.out} has neither ${IMPORT_PLATFORMS.join(' nor ')}: add them to import`);

  const repositoryFacts: RepositoryFacts = { spec, options, repo, repository, github, owner, repoName, entries, byPath, skills, blobs, sizes, dates, meta, knownCategories, hints, profile, platforms, licenseFiles };
  const pending: Pending[] = [];
  /** Front matter names by skill folder: a nested skill that repeats its parent's is a copy. */
  const names = new Map<string, string>();
  const held: string[] = [];
  for (const skill of skills) {
    const made = pendingSkill(skill, repositoryFacts, names);
    if (typeof made === 'string') {
      skipped.push({ repository, path: skill.entry.path, status: 'skipped', reason: made });
      held.push(`${repository}#${skill.path}`);
    } else pending.push(made);
  }
  return { repository, commit: repo.commit, pending, skipped, held };
}

/** The manifests of a repository by path: parsed JSON, or why one cannot be read. */
async function readManifests(repo: Repository, manifestFiles: readonly string[], byPath: ReadonlyMap<string, TreeEntry>): Promise<Map<string, unknown>> {
  const manifestBlobs = await readBlobs(repo, manifestFiles.map((path) => byPath.get(path)!.oid), MAX_FILE_BYTES);
  const manifests = new Map<string, unknown>();
  for (const path of manifestFiles) {
    const entry = byPath.get(path)!;
    const blob = manifestBlobs.get(entry.oid);
    if (entry.mode === '120000') manifests.set(path, 'is a symbolic link, not followed');
    else if (blob?.bytes === undefined) manifests.set(path, `is larger than ${MAX_FILE_BYTES} bytes`);
    else {
      try {
        manifests.set(path, JSON.parse(blob.bytes.toString('utf8')) as unknown);
      } catch (error) {
        manifests.set(path, `is not valid JSON: ${(error as Error).message}`);
      }
    }
  }
  return manifests;
}

/** What every skill of one repository is read against (readSource gathers it once). */
interface RepositoryFacts {
  spec: SourceSpec;
  options: ImportOptions;
  repo: Repository;
  /** The repository's canonical URL. */
  repository: string;
  /** `owner/repo` on GitHub, when it is there. */
  github: string | undefined;
  owner: string;
  repoName: string;
  entries: readonly TreeEntry[];
  byPath: ReadonlyMap<string, TreeEntry>;
  /** The skills found and kept by the sources file's include and exclude. */
  skills: readonly FoundSkill[];
  blobs: Awaited<ReturnType<typeof readBlobs>>;
  sizes: ReadonlyMap<string, number>;
  dates: Awaited<ReturnType<typeof folderDates>>;
  meta: RepoMeta | undefined;
  knownCategories: ReadonlySet<string>;
  hints: ReturnType<typeof catalogHints>;
  profile: ReturnType<typeof profileOfSkills>;
  platforms: readonly (typeof IMPORT_PLATFORMS)[number][];
  licenseFiles: ReadonlyMap<string, { own?: string; above?: string }>;
}

/** One skill ready to write, or why it is skipped. */
function pendingSkill(skill: FoundSkill, facts: RepositoryFacts, names: Map<string, string>): Pending | string {
  const { spec, options, repo, repository, github, owner, repoName, entries, byPath, skills, blobs, sizes, dates, meta, knownCategories, hints, profile, platforms, licenseFiles } = facts;
  const read = readSkillMd(skill, blobs.get(skill.entry.oid)?.bytes, options, skill.parent === undefined ? undefined : names.get(skill.parent));
  if (typeof read === 'string') return read;
  const { bytes, front } = read;
  names.set(skill.path, front.name);
  const folderName = skill.path === '.' ? repoName : basename(skill.path);
  const segment = idSegment(folderName);
  if (segment === undefined) return `folder name ${JSON.stringify(folderName)} cannot make an id`;
  const override = spec.categories?.[skill.path] ?? spec.categories?.[folderName];
  const unknownOverride = override?.find((slug) => !knownCategories.has(slug));
  if (unknownOverride !== undefined) return `sources file → categories.${folderName}: unknown category ${JSON.stringify(unknownOverride)}`;
  const categories = categoriesFor({
    override,
    labels: [...(skill.plugin?.labels ?? []), ...frontMatterLabels(front.data)],
    hints: hints.get(skill.path),
    name: front.name,
    description: front.description,
    body: front.body,
    profile,
    known: knownCategories,
  });
  const folderDate = dates.get(skill.path) ?? { created: repo.committedAt, updated: repo.committedAt };
  const licenseFile = (path: string | undefined): { path: string; text: string } | undefined =>
    path === undefined ? undefined : { path, text: blobs.get(byPath.get(path)!.oid)?.bytes?.toString('utf8') ?? '' };
  const { license, by: licenseBy } = licenseFor({
    folderFile: licenseFile(licenseFiles.get(skill.path)?.own),
    frontMatter: front.data.license,
    aboveFile: licenseFile(licenseFiles.get(skill.path)?.above),
    github: meta?.license,
  });
  const plugin = skill.plugin === undefined ? undefined : { name: oneLine(skill.plugin.name), marketplace: oneLine(skill.plugin.marketplace) };
  const commands = installCommands({
    github,
    repositoryUrl: repository,
    path: skill.path,
    name: front.name,
    plugin,
    openai: openaiLayout(skill, byPath),
    ref: meta?.defaultBranch ?? repo.branch ?? repo.commit,
  });
  const key = `${repository}#${skill.path}`;
  const selected = selectSkillFiles(skill.path, entries, sizes, skills.map((s) => s.path));
  const executables = scriptsOf(skill.path, entries);
  const source = {
    repository,
    path: skill.path,
    commit: repo.commit,
    ...(plugin === undefined ? {} : { plugin }),
    ...(executables.length === 0 ? {} : { executables }),
  };
  return {
    key,
    repository,
    github,
    owner,
    segment,
    context: idSegment(`${segment}-${skill.plugin?.name ?? repoName}`) ?? `${segment}-2`,
    folder: skill.path,
    skillMd: bytes,
    repo,
    files: selected,
    stars: meta?.stars,
    plugin: skill.plugin,
    report: {
      repository,
      path: skill.entry.path,
      status: 'imported',
      categories: categories.categories,
      categoriesBy: categories.by,
      ...(skill.parent === undefined ? {} : { parent: skill.parent }),
      license,
      licenseBy,
      files: selected.kept.length,
      bytes: selected.bytes,
      ...(selected.leftOut.length === 0 ? {} : { leftOut: selected.leftOut }),
    },
    json: (previous) => {
      // Without metadata the counts of the last import stay (a rate limit must not zero them).
      const count = (field: 'stars' | 'forks' | 'watchers' | 'openIssues'): number => {
        const value = meta?.[field] ?? previous?.json?.[field];
        return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
      };
      return {
        stars: count('stars'),
        forks: count('forks'),
        watchers: count('watchers'),
        openIssues: count('openIssues'),
        createdAt: folderDate.created,
        updatedAt: folderDate.updated,
        pushedAt: meta?.pushedAt ?? repo.committedAt,
        author: authorOf(meta, owner, previous),
        categories: categories.categories,
        platforms: [...platforms],
        license,
        installCommands: Object.fromEntries(platforms.map((id) => [id, commands[id]])),
        source,
      };
    },
  };
}

/** A skill's SKILL.md read and checked as the build does, or why it is skipped. */
function readSkillMd(skill: FoundSkill, bytes: Buffer | undefined, options: ImportOptions, parentName: string | undefined): { bytes: Buffer; front: ReturnType<typeof parseFrontMatter> } | string {
  if (bytes === undefined) return `SKILL.md is larger than ${MAX_FILE_BYTES} bytes`;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return 'SKILL.md is not valid UTF-8';
  }
  let front;
  try {
    front = parseFrontMatter(text);
  } catch (error) {
    if (!(error instanceof FrontMatterError)) throw error;
    return `SKILL.md → ${error.message}`;
  }
  const metadata = front.data.metadata;
  if (options.includeInternal !== true && typeof metadata === 'object' && metadata !== null && (metadata as Record<string, unknown>).internal === true) return 'metadata.internal: true (pass --include-internal to import it)';
  const notOwn = nestedSkillProblem(skill, front, parentName);
  if (notOwn !== undefined) return notOwn;
  return { bytes, front };
}

/** The author: GitHub's owner login and avatar, else what the last import wrote, else the owner. */
function authorOf(meta: RepoMeta | undefined, owner: string, previous: PreviousSkill | undefined): { name: string; avatar: string } {
  if (meta !== undefined) return { name: meta.ownerLogin, avatar: meta.avatar };
  const author = previous?.json?.author as { name?: unknown; avatar?: unknown } | undefined;
  if (typeof author?.name === 'string' && typeof author.avatar === 'string') return { name: author.name, avatar: author.avatar };
  return { name: owner, avatar: `https://github.com/${owner}.png` };
}

/** Extensions of scripts an agent may run. */
const SCRIPT_EXTENSIONS = /\.(?:sh|bash|zsh|fish|py|js|mjs|cjs|ts|rb|pl|php|ps1|psm1|bat|cmd|exe|bin)$/i;

/** Files of a skill folder that are scripts: executable (mode 100755) or named like one; paths in the folder, at most 1,000. */
function scriptsOf(folder: string, entries: readonly TreeEntry[]): string[] {
  const prefix = folder === '.' ? '' : `${folder}/`;
  return entries
    .filter((e) => e.path.startsWith(prefix) && (e.mode === '100755' || (e.mode === '100644' && SCRIPT_EXTENSIONS.test(e.path))))
    .map((e) => e.path.slice(prefix.length))
    // A root skill's folder is the whole repository: its own folders only, not other skills'.
    .filter((path) => folder !== '.' || !path.includes('/SKILL.md'))
    .slice(0, 1000);
}

/** The OpenAI layout of a skill, if any. */
function openaiLayout(skill: FoundSkill, byPath: ReadonlyMap<string, TreeEntry>): '.curated' | '.experimental' | '.system' | 'agents' | undefined {
  const set = /^skills\/(\.curated|\.experimental|\.system)\/[^/]+$/.exec(skill.path)?.[1];
  if (set !== undefined) return set as '.curated' | '.experimental' | '.system';
  const yaml = skill.path === '.' ? 'agents/openai.yaml' : `${skill.path}/agents/openai.yaml`;
  return byPath.has(yaml) ? 'agents' : undefined;
}

/** `owner/repo` of a GitHub URL (https, ssh, git@), else undefined. */
export function githubSlug(url: string): string | undefined {
  const match = /^(?:https?:\/\/(?:[^@/]+@)?github\.com\/|ssh:\/\/git@github\.com\/|git@github\.com:)([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100}?)(?:\.git)?\/?$/i.exec(url);
  return match === null ? undefined : `${match[1]}/${match[2]}`;
}

/** A repository's URL for `source.repository`: a local path as `file://`, a URL without credentials. */
function repositoryOf(url: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    try {
      const parsed = new URL(url);
      parsed.username = '';
      parsed.password = '';
      return parsed.href.replace(/\/$/, '');
    } catch {
      return url;
    }
  }
  if (/^[^/\\]+@[^/\\]+:/.test(url)) return `ssh://${url.replace(':', '/')}`;
  return `file://${resolve(url)}`;
}

/** A folder name as an id's repo segment: as written when valid, else made valid; undefined when nothing is left. */
export function idSegment(name: string): string | undefined {
  if (segmentProblem('repo', name) === undefined) return name;
  const made = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 100)
    .replace(/\.git$/i, '-git');
  return made !== '' && segmentProblem('repo', made) === undefined ? made : undefined;
}

/**
 * The first id not taken (case-insensitively): `owner/<first choice>`, then `owner/<second
 * choice>`, then the first choice with `-2`, `-3`, … (docs/import.md).
 */
export function freeId(owner: string, choices: readonly string[], taken: ReadonlySet<string>): string {
  for (const choice of choices) if (!taken.has(identityKey(owner, choice))) return `${owner}/${choice}`;
  for (let n = 2; ; n++) {
    const choice = `${choices[0]!.slice(0, 95)}-${n}`;
    if (!taken.has(identityKey(owner, choice))) return `${owner}/${choice}`;
  }
}

/** JSON as the importer writes it: 2-space indent, a final newline. */
function jsonBytes(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
}

/** stats.json: the previous one with a star-history point for `today` when the count changed; undefined leaves none. */
function statsBytes(previous: PreviousSkill['stats'], stars: number | undefined, today: string): Buffer | undefined {
  const stats = previous ?? { views: 0, installs: 0, favorites: 0, starHistory: [] };
  const history = [...stats.starHistory];
  const last = history.at(-1);
  if (stars !== undefined && (last === undefined || last.stars !== stars)) {
    // At most one point a day: a second import the same day corrects that day's point.
    if (last?.date === today) history[history.length - 1] = { date: today, stars };
    else if (last === undefined || last.date < today) history.push({ date: today, stars });
  }
  if (previous === undefined && history.length === 0) return undefined;
  return jsonBytes({ views: stats.views, installs: stats.installs, favorites: stats.favorites, starHistory: history });
}

/** The marketplace.json written in a skill folder its marketplace declares (so `hasIndex` is true). */
function marketplaceOf(plugin: DeclaringPlugin, path: string): unknown {
  return { name: plugin.marketplace, plugins: [{ name: plugin.name, skills: [path === '.' ? './' : `./${path}`] }] };
}

/** What an earlier import wrote in `folder` (skill.json and stats.json), if readable. */
async function readPrevious(folder: string): Promise<PreviousSkill | undefined> {
  const read = async (name: string): Promise<Record<string, unknown> | undefined> => {
    try {
      const value = JSON.parse(await readFile(join(folder, name), 'utf8')) as unknown;
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const [json, stats] = await Promise.all([read('skill.json'), read('stats.json')]);
  if (json === undefined && stats === undefined) return undefined;
  const history = Array.isArray(stats?.starHistory)
    ? (stats.starHistory as unknown[]).filter((p): p is { date: string; stars: number } => typeof p === 'object' && p !== null && typeof (p as { date?: unknown }).date === 'string' && typeof (p as { stars?: unknown }).stars === 'number')
    : [];
  const count = (v: unknown): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);
  return {
    ...(json === undefined ? {} : { json }),
    ...(stats === undefined ? {} : { stats: { views: count(stats.views), installs: count(stats.installs), favorites: count(stats.favorites), starHistory: history } }),
  };
}

/** Make `path` hold `bytes` (undefined: no file), writing only when different, atomically. Resolves whether it changed. */
async function syncFile(path: string, bytes: Buffer | undefined): Promise<boolean> {
  let current: Buffer | undefined;
  try {
    current = await readFile(path);
  } catch {
    current = undefined;
  }
  if (bytes === undefined) {
    if (current === undefined) return false;
    await rm(path, { force: true });
    return true;
  }
  if (current !== undefined && current.equals(bytes)) return false;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(`${path}.tmp-import`, bytes);
  await rename(`${path}.tmp-import`, path);
  return true;
}

/**
 * Remove an imported skill's folder (the importer owns all of it: a skill is its folder), then
 * its owner's folder when left empty.
 */
async function removeSkill(folder: string): Promise<void> {
  for (const name of OWNED_FILES) await rm(join(folder, name), { force: true });
  await rm(folder, { recursive: true, force: true });
  for (const dir of [join(folder, '.claude-plugin'), folder, dirname(folder)]) {
    try {
      await rmdir(dir);
    } catch {
      // Not empty (files the importer does not own), or gone: left as it is.
    }
  }
}

/** What the content folder holds already: ids (identity key → id), category slugs, platform ids. */
interface ContentFacts {
  ids: Map<string, string>;
  categories: Set<string>;
  platforms: Set<string>;
}

async function contentFacts(out: string): Promise<ContentFacts> {
  const ids = new Map<string, string>();
  for (const owner of await readdir(join(out, 'skills'), { withFileTypes: true })) {
    if (!owner.isDirectory()) continue;
    for (const repo of await readdir(join(out, 'skills', owner.name), { withFileTypes: true })) {
      if (repo.isDirectory()) ids.set(identityKey(owner.name, repo.name), `${owner.name}/${repo.name}`);
    }
  }
  const read = async (name: string): Promise<Record<string, unknown>> => {
    try {
      return JSON.parse(await readFile(join(out, name), 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`${join(out, name)}: ${(error as Error).message}`);
    }
  };
  const categories = (await read('categories.json')).categories as { slug?: unknown; subcategories?: { slug?: unknown }[] }[] | undefined;
  const platforms = (await read('platforms.json')).platforms as { id?: unknown }[] | undefined;
  return {
    ids,
    // Top-level slugs and subcategories: both are valid in skill.json.
    categories: new Set(
      (Array.isArray(categories) ? categories : [])
        .flatMap((c) => [c.slug, ...(Array.isArray(c.subcategories) ? c.subcategories.map((sub) => sub.slug) : [])])
        .filter((v): v is string => typeof v === 'string'),
    ),
    platforms: new Set((Array.isArray(platforms) ? platforms : []).map((p) => p.id).filter((v): v is string => typeof v === 'string')),
  };
}

/** Write the package's categories.json and platforms.json into `out` when it has none. */
async function ensureSharedFiles(out: string): Promise<void> {
  for (const name of ['categories.json', 'platforms.json']) {
    if (existsSync(join(out, name))) continue;
    // content/ of a clone, or of the installed package (dist/builder/import → ../../../content).
    const source = ['../../content/', '../../../content/'].map((dir) => fileURLToPath(new URL(`${dir}${name}`, import.meta.url))).find((file) => existsSync(file));
    if (source === undefined) throw new Error(`${join(out, name)} is missing and no default is at hand: copy one from the project's content/`);
    await writeFile(join(out, name), await readFile(source));
  }
}

async function readState(out: string): Promise<Record<string, string>> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(out, STATE_FILE), 'utf8')) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`${join(out, STATE_FILE)} is not valid JSON: fix or remove it (ids of later imports depend on it)`);
  }
  const state = raw as { format?: unknown; version?: unknown; skills?: unknown };
  if (state.format !== STATE_FORMAT || state.version !== STATE_VERSION || typeof state.skills !== 'object' || state.skills === null) {
    throw new Error(`${join(out, STATE_FILE)} is not an import record of version ${STATE_VERSION}`);
  }
  const skills: Record<string, string> = {};
  for (const [key, id] of Object.entries(state.skills as Record<string, unknown>)) {
    if (typeof id === 'string' && /^[^/]+\/[^/]+$/.test(id)) skills[key] = id;
  }
  return skills;
}

async function writeState(out: string, skills: Record<string, string>): Promise<void> {
  const sorted = Object.fromEntries(Object.entries(skills).sort(([a], [b]) => compareCodeUnits(a, b)));
  await syncFile(join(out, STATE_FILE), jsonBytes({ format: STATE_FORMAT, version: STATE_VERSION, skills: sorted }));
}
