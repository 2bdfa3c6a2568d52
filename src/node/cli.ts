/**
 * What `npm start` and `npm run serve` share: flag checks, the manifest check, and serving until
 * SIGINT/SIGTERM (clean shutdown, exit 0). The library function `startServer` never touches the
 * process; only these entry points do.
 */
import type { Manifest } from '../manifest.ts';
import { checkManifest } from '../manifest.ts';
import { MANIFEST_PATH } from '../paths.ts';
import { fsLoader } from './fs-loader.ts';
import { parseRateLimit, type RateLimitOptions } from './rate-limit.ts';
import { startServer } from './server.ts';

/** A folder for messages: `public` and `public/` both print as `public/`. */
export function folder(dir: string): string {
  return `${dir.replace(/\/+$/, '')}/`;
}

/** A wrong command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/**
 * Run a command's `main`, turning failures into one clear message on stderr: usage errors (from
 * node:util parseArgs too, e.g. an unknown flag) with the usage text and exit code 2, anything else
 * with exit code 1.
 */
export function runCommand(name: string, usage: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    const code = (error as { code?: unknown } | null)?.code;
    if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_'))) {
      console.error(`${name}: ${(error as Error).message}\n\n${usage}`);
      process.exitCode = 2;
      return;
    }
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    // exitCode, not exit(): nothing else runs, and stderr is flushed before the process ends.
    process.exitCode = 1;
  });
}

/** The port from `--port`, else the `PORT` environment variable, else 3000. */
export function readPort(flag: string | undefined, env: string | undefined): number {
  const [value, source] = flag !== undefined ? [flag, '--port'] : env !== undefined && env !== '' ? [env, 'PORT'] : ['3000', ''];
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new UsageError(`${source} must be a port number from 0 to 65535, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** `--rate-limit N/min` (or `N/s`, `N/h`, bare `N` per minute): at most N API requests per window per client address. */
export function readRateLimit(flag: string | undefined): RateLimitOptions | undefined {
  if (flag === undefined) return undefined;
  const options = parseRateLimit(flag);
  if (options === undefined) throw new UsageError(`--rate-limit must be N/s, N/min or N/h (N a positive whole number; a bare N is per minute), got ${JSON.stringify(flag)}`);
  return options;
}

/**
 * The manifest of an output folder, or undefined when it has none. A manifest of another format
 * version or shape throws, naming what is wrong.
 */
export async function readManifest(dir: string): Promise<Manifest | undefined> {
  const value = await fsLoader(dir)(MANIFEST_PATH);
  return value === undefined ? undefined : checkManifest(value);
}

/**
 * Serve `dir` until SIGINT or SIGTERM, printing one line:
 * `Skills Directory API on http://localhost:3000 (N skills from public/)`.
 */
export async function serveUntilSignal(options: { dir: string; port: number; host: string | undefined; rateLimit: RateLimitOptions | undefined; manifest: Manifest }): Promise<void> {
  const { dir, port, host, rateLimit, manifest } = options;
  const running = await startServer({ dir, port, ...(host === undefined ? {} : { host }), ...(rateLimit === undefined ? {} : { rateLimit }) }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') throw error;
      throw new Error(`port ${port} is already in use: choose another with --port or PORT`, { cause: error });
    },
  );
  const skills = `${manifest.skillCount} skill${manifest.skillCount === 1 ? '' : 's'}`;
  console.log(`Skills Directory API on ${running.url} (${skills} from ${folder(dir)})`);
  const stop = () => {
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Error while closing the server:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
