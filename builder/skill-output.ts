/**
 * A skill is its folder (docs/api.md "Files and archive", docs/deploy.md "Install from the
 * directory"): the build writes every file of each skill at the URL path that answers it
 * (`api/v1/skills/<owner>/<repo>/files/<path>`), the folder's deterministic archive
 * (`…/archive.tar.gz`), and the Agent Skills discovery indexes the open `skills` CLI installs
 * from (`skills/<owner>/<repo>/.well-known/agent-skills/index.json` for one skill,
 * `skills/<owner>/.well-known/agent-skills/index.json` for an owner's skills).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { normalizeBasePath } from '../src/route.ts';
import { skillPath } from '../src/paths.ts';
import { MAX_SKILL_BYTES, skillArchivePath, skillFilePath } from '../src/skill-files.ts';
import type { Content, SkillRecord } from './model.ts';
import type { OutputWriter } from './output.ts';
import { readRegularFile } from './safe-read.ts';
import { skillArchiveInPool } from './skill-archive.ts';
import { compareCodeUnits } from './sort-orders.ts';

/** `$schema` of the discovery indexes (Agent Skills discovery 0.2.0). */
export const DISCOVERY_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
/** Folder of a discovery index, below the URL a person gives `npx skills add`. */
export const DISCOVERY_DIR = '.well-known/agent-skills';
/** Longest description a discovery entry may carry (the `skills` CLI skips longer entries). */
const MAX_DISCOVERY_DESCRIPTION = 1024;
/** Longest discovery name. */
const MAX_DISCOVERY_NAME = 64;

/** One entry of a discovery index. */
export interface DiscoveryEntry {
  name: string;
  description: string;
  type: 'skill-md' | 'archive';
  /** Relative to the index file, so the output works on any host and under any base path. */
  url: string;
  digest: string;
}

/**
 * Write every skill's files and archive through `writer`, reading them from the content folder
 * `contentRoot` (each file's SHA-256 checked against the load: a file changed since is an
 * error, never a detail that lies), then the discovery indexes. Resolves the content with each
 * record's `archive` set, for the detail files written after.
 */
export async function writeSkillFiles(content: Content, writer: OutputWriter, contentRoot: string, base?: string, memo?: SkillFilesMemo): Promise<Content> {
  const prefix = normalizeBasePath(base);
  const skills: SkillRecord[] = [];
  const names = discoveryNamesOf(content.skills);
  // Archives being compressed, oldest first: each is written, and the skill's record and memo
  // completed, once it is done.
  const pending: PendingArchive[] = [];
  const finish = async ({ skill, hash, name, archiveUrl, archive: compressing }: PendingArchive): Promise<void> => {
    const archive = await compressing;
    await writer.writeFile(skillArchivePath(skill.owner, skill.repo), archive);
    const sha256 = createHash('sha256').update(archive).digest('hex');
    skill.archive = { url: archiveUrl, size: archive.length, sha256 };
    if (hash === undefined) return;
    const files = skill.files ?? [];
    const paths = [
      ...files.map((file) => skillFilePath(skill.owner, skill.repo, file.path)),
      skillArchivePath(skill.owner, skill.repo),
      // Written by writeTree, from the folder's input alone (builder/summary.ts `toContent`, `toStats`).
      ...KEPT_RESOURCES.map((resource) => skillPath(skill.owner, skill.repo, resource)),
      // Written by writeDiscoveryIndexes from the same input and the discovery name.
      discoveryIndexPath(skill.owner, skill.repo),
    ];
    memo!.next.set(skill.dir, { hash, archive: { size: archive.length, sha256 }, files: paths.map((path) => [path, '']), discovery: name });
  };
  for (const skill of content.skills) {
    const archiveUrl = `${prefix}${skillArchivePath(skill.owner, skill.repo)}`;
    // A skill folder unchanged since the build that wrote the live output (same input hash: every
    // file's path, size, mode and SHA-256) has the same files and archive there: kept, not made;
    // its discovery index too, when its discovery name is the same (it depends on the owner's
    // other skills).
    const hash = memo?.hashOf(skill.dir);
    const known = hash === undefined ? undefined : memo?.previous.get(skill.dir);
    const name = names.get(skill.dir)!;
    if (known !== undefined && known.hash === hash && known.discovery === name && writer.keep?.(known.files) === true) {
      memo!.next.set(skill.dir, known);
      memo!.kept.add(skill.dir);
      // Set in place, as everywhere after the load: a copy would read the SKILL.md text of a record restored without it.
      skill.archive = { url: archiveUrl, size: known.archive.size, sha256: known.archive.sha256 };
      skills.push(skill);
      continue;
    }
    const files = skill.files ?? [];
    const archived = [];
    for (const file of files) {
      const source = join(contentRoot, skill.dir, ...file.contentPath.split('/'));
      const bytes = readRegularFile(source, MAX_SKILL_BYTES);
      const sha256 = bytes === undefined ? undefined : createHash('sha256').update(bytes).digest('hex');
      if (bytes === undefined || sha256 !== file.sha256) throw new Error(`${skill.dir}/${file.contentPath} changed while building: build again`);
      await writer.writeFile(skillFilePath(skill.owner, skill.repo, file.path), bytes);
      archived.push({ path: file.path, bytes, executable: file.executable });
    }
    // Compressed on the thread pool while the next skills' files are read; finished in order.
    const archive = skillArchiveInPool(archived);
    archive.catch(() => undefined); // awaited in `finish`; a build stopped before then must not leave it unhandled
    // Its place in the memo's order is this skill's, whenever its archive is done.
    if (hash !== undefined) memo!.next.set(skill.dir, PENDING);
    pending.push({ skill, hash, name, archiveUrl, archive });
    if (pending.length >= ARCHIVES_IN_FLIGHT) await finish(pending.shift()!);
    skills.push(skill);
  }
  for (const archive of pending) await finish(archive);
  await writeDiscoveryIndexes(skills, writer, names, memo);
  return { ...content, skills };
}

/** A skill whose archive is being compressed (`writeSkillFiles`). */
interface PendingArchive {
  skill: SkillRecord;
  hash: string | undefined;
  name: string;
  archiveUrl: string;
  archive: Promise<Uint8Array>;
}

/**
 * Archives compressed at once while the build thread goes on reading files: enough to keep the
 * thread pool busy, few enough that their bytes are not held for long.
 */
const ARCHIVES_IN_FLIGHT = 16;

/** The memo entry of a skill whose archive is not done yet (replaced in place when it is). */
const PENDING: SkillFiles = { hash: '', archive: { size: 0, sha256: '' }, files: [] };

/** What a skill folder's files and archive were in the live output: kept when its input hash is the same. */
export interface SkillFiles {
  /** The skill folder's input hash (the build cache's, builder/load-content.ts). */
  hash: string;
  archive: { size: number; sha256: string };
  /** Output path and key (`fileKey`) of each file and of the archive; keys are filled in from the output record after the build. */
  files: [path: string, key: string][];
  /** The detail's `detailMemo` and its output key (filled in like `files`' keys). */
  detail?: [memo: string, key: string];
  /** The skill's discovery name (its discovery index is among `files`). */
  discovery?: string;
}

/**
 * The skill files of the live output (`previous`), the input hash of each skill folder of this
 * build, what this build wrote (`next`), and the skill folders kept whole (`kept`: their files,
 * archive and the `KEPT_RESOURCES` files, which writeTree then leaves out).
 */
export interface SkillFilesMemo {
  previous: ReadonlyMap<string, SkillFiles>;
  hashOf(dir: string): string | undefined;
  next: Map<string, SkillFiles>;
  kept: Set<string>;
  /** Skill folders whose detail was kept too (`keepDetail`): with `kept`, their entry is the one read. */
  keptDetails?: Set<string>;
}

/**
 * Whether the live output's detail of `skill` is the one this build would write: its `detailMemo`
 * (the record's input, the checks and the archive, which are all the detail is made of) is the
 * one stored with it. If so it is kept (`OutputWriter.keep`) and the caller writes none; either
 * way the memo is noted for the next build.
 */
export function keepDetail(memo: SkillFilesMemo, writer: OutputWriter, skill: SkillRecord, shared: string): boolean {
  const next = memo.next.get(skill.dir);
  if (next === undefined) return false;
  const detail = detailMemo(next.hash, shared, skill);
  const known = memo.previous.get(skill.dir)?.detail;
  next.detail = [detail, ''];
  const kept = known !== undefined && known[0] === detail && writer.keep?.([[skillPath(skill.owner, skill.repo, 'detail'), known[1]]]) === true;
  if (kept) memo.keptDetails?.add(skill.dir);
  return kept;
}

/**
 * What a skill's detail (builder/summary.ts `toDetail`) is made of: the record, given by the skill
 * folder's input hash and the content-wide inputs of its validation (`shared`: categories and
 * platforms), plus the directory-wide parts of its quality checks and the archive. The checks'
 * profiles and flags are the skill's own signals, made of its input alone (builder/quality/), so
 * the input hash stands for them: serializing them for each of 100k skills cost half a second.
 * The options and the build code are those of the skill-files record's key (builder/output-record.ts).
 */
function detailMemo(hash: string, shared: string, skill: SkillRecord): string {
  const checks = skill.checks;
  const directoryWide = checks === undefined ? null : [checks.duplicateOf ?? null, checks.similar ?? null];
  return createHash('sha256').update(JSON.stringify([hash, shared, checks === undefined ? 0 : 1, directoryWide, skill.archive ?? null])).digest('base64url');
}

/**
 * The per-skill resources that depend on the skill folder's input alone (the raw SKILL.md and the
 * stats), kept with its files; the detail also depends on the whole directory (quality checks) and
 * is always made.
 */
export const KEPT_RESOURCES = ['content', 'stats'] as const;

/** Each skill's discovery name by skill folder (`discoveryNames` over each owner's skills, sorted by id). */
function discoveryNamesOf(skills: readonly SkillRecord[]): Map<string, string> {
  const byOwner = new Map<string, SkillRecord[]>();
  for (const skill of [...skills].sort((a, b) => compareCodeUnits(a.id, b.id))) {
    const owned = byOwner.get(skill.owner);
    if (owned === undefined) byOwner.set(skill.owner, [skill]);
    else owned.push(skill);
  }
  const names = new Map<string, string>();
  for (const owned of byOwner.values()) {
    const found = discoveryNames(owned.map((skill) => skill.repo));
    owned.forEach((skill, i) => names.set(skill.dir, found[i]!));
  }
  return names;
}

/**
 * The discovery indexes: one per skill, one per owner. Each entry's `url` is relative to its
 * index file; a skill of SKILL.md alone is a `skill-md` entry, any other an `archive` entry. With
 * `memo`, a kept skill's own index was kept with its files, and an owner's index is kept when
 * every skill of the owner was kept and the live output's build had as many (so the same ones).
 */
async function writeDiscoveryIndexes(skills: readonly SkillRecord[], writer: OutputWriter, names: ReadonlyMap<string, string>, memo?: SkillFilesMemo): Promise<void> {
  const byOwner = new Map<string, SkillRecord[]>();
  for (const skill of [...skills].sort((a, b) => compareCodeUnits(a.id, b.id))) {
    const owned = byOwner.get(skill.owner);
    if (owned === undefined) byOwner.set(skill.owner, [skill]);
    else owned.push(skill);
  }
  const before = memo === undefined ? undefined : ownerCounts(memo.previous.keys());
  for (const [owner, owned] of byOwner) {
    const entries = owned.map((skill) => ({ skill, name: names.get(skill.dir)! }));
    for (const { skill, name } of entries) {
      if (memo?.kept.has(skill.dir) === true) continue;
      // skills/<owner>/<repo>/.well-known/agent-skills/ is five folders below the site.
      await writer.emit(discoveryIndexPath(owner, skill.repo), { $schema: DISCOVERY_SCHEMA, skills: [discoveryEntry(skill, name, '../../../../../')] });
    }
    const path = `skills/${owner}/${DISCOVERY_DIR}/index.json`;
    const same = memo !== undefined && before?.get(owner) === owned.length && owned.every((skill) => memo.kept.has(skill.dir));
    if (same && writer.keepAsIs?.([path]) === true) continue;
    await writer.emit(path, {
      $schema: DISCOVERY_SCHEMA,
      skills: entries.map(({ skill, name }) => discoveryEntry(skill, name, '../../../../')),
    });
  }
}

/** How many skill folders (`skills/<owner>/<repo>`) each owner has. */
function ownerCounts(dirs: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const dir of dirs) {
    const owner = dir.slice(dir.indexOf('/') + 1, dir.lastIndexOf('/'));
    counts.set(owner, (counts.get(owner) ?? 0) + 1);
  }
  return counts;
}

function discoveryEntry(skill: SkillRecord, name: string, up: string): DiscoveryEntry {
  const files = skill.files ?? [];
  const single = files.length === 1 && files[0]!.path === 'SKILL.md';
  const url = single ? skillFilePath(skill.owner, skill.repo, 'SKILL.md') : skillArchivePath(skill.owner, skill.repo);
  const digest = single ? files[0]!.sha256 : skill.archive!.sha256;
  return { name, description: discoveryDescription(skill.description), type: single ? 'skill-md' : 'archive', url: `${up}${url}`, digest: `sha256:${digest}` };
}

/** A description within the discovery limit: cut at 1,024 characters with an ellipsis. */
function discoveryDescription(description: string): string {
  const chars = [...description];
  return chars.length <= MAX_DISCOVERY_DESCRIPTION ? description : `${chars.slice(0, MAX_DISCOVERY_DESCRIPTION - 1).join('')}…`;
}

/**
 * A discovery name (lower-case letters, digits, single hyphens, 1–64) for `repo`: lower-cased,
 * every run of other characters a hyphen, no hyphen at either end, cut to 64; `skill` when
 * nothing is left. `pdf` stays `pdf`; `PDF_Tools.v2` becomes `pdf-tools-v2`.
 */
export function discoveryName(repo: string): string {
  const name = repo
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_DISCOVERY_NAME)
    .replace(/-+$/, '');
  return name === '' ? 'skill' : name;
}

/**
 * Discovery names for an owner's repos (sorted by id), unique among them: a name already taken
 * gets `-2`, `-3`, … (cut so the whole stays within 64).
 */
export function discoveryNames(repos: readonly string[]): string[] {
  const taken = new Set<string>();
  // Names that need no suffix are taken first, so `a_b` never pushes `a-b` off its own name.
  const plain = repos.map(discoveryName);
  const counts = new Map<string, number>();
  for (const name of plain) counts.set(name, (counts.get(name) ?? 0) + 1);
  return repos.map((repo, i) => {
    const name = plain[i]!;
    if (repo === name || (counts.get(name) === 1 && !taken.has(name))) {
      if (!taken.has(name)) {
        taken.add(name);
        return name;
      }
    }
    for (let n = 2; ; n++) {
      const suffix = `-${n}`;
      const candidate = `${name.slice(0, MAX_DISCOVERY_NAME - suffix.length).replace(/-+$/, '')}${suffix}`;
      if (!taken.has(candidate) && !plain.includes(candidate)) {
        taken.add(candidate);
        return candidate;
      }
    }
  });
}

/** Where the discovery index of one skill is, below the site (for docs and the demo page). */
export function discoveryIndexPath(owner: string, repo: string): string {
  return `skills/${owner}/${repo}/${DISCOVERY_DIR}/index.json`;
}

