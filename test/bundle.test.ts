/**
 * The offline bundle: writer (builder/bundle.ts) and reader (src/bundle.ts, src/node/bundle-file.ts).
 * Round trips of the real contract tree and of arbitrary trees, every source type, determinism,
 * and a clear `BundleError` for every way a file can fail to be a complete bundle of this version.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBundle, writeBundle } from '../builder/bundle.ts';
import { BUNDLE_FORMAT, BUNDLE_VERSION, BundleError, bundleLoader, readBundle, type BundleSource } from '../src/bundle.ts';
import { readBundleFile } from '../src/node/bundle-file.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { contractFiles, writeContractTree } from './contract/contract-data.ts';

let files: Map<string, unknown>;
/** `encodeBundle(files)`, computed once (gzip at the best level is the slow part). */
let bytes: Uint8Array;
let work: string;
/** The contract tree on disk. */
let tree: string;

beforeAll(async () => {
  const built = await contractFiles();
  bytes = encodeBundle(built);
  // What a bundle holds of the tree: no discovery indexes (static hosts only), skill files and
  // archives as base64 (format 2).
  files = new Map(
    [...built].filter(([path]) => !path.startsWith('skills/')).map(([path, value]) => [path, value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value]),
  );
  work = await mkdtemp(join(tmpdir(), 'bundle-test-'));
  tree = join(work, 'tree');
  await writeContractTree(tree);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The decoded files of a bundle, parsed. */
async function decoded(source: BundleSource): Promise<Map<string, unknown>> {
  const bundle = await readBundle(source);
  return new Map([...bundle.files].map(([path, text]) => [path, JSON.parse(text) as unknown]));
}

/** The message of the BundleError `promise` rejects with (fails when it resolves). */
async function bundleError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BundleError);
  return (error as Error).message;
}

const gz = (text: string) => gzipSync(text);
const header = (n: number, extra: object = {}) => `${JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, files: n, ...extra })}\n`;
const manifestLine = `${MANIFEST_PATH}\t{"format":1}\n`;

describe('round trip', () => {
  it('holds every file of the contract tree, equal after decoding', async () => {
    const back = await decoded(bytes);
    expect([...back.keys()].sort()).toEqual([...files.keys()].sort());
    expect(back).toEqual(files);
  });

  it('puts the header first, then the manifest, then every path sorted', () => {
    const text = gunzipSync(bytes).toString('utf8');
    const lines = text.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(JSON.parse(lines[0]!)).toEqual({ format: 'skills-directory-bundle', version: 2, files: files.size });
    const paths = lines.slice(1, -1).map((line) => line.slice(0, line.indexOf('\t')));
    expect(paths[0]).toBe(MANIFEST_PATH);
    expect(paths.slice(1)).toEqual([...files.keys()].filter((p) => p !== MANIFEST_PATH).sort());
  });

  it('writeBundle of the tree on disk gives the same bytes as encodeBundle, every time', async () => {
    const first = join(work, 'a.bundle');
    const second = join(work, 'b.bundle');
    const stats = await writeBundle(tree, first);
    await writeBundle(tree, second);
    const written = await readFile(first);
    expect(written.equals(Buffer.from(bytes))).toBe(true);
    expect(written.equals(await readFile(second))).toBe(true);
    expect(stats).toEqual({ files: files.size, bytes: gunzipSync(written).length, compressedBytes: written.length });
    // gzip header: no modification time, OS "unknown", so any system writes the same bytes.
    expect([...written.subarray(4, 10)]).toEqual([0, 0, 0, 0, 2, 255]);
  });

  it('writeBundle reports progress file by file', async () => {
    const seen: Array<[number, number]> = [];
    await writeBundle(tree, join(work, 'p.bundle'), { onProgress: (done, total) => seen.push([done, total]) });
    expect(seen).toHaveLength(files.size);
    expect(seen.at(-1)).toEqual([files.size, files.size]);
  });

  it('writeBundle skips symbolic links and non-JSON files, and refuses a folder without a manifest', async () => {
    const dir = join(work, 'tree-links');
    await mkdir(join(dir, 'api/v1'), { recursive: true });
    await writeFile(join(dir, MANIFEST_PATH), '{"format":1}');
    await writeFile(join(dir, 'index.html'), '<p>site</p>');
    const outside = join(work, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'secret.json'), '{"secret":true}');
    await symlink(join(outside, 'secret.json'), join(dir, 'api/v1/linked.json'));
    await symlink(outside, join(dir, 'api/v1/linked-dir'));
    await writeBundle(dir, join(work, 'links.bundle'));
    expect([...(await decoded(await readFile(join(work, 'links.bundle')))).keys()]).toEqual([MANIFEST_PATH]);
    await expect(writeBundle(outside, join(work, 'none.bundle'))).rejects.toThrow(`has no ${MANIFEST_PATH}: it is not a build output`);
  });

  it('writeBundle names a file that is not JSON and leaves no file behind', async () => {
    const dir = join(work, 'tree-bad');
    await mkdir(join(dir, 'api/v1'), { recursive: true });
    await writeFile(join(dir, MANIFEST_PATH), '{"format":1}');
    await writeFile(join(dir, 'api/v1/broken.json'), '{nope');
    const target = join(work, 'bad.bundle');
    await expect(writeBundle(dir, target)).rejects.toThrow(/^api\/v1\/broken\.json: not valid JSON/);
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  });

  const safeSegment = fc.stringMatching(/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,11}$/).filter((s) => s !== '.' && s !== '..');
  const safePath = fc.array(safeSegment, { minLength: 1, maxLength: 4 }).map((segments) => `${segments.join('/')}.json`);

  it('any tree of safe paths and JSON values round-trips (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(safePath, fc.jsonValue(), { maxKeys: 20 }), async (tree) => {
        const map = new Map<string, unknown>(Object.entries(tree).map(([k, v]) => [k, JSON.parse(JSON.stringify(v)) as unknown]));
        map.set(MANIFEST_PATH, { format: 1 });
        expect(await decoded(encodeBundle(map))).toEqual(map);
      }),
      { numRuns: 60 },
    );
  });
});

describe('sources', () => {
  const oneByteChunks = (data: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        // The first bytes one at a time: gzip detection must not depend on chunking.
        for (let i = 0; i < 3; i++) controller.enqueue(data.subarray(i, i + 1));
        controller.enqueue(data.subarray(3));
        controller.close();
      },
    });

  it.each<[string, () => BundleSource]>([
    ['Uint8Array', () => bytes],
    ['ArrayBuffer', () => bytes.slice().buffer],
    ['Blob', () => new Blob([bytes as Uint8Array<ArrayBuffer>])],
    ['Response', () => new Response(bytes as Uint8Array<ArrayBuffer>)],
    ['ReadableStream in tiny chunks', () => oneByteChunks(bytes)],
    ['uncompressed lines', () => gunzipSync(bytes)],
  ])('reads from %s', async (_name, source) => {
    expect((await readBundle(source())).files.size).toBe(files.size);
  });

  it('reads a file through readBundleFile, and names a missing file or a folder', async () => {
    const file = join(work, 'file.bundle');
    await writeFile(file, bytes);
    expect((await readBundleFile(file)).files.size).toBe(files.size);
    expect(await bundleError(readBundleFile(join(work, 'missing.bundle')))).toBe(`cannot read bundle ${join(work, 'missing.bundle')}: no such file`);
    expect(await bundleError(readBundleFile(work))).toBe(`cannot read bundle ${work}: not a file`);
  });

  it('a Response that is not ok is an error naming its status', async () => {
    expect(await bundleError(readBundle(new Response('nope', { status: 404 })))).toMatch(/answered 404$/);
  });
});

describe('a file that is not a complete bundle of this version', () => {
  const corrupt = () => {
    const data = Buffer.from(bytes);
    data[Math.floor(data.length / 2)]! ^= 0xff;
    return data;
  };
  const truncated = () => Buffer.from(bytes).subarray(0, 5000);

  it.each<[string, () => BundleSource, string | RegExp]>([
    ['empty', () => new Uint8Array(0), 'the bundle is empty'],
    ['plain JSON', () => Buffer.from('{"data":[]}\n'), 'not a skills directory bundle (the first line is not a skills-directory-bundle header)'],
    ['random bytes', () => Buffer.from([0, 1, 2, 3, 255, 254]), /^the bundle is corrupt or truncated|^not a skills directory bundle/],
    ['a future version', () => gz(header(1, { version: 3 }) + manifestLine), 'bundle format version 3, this reader reads versions 1 and 2: rebuild the bundle with this version'],
    ['no file count', () => gz(header(1, { files: 'many' }) + manifestLine), 'bundle header → files: expected a positive integer'],
    ['fewer files than announced', () => gz(header(3) + manifestLine), 'the bundle is truncated: 1 of 3 files'],
    ['more files than announced', () => gz(header(1) + manifestLine + 'api/v1/x.json\t1\n'), 'line 3: more files than the 1 the header announces'],
    ['a path twice', () => gz(header(2) + manifestLine + manifestLine), `line 3: ${MANIFEST_PATH} appears twice`],
    ['a line without tab', () => gz(header(2) + manifestLine + 'api/v1/x.json 1\n'), 'line 3: expected "<path>\\t<json>" with a path of the static tree'],
    ['a path leaving the tree', () => gz(header(2) + manifestLine + '../etc/passwd.json\t1\n'), 'line 3: expected "<path>\\t<json>" with a path of the static tree'],
    ['an absolute path', () => gz(header(2) + manifestLine + '/etc/x.json\t1\n'), 'line 3: expected "<path>\\t<json>" with a path of the static tree'],
    ['a dot segment', () => gz(header(2) + manifestLine + 'api/./x.json\t1\n'), 'line 3: expected "<path>\\t<json>" with a path of the static tree'],
    ['no manifest', () => gz(header(1) + 'api/v1/x.json\t1\n'), `the bundle has no ${MANIFEST_PATH}`],
    // Garbage may break a line before the gzip checksum at the end is reached: either is refused.
    ['corrupt gzip', corrupt, /^(the bundle is corrupt or truncated \(|line \d+: )/],
    ['truncated gzip', truncated, /^the bundle is corrupt or truncated \(/],
    ['invalid UTF-8', () => gzipSync(Buffer.concat([Buffer.from(`${header(1)}${MANIFEST_PATH}\t"`), Buffer.from([0xff]), Buffer.from('"\n')])), /^the bundle is corrupt or truncated \(/],
  ])('%s', async (_name, source, message) => {
    const text = await bundleError(readBundle(source()));
    if (typeof message === 'string') expect(text).toBe(message);
    else expect(text).toMatch(message);
  });
});

describe('bundleLoader', () => {
  it('parses a file on each load, undefined for a missing one, and rejects unsafe paths and bad JSON', async () => {
    const bundle = await readBundle(gz(header(2) + manifestLine + 'api/v1/bad.json\t{oops\n'));
    const load = bundleLoader(bundle);
    const first = await load(MANIFEST_PATH);
    expect(first).toEqual({ format: 1 });
    expect(await load(MANIFEST_PATH)).not.toBe(first);
    expect(await load('api/v1/nothing.json')).toBeUndefined();
    await expect(load('../x.json')).rejects.toThrow('Refusing to load unsafe path');
    await expect(load('api/v1/bad.json')).rejects.toThrow(/^bundle file api\/v1\/bad\.json: not valid JSON/);
  });
});
