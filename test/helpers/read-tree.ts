/**
 * Snapshot of a folder for byte-for-byte comparisons of build outputs: every regular file by its
 * `/`-separated path relative to the folder, sorted. Links and other special files are listed
 * with a marker instead of being followed, so a comparison also notices them.
 */
import { promises as fs } from 'node:fs';
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
