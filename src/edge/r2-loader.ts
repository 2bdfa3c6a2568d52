/**
 * The Worker's tree in an R2 bucket instead of its static assets (docs/edge.md "The tree in R2"):
 * `skills-api deploy <dir> --to s3://<bucket>[/<prefix>]` puts the build output there, with no
 * limit on the number of files. Three pieces, so worker.ts stays the same thin host:
 *
 * - `r2Loader`: the handler's loader, a file of the tree read with `bucket.get`;
 * - `r2Files`: the bucket seen as the static-assets binding (`fetch` by URL path), for the files
 *   the Worker serves as they are (search index files, the demo page);
 * - `r2Handler`: one handler per published manifest. A deploy replaces the bucket's objects under
 *   a running isolate, so the isolate looks at the manifest's ETag at most every
 *   `refreshSeconds` and starts a new handler (with an empty file cache) when it changed. Files
 *   the previous manifest named stay in the bucket until the next deploy (docs/deploy.md), so an
 *   isolate still answering from it finds them.
 *
 * Runtime core: no Node built-ins; the R2 types are the little this code uses.
 */
import type { Handler } from '../handler.ts';
import { assertSafePath, type Loader } from '../loader.ts';
import { ApiError } from '../errors.ts';
import { MANIFEST_PATH } from '../paths.ts';
import type { AssetsBinding } from './assets-loader.ts';

/** What the Worker reads of an R2 object's metadata. */
export interface R2ObjectLike {
  readonly size: number;
  readonly httpEtag: string;
  readonly httpMetadata?: { contentType?: string; contentEncoding?: string };
}

/** An R2 object with its body. */
export interface R2ObjectBodyLike extends R2ObjectLike {
  readonly body: ReadableStream<Uint8Array>;
  text(): Promise<string>;
}

/** The part of a Workers R2 bucket binding the Worker uses. */
export interface R2BucketLike {
  get(key: string): Promise<R2ObjectBodyLike | null>;
  head(key: string): Promise<R2ObjectLike | null>;
}

/** `prefix/path`, or `path` for the bucket's root (prefix without leading or trailing `/`). */
function keyOf(prefix: string, path: string): string {
  const clean = prefix.replace(/^\/+|\/+$/g, '');
  return clean === '' ? path : `${clean}/${path}`;
}

/**
 * Loader over the bucket: `path` (e.g. `api/v1/manifest.json`) is the object `<prefix>/<path>`;
 * no object resolves `undefined`, a body that is not JSON rejects (the handler's 500).
 */
export function r2Loader(bucket: R2BucketLike, prefix = ''): Loader {
  return async (path) => {
    assertSafePath(path);
    const key = keyOf(prefix, path);
    const object = await bucket.get(key);
    // No manifest: nothing deployed there, or the Worker looks under another prefix than the deploy's.
    if (object === null && path === MANIFEST_PATH) {
      throw new ApiError('SERVER_ERROR', `no ${key} in the R2 bucket bound as TREE: deploy the build there (skills-api deploy <dir> --to s3://<bucket>/<prefix>) and set TREE_PREFIX to that prefix (now ${JSON.stringify(prefix)})`);
    }
    if (object === null) return undefined;
    return JSON.parse(await object.text());
  };
}

/**
 * The bucket as the Worker's static-assets binding: a GET or HEAD of `/<path>` answers the object
 * `<prefix>/<path>` with its stored `Content-Type` and its ETag (`/` and paths ending in `/` name
 * their `index.html`), or a 404. The deploy's own `.skills-api-deploy*` objects and `.`/`..`
 * segments are never served.
 */
export function r2Files(bucket: R2BucketLike, prefix = ''): AssetsBinding {
  return {
    async fetch(input, init) {
      const request = new Request(input, init);
      const path = objectPath(new URL(request.url).pathname);
      const head = request.method === 'HEAD';
      if (path === undefined) return new Response(null, { status: 404 });
      const object = head ? await bucket.head(keyOf(prefix, path)) : await bucket.get(keyOf(prefix, path));
      if (object === null) return new Response(null, { status: 404 });
      const headers = new Headers({ etag: object.httpEtag, 'content-length': String(object.size) });
      const meta = object.httpMetadata ?? {};
      if (meta.contentType !== undefined) headers.set('content-type', meta.contentType);
      if (meta.contentEncoding !== undefined) headers.set('content-encoding', meta.contentEncoding);
      return new Response(head ? null : (object as R2ObjectBodyLike).body, { status: 200, headers });
    },
  };
}

/** The object path of a URL path, or undefined for one the bucket never serves. */
function objectPath(pathname: string): string | undefined {
  let segments: string[];
  try {
    segments = pathname.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  if (segments.at(-1) === '') segments[segments.length - 1] = 'index.html';
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.includes('/') || segment.includes('\\'))) return undefined;
  // The deploy's own objects at the tree's root are never served; other dot-files are the tree's
  // (`.well-known/agent-skills/` discovery indexes, a skill's own `.env.example`).
  if (segments.length === 1 && segments[0]!.startsWith(DEPLOY_OBJECT_PREFIX)) return undefined;
  return segments.join('/');
}

/** Names of the objects `skills-api deploy` keeps beside the tree (src/node/deploy.ts). */
const DEPLOY_OBJECT_PREFIX = '.skills-api-deploy';

interface Current {
  etag: string | undefined;
  handler: Handler;
  checkedAt: number;
}

/** The handler of each bucket binding and prefix an isolate has seen. */
const current = new WeakMap<R2BucketLike, Map<string, Current>>();

/**
 * The handler for the tree in `bucket` under `prefix`, made by `create` over its loader: the same
 * one until the manifest's ETag changes, looked at no more often than every `refreshSeconds`
 * (0: every request).
 */
export async function r2Handler(bucket: R2BucketLike, prefix: string, refreshSeconds: number, create: (loader: Loader) => Handler): Promise<Handler> {
  let byPrefix = current.get(bucket);
  if (byPrefix === undefined) current.set(bucket, (byPrefix = new Map()));
  const known = byPrefix.get(prefix);
  const now = Date.now();
  if (known !== undefined && now - known.checkedAt < refreshSeconds * 1000) return known.handler;
  const etag = (await bucket.head(keyOf(prefix, MANIFEST_PATH)))?.httpEtag;
  // A bucket with no manifest yet keeps no handler: the next request looks again.
  if (known !== undefined && known.etag === etag && etag !== undefined) {
    known.checkedAt = now;
    return known.handler;
  }
  const handler = create(r2Loader(bucket, prefix));
  byPrefix.set(prefix, { etag, handler, checkedAt: etag === undefined ? -Infinity : now });
  return handler;
}
