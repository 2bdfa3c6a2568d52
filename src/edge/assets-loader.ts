/**
 * The Worker's loader: files of the static tree read through the Workers static-assets binding
 * (`env.ASSETS`), the build output deployed beside the Worker. No copy of the data anywhere else.
 */
import { fetchBytesLoader, fetchLoader, type BytesLoader, type Loader } from '../loader.ts';

/** The part of a Workers `Fetcher` binding the Worker uses. */
export interface AssetsBinding {
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
}

/**
 * Origin the asset paths are resolved against. The assets binding serves by pathname and ignores
 * the host, so any origin does; a fixed one keeps one loader (and its cache) for every request.
 */
const ASSETS_ORIGIN = 'https://assets.local/';

/**
 * Loader over the static-assets binding: `path` (e.g. `api/v1/manifest.json`) is fetched as
 * `/<path>`; 404 resolves `undefined`, another failure rejects (the handler's 500). The same
 * checks as every HTTP loader (it is `fetchLoader` over the binding).
 */
export function assetsLoader(assets: AssetsBinding): Loader {
  return fetchLoader(ASSETS_ORIGIN, (input, init) => assets.fetch(new Request(input, init)));
}

/** Skill files and archives read through the static-assets binding, as `assetsLoader` reads JSON. */
export function assetsBytesLoader(assets: AssetsBinding): BytesLoader {
  return fetchBytesLoader(ASSETS_ORIGIN, (input, init) => assets.fetch(new Request(input, init)));
}
