/**
 * The browser mode of the search benchmark (`npm run bench:search -- --browser`): a cold first
 * search in Chromium (Debian's `/usr/bin/chromium` driven by playwright-core) over a local static
 * server that holds every response `delayMs` before sending it, as a network with that round
 * trip would. Ours runs through the Service Worker (`sw.js` of the build); Pagefind through its
 * own `pagefind.js`, in the same run; with ours, the floor (`FLOOR_SW`: the same requests through a
 * worker that computes nothing).
 *
 * Each run is a fresh browser context (no Service Worker, empty HTTP cache). The *search phase*
 * starts when the page asks for the engine's runtime code and ends when it holds the first 20
 * results: ours registers `sw.js`, waits until it controls the page and fetches
 * `api/v1/skills/search?q=…`; Pagefind imports `pagefind.js`, searches and loads the `data()` of
 * the first 20 results. The server records when each request arrived and when its response went
 * out: the *round trips in a row* are the longest chain of requests each sent after the previous
 * one's response (what the browser waited for one after another, queueing behind its 6
 * connections per host over HTTP/1.1 included).
 *
 * `protocol: 'h2'` serves over HTTP/2 (node:http2 `createSecureServer`, a self-signed certificate
 * made for the run by `openssl`, Chromium told to ignore certificate errors), as every host the
 * output is deployed to does: there all requests of a layer share one connection, so they take
 * one round trip whatever their number. `'h1'` is plain HTTP/1.1 on 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../test/helpers/browser-setup.ts';
import { percentile } from './bench-engine.ts';
import { gzipSize } from './bench-http.ts';

const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
};

/** One request as the server saw it (ms of the server's clock). */
interface Seen {
  path: string;
  start: number;
  end: number;
  bytes: number;
  /** `1.1` or `2.0`, as the server saw the request. */
  http: string;
}

/** The transport of the delay server. */
export type Protocol = 'h1' | 'h2';

/** A self-signed certificate for 127.0.0.1, made for this run (`openssl` on the PATH). */
async function selfSignedCertificate(): Promise<{ key: Buffer; cert: Buffer }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface DelayServer {
  origin: string;
  log: Seen[];
  close(): Promise<void>;
}

/**
 * A static server of `root` that holds each response `delayMs`; `pages` are extra in-memory files
 * by path (HTML, or JavaScript when the path ends in `.js`).
 */
async function startDelayServer(root: string, delayMs: number, pages: Record<string, string>, protocol: Protocol): Promise<DelayServer> {
  const base = resolve(root);
  const log: Seen[] = [];
  const wire = new Map<string, number>();
  const handle = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): void => {
    const start = performance.now();
    const http = req.httpVersion;
    void (async () => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      let body: Buffer | undefined;
      let type = 'text/html; charset=utf-8';
      if (pages[pathname] !== undefined) {
        body = Buffer.from(pages[pathname]);
        if (pathname.endsWith('.js')) type = TYPES['.js']!;
      } else {
        const file = resolve(base, `.${pathname}`);
        const info = file.startsWith(base + sep) ? await stat(file).catch(() => undefined) : undefined;
        if (info?.isFile()) {
          body = await readFile(file);
          type = TYPES[extname(file)] ?? 'application/octet-stream';
        }
      }
      await new Promise((done) => setTimeout(done, delayMs));
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        log.push({ path: pathname, start, end: performance.now(), bytes: 0, http });
        return;
      }
      res.writeHead(200, { 'content-type': type, 'content-length': body.length, 'cache-control': 'no-store' });
      res.end(body, () => {
        const end = performance.now();
        // Sized after the response went out: compressing is not part of the round trip.
        let bytes = wire.get(pathname);
        if (bytes === undefined) wire.set(pathname, (bytes = Math.min(body.length, gzipSize(body))));
        log.push({ path: pathname, start, end, bytes, http });
      });
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  };
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  const server =
    protocol === 'h2'
      ? createSecureServer({ ...(await selfSignedCertificate()), allowHTTP1: true }, handle).on('session', (s: Http2Session) => {
          sessions.add(s);
          s.on('close', () => sessions.delete(s));
        })
      : createServer({ keepAliveTimeout: 120_000 }, handle);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('delay server has no port');
  return {
    origin: `${protocol === 'h2' ? 'https' : 'http'}://127.0.0.1:${address.port}`,
    log,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sessions) s.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

/**
 * Per request of `sorted` (by start), its place in the longest chain of requests each sent after
 * the previous one's response: a request sent once another had come back may have waited for it.
 * A little slack absorbs clock jitter.
 */
function chainDepths(sorted: ReadonlyArray<{ start: number; end: number }>): number[] {
  const depth: number[] = [];
  sorted.forEach((r, i) => {
    let d = 1;
    for (let j = 0; j < i; j++) if (sorted[j]!.end <= r.start + 1) d = Math.max(d, depth[j]! + 1);
    depth.push(d);
  });
  return depth;
}

/** Longest chain of requests each sent after the previous one's response (`chainDepths`). */
export function roundTripsInRow(log: ReadonlyArray<{ start: number; end: number }>): number {
  return Math.max(0, ...chainDepths([...log].sort((a, b) => a.start - b.start)));
}

/**
 * The files of a run in the order the browser had to wait for them: one list per link of the
 * chain (`chainDepths`), without the paths of `skip` (the runtime code).
 */
export function layersOf(log: ReadonlyArray<{ path: string; start: number; end: number }>, skip: ReadonlySet<string>): string[][] {
  const sorted = [...log].sort((a, b) => a.start - b.start);
  const layers: string[][] = [];
  chainDepths(sorted).forEach((d, i) => {
    if (!skip.has(sorted[i]!.path)) (layers[d] ??= []).push(sorted[i]!.path);
  });
  return layers.filter((layer) => layer !== undefined);
}

/**
 * `--worker-timeline`: `script` (a Service Worker) with marks on the worker's own clock
 * (`performance.now()`, from the worker's start): when its code starts running (it has been
 * compiled), when it has run, each install / activate / fetch event as it arrives (listeners
 * added before the script's own), and each file fetch as it is asked for and as its response
 * comes back, by the first letter of the file name. Wrapping `fetch` and the marks cost a little
 * of their own, alike for ours and the floor; the phase figures come from runs without them.
 */
export function withTimeline(script: string): string {
  const strict = script.startsWith('"use strict";') ? '"use strict";' : '';
  return `${strict}self.__benchMarks=[["start",performance.now()]];{const m=(n)=>self.__benchMarks.push([n,performance.now()]);` +
    `for(const t of ["install","activate","fetch"])self.addEventListener(t,()=>m(t));` +
    `self.addEventListener("fetch",(e)=>{const r=e.respondWith;e.respondWith=function(p){Promise.resolve(p).then(()=>m("answer"),()=>{});return r.call(this,p);};});` +
    `const f=self.fetch;self.fetch=function(...a){const k=String(a[0] instanceof Request?a[0].url:a[0]).split("/").pop().slice(0,1);m("ask "+k);` +
    `const r=f.apply(this,a);r.then(()=>m("back "+k),()=>{});return r;};}\n${script.slice(strict.length)}\n;self.__benchMarks.push(["ran",performance.now()]);`;
}

/** A run of a worker on its own clock (ms from its start; `withTimeline`). */
export interface WorkerTimeline {
  /** Its code starts running: the worker started and compiled the script. */
  compiled: number;
  /** Its code has run. */
  ran: number;
  activated: number;
  /** The page's search request arrives. */
  request: number;
  /** The first file is asked for, after the request (the first index file or the manifest). */
  firstAsked: number;
  /** The last index file (anything but a summary shard) is back, after the request. */
  indexBack: number;
  /** The first summary shard is asked for. */
  summariesAsked: number;
  /** The last summary shard is back. */
  summariesBack: number;
  /** The worker's answer is ready (the promise it responds with resolves), when it answered. */
  answered?: number;
}

/** The timeline of a run from its marks (`withTimeline`), or undefined when a step is missing. */
export function timelineOf(marks: ReadonlyArray<readonly [string, number]>): WorkerTimeline | undefined {
  const first = (name: string): number | undefined => marks.find(([n]) => n === name)?.[1];
  const request = first('fetch');
  if (request === undefined) return undefined;
  const after = marks.filter(([, t]) => t >= request);
  const times = (test: (name: string) => boolean): number[] => after.filter(([n]) => test(n)).map(([, t]) => t);
  const indexBack = times((n) => n.startsWith('back ') && n !== 'back d');
  const firstAsked = times((n) => n.startsWith('ask '));
  const asked = times((n) => n === 'ask d');
  const back = times((n) => n === 'back d');
  const [compiled, ran, activated, answer] = [first('start'), first('ran'), first('activate'), first('answer')];
  if (compiled === undefined || ran === undefined || activated === undefined || indexBack.length === 0 || firstAsked.length === 0 || asked.length === 0 || back.length === 0) return undefined;
  return { compiled, ran, activated, request, firstAsked: Math.min(...firstAsked), indexBack: Math.max(...indexBack), summariesAsked: Math.min(...asked), summariesBack: Math.max(...back), ...(answer === undefined ? {} : { answered: answer }) };
}

/**
 * The floor: a Service Worker that does none of the work, asked for the files a run of ours
 * fetched, layer after layer (`layers` in the search URL), then answering a fixed body. Its phase
 * is what Chromium, the server and the round trips cost with the same requests and bytes, so
 * ours minus the floor is what our script and search cost.
 */
const FLOOR_SW = `self.skipWaiting();
self.addEventListener('install', (e) => e.waitUntil(self.skipWaiting()));
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (!url.pathname.startsWith('/api/') || url.pathname.endsWith('.json')) return;
  e.respondWith((async () => {
    for (const layer of JSON.parse(url.searchParams.get('layers'))) await Promise.all(layer.map((p) => fetch(p).then((r) => r.arrayBuffer())));
    return new Response(JSON.stringify({ data: Array.from({ length: 20 }, (_, i) => ({ id: i })) }), { headers: { 'content-type': 'application/json' } });
  })());
});`;

/**
 * The page of a run through a Service Worker: it registers `script`, waits until the worker
 * controls it, then asks for the search with the run's argument as parameter `param`.
 */
function workerPage(script: string, param: string): string {
  return `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>bench</title><script>
window.run = async (arg) => {
  const t0 = performance.now();
  await navigator.serviceWorker.register('${script}', { scope: '/' });
  if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
  const t1 = performance.now();
  const res = await fetch('/api/v1/skills/search?${param}=' + encodeURIComponent(arg));
  const body = await res.json();
  const t2 = performance.now();
  return { phase: t2 - t0, search: t2 - t1, results: res.ok ? body.data.length : -1 };
};
</script>`;
}

const OURS_PAGE = workerPage('/sw.js', 'q');
const FLOOR_PAGE = workerPage('/__floor-sw.js', 'layers');

const PAGEFIND_PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>bench</title><script>
window.run = async (q) => {
  const t0 = performance.now();
  const pf = await import('/pagefind/pagefind.js');
  const t1 = performance.now();
  const found = await pf.search(q);
  const data = await Promise.all(found.results.slice(0, 20).map((r) => r.data()));
  const t2 = performance.now();
  return { phase: t2 - t0, search: t2 - t1, results: data.length };
};
</script>`;

/**
 * What a run measures: our Service Worker, the floor (a worker that only fetches the files ours
 * did, `FLOOR_SW`), another build of ours to compare with (`againstDir`) and Pagefind.
 */
export type BrowserEngine = 'ours' | 'floor' | 'against' | 'pagefind';

/** One cold first search. */
export interface BrowserSample {
  /** Runtime code to results, ms. */
  phaseMs: number;
  /** Ours: the search request alone once the worker controls the page; Pagefind: after pagefind.js loaded. */
  searchMs: number;
  roundTrips: number;
  requests: number;
  /** Wire bytes (gzip or raw, the smaller) of every response of the phase. */
  bytes: number;
  results: number;
  /** HTTP versions the server saw (`2.0`, `1.1`). */
  http: string[];
  /** With `timeline`: the worker's own clock. */
  timeline?: WorkerTimeline;
}

export interface BrowserQueryResult {
  q: string;
  samples: BrowserSample[];
}

export interface BrowserOptions {
  /** Our build output (served at the root: the build's base is `/`). */
  oursDir?: string;
  /**
   * Another build of the same content (an older version, a change being tried), measured in the
   * same runs as ours, query by query, so that the load's drift hits both alike.
   */
  againstDir?: string;
  /** A folder holding `pagefind/`. */
  pagefindDir?: string;
  delayMs: number;
  /** HTTP/2 (TLS) or HTTP/1.1. */
  protocol: Protocol;
  runs: number;
  queries: readonly string[];
  /** Serve the workers with marks on their own clock (`withTimeline`) and read them after each run. */
  timeline?: boolean;
  log?: (line: string) => void;
}

/** Median figures of one engine. */
export interface BrowserSummary {
  phaseMs: number;
  searchMs: number;
  roundTrips: number;
  requests: number;
  bytes: number;
}

/** Medians over queries of each query's median. */
export function summarize(results: readonly BrowserQueryResult[]): BrowserSummary {
  const med = (pick: (s: BrowserSample) => number): number => percentile(results.map((r) => percentile(r.samples.map(pick), 0.5)), 0.5);
  return { phaseMs: med((s) => s.phaseMs), searchMs: med((s) => s.searchMs), roundTrips: med((s) => s.roundTrips), requests: med((s) => s.requests), bytes: med((s) => s.bytes) };
}

/**
 * Run every query `runs` times cold against each engine given, and with ours its floor; engines
 * alternate per run so load drifts hit them all.
 */
export async function measureBrowser(options: BrowserOptions): Promise<{ [key in BrowserEngine]?: BrowserQueryResult[] }> {
  const executablePath = findChromium();
  if (executablePath === undefined) throw new Error('no Chromium found (/usr/bin/chromium or chromium on the PATH)');
  // The certificate is made for this run: Chromium is told to accept it (a Service Worker does not
  // register from a page with a certificate error otherwise).
  const args = options.protocol === 'h2' ? [...CHROMIUM_ARGS, '--ignore-certificate-errors'] : CHROMIUM_ARGS;
  // The worker runs as in a user's browser: playwright-core otherwise inspects a Service Worker's
  // network, which makes Chromium capture the script's stack for every request the worker sends
  // (BENCHMARKS.md "The floor beside ours"). The page is inspected for both
  // engines alike; the run reads its requests from the server, not from Playwright.
  process.env.PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK ??= '1';
  const browser: Browser = await chromium.launch({ executablePath, args });
  const servers: Array<[key: BrowserEngine, server: DelayServer, page: string]> = [];
  try {
    if (options.oursDir !== undefined) {
      const ours: Record<string, string> = { '/__bench.html': OURS_PAGE };
      if (options.timeline === true) ours['/sw.js'] = withTimeline(await readFile(join(options.oursDir, 'sw.js'), 'utf8'));
      servers.push(['ours', await startDelayServer(options.oursDir, options.delayMs, ours, options.protocol), '/__bench.html']);
      const pages = { '/__bench.html': FLOOR_PAGE, '/__floor-sw.js': options.timeline === true ? withTimeline(FLOOR_SW) : FLOOR_SW };
      servers.push(['floor', await startDelayServer(options.oursDir, options.delayMs, pages, options.protocol), '/__bench.html']);
      if (options.againstDir !== undefined) {
        const against: Record<string, string> = { '/__bench.html': OURS_PAGE };
        if (options.timeline === true) against['/sw.js'] = withTimeline(await readFile(join(options.againstDir, 'sw.js'), 'utf8'));
        servers.push(['against', await startDelayServer(options.againstDir, options.delayMs, against, options.protocol), '/__bench.html']);
      }
    }
    if (options.pagefindDir !== undefined) servers.push(['pagefind', await startDelayServer(options.pagefindDir, options.delayMs, { '/__bench.html': PAGEFIND_PAGE }, options.protocol), '/__bench.html']);
    const out: { [key in BrowserEngine]?: BrowserQueryResult[] } = {};
    for (const [key] of servers) out[key] = options.queries.map((q) => ({ q, samples: [] }));
    for (let run = 0; run < options.runs; run++) {
      options.log?.(`browser run ${run + 1}/${options.runs}`);
      for (const [qi, q] of options.queries.entries()) {
        // The floor replays the files of the run of ours just before it.
        let layers = '[]';
        // The build compared with goes first in every other run, so neither always follows the
        // floor (the floor follows ours: it replays ours' files).
        const order = run % 2 === 1 && servers.some(([key]) => key === 'against') ? [...servers.filter(([key]) => key === 'against'), ...servers.filter(([key]) => key !== 'against')] : servers;
        for (const [key, server, path] of order) {
          const context = await browser.newContext({ ignoreHTTPSErrors: options.protocol === 'h2' });
          try {
            const page = await context.newPage();
            await page.goto(server.origin + path);
            server.log.length = 0;
            const arg = key === 'floor' ? layers : q;
            const got = await page.evaluate((query) => (window as unknown as { run(q: string): Promise<{ phase: number; search: number; results: number }> }).run(query), arg);
            const seen = [...server.log];
            const worker = options.timeline === true ? context.serviceWorkers()[0] : undefined;
            const marks = worker === undefined ? undefined : await worker.evaluate(() => (self as unknown as { __benchMarks?: Array<[string, number]> }).__benchMarks ?? []);
            const timeline = marks === undefined ? undefined : timelineOf(marks);
            if (key === 'ours') layers = JSON.stringify(layersOf(seen, new Set(['/sw.js'])));
            if (process.env.BENCH_BROWSER_TRACE) {
              const t0 = Math.min(...seen.map((x) => x.start));
              for (const x of seen.sort((a, b) => a.start - b.start)) options.log?.(`${key} ${q}: ${(x.start - t0).toFixed(0)}–${(x.end - t0).toFixed(0)} ${x.path} ${x.bytes}`);
            }
            out[key]![qi]!.samples.push({
              phaseMs: got.phase,
              searchMs: got.search,
              roundTrips: roundTripsInRow(seen),
              requests: seen.length,
              bytes: seen.reduce((n, s) => n + s.bytes, 0),
              results: got.results,
              http: [...new Set(seen.map((s) => s.http))].sort(),
              ...(timeline === undefined ? {} : { timeline }),
            });
          } finally {
            await context.close();
          }
        }
      }
    }
    return out;
  } finally {
    for (const [, server] of servers) await server.close();
    await browser.close();
  }
}
