/**
 * The npm package as a consumer gets it: `npm pack` (which compiles dist/ through `prepare`), the
 * tarball installed into an empty project, then plain Node 20 with no TypeScript loader, a strict
 * TypeScript consumer, and the `skills-api` bin of the installed package. Also installed as a git
 * dependency (the README's install from a tag before any publish): from a clone of this working
 * tree's HEAD (committed work only), where npm installs the dev dependencies and runs `prepare`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContentFolder } from './helpers/fixture-content.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

/** `run`, failing with its output when it fails. */
async function ok(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await run(command, args, cwd, env);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

let work: string;
let project: string;
let tarball: string;
let files: string[];
/** The project that installed the package as a git dependency. */
let gitProject: string;

/** Install this repository's HEAD into an empty project as `git+file://…#HEAD`, as npm installs a git dependency. */
async function installFromGit(): Promise<void> {
  const clone = join(work, 'repository');
  await ok('git', ['clone', '--quiet', ROOT, clone], work);
  gitProject = join(work, 'git-consumer');
  await ok('mkdir', ['-p', gitProject], work);
  await writeFile(join(gitProject, 'package.json'), JSON.stringify({ name: 'git-consumer', version: '1.0.0', type: 'module', private: true }));
  // The install npm runs in its own clone (dev dependencies, then `prepare`) reads npm's settings
  // from the environment: from the cache when `npm ci` of this repository fetched them.
  await ok('npm', ['install', '--no-audit', '--no-fund', `git+file://${clone}#HEAD`], gitProject, { ...process.env, npm_config_prefer_offline: 'true' });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'package-'));
  // The slow one (a few minutes: npm installs every dev dependency in its clone) runs meanwhile.
  const fromGit = installFromGit();
  fromGit.catch(() => undefined);
  project = join(work, 'consumer');
  const packed = JSON.parse(await ok('npm', ['pack', '--json', '--pack-destination', work], ROOT)) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, packed[0]!.filename);
  files = packed[0]!.files.map((f) => f.path).sort();
  await ok('mkdir', ['-p', project], work);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }));
  // Dependencies come from npm's cache when `npm ci` of this repository already fetched them.
  await ok('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], project);
  await ok(process.execPath, [join(project, 'node_modules', '.bin', 'skills-api'), 'build', '--content', join(ROOT, 'content'), '--out', 'built'], project);
  await fromGit;
}, 600_000);

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

describe('the package installed from git (github:OWNER/skills-directory-api#<tag>)', () => {
  it('has dist/ built by prepare; skills-api --version and build run', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const bin = join(gitProject, 'node_modules', '.bin', 'skills-api');
    expect(await readdir(join(gitProject, 'node_modules', 'skills-directory-api', 'dist'))).toEqual(expect.arrayContaining(['builder', 'cli', 'shared', 'site', 'src']));
    expect((await ok(process.execPath, [bin, '--version'], gitProject)).trim()).toBe(pkg.version);
    const content = await createContentFolder({ skills: 2 });
    try {
      const built = await ok(process.execPath, [bin, 'build', '--content', content.dir, '--out', 'tiny'], gitProject);
      expect(built).toMatch(/^Built 2 skills from /);
      const manifest = JSON.parse(await readFile(join(gitProject, 'tiny', 'api', 'v1', 'manifest.json'), 'utf8')) as { skillCount: number; generator: unknown };
      expect(manifest).toMatchObject({ skillCount: 2, generator: { name: 'skills-directory-api', version: pkg.version } });
    } finally {
      await content.remove();
    }
  }, 60_000);
});

describe('the npm package', () => {
  it('ships dist/, the bin, the docs and the README, nothing of the sources, tests, content or scripts', () => {
    const top = new Set(files.map((path) => path.split('/')[0]));
    expect([...top].sort()).toEqual(['CHANGELOG.md', 'README.md', 'bin', 'content', 'dist', 'docs', 'package.json', 'sources.json']);
    expect(files.filter((path) => path.startsWith('content/'))).toEqual(['content/categories.json', 'content/platforms.json']);
    expect(files).toContain('dist/src/client.js');
    expect(files).toContain('dist/src/client.d.ts');
    expect(files).toContain('dist/site/sw.js');
    expect(files.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
  });

  it('installs for a client without the build tools, the TypeScript loader, the MCP SDK or the S3 client', async () => {
    const installed = await readdir(join(project, 'node_modules'));
    for (const heavy of ['tsx', 'esbuild', '@modelcontextprotocol', '@aws-sdk', 'typescript', 'vitest']) expect(installed).not.toContain(heavy);
    const all = (await ok('npm', ['ls', '--all', '--parseable'], project)).trim().split('\n');
    // 37 when this was written (134 before the package was compiled and trimmed): a guard, not a figure.
    expect(all.length - 1).toBeLessThan(60);
  });

  it('loads in plain Node 20 with no loader: client, handler, bundle reader and the Node host answer a search', async () => {
    const script = `
      import { createClient } from 'skills-directory-api/client';
      import { createHandler } from 'skills-directory-api';
      import { bundleLoader, readBundle } from 'skills-directory-api/bundle';
      import { fsLoader } from 'skills-directory-api/node';
      const client = createClient({ loader: fsLoader('built') });
      const found = await client.searchSkills({ q: 'name:docker', limit: 3 });
      const handler = createHandler(fsLoader('built'));
      const answer = await handler(new Request('http://localhost/api/v1/skills/autocomplete?q=kub'));
      console.log(JSON.stringify({ ids: found.data.map((s) => s.id), status: answer.status, first: (await answer.json()).data[0], bundle: typeof readBundle + typeof bundleLoader }));
    `;
    await writeFile(join(project, 'use.mjs'), script);
    const result = await run(process.execPath, ['use.mjs'], project);
    expect(result.stderr).toBe('');
    const out = JSON.parse(result.stdout) as { ids: string[]; status: number; first: { text: string; count: number }; bundle: string };
    expect(out.ids).toContain('shipyard-ops/docker-compose-helper');
    expect(out.status).toBe(200);
    expect(out.first.text).toBe('kubernetes');
    expect(out.bundle).toBe('functionfunction');
  });

  it('type-checks in a strict NodeNext consumer; the Node-free entry points need no Node types', async () => {
    const strict = {
      strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2022', 'DOM'],
      exactOptionalPropertyTypes: true, noPropertyAccessFromIndexSignature: true, noUncheckedIndexedAccess: true,
      noEmit: true, skipLibCheck: false,
    };
    await writeFile(
      join(project, 'web.ts'),
      `import { createClient, type SkillsClient } from 'skills-directory-api/client';
import { createHandler, mapLoader, type SearchResult } from 'skills-directory-api';
import { bundleLoader, readBundle } from 'skills-directory-api/bundle';
const client: SkillsClient = createClient({ baseUrl: 'https://example.com' });
export async function first(): Promise<SearchResult | undefined> {
  return (await client.searchSkills({ q: 'pdf', limit: 5 })).data[0];
}
export const handler = createHandler(mapLoader(new Map()));
export const fromBundle = async (bytes: Uint8Array) => createHandler(bundleLoader(await readBundle(bytes)));
`,
    );
    await writeFile(
      join(project, 'node.ts'),
      `import { fsLoader, startServer } from 'skills-directory-api/node';
import { runBuild } from 'skills-directory-api/build';
export async function go(): Promise<void> {
  await runBuild({ contentDir: 'content', outDir: 'out' });
  const server = await startServer({ dir: 'out', port: 0 });
  await server.close();
  void fsLoader('out');
}
`,
    );
    await writeFile(join(project, 'tsconfig.web.json'), JSON.stringify({ compilerOptions: { ...strict, types: [] }, files: ['web.ts'] }));
    await writeFile(
      join(project, 'tsconfig.node.json'),
      JSON.stringify({ compilerOptions: { ...strict, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] }, files: ['node.ts'] }),
    );
    const web = await run(process.execPath, [TSC, '-p', 'tsconfig.web.json'], project);
    expect(web.stdout + web.stderr).toBe('');
    const node = await run(process.execPath, [TSC, '-p', 'tsconfig.node.json'], project);
    expect(node.stdout + node.stderr).toBe('');
    // The check can fail: a wrong type in the consumer is reported.
    await writeFile(join(project, 'wrong.ts'), `import { createClient } from 'skills-directory-api/client';\nexport const n: number = createClient({ baseUrl: 'x' });\n`);
    await writeFile(join(project, 'tsconfig.wrong.json'), JSON.stringify({ compilerOptions: { ...strict, types: [] }, files: ['wrong.ts'] }));
    expect((await run(process.execPath, [TSC, '-p', 'tsconfig.wrong.json'], project)).stdout).toMatch(/error TS2322/);
  }, 180_000);

  it('the Node-free entry points type-check for a Node-only consumer (no DOM library, skipLibCheck off)', async () => {
    await writeFile(
      join(project, 'node-only.ts'),
      `import { createClient } from 'skills-directory-api/client';
import { createHandler, mapLoader, withHostPolicy, ENDPOINTS } from 'skills-directory-api';
import { readBundle } from 'skills-directory-api/bundle';
export const client = createClient({ baseUrl: 'https://example.com' });
export const handler = withHostPolicy(createHandler(mapLoader(new Map())), { caching: {} });
export const path: string = ENDPOINTS.getSkill.path;
export const read = readBundle;
`,
    );
    const options = {
      strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2022'], noEmit: true, skipLibCheck: false,
      types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')],
    };
    await writeFile(join(project, 'tsconfig.node-only.json'), JSON.stringify({ compilerOptions: options, files: ['node-only.ts'] }));
    const checked = await run(process.execPath, [TSC, '-p', 'tsconfig.node-only.json'], project);
    expect(checked.stdout + checked.stderr).toBe('');
  }, 120_000);

  it('npx skills-api: --help lists every command; search answers; mcp says how to add its optional SDK', async () => {
    const help = await run('npx', ['--no-install', 'skills-api', '--help'], project);
    expect(help.code).toBe(0);
    for (const command of ['build', 'start', 'dev', 'serve', 'import', 'bundle', 'deploy', 'search', 'show', 'list', 'categories', 'mcp']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
    const search = await run('npx', ['--no-install', 'skills-api', 'search', 'docker', '--dir', 'built', '--json', '--limit', '1'], project);
    expect(search.code).toBe(0);
    expect((JSON.parse(search.stdout) as { data: { id: string }[] }).data[0]!.id).toBe('shipyard-ops/docker-compose-helper');
    const mcp = await run('npx', ['--no-install', 'skills-api', 'mcp', '--dir', 'built'], project);
    expect(mcp.code).toBe(1);
    expect(mcp.stderr).toBe('skills-api: skills-api mcp needs the MCP SDK, an optional peer dependency: npm install @modelcontextprotocol/sdk\n');
    const deploy = await run('npx', ['--no-install', 'skills-api', 'deploy', 'built', '--to', 's3://bucket'], project);
    expect(deploy.code).toBe(1);
    expect(deploy.stderr).toBe('skills-api: skills-api deploy needs the AWS SDK S3 client, an optional peer dependency: npm install @aws-sdk/client-s3\n');
  }, 60_000);

  it('the Node host without the MCP SDK: /mcp answers a JSON error saying what to install, the API answers as ever', async () => {
    const script = `
      import { startServer } from 'skills-directory-api/node';
      const server = await startServer({ dir: 'built', port: 0, host: '127.0.0.1' });
      const mcp = await fetch(server.url + '/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      const list = await fetch(server.url + '/api/v1/skills?limit=1');
      console.log(JSON.stringify({ status: mcp.status, body: await mcp.json(), list: list.status }));
      await server.close();
    `;
    await writeFile(join(project, 'mcp-http.mjs'), script);
    const result = await run(process.execPath, ['mcp-http.mjs'], project);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      status: 501,
      body: { error: { code: 'SERVER_ERROR', message: 'MCP over HTTP needs the MCP SDK, an optional peer dependency of this server: npm install @modelcontextprotocol/sdk' } },
      list: 200,
    });
  }, 60_000);
});
