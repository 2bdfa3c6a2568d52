/**
 * `npm run bench:quality [-- --count 10000]`: the quality signals at scale.
 *
 * Generates synthetic content (scripts/gen.ts), then plants copies among it: `--planted` exact
 * copies (the SKILL.md of a random skill, line endings and trailing spaces changed, in a new
 * owner's folder, created later) and as many near copies (1 word in 60 changed, a shingle Jaccard near 0.85, like the real edited copies). It loads the
 * content (which computes the signals), and prints:
 *
 * - precision and recall of exact copies (`duplicateOf`) and near copies (`similar`) against what
 *   was planted (the generator's own skills are independent draws: any other link is counted a
 *   false positive, though it may be a real near copy);
 * - what the pass adds to a clean build of the same content: builds with and without it,
 *   alternating (`--runs` each, medians, each into an empty output folder), and the share of the
 *   build without it. Its per-skill
 *   part runs in a thread while skills load (builder/quality/pass.ts), so it is also timed alone,
 *   on one thread (`computeQuality`).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBuild } from '../builder/build.ts';
import { loadContent } from '../builder/load-content.ts';
import { computeQuality, skillSignals } from '../builder/quality/index.ts';
import { generate } from './gen.ts';
import { Rng } from './gen-random.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    planted: { type: 'string', default: '300' },
    work: { type: 'string', default: 'bench-out/quality' },
    runs: { type: 'string', default: '3' },
    'skip-build': { type: 'boolean', default: false },
  },
  strict: true,
});
const count = Number(values.count);
const planted = Number(values.planted);
const content = join(values.work, `content-${count}`);
const out = join(values.work, `public-${count}`);

if (!existsSync(join(content, 'skills'))) {
  console.error(`generating ${count} skills into ${content}…`);
  await generate({ count, out: content, force: true });
}
// Plant copies (idempotent: the planted folders are rewritten each run).
rmSync(join(content, 'skills', 'copycat'), { recursive: true, force: true });
rmSync(join(content, 'skills', 'nearcat'), { recursive: true, force: true });
const loaded = await loadContent(content);
const originals = loaded.content.skills;
const rng = new Rng('bench-quality');
const exactPlanted = new Map<string, string>();
const nearPlanted = new Map<string, string>();
const pick = (): (typeof originals)[number] => originals[rng.int(originals.length)]!;
for (let i = 0; i < planted; i++) {
  for (const [owner, map] of [['copycat', exactPlanted], ['nearcat', nearPlanted]] as const) {
    let source = pick();
    while ([...exactPlanted.values(), ...nearPlanted.values()].includes(source.id)) source = pick();
    const dir = join(content, 'skills', owner, `copy-${i}`);
    mkdirSync(dir, { recursive: true });
    let text = readFileSync(join(content, source.dir, 'SKILL.md'), 'utf8');
    // Only the body changes: the front matter stays as the build requires it.
    const [head, ...rest] = text.split('\n---\n');
    let body = rest.join('\n---\n');
    if (owner === 'copycat') body = body.replaceAll('\n', '  \n');
    else {
      let n = 0;
      body = body.replace(/[A-Za-z]{4,}/g, (w) => (++n % 60 === 0 ? `${w}ish` : w));
    }
    text = `${head}\n---\n${body}`;
    if (owner === 'copycat') text = text.replaceAll('\n', '\r\n');
    writeFileSync(join(dir, 'SKILL.md'), text);
    const json = JSON.parse(readFileSync(join(content, source.dir, 'skill.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'skill.json'), JSON.stringify({ ...json, createdAt: '2026-06-01T00:00:00Z', updatedAt: '2026-06-02T00:00:00Z', pushedAt: '2026-06-02T00:00:00Z' }));
    map.set(`${owner}/copy-${i}`, source.id);
  }
}

const load = await loadContent(content);
const skills = load.content.skills;
const runs: number[] = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  computeQuality(skills);
  runs.push(performance.now() - t);
}
const qualityMs = runs.sort((a, b) => a - b)[1]!;
// What is left on the main thread when the thread has computed the per-skill signals: comparing.
const signals = new Map(skills.map((s) => [s.id, skillSignals(s)]));
const compareRuns: number[] = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  computeQuality(skills, signals);
  compareRuns.push(performance.now() - t);
}
const compareMs = compareRuns.sort((a, b) => a - b)[1]!;

const exactFound = skills.filter((s) => s.checks?.duplicateOf !== undefined).map((s) => [s.id, s.checks!.duplicateOf!] as const);
const exactTrue = exactFound.filter(([id, of]) => exactPlanted.get(id) === of).length;
const links = new Set<string>();
for (const s of skills) for (const other of s.checks?.similar ?? []) links.add([s.id, other].sort().join(' '));
const plantedLinks = new Set([...nearPlanted].map(([copy, original]) => [copy, original].sort().join(' ')));
const nearTrue = [...links].filter((l) => plantedLinks.has(l)).length;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 === 1 ? sorted[sorted.length >> 1]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
};
const withRuns: number[] = [];
const withoutRuns: number[] = [];
if (!values['skip-build']) {
  for (let i = 0; i < Number(values.runs); i++) {
    // Alternating, so a machine slowing down or speeding up weighs on both alike.
    for (const [quality, runs] of [[true, withRuns], [false, withoutRuns]] as const) {
      // The previous output is removed before the clock starts: removing 100k skills' tree takes
      // minutes on this disk and varies more than the whole pass costs.
      rmSync(out, { recursive: true, force: true });
      const t = performance.now();
      await runBuild({ contentDir: content, outDir: out, site: false, quality });
      runs.push(performance.now() - t);
      console.error(`build ${quality ? 'with' : 'without'} quality: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
  }
}
const pct = (a: number, b: number): string => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)} %`);
const lines = [
  `## Quality signals at ${count.toLocaleString('en')} skills (+${planted} exact and ${planted} near copies planted)`,
  '',
  `| | found | planted found | precision | recall |`,
  `|---|---|---|---|---|`,
  `| exact copies (duplicateOf) | ${exactFound.length} | ${exactTrue} | ${pct(exactTrue, exactFound.length)} | ${pct(exactTrue, exactPlanted.size)} |`,
  `| near copies (similar pairs, Jaccard ≥ 0.8) | ${links.size} | ${nearTrue} | ${pct(nearTrue, links.size)} | ${pct(nearTrue, plantedLinks.size)} |`,
  '',
  `The pass alone, on one thread (computeQuality): median of 3 runs ${(qualityMs / 1000).toFixed(2)} s; ` +
    `of it, what stays on the build's main thread after loading (comparing skills, the report): ${(compareMs / 1000).toFixed(2)} s.`,
  ...(withRuns.length === 0
    ? []
    : [
        '',
        `Clean builds, ${withRuns.length} of each, alternating: with the pass median ${(median(withRuns) / 1000).toFixed(1)} s ` +
          `(${withRuns.map((ms) => (ms / 1000).toFixed(1)).join(', ')}), without ${(median(withoutRuns) / 1000).toFixed(1)} s ` +
          `(${withoutRuns.map((ms) => (ms / 1000).toFixed(1)).join(', ')}): **the pass adds ${pct(median(withRuns) - median(withoutRuns), median(withoutRuns))}**.`,
      ]),
];
console.log(lines.join('\n'));
