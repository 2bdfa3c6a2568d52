/**
 * `npm run bench:abuse [-- --only pipelining,worker,fair,http,build,markdown]`: bounded,
 * loopback-only runs of each hostile load of issue 15, printing figures for BENCHMARKS.md. Every
 * run has a fixed number of connections, requests and seconds, and stops by itself.
 *
 * - pipelining: `--sockets` connections (200) each send `--pipelined` (20) pipelined GETs of a
 *   1 MiB SKILL.md's `/content` and never read, while another client asks for the list `--probes`
 *   times (200): the Node server's peak RSS (from /proc, sampled) and that client's latencies.
 *   Three forms: one URL as in the issue, one URL gzipped, and a URL of its own per connection.
 * - worker: 400 open-phrase autocompletes, 16 at a time, on the Worker in workerd over a synthetic
 *   build of `--count` skills (10,000): the statuses, and whether every error is our JSON with CORS.
 * - fair: the same load on the Node server with list pages meanwhile (bench:fair's default run).
 * - http: odd methods, targets and ranges, sent raw to the Node server and the Worker.
 * - build: content with each amplification and spoofing case: what the build says, what it wrote.
 * - markdown: the page's parser on each 1 MiB hostile document (Chromium rendering is in
 *   test/page-a11y.test.ts, which records it in test-artifacts/hostile-render.json).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseMarkdown } from '../site/markdown.ts';
import { percentile } from './bench-engine.ts';
import { FAIR_TABLE_HEAD, HEAVY_URLS, fairRun } from './bench-fair.ts';
import { startServe, syntheticBuild } from './bench-process.ts';
import { startEdge } from './dev-edge.ts';
import { HOSTILE_MARKDOWN } from './hostile-markdown.ts';

const SECTIONS = ['pipelining', 'worker', 'fair', 'http', 'build', 'markdown'] as const;
const { values } = parseArgs({
  options: {
    only: { type: 'string', default: SECTIONS.join(',') },
    sockets: { type: 'string', default: '200' },
    pipelined: { type: 'string', default: '20' },
    probes: { type: 'string', default: '200' },
    count: { type: 'string', default: '10000' },
    work: { type: 'string', default: 'bench-out/abuse' },
  },
  strict: true,
});
const only = new Set(values.only.split(','));
for (const name of only) if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`--only: unknown section ${name}; known: ${SECTIONS.join(', ')}`);
const work = values.work;

const BIN = 'bin/skills-api.js';

/** Run `skills-api build` of `content` into `out`; its exit code and what it printed. */
function build(content: string, out: string): { code: number; output: string } {
  const run = spawnSync(process.execPath, [BIN, 'build', '--content', content, '--out', out], { encoding: 'utf8' });
  return { code: run.status ?? -1, output: `${run.stdout}${run.stderr}` };
}

/** The sample categories and platforms, and one skill whose SKILL.md is just under 1 MiB. */
function bigSkillBuild(): string {
  const content = join(work, 'content');
  const out = join(work, 'public');
  mkdirSync(join(content, 'skills', 'big', 'skill'), { recursive: true });
  for (const file of ['categories.json', 'platforms.json']) writeFileSync(join(content, file), readFileSync(join('content', file)));
  writeFileSync(join(content, 'skills', 'big', 'skill', 'SKILL.md'), `---\nname: Big\ndescription: A 1 MiB skill.\n---\n${'word '.repeat(209_000)}\n`);
  writeFileSync(
    join(content, 'skills', 'big', 'skill', 'skill.json'),
    JSON.stringify({ stars: 1, forks: 0, watchers: 0, openIssues: 0, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', pushedAt: '2025-01-01T00:00:00Z', author: { name: 'x', avatar: 'https://example.com/a.png' }, categories: ['development'], platforms: ['codex'] }),
  );
  const { code, output } = build(content, out);
  if (code !== 0) throw new Error(output);
  return out;
}

/** One pipelining attack on a fresh server; a row of the table. */
async function pipelining(out: string, label: string, encoding: string, urlOf: (socket: number) => string): Promise<string> {
  const sockets = Number(values.sockets);
  const { child: server, url } = await startServe(out);
  const port = Number(new URL(url).port);
  // The server's resident memory in MiB (its node process is the child itself: bin registers tsx in-process).
  const rss = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 50);
  const attackers: Socket[] = [];
  for (let i = 0; i < sockets; i++) {
    const request = `GET ${urlOf(i)} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: ${encoding}\r\n\r\n`.repeat(Number(values.pipelined));
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.pause();
    socket.on('error', () => undefined);
    attackers.push(socket);
  }
  // Let the attack build up: until the server has taken every connection's requests (its RSS stops
  // growing between two samples 250 ms apart), at most 10 s.
  for (let i = 0, last = 0; i < 40; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = rss();
    if (Math.abs(now - last) < 1 && i > 3) break;
    last = now;
  }
  const latencies: number[] = [];
  let failures = 0;
  for (let i = 0; i < Number(values.probes); i++) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/api/v1/skills?limit=5&n=${i}`, { signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      if (response.status !== 200) failures++;
    } catch {
      failures++;
    }
    latencies.push(performance.now() - started);
  }
  clearInterval(sampler);
  for (const socket of attackers) socket.destroy();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  return `| ${label} | ${before.toFixed(0)} MiB | **${peak.toFixed(0)} MiB** | ${percentile(latencies, 0.5).toFixed(1)} ms | ${percentile(latencies, 0.99).toFixed(1)} ms | ${failures} |`;
}

/** 400 heavy autocompletes, 16 at a time, against `base`; statuses and non-JSON errors. */
async function heavyLoad(base: string): Promise<string> {
  const statuses = new Map<number, number>();
  let foreign = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < 400) {
        const response = await fetch(`${base}${HEAVY_URLS[next++ % HEAVY_URLS.length]}`, { headers: { 'accept-encoding': 'identity' } });
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const ours = response.headers.get('content-type')?.startsWith('application/json') === true && response.headers.get('access-control-allow-origin') === '*' && text.startsWith('{');
        if (response.status !== 200 && !ours) foreign++;
      }
    }),
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const counts = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${n} × ${status}`).join(', ');
  return `${counts} in ${seconds} s; errors not in our JSON shape with CORS: ${foreign}`;
}

/** Send `request` raw to `port`; the status line and the content type of the answer (or how the connection ended). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const done = (): void => {
      const status = /^HTTP\/1\.1 (\d{3}[^\r]*)/.exec(text)?.[1];
      const type = /\r\ncontent-type: ([^;\r]+)/i.exec(text)?.[1];
      const length = /\r\ncontent-length: (\d+)/i.exec(text)?.[1];
      resolve(status === undefined ? `no answer (${text.length === 0 ? 'closed' : 'garbled'})` : `${status}${type === undefined ? '' : `, ${type}`}${length === undefined ? '' : `, ${length} bytes`}`);
      socket.destroy();
    };
    socket.setTimeout(5000, done);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      // The head is enough: a 200 of a whole file would otherwise be read to its end.
      if (text.includes('\r\n\r\n')) done();
    });
    socket.on('end', done);
    socket.on('error', done);
  });
}

const HTTP_CASES: ReadonlyArray<[string, string]> = [
  ['TRACE /api/v1/skills', 'TRACE /api/v1/skills HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['CONNECT x:443', 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n'],
  ['DELETE /api/v1/skills', 'DELETE /api/v1/skills HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n'],
  ['GET of a 65 KB path', `GET /api/v1/skills/${'a'.repeat(65_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ['GET of a target without a leading slash', 'GET api/v1/skills HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['Range past the end of the manifest', 'GET /api/v1/manifest.json HTTP/1.1\r\nHost: x\r\nRange: bytes=99999999-\r\n\r\n'],
  ['Range with If-None-Match: *', 'GET /api/v1/manifest.json HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\nIf-None-Match: *\r\n\r\n'],
  ['GET /index.html/', 'GET /index.html/ HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['GET with a malformed escape', 'GET /api/v1/skills/%E0%A4%A/x HTTP/1.1\r\nHost: x\r\n\r\n'],
];

/** Content with every amplification and spoofing case of the issue (each also a test in test/build-load-content.test.ts). */
function hostileContent(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  const skill = (path: string, front: string, json: Record<string, unknown> = {}): void => {
    mkdirSync(join(dir, path), { recursive: true });
    writeFileSync(join(dir, path, 'SKILL.md'), `---\n${front}\n---\nBody.\n`);
    writeFileSync(join(dir, path, 'skill.json'), JSON.stringify({ stars: 1, forks: 0, watchers: 0, openIssues: 0, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', pushedAt: '2025-01-01T00:00:00Z', author: { name: 'x', avatar: 'https://example.com/a.png' }, categories: ['development'], platforms: ['codex'], ...json }));
  };
  const categories = JSON.parse(readFileSync('content/categories.json', 'utf8')) as { categories: Array<{ translations?: Record<string, unknown> }> };
  // 2,000 locales (`xx-0` … `xx-1999`): 104,830 files for one skill before the limit.
  categories.categories[0]!.translations = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`xx-${String(i).padStart(2, '0')}`, { name: 'n' }]));
  categories.categories[1]!.translations = { de: { name: 'a' }, DE: { name: 'b' } };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'categories.json'), JSON.stringify(categories));
  writeFileSync(join(dir, 'platforms.json'), readFileSync('content/platforms.json'));
  for (let i = 0; i < 30; i++) skill(`skills/long/n${i}`, `name: ${'N'.repeat(200_000)}\ndescription: d`);
  skill('skills/spoof/bidi', 'name: "Official \\u202eloot yfitrec\\u202c by Anthropic"\ndescription: d');
  skill('skills/spoof/install', 'name: i\ndescription: d', { installCommands: { codex: 'npx x\nrm -rf ~' } });
  skill('skills/deep/yaml', `name: y\ndescription: d\nx: ${'['.repeat(5000)}${']'.repeat(5000)}`);
  skill('skills/huge/stars', 'name: s\ndescription: d', { stars: 1e20 });
  skill('skills/linked/market', 'name: m\ndescription: d');
  mkdirSync(join(dir, 'skills/linked/market/.claude-plugin'));
  writeFileSync(join(dir, 'outside.json'), '{}');
  symlinkSync(resolve(dir, 'outside.json'), join(dir, 'skills/linked/market/.claude-plugin/marketplace.json'));
}

/** Bytes and files under `dir` (0 when missing). */
function sizeOf(dir: string): { files: number; bytes: number } {
  if (!existsSync(dir)) return { files: 0, bytes: 0 };
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

const lines: string[] = [`# Hostile load (\`npm run bench:abuse\`), ${new Date().toISOString().slice(0, 10)}`, ''];
const print = (...more: string[]): void => {
  lines.push(...more);
  console.log(more.join('\n'));
};

if (only.has('pipelining')) {
  const out = bigSkillBuild();
  const sockets = Number(values.sockets);
  print(`## Pipelining: ${sockets} connections × ${values.pipelined} pipelined GETs of a 1 MiB /content, never read; another client asks for the list ${values.probes} times meanwhile`, '');
  print('| form | RSS before | peak RSS | other client p50 | p99 | failed |', '|---|---:|---:|---:|---:|---:|');
  print(await pipelining(out, 'one URL (the issue’s case)', 'identity', () => '/api/v1/skills/big/skill/content'));
  print(await pipelining(out, 'one URL, gzip', 'gzip', () => '/api/v1/skills/big/skill/content'));
  print(await pipelining(out, `a URL per connection (\`?n=\`), ${sockets} in all`, 'identity', (i) => `/api/v1/skills/big/skill/content?n=${i}`));
  print('');
}

if (only.has('worker') || only.has('fair')) {
  const count = Number(values.count);
  const out = await syntheticBuild(count, 'bench-out/fair');
  if (only.has('worker')) {
    const edge = await startEdge({ dir: out });
    try {
      print(`## The Worker in workerd: 400 open-phrase autocompletes, 16 at a time, ${count.toLocaleString('en')} skills`, '', await heavyLoad(edge.url), '');
    } finally {
      await edge.close();
    }
  }
  if (only.has('fair')) {
    print(`## Fair CPU on the Node server: the same 400 autocompletes, 16 at a time, and list pages meanwhile (${count.toLocaleString('en')} skills)`, '', FAIR_TABLE_HEAD);
    print(await fairRun(out, 'default (one search at a time, 8 ms slices)', [], { heavy: 400, concurrency: 16 }), '');
  }
}

if (only.has('http')) {
  const out = existsSync(join(work, 'public', 'api')) ? join(work, 'public') : bigSkillBuild();
  const { child, url } = await startServe(out);
  const edge = await startEdge({ dir: out });
  try {
    print('## Odd requests, sent raw', '', '| request | Node server | Worker (workerd) |', '|---|---|---|');
    for (const [label, request] of HTTP_CASES) {
      print(`| ${label} | ${await raw(Number(new URL(url).port), request)} | ${await raw(edge.port, request)} |`);
    }
    print('');
  } finally {
    child.kill('SIGTERM');
    await edge.close();
  }
}

if (only.has('build')) {
  const content = join(work, 'hostile-content');
  const out = join(work, 'hostile-public');
  hostileContent(content);
  rmSync(out, { recursive: true, force: true });
  // A build already there must survive a failed one.
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'kept.txt'), 'an earlier build');
  const started = performance.now();
  const { code, output } = build(content, out);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  // The build lists each problem on a line of its own, indented under its summary line.
  const problems = output.split('\n').filter((line) => line.startsWith('  ')).map((line) => line.trim());
  const { files, bytes } = sizeOf(out);
  print(`## The build on hostile content: exit ${code} in ${seconds} s, ${problems.length} problems; the output folder still holds ${files} file(s), ${bytes} bytes`, '');
  // Thirty lines of the same name problem say no more than one.
  const shown = problems.filter((line, i) => !line.startsWith('skills/long/') || problems.findIndex((other) => other.startsWith('skills/long/')) === i);
  print(...shown.map((line) => `- ${line}`));
  if (shown.length < problems.length) print(`- … and the same for the ${problems.length - shown.length} other 200,000-character names`);
  print('');
}

if (only.has('markdown')) {
  print('## The page’s Markdown parser on 1 MiB hostile documents (median of 3)', '', '| document | size | parse |', '|---|---:|---:|');
  for (const [name, text] of Object.entries(HOSTILE_MARKDOWN)) {
    const runs = [0, 1, 2].map(() => {
      const started = performance.now();
      parseMarkdown(text);
      return performance.now() - started;
    });
    print(`| ${name} | ${(text.length / 1024 / 1024).toFixed(2)} MiB | ${runs.sort((a, b) => a - b)[1]!.toFixed(0)} ms |`);
  }
  print('');
}

mkdirSync(work, { recursive: true });
writeFileSync(join(work, 'report.md'), `${lines.join('\n')}\n`);
console.log(`(also in ${join(work, 'report.md')})`);
