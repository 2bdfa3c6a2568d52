/**
 * `npm run bench:abuse`: bounded, loopback-only runs of hostile load against the Node server
 * (`skills-api serve` in a child process), printing figures for BENCHMARKS.md.
 *
 * Pipelining: `--sockets` connections (default 200) each send `--pipelined` (20) pipelined GETs of
 * a 1 MiB SKILL.md's `/content` and never read; meanwhile another client asks for the skill list
 * `--probes` times (200) in a row. Prints the server's peak RSS (from /proc, sampled) and the
 * probe latencies. Everything stops by itself: sockets are destroyed after the probes.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServe } from './bench-process.ts';

const { values } = parseArgs({
  options: {
    sockets: { type: 'string', default: '200' },
    pipelined: { type: 'string', default: '20' },
    probes: { type: 'string', default: '200' },
    work: { type: 'string', default: 'bench-out/abuse' },
  },
  strict: true,
});
const sockets = Number(values.sockets);
const pipelined = Number(values.pipelined);
const probes = Number(values.probes);

// Content: the sample categories and platforms, one skill whose SKILL.md is just under 1 MiB.
const content = join(values.work, 'content');
const out = join(values.work, 'public');
mkdirSync(join(content, 'skills', 'big', 'skill'), { recursive: true });
for (const file of ['categories.json', 'platforms.json']) writeFileSync(join(content, file), readFileSync(join('content', file)));
writeFileSync(join(content, 'skills', 'big', 'skill', 'SKILL.md'), `---\nname: Big\ndescription: A 1 MiB skill.\n---\n${'word '.repeat(209_000)}\n`);
writeFileSync(
  join(content, 'skills', 'big', 'skill', 'skill.json'),
  JSON.stringify({ stars: 1, forks: 0, watchers: 0, openIssues: 0, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', pushedAt: '2025-01-01T00:00:00Z', author: { name: 'x', avatar: 'https://example.com/a.png' }, categories: ['development'], platforms: ['codex'] }),
);

const build = spawn(process.execPath, ['bin/skills-api.js', 'build', '--content', content, '--out', out], { stdio: 'inherit' });
await new Promise((resolve) => build.once('exit', resolve));
const { child: server, url } = await startServe(out);
const port = Number(new URL(url).port);

/** The server's resident memory in MiB (its node process is the child itself: bin registers tsx in-process). */
function rss(): number {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const before = rss();
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, rss())), 50);
const attackers: Socket[] = [];
const request = 'GET /api/v1/skills/big/skill/content HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n'.repeat(pipelined);
for (let i = 0; i < sockets; i++) {
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
for (let i = 0; i < probes; i++) {
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
latencies.sort((a, b) => a - b);
const pct = (p: number): string => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
console.log(`## Pipelining: ${sockets} connections × ${pipelined} pipelined GETs of a 1 MiB /content, never read`);
console.log('');
console.log(`Server RSS: ${before.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB during the attack.`);
console.log(`Another client, ${probes} list requests in a row during it: p50 ${pct(50)} ms, p99 ${pct(99)} ms, ${failures} failed.`);
