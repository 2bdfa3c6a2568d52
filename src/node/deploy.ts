/**
 * `skills-api deploy`: publish a build output to object storage (docs/deploy.md "Object storage").
 * The bucket never shows a half-published tree:
 *
 * 1. only objects whose bytes changed are uploaded (hashes of what the bucket holds are kept in a
 *    deploy state object, `<prefix>/.skills-api-deploy.json`, written by this command only);
 * 2. every new or changed object is uploaded before the tree's entry file, the manifest
 *    (`api/v1/manifest.json`), so a reader that finds a manifest finds every file it names;
 * 3. objects the build no longer writes are deleted one deploy later: a reader still holding the
 *    previous manifest keeps finding its files until the next deploy, and never longer.
 *
 * An interrupted deploy leaves the published tree as it was (the manifest is uploaded last) and
 * says so; running the same command again finishes it. Keys about to be uploaded are recorded
 * first (`<prefix>/.skills-api-deploy.pending.json`), so even a killed deploy leaves nothing the
 * next one does not know about. The storage is an `ObjectStore` (deploy-s3.ts for S3, R2, MinIO).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import mime from 'mime-types';
import { commitState, recoverCommit } from '../../shared/commit-journal.ts';
import { mediaType } from '../files.ts';
import { cacheControlFor } from '../http-cache.ts';
import { MANIFEST_PATH } from '../paths.ts';
import { matchRoute } from '../route.ts';

/** Deploy state object, beside the tree (relative to the prefix). */
export const STATE_KEY = '.skills-api-deploy.json';
/** Keys a deploy under way may have uploaded (relative to the prefix). */
export const PENDING_KEY = '.skills-api-deploy.pending.json';
/** Files of a build output that are for other hosts (Netlify/Cloudflare Pages, GitHub Pages) only. */
const HOST_ONLY_FILES = new Set(['_headers', '.nojekyll']);
/** The state format this code writes and reads. */
const STATE_FORMAT = 1;

/** One file of the output folder as an object to publish. */
export interface LocalObject {
  /** Key relative to the prefix: the file's path under the output folder, `/`-separated. */
  key: string;
  /** Path on disk. */
  file: string;
  size: number;
  /** SHA-256 of the bytes, base64url. */
  hash: string;
  contentType: string;
  cacheControl: string;
}

/** What the bucket holds, as the last deploy left it. */
export interface DeployState {
  /** The published tree: key → hash. */
  objects: Record<string, string>;
  /** Objects of the tree before it, kept one more deploy for readers of its manifest: key → hash (`''` unknown). */
  retired: Record<string, string>;
}

/** Headers an object is stored with (and served with by S3, R2 and the Worker over R2). */
export interface ObjectHeaders {
  contentType: string;
  cacheControl: string;
  contentEncoding?: string;
}

/** The operations a deploy needs from a bucket; keys are relative to the deploy's prefix. */
export interface ObjectStore {
  /** The object's bytes, or undefined when there is none. */
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, body: Uint8Array, headers: ObjectHeaders): Promise<void>;
  /** Delete these keys (missing ones are no error). */
  remove(keys: readonly string[]): Promise<void>;
  /** Requests sent so far (for the report). */
  readonly requests: number;
}

/** What a deploy does, computed from the output folder and the bucket's state. */
export interface DeployPlan {
  /** New or changed objects, manifest excluded, in key order. */
  upload: LocalObject[];
  /** The manifest, when it changed (uploaded after `upload`). */
  manifest: LocalObject | undefined;
  /** Objects retired by the deploy before this one, deleted after the manifest. */
  remove: string[];
  /** Objects left as they are. */
  unchanged: number;
  /** Objects this deploy retires (kept until the next deploy). */
  retire: string[];
  /** The state written once the deploy is done. */
  next: DeployState;
  /** Whether the bucket needs any write at all. */
  changes: boolean;
}

/** A deploy's result. */
export interface DeployReport {
  plan: DeployPlan;
  uploaded: number;
  uploadedBytes: number;
  removed: number;
  /** Requests sent to the bucket (reads of the state included). */
  requests: number;
  ms: number;
}

/** A failure with a message for the user (which object, what to do). */
export class DeployError extends Error {}

/** Refuse a folder a live build is committing into; roll back a commit whose build is gone. */
function assertWhole(dir: string): void {
  const state = commitState(dir);
  if (state === 'busy') throw new DeployError(`a build is committing into ${dir}: deploy once it is done`);
  if (state === 'interrupted') recoverCommit(dir);
}

/**
 * Every file of the output folder `dir` to publish, in key order: regular files only (the build
 * writes nothing else), host-specific files (`_headers`, `.nojekyll`) left out. Media type from
 * the extension (as the Node server serves the files), `Cache-Control` by the one caching policy
 * of every host (src/http-cache.ts, the rule the build's `_headers` writes).
 */
export async function readOutput(dir: string): Promise<LocalObject[]> {
  // Keys are paths relative to the folder: `./public`, `public/.` and `public//` name the same
  // folder (readdir normalizes the paths of nested entries, not the one given).
  const root = resolve(dir);
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw new DeployError(error.code === 'ENOENT' ? `no folder ${dir}: build first (skills-api build --out ${dir})` : `cannot read ${dir}: ${error.message}`);
  });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .map((file) => ({ file, key: relative(root, file).split(sep).join('/') }))
    .filter(({ key }) => !HOST_ONLY_FILES.has(key))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (!files.some(({ key }) => key === MANIFEST_PATH)) throw new DeployError(`${dir} is not a build output (no ${MANIFEST_PATH}): build first (skills-api build --out ${dir})`);
  const out: LocalObject[] = [];
  // Hashing reads every file once; a few at a time keeps the disk busy without holding many.
  await eachLimit(files, 16, async ({ file, key }) => {
    const bytes = await readFile(file);
    out.push({ key, file, size: bytes.byteLength, hash: hashOf(bytes), ...headersFor(key, bytes) });
  });
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Media type and cache lifetime of the object at `key` (a path of the output folder). */
export function headersFor(key: string, bytes?: Uint8Array): ObjectHeaders {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  // A skill's own file: the media type every host answers it with (src/files.ts), which looks at
  // the bytes (text without a known extension is text/plain; `.ts` is TypeScript, not MPEG).
  const contentType = bytes !== undefined && matchRoute(`/${key}`)?.name === 'getSkillFile' ? mediaType(key, bytes) : mime.contentType(name) || 'application/octet-stream';
  const cacheControl = cacheControlFor(key, 200, false);
  // One copy of each header value for all objects: millions of objects share a handful of values.
  const memo = `${dot < 0 ? '' : name.slice(dot)}\n${contentType}\n${cacheControl}`;
  let headers = HEADERS.get(memo);
  if (headers === undefined) HEADERS.set(memo, (headers = { contentType, cacheControl }));
  return headers;
}

const HEADERS = new Map<string, ObjectHeaders>();

function hashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/**
 * The plan for publishing `local` over a bucket in `state` (undefined: nothing deployed yet),
 * `pending` naming keys an earlier deploy may have uploaded without finishing (their bytes are
 * unknown, so they are uploaded again if the build has them).
 */
export function planDeploy(local: readonly LocalObject[], state: DeployState | undefined, pending: readonly string[] = []): DeployPlan {
  const objects = state?.objects ?? {};
  const retired = state?.retired ?? {};
  const unknown = new Set(pending);
  const known = (key: string): string | undefined => (unknown.has(key) ? undefined : Object.hasOwn(objects, key) ? objects[key] : Object.hasOwn(retired, key) ? retired[key] : undefined);
  const next: DeployState = { objects: {}, retired: {} };
  const upload: LocalObject[] = [];
  let manifest: LocalObject | undefined;
  let unchanged = 0;
  for (const object of local) {
    next.objects[object.key] = object.hash;
    if (known(object.key) === object.hash) unchanged++;
    else if (object.key === MANIFEST_PATH) manifest = object;
    else upload.push(object);
  }
  // What the published tree (or an unfinished deploy) had and this build has not: kept one deploy.
  for (const key of [...Object.keys(objects), ...unknown].sort()) {
    if (!Object.hasOwn(next.objects, key) && !Object.hasOwn(next.retired, key)) next.retired[key] = unknown.has(key) ? '' : objects[key]!;
  }
  const remove = Object.keys(retired).filter((key) => !Object.hasOwn(next.objects, key) && !Object.hasOwn(next.retired, key)).sort();
  const retire = Object.keys(next.retired);
  const sameRetired = retire.length === Object.keys(retired).length && retire.every((key) => retired[key] === next.retired[key]);
  const changes = upload.length > 0 || manifest !== undefined || remove.length > 0 || !sameRetired || pending.length > 0 || state === undefined;
  return { upload, manifest, remove, unchanged, retire, next, changes };
}

export interface DeployOptions {
  /** The build output folder. */
  dir: string;
  store: ObjectStore;
  /** Plan only: read the bucket's state, write nothing. */
  dryRun?: boolean;
  /** Uploads at once (default 16). */
  concurrency?: number;
  /** Called as uploads finish. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Publish the output folder to the store (module comment: upload changed objects, then the
 * manifest, then delete what the deploy before retired, then write the state). A failure before
 * the manifest leaves the published tree unchanged and throws a `DeployError` saying so.
 */
export async function runDeploy(options: DeployOptions): Promise<DeployReport> {
  const started = performance.now();
  const { store } = options;
  // An incremental build commits into the live folder (docs/decisions.md §3): never read a tree
  // half-way through a commit. An interrupted one is rolled back first, as a build would.
  assertWhole(options.dir);
  // The folder first: a missing build is reported without a request to the bucket.
  const local = await readOutput(options.dir);
  const [state, pending] = await Promise.all([readState(store), readPending(store)]);
  const plan = planDeploy(local, state, pending);
  const report: DeployReport = { plan, uploaded: 0, uploadedBytes: 0, removed: 0, requests: 0, ms: 0 };
  const finish = (): DeployReport => ({ ...report, requests: store.requests, ms: performance.now() - started });
  if (options.dryRun === true || !plan.changes) return finish();

  const writes = [...plan.upload, ...(plan.manifest === undefined ? [] : [plan.manifest])];
  const pendingNow = [...new Set([...pending, ...writes.map((o) => o.key)])].sort();
  if (writes.length > 0) await writeJson(store, PENDING_KEY, pendingNow);
  const total = writes.length;
  const done: LocalObject[] = [];
  options.onProgress?.(0, total);
  try {
    await eachLimit(plan.upload, options.concurrency ?? 16, async (object) => {
      await store.put(object.key, await readFile(object.file), { contentType: object.contentType, cacheControl: object.cacheControl });
      done.push(object);
      report.uploaded++;
      report.uploadedBytes += object.size;
      options.onProgress?.(done.length, total);
    });
  } catch (error) {
    await checkpoint(store, state, pendingNow, done);
    const cause = error instanceof Error ? error.message : String(error);
    throw new DeployError(
      `deploy stopped after ${done.length} of ${plan.upload.length} uploads: ${cause}\n` +
        'The published tree is unchanged (its manifest was not replaced). Run the same command again to finish.',
      { cause: error },
    );
  }
  if (plan.manifest !== undefined) {
    // A build that committed while the files were read or uploaded may have left some objects
    // from the tree before it: publish no manifest over such a mix (a rerun uploads the rest).
    const manifestNow = hashOf(await readFile(plan.manifest.file));
    if (commitState(options.dir) !== 'none' || manifestNow !== plan.manifest.hash) {
      await checkpoint(store, state, pendingNow, done);
      throw new DeployError(
        `a build changed ${options.dir} during the deploy; the published tree is unchanged (its manifest was not replaced). Run the same command again once the build is done.`,
      );
    }
    try {
      await store.put(plan.manifest.key, await readFile(plan.manifest.file), { contentType: plan.manifest.contentType, cacheControl: plan.manifest.cacheControl });
    } catch (error) {
      await checkpoint(store, state, pendingNow, done);
      throw new DeployError(
        `deploy stopped at the manifest, after every other upload: ${error instanceof Error ? error.message : String(error)}\n` +
          'The published tree is the old one unless the manifest did arrive. Run the same command again to finish.',
        { cause: error },
      );
    }
    report.uploaded++;
    report.uploadedBytes += plan.manifest.size;
    options.onProgress?.(total, total);
  }
  // The new tree is published; from here a failure only leaves objects to delete to the next deploy.
  try {
    if (plan.remove.length > 0) {
      await store.remove(plan.remove);
      report.removed = plan.remove.length;
    }
    await writeState(store, plan.next);
    if (writes.length > 0 || pending.length > 0) await store.remove([PENDING_KEY]);
  } catch (error) {
    throw new DeployError(
      `the new tree is published, but cleaning up failed: ${error instanceof Error ? error.message : String(error)}\n` +
        'Objects it no longer names may stay until the next deploy, which finishes the cleanup.',
      { cause: error },
    );
  }
  return finish();
}

/** Run `fn` over `items`, at most `limit` at once; the first failure stops new starts and rejects once running ones settle. */
async function eachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure !== undefined) throw failure.error;
}

/**
 * After a failed upload phase, record what did reach the bucket (best effort: the bucket may be
 * unreachable), so the next run uploads only the rest. The published tree is still the old one.
 */
async function checkpoint(store: ObjectStore, state: DeployState | undefined, pending: readonly string[], done: readonly LocalObject[]): Promise<void> {
  if (done.length === 0) return;
  const objects = { ...(state?.objects ?? {}) };
  for (const object of done) objects[object.key] = object.hash;
  try {
    await writeState(store, { objects, retired: { ...(state?.retired ?? {}) } });
    const uploaded = new Set(done.map((object) => object.key));
    await writeJson(store, PENDING_KEY, pending.filter((key) => !uploaded.has(key)));
  } catch {
    // The pending list written before the uploads still names every key: nothing is lost.
  }
}

/** The bucket's deploy state; undefined when nothing was deployed there. */
async function readState(store: ObjectStore): Promise<DeployState | undefined> {
  const bytes = await store.get(STATE_KEY);
  if (bytes === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(isGzip(bytes) ? gunzipSync(bytes) : bytes));
  } catch (error) {
    throw new DeployError(`${STATE_KEY} in the bucket is not a deploy state (${(error as Error).message}): remove it, or deploy to another prefix`);
  }
  const record = (v: unknown): v is Record<string, string> => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((h) => typeof h === 'string');
  const state = value as { format?: unknown; objects?: unknown; retired?: unknown };
  if (typeof value !== 'object' || value === null || state.format !== STATE_FORMAT || !record(state.objects) || !record(state.retired)) {
    throw new DeployError(`${STATE_KEY} in the bucket is not a deploy state of format ${STATE_FORMAT} (written by another version?): remove it to upload everything again`);
  }
  return { objects: state.objects, retired: state.retired };
}

async function readPending(store: ObjectStore): Promise<string[]> {
  const bytes = await store.get(PENDING_KEY);
  if (bytes === undefined) return [];
  try {
    const keys: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (Array.isArray(keys) && keys.every((key) => typeof key === 'string')) return keys;
  } catch {
    // Reported below.
  }
  throw new DeployError(`${PENDING_KEY} in the bucket is not a list of keys: remove it (and ${STATE_KEY}) to upload everything again`);
}

/** The state is stored gzipped (keys compress well; a 10k-skill tree's state is about 2 MB gzipped). */
async function writeState(store: ObjectStore, state: DeployState): Promise<void> {
  const text = JSON.stringify({ format: STATE_FORMAT, generator: 'skills-api deploy', objects: state.objects, retired: state.retired });
  await store.put(STATE_KEY, gzipSync(text), { contentType: 'application/json', cacheControl: 'no-store', contentEncoding: 'gzip' });
}

async function writeJson(store: ObjectStore, key: string, value: unknown): Promise<void> {
  await store.put(key, new TextEncoder().encode(JSON.stringify(value)), { contentType: 'application/json', cacheControl: 'no-store' });
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}
