/**
 * `npx tsx scripts/bench-archives.ts [--content DIR] [--skills N]`: the time the build's thread
 * spends making skills' archives (builder/skill-archive.ts), each compressed on the calling
 * thread (`skillArchive`) against compressed on libuv's thread pool with 16 at once
 * (`skillArchiveInPool`, as builder/skill-output.ts does), over the first N skills of a content
 * folder (default the 100k content of `npm run gen`, 4,000 skills). No disk writes: what is left
 * is the compression the build thread used to do itself. Alternated rounds, medians; the bytes
 * must be the same.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { skillArchive, skillArchiveInPool, type ArchiveFile } from '../builder/skill-archive.ts';

const { values } = parseArgs({ options: { content: { type: 'string', default: 'bench-out/search-100000/content' }, skills: { type: 'string', default: '4000' } } });
const count = Number(values.skills);
const root = join(values.content!, 'skills');
const sets: ArchiveFile[][] = [];
outer: for (const owner of readdirSync(root).sort()) {
  for (const repo of readdirSync(join(root, owner)).sort()) {
    const folder = join(root, owner, repo);
    sets.push(readdirSync(folder, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => ({ path: e.name, bytes: readFileSync(join(folder, e.name)), executable: false })));
    if (sets.length >= count) break outer;
  }
}
const median = (runs: number[]): number => [...runs].sort((a, b) => a - b)[runs.length >> 1]!;
const here: number[] = [];
const pool: number[] = [];
/** Of the pooled runs, the time the calling thread itself was busy (its event loop active). */
const busy: number[] = [];
for (let round = 0; round < 5; round++) {
  let started = performance.now();
  const sync = sets.map((files) => skillArchive(files));
  here.push(performance.now() - started);
  started = performance.now();
  const before = performance.eventLoopUtilization();
  const pending: Promise<Uint8Array>[] = [];
  const pooled: Uint8Array[] = [];
  for (const files of sets) {
    pending.push(skillArchiveInPool(files));
    if (pending.length >= 16) pooled.push(await pending.shift()!);
  }
  for (const archive of pending) pooled.push(await archive);
  pool.push(performance.now() - started);
  busy.push(performance.eventLoopUtilization(before).active);
  if (!pooled.every((archive, i) => Buffer.from(archive).equals(Buffer.from(sync[i]!)))) throw new Error('the thread pool made other bytes');
}
const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
console.log(`archives of ${sets.length} skill folders, 5 alternated rounds, load ${load}: on the calling thread ${median(here).toFixed(0)} ms, on the thread pool (16 at once) ${median(pool).toFixed(0)} ms (${(median(pool) / median(here)).toFixed(2)}×), of which the calling thread was busy ${median(busy).toFixed(0)} ms (${(median(busy) / median(here)).toFixed(2)}×)`);
console.log(`rounds: calling thread ${here.map((t) => t.toFixed(0)).join(', ')}; thread pool ${pool.map((t) => t.toFixed(0)).join(', ')}`);
