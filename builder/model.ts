/**
 * builder/ — the Node-only builder. With src/node/ and cli/, the only folders that may import node
 * built-ins or fast-glob; it never imports the Node host or the command line (README "Layers").
 * This file holds the build's in-memory model: what
 * `load-content.ts` produces from a content folder and `write-tree.ts` turns into the static tree.
 */
import type { SkillSource, SkillStats } from '../src/schemas.ts';
import type { QualityReport, SkillChecks } from './quality/index.ts';
import type { FolderFile } from './skill-folder.ts';

/** Where a skill's archive answers, its size and SHA-256 hex (the detail's `archive`). */
export interface SkillArchiveInfo {
  url: string;
  size: number;
  sha256: string;
}

/** One validated skill, everything the output needs. */
export interface SkillRecord {
  /** `<owner>/<repo>` as written in the folder names. */
  id: string;
  owner: string;
  repo: string;
  /** Folder relative to the content folder, for messages (`skills/owner/repo`). */
  dir: string;
  /** Display name (skill.json override, else front matter). */
  name: string;
  /** Full description (skill.json override, else front matter). */
  description: string;
  /** Markdown body of SKILL.md (front matter removed, BOM removed, line endings as written). */
  body: string;
  /** Raw SKILL.md text exactly as the file holds it (front matter and any BOM included), so `sha` and `size` check against it. */
  raw: string;
  /** SHA-256 hex of the raw SKILL.md bytes. */
  sha: string;
  /** Byte length of SKILL.md. */
  size: number;
  /** Front matter as parsed (plain data, dates as ISO strings). */
  frontMatter: Record<string, unknown>;
  stars: number;
  forks: number;
  watchers: number;
  openIssues: number;
  license: string;
  createdAt: string;
  updatedAt: string;
  pushedAt: string;
  author: { name: string; avatar: string };
  /** Category slugs as listed (top-level or subcategory), sorted, unique. */
  categories: string[];
  /** Platform ids, sorted, unique. */
  platforms: string[];
  /** One entry per platform of the skill: skill.json override, else the platform template. */
  installCommands: Record<string, string>;
  /** `.claude-plugin/marketplace.json` exists. */
  hasIndex: boolean;
  /** Where the skill lives, for imported skills (skill.json `source`). */
  source?: SkillSource;
  /** Every file of the skill's folder, sorted by path, SKILL.md included (builder/skill-folder.ts). */
  files?: FolderFile[];
  /** The folder's `.tar.gz`, once the build wrote it (builder/skill-output.ts). */
  archive?: SkillArchiveInfo;
  /** Quality signals (builder/quality/), computed over the whole directory after loading. */
  checks?: SkillChecks;
  stats: SkillStats;
}

/** A localized name/description pair. */
export interface Localized {
  name: string;
  description: string;
}

export interface SubcategoryDef {
  slug: string;
  name: string;
  description: string;
  translations: Record<string, Partial<Localized>>;
}

export interface CategoryDef {
  slug: string;
  icon: string;
  group: 'technical' | 'professional';
  name: string;
  description: string;
  translations: Record<string, Partial<Localized>>;
  subcategories: SubcategoryDef[];
}

export interface PlatformDef {
  id: string;
  name: string;
  /** Install command template with `{owner}`, `{repo}`, `{id}`, `{name}`. */
  install: string;
}

/** Everything loaded from a content folder, validated. */
export interface Content {
  /** Sorted by id. */
  skills: SkillRecord[];
  categories: CategoryDef[];
  platforms: PlatformDef[];
  /** The directory's quality report (`api/v1/quality.json`), when computed. */
  quality?: QualityReport;
}

/** One problem found in the content: `file` relative to the content folder, `field` when known. */
export interface Problem {
  file: string;
  field?: string;
  message: string;
}

/** Writes one JSON file of the output (path relative to the output folder, from src/paths.ts). */
export type Emit = (path: string, data: unknown) => Promise<void>;

/**
 * A value already serialized, for an `Emit`: the build's writer takes `text` as the file's bytes;
 * any other `JSON.stringify` gets the same text back through `toJSON`. Lets a file made of many
 * pieces serialized once (a list page's summaries) skip serializing them again per file.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text) as unknown;
  }
}
