/**
 * Service Worker entry, bundled by builder/site.ts into `<out>/sw.js` (at the site root, so its
 * scope covers `<base>api/v1/`). It answers the canonical API requests of the pages it controls
 * with the runtime handler over the static `.json` files, so on a plain static host
 * `fetch('<base>api/v1/skills/search?q=pdf')` gets what `npm start` answers.
 *
 * The same bundle also runs as a classic `<script>` in a page that no worker controls yet (first
 * visit, hard reload, browsers without Service Workers): there it registers no listener and only
 * exposes the handler as `globalThis.skillsDirectoryApi` for page-api.ts to call directly.
 */
import { createBrowserHandler, embeddedSearch, isApiRequest, siteBasePath, type PageHandlerGlobal } from './browser-api.ts';
import { prepareSynonyms } from './search/forms.ts';
import { warmSearch } from './search/warm.ts';
import type { Handler } from './handler.ts';

// The Service Worker types (lib "WebWorker") clash with the DOM ones this project compiles
// against, so the little used here is declared locally.
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ServiceWorkerScopeLike {
  readonly location: Location;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
}

const scope = globalThis as unknown as { ServiceWorkerGlobalScope?: abstract new () => unknown };
const base = siteBasePath();

if (typeof scope.ServiceWorkerGlobalScope === 'function' && globalThis instanceof scope.ServiceWorkerGlobalScope) {
  const worker = globalThis as unknown as ServiceWorkerScopeLike;
  const origin = worker.location.origin;
  // Nothing is read nor built as the script runs: the browser activates the worker sooner, and a
  // worker's first fetch() is slow to send (docs/search-index.md, "A cold first search"). The
  // handler is made at the first request; a search then starts at once with the root the build
  // embedded here, its files asked for before the manifest.
  let handle: Handler | undefined;
  const handler = (): Handler => (handle ??= createBrowserHandler(new URL(base, origin), undefined, { search: embeddedSearch(), warm: warmSearch }));
  // A new version takes over at once: the handler only reads files, there is no state to migrate.
  // Asked for on install, not as the script runs: there it cost Chromium's worker several
  // milliseconds before the script could finish, and the install came no sooner for it.
  worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
  worker.addEventListener('activate', (event) => {
    event.waitUntil(worker.clients.claim());
    // Not part of activating (requests wait for that): done while the claimed page's first
    // request is on its way, so a first search does not stem the synonym table itself.
    setTimeout(prepareSynonyms, 0);
  });
  worker.addEventListener('fetch', (event) => {
    // Not calling respondWith passes the request to the network: the page's own files and the
    // static `.json` files. The handler's own file fetches never come back here (a worker's
    // fetches are not intercepted by itself), but a page reading the files directly does.
    if (isApiRequest(new URL(event.request.url), origin, base)) event.respondWith(handler()(event.request));
  });
} else {
  (globalThis as PageHandlerGlobal).skillsDirectoryApi = {
    handle: createBrowserHandler(new URL(base, globalThis.location.origin), undefined, { prefetchManifest: true, search: embeddedSearch() }),
  };
}
