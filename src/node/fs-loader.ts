/**
 * The runtime's `Loader` over a folder on disk: the Node server reads the static tree with it.
 */
import { readFile } from 'node:fs/promises';
import { assertSafeBytesPath, type BytesLoader, type Loader } from '../loader.ts';
import { resolveInside } from './safe-path.ts';

/**
 * A `BytesLoader` reading skill files and archives under `rootDir`, with the same rules as
 * `fsLoader`: no way out of the folder, no symbolic link followed.
 */
export function fsBytesLoader(rootDir: string): BytesLoader {
  return async (path) => {
    assertSafeBytesPath(path);
    const found = await resolveInside(rootDir, path.split('/'));
    if (found === undefined || !found.stats.isFile()) return undefined;
    const bytes = await readFile(found.path);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
}

/**
 * A `Loader` reading the static tree under `rootDir`. A path that would leave the folder or pass
 * through a symbolic link reads as missing (undefined), like a file that does not exist; a file
 * that is not valid JSON rejects with an error naming it (the handler answers that one request
 * with SERVER_ERROR).
 */
export function fsLoader(rootDir: string): Loader {
  return async (path) => {
    const found = await resolveInside(rootDir, path.split('/'));
    if (found === undefined || !found.stats.isFile()) return undefined;
    const text = await readFile(found.path, 'utf8');
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new Error(`${path}: not valid JSON (${(error as Error).message}); rebuild the output folder`, { cause: error });
    }
  };
}
