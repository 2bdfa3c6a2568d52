/**
 * Loads and validates a content folder (docs/decisions.md §2) into the build model: categories.json,
 * platforms.json and every `skills/<owner>/<repo>/` folder. Nothing is thrown for bad content:
 * every problem of every file is collected (file + field), the valid skills are returned, and the
 * caller decides whether problems are fatal (see `runBuild`).
 *
 * Untrusted input rules: symbolic links are never followed (discovery does not descend into them,
 * files are opened with O_NOFOLLOW), every file is size-checked before it is read, folder names
 * are checked before they can become output paths, and case/Unicode variants of one id collide.
 *
 * Per skill folder, the files are read first (one folder listing gives their types), then hashed
 * with the folder's name: given the results of an earlier load (`previous`, the build cache of
 * `--incremental`, builder/build-cache.ts) a folder whose hash and shared inputs (categories and
 * platforms) are unchanged re-uses its record and problems, and only the rest is parsed and
 * validated. Reading is synchronous and one folder at a time (see `readRegularFile`). With
 * `stamps`, a folder whose file-system stamp (builder/folder-stamp.ts) is the one the earlier load
 * kept is not read at all: its record comes back with its SKILL.md text read on demand.
 */
import { createHash, type Hash } from 'node:crypto';
import { readdirSync, realpathSync, type Dirent } from 'node:fs';
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
import { changeLogBytes, withChangeLog } from './changes.ts';
import { readsTextOnDemand, restoreRecord, textOffset, restoreRecordLazily, withTextOnDemand, type CachedSkill, type LoadCache, type StoredRecord } from './build-cache.ts';
import { seedDerived } from './record-memo.ts';
import { FrontMatterError, parseFrontMatter, type FrontMatter } from '../src/text/front-matter.ts';
import { QualityPass } from './quality/pass.ts';
import type { QualityReport } from './quality/index.ts';
import type { CategoryDef, Content, PlatformDef, Problem, SkillRecord } from './model.ts';
import type { SkillSource } from '../src/schemas.ts';
import { problem, zodProblems } from './problems.ts';
import { readSkillFolder, type SkillFolder } from './skill-folder.ts';
import { settledBefore, stampFolder, type FolderStamp } from './folder-stamp.ts';
import { UnsafeFileError, isMissing, lstatOrUndefined, lstatOrUndefinedSync, readRegularFile } from './safe-read.ts';
import { identityKey, segmentProblem } from './skill-names.ts';
import { decodeUtf8, pathProblem, readSkillText, realpathOrUndefined } from './skill-text.ts';
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
  /** Every skill folder's result, for a later load to re-use; absent when the content folder was not found. */
  cache?: LoadCache<SkillRecord>;
  /** How many skill folders re-used the result of the earlier load (`LoadOptions.previous`). */
  fromCache: number;
  /** Of those, how many by their stamp alone, reading none of their files (`LoadOptions.stamps`). */
  stamped: number;
  /** `contentFingerprint` of what was loaded; absent when the content folder was not found. */
  fingerprint?: string;
  /** With `LoadOptions.deferQuality`: resolves to the quality report once every record's `checks` is set. */
  quality?: Promise<QualityReport>;
}

/** Options of `loadContent`. */
export interface LoadOptions {
  /**
   * Results of an earlier load (the build cache); used only where its inputs are unchanged. Taken
   * over: a stored record re-used by its folder's stamp becomes this load's record.
   */
  previous?: LoadCache<StoredRecord> | undefined;
  /** Compute the quality signals (docs/quality.md); default true. Off only to measure their cost. */
  quality?: boolean | undefined;
  /**
   * Return before the quality pass is done (it runs in a thread): the result's `quality` then
   * resolves once every record's `checks` is set, to the report, and `content.quality` is not set.
   */
  deferQuality?: boolean | undefined;
  /**
   * Take each skill folder's file-system stamp (builder/folder-stamp.ts) and keep it in the
   * results (`--incremental`): a folder whose stamp is the one `previous` kept re-uses its result
   * without reading its files (the record's SKILL.md text is read if asked for). `started`: when the build started (stamps of folders changed
   * shortly before are not kept); `taken`: stamps already taken since then, by folder
   * (`skills/<owner>/<repo>`), used instead of stamping again; `entries`: what the listings of
   * `skills/` and its owner folders held when they were stamped (builder/up-to-date.ts
   * `InputStamp.entries`), used instead of listing them again.
   */
  stamps?: { started: number; taken?: ReadonlyMap<string, FolderStamp>; entries?: string } | undefined;
}

/** The files of a skill folder that are read, in the order their problems are reported. */
const SKILL_FILES = ['SKILL.md', 'skill.json', 'stats.json'] as const;

/** A file as read: its bytes, missing, or unsafe to read (the error says why). */
type Input = Buffer | 'missing' | UnsafeFileError;

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
export async function loadContent(contentDir: string, options: LoadOptions = {}): Promise<LoadResult> {
  const root = resolve(contentDir);
  const rootStats = await lstatOrUndefined(root);
  if (rootStats === undefined || !(rootStats.isDirectory() || rootStats.isSymbolicLink())) {
    return failed([problem('.', `content folder ${JSON.stringify(contentDir)} not found`)]);
  }
  // The content folder itself may be a link (the user named it); nothing below it may be.
  // The native realpath, like the per-skill check in `loadSkill`, so the two always agree.
  const realRoot = realpathSync.native(root);
  const problems: Problem[] = [];

  const categories = loadJsonFile(realRoot, 'categories.json', CategoriesFile, categoriesProblems, problems);
  const platforms = loadJsonFile(realRoot, 'platforms.json', PlatformsFile, platformsProblems, problems);
  const known: KnownIds = {
    categories: categories && new Set(categories.categories.flatMap((c) => [c.slug, ...c.subcategories.map((s) => s.slug)])),
    platforms: platforms && new Set(platforms.platforms.map((p) => p.id)),
  };
  // Everything a skill's validation reads besides its own folder.
  const shared = createHash('sha256')
    .update(JSON.stringify([categories?.categories ?? null, platforms?.platforms ?? null]))
    .digest('hex');
  const previous = options.previous?.contentDir === realRoot && options.previous.shared === shared ? options.previous.skills : undefined;

  const found = await discover(realRoot, problems, options.stamps?.entries);
  const collisions = collisionProblems(found.candidates);
  const context: SkillContext = {
    root: realRoot,
    // One schema for every skill.json: building it (and zod's compiled fast path) per skill cost
    // more than validating.
    skillSchema: skillJsonSchema(known),
    platforms: platforms?.platforms ?? [],
    previous,
    next: new Map(),
    fromCache: 0,
    stamped: 0,
    stamps: options.stamps,
  };
  const skills: SkillRecord[] = [];
  const skipped = [...found.skipped];
  // Quality's per-skill work runs in a thread while the next skills load.
  const quality = options.quality === false ? undefined : new QualityPass(realRoot);
  for (const candidate of found.candidates) {
    const result = loadSkill(context, candidate, collisions.get(candidate.dir) ?? []);
    problems.push(...result.problems);
    if (result.record !== undefined) {
      const entry = context.next.get(candidate.dir);
      // Signals of records from the cache, computed by an earlier build: not computed again.
      if (entry?.signals !== undefined) quality?.stored(result.record.id, entry.signals);
      else quality?.add(result.record);
      const record = releaseText(realRoot, result.record);
      skills.push(record);
      if (entry?.record === result.record) entry.record = record;
    } else skipped.push(candidate.dir);
  }
  skills.sort((a, b) => compareCodeUnits(a.id, b.id));
  skipped.sort(compareCodeUnits);
  // Quality looks at every skill at once (copies); the build cache stores records without it.
  const checked = quality?.finish(skills, textOffset, (skill) => context.next.get(skill.dir)?.signals).then((computed) => {
    for (const skill of skills) {
      // Set in place: a copy would read the SKILL.md text of every record restored without it.
      skill.checks = computed.checks.get(skill.id)!;
      // The signals computed by this load, for the next build's cache.
      const entry = context.next.get(skill.dir);
      const signals = computed.texts.get(skill.id);
      if (entry === undefined || signals === undefined || entry.signals === signals) continue;
      entry.signals = signals;
      delete entry.line;
      delete entry.inBase;
    }
    return computed.report;
  });
  // Awaited by the caller, which may do other work first: never left unhandled meanwhile.
  checked?.catch(() => undefined);
  const report = options.deferQuality === true ? undefined : await checked;
  return {
    content: { skills, categories: categories?.categories ?? [], platforms: platforms?.platforms ?? [], ...(report === undefined ? {} : { quality: report }) },
    ...(options.deferQuality === true && checked !== undefined ? { quality: checked } : {}),
    problems,
    skipped,
    // The stored cache's base file, which the next write may add a delta to (builder/build-cache.ts).
    cache: { contentDir: realRoot, shared, skills: context.next, ...(previous !== undefined && options.previous?.base !== undefined ? { base: options.previous.base } : {}) },
    fromCache: context.fromCache,
    stamped: context.stamped,
    fingerprint: fingerprintOf(realRoot, found, [...context.next].map(([dir, cached]) => [dir, cached.hash])),
  };
}

/**
 * A SHA-256 of everything a build reads from `contentDir` (categories.json, platforms.json, and
 * per skill folder the files `loadContent` reads) and of the change log: equal to the `contentHash`
 * a build of the same bytes writes (the load's `fingerprint` with the log it leaves), and computed
 * without parsing or validating anything, so `skills-api start` can tell cheaply whether a build
 * output is stale. Undefined when the folder does not exist.
 */
export async function contentFingerprint(contentDir: string): Promise<string | undefined> {
  const root = resolve(contentDir);
  const rootStats = await lstatOrUndefined(root);
  if (rootStats === undefined || !(rootStats.isDirectory() || rootStats.isSymbolicLink())) return undefined;
  const realRoot = realpathSync.native(root);
  const found = await discover(realRoot, []);
  const hashes = found.candidates.flatMap(({ dir }): [string, string][] => {
    const abs = join(realRoot, dir);
    // As in `loadSkill`: a folder that is not where discovery saw it is not read (and not hashed).
    if (realpathOrUndefined(abs) !== abs) return [];
    return [[dir, readFolder(realRoot, dir).hash]];
  });
  // The build's `contentHash` covers the change log as the build left it (builder/changes.ts).
  return withChangeLog(fingerprintOf(realRoot, found, hashes), changeLogBytes(realRoot));
}

/** The fingerprint of a content folder from its shared files, its discovery and its folders' input hashes. */
function fingerprintOf(root: string, found: { candidates: readonly Candidate[]; skipped: readonly string[] }, folders: readonly (readonly [string, string])[]): string {
  const hash = createHash('sha256').update('skills-api content 1\0');
  for (const file of ['categories.json', 'platforms.json']) {
    const input = readInput(root, file);
    hash.update(`${file}\0`);
    if (Buffer.isBuffer(input)) hash.update(`bytes ${input.length}\0`).update(input);
    else hash.update(describeInput(input));
  }
  for (const dir of found.skipped) hash.update(`skipped ${dir}\0`);
  for (const [dir, folder] of [...folders].sort(([a], [b]) => compareCodeUnits(a, b))) hash.update(`${dir} ${folder}\0`);
  return hash.digest('hex');
}

function failed(problems: Problem[]): LoadResult {
  return { content: { skills: [], categories: [], platforms: [] }, problems, skipped: [], fromCache: 0, stamped: 0 };
}

/**
 * Read, parse and validate one JSON file of the content folder, appending its problems.
 * Returns the parsed value only when the file has no problem at all.
 */
function loadJsonFile<T extends z.ZodType>(
  root: string,
  file: string,
  schema: T,
  crossCheck: (file: string, raw: unknown) => Problem[],
  problems: Problem[],
): z.output<T> | undefined {
  return validateJson(file, jsonOf(file, readInput(root, file), true, problems), schema, crossCheck, problems);
}

/**
 * Validate parsed JSON (undefined: nothing to validate), appending problems; the value only when
 * it has none.
 */
function validateJson<T extends z.ZodType>(
  file: string,
  raw: unknown,
  schema: T,
  crossCheck: (file: string, raw: unknown) => Problem[],
  problems: Problem[],
): z.output<T> | undefined {
  if (raw === undefined) return undefined;
  const found: Problem[] = [];
  const parsed = schema.safeParse(raw);
  if (!parsed.success) found.push(...zodProblems(file, parsed.error, raw));
  found.push(...crossCheck(file, raw));
  problems.push(...found);
  return parsed.success && found.length === 0 ? parsed.data : undefined;
}

/** The parsed JSON of `file`, or undefined (missing optional file, or a problem recorded). */
function jsonOf(file: string, input: Input, required: boolean, problems: Problem[]): unknown {
  const read = textOf(file, input, problems);
  if (read === 'missing' && required) problems.push(problem(file, 'missing (required)'));
  if (typeof read === 'string') return undefined;
  try {
    return JSON.parse(read.text.startsWith('\uFEFF') ? read.text.slice(1) : read.text) as unknown;
  } catch (error) {
    problems.push(problem(file, `is not valid JSON: ${(error as Error).message}`));
    return undefined;
  }
}

/** `file` of the content folder as read; `entry`: see `readRegularFile`. */
function readInput(root: string, file: string, entry?: Dirent): Input {
  try {
    return readRegularFile(join(root, file), undefined, entry) ?? 'missing';
  } catch (error) {
    if (error instanceof UnsafeFileError) return error;
    throw error;
  }
}

/**
 * The UTF-8 text (BOM kept) of `input`; `'missing'`, or `'invalid'` after recording a problem
 * (a link, not a regular file, too large, not UTF-8).
 */
function textOf(file: string, input: Input, problems: Problem[]): { text: string } | 'missing' | 'invalid' {
  if (input === 'missing') return 'missing';
  if (input instanceof UnsafeFileError) {
    problems.push(problem(file, input.message));
    return 'invalid';
  }
  const text = decodeUtf8(input);
  if (text === undefined) {
    problems.push(problem(file, 'is not valid UTF-8'));
    return 'invalid';
  }
  return { text };
}

/**
 * Every `skills/<owner>/<repo>` folder, sorted. Links at either level are problems (and their
 * path is skipped); plain files beside the folders (a README, `.DS_Store`) are ignored.
 */
async function discover(root: string, problems: Problem[], listed?: string): Promise<{ candidates: Candidate[]; skipped: string[] }> {
  const skillsStats = await lstatOrUndefined(join(root, 'skills'));
  if (skillsStats === undefined || skillsStats.isSymbolicLink() || !skillsStats.isDirectory()) {
    const why = skillsStats === undefined ? 'missing: expected skills/<owner>/<repo>/ folders' : 'must be a folder, not a link or file';
    problems.push(problem('skills', why));
    return { candidates: [], skipped: [] };
  }
  // The listings the no-change check stamped, when given: the same entries, listed once.
  const entries = listed !== undefined
    ? (listed === '' ? [] : listed.split('\0')).map((entry) => ({ path: entry.slice(1), link: entry[0] === 'l', folder: entry[0] === 'd' }))
    : (await fg(['skills/*', 'skills/*/*'], {
        cwd: root,
        dot: true,
        onlyFiles: false,
        followSymbolicLinks: false,
        objectMode: true,
      })).map((entry) => ({ path: entry.path, link: entry.dirent.isSymbolicLink(), folder: entry.dirent.isDirectory() }));
  entries.sort((a, b) => compareCodeUnits(a.path, b.path));
  const owners = new Set<string>();
  const candidates: Candidate[] = [];
  const skipped: string[] = [];
  for (const entry of entries) {
    const parts = entry.path.split('/');
    const isOwner = parts.length === 2;
    if (!isOwner && !owners.has(parts[1]!)) continue; // inside a linked owner (never listed) or a file
    if (entry.link) {
      problems.push(problem(entry.path, 'is a symbolic link, not followed'));
      skipped.push(entry.path);
    } else if (entry.folder) {
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

/** What every skill folder of one load shares. */
interface SkillContext {
  /** The content folder's real path. */
  root: string;
  skillSchema: ReturnType<typeof skillJsonSchema>;
  platforms: readonly PlatformDef[];
  /** The earlier load's results by folder, when they can be re-used (same content folder and shared inputs). */
  previous: ReadonlyMap<string, CachedSkill<StoredRecord>> | undefined;
  /** This load's results by folder. */
  next: Map<string, CachedSkill<SkillRecord>>;
  /** Folders that re-used `previous`. */
  fromCache: number;
  /** Folders that re-used `previous` by their stamp. */
  stamped: number;
  /** `LoadOptions.stamps`. */
  stamps: LoadOptions['stamps'];
}

/**
 * Load one skill folder: a record only when it has no problem. `collisions` (with other folders)
 * come first among its problems and are never cached: they depend on the other folders.
 */
function loadSkill(
  context: SkillContext,
  candidate: Candidate,
  collisions: readonly Problem[],
): { record?: SkillRecord; problems: Problem[] } {
  const { dir } = candidate;
  const abs = join(context.root, dir);
  const stamps = context.stamps;
  const taken = stamps?.taken?.get(dir);
  const cached = context.previous?.get(dir);
  // Discovery never lists links, but a folder swapped for one since then must not be read. A
  // folder the no-change check stamped (listed as a folder, not a link, in a folder listed so)
  // with the stamp its kept result has is not read here: its path is checked where its SKILL.md
  // is read, if ever (`restoreStamped`).
  if (taken === undefined || cached?.stamp !== taken.stamp) {
    const why = pathProblem(abs);
    if (why !== undefined) return { problems: [...collisions, ...segmentProblems(candidate), problem(dir, why)] };
  }
  // Stamped before anything is read: a change made while the folder is read changes the stamp
  // the next build compares with.
  const stamp = stamps === undefined ? undefined : (taken ?? stampFolder(abs));
  const kept = stamp !== undefined && settledBefore(stamp.newest, stamps!.started) && stamp.stamp !== '-' ? { stamp: stamp.stamp } : {};
  const restored = stamp !== undefined && cached?.stamp === stamp.stamp ? restoreStamped(context.root, dir, cached) : undefined;
  let own = restored;
  if (own !== undefined) {
    context.fromCache += 1;
    context.stamped += 1;
  } else {
    const { inputs, hasIndex, skillSha, hash, folder } = readFolder(context.root, dir);
    const skill = skillSha === undefined ? {} : { skill: { sha: skillSha, size: (inputs[0] as Buffer).length } };
    const reused = cached?.hash === hash ? restore(cached, inputs[0], skillSha) : undefined;
    if (reused !== undefined) context.fromCache += 1;
    own = { ...(reused ?? { hash, ...evaluateSkill(candidate, inputs, skillSha, hasIndex, folder, context) }), ...skill };
  }
  if (own === restored) {
    // A result of this load's own, completed in place: a large directory has 100k of them.
    if (kept.stamp !== undefined) own.stamp = kept.stamp;
    // Unchanged but for the SKILL.md text, which is not stored: the stored line can be written back.
    if (cached?.signals !== undefined && kept.stamp === cached.stamp) {
      if (cached.line !== undefined) own.line = cached.line;
      if (cached.inBase === true) own.inBase = true;
    }
  } else {
    const { line: _line, ...result } = own;
    own = { ...result, ...kept };
  }
  context.next.set(dir, own);
  if (collisions.length > 0) return { problems: [...collisions, ...own.problems] };
  return own.record === undefined ? { problems: own.problems } : { problems: own.problems, record: own.record };
}

/**
 * What a skill folder gives the build, read once: its `SKILL_FILES`, the marketplace flag, the
 * SHA-256 of SKILL.md and the hash of it all (`inputHash`). Shared by the load and the fingerprint,
 * so the two always read the same things.
 */
function readFolder(root: string, dir: string): { inputs: SkillInputs; hasIndex: MarketplaceIndex; skillSha: string | undefined; hash: string; folder: SkillFolder } {
  const abs = join(root, dir);
  // One listing of the folder tells the type of each file, in place of an lstat per file.
  const listing = listFolder(abs);
  const inputs = SKILL_FILES.map((name) => readInput(root, `${dir}/${name}`, listing.get(name))) as SkillInputs;
  const hasIndex = hasMarketplaceIndex(abs, listing.get('.claude-plugin'));
  const skillSha = Buffer.isBuffer(inputs[0]) ? createHash('sha256').update(inputs[0]).digest('hex') : undefined;
  // Every file of the folder (docs/api.md "Files and archive"): each enters the hash by its path,
  // size, mode and SHA-256, so a changed file makes the skill load again.
  const folder = readSkillFolder(root, dir);
  const files = JSON.stringify([folder.files.map((f) => [f.contentPath, f.size, f.executable, f.sha256]), folder.problems]);
  const hash = createHash('sha256').update(inputHash(dir, inputs, skillSha, hasIndex)).update(files).digest('hex');
  return { inputs, hasIndex, skillSha, hash, folder };
}

/** The inputs of `SKILL_FILES`, in that order. */
type SkillInputs = [skill: Input, json: Input, stats: Input];

/**
 * SHA-256 of everything `evaluateSkill` reads from the folder: its name, each file as read, the
 * index flag. SKILL.md enters by its own SHA-256 (`skillSha`, which the record carries anyway), so
 * its bytes, most of a folder's, are hashed once.
 */
function inputHash(dir: string, [skill, ...json]: SkillInputs, skillSha: string | undefined, hasIndex: MarketplaceIndex): string {
  const index = typeof hasIndex === 'object' ? `${hasIndex.file} ${hasIndex.message}` : String(hasIndex);
  const hash: Hash = createHash('sha256').update(`${dir}\0${index}\0SKILL.md\0`);
  hash.update(skillSha !== undefined ? `sha256 ${skillSha}\0` : describeInput(skill));
  json.forEach((input, i) => {
    hash.update(`${SKILL_FILES[i + 1]}\0`);
    if (Buffer.isBuffer(input)) hash.update(`bytes ${input.length}\0`).update(input);
    else hash.update(describeInput(input));
  });
  return hash.digest('hex');
}

/** A missing or unsafe input, for `inputHash`. */
function describeInput(input: 'missing' | UnsafeFileError | Buffer): string {
  return input === 'missing' ? 'missing\0' : input instanceof UnsafeFileError ? `unsafe ${input.message}\0` : 'bytes\0';
}

/**
 * A cached result made whole again: its record gets the text, SHA-256 and size of SKILL.md back.
 * Undefined when that cannot be done (never expected: the hash covers those bytes).
 */
function restore(cached: CachedSkill<StoredRecord>, skill: Input, skillSha: string | undefined): CachedSkill<SkillRecord> | undefined {
  const { hash, problems, record, bodyAt, tail, signals, derived } = cached;
  if (record === undefined) return { hash, problems };
  const text = Buffer.isBuffer(skill) ? decodeUtf8(skill) : undefined;
  if (text === undefined || skillSha === undefined || bodyAt === undefined || bodyAt > text.length) return undefined;
  const full = restoreRecord(record, text, skillSha, (skill as Buffer).length, bodyAt, tail);
  seedDerived(full, derived);
  return { hash, problems, record: full, ...(signals === undefined ? {} : { signals }) };
}

/**
 * The result of a folder whose stamp is the one the earlier load kept: its SKILL.md is the only
 * file read (for the text the record carries), and its size must still be the one stamped.
 * Undefined when it cannot be used (the folder is then read as a whole).
 */
function restoreStamped(root: string, dir: string, cached: CachedSkill<StoredRecord>): CachedSkill<SkillRecord> | undefined {
  const { hash, problems, record, bodyAt, tail, skill, signals, derived } = cached;
  if (record === undefined) return { hash, problems };
  if (skill === undefined || bodyAt === undefined) return undefined;
  // The folder may not have been checked by the load (see `loadSkill`).
  const read = (): string => readSkillText(root, dir, skill.sha, skill.size, true);
  // The stored record becomes the full one: this load is the only one to restore it.
  const full = restoreRecordLazily(record, skill.sha, skill.size, bodyAt, read, tail);
  // The values stored with the record are of the same record (builder/record-memo.ts).
  seedDerived(full, derived);
  return { hash, problems, record: full, skill, ...(signals === undefined ? {} : { signals }) };
}

/**
 * A record just loaded that reads its SKILL.md text again when asked for instead of holding it
 * (builder/build-cache.ts `withTextOnDemand`). The strings the record took from that text (its
 * name, description, license and front matter) are copied first: a substring may hold the whole
 * text it was cut from. A record restored by its stamp reads its text on demand already.
 */
function releaseText(root: string, record: SkillRecord): SkillRecord {
  if (readsTextOnDemand(record)) return record;
  const offset = record.raw.length - record.body.length;
  record.name = ownCopy(record.name);
  record.description = ownCopy(record.description);
  record.license = ownCopy(record.license);
  ownStrings(record.frontMatter);
  const { dir, sha, size } = record;
  return withTextOnDemand(record, offset, () => readSkillText(root, dir, sha, size));
}

/** `text` with characters of its own (a JSON round trip keeps every string as it is, lone surrogates included). */
function ownCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** Replace every string inside `value` (objects and arrays, in place) by `ownCopy` of it. */
function ownStrings(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  const target = value as Record<string, unknown>;
  for (const key of Object.keys(target)) {
    const item = target[key];
    if (typeof item === 'string') target[key] = ownCopy(item);
    else ownStrings(item);
  }
}

/** Problems of the folder names themselves. */
function segmentProblems({ owner, repo, dir }: Candidate): Problem[] {
  const problems: Problem[] = [];
  for (const [kind, name] of [['owner', owner], ['repo', repo]] as const) {
    const why = segmentProblem(kind, name);
    if (why !== undefined) problems.push(problem(dir, why, kind));
  }
  return problems;
}

/** Parse and validate a skill folder's files as read: its problems, and its record when there are none. */
function evaluateSkill(
  candidate: Candidate,
  [skillInput, jsonInput, statsInput]: SkillInputs,
  skillSha: string | undefined,
  hasIndex: MarketplaceIndex,
  folder: SkillFolder,
  context: SkillContext,
): { record?: SkillRecord; problems: Problem[] } {
  const { dir } = candidate;
  const problems = segmentProblems(candidate);
  if (typeof hasIndex === 'object') problems.push(problem(`${dir}/${hasIndex.file}`, hasIndex.message));
  const skillFile = `${dir}/SKILL.md`;
  const read = textOf(skillFile, skillInput, problems);
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
  const jsonFile = `${dir}/skill.json`;
  const json: SkillJson | undefined = validateJson(jsonFile, jsonOf(jsonFile, jsonInput, true, problems), context.skillSchema, skillJsonProblems, problems);
  const statsFile = `${dir}/stats.json`;
  const stats = validateJson(statsFile, jsonOf(statsFile, statsInput, false, problems), StatsFile, statsProblems, problems);
  // SKILL.md's own problems are reported above; the folder adds those of its other files.
  problems.push(...folder.problems.filter((p) => p.file !== skillFile));

  if (problems.length > 0 || typeof read === 'string' || frontMatter === undefined || json === undefined) return { problems };
  const skill = { text: read.text, sha: skillSha!, size: (skillInput as Buffer).length };
  const record = skillRecord(candidate, frontMatter, skill, json, stats, hasIndex === true, context.platforms);
  record.files = folder.files;
  return { problems, record };
}

/** The entries of folder `path` by name (links not followed); empty when it disappeared. */
function listFolder(path: string): Map<string, Dirent> {
  try {
    return new Map(readdirSync(path, { withFileTypes: true }).map((entry) => [entry.name, entry]));
  } catch (error) {
    if (isMissing(error)) return new Map();
    throw error;
  }
}

/**
 * Whether `.claude-plugin/marketplace.json` of skill folder `abs` is a regular file in a real
 * folder (no links): true, false when there is none, or why it cannot count (a symbolic link, a
 * FIFO, a folder…), which the load reports as a problem of that file rather than ignore it.
 * `folder` is the `.claude-plugin` entry of the skill folder's listing; a name the listing lacks
 * is still lstat-ed (a case-insensitive file system matches other spellings).
 */
function hasMarketplaceIndex(abs: string, folder: Dirent | undefined): MarketplaceIndex {
  const path = join(abs, '.claude-plugin');
  const stats = folder === undefined ? lstatOrUndefinedSync(path) : folder;
  if (stats === undefined) return false;
  if (stats.isSymbolicLink()) return { file: '.claude-plugin', message: 'is a symbolic link, not followed' };
  if (!stats.isDirectory()) return false;
  const file = lstatOrUndefinedSync(join(path, 'marketplace.json'));
  if (file === undefined) return false;
  if (file.isSymbolicLink()) return { file: '.claude-plugin/marketplace.json', message: 'is a symbolic link, not followed' };
  return file.isFile() ? true : { file: '.claude-plugin/marketplace.json', message: 'is not a regular file' };
}

/** A marketplace index found (true), absent (false), or there but unreadable (the file and why). */
type MarketplaceIndex = boolean | { file: string; message: string };

/** Assemble a valid skill's record (docs/decisions.md §2: skill.json overrides the front matter). */
function skillRecord(
  { owner, repo, dir }: Candidate,
  frontMatter: FrontMatter,
  { text, sha, size }: { text: string; sha: string; size: number },
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
    sha,
    size,
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
    // The order skill.json gives (the primary category first, docs/import.md), without repeats.
    categories: [...new Set(json.categories)],
    platforms: skillPlatforms,
    installCommands,
    hasIndex,
    ...(json.source === undefined ? {} : { source: sourceOf(json.source) }),
    stats: stats ?? { views: 0, installs: 0, favorites: 0, starHistory: [] },
  };
}

/** `source` with its keys in one order, whatever the order in skill.json. */
function sourceOf(source: NonNullable<SkillJson['source']>): SkillSource {
  const { repository, path, commit, plugin, executables } = source;
  return {
    repository,
    path,
    commit,
    ...(plugin === undefined ? {} : { plugin: { name: plugin.name, marketplace: plugin.marketplace } }),
    ...(executables === undefined ? {} : { executables: [...executables].sort(compareCodeUnits) }),
  };
}
