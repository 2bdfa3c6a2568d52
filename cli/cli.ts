/**
 * Helpers of the one command line (skills-api.ts): flag checks that name the flag, the manifest
 * check of an output folder, folder names for messages. The library functions (`startServer`,
 * `runBuild`) never touch the process; only the command line does.
 */
import type { Manifest } from '../src/manifest.ts';
import { checkManifest } from '../src/manifest.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { fsLoader } from '../src/node/fs-loader.ts';
import { parseRateLimit, type RateLimitOptions } from '../src/node/rate-limit.ts';

/** A folder for messages: `public` and `public/` both print as `public/`. */
export function folder(dir: string): string {
  return `${dir.replace(/\/+$/, '')}/`;
}

/** A wrong command line: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
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

/** The checked manifest of a build output folder, else a clear error naming the folder. */
export async function builtManifest(dir: string): Promise<Manifest> {
  const manifest = await readManifest(dir);
  if (manifest === undefined) throw new Error(`${folder(dir)} is not a build output (no ${MANIFEST_PATH}): build it first with skills-api build --out ${dir}`);
  return manifest;
}

/** The one startup line of every command that serves: `Skills Directory API on http://localhost:3000 (62 skills from public/)`. */
export function startupLine(url: string, skills: number, from: string): string {
  return `Skills Directory API on ${url} (${skills} skill${skills === 1 ? '' : 's'} from ${from})\n`;
}

/**
 * The line after the startup line of `serve` and `start`: this package's version and the one that
 * built the served tree (the manifest's `generator`), so an operator sees a mismatch at once.
 */
export function versionLine(own: { name: string; version: string }, manifest: Manifest): string {
  const built = manifest.generator === undefined ? 'a version that did not record itself' : `${manifest.generator.name} ${manifest.generator.version}`;
  return `${own.name} ${own.version}, serving a build made by ${built}\n`;
}
