/**
 * Page helper for the canonical API on a static host, bundled by builder/site.ts into
 * `<out>/api.js` (an ES module) and into the demo page:
 *
 * ```js
 * import { ready } from './api.js';
 * const api = await ready();                      // registers <base>sw.js, waits for it briefly
 * const res = await api('skills/search?q=pdf');   // <base>api/v1/skills/search?q=pdf
 * ```
 *
 * `api(path)` goes through `fetch` (and so the Service Worker) whenever a worker controls the
 * page; until then — first visit before the worker is active, hard reload, a browser without
 * Service Workers or with them blocked — it loads the same handler bundle (`sw.js`) into the page
 * and calls it directly. The answers are the same either way.
 */
import { siteBasePath, type PageHandlerGlobal } from './browser-api.ts';
import type { Handler } from './handler.ts';

/** Fetch one API path (relative to `<base>api/v1/`, e.g. `skills?sort=name`); a Fetch API response. */
export type ApiFetch = (path: string, init?: RequestInit) => Promise<Response>;

export interface ReadyOptions {
  /** Longest wait, in ms, for a newly installed worker to take control of the page; default 4000. */
  timeout?: number;
}

const base = siteBasePath();
const workerUrl = `${base}sw.js`;
let started: Promise<ApiFetch> | undefined;
let pageHandler: Promise<Handler> | undefined;

/**
 * Register the Service Worker (once per page) and resolve `apiFetch` when the worker controls
 * the page, when it cannot (already active but not controlling, as after a hard reload; not
 * supported; registration failed), or after `timeout` ms — whichever comes first.
 */
export function ready(options: ReadyOptions = {}): Promise<ApiFetch> {
  started ??= register(options.timeout ?? 4000).then(() => apiFetch);
  return started;
}

async function register(timeout: number): Promise<void> {
  const container = globalThis.navigator?.serviceWorker as ServiceWorkerContainer | undefined;
  if (container === undefined) return;
  if (container.controller !== null) {
    // Registering again makes the browser check sw.js for a new version; no need to wait.
    container.register(workerUrl, { scope: base }).catch(() => undefined);
    return;
  }
  try {
    const registration = await container.register(workerUrl, { scope: base });
    // An active worker that does not control this page (hard reload) will not claim it now.
    if (registration.installing === null && registration.waiting === null && registration.active !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeout);
      container.addEventListener('controllerchange', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
  } catch (error) {
    console.warn(`skills API: Service Worker not registered (${String(error)}); answering in the page`);
  }
}

/** The absolute URL of an API path (`skills/a/b` → `<origin><base>api/v1/skills/a/b`). */
export function apiUrl(path: string): URL {
  return new URL(path.replace(/^\/+/, ''), new URL(`${base}api/v1/`, globalThis.location.href));
}

/** Answer one API request: through the worker when one controls the page, else in the page. */
export const apiFetch: ApiFetch = async (path, init) => {
  const url = apiUrl(path);
  if (globalThis.navigator?.serviceWorker?.controller) return fetch(url, init);
  return (await loadPageHandler())(new Request(url, init));
};

/** The handler of sw.js run in the page: the bundle is loaded once as a classic script. */
function loadPageHandler(): Promise<Handler> {
  pageHandler ??= new Promise<Handler>((resolve, reject) => {
    const page = globalThis as PageHandlerGlobal;
    if (page.skillsDirectoryApi !== undefined) return resolve(page.skillsDirectoryApi.handle);
    const script = document.createElement('script');
    script.src = workerUrl;
    script.onload = () => {
      if (page.skillsDirectoryApi !== undefined) resolve(page.skillsDirectoryApi.handle);
      else reject(new Error(`${workerUrl} loaded but exposed no handler`));
    };
    script.onerror = () => reject(new Error(`could not load ${workerUrl}`));
    document.head.append(script);
  });
  // A failed load (offline) is retried by the next request.
  pageHandler.catch(() => {
    pageHandler = undefined;
  });
  return pageHandler;
}
