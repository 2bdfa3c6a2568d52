/**
 * `npm run bench [-- --count N] [--content DIR] [--out DIR] [--duration S] [--skip-build]`: the scale benchmark
 * of issue 5, one run of each, printed as a Markdown section for BENCHMARKS.md
 * ("Build and server at scale").
 *
 * 1. generate N synthetic skills (scripts/gen.ts) unless `--content` names an existing folder;
 * 2. build them under `/usr/bin/time -v` (wall time, peak RSS), then list the output by kind of
 *    file against the input bytes;
 * 3. autocannon for `--duration` seconds (default 30) against `npm run serve` on that output with
 *    mixed canonical routes (lists with filters, details, search, autocomplete, 404s): errors,
 *    statuses, p99; then the same detail file through the Node server and through plain `serve`
 *    (node_modules/.bin/serve) in the same run, for the throughput ratio;
 * 4. faults and limits: the disk's floor (writing and removing as many files of the same
 *    sizes), the incremental build after one change (and back: byte-identical to the
 *    clean build), a build killed with SIGKILL at a random point (previous output unchanged, next
 *    build fine), 1,000 concurrent connections, `--rate-limit 60/min` from one client.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startProcess, startServe } from './bench-process.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    content: { type: 'string' },
    out: { type: 'string' },
    duration: { type: 'string', default: '30' },
    'skip-build': { type: 'boolean', default: false },
  },
});
const count = Number(values.count);
const duration = Number(values.duration);
const content = values.content ?? `/tmp/bench-content-${count}`;
const out = values.out ?? `/tmp/bench-out-${count}`;

const lines: string[] = [];
const say = (line = ''): void => {
  lines.push(line);
  console.log(line);
};

if (!existsSync(join(content, 'skills'))) run('npx', ['tsx', 'scripts/gen.ts', '--count', String(count), '--out', content]);
const input = walk(content);
say(`## Build and server at scale (${count.toLocaleString('en')} skills)`);
say();
say(`Machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`);
say(`Input: ${input.files.toLocaleString('en')} files, ${mb(input.bytes)}.`);
say();

// Build, under /usr/bin/time -v (one node process: `node --import tsx`, so RSS is the build's).
const buildStarted = performance.now();
const timed = values['skip-build']
  ? { status: 0, stdout: '', stderr: '(build skipped)' }
  : spawnSync('/usr/bin/time', ['-v', process.execPath, 'bin/skills-api.js', 'build', '--content', content, '--out', out], { encoding: 'utf8' });
const buildMs = performance.now() - buildStarted;
if (timed.status !== 0) throw new Error(`build failed:\n${timed.stdout}\n${timed.stderr}`);
const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (.+)/.exec(timed.stderr)?.[1] ?? '?';
const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(timed.stderr)?.[1] ?? 0);
const kinds = byKind(out);
const total = [...kinds.values()].reduce((a, k) => ({ files: a.files + k.files, bytes: a.bytes + k.bytes }), { files: 0, bytes: 0 });
say(`| build | wall | peak RSS | files | bytes | × input |`);
say(`|---|---|---|---|---|---|`);
say(`| full | ${wall} | ${(rssKb / 1024).toFixed(0)} MiB | ${total.files.toLocaleString('en')} | ${mb(total.bytes)} | ${(total.bytes / input.bytes).toFixed(2)} |`);
say();
say(`| kind | files | bytes | × input |`);
say(`|---|---|---|---|`);
for (const [kind, k] of [...kinds].sort((a, b) => b[1].bytes - a[1].bytes)) {
  say(`| ${kind} | ${k.files.toLocaleString('en')} | ${mb(k.bytes)} | ${(k.bytes / input.bytes).toFixed(2)} |`);
}
say();

// The disk's floor in the same run: the same number of files of the same sizes, written with plain
// writeFileSync into a fresh folder, then removed (the build writes a tree and removes the old one).
// With --skip-build these phases run on the output already there.
const haveOutput = existsSync(join(out, 'api/v1/manifest.json'));
if (haveOutput) {
  const floor = diskFloor(out);
  say(`Disk floor, same run: writing ${floor.files.toLocaleString('en')} files of the output's sizes with plain \`writeFileSync\` took ${(floor.writeMs / 1000).toFixed(1)} s, ` +
    `removing them ${(floor.removeMs / 1000).toFixed(1)} s (the build does both: it writes a new tree and removes the previous one).`);
  say();
}

// Incremental rebuild after one changed skill (its SKILL.md gets one more line), then the change
// put back and a second incremental build, whose output must equal the clean build's byte for byte.
if (haveOutput) {
  const clean = treeDigest(out);
  const skillsDir = join(content, 'skills');
  const owner = readdirSync(skillsDir).sort()[0]!;
  const skillFile = join(skillsDir, owner, readdirSync(join(skillsDir, owner)).sort()[0]!, 'SKILL.md');
  const original = readFileSync(skillFile);
  const incremental = (): { ms: number; stdout: string } => {
    const started = performance.now();
    const rebuilt = spawnSync(process.execPath, ['bin/skills-api.js', 'build', '--content', content, '--out', out, '--incremental'], { encoding: 'utf8' });
    if (rebuilt.status !== 0) throw new Error(`incremental build failed:\n${rebuilt.stderr}`);
    return { ms: performance.now() - started, stdout: rebuilt.stdout.trim() };
  };
  // The build cache is written by --incremental builds only: the first one after a clean build fills it.
  const warm = incremental();
  say(`First incremental build after the clean one (no change; fills the build cache): ${(warm.ms / 1000).toFixed(1)} s.`);
  let changed: { ms: number; stdout: string };
  try {
    writeFileSync(skillFile, Buffer.concat([original, Buffer.from('\nOne more line for the incremental benchmark.\n')]));
    changed = incremental();
  } finally {
    writeFileSync(skillFile, original);
  }
  const back = incremental();
  say(`Incremental rebuild after one changed skill: ${(changed.ms / 1000).toFixed(1)} s (${changed.stdout}). ` +
    `Change put back, incremental again: ${(back.ms / 1000).toFixed(1)} s, output ${treeDigest(out) === clean ? 'byte-identical to' : '**differs from**'} the clean build.`);
  say();

  // A build killed (SIGKILL) at a random point must leave the previous output as it was.
  // With --skip-build there is no build time: kill within the first minute.
  const killAt = 500 + Math.floor(Math.random() * Math.max(1000, (values['skip-build'] ? 60_000 : buildMs) * 0.9 - 500));
  const victim = spawn(process.execPath, ['bin/skills-api.js', 'build', '--content', content, '--out', out], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, killAt));
  victim.kill('SIGKILL');
  await new Promise((resolve) => victim.once('exit', resolve));
  const afterKill = treeDigest(out) === clean;
  const next = spawnSync(process.execPath, ['bin/skills-api.js', 'build', '--content', content, '--out', out], { encoding: 'utf8' });
  say(`Build killed with SIGKILL after ${(killAt / 1000).toFixed(1)} s: previous output ${afterKill ? 'unchanged' : '**changed**'}; ` +
    `next build ${next.status === 0 ? 'succeeded' : `**failed** (${next.status})`}, output ${treeDigest(out) === clean ? 'identical to' : '**differs from**'} the clean build.`);
  say();
}

// Server under load.
const detail = firstDetail(out);
const api = await startServe(out);
const routes = [
  '/api/v1/skills',
  '/api/v1/skills?sort=updated&order=desc&page=3',
  '/api/v1/skills?category=devops&platform=codex&limit=50',
  '/api/v1/skills?sort=name&order=asc&minStars=100&page=2',
  '/api/v1/skills?category=devops&sort=name&order=asc&page=2',
  '/api/v1/categories/security/skills?sort=updated&page=2&limit=10',
  `/api/v1/skills/${detail}`,
  `/api/v1/skills/${detail}/content`,
  `/api/v1/skills/${detail}/stats`,
  '/api/v1/categories?locale=de',
  '/api/v1/skills/search?q=pdf+extract',
  '/api/v1/skills/search?q=deploy*&limit=10',
  '/api/v1/skills/autocomplete?q=dat',
  '/api/v1/skills/nobody/nothing-here',
  '/api/v1/no-such-endpoint',
];
const expected404 = new Set(['/api/v1/skills/nobody/nothing-here', '/api/v1/no-such-endpoint']);
// One probe per route first: the status each answers, so the run's non-2xx can be checked.
const probed = await Promise.all(routes.map(async (path) => [path, (await fetch(api.url + path)).status] as const));
const unexpected = probed.filter(([path, status]) => (status === 404) !== expected404.has(path));
const non2xxRoutes = probed.filter(([, status]) => status < 200 || status > 299).length;
const mixed = await autocannon({
  url: api.url,
  connections: 20,
  duration,
  requests: routes.map((path) => ({ method: 'GET', path })),
});
say(`Mixed canonical routes (${routes.length} routes round-robin, 20 connections, ${duration} s, \`npm run serve\`):`);
say(`${mixed.requests.total.toLocaleString('en')} requests, ${mixed.requests.average} req/s, errors ${mixed.errors}, timeouts ${mixed.timeouts}, ` +
  `2xx ${mixed['2xx']}, non-2xx ${mixed.non2xx} (${non2xxRoutes} of ${routes.length} routes answer non-2xx), ` +
  `latency p50 ${mixed.latency.p50} ms, p99 ${mixed.latency.p99} ms.`);
say(unexpected.length === 0
  ? 'Non-2xx only on the routes meant to be 404.'
  : `Routes with an unexpected status: ${unexpected.map(([path, status]) => `\`${path}\` ${status}`).join(', ')}.`);
say();

const detailFile = `/api/v1/skills/${detail}/index.json`;
const viaApi = await autocannon({ url: `${api.url}/api/v1/skills/${detail}`, connections: 20, duration: Math.max(5, duration / 3) });
api.child.kill('SIGTERM');
const plain = await startProcess('node_modules/.bin/serve', ['-l', 'tcp://127.0.0.1:0', '--no-clipboard', out], /(http:\/\/127\.0\.0\.1:\d+)/);
const viaServe = await autocannon({ url: `${plain.url}${detailFile}`, connections: 20, duration: Math.max(5, duration / 3) });
plain.child.kill('SIGTERM');
say(`Detail route, 20 connections: \`npm run serve\` ${viaApi.requests.average} req/s (p99 ${viaApi.latency.p99} ms) vs plain \`serve\` on the same file ` +
  `${viaServe.requests.average} req/s (p99 ${viaServe.latency.p99} ms): ratio ${(viaApi.requests.average / viaServe.requests.average).toFixed(2)} (target ≥ 0.8).`);
say();

// 1,000 concurrent connections on the mixed routes.
const crowd = await startServe(out);
const many = await autocannon({ url: crowd.url, connections: 1000, duration: Math.max(5, duration / 3), timeout: 30, requests: routes.map((path) => ({ method: 'GET', path })) });
const stillUp = (await fetch(`${crowd.url}/api/v1/skills/${detail}`)).status;
crowd.child.kill('SIGTERM');
say(`1,000 concurrent connections, mixed routes, ${Math.max(5, duration / 3)} s: ${many.requests.total.toLocaleString('en')} requests, ${many.requests.average} req/s, ` +
  `errors ${many.errors}, timeouts ${many.timeouts}, non-2xx ${many.non2xx}, p99 ${many.latency.p99} ms; a request after the run answered ${stillUp}.`);
say();

// Rate limiting: 60/min per client; 70 requests from one client.
const limited = await startServe(out, ['--rate-limit', '60/min']);
const statuses: number[] = [];
let first429: Response | undefined;
for (let i = 0; i < 70; i++) {
  const response = await fetch(`${limited.url}/api/v1/skills/${detail}`);
  statuses.push(response.status);
  if (response.status === 429 && first429 === undefined) first429 = response;
  await response.arrayBuffer();
}
limited.child.kill('SIGTERM');
const header = (name: string): string => first429?.headers.get(name) ?? '–';
say(`Rate limit \`--rate-limit 60/min\`, 70 requests from one client: ${statuses.filter((s) => s === 200).length} × 200 then ` +
  `${statuses.filter((s) => s === 429).length} × 429 (first 429 at request ${statuses.indexOf(429) + 1}; Retry-After ${header('retry-after')}, ` +
  `X-RateLimit-Limit ${header('x-ratelimit-limit')}, X-RateLimit-Remaining ${header('x-ratelimit-remaining')}, X-RateLimit-Reset ${header('x-ratelimit-reset')}).`);

/** Run a command to completion, inheriting output; throw on failure. */
function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

/** Every file under `dir`: its `/`-separated path relative to `dir` (sorted) and its size. */
function filesUnder(dir: string): Array<[string, number]> {
  const files: Array<[string, number]> = [];
  const visit = (rel: string): void => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) files.push([path, statSync(join(dir, path)).size]);
    }
  };
  visit('');
  return files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Time to write files of the same sizes as those under `dir` into a scratch folder, and to remove them. */
function diskFloor(dir: string): { files: number; writeMs: number; removeMs: number } {
  const sizes = filesUnder(dir);
  const scratch = `${dir}.disk-floor`;
  rmSync(scratch, { recursive: true, force: true });
  // reduce, not Math.max(...sizes): 400k arguments overflow the stack.
  const filler = Buffer.alloc(sizes.reduce((max, [, size]) => Math.max(max, size), 0), 120);
  const started = performance.now();
  for (const [path, size] of sizes) {
    const full = join(scratch, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, filler.subarray(0, size), { flag: 'wx' });
  }
  const written = performance.now();
  rmSync(scratch, { recursive: true, force: true });
  return { files: sizes.length, writeMs: written - started, removeMs: performance.now() - written };
}

/** One digest of every file under `dir` (sorted paths and their bytes). */
function treeDigest(dir: string): string {
  const digest = createHash('sha256');
  for (const [path] of filesUnder(dir)) digest.update(`${path}\0`).update(readFileSync(join(dir, path))).update('\0');
  return digest.digest('hex');
}

/** Files and bytes under `dir`. */
function walk(dir: string): { files: number; bytes: number } {
  const files = filesUnder(dir);
  return { files: files.length, bytes: files.reduce((sum, [, size]) => sum + size, 0) };
}

/** Output files and bytes by kind (details, content, stats, list pages, ordinals, categories, search index, site). */
function byKind(dir: string): Map<string, { files: number; bytes: number }> {
  const kinds = new Map<string, { files: number; bytes: number }>();
  const add = (kind: string, bytes: number): void => {
    const k = kinds.get(kind) ?? { files: 0, bytes: 0 };
    k.files += 1;
    k.bytes += bytes;
    kinds.set(kind, k);
  };
  for (const [path, size] of filesUnder(dir)) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (path.startsWith('api/v1/skills/_list/')) add(name === 'ordinals.json' ? 'ordinals' : 'list pages', size);
    else if (path.startsWith('api/v1/skills/_search/')) add('search index', size);
    else if (path.startsWith('api/v1/skills/')) add({ 'index.json': 'details', 'content.json': 'content', 'stats.json': 'stats' }[name] ?? 'skills (other)', size);
    else if (path.startsWith('api/v1/categories/')) add('categories', size);
    else if (path.startsWith('api/v1/')) add('manifest, openapi', size);
    else add('site', size);
  }
  return kinds;
}

/** The `owner/repo` of the first skill in the output. */
function firstDetail(dir: string): string {
  const skills = join(dir, 'api/v1/skills');
  const owner = readdirSync(skills).filter((name) => !name.startsWith('_')).sort()[0]!;
  const repo = readdirSync(join(skills, owner)).sort()[0]!;
  return `${owner}/${repo}`;
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
