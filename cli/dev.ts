/**
 * `skills-api dev`: serve the output folder and keep it in step with the content folder. Every
 * change under the content folder (debounced) runs an incremental build; when it succeeds the
 * API answers from the new files and every open demo page reloads. A build with problems lists
 * them and leaves the last good output served, saying so.
 *
 * The reload travels over Server-Sent Events at `/_dev/reload`; the demo page gets a script that
 * listens to it, `/_dev/reload.js` (its tag added to `index.html` as served by this command only,
 * never to the output).
 * Before reloading, the page drops its Service Worker, whose in-memory cache would still hold the
 * previous build.
 */
import { watch, type FSWatcher } from 'chokidar';
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { folder, startupLine } from './cli.ts';
import type { RateLimitOptions } from '../src/node/rate-limit.ts';
import { startServer, type RunningServer } from '../src/node/server.ts';

/** Path of the reload stream. */
export const RELOAD_PATH = '/_dev/reload';
/** Quiet time after the last change before a rebuild starts: editors write a file in several steps. */
const DEBOUNCE_MS = 150;

/**
 * Path of the reload script. A file of its own, not an inline script: the demo page's
 * Content-Security-Policy (`script-src 'self'`) blocks inline scripts, and dev serves the page
 * with the same policy as any host.
 */
export const RELOAD_SCRIPT_PATH = '/_dev/reload.js';

/** The reload script: reload on every event, without the Service Worker. */
const RELOAD_SCRIPT = `(() => {
  const drop = () => (navigator.serviceWorker ? navigator.serviceWorker.getRegistrations() : Promise.resolve([]))
    .then((all) => Promise.all(all.map((r) => r.unregister())));
  new EventSource(${JSON.stringify(RELOAD_PATH)}).onmessage = () => drop().finally(() => location.reload());
})();
`;

/** The tag the served `index.html` gets. */
const RELOAD_TAG = `<script src="${RELOAD_SCRIPT_PATH}"></script>`;

/** What `runDev` needs besides the folders: how to build, print and wait. */
export interface DevOptions {
  content: string;
  out: string;
  port: number;
  host?: string | undefined;
  rateLimit?: RateLimitOptions | undefined;
  /** Bring the output up to date before serving (build when missing or stale); resolves its skill count. */
  prepare(): Promise<number>;
  /** One incremental build; throws (after printing its problems) when it fails. */
  rebuild(): Promise<void>;
  print(text: string): void;
  /** Resolves when the command should stop (SIGINT/SIGTERM). */
  until(): Promise<void>;
  /** Told when a rebuild finished, for tests: whether it succeeded. */
  onRebuilt?: (ok: boolean) => void;
}

/** Serve, watch, rebuild and reload until `until()` resolves. */
export async function runDev(options: DevOptions): Promise<void> {
  const skills = await options.prepare();
  const streams = new Set<ServerResponse>();
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>([
    [RELOAD_PATH, (req, res) => openStream(req, res, streams)],
    [RELOAD_SCRIPT_PATH, (_req, res) => void res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(RELOAD_SCRIPT)],
    ['/', (_req, res) => void servePage(options.out, res)],
    ['/index.html', (_req, res) => void servePage(options.out, res)],
  ]);
  const running: RunningServer = await startServer({
    dir: options.out,
    port: options.port,
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
    routes,
  });
  options.print(startupLine(running.url, skills, folder(options.out)));

  let timer: ReturnType<typeof setTimeout> | undefined;
  let building = false;
  let pending = false;
  const rebuild = async (): Promise<void> => {
    building = true;
    pending = false;
    let ok = false;
    try {
      await options.rebuild();
      // The new tree at once, its kept answers and files of the old one dropped (the server would
      // notice within a second by itself).
      await running.reload();
      for (const res of streams) res.write('data: reload\n\n');
      ok = true;
    } catch (error) {
      options.print(`${error instanceof Error ? error.message : String(error)}\nStill serving the last good build; fix the content and save again.\n`);
    } finally {
      building = false;
      options.onRebuilt?.(ok);
      if (pending) void rebuild();
    }
  };
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (building) pending = true;
      else void rebuild();
    }, DEBOUNCE_MS);
  };
  // chokidar, not fs.watch: Node 20's recursive fs.watch on Linux stops reporting a file once an
  // editor replaces it by a rename (sed -i, vim, most IDEs), which was seen here.
  // The build itself appends to the change log (builder/changes.ts): that write is no edit to rebuild for.
  const changeLog = resolve(options.content, 'changes.ndjson');
  const ignored = (path: string): boolean => {
    const absolute = resolve(path);
    return absolute === changeLog || (dirname(absolute) === dirname(changeLog) && basename(absolute).startsWith('.changes.ndjson.'));
  };
  const watcher: FSWatcher = watch(options.content, { ignoreInitial: true, followSymlinks: false, ignored });
  watcher.on('all', changed);
  watcher.on('error', (error) => options.print(`Watching ${folder(options.content)}: ${String(error)}\n`));
  await new Promise<void>((resolve) => watcher.once('ready', resolve));
  options.print(`Watching ${folder(options.content)} for changes; Ctrl-C to stop\n`);
  try {
    await options.until();
  } finally {
    clearTimeout(timer);
    await watcher.close();
    for (const res of streams) res.end();
    await running.close();
  }
}

/** An event stream that stays open; `streams` holds it until the client goes. */
function openStream(req: IncomingMessage, res: ServerResponse, streams: Set<ServerResponse>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'access-control-allow-origin': '*' });
  res.write(': connected\n\n');
  streams.add(res);
  req.on('close', () => streams.delete(res));
}

/** The output's `index.html` with the reload script, never cached. */
async function servePage(out: string, res: ServerResponse): Promise<void> {
  let html: string;
  try {
    html = await readFile(`${out}/index.html`, 'utf8');
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('No index.html in the output folder\n');
    return;
  }
  const page = html.includes('</body>') ? html.replace('</body>', `${RELOAD_TAG}</body>`) : `${html}${RELOAD_TAG}`;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
}
