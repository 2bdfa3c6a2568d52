/**
 * The offline bundle: one file holding the whole static tree (every JSON file of a build, search
 * index included), read into a `Loader` so `createHandler(loader)` answers every endpoint exactly
 * as it does from the tree. Written by builder/bundle.ts; read here in any runtime.
 *
 * Format, version 1 (`BUNDLE_VERSION`): a gzip stream (RFC 1952) of UTF-8 text lines ending in
 * `\n`.
 * - Line 1, the header: `{"format":"skills-directory-bundle","version":1,"files":<N>}`.
 * - Then N lines `<path>\t<json>`: a path of the static tree (src/paths.ts; relative, `.json`,
 *   no tab or newline) and that file's JSON, compact (JSON text never holds a raw newline or tab
 *   outside strings, and none inside them either, as JSON escapes both). The manifest comes
 *   first, the other files follow sorted by path; a path appears once.
 * - Version 2 adds lines `<path>\t"<base64>"` for skill files and archives (`parseBytesPath`,
 *   src/skill-files.ts: `api/v1/skills/<o>/<r>/files/<path>`, `…/archive.tar.gz`): the bytes as
 *   one JSON string of base64. A file path holds no tab or newline (control characters are no
 *   file name's), so the line stays one line.
 * Being line-oriented, the file is read incrementally: a reader never holds the whole text as
 * one string, so trees larger than a JavaScript string can be bundled. An uncompressed bundle
 * (the same lines without gzip, e.g. after `gunzip`) is read as well.
 */
import { assertSafeBytesPath, assertSafePath, type BytesLoader, type Loader } from './loader.ts';
import { MANIFEST_PATH, OWNER_RE, REPO_RE } from './paths.ts';
import { parseBytesPath } from './skill-files.ts';

/** Value of the header's `format`. */
export const BUNDLE_FORMAT = 'skills-directory-bundle';
/**
 * Version of the bundle format builder/bundle.ts writes; this module reads it and version 1.
 * 2: lines of skill files and archives (below).
 */
export const BUNDLE_VERSION = 2;
/** Versions this module reads. */
const READ_VERSIONS: readonly number[] = [1, 2];

/** The first line of a bundle. */
export interface BundleHeader {
  format: typeof BUNDLE_FORMAT;
  version: number;
  /** Number of file lines that follow. */
  files: number;
}

/** What a bundle can be read from. */
export type BundleSource = Uint8Array | ArrayBuffer | Blob | Response | ReadableStream<Uint8Array>;

/** A bundle read into memory: each file's JSON text by path (parsed only when loaded). */
export interface Bundle {
  header: BundleHeader;
  files: ReadonlyMap<string, string>;
}

/** A bundle that cannot be read: not a bundle, another version, truncated or malformed. */
export class BundleError extends Error {
  override name = 'BundleError';
}

/** The header line of a bundle holding `files` files. */
export function bundleHeaderLine(files: number): string {
  const header: BundleHeader = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, files };
  return `${JSON.stringify(header)}\n`;
}

/** The line of one file. */
export function bundleFileLine(path: string, data: unknown): string {
  assertSafePath(path);
  return `${path}\t${JSON.stringify(data)}\n`;
}

/** The line of one skill file or archive (version 2). */
export function bundleBytesLine(path: string, bytes: Uint8Array): string {
  assertSafeBytesPath(path);
  let binary = '';
  // In slices: one String.fromCharCode per byte of a 20 MiB file would be slow.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `${path}\t"${btoa(binary)}"\n`;
}

/** A bytes loader over a read bundle (version 2 lines); undefined for a file the bundle lacks. */
export function bundleBytesLoader(bundle: Bundle): BytesLoader {
  return async (path) => {
    assertSafeBytesPath(path);
    const text = bundle.files.get(path);
    if (text === undefined) return undefined;
    const binary = atob(JSON.parse(text) as string);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  };
}

/**
 * Read a bundle. Gzip is undone with `DecompressionStream` (browsers, Node ≥ 18, Deno, Bun,
 * Workers); a runtime without it can still read an uncompressed bundle. Throws `BundleError`
 * naming the line for anything that is not a complete bundle of this version.
 */
export async function readBundle(source: BundleSource): Promise<Bundle> {
  const bytes = await peekable(await toStream(source));
  const gzip = bytes.first[0] === 0x1f && bytes.first[1] === 0x8b;
  let stream = bytes.stream;
  if (gzip) {
    if (typeof DecompressionStream === 'undefined') {
      throw new BundleError('This runtime has no DecompressionStream to read a gzip bundle: pass the bundle uncompressed (gunzip it first)');
    }
    stream = stream.pipeThrough(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
  }
  let header: BundleHeader | undefined;
  const files = new Map<string, string>();
  let lineNo = 0;
  try {
    for await (const line of lines(stream)) {
      lineNo++;
      if (header === undefined) {
        header = parseHeader(line);
        continue;
      }
      const tab = line.indexOf('\t');
      const path = tab === -1 ? '' : line.slice(0, tab);
      if (tab === -1 || !isSafePath(path)) throw new BundleError(`line ${lineNo}: expected "<path>\\t<json>" with a path of the static tree`);
      if (files.has(path)) throw new BundleError(`line ${lineNo}: ${path} appears twice`);
      if (files.size === header.files) throw new BundleError(`line ${lineNo}: more files than the ${header.files} the header announces`);
      files.set(path, line.slice(tab + 1));
    }
  } catch (error) {
    if (error instanceof BundleError) throw error;
    // DecompressionStream and TextDecoder fail on corrupt or truncated data.
    throw new BundleError(`the bundle is corrupt or truncated (${(error as Error).message})`, { cause: error });
  }
  if (header === undefined) throw new BundleError('the bundle is empty');
  if (files.size !== header.files) throw new BundleError(`the bundle is truncated: ${files.size} of ${header.files} files`);
  if (!files.has(MANIFEST_PATH)) throw new BundleError(`the bundle has no ${MANIFEST_PATH}`);
  return { header, files };
}

/**
 * A `Loader` over a read bundle. Each load parses the file's JSON afresh (callers may wrap it in
 * `cachedLoader`); a file that is not valid JSON rejects, naming it.
 */
export function bundleLoader(bundle: Bundle): Loader {
  return async (path) => {
    assertSafePath(path);
    const text = bundle.files.get(path);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new Error(`bundle file ${path}: not valid JSON (${(error as Error).message})`, { cause: error });
    }
  };
}

function parseHeader(line: string): BundleHeader {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    value = undefined;
  }
  const header = value as Partial<BundleHeader> | undefined;
  if (typeof header !== 'object' || header === null || header.format !== BUNDLE_FORMAT) {
    throw new BundleError(`not a skills directory bundle (the first line is not a ${BUNDLE_FORMAT} header)`);
  }
  if (typeof header.version !== 'number' || !READ_VERSIONS.includes(header.version)) {
    throw new BundleError(`bundle format version ${JSON.stringify(header.version)}, this reader reads versions ${READ_VERSIONS.join(' and ')}: rebuild the bundle with this version`);
  }
  if (!(Number.isSafeInteger(header.files) && header.files! >= 1)) throw new BundleError('bundle header → files: expected a positive integer');
  return header as BundleHeader;
}

function isSafePath(path: string): boolean {
  try {
    if (parseBytesPath(path, OWNER_RE, REPO_RE) === undefined) assertSafePath(path);
    return true;
  } catch {
    return false;
  }
}

async function toStream(source: BundleSource): Promise<ReadableStream<Uint8Array>> {
  if (source instanceof ReadableStream) return source;
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) return new Blob([source as Uint8Array<ArrayBuffer>]).stream();
  if (source instanceof Blob) return source.stream();
  if (!source.ok) throw new BundleError(`cannot read the bundle: ${source.url || 'the response'} answered ${source.status}`);
  if (source.body === null) throw new BundleError('the bundle is empty');
  return source.body;
}

/** The first bytes of a stream (at least 2 unless it is shorter, to detect gzip) and a stream of all of it again. */
async function peekable(stream: ReadableStream<Uint8Array>): Promise<{ first: Uint8Array; stream: ReadableStream<Uint8Array> }> {
  const reader = stream.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < 2 && !done) {
    const next = await reader.read();
    if (next.done) done = true;
    else {
      head.push(next.value);
      size += next.value.length;
    }
  }
  const first = new Uint8Array(size);
  head.reduce((offset, chunk) => (first.set(chunk, offset), offset + chunk.length), 0);
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      if (size > 0) controller.enqueue(first);
      if (done) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { first, stream: rest };
}

/**
 * The `\n`-terminated lines of a UTF-8 byte stream (a last line without `\n` too). A line that
 * spans many chunks is joined once, so long lines cost linear time.
 */
async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let parts: string[] = [];
  let done = false;
  try {
    while (!done) {
      const next = await reader.read();
      done = next.done;
      const value = next.value;
      const chunk = done ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
        parts.push(chunk.slice(start, end));
        yield parts.join('');
        parts = [];
        start = end + 1;
      }
      if (start < chunk.length) parts.push(chunk.slice(start));
    }
    if (parts.length > 0) yield parts.join('');
  } finally {
    // Stopped early (a bad line): release the source (an open file, a download).
    if (!done) await reader.cancel().catch(() => undefined);
  }
}
