/**
 * The single-index baseline of the search benchmark: one MiniSearch index of name, description
 * and content (with our tokenizer and term processing from src/search/options.ts), stored
 * fields enough to show a result (name, a 200-character description, stars), serialized as one
 * JSON file. A client downloads that file, loads it, and searches in memory.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, workerData, type Worker } from 'node:worker_threads';
import { startWorker } from '../builder/threads.ts';
import MiniSearch, { type Options } from 'minisearch';
import type { SkillRecord } from '../builder/model.ts';
import { processTerm, words } from '../src/search/options.ts';
import { bundledCodeSize, type AdversarialResult, type Engine } from './bench-engine.ts';
import { gzipSize } from './bench-http.ts';
import { toMiniSearch, type BenchQuery } from './bench-queries.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));

interface Doc {
  id: string;
  name: string;
  description: string;
  content: string;
  summary: string;
  stars: number;
}

const OPTIONS: Options<Doc> = {
  fields: ['name', 'description', 'content'],
  storeFields: ['name', 'summary', 'stars'],
  tokenize: words,
  processTerm: (term) => processTerm(term) ?? false,
  searchOptions: { boost: { name: 3, description: 2 } },
};

/** Build the index of `skills` and write it to `file`; returns its sizes and the time taken. */
export async function buildMiniSearch(skills: readonly SkillRecord[], file: string): Promise<{ raw: number; gzip: number; ms: number }> {
  const started = performance.now();
  const index = new MiniSearch<Doc>(OPTIONS);
  for (const s of skills) {
    index.add({ id: s.id, name: s.name, description: s.description, content: s.body, summary: s.description.slice(0, 200), stars: s.stars });
  }
  const json = Buffer.from(JSON.stringify(index));
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, json);
  return { raw: json.length, gzip: gzipSize(json), ms: performance.now() - started };
}

/** The engine over the index served at `indexUrl`; `loads` collects each client's download + load time (ms). */
export async function miniSearchEngine(indexUrl: string): Promise<Engine & { loads: number[] }> {
  const code = await bundledCodeSize(
    `export { default as MiniSearch } from 'minisearch';\nexport { processTerm, words } from './src/search/options.ts';\n`,
    REPO,
  );
  const loads: number[] = [];
  return {
    name: 'MiniSearch',
    code: { bytes: code.gzip, requests: 1 },
    // Every query downloads the same whole index: load it once, count it for each query.
    coldOnce: true,
    maxQueryLength: 200,
    loads,
    async fresh(fetch) {
      const started = performance.now();
      const response = await fetch(indexUrl);
      if (!response.ok) throw new Error(`GET ${indexUrl} answered ${response.status}`);
      const index = MiniSearch.loadJSON<Doc>(await response.text(), OPTIONS);
      loads.push(performance.now() - started);
      return {
        async run(q) {
          return index.search(toMiniSearch(q)).slice(0, 20).length;
        },
      };
    },
  };
}

/** Messages of the hostile-query worker. */
type WorkerReply = { ready: true } | { firstMs: number; warmMs: number; outcome: string };

/** Runs `q` and times it (ms). */
function timedSearch(index: MiniSearch<Doc>, q: string): { ms: number; outcome: string } {
  const t = performance.now();
  const n = index.search(toMiniSearch(q)).slice(0, 20).length;
  return { ms: performance.now() - t, outcome: `${n} results` };
}

/**
 * Hostile queries on the single index, each in a worker thread so that one running for minutes
 * (MiniSearch has no guard: 100 one-letter prefix terms ran 6.5 minutes on 10k skills) can be
 * stopped after `timeoutMs` and reported as such; the worker is then started again. Each worker
 * loads the index from `indexFile` and answers `warmup` first, like the other engines' clients.
 */
export async function miniSearchHostile(indexFile: string, queries: readonly BenchQuery[], warmup: string, timeoutMs: number): Promise<AdversarialResult[]> {
  let worker: Worker | undefined;
  let pending: ((reply: WorkerReply) => void) | undefined;
  const next = (): Promise<WorkerReply> => new Promise((done) => (pending = done));
  const start = async (): Promise<void> => {
    // This file again, in a thread (builder/threads.ts registers tsx there: a worker inherits no loader).
    worker = startWorker(import.meta.url, 'bench-minisearch', { workerData: { role: 'minisearch-hostile', indexFile, warmup } });
    worker.on('message', (reply: WorkerReply) => pending?.(reply));
    worker.on('error', (error) => pending?.({ firstMs: NaN, warmMs: NaN, outcome: `worker failed: ${error.message}` }));
    await next();
  };
  const out: AdversarialResult[] = [];
  try {
    for (const { q, form } of queries) {
      if (q.length > 200) {
        out.push({ q, form, outcome: 'not run: over 200 characters', firstMs: NaN, warmMs: NaN });
        continue;
      }
      if (worker === undefined) await start();
      const reply = next();
      worker!.postMessage(q);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answer = await Promise.race([reply, new Promise<undefined>((done) => (timer = setTimeout(() => done(undefined), timeoutMs)))]);
      clearTimeout(timer);
      if (answer === undefined || 'ready' in answer) {
        await worker!.terminate();
        worker = undefined;
        out.push({ q, form, outcome: `stopped after ${timeoutMs / 1000} s`, firstMs: timeoutMs, warmMs: timeoutMs, stopped: true });
      } else out.push({ q, form, ...answer });
    }
  } finally {
    await worker?.terminate();
  }
  return out;
}

/** Worker side of `miniSearchHostile`: load, warm up, then answer each query posted. */
async function hostileWorker(data: { indexFile: string; warmup: string }): Promise<void> {
  const index = MiniSearch.loadJSON<Doc>(await readFile(data.indexFile, 'utf8'), OPTIONS);
  timedSearch(index, data.warmup);
  const port = parentPort!;
  port.on('message', (q: string) => {
    const first = timedSearch(index, q);
    // Slow queries are not repeated (see measureAdversarial).
    const warmMs = first.ms < 2_000 ? timedSearch(index, q).ms : first.ms;
    port.postMessage({ firstMs: first.ms, warmMs, outcome: first.outcome } satisfies WorkerReply);
  });
  port.postMessage({ ready: true } satisfies WorkerReply);
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === 'minisearch-hostile') {
  void hostileWorker(workerData as { indexFile: string; warmup: string });
}
