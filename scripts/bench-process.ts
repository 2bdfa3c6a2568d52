/**
 * Servers and builds for the benchmarks: start a server process and wait until it prints where it
 * listens; a synthetic build of N skills, made once and reused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runBuild } from '../builder/build.ts';
import { generate } from './gen.ts';

/** Start a server process and wait until it prints its URL (the first group of `urlPattern`). */
export function startProcess(command: string, args: string[], urlPattern: RegExp): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      const url = urlPattern.exec(seen)?.[1];
      if (url !== undefined) resolve({ child, url: url.replace('localhost', '127.0.0.1') });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}) before listening:\n${seen}`)));
  });
}

/** `skills-api serve` of the build output `dir` on a free loopback port, with `flags`. */
export function startServe(dir: string, flags: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  return startProcess(process.execPath, ['bin/skills-api.js', 'serve', '--dir', dir, '--port', '0', '--host', '127.0.0.1', ...flags], /on (http:\/\/\S+)/);
}

/**
 * The output folder of a build (no demo page) of `count` synthetic skills under `work`, generated
 * and built only when missing: `<work>/content-<count>` and `<work>/public-<count>`.
 */
export async function syntheticBuild(count: number, work: string): Promise<string> {
  const content = join(work, `content-${count}`);
  const out = join(work, `public-${count}`);
  if (!existsSync(join(out, 'api'))) {
    if (!existsSync(join(content, 'skills'))) await generate({ count, out: content, force: true });
    await runBuild({ contentDir: content, outDir: out, site: false });
  }
  return out;
}
