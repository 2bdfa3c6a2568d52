/**
 * On-disk content folders for build tests (README "Content format"): a tiny valid
 * categories.json and platforms.json plus N valid skills, written to a fresh temporary folder,
 * with any file replaced, removed or turned into a symbolic link.
 *
 * ```ts
 * const folder = await createContentFolder({
 *   skills: 3,
 *   files: {
 *     [`${skillDir(1)}/skill.json`]: skillJson(1, { stars: -1 }),  // objects are written as JSON
 *     [`${skillDir(2)}/stats.json`]: null,                          // null removes the file
 *     'skills/evil/link/SKILL.md': { symlink: '/etc/hostname' },    // a symbolic link
 *   },
 * });
 * try { ...folder.dir... } finally { await folder.remove(); }
 * ```
 *
 * Skill `i` (1-based) lives in `skillDir(i)` = `skills/<OWNERS[i % 3]>/skill-<ii>` (skill 1 is
 * `globex/skill-01`); its fields are derived from `i`, so every fixture is deterministic.
 * `tempDir()` gives an output folder; test/helpers/read-tree.ts compares outputs byte for byte.
 */
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** What a fixture file holds: text or bytes as is, an object as JSON, `null` to remove, or a link. */
export type FileSpec = string | Uint8Array | { symlink: string } | Record<string, unknown> | unknown[] | null;

/** A content folder on disk. */
export interface ContentFolder {
  /** Absolute path of the content folder. */
  dir: string;
  /** Write (or remove, or link) more files, paths relative to the content folder. */
  write(files: Record<string, FileSpec>): Promise<void>;
  /** Delete the folder (and its temporary parent). */
  remove(): Promise<void>;
}

/** A small valid categories.json: two technical categories (one with a subcategory), one professional. */
export const FIXTURE_CATEGORIES_JSON = {
  categories: [
    {
      slug: 'dev',
      icon: 'code',
      group: 'technical',
      name: 'Development',
      description: 'Writing software.',
      translations: { de: { name: 'Entwicklung', description: 'Software schreiben.' }, ja: { name: '開発' } },
      subcategories: [{ slug: 'review', name: 'Code Review', description: 'Reviewing changes.', translations: { de: { name: 'Code-Review' } } }],
    },
    { slug: 'ops', icon: 'server', group: 'technical', name: 'DevOps', description: 'Running software.' },
    { slug: 'writing', icon: 'pen', group: 'professional', name: 'Writing', description: 'Words that work.', subcategories: [] },
  ],
};

/** A small valid platforms.json with the three default platforms. */
export const FIXTURE_PLATFORMS_JSON = {
  platforms: [
    { id: 'claude-code', name: 'Claude Code', install: '/plugin install {owner}/{repo}' },
    { id: 'codex', name: 'Codex', install: 'codex skills add {owner}/{repo}' },
    { id: 'chatgpt', name: 'ChatGPT', install: 'Download {name} ({id}) and upload it in ChatGPT' },
  ],
};

/** Owners of fixture skills, by `i % 3`. */
export const OWNERS = ['acme', 'globex', 'initech'] as const;

const CATEGORY_SETS = [['dev'], ['review'], ['ops', 'writing'], []];
const PLATFORM_SETS = [['claude-code'], ['codex', 'claude-code'], ['chatgpt']];

/** Folder of fixture skill `i`: `skills/<owner>/skill-<ii>`. */
export function skillDir(i: number): string {
  return `skills/${OWNERS[i % OWNERS.length]}/skill-${String(i).padStart(2, '0')}`;
}

/**
 * A SKILL.md: front matter lines from `fields` (each value written as JSON, which is valid YAML),
 * or taken verbatim when `fields` is a string, then `body`.
 */
export function skillMd(fields: Record<string, unknown> | string, body = '# Usage\n\nDo the thing.\n'): string {
  const yaml = typeof fields === 'string' ? fields : Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n');
  return `---\n${yaml}\n---\n${body}`;
}

/** The SKILL.md of fixture skill `i`. */
export function defaultSkillMd(i: number): string {
  return skillMd({ name: `Skill ${i}`, description: `Does thing number ${i}.`, license: 'MIT' });
}

/** The skill.json of fixture skill `i`, with `overrides` merged in (a value `undefined` removes the key). */
export function skillJson(i: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const day = String((i % 28) + 1).padStart(2, '0');
  const base: Record<string, unknown> = {
    stars: (i * 37) % 101,
    forks: i % 7,
    watchers: i % 11,
    openIssues: i % 3,
    createdAt: `2024-01-${day}T10:00:00Z`,
    updatedAt: `2025-03-${day}T08:30:00Z`,
    pushedAt: `2025-03-${day}T08:30:00Z`,
    author: { name: `Author ${i}`, avatar: `https://avatars.example.com/u/${i}.png` },
    categories: CATEGORY_SETS[i % CATEGORY_SETS.length],
    platforms: PLATFORM_SETS[i % PLATFORM_SETS.length],
  };
  const merged = { ...base, ...overrides };
  return Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined));
}

/** The stats.json of fixture skill `i`. */
export function statsJson(i: number): Record<string, unknown> {
  return {
    views: i * 100,
    installs: i * 10,
    favorites: i,
    starHistory: [
      { date: '2025-01-01', stars: i },
      { date: '2025-02-01', stars: i * 2 },
    ],
  };
}

/** Every file of fixture skill `i` (odd skills have a stats.json, every third a marketplace.json). */
export function skillFiles(i: number): Record<string, FileSpec> {
  const dir = skillDir(i);
  const files: Record<string, FileSpec> = {
    [`${dir}/SKILL.md`]: defaultSkillMd(i),
    [`${dir}/skill.json`]: skillJson(i),
  };
  if (i % 2 === 1) files[`${dir}/stats.json`] = statsJson(i);
  if (i % 3 === 0) files[`${dir}/.claude-plugin/marketplace.json`] = { name: `skill-${i}` };
  return files;
}

/** Every file of a valid content folder with skills `1..skills`. */
export function contentFiles(skills: number): Record<string, FileSpec> {
  const files: Record<string, FileSpec> = {
    'categories.json': FIXTURE_CATEGORIES_JSON,
    'platforms.json': FIXTURE_PLATFORMS_JSON,
  };
  for (let i = 1; i <= skills; i++) Object.assign(files, skillFiles(i));
  return files;
}

/** A fresh content folder with `skills` valid skills (default 3), then `files` applied on top. */
export async function createContentFolder(options: { skills?: number; files?: Record<string, FileSpec> } = {}): Promise<ContentFolder> {
  const parent = await fs.mkdtemp(join(tmpdir(), 'skills-content-'));
  const dir = join(parent, 'content');
  await fs.mkdir(dir);
  const write = async (files: Record<string, FileSpec>): Promise<void> => writeFiles(dir, files);
  const remove = (): Promise<void> => fs.rm(parent, { recursive: true, force: true });
  try {
    await write(contentFiles(options.skills ?? 3));
    if (options.files !== undefined) await write(options.files);
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, write, remove };
}

/** Write `files` under `root`, one after the other, in the order given. */
export async function writeFiles(root: string, files: Record<string, FileSpec>): Promise<void> {
  for (const [path, spec] of Object.entries(files)) {
    const full = join(root, path);
    await fs.rm(full, { force: true, recursive: true });
    if (spec === null) continue;
    await fs.mkdir(dirname(full), { recursive: true });
    if (typeof spec === 'string' || spec instanceof Uint8Array) await fs.writeFile(full, spec);
    else if (!Array.isArray(spec) && typeof spec.symlink === 'string') await fs.symlink(spec.symlink, full);
    else await fs.writeFile(full, JSON.stringify(spec, null, 2));
  }
}

/** A fresh temporary folder (for outputs); remove it with `fs.rm(dir, { recursive: true })`. */
export async function tempDir(prefix = 'skills-test-'): Promise<string> {
  return fs.mkdtemp(join(tmpdir(), prefix));
}
