/**
 * Writing the offline bundle (format in src/bundle.ts): every JSON file of a built output folder,
 * search index included, as one gzip file. Streamed file by file, so memory stays flat at any
 * size; written to a temporary file beside the target and renamed into place when complete.
 * Deterministic: the same tree gives the same bytes (gzip header without time or OS).
 */
import { createWriteStream } from 'node:fs';
import { readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { bundleBytesLine, bundleFileLine, bundleHeaderLine } from '../src/bundle.ts';
import { MANIFEST_PATH, OWNER_RE, REPO_RE } from '../src/paths.ts';
import { parseBytesPath } from '../src/skill-files.ts';

/** What `writeBundle` wrote. */
export interface BundleStats {
  /** Files in the bundle. */
  files: number;
  /** Size of the uncompressed lines, in bytes. */
  bytes: number;
  /** Size of the bundle file, in bytes. */
  compressedBytes: number;
}

export interface WriteBundleOptions {
  /** Called after each file with the number done and the total. */
  onProgress?: (done: number, total: number) => void;
}

/** gzip options: best compression (bundles are written once and read many times). */
const GZIP = { level: constants.Z_BEST_COMPRESSION };

/**
 * Bundle every `.json` file under `treeDir` (a build's output folder) into `file`. Symbolic links
 * are not followed. Throws, leaving any previous `file` untouched, when the folder has no
 * manifest (not a build output) or a file is not valid JSON.
 */
export async function writeBundle(treeDir: string, file: string, options: WriteBundleOptions = {}): Promise<BundleStats> {
  const paths = orderPaths(await jsonFiles(treeDir));
  if (!paths.includes(MANIFEST_PATH)) {
    throw new Error(`${treeDir} has no ${MANIFEST_PATH}: it is not a build output (build it first)`);
  }
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  let bytes = 0;
  async function* text(): AsyncGenerator<Buffer> {
    const header = Buffer.from(bundleHeaderLine(paths.length));
    bytes += header.length;
    yield header;
    for (const [index, path] of paths.entries()) {
      const line = Buffer.from(
        isBytesPath(path) ? bundleBytesLine(path, await readFile(join(treeDir, ...path.split('/')))) : bundleFileLine(path, await readJson(treeDir, path)),
      );
      bytes += line.length;
      yield line;
      options.onProgress?.(index + 1, paths.length);
    }
  }
  try {
    await pipeline(Readable.from(text()), createGzip(GZIP), anonymizeGzipHeader, createWriteStream(temporary));
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return { files: paths.length, bytes, compressedBytes: (await stat(file)).size };
}

/** The bundle of an in-memory tree (path → JSON), e.g. a build emitted into a `Map`. */
export function encodeBundle(files: ReadonlyMap<string, unknown>): Uint8Array {
  // The same files `writeBundle` takes from a tree: the discovery indexes are for static hosts.
  const paths = orderPaths([...files.keys()].filter((path) => !path.startsWith('skills/')));
  const text =
    bundleHeaderLine(paths.length) +
    paths.map((path) => (isBytesPath(path) && files.get(path) instanceof Uint8Array ? bundleBytesLine(path, files.get(path) as Uint8Array) : bundleFileLine(path, files.get(path)))).join('');
  const gzip = gzipSync(text, GZIP);
  gzip[9] = UNKNOWN_OS;
  return gzip;
}

/** The manifest first (a reader checks it before anything else), then every path sorted. */
function orderPaths(paths: readonly string[]): string[] {
  const rest = paths.filter((path) => path !== MANIFEST_PATH).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return paths.includes(MANIFEST_PATH) ? [MANIFEST_PATH, ...rest] : rest;
}

/**
 * Every file of the API under `root` as a `/`-separated relative path, symbolic links skipped:
 * the `.json` files, and the skill files and archives (`parseBytesPath`) as bytes. A skill's own
 * `.json` file is bytes too; the discovery indexes under `skills/` are for static hosts only.
 */
async function jsonFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => isBytesPath(path) || (path.endsWith('.json') && !path.startsWith('skills/')));
}

function isBytesPath(path: string): boolean {
  return parseBytesPath(path, OWNER_RE, REPO_RE) !== undefined;
}

async function readJson(root: string, path: string): Promise<unknown> {
  const text = await readFile(join(root, ...path.split('/')), 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${path}: not valid JSON (${(error as Error).message}); rebuild the output folder`, { cause: error });
  }
}

/** gzip header byte 9 (the OS) set to "unknown", so bundles are byte-identical across systems. */
const UNKNOWN_OS = 255;

async function* anonymizeGzipHeader(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let first = true;
  for await (const chunk of chunks) {
    if (first) {
      // zlib writes the 10-byte header in one piece with the first output.
      if (chunk.length < 10) throw new Error('gzip: unexpected short first chunk');
      chunk[9] = UNKNOWN_OS;
      first = false;
    }
    yield chunk;
  }
}
