/**
 * Reading an offline bundle from a file on disk (Node): streamed through the runtime's reader
 * (src/bundle.ts), so a large bundle is never held as one string.
 */
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { BundleError, readBundle, type Bundle } from '../bundle.ts';

/** Read the bundle at `file`; a missing or unreadable file is a `BundleError` naming it. */
export async function readBundleFile(file: string): Promise<Bundle> {
  // Open first, so a missing file is one clear message rather than a stream error.
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new BundleError(`cannot read bundle ${file}: ${reason}`, { cause: error });
  }
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw new BundleError(`cannot read bundle ${file}: not a file`);
  }
  const stream = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
  try {
    return await readBundle(stream);
  } catch (error) {
    if (error instanceof BundleError) throw new BundleError(`${file}: ${error.message}`, { cause: error });
    throw error;
  }
}
