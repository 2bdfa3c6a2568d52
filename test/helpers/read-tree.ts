/**
 * Snapshot of a folder for byte-for-byte comparisons of build outputs: every regular file by its
 * `/`-separated path relative to the folder, sorted. Links and other special files are listed
 * with a marker instead of being followed, so a comparison also notices them.
 */
import { createHash } from 'node:crypto';
import { promises as fs, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Path → bytes of every file under `dir` (sorted by path); a link reads as `symlink → target`. */
export async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(join(dir, rel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) out.set(path, await fs.readFile(join(dir, path)));
      else if (entry.isSymbolicLink()) out.set(path, Buffer.from(`symlink → ${await fs.readlink(join(dir, path))}`));
      else out.set(path, Buffer.from('special file'));
    }
  };
  await walk('');
  return out;
}

/** Path → SHA-256 hex of every file under `dir` (sorted by path): a compact tree fingerprint. */
export function treeHashes(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else found.set(path, createHash('sha256').update(readFileSync(join(dir, path))).digest('hex'));
    }
  };
  walk('');
  return new Map([...found].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Folders under `dir` with nothing in them (a clean build leaves none). */
export function emptyFolders(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    const entries = readdirSync(path, { withFileTypes: true });
    if (entries.length === 0) found.push(path);
    for (const entry of entries) if (entry.isDirectory()) walk(join(path, entry.name));
  };
  walk(dir);
  return found;
}
