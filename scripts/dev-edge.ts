/**
 * `npm run dev:edge [-- --port 8787] [--dir public] [--content content] [--r2 [--prefix P]]`: the Cloudflare Worker
 * (src/edge/worker.ts) run locally in workerd, the real Workers runtime, through miniflare's API,
 * configured from wrangler.toml (compatibility date, assets binding, `run_worker_first`) with
 * the build output as its static assets. Builds the content first when the output has no
 * manifest. With `--r2`, the Worker reads the tree from a local R2 bucket filled from the output
 * instead (docs/edge.md "The tree in R2"). Needs no network and no Cloudflare account: miniflare's `Request.cf` download is
 * switched off, and wrangler (with its telemetry and update checks) is not involved.
 *
 * `startEdge()` and `bundleWorker()` are also what test/contract-worker.test.ts runs.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { Log, LogLevel, Miniflare } from 'miniflare';
import { runBuild } from '../builder/build.ts';
import { readOutput } from '../src/node/deploy.ts';
import { MANIFEST_PATH } from '../src/paths.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const WRANGLER_TOML = join(ROOT, 'wrangler.toml');
const DEFAULT_PORT = 8787;

/** What the local run takes from wrangler.toml, so local and deployed Workers match. */
export interface EdgeConfig {
  /** Worker entry, relative to the repository root. */
  main: string;
  compatibilityDate: string;
  /** `[assets] directory`, relative to the repository root. */
  assetsDirectory: string;
  /** `[assets] binding`. */
  binding: string;
  /** `[assets] run_worker_first` patterns (`!`-prefixed ones go to the assets). */
  runWorkerFirst: string[];
}

/**
 * Read the keys the local run needs from wrangler.toml. Only the TOML this repository writes is
 * understood (`key = "string"`, `key = ["a", "b"]`, `key = true`, `[table]` headers, `#`
 * comments), which is enough for one file we own; a missing or malformed key names itself.
 */
export function readWranglerConfig(text: string, file = 'wrangler.toml'): EdgeConfig {
  const values = new Map<string, unknown>();
  // Every malformed line and missing key is reported, not only the first.
  const problems: string[] = [];
  let table = '';
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[([A-Za-z0-9_.-]+)\]$/.exec(line);
    if (header !== null) {
      table = `${header[1]}.`;
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
    if (pair === null) {
      problems.push(`${file}:${index + 1}: expected key = value or [table], got ${JSON.stringify(line)}`);
      continue;
    }
    try {
      // Basic strings, booleans and arrays of basic strings are also JSON.
      values.set(`${table}${pair[1]}`, JSON.parse(pair[2]!));
    } catch {
      problems.push(`${file}:${index + 1} → ${table}${pair[1]}: unsupported value ${pair[2]}`);
    }
  }
  const str = (key: string): string => {
    const value = values.get(key);
    if (typeof value === 'string' && value !== '') return value;
    problems.push(`${file} → ${key}: expected a non-empty string`);
    return '';
  };
  const config: EdgeConfig = {
    main: str('main'),
    compatibilityDate: str('compatibility_date'),
    assetsDirectory: str('assets.directory'),
    binding: str('assets.binding'),
    runWorkerFirst: [],
  };
  const patterns = values.get('assets.run_worker_first');
  if (Array.isArray(patterns) && patterns.every((p) => typeof p === 'string')) config.runWorkerFirst = patterns;
  else problems.push(`${file} → assets.run_worker_first: expected an array of path patterns`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return config;
}

/** wrangler.toml of this repository, read. */
export async function edgeConfig(): Promise<EdgeConfig> {
  return readWranglerConfig(await readFile(WRANGLER_TOML, 'utf8'));
}

/**
 * Bundle the Worker entry into one ES module, as `wrangler deploy` does. The `browser` platform
 * makes a Node built-in reaching the runtime core a bundling error.
 */
export async function bundleWorker(entry?: string): Promise<string> {
  const result = await build({
    entryPoints: [entry ?? join(ROOT, (await edgeConfig()).main)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export interface EdgeOptions {
  /** Folder served as the Worker's static assets (a build output). */
  dir: string;
  /** Port to listen on; 0 picks a free one. Default 0. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** The bundled Worker; default `bundleWorker()`. */
  script?: string;
  /** Miniflare's log level; default warnings and errors. */
  logLevel?: LogLevel;
  /**
   * Serve `dir` from a local R2 bucket bound as `TREE` instead of static assets (docs/edge.md "The
   * tree in R2"): the bucket is filled with the objects `skills-api deploy` would upload, under
   * `prefix`. The isolate looks for a new manifest every `refreshSeconds` (default 30).
   */
  r2?: { prefix?: string; refreshSeconds?: number };
}

export interface RunningEdge {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:8787`. */
  url: string;
  port: number;
  /** Stop workerd. */
  close(): Promise<void>;
  /** With `r2`: put another build output into the bucket, as a deploy would (nothing is deleted). */
  fill?(dir: string): Promise<void>;
}

/** Run the Worker in workerd over `dir`, configured like wrangler.toml; resolves once it listens. */
export async function startEdge(options: EdgeOptions): Promise<RunningEdge> {
  const config = await edgeConfig();
  const script = options.script ?? (await bundleWorker());
  // What wrangler sends for an array `run_worker_first`.
  const assets = {
    directory: resolve(options.dir),
    binding: config.binding,
    routerConfig: {
      has_user_worker: true,
      invoke_user_worker_ahead_of_assets: false,
      static_routing: {
        user_worker: config.runWorkerFirst.filter((p) => !p.startsWith('!')),
        asset_worker: config.runWorkerFirst.filter((p) => p.startsWith('!')).map((p) => p.slice(1)),
      },
    },
    assetConfig: { not_found_handling: 'none' as const, has_static_routing: true },
  };
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: config.compatibilityDate,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    // The `Request.cf` placeholder instead of a download from workers.cloudflare.com.
    cf: false,
    log: new Log(options.logLevel ?? LogLevel.WARN),
    ...(options.r2 === undefined
      ? { assets }
      : {
          r2Buckets: [R2_BINDING],
          bindings: { TREE_PREFIX: options.r2.prefix ?? '', TREE_REFRESH_SECONDS: String(options.r2.refreshSeconds ?? 30) },
        }),
  });
  let url: URL;
  try {
    url = await mf.ready;
  } catch (error) {
    await mf.dispose().catch(() => undefined);
    throw error;
  }
  const running: RunningEdge = { url: url.origin, port: Number(url.port), close: () => mf.dispose() };
  if (options.r2 !== undefined) {
    const prefix = options.r2.prefix ?? '';
    // Miniflare types the bucket with @cloudflare/workers-types, which this project does not install.
    running.fill = async (dir) => fillBucket((await mf.getR2Bucket(R2_BINDING)) as unknown as LocalBucket, dir, prefix);
    try {
      await running.fill(options.dir);
    } catch (error) {
      await mf.dispose().catch(() => undefined);
      throw error;
    }
  }
  return running;
}

/** The R2 binding name the Worker reads the tree from (src/edge/worker.ts `Env.TREE`). */
const R2_BINDING = 'TREE';

/** The part of miniflare's R2 bucket the fill uses. */
interface LocalBucket {
  put(key: string, value: ArrayBuffer, options: { httpMetadata: { contentType: string; cacheControl: string } }): Promise<unknown>;
}

/** Put every object `skills-api deploy` would publish from `dir` into a local R2 bucket, as it would (the manifest last). */
async function fillBucket(bucket: LocalBucket, dir: string, prefix: string): Promise<void> {
  const all = await readOutput(dir);
  const clean = prefix.replace(/^\/+|\/+$/g, '');
  const put = async (object: (typeof all)[number]) => {
    const key = clean === '' ? object.key : `${clean}/${object.key}`;
    // An ArrayBuffer of its own: miniflare's proxy does not pass a Node Buffer (a view of a shared pool).
    const bytes = await readFile(object.file);
    await bucket.put(key, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, { httpMetadata: { contentType: object.contentType, cacheControl: object.cacheControl } });
  };
  const tree = all.filter((o) => o.key !== MANIFEST_PATH);
  for (let start = 0; start < tree.length; start += 16) await Promise.all(tree.slice(start, start + 16).map(put));
  await put(all.find((o) => o.key === MANIFEST_PATH)!);
}

const USAGE = 'usage: npm run dev:edge -- [--port 8787] [--dir public] [--content content] [--r2 [--prefix P]]';

/**
 * Command line: build if needed, start, print the URL, stop on Ctrl-C. Exit codes: 1 the build
 * or workerd failed (port in use, ...), 2 bad command line.
 */
async function main(argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string', default: String(DEFAULT_PORT) },
        dir: { type: 'string' },
        content: { type: 'string', default: 'content' },
        r2: { type: 'boolean', default: false },
        prefix: { type: 'string', default: '' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    console.error(`error: --port must be an integer from 0 to 65535, got ${JSON.stringify(values.port)}\n${USAGE}`);
    return 2;
  }
  try {
    const dir = values.dir ?? (await edgeConfig()).assetsDirectory;
    if (!existsSync(join(dir, ...MANIFEST_PATH.split('/')))) {
      console.log(`no build in ${dir}: building ${values.content} …`);
      const report = await runBuild({ contentDir: values.content, outDir: dir });
      console.log(`built ${report.skills} skills into ${dir}: ${report.files} files`);
    }
    const edge = await startEdge({ dir, port, host: 'localhost', logLevel: LogLevel.INFO, ...(values.r2 ? { r2: { prefix: values.prefix } } : {}) });
    const from = values.r2 ? `a local R2 bucket filled from ${dir}` : dir;
    console.log(`edge Worker (workerd) serving ${from} at ${edge.url}  —  try ${edge.url}/api/v1/skills`);
    const stop = () => {
      void edge.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return 0;
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const code = await main(process.argv.slice(2));
  if (code !== 0) process.exit(code);
}
