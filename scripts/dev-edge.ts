/**
 * `npm run dev:edge [-- --port 8787] [--dir public] [--content content]`: the Cloudflare Worker
 * (src/edge/worker.ts) run locally in workerd, the real Workers runtime, through miniflare's API,
 * configured from wrangler.toml (compatibility date, assets binding, `run_worker_first`) with
 * the build output as its static assets. Builds the content first when the output has no
 * manifest. Needs no network and no Cloudflare account: miniflare's `Request.cf` download is
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
import { runBuild } from '../build/build.ts';
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
}

export interface RunningEdge {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:8787`. */
  url: string;
  port: number;
  /** Stop workerd. */
  close(): Promise<void>;
}

/** Run the Worker in workerd over `dir`, configured like wrangler.toml; resolves once it listens. */
export async function startEdge(options: EdgeOptions): Promise<RunningEdge> {
  const config = await edgeConfig();
  const script = options.script ?? (await bundleWorker());
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: config.compatibilityDate,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    // The `Request.cf` placeholder instead of a download from workers.cloudflare.com.
    cf: false,
    log: new Log(options.logLevel ?? LogLevel.WARN),
    assets: {
      directory: resolve(options.dir),
      binding: config.binding,
      // What wrangler sends for an array `run_worker_first`.
      routerConfig: {
        has_user_worker: true,
        invoke_user_worker_ahead_of_assets: false,
        static_routing: {
          user_worker: config.runWorkerFirst.filter((p) => !p.startsWith('!')),
          asset_worker: config.runWorkerFirst.filter((p) => p.startsWith('!')).map((p) => p.slice(1)),
        },
      },
      assetConfig: { not_found_handling: 'none', has_static_routing: true },
    },
  });
  let url: URL;
  try {
    url = await mf.ready;
  } catch (error) {
    await mf.dispose().catch(() => undefined);
    throw error;
  }
  return { url: url.origin, port: Number(url.port), close: () => mf.dispose() };
}

const USAGE = 'usage: npm run dev:edge -- [--port 8787] [--dir public] [--content content]';

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
    const edge = await startEdge({ dir, port, host: 'localhost', logLevel: LogLevel.INFO });
    console.log(`edge Worker (workerd) serving ${dir} at ${edge.url}  —  try ${edge.url}/api/v1/skills`);
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
