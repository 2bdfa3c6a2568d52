/**
 * Which folders of a repository are skills, found the way agent tools find them (docs/import.md):
 *
 * 1. Folders declared by a Claude Code plugin marketplace (`.claude-plugin/marketplace.json`:
 *    `plugins[].skills`, or the `skills/*` folders of a plugin's `source`) and by plugin manifests
 *    (`.claude-plugin/plugin.json` `skills`); these carry the declaring plugin.
 * 2. The known layouts: a root `SKILL.md`; `skills/*`; `skills/.curated|.system|.experimental/*`
 *    (OpenAI); `plugins/* /skills/*`; `.claude/skills/*`.
 * 3. Any other `SKILL.md` at most `MAX_DEPTH` folders deep, outside `.git`, `node_modules` and
 *    vendored folders.
 *
 * Everything works on the file list of one commit (builder/import/git.ts), so nothing is read
 * through a symbolic link: a `SKILL.md` or a declared folder that is a link is reported, never
 * followed.
 */
import type { TreeEntry } from './git.ts';

/** Deepest folder (counted in segments) the bounded search looks at. */
export const MAX_DEPTH = 6;
/** Folders never searched: tools' and dependencies' copies, not the repository's own skills. */
const SKIPPED_SEGMENTS = new Set(['.git', 'node_modules', 'vendor', 'vendors', 'third_party', 'third-party', 'bower_components', '.venv', 'venv', 'site-packages', 'dist', 'build', 'target']);
/** Folder names of templates (anthropics/skills has `template/`): a starting point, not a skill. */
const TEMPLATE_SEGMENTS = new Set(['template', 'templates', 'skill-template', '_template']);
/** OpenAI's skill collections. */
const OPENAI_SETS = new Set(['.curated', '.system', '.experimental']);

/** The plugin of a marketplace that declares a skill. */
export interface DeclaringPlugin {
  name: string;
  marketplace: string;
  /** The plugin's `category`, `tags` and `keywords` as given. */
  labels: string[];
}

/** A skill folder found in the repository. */
export interface FoundSkill {
  /** Folder of the skill, `.` for the root. */
  path: string;
  /** The SKILL.md entry. */
  entry: TreeEntry;
  /** How it was found. */
  layout: 'marketplace' | 'plugin' | 'root' | 'skills' | 'openai' | 'plugins' | 'claude' | 'search';
  plugin?: DeclaringPlugin;
  /** The skill folder this one sits in (its files are that skill's too), when nested. */
  parent?: string;
  /** In a template folder (`template/`, `templates/`): imported unless its text is a placeholder. */
  template?: true;
}

/** A SKILL.md (or declared folder) that is not imported, and why. */
export interface Passed {
  path: string;
  reason: string;
}

/** What `discover` needs: the tree, and the bytes of the manifests it asks for. */
export interface DiscoverInput {
  entries: readonly TreeEntry[];
  /** Parsed JSON of a manifest file by path, or an error message; only manifests in `manifestPaths`. */
  manifests: ReadonlyMap<string, unknown>;
}

/** The manifest files `discover` reads, from the tree. */
export function manifestPaths(entries: readonly TreeEntry[]): string[] {
  return entries
    .filter((e) => e.path === '.claude-plugin/marketplace.json' || /(?:^|\/)\.claude-plugin\/plugin\.json$/.test(e.path))
    .map((e) => e.path);
}

/** `a/./b/` → `a/b`, `./` → `.`; undefined for a path that leaves the repository or is absolute. */
export function normalizeRepoPath(path: string): string | undefined {
  if (path.startsWith('/') || path.includes('\\') || path.includes('\0')) return undefined;
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return undefined;
    parts.push(part);
  }
  return parts.length === 0 ? '.' : parts.join('/');
}

/** `folder/SKILL.md`, or `SKILL.md` at the root. */
function skillFile(folder: string): string {
  return folder === '.' ? 'SKILL.md' : `${folder}/SKILL.md`;
}

/** The labels of a marketplace plugin entry (category, tags, keywords), as strings. */
function labelsOf(plugin: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ['category', 'tags', 'keywords']) {
    const value = plugin[key];
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) out.push(...value.filter((v): v is string => typeof v === 'string'));
  }
  return out.slice(0, 50);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Find the skill folders of one commit; every SKILL.md not imported is in `passed` with its reason. */
export function discover(input: DiscoverInput): { skills: FoundSkill[]; passed: Passed[] } {
  const byPath = new Map(input.entries.map((e) => [e.path, e]));
  const found = new Map<string, FoundSkill>();
  const passed: Passed[] = [];
  const pass = (path: string, reason: string): void => {
    if (!passed.some((p) => p.path === path)) passed.push({ path, reason });
  };

  /** Take `folder` as a skill when its SKILL.md is a regular file; first finding wins. */
  const take = (folder: string, layout: FoundSkill['layout'], plugin?: DeclaringPlugin, declared = false): void => {
    if (found.has(folder)) {
      // A later, more specific finding adds the declaring plugin.
      const known = found.get(folder)!;
      if (known.plugin === undefined && plugin !== undefined) found.set(folder, { ...known, plugin });
      return;
    }
    const entry = byPath.get(skillFile(folder));
    if (entry === undefined) {
      const link = byPath.get(folder);
      if (declared) pass(skillFile(folder), link?.mode === '120000' ? 'declared skill folder is a symbolic link, not followed' : 'declared skill folder has no SKILL.md');
      return;
    }
    if (entry.mode === '120000') return pass(entry.path, 'SKILL.md is a symbolic link, not followed');
    if (entry.mode === '160000') return pass(entry.path, 'SKILL.md is a submodule');
    found.set(folder, { path: folder, entry, layout, ...(plugin === undefined ? {} : { plugin }) });
  };

  // 1. Marketplace and plugin manifests.
  const marketplace = input.manifests.get('.claude-plugin/marketplace.json');
  if (typeof marketplace === 'string') pass('.claude-plugin/marketplace.json', marketplace);
  else if (isRecord(marketplace) && Array.isArray(marketplace.plugins)) {
    const marketplaceName = typeof marketplace.name === 'string' && marketplace.name.trim() !== '' ? marketplace.name.trim() : undefined;
    for (const plugin of marketplace.plugins.slice(0, 10_000)) {
      if (!isRecord(plugin) || typeof plugin.name !== 'string' || marketplaceName === undefined) continue;
      const declaring: DeclaringPlugin = { name: plugin.name, marketplace: marketplaceName, labels: labelsOf(plugin) };
      // A plugin's source is a folder of this repository ("./plugins/x"), or elsewhere (an object).
      const root = typeof plugin.source === 'string' ? normalizeRepoPath(plugin.source) : undefined;
      if (Array.isArray(plugin.skills)) {
        for (const skill of plugin.skills) {
          if (typeof skill !== 'string') continue;
          const folder = normalizeRepoPath(root === undefined || root === '.' ? skill : `${root}/${skill}`);
          if (folder === undefined) pass(String(skill), `declared by plugin ${plugin.name} outside the repository`);
          else take(folder, 'marketplace', declaring, true);
        }
      } else if (root !== undefined) {
        const prefix = root === '.' ? 'skills/' : `${root}/skills/`;
        for (const entry of input.entries) {
          const match = entry.path.startsWith(prefix) ? /^([^/]+)\/SKILL\.md$/.exec(entry.path.slice(prefix.length)) : null;
          if (match !== null) take(`${prefix}${match[1]}`, 'marketplace', declaring);
        }
      }
    }
  }
  for (const [path, manifest] of input.manifests) {
    if (!path.endsWith('/plugin.json') || !isRecord(manifest) || !Array.isArray(manifest.skills)) continue;
    const root = path.slice(0, -'.claude-plugin/plugin.json'.length).replace(/\/$/, '') || '.';
    for (const skill of manifest.skills) {
      if (typeof skill !== 'string') continue;
      const folder = normalizeRepoPath(root === '.' ? skill : `${root}/${skill}`);
      if (folder !== undefined) take(folder, 'plugin', undefined, true);
    }
  }

  // 2. Known layouts, 3. the bounded search: every SKILL.md of the tree, classified.
  for (const entry of input.entries) {
    if (entry.path !== 'SKILL.md' && !entry.path.endsWith('/SKILL.md')) continue;
    const folder = entry.path === 'SKILL.md' ? '.' : entry.path.slice(0, -'/SKILL.md'.length);
    const parts = folder === '.' ? [] : folder.split('/');
    if (found.has(folder)) continue;
    const skipped = parts.find((part) => SKIPPED_SEGMENTS.has(part));
    if (skipped !== undefined) {
      pass(entry.path, `inside ${skipped}/ (not searched)`);
      continue;
    }
    if (parts.length > MAX_DEPTH) {
      pass(entry.path, `deeper than ${MAX_DEPTH} folders (not searched)`);
      continue;
    }
    const layout: FoundSkill['layout'] =
      parts.length === 0 ? 'root' :
      parts.length === 2 && parts[0] === 'skills' ? 'skills' :
      parts.length === 3 && parts[0] === 'skills' && OPENAI_SETS.has(parts[1]!) ? 'openai' :
      parts.length === 4 && parts[0] === 'plugins' && parts[2] === 'skills' ? 'plugins' :
      parts.length === 3 && parts[0] === '.claude' && parts[1] === 'skills' ? 'claude' : 'search';
    take(folder, layout);
  }

  // A skill folder inside another skill folder is a skill of its own (sickn33's
  // game-development/2d-games): the importer keeps it when its front matter has a name of its own
  // (builder/import/run.ts); the outer skill keeps its files. The nearest outer folder is the parent.
  const folders = [...found.keys()];
  for (const folder of folders) {
    const outer = folders.filter((other) => other !== folder && other !== '.' && folder.startsWith(`${other}/`)).sort((a, b) => b.length - a.length)[0];
    const inTemplate = folder !== '.' && folder.split('/').some((part) => TEMPLATE_SEGMENTS.has(part.toLowerCase()));
    if (outer !== undefined || inTemplate) {
      found.set(folder, { ...found.get(folder)!, ...(outer === undefined ? {} : { parent: outer }), ...(inTemplate ? { template: true as const } : {}) });
    }
  }
  const skills = [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { skills, passed: passed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}
