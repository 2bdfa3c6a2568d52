/**
 * Search benchmark: `npm run bench:search -- --count 10000 [--seed S] [--repeat R] [--reuse]
 * [--engines ours,pagefind,minisearch] [--no-write] [--browser | --browser-only] [--delay MS]
 * [--browser-runs N] [--protocols h2,h1] [--ours-dir DIR] [--against DIR] [--worker-timeline]`.
 *
 * `--browser` adds a cold first search in Chromium with every response held `--delay` ms (50 by
 * default), ours through the Service Worker and Pagefind in the same run (scripts/bench-browser.ts),
 * over HTTP/2 and over HTTP/1.1 (`--protocols`: both by default, in that order); `--browser-only` measures only that. `--ours-dir` measures another build output of the same
 * content there (e.g. one made by an older version); `--against` measures another build in the same
 * runs, query by query, and reports the paired differences (never written to BENCHMARKS.md: a
 * comparison, not the figures). `--worker-timeline` serves both workers with
 * marks on their own clock and adds the medians of each step (scripts/bench-browser.ts `withTimeline`);
 * those runs include the marks' cost, so that report is never written to BENCHMARKS.md.
 *
 * Everything lives under `bench-out/search-<count>/`:
 * 1. `content/`: synthetic content (scripts/gen.ts), re-used when the marker beside it says the
 *    same generator, count and seed made it.
 * 2. `public/`: our build (builder/build.ts `runBuild`, which writes the split search index);
 *    `pagefind/`: a Pagefind index of the same skills as HTML pages; `minisearch/index.json`: one
 *    MiniSearch index of all fields. `--reuse` keeps these when they exist.
 * 3. A static server on 127.0.0.1 serves that folder; each engine's own client code runs in this
 *    process with a counting fetch: cold first-search bytes (gzip) and requests with runtime code,
 *    warm latency, hostile queries (scripts/bench-engine.ts).
 * 4. Tables on stdout and in BENCHMARKS.md (the section of this count is replaced).
 *
 * Timings depend on the machine and its load; the figures are medians of repeated runs.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { loadContent } from '../builder/load-content.ts';
import { runBuild } from '../builder/build.ts';
import { SEARCH_DIR } from '../src/search/format.ts';
import { measureAdversarial, measureQueries, percentile, type AdversarialResult, type Engine, type QueryResult } from './bench-engine.ts';
import { gzipSize, networkRetries, startStaticServer } from './bench-http.ts';
import { buildMiniSearch, miniSearchEngine, miniSearchHostile } from './bench-minisearch.ts';
import { oursEngine } from './bench-ours.ts';
import { measureBrowser, summarize, type BrowserQueryResult, type BrowserSample, type BrowserSummary, type BrowserEngine, type Protocol, type WorkerTimeline } from './bench-browser.ts';
import { buildPagefind, pagefindEngine } from './bench-pagefind.ts';
import { CHROMIUM_ARGS } from '../test/helpers/browser-setup.ts';
import { ADVERSARIAL, QUERIES } from './bench-queries.ts';
import { formatBytes, generate, type GenSummary } from './gen.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const ENGINES = ['ours', 'pagefind', 'minisearch'] as const;
type EngineKey = (typeof ENGINES)[number];
/** A hostile query on the single MiniSearch index is stopped after this long. */
const HOSTILE_TIMEOUT_MS = 30_000;
/**
 * Above these counts an engine is left out unless `--engines` names it: the single MiniSearch
 * index does not scale (that is its point), and Pagefind's indexing service held 9.6 GB and grew
 * by ~1.1 GB a minute while indexing 100k pages, too much for this shared 24 GiB machine.
 */
const DEFAULT_MAX: Record<EngineKey, number> = { ours: Infinity, pagefind: 50_000, minisearch: 20_000 };
const LEFT_OUT_WHY: Record<EngineKey, string> = {
  ours: '',
  pagefind: 'its indexing service grew past 9.6 GB at 100k skills',
  minisearch: 'one index of everything does not scale',
};

interface Args {
  count: number;
  seed: string;
  repeat: number;
  reuse: boolean;
  write: boolean;
  engines: EngineKey[];
  browser: 'no' | 'also' | 'only';
  delay: number;
  browserRuns: number;
  protocols: Protocol[];
  oursDir?: string;
  againstDir?: string;
  timeline: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { count: 10_000, seed: '1', repeat: 20, reuse: false, write: true, engines: [], browser: 'no', delay: 50, browserRuns: 5, protocols: ['h2', 'h1'], timeline: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--count') args.count = Number(value());
    else if (a === '--seed') args.seed = value();
    else if (a === '--repeat') args.repeat = Number(value());
    else if (a === '--reuse') args.reuse = true;
    else if (a === '--no-write') args.write = false;
    else if (a === '--browser') args.browser = 'also';
    else if (a === '--browser-only') args.browser = 'only';
    else if (a === '--delay') args.delay = Number(value());
    else if (a === '--browser-runs') args.browserRuns = Number(value());
    else if (a === '--ours-dir') args.oursDir = resolve(value());
    else if (a === '--against') args.againstDir = resolve(value());
    else if (a === '--worker-timeline') args.timeline = true;
    else if (a === '--protocols') {
      const list = value().split(',');
      for (const p of list) if (p !== 'h1' && p !== 'h2') throw new Error(`--protocols: unknown protocol ${p} (h2 or h1)`);
      args.protocols = list as Protocol[];
    }
    else if (a === '--engines') {
      const list = value().split(',');
      for (const e of list) if (!(ENGINES as readonly string[]).includes(e)) throw new Error(`--engines: unknown engine ${e}`);
      args.engines = list as EngineKey[];
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(args.count) || args.count < 1) throw new Error('--count: expected a positive integer');
  if (args.engines.length === 0) args.engines = ENGINES.filter((e) => args.count <= DEFAULT_MAX[e]);
  if (!Number.isInteger(args.repeat) || args.repeat < 1) throw new Error('--repeat: expected a positive integer');
  if (!Number.isInteger(args.browserRuns) || args.browserRuns < 1) throw new Error('--browser-runs: expected a positive integer');
  if (!(args.delay >= 0)) throw new Error('--delay: expected milliseconds ≥ 0');
  return args;
}

const benchStart = performance.now();
const log = (line: string): void => {
  process.stderr.write(`[bench ${((performance.now() - benchStart) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
};

/**
 * Fingerprint of what the generator makes: the hash of a small sample generated with the same
 * seed. A generator change that alters its output makes cached content stale; a refactor does not.
 */
async function generatorFingerprint(seed: string): Promise<string> {
  const dir = await mkdtemp(join(os.tmpdir(), 'bench-gen-'));
  try {
    await generate({ count: 30, out: dir, seed });
    const hash = createHash('sha256');
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
    for (const file of files) hash.update(relative(dir, file)).update(await readFile(file));
    return hash.digest('hex').slice(0, 16);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The content folder of the benchmark (`<work>/content`), generated unless the marker beside it
 * says the same generator made it with the same seed. The folder is the benchmark's own: other
 * people's `bench-out/content-*` folders are never replaced.
 */
async function ensureContent(work: string, count: number, seed: string): Promise<{ dir: string; gen: GenSummary; fresh: boolean }> {
  const dir = join(work, 'content');
  const marker = `${dir}.gen.json`;
  const fingerprint = await generatorFingerprint(seed);
  if (existsSync(marker)) {
    const saved = JSON.parse(await readFile(marker, 'utf8')) as { fingerprint: string; seed: string; summary: GenSummary };
    if (saved.fingerprint === fingerprint && saved.seed === seed && saved.summary.count === count && existsSync(dir)) {
      log(`re-using ${relative(REPO, dir)}`);
      return { dir, gen: saved.summary, fresh: false };
    }
  }
  log(`generating ${count} skills into ${relative(REPO, dir)}`);
  await rm(marker, { force: true });
  const gen = await generate({ count, out: dir, seed, force: true, progress: log });
  await writeFile(marker, `${JSON.stringify({ fingerprint, seed, summary: gen }, null, 2)}\n`);
  return { dir, gen, fresh: true };
}

/** Files and bytes (raw and gzip-or-raw, the wire size) under a folder. */
async function folderSize(dir: string, filter: (name: string) => boolean = () => true): Promise<{ files: number; raw: number; wire: number }> {
  const total = { files: 0, raw: 0, wire: 0 };
  if (!existsSync(dir)) return total;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !filter(entry.name)) continue;
    const bytes = await readFile(join(entry.parentPath, entry.name));
    total.files++;
    total.raw += bytes.length;
    total.wire += Math.min(bytes.length, gzipSize(bytes));
  }
  return total;
}

interface IndexInfo {
  files: number;
  raw: number;
  wire: number;
  buildMs: number;
}

interface EngineRun {
  key: EngineKey;
  engine?: Engine;
  index?: IndexInfo;
  queries: QueryResult[];
  adversarial: AdversarialResult[];
  /** MiniSearch only: download + load times (ms). */
  loads?: number[];
  failure?: string;
}

const kib = (n: number): string => (n / 1024).toFixed(1);
const ms = (n: number): string => (Number.isNaN(n) ? '–' : n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0));
const ratio = (a: number, b: number): string => (b > 0 && a > 0 ? `${(a / b).toFixed(2)}×` : '–');

/** Build (or with `reuse`, keep) each engine's index under `work`, recording sizes and failures in `runs`. */
async function buildIndexes(work: string, contentDir: string, reuse: boolean, runs: Map<EngineKey, EngineRun>): Promise<void> {
  const ours = runs.get('ours');
  if (ours) {
    const out = join(work, 'public');
    let buildMs = NaN;
    if (!(reuse && existsSync(join(out, 'api/v1/manifest.json')))) {
      log('our build');
      const report = await runBuild({ contentDir, outDir: out, skipInvalid: true });
      buildMs = report.ms;
      if (report.skipped.length > 0) log(`our build skipped ${report.skipped.length} skills: ${report.problems.slice(0, 3).map((p) => p.message).join('; ')}`);
    }
    const manifest = JSON.parse(await readFile(join(out, 'api/v1/manifest.json'), 'utf8')) as { search?: unknown };
    ours.index = { ...(await folderSize(join(out, SEARCH_DIR))), buildMs };
    if (manifest.search === undefined) ours.failure = 'the build wrote no search index (manifest.search missing)';
  }
  const pf = runs.get('pagefind');
  const mini = runs.get('minisearch');
  const miniFile = join(work, 'minisearch', 'index.json');
  const needPagefind = pf !== undefined && !(reuse && existsSync(join(work, 'pagefind', 'pagefind.js')));
  const needMini = mini !== undefined && !(reuse && existsSync(miniFile));
  if (needPagefind || needMini) {
    log('loading content for Pagefind and MiniSearch');
    const { content: loaded } = await loadContent(contentDir);
    if (needPagefind && pf) {
      log('Pagefind index');
      await rm(join(work, 'pagefind'), { recursive: true, force: true });
      pf.index = { files: 0, raw: 0, wire: 0, buildMs: (await buildPagefind(loaded.skills, work)).ms };
    }
    if (needMini && mini) {
      log('MiniSearch index');
      try {
        mini.index = { files: 1, raw: 0, wire: 0, buildMs: (await buildMiniSearch(loaded.skills, miniFile)).ms };
      } catch (error) {
        // At large counts the serialized index can exceed the longest string V8 allows.
        mini.failure = `index not built: ${(error as Error).message}`;
      }
    }
  }
  if (pf) {
    const isIndexFile = (name: string): boolean => /\.pf_|\.pagefind$|^pagefind-entry\.json$/.test(name);
    pf.index = { buildMs: pf.index?.buildMs ?? NaN, ...(await folderSize(join(work, 'pagefind'), isIndexFile)) };
  }
  if (mini && mini.failure === undefined) mini.index = { buildMs: mini.index?.buildMs ?? NaN, ...(await folderSize(join(work, 'minisearch'))) };
}

/** Measure every engine of `runs` that has an index, one at a time, against one local server over `work`. */
async function measureEngines(work: string, repeat: number, runs: Map<EngineKey, EngineRun>): Promise<void> {
  const server = await startStaticServer(work);
  try {
    for (const run of runs.values()) {
      if (run.failure !== undefined) continue;
      log(`measuring ${run.key}`);
      try {
        if (run.key === 'ours') run.engine = await oursEngine(`${server.origin}/public/`);
        else if (run.key === 'pagefind') run.engine = await pagefindEngine(work, `${server.origin}/pagefind/`);
        else {
          const engine = await miniSearchEngine(`${server.origin}/minisearch/index.json`);
          run.engine = engine;
          run.loads = engine.loads;
        }
        run.queries = await measureQueries(run.engine, QUERIES, repeat);
        run.adversarial =
          run.key === 'minisearch'
            ? await miniSearchHostile(join(work, 'minisearch', 'index.json'), ADVERSARIAL, 'docker', HOSTILE_TIMEOUT_MS)
            : await measureAdversarial(run.engine, ADVERSARIAL, 'docker', 5);
      } catch (error) {
        run.failure = (error as Error).message;
      }
    }
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const loadBefore = os.loadavg()[0]!;
  const work = join(REPO, 'bench-out', args.seed === '1' ? `search-${args.count}` : `search-${args.count}-s${args.seed}`);
  const content = await ensureContent(work, args.count, args.seed);
  const runs = new Map<EngineKey, EngineRun>(args.engines.map((key) => [key, { key, queries: [], adversarial: [] }]));
  // Indexes of other content are stale: --reuse only keeps indexes of the content re-used.
  await buildIndexes(work, content.dir, args.reuse && !content.fresh, runs);
  const suffix = args.seed === '1' ? '' : ` seed=${args.seed}`;
  if (args.browser !== 'only') {
    await measureEngines(work, args.repeat, runs);
    const load = { before: loadBefore, after: os.loadavg()[0]! };
    const report = renderReport(args, content.gen, runs, performance.now() - started, load);
    console.log(report);
    if (args.write) {
      await writeSection(join(REPO, 'BENCHMARKS.md'), `search count=${args.count}${suffix}`, report);
      log('BENCHMARKS.md updated');
    }
  }
  if (args.browser !== 'no') {
    for (const protocol of args.protocols) {
      const browserStarted = performance.now();
      const browserLoad = os.loadavg()[0]!;
      const measured = await measureBrowser({
        oursDir: runs.has('ours') ? (args.oursDir ?? join(work, 'public')) : undefined,
        againstDir: runs.has('ours') ? args.againstDir : undefined,
        pagefindDir: runs.has('pagefind') ? work : undefined,
        delayMs: args.delay,
        protocol,
        runs: args.browserRuns,
        queries: QUERIES.map((q) => q.q),
        timeline: args.timeline,
        log,
      });
      const report = renderBrowserReport(args, protocol, measured, performance.now() - browserStarted, { before: browserLoad, after: os.loadavg()[0]! });
      console.log(report);
      if (args.write && !args.timeline && args.againstDir === undefined) {
        await writeSection(join(REPO, 'BENCHMARKS.md'), `search-browser count=${args.count}${suffix} delay=${args.delay} ${protocol}`, report);
        log('BENCHMARKS.md updated');
      }
    }
  }
}

/**
 * `--worker-timeline`: medians of each step on the worker's own clock (ms from its start), ours
 * and the floor; nothing without it.
 */
function timelineTable(measured: { [key in BrowserEngine]?: BrowserQueryResult[] }): string[] {
  const steps: Array<[string, (t: WorkerTimeline) => number]> = [
    ['its code starts running (the worker started, the script compiled)', (t) => t.compiled],
    ['its code has run', (t) => t.ran],
    ['activated', (t) => t.activated],
    ['the search request arrives', (t) => t.request],
    ['… to the first file asked for', (t) => t.firstAsked - t.request],
    ['… to the last index file back', (t) => t.indexBack - t.request],
    ['… to the first summary shard asked for (matching, ranking)', (t) => t.summariesAsked - t.indexBack],
    ['… to the last summary shard back', (t) => t.summariesBack - t.summariesAsked],
    ['… to the answer', (t) => (t.answered === undefined ? NaN : t.answered - t.summariesBack)],
  ];
  const of = (key: BrowserEngine): WorkerTimeline[] => (measured[key] ?? []).flatMap((r) => r.samples.flatMap((s) => (s.timeline === undefined ? [] : [s.timeline])));
  const ours = of('ours');
  const floor = of('floor');
  const against = of('against');
  if (ours.length === 0) return [];
  const med = (list: WorkerTimeline[], f: (t: WorkerTimeline) => number): string => {
    const values = list.map(f).filter((v) => !Number.isNaN(v));
    return values.length === 0 ? '–' : percentile(values, 0.5).toFixed(1);
  };
  return [
    `**The worker's own clock** (\`--worker-timeline\`: the workers of these runs were served with marks, which cost a little of their own, so the figures above include them and the report is not written to BENCHMARKS.md; medians of ${ours.length} runs of ours and ${floor.length} of the floor, ms):`,
    '',
    `| step | ours |${against.length === 0 ? '' : ' against |'} floor |`,
    `|---|---:|${against.length === 0 ? '' : '---:|'}---:|`,
    ...steps.map(([label, f]) => `| ${label} | ${med(ours, f)} |${against.length === 0 ? '' : ` ${med(against, f)} |`} ${med(floor, f)} |`),
    '',
  ];
}

/** Markdown report of the browser mode. */
function renderBrowserReport(
  args: Args,
  protocol: Protocol,
  measured: { [key in BrowserEngine]?: BrowserQueryResult[] },
  totalMs: number,
  load: { before: number; after: number },
): string {
  const o = measured.ours === undefined ? undefined : summarize(measured.ours);
  const p = measured.pagefind === undefined ? undefined : summarize(measured.pagefind);
  const f = measured.floor === undefined ? undefined : summarize(measured.floor);
  const lines: string[] = [];
  const over = protocol === 'h2' ? 'HTTP/2' : 'HTTP/1.1';
  const versions = [...new Set([...(measured.ours ?? []), ...(measured.pagefind ?? [])].flatMap((r) => r.samples.flatMap((s) => s.http)))].sort();
  lines.push(`## Cold search in Chromium over ${over}, ${args.count.toLocaleString('en-US')} skills, ${args.delay} ms per round trip`);
  lines.push('');
  lines.push(
    `Run ${new Date().toISOString().slice(0, 10)} on ${machine()}; Chromium (\`${CHROMIUM_ARGS.slice(0, 3).join(' ')}\`) through playwright-core. ` +
      (protocol === 'h2'
        ? `A local static server over HTTP/2 (node:http2 with a self-signed certificate made for the run; Chromium with \`--ignore-certificate-errors\`; the server saw HTTP ${versions.join(', ')}) held every response ${args.delay} ms. Each run is a fresh browser context; `
        : `A local static server (HTTP/1.1, so 6 connections per host; the server saw HTTP ${versions.join(', ')}) held every response ${args.delay} ms. Each run is a fresh browser context; `) +
      `the search phase runs from asking for the runtime code to holding the first 20 results (ours: register \`sw.js\`, wait until it controls the page, ` +
      `fetch \`api/v1/skills/search?q=…\` through it; Pagefind: import \`pagefind.js\`, \`search()\`, \`data()\` of the first 20). ` +
      `Round trips in a row: the longest chain of requests each sent after the previous one's response came back, as the server saw them. ` +
      `Bytes: every response of the phase at its gzip size (level 6) or raw size when smaller. Medians over the ${QUERIES.length} queries of each query's median of ${args.browserRuns} runs; ` +
      `${(totalMs / 1000).toFixed(0)} s, load average ${load.before.toFixed(1)} at the start, ${load.after.toFixed(1)} at the end.` +
      (args.oursDir === undefined ? '' : ` Ours: the build in \`${args.oursDir}\`.`),
  );
  lines.push('');
  const cell = (s: BrowserSummary | undefined, f: (s: BrowserSummary) => string): string => (s === undefined ? '–' : f(s));
  const r = (f: (s: BrowserSummary) => number): string => (o && p && f(p) > 0 ? `${(f(o) / f(p)).toFixed(2)}×` : '–');
  lines.push('| median | ours | Pagefind | ours ÷ Pagefind |');
  lines.push('|---|---:|---:|---:|');
  lines.push(`| search phase ms | ${cell(o, (s) => s.phaseMs.toFixed(0))} | ${cell(p, (s) => s.phaseMs.toFixed(0))} | ${r((s) => s.phaseMs)} |`);
  lines.push(`| after the runtime code ms (ours: the search request; Pagefind: after \`pagefind.js\`) | ${cell(o, (s) => s.searchMs.toFixed(0))} | ${cell(p, (s) => s.searchMs.toFixed(0))} | ${r((s) => s.searchMs)} |`);
  lines.push(`| round trips in a row | ${cell(o, (s) => String(s.roundTrips))} | ${cell(p, (s) => String(s.roundTrips))} | |`);
  lines.push(`| requests | ${cell(o, (s) => String(s.requests))} | ${cell(p, (s) => String(s.requests))} | |`);
  lines.push(`| KiB on the wire | ${cell(o, (s) => kib(s.bytes))} | ${cell(p, (s) => kib(s.bytes))} | ${r((s) => s.bytes)} |`);
  lines.push('');
  if (o !== undefined && f !== undefined) {
    lines.push(
      `**The floor** (a Service Worker of a few lines that computes nothing: asked for the files each run of ours fetched just before, layer after layer, it answers a fixed body): ` +
        `search phase ${f.phaseMs.toFixed(0)} ms, after its script ${f.searchMs.toFixed(0)} ms, ${f.roundTrips} round trips in a row, ${f.requests} requests. ` +
        `Ours takes ${(o.phaseMs - f.phaseMs).toFixed(0)} ms more, ${(o.searchMs - f.searchMs).toFixed(0)} ms of it after the runtime code: what our script and our search cost.`,
    );
    lines.push('');
  }
  lines.push(...againstLines(args, measured));
  lines.push(...timelineTable(measured));
  lines.push('### Per query');
  lines.push('');
  lines.push('Median of the runs: search phase ms / round trips in a row / requests / KiB / results shown (ours through the Service Worker: 20 means it registered and answered).');
  lines.push('');
  lines.push(`| query | ours |${f === undefined ? '' : ' floor ms |'} Pagefind |`);
  lines.push(`|---|---:|${f === undefined ? '' : '---:|'}---:|`);
  QUERIES.forEach((query, i) => {
    const one = (results: BrowserQueryResult[] | undefined): string => {
      const samples = results?.[i]?.samples;
      if (samples === undefined || samples.length === 0) return '–';
      const med = (f: (s: BrowserSample) => number): number => percentile(samples.map(f), 0.5);
      return `${med((s) => s.phaseMs).toFixed(0)} / ${med((s) => s.roundTrips)} / ${med((s) => s.requests)} / ${kib(med((s) => s.bytes))} / ${med((s) => s.results)}`;
    };
    const floor = measured.floor?.[i]?.samples;
    const floorCell = f === undefined ? '' : ` ${floor === undefined || floor.length === 0 ? '–' : percentile(floor.map((x) => x.phaseMs), 0.5).toFixed(0)} |`;
    lines.push(`| \`${query.q.replace(/\|/g, '\\|')}\` | ${one(measured.ours)} |${floorCell} ${one(measured.pagefind)} |`);
  });
  return lines.join('\n');
}

/**
 * `--against`: the other build's medians and the paired differences (ours minus it, query by
 * query and run by run: the median of each query's differences, then over queries).
 */
function againstLines(args: Args, measured: { [key in BrowserEngine]?: BrowserQueryResult[] }): string[] {
  const ours = measured.ours;
  const against = measured.against;
  if (ours === undefined || against === undefined) return [];
  const a = summarize(against);
  const paired = (pick: (s: BrowserSample) => number): number =>
    percentile(ours.map((r, i) => percentile(r.samples.map((s, k) => pick(s) - pick(against[i]!.samples[k] ?? s)), 0.5)), 0.5);
  const wins = ours.filter((r, i) => percentile(r.samples.map((s) => s.phaseMs), 0.5) < percentile(against[i]!.samples.map((s) => s.phaseMs), 0.5)).length;
  return [
    `**Against \`${args.againstDir}\`** (measured in the same runs, query by query): search phase ${a.phaseMs.toFixed(0)} ms, after its script ${a.searchMs.toFixed(0)} ms, ` +
      `${a.roundTrips} round trips in a row, ${kib(a.bytes)} KiB. Ours minus it, paired: search phase ${signed(paired((s) => s.phaseMs))} ms, ` +
      `after the runtime code ${signed(paired((s) => s.searchMs))} ms; ours faster on ${wins} of ${ours.length} queries.`,
    '',
  ];
}

/** A difference with its sign. */
function signed(value: number): string {
  return `${value > 0 ? '+' : ''}${value.toFixed(1)}`;
}

function machine(): string {
  const cpus = os.cpus();
  return `${os.availableParallelism()} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB memory, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

async function packageVersion(name: string): Promise<string> {
  const pkg = JSON.parse(await readFile(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** Markdown report of one run. */
function renderReport(args: Args, gen: GenSummary, runs: Map<EngineKey, EngineRun>, totalMs: number, load: { before: number; after: number }): string {
  const lines: string[] = [];
  const get = (key: EngineKey): EngineRun | undefined => runs.get(key);
  const medianCold = (run: EngineRun | undefined): number => percentile(okResults(run).map((r) => r.coldBytes), 0.5);
  const maxCold = (run: EngineRun | undefined): number => Math.max(...okResults(run).map((r) => r.coldBytes));
  const medianRequests = (run: EngineRun | undefined): number => percentile(okResults(run).map((r) => r.coldRequests), 0.5);
  const warmAll = (run: EngineRun | undefined): number[] => (run?.queries ?? []).flatMap((r) => r.warm);
  const worstAdversarial = (run: EngineRun | undefined, pick: (a: AdversarialResult) => number): number =>
    Math.max(...(run?.adversarial ?? []).map(pick).filter((n) => !Number.isNaN(n)));

  lines.push(`## Search, ${args.count.toLocaleString('en-US')} skills`);
  lines.push('');
  lines.push(`Run ${new Date().toISOString().slice(0, 10)} on ${machine()}; Pagefind ${versions.pagefind}, MiniSearch ${versions.minisearch}, esbuild ${versions.esbuild}. ` +
    `Content: \`npm run gen -- --count ${args.count}${args.seed === '1' ? '' : ` --seed ${args.seed}`}\` (${formatBytes(gen.skillMd.total)} of SKILL.md; median ${formatBytes(gen.skillMd.median)}, p90 ${formatBytes(gen.skillMd.p90)}, max ${formatBytes(gen.skillMd.max)}). ` +
    `Bytes are what each engine's own client code fetched from a local static server, each response counted at its gzip size (level 6) or raw size when smaller, plus the engine's runtime code (minified, gzip; one request). ` +
    `Warm latency: ${args.repeat} repetitions of every query on the same client. Total bench time ${(totalMs / 1000).toFixed(0)} s; ` +
    `load average ${load.before.toFixed(1)} at the start, ${load.after.toFixed(1)} at the end (timings are only comparable on a quiet machine)` +
    `${networkRetries > 0 ? `; ${networkRetries} local connection failures were retried` : ''}.`);
  lines.push('');
  const notes = [...runs.values()].filter((r) => r.failure !== undefined).map((r) => `- **${label(r.key)}: not measured** — ${r.failure}`);
  for (const key of ENGINES) {
    if (runs.has(key)) continue;
    const why = args.count > DEFAULT_MAX[key] ? ` (left out by default above ${DEFAULT_MAX[key].toLocaleString('en-US')} skills: ${LEFT_OUT_WHY[key]}; \`--engines\` includes it)` : '';
    notes.push(`- ${label(key)}: not run${why}.`);
  }
  if (notes.length > 0) lines.push(...notes, '');

  const o = get('ours');
  const p = get('pagefind');
  const m = get('minisearch');
  const cols = (f: (run: EngineRun | undefined) => string): string => `${f(o)} | ${f(p)} | ${f(m)}`;
  lines.push('| | ours | Pagefind | MiniSearch (1 index) | ours ÷ Pagefind |');
  lines.push('|---|---:|---:|---:|---:|');
  lines.push(`| cold first search, median KiB (gzip, code incl.) | ${cols((r) => fmt(medianCold(r), kib))} | ${ratio(medianCold(o), medianCold(p))} |`);
  lines.push(`| cold first search, max KiB | ${cols((r) => fmt(maxCold(r), kib))} | ${ratio(maxCold(o), maxCold(p))} |`);
  lines.push(`| requests, median (code incl.) | ${cols((r) => fmt(medianRequests(r), String))} | |`);
  lines.push(`| runtime code KiB (gzip) | ${cols((r) => (r?.engine ? kib(r.engine.code.bytes) : '–'))} | ${ratio(o?.engine?.code.bytes ?? 0, p?.engine?.code.bytes ?? 0)} |`);
  lines.push(`| warm p50 ms | ${cols((r) => ms(percentile(warmAll(r), 0.5)))} | ${ratio(percentile(warmAll(o), 0.5), percentile(warmAll(p), 0.5))} |`);
  lines.push(`| warm p95 ms | ${cols((r) => ms(percentile(warmAll(r), 0.95)))} | ${ratio(percentile(warmAll(o), 0.95), percentile(warmAll(p), 0.95))} |`);
  const atLeast = (r: EngineRun | undefined): string => ((r?.adversarial ?? []).some((a) => a.stopped) ? '≥ ' : '');
  lines.push(`| worst hostile query ms, warm median | ${cols((r) => atLeast(r) + fmt(worstAdversarial(r, (a) => a.warmMs), ms))} | |`);
  lines.push(`| worst hostile query ms, first run | ${cols((r) => atLeast(r) + fmt(worstAdversarial(r, (a) => a.firstMs), ms))} | |`);
  lines.push(`| index files | ${cols((r) => (r?.index ? String(r.index.files) : '–'))} | |`);
  lines.push(`| index size MiB (raw / wire) | ${cols((r) => (r?.index ? `${(r.index.raw / 1024 ** 2).toFixed(1)} / ${(r.index.wire / 1024 ** 2).toFixed(1)}` : '–'))} | |`);
  lines.push(`| index build s | ${cols((r) => (r?.index && !Number.isNaN(r.index.buildMs) ? (r.index.buildMs / 1000).toFixed(1) : '–'))} | |`);
  if (m?.loads && m.loads.length > 0) lines.push(`| download + load of the whole index ms | – | – | ${ms(percentile(m.loads, 0.5))} | |`);
  lines.push('');
  lines.push('Our build time is the whole build (every file of the static tree plus the search index); "–" = not measured (e.g. reused output).');
  lines.push('');

  lines.push('### Per query');
  lines.push('');
  lines.push('Cold first search: KiB on the wire / requests (code incl.). Results: how many of the first 20 each engine showed. Pagefind has no fields, exclusion or `*`: those clauses are reduced to their words or dropped (its results then differ by design).');
  lines.push('');
  lines.push('| query | form | ours | Pagefind | ours ÷ Pagefind | MiniSearch | results ours / PF / MS | warm p50 ms ours / PF / MS |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|');
  QUERIES.forEach((query, i) => {
    const at = (run: EngineRun | undefined): QueryResult | undefined => run?.queries[i];
    const cold = (r: QueryResult | undefined): string => (r && typeof r.results === 'number' ? `${kib(r.coldBytes)} / ${r.coldRequests}` : '–');
    const res = (r: QueryResult | undefined): string => (r === undefined ? '–' : typeof r.results === 'number' ? String(r.results) : 'error');
    const warm = (r: QueryResult | undefined): string => (r ? ms(percentile(r.warm, 0.5)) : '–');
    const ob = at(o);
    const pb = at(p);
    lines.push(
      `| \`${query.q.replace(/\|/g, '\\|')}\` | ${query.form} | ${cold(ob)} | ${cold(pb)} | ${ratio(ob?.coldBytes ?? 0, pb?.coldBytes ?? 0)} | ${cold(at(m))} | ${res(ob)} / ${res(pb)} / ${res(at(m))} | ${warm(ob)} / ${warm(pb)} / ${warm(at(m))} |`,
    );
  });
  lines.push('');

  lines.push('### Hostile queries');
  lines.push('');
  lines.push(`Each on a client that already answered one query; ms of the first run / median of the next runs; what the engine answered (an error answer is fine). MiniSearch runs in a worker thread stopped after ${HOSTILE_TIMEOUT_MS / 1000} s.`);
  lines.push('');
  lines.push('| query | ours | Pagefind | MiniSearch |');
  lines.push('|---|---|---|---|');
  ADVERSARIAL.forEach((query, i) => {
    const cell = (run: EngineRun | undefined): string => {
      const a = run?.adversarial[i];
      if (a === undefined) return '–';
      if (Number.isNaN(a.firstMs)) return a.outcome;
      return a.stopped ? `≥ ${ms(a.firstMs)} (${a.outcome})` : `${ms(a.firstMs)} / ${ms(a.warmMs)} (${a.outcome.replace(/\|/g, '\\|')})`;
    };
    lines.push(`| ${query.form} | ${cell(o)} | ${cell(p)} | ${cell(m)} |`);
  });
  lines.push('');

  lines.push('### Targets (issue 3)');
  lines.push('');
  const targets: Array<[string, boolean, string]> = [];
  if (args.count <= 10_000) {
    targets.push([`cold first-search bytes ≤ 0.7 × Pagefind's (median)`, medianCold(o) <= 0.7 * medianCold(p), `${ratio(medianCold(o), medianCold(p))} (max per query ${maxRatio(o, p)})`]);
    targets.push(['warm p95 ≤ 5 ms', percentile(warmAll(o), 0.95) <= 5, `${ms(percentile(warmAll(o), 0.95))} ms`]);
    targets.push(['worst hostile query ≤ 50 ms', worstAdversarial(o, (a) => a.warmMs) <= 50, `${fmt(worstAdversarial(o, (a) => a.warmMs), ms)} ms warm, ${fmt(worstAdversarial(o, (a) => a.firstMs), ms)} ms first run`]);
  } else {
    targets.push(['cold first-search bytes ≤ 300 KiB (median)', medianCold(o) <= 300 * 1024, `${kib(medianCold(o))} KiB (max ${kib(maxCold(o))} KiB)`]);
    targets.push(['warm p95 ≤ 20 ms', percentile(warmAll(o), 0.95) <= 20, `${ms(percentile(warmAll(o), 0.95))} ms`]);
  }
  for (const [what, met, value] of targets) lines.push(`- ${o?.failure === undefined && o !== undefined ? (met ? 'met' : '**missed**') : 'not measured'}: ${what} — ${value}`);
  return lines.join('\n');
}

function okResults(run: EngineRun | undefined): QueryResult[] {
  return (run?.queries ?? []).filter((r) => typeof r.results === 'number');
}

function maxRatio(a: EngineRun | undefined, b: EngineRun | undefined): string {
  let worst = 0;
  (a?.queries ?? []).forEach((r, i) => {
    const other = b?.queries[i];
    if (other && typeof r.results === 'number' && other.coldBytes > 0) worst = Math.max(worst, r.coldBytes / other.coldBytes);
  });
  return worst > 0 ? `${worst.toFixed(2)}×` : '–';
}

function fmt(n: number, f: (n: number) => string): string {
  return Number.isFinite(n) ? f(n) : '–';
}

function label(key: EngineKey): string {
  return key === 'ours' ? 'ours' : key === 'pagefind' ? 'Pagefind' : 'MiniSearch';
}

const versions = {
  pagefind: await packageVersion('pagefind'),
  minisearch: await packageVersion('minisearch'),
  esbuild: await packageVersion('esbuild'),
};

/** Replace (or append) the section `name` of a Markdown file, between HTML comment markers. */
async function writeSection(file: string, name: string, body: string): Promise<void> {
  const begin = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const existing = existsSync(file)
    ? await readFile(file, 'utf8')
    : '# Benchmarks\n\nFigures written by the benchmark scripts (`npm run bench:search`); each section is replaced by the next run of the same size.\n';
  const section = `${begin}\n${body}\n${end}`;
  const at = existing.indexOf(begin);
  const stop = existing.indexOf(end);
  const next = at >= 0 && stop > at ? existing.slice(0, at) + section + existing.slice(stop + end.length) : `${existing.trimEnd()}\n\n${section}\n`;
  await writeFile(file, next);
}

/**
 * Large corpora need more heap than Node's default: re-run this script in a child with a larger
 * limit (same loader flags) instead of asking every caller to remember the flag.
 */
function relaunchWithHeap(): boolean {
  const wantMiB = 12_288;
  const at = process.argv.indexOf('--count');
  const count = at < 0 ? 10_000 : Number(process.argv[at + 1]);
  if (!(count > 20_000) || getHeapStatistics().heap_size_limit >= wantMiB * 1024 * 1024 * 0.9) return false;
  const child = spawnSync(process.execPath, [...process.execArgv, `--max-old-space-size=${wantMiB}`, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exitCode = child.status ?? 1;
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href && !relaunchWithHeap()) {
  try {
    await main();
  } catch (error) {
    console.error(`bench:search: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  }
}
