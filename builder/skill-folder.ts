/**
 * Every file of a skill folder of the content (docs/api.md "Files and archive"): the build reads
 * each regular file below the folder, never following a symbolic link, leaves out `.git` and the
 * content format's own metadata (`RESERVED_PATHS`), maps the content names back to the skill's
 * own paths (`skillPathOf`), and reports as problems naming the file: a link, anything that is
 * not a regular file or folder, a name no URL or archive can carry (`filePathProblem`), two names
 * differing only by case or Unicode normalization, and a folder past the limits.
 */
import { createHash } from 'node:crypto';
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import {
  MAX_SKILL_BYTES,
  MAX_SKILL_FILES,
  comparePaths,
  contentPathOf,
  caseTwinCheck,
  filePathProblem,
  skillPathOf,
  type SkillFileEntry,
} from '../src/skill-files.ts';
import type { Problem } from './model.ts';
import { UnsafeFileError, lstatOrUndefinedSync, readRegularFile } from './safe-read.ts';

/** One file of a skill as the build found it. */
export interface FolderFile extends SkillFileEntry {
  /** Path inside the content skill folder (differs from `path` for escaped reserved names). */
  contentPath: string;
  /** Any execute bit set. */
  executable: boolean;
}

/** What `readSkillFolder` found. */
export interface SkillFolder {
  /** Sorted by `path`; SKILL.md among them when it is a regular file. */
  files: FolderFile[];
  problems: Problem[];
}

/**
 * Every file of the content skill folder `dir` (relative to `root`), with its size and SHA-256.
 * Problems name `<dir>/<content path>`. Files past the limits are problems too: the import keeps
 * a skill within them, so hand-written content past them is refused rather than cut silently.
 */
export function readSkillFolder(root: string, dir: string): SkillFolder {
  const files: FolderFile[] = [];
  const problems: Problem[] = [];
  const problem = (path: string, message: string): void => void problems.push({ file: `${dir}/${path}`, message });
  const walk = (relative: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, dir, relative), { withFileTypes: true });
    } catch (error) {
      problem(relative || '.', `cannot be listed: ${(error as Error).message}`);
      return;
    }
    entries.sort((a, b) => comparePaths(a.name, b.name));
    for (const entry of entries) {
      const contentPath = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.name === '.git') continue;
      // The content format's metadata, and a link where its `.claude-plugin` folder goes: read,
      // and their problems reported, by the load itself. A regular file of that name is the skill's.
      if (skillPathOf(contentPath) === undefined || (contentPath === '.claude-plugin' && entry.isSymbolicLink())) continue;
      if (entry.isSymbolicLink()) {
        problem(contentPath, 'is a symbolic link, not followed');
        continue;
      }
      if (entry.isDirectory()) {
        walk(contentPath);
        continue;
      }
      if (!entry.isFile()) {
        problem(contentPath, 'is not a regular file');
        continue;
      }
      const path = skillPathOf(contentPath)!;
      if (contentPathOf(path) !== contentPath) {
        problem(contentPath, `is not a name the content format allows beside its reserved files: rename it ${JSON.stringify(contentPathOf(contentPath))}`);
        continue;
      }
      const why = filePathProblem(path);
      if (why !== undefined) {
        problem(contentPath, `file name ${why}`);
        continue;
      }
      let bytes: Buffer | undefined;
      try {
        bytes = readRegularFile(join(root, dir, contentPath), MAX_SKILL_BYTES, entry);
      } catch (error) {
        if (!(error instanceof UnsafeFileError)) throw error;
        problem(contentPath, error.message);
        continue;
      }
      if (bytes === undefined) continue; // gone since the listing
      const mode = lstatOrUndefinedSync(join(root, dir, contentPath))?.mode ?? 0;
      files.push({
        path,
        contentPath,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        executable: (mode & 0o111) !== 0,
      });
    }
  };
  walk('');
  files.sort((a, b) => comparePaths(a.path, b.path));
  const twin = caseTwinCheck();
  for (const file of files) {
    const why = twin(file.path);
    if (why !== undefined) problem(file.contentPath, `${why}: rename one`);
  }
  if (files.length > MAX_SKILL_FILES) problems.push({ file: dir, message: `has ${files.length} files, more than the limit of ${MAX_SKILL_FILES}` });
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > MAX_SKILL_BYTES) problems.push({ file: dir, message: `holds ${total} bytes, more than the limit of ${MAX_SKILL_BYTES} (20 MiB)` });
  return { files, problems };
}
