/**
 * `npm run bench:fair [-- --count 10000]`: fair CPU on the Node server. Heavy searches (open-phrase
 * autocompletes of common words, 16 at a time, `--heavy` in all) run against a synthetic build of
 * `--count` skills while a light client asks for list pages one after another; printed: the light
 * requests' latency (p50, p99, max), the heavy ones', and how many were refused (429), first with
 * no search limit (`--max-searches 0`), two at once, then the default (one at a time). Loopback
 * only, a fixed number of requests.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { percentile } from './bench-engine.ts';
import { startServe, syntheticBuild } from './bench-process.ts';

/** Open phrases over common words: each completion runs a phrase count over large postings. */
const WORDS = ['file', 'run', 'check', 'make', 'output', 'input', 'change', 'list', 'step', 'value', 'name', 'set', 'time', 'data', 'user', 'code', 'line', 'command', 'result', 'error', 'report', 'test', 'rule', 'type', 'field', 'note'];
export const HEAVY_URLS = WORDS.flatMap((a) => WORDS.map((b) => `/api/v1/skills/autocomplete?q=${encodeURIComponent(`"${a} ${b.slice(0, 2)}`)}&limit=20`));

const ms = (n: number): string => `${n.toFixed(0)} ms`;

/** How much heavy load `fairRun` sends. */
export interface FairLoad {
  /** Heavy requests in all. */
  heavy: number;
  /** Heavy requests at a time. */
  concurrency: number;
}

/**
 * One run: `skills-api serve` of `out` with `args`, the heavy load, and list pages one after
 * another meanwhile; returns a row of the table (label, list count, p50, p99, max, heavy answered,
 * heavy p50, p99, refused).
 */
export async function fairRun(out: string, label: string, args: string[], load: FairLoad): Promise<string> {
  const { url, child } = await startServe(out, args);
  try {
    // Warm: the manifest, list pages and the index root are loaded once before measuring.
    await (await fetch(`${url}/api/v1/skills`)).arrayBuffer();
    await (await fetch(`${url}${HEAVY_URLS[0]}`)).arrayBuffer();
    const heavyTimes: number[] = [];
    let refused = 0;
    let next = 0;
    const total = load.heavy;
    let heavyDone = false;
    const heavy = Promise.all(
      Array.from({ length: load.concurrency }, async () => {
        while (next < total) {
          const target = HEAVY_URLS[next++ % HEAVY_URLS.length]!;
          const t = performance.now();
          const response = await fetch(`${url}${target}`);
          await response.arrayBuffer();
          if (response.status === 429) refused++;
          else heavyTimes.push(performance.now() - t);
        }
      }),
    ).then(() => (heavyDone = true));
    const lightTimes: number[] = [];
    for (let page = 1; !heavyDone; page = (page % 50) + 1) {
      const t = performance.now();
      await (await fetch(`${url}/api/v1/skills?page=${page}`)).arrayBuffer();
      lightTimes.push(performance.now() - t);
    }
    await heavy;
    return `| ${label} | ${lightTimes.length} | ${ms(percentile(lightTimes, 0.5))} | ${ms(percentile(lightTimes, 0.99))} | ${ms(Math.max(...lightTimes))} | ${heavyTimes.length} | ${ms(percentile(heavyTimes, 0.5))} | ${ms(percentile(heavyTimes, 0.99))} | ${refused} |`;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '10000' },
      heavy: { type: 'string', default: '400' },
      concurrency: { type: 'string', default: '16' },
      work: { type: 'string', default: 'bench-out/fair' },
    },
    strict: true,
  });
  const count = Number(values.count);
  const out = await syntheticBuild(count, values.work);
  const load = { heavy: Number(values.heavy), concurrency: Number(values.concurrency) };
  const rows = [
    await fairRun(out, 'no search limit (`--max-searches 0`)', ['--max-searches', '0'], load),
    await fairRun(out, 'two at once (`--max-searches 2`)', ['--max-searches', '2'], load),
    await fairRun(out, 'default (one at a time, 8 ms slices)', [], load),
  ];
  console.log(
    [
      `### Fair CPU at ${count.toLocaleString('en')} skills: ${values.heavy} open-phrase autocompletes, ${values.concurrency} at a time, and list pages meanwhile`,
      '',
      FAIR_TABLE_HEAD,
      ...rows,
    ].join('\n'),
  );
}

/** The head of the table `fairRun` rows go in. */
export const FAIR_TABLE_HEAD = '| server | list requests | list p50 | list p99 | list max | heavy answered | heavy p50 | heavy p99 | heavy refused (429) |\n|---|---|---|---|---|---|---|---|---|';

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
