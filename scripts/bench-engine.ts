/**
 * What the search benchmark measures, the same way for every engine: a cold first search (a
 * fresh client with empty caches: bytes on the wire and requests, runtime code included), warm
 * latency (the same client again), and hostile queries. Engines are adapters around each one's
 * own client code (scripts/bench-ours.ts, bench-pagefind.ts, bench-minisearch.ts).
 */
import { build } from 'esbuild';
import { CountingFetch, gzipSize } from './bench-http.ts';
import type { BenchQuery } from './bench-queries.ts';

/** One client of an engine, with its own caches. */
export interface Instance {
  /** Answer `q` as a page of 20 results with their display data; resolves the number of results shown. */
  run(q: string): Promise<number>;
}

/** An engine under test. */
export interface Engine {
  name: string;
  /** Runtime code the client loads before its first fetch (minified, gzip), one request per file. */
  code: { bytes: number; requests: number };
  /** A new client whose every request goes through `fetch`. */
  fresh(fetch: typeof globalThis.fetch): Promise<Instance>;
  /** Longest query the engine is given (longer ones are not run): an app would check the length first. */
  maxQueryLength?: number;
  /**
   * The cold start does not depend on the query (one whole index): measure it once and count it
   * for every query, instead of loading a fresh client per query.
   */
  coldOnce?: boolean;
}

/** Cold and warm figures of one query on one engine. */
export interface QueryResult {
  q: string;
  form: string;
  /** Results shown (at most 20), or an error message. */
  results: number | string;
  /** Wire bytes of the cold first search, runtime code included. */
  coldBytes: number;
  coldRequests: number;
  /** Wall time of the cold search against the local server (ms). */
  coldMs: number;
  /** Warm latencies (ms), one per repetition. */
  warm: number[];
}

/** Size of JavaScript bundled from `source` (an ES module importing what the client needs): minified, gzip. */
export async function bundledCodeSize(source: string, resolveDir: string): Promise<{ raw: number; gzip: number }> {
  const result = await build({
    stdin: { contents: source, resolveDir, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0]!.contents;
  return { raw: bytes.length, gzip: gzipSize(bytes) };
}

/** Cold first search of each query (fresh client each), then `repeat` warm runs on that client. */
export async function measureQueries(engine: Engine, queries: readonly BenchQuery[], repeat: number): Promise<QueryResult[]> {
  const out: QueryResult[] = [];
  let shared: { instance: Instance; bytes: number; requests: number; ms: number } | undefined;
  for (const { q, form } of queries) {
    const counter = new CountingFetch();
    const started = performance.now();
    let results: number | string;
    let instance: Instance | undefined;
    let coldMs: number;
    try {
      if (shared === undefined) {
        instance = await engine.fresh(counter.fetch);
        results = await instance.run(q);
        coldMs = performance.now() - started;
        if (engine.coldOnce) shared = { instance, bytes: counter.bytes, requests: counter.requests, ms: coldMs };
      } else {
        instance = shared.instance;
        results = await instance.run(q);
        coldMs = shared.ms;
      }
    } catch (error) {
      results = `error: ${(error as Error).message.split('\n')[0]}`;
      coldMs = performance.now() - started;
    }
    const warm: number[] = [];
    if (instance !== undefined && typeof results === 'number') {
      for (let i = 0; i < repeat; i++) {
        const t = performance.now();
        await instance.run(q);
        warm.push(performance.now() - t);
      }
    }
    out.push({
      q,
      form,
      results,
      coldBytes: (shared?.bytes ?? counter.bytes) + engine.code.bytes,
      coldRequests: (shared?.requests ?? counter.requests) + engine.code.requests,
      coldMs,
      warm,
    });
  }
  return out;
}

/** Latency of one hostile query: its first run on a warmed-up client and the median of a few more. */
export interface AdversarialResult {
  q: string;
  form: string;
  /** Results or the error the engine answered (an error answer is a fine answer to a hostile query). */
  outcome: string;
  firstMs: number;
  warmMs: number;
  /** Stopped at a time limit: the times are a lower bound. */
  stopped?: boolean;
}

/**
 * Run each hostile query on one client that has already answered `warmup` (so its root files are
 * loaded): first run (may fetch index files) and the median of `repeat` more. Runs slower than
 * `slowMs` are not repeated (a single MiniSearch query can take a minute).
 */
export async function measureAdversarial(
  engine: Engine,
  queries: readonly BenchQuery[],
  warmup: string,
  repeat: number,
  slowMs = 2_000,
): Promise<AdversarialResult[]> {
  const instance = await engine.fresh(new CountingFetch().fetch);
  await instance.run(warmup);
  const out: AdversarialResult[] = [];
  for (const { q, form } of queries) {
    if (engine.maxQueryLength !== undefined && q.length > engine.maxQueryLength) {
      out.push({ q, form, outcome: `not run: over ${engine.maxQueryLength} characters`, firstMs: NaN, warmMs: NaN });
      continue;
    }
    const timed = async (): Promise<{ ms: number; outcome: string }> => {
      const t = performance.now();
      let outcome: string;
      try {
        outcome = `${await instance.run(q)} results`;
      } catch (error) {
        outcome = (error as Error).message.split('\n')[0]!.slice(0, 60);
      }
      return { ms: performance.now() - t, outcome };
    };
    const first = await timed();
    const times: number[] = [];
    if (first.ms < slowMs) for (let i = 0; i < repeat; i++) times.push((await timed()).ms);
    out.push({ q, form, outcome: first.outcome, firstMs: first.ms, warmMs: times.length > 0 ? percentile(times, 0.5) : first.ms });
  }
  return out;
}

/** The `p` quantile (0..1) of `values` (nearest rank); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}
