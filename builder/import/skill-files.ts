/**
 * A skill is its folder (docs/import.md "Whole folders"): which files of a skill folder in a
 * repository the import keeps, and writing them into the content folder. Every regular file is
 * kept (mode 100644 or 100755); symbolic links and submodules are never followed. A skill found
 * inside another skill's folder is a skill of its own, and the outer skill keeps its files all the
 * same (its text may point at them); only a repository-root skill, whose folder is the whole
 * repository, leaves the other skills' folders to them. A file whose
 * path no URL or archive can carry (`filePathProblem`), or that differs from a kept one only by
 * case or Unicode normalization, is left out and reported. Within the limits (500 files, 20 MiB:
 * `MAX_SKILL_FILES`, `MAX_SKILL_BYTES`) SKILL.md comes first, then the files in path order, each
 * kept when it still fits: the same repository always gives the same files.
 */
import { lstat, mkdir, readdir, readFile, rename, rm, rmdir, writeFile, chmod } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  MAX_SKILL_BYTES,
  MAX_SKILL_FILES,
  RESERVED_PATHS,
  comparePaths,
  contentPathOf,
  caseTwinCheck,
  filePathProblem,
} from '../../src/skill-files.ts';
import { readBlobs, type Repository, type TreeEntry } from './git.ts';

/** A file of a skill folder the import keeps. */
export interface KeptFile {
  /** Path inside the skill folder. */
  path: string;
  oid: string;
  size: number;
  executable: boolean;
}

/** A file left out, and why (in the import report). */
export interface LeftOutFile {
  path: string;
  reason: string;
}

/** What `selectSkillFiles` chose. */
export interface Selection {
  kept: KeptFile[];
  leftOut: LeftOutFile[];
  bytes: number;
}

/**
 * The files of skill folder `folder` (`.` for the repository root) among `entries`, with their
 * sizes from `sizes` (oid → bytes); `skillFolders` are the folders of every skill found in the
 * repository (a root skill leaves them to their own skills). SKILL.md is always kept.
 */
export function selectSkillFiles(folder: string, entries: readonly TreeEntry[], sizes: ReadonlyMap<string, number>, skillFolders: readonly string[] = []): Selection {
  const prefix = folder === '.' ? '' : `${folder}/`;
  const inside = entries.filter((e) => e.path.startsWith(prefix)).map((e) => ({ entry: e, path: e.path.slice(prefix.length) }));
  const nested = folder === '.' ? skillFolders.filter((dir) => dir !== '.').map((dir) => `${dir}/`) : [];
  const leftOut: LeftOutFile[] = [];
  const candidates: KeptFile[] = [];
  for (const { entry, path } of inside.sort((a, b) => comparePaths(a.path, b.path))) {
    if (nested.some((dir) => path.startsWith(dir))) continue;
    if (entry.mode === '120000') leftOut.push({ path, reason: 'symbolic link, not followed' });
    else if (entry.mode === '160000') leftOut.push({ path, reason: 'submodule, not followed' });
    else if (entry.mode !== '100644' && entry.mode !== '100755') leftOut.push({ path, reason: `not a regular file (mode ${entry.mode})` });
    else {
      const why = filePathProblem(path);
      if (why !== undefined) leftOut.push({ path, reason: `file name ${why}` });
      else candidates.push({ path, oid: entry.oid, size: sizes.get(entry.oid) ?? 0, executable: entry.mode === '100755' });
    }
  }
  const twin = caseTwinCheck();
  const unique: KeptFile[] = [];
  for (const file of candidates) {
    const why = twin(file.path);
    if (why !== undefined) leftOut.push({ path: file.path, reason: why });
    else unique.push(file);
  }
  // SKILL.md first, then path order: each file kept while it fits.
  const ordered = [...unique.filter((f) => f.path === 'SKILL.md'), ...unique.filter((f) => f.path !== 'SKILL.md')];
  const kept: KeptFile[] = [];
  let bytes = 0;
  for (const file of ordered) {
    if (file.path !== 'SKILL.md' && kept.length >= MAX_SKILL_FILES) leftOut.push({ path: file.path, reason: `past the limit of ${MAX_SKILL_FILES} files a skill` });
    else if (file.path !== 'SKILL.md' && bytes + file.size > MAX_SKILL_BYTES) leftOut.push({ path: file.path, reason: `past the limit of 20 MiB a skill (${file.size} bytes)` });
    else {
      kept.push(file);
      bytes += file.size;
    }
  }
  kept.sort((a, b) => comparePaths(a.path, b.path));
  leftOut.sort((a, b) => comparePaths(a.path, b.path));
  return { kept, leftOut, bytes };
}

/**
 * Make the content skill folder `folder` hold exactly the `kept` files (at `contentPathOf` their
 * path, executable ones with mode 0755) besides the content format's own metadata files, reading
 * the bytes from `repo`; other files there are removed. Resolves whether anything changed.
 */
export async function syncSkillFiles(repo: Repository, folder: string, kept: readonly KeptFile[]): Promise<boolean> {
  const blobs = await readBlobs(repo, kept.map((f) => f.oid), MAX_SKILL_BYTES);
  const wanted = new Map(kept.map((f) => [contentPathOf(f.path), f]));
  let changed = false;
  for (const [contentPath, file] of wanted) {
    const bytes = blobs.get(file.oid)?.bytes;
    if (bytes === undefined) throw new Error(`${file.path}: blob ${file.oid} could not be read`);
    const path = join(folder, ...contentPath.split('/'));
    const mode = file.executable ? 0o755 : 0o644;
    let current: Buffer | undefined;
    let currentMode: number | undefined;
    try {
      const stats = await lstat(path);
      if (stats.isFile()) {
        current = await readFile(path);
        currentMode = stats.mode & 0o777;
      } else await rm(path, { recursive: true, force: true });
    } catch {
      current = undefined;
    }
    if (current !== undefined && current.equals(bytes)) {
      if (currentMode !== mode) {
        await chmod(path, mode);
        changed = true;
      }
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(`${path}.tmp-import`, bytes, { mode });
    await chmod(`${path}.tmp-import`, mode);
    await rename(`${path}.tmp-import`, path);
    changed = true;
  }
  // Files of an earlier import gone upstream (or left out now): removed, and folders left empty.
  const reserved = new Set<string>(RESERVED_PATHS);
  const walk = async (relative: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(join(folder, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        await walk(path);
        try {
          await rmdir(join(folder, path));
        } catch {
          // not empty
        }
      } else if (!wanted.has(path) && !reserved.has(path)) {
        await rm(join(folder, path), { force: true });
        changed = true;
      }
    }
  };
  await walk('');
  return changed;
}
