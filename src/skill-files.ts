/**
 * A skill is its folder: the rules every part shares for the files of a skill (docs/api.md
 * "Files and archive"): which paths are valid, the limits, where the build writes each file and
 * the archive, and how the content folder keeps a skill's own file whose name the content format
 * reserves. Runtime core: no Node built-ins.
 */
import { API_PREFIX } from './paths.ts';

/** Most files kept of one skill (SKILL.md included). */
export const MAX_SKILL_FILES = 500;
/** Most bytes kept of one skill, all files together. */
export const MAX_SKILL_BYTES = 20 * 2 ** 20;
/** Longest file path, in UTF-8 bytes; it must also fit a ustar header (`ustarSplit`). */
export const MAX_FILE_PATH_BYTES = 255;

/** Name of the archive of a skill's folder, beside its detail file. */
export const ARCHIVE_NAME = 'archive.tar.gz';
/** Folder of a skill's files, beside its detail file. */
export const FILES_DIR = 'files';

/** One file of a skill, as the detail lists it. */
export interface SkillFileEntry {
  /** Relative, `/`-separated path inside the skill folder (`SKILL.md`, `scripts/x.py`). */
  path: string;
  size: number;
  /** SHA-256 hex of the bytes. */
  sha256: string;
}

/**
 * Why `name` cannot be one segment of a skill file path, or undefined when it can: empty, `.` or
 * `..`, `/` or `\`, a control character (C0, DEL, C1), `%` (a URL could not tell the name from an
 * encoded one, so double encoding never names a file), a lone surrogate, `.git`, or a name Windows
 * cannot hold (`< > : " | ? *`, a device name such as `CON` or `aux.md`, a trailing dot or space).
 */
export function fileSegmentProblem(name: string): string | undefined {
  if (name === '') return 'has an empty segment';
  if (name === '.' || name === '..') return `has a ${JSON.stringify(name)} segment`;
  if (name === '.git') return 'is inside .git';
  if (name.includes('/')) return 'contains /';
  if (name.includes('\\')) return 'contains a backslash';
  if (name.includes('%')) return 'contains % (not allowed in a file name: it could be read as URL encoding)';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'contains a control character';
  // A lone surrogate (a file name that was not valid UTF-8 on disk reads as U+FFFD instead).
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(name) || name.includes('\ufffd')) return 'is not valid Unicode';
  // What Windows cannot hold: an archive or `npx skills add` would fail there half-way.
  if (/[<>:"|?*]/.test(name)) return 'contains a character Windows refuses in file names (< > : " | ? *)';
  if (WINDOWS_DEVICE.test(name)) return `is a name Windows reserves for a device (${JSON.stringify(name.split('.')[0])}, with any extension)`;
  if (name.endsWith('.') || name.endsWith(' ')) return 'ends with a dot or a space (Windows drops it from the name)';
  return undefined;
}

/** Device names Windows reserves in every folder, in any case, with or without an extension. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[1-9\u00b9\u00b2\u00b3]|lpt[1-9\u00b9\u00b2\u00b3])(\..*)?$/i;

/** Why `path` cannot be a skill file path, or undefined when it can (segments, length, ustar). */
export function filePathProblem(path: string): string | undefined {
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'is absolute';
  for (const segment of path.split('/')) {
    const problem = fileSegmentProblem(segment);
    if (problem !== undefined) return problem;
  }
  const bytes = new TextEncoder().encode(path).length;
  if (bytes > MAX_FILE_PATH_BYTES) return `is longer than ${MAX_FILE_PATH_BYTES} bytes`;
  if (ustarSplit(path) === undefined) return 'is too long for a tar header (a name of at most 100 bytes after a folder of at most 155)';
  // The archive holds each folder as an entry of its own (builder/skill-archive.ts): a folder
  // name of one segment over 100 bytes fits no header, though a file below it does.
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
    if (ustarSplit(path.slice(0, at)) === undefined) return `has a folder, ${JSON.stringify(path.slice(0, at))}, too long for a tar header (a name of at most 100 bytes after a folder of at most 155)`;
  }
  return undefined;
}

/**
 * `path` as a ustar header holds it: `[prefix, name]` with `name` at most 100 UTF-8 bytes and
 * `prefix` (a leading part ending at a `/`) at most 155, or undefined when no split fits.
 */
export function ustarSplit(path: string): [prefix: string, name: string] | undefined {
  const size = (s: string): number => new TextEncoder().encode(s).length;
  if (size(path) <= 100) return ['', path];
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (size(prefix) <= 155 && size(name) <= 100 && name !== '') return [prefix, name];
  }
  return undefined;
}

/** The key two paths share when they differ only by case or Unicode normalization. */
export function filePathKey(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

/**
 * A check of one skill's paths, taken one at a time: why `path` cannot sit beside the paths taken
 * before it (it, or one of its folders, differs from one of those paths or their folders only by
 * case or Unicode normalization, so some file system would merge them), or undefined, and then
 * it is taken.
 */
export function caseTwinCheck(): (path: string) => string | undefined {
  const files = new Map<string, string>();
  const folders = new Map<string, string>();
  return (path) => {
    const parts = path.split('/');
    const mine: string[] = [];
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      const key = filePathKey(folder);
      const other = folders.get(key) ?? files.get(key);
      if (other !== undefined && other !== folder) return `is in folder ${JSON.stringify(folder)}, which differs from ${JSON.stringify(other)} only by case or Unicode normalization`;
      mine.push(folder);
    }
    const key = filePathKey(path);
    const other = files.get(key) ?? folders.get(key);
    if (other !== undefined) return `differs from ${JSON.stringify(other)} only by case or Unicode normalization`;
    for (const folder of mine) folders.set(filePathKey(folder), folder);
    files.set(key, path);
    return undefined;
  };
}

/**
 * Paths of a content skill folder that are the content format's metadata, not the skill's own
 * files: `skill.json` and `stats.json` at its root, `.claude-plugin/marketplace.json`.
 */
export const RESERVED_PATHS = ['skill.json', 'stats.json', '.claude-plugin/marketplace.json'] as const;

/**
 * Whether `path` is a reserved path with any number of `_` before its last segment, in any case
 * (`skill.json`, `__Skill.json`, `.claude-plugin/_marketplace.json`).
 */
function reservedMatch(path: string): boolean {
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const name = path.slice(slash + 1).replace(/^_+/, '').toLowerCase();
  return RESERVED_PATHS.some((reserved) => {
    const at = reserved.lastIndexOf('/');
    return reserved.slice(0, at + 1).toLowerCase() === dir.toLowerCase() && reserved.slice(at + 1) === name;
  });
}

/**
 * Where a skill's own file `path` is kept in a content skill folder. A path that is a reserved
 * path with any number of `_` before its last segment (any case: `skill.json`, `_Skill.json`,
 * `.claude-plugin/__marketplace.json`) gets one more `_`; every other path is kept as it is. The
 * mapping is one-to-one and `skillPathOf` undoes it, so a skill's own `skill.json` is neither lost
 * nor read as metadata.
 */
export function contentPathOf(path: string): string {
  if (!reservedMatch(path)) return path;
  const slash = path.lastIndexOf('/');
  return `${path.slice(0, slash + 1)}_${path.slice(slash + 1)}`;
}

/**
 * The skill's own path of the content folder's file `path`, or undefined when `path` is the
 * content format's metadata (`RESERVED_PATHS`, exact spelling). The inverse of `contentPathOf`;
 * a content name `contentPathOf` never writes (`Skill.json`, which a case-insensitive file system
 * cannot hold beside `skill.json`) comes back unchanged, and the build refuses it because
 * `contentPathOf` of the result is not the name it read.
 */
export function skillPathOf(path: string): string | undefined {
  if ((RESERVED_PATHS as readonly string[]).includes(path)) return undefined;
  if (!reservedMatch(path)) return path;
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  if (!name.startsWith('_')) return path;
  return `${path.slice(0, slash + 1)}${name.slice(1)}`;
}

/** Static file of one skill file: `api/v1/skills/<owner>/<repo>/files/<path>` (the URL's own path). */
export function skillFilePath(owner: string, repo: string, path: string): string {
  return `${API_PREFIX}/skills/${owner}/${repo}/${FILES_DIR}/${path}`;
}

/** Static file of a skill's archive: `api/v1/skills/<owner>/<repo>/archive.tar.gz`. */
export function skillArchivePath(owner: string, repo: string): string {
  return `${API_PREFIX}/skills/${owner}/${repo}/${ARCHIVE_NAME}`;
}

/** The URL path (after the base) of a skill file, each segment percent-encoded. */
export function skillFileUrlPath(owner: string, repo: string, path: string): string {
  return `${API_PREFIX}/skills/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/${FILES_DIR}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** Compare by UTF-16 code units (the order of every sorted list of files). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What a bytes path of the static tree names: a skill's file (`file` set) or its archive. */
export interface BytesTarget {
  owner: string;
  repo: string;
  file?: string;
}

/**
 * The skill file or archive a static-tree path names (`api/v1/skills/<o>/<r>/files/<path>` or
 * `…/archive.tar.gz`), or undefined for any other path. Owner and repository follow the
 * identifier rules, the file path `filePathProblem`: a bytes path can never leave its folder.
 */
export function parseBytesPath(path: string, ownerRe: RegExp, repoRe: RegExp): BytesTarget | undefined {
  const prefix = `${API_PREFIX}/skills/`;
  if (!path.startsWith(prefix)) return undefined;
  const [owner, repo, kind, ...rest] = path.slice(prefix.length).split('/');
  if (owner === undefined || repo === undefined || !ownerRe.test(owner) || !repoRe.test(repo)) return undefined;
  if (kind === ARCHIVE_NAME && rest.length === 0) return { owner, repo };
  if (kind !== FILES_DIR || rest.length === 0) return undefined;
  const file = rest.join('/');
  return filePathProblem(file) === undefined ? { owner, repo, file } : undefined;
}
