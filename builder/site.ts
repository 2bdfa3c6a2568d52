/**
 * The browser side of the output (issue 4): the Service Worker `sw.js` (the runtime handler for
 * `<base>api/v1/…` on any static host), the page helper `api.js`, the demo page (`index.html`,
 * `app.js`, `style.css`, `favicon.svg`), `_headers` for Netlify/Cloudflare Pages, and `.nojekyll`
 * so GitHub Pages serves the `_list`/`_search` folders. Scripts are bundled with esbuild
 * (minified, ES2020); the output depends only on the sources, `base` and (sw.js) the search root.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IMMUTABLE_CACHE_CONTROL, STATIC_CACHE_CONTROL } from '../src/http-cache.ts';
import { API_PREFIX } from '../src/paths.ts';
import { SEARCH_DIR } from '../src/search/format.ts';
import type { SearchManifest } from '../src/manifest.ts';
import type { OutputWriter } from './output.ts';

/** Options of `writeSite`. */
export interface SiteOptions {
  /** Path the output is served under: `/` (default) or e.g. `/my-repo/` for a GitHub project page. */
  base?: string;
  /**
   * The build's search entry with its copy of the root (`index`), embedded in sw.js: a cold
   * search in the Service Worker then starts without waiting for the manifest (src/browser-api.ts).
   */
  search?: SearchManifest;
}

/** One bundled script of the output. */
export interface Script {
  /** Output file, relative to the output folder. */
  out: string;
  /** Entry source, relative to the project root. */
  entry: string;
  format: 'iife' | 'esm';
}

/** The scripts of the output, in the order they are written. */
export const SCRIPTS: readonly Script[] = [
  { out: 'sw.js', entry: 'src/service-worker.ts', format: 'iife' },
  { out: 'api.js', entry: 'src/page-api.ts', format: 'esm' },
  { out: 'app.js', entry: 'site/app.ts', format: 'iife' },
];
/** Demo page files copied as they are (index.html gets cache-busting query strings). */
export const COPIED = ['style.css', 'favicon.svg'] as const;

const BASE_RE = /^\/(?:[A-Za-z0-9._~-]+\/)*$/;
/**
 * The project root in a clone (`site/` holds the TypeScript sources), or `dist/` in the installed
 * package (`dist/site/` holds the scripts pre-bundled by scripts/build-package.ts).
 */
const root = fileURLToPath(new URL('../', import.meta.url));
/**
 * What `__SKILLS_API_BASE__` is bundled as; replaced by the real base afterwards, so the scripts
 * can be bundled once for the package and every build (clone or package) writes the same bytes.
 */
export const BASE_PLACEHOLDER = '/__skills_api_base__/';
/** What `__SKILLS_API_SEARCH__` is bundled as; sw.js gets the search entry's JSON (a JS string) in its place. */
export const SEARCH_PLACEHOLDER = '__skills_api_search__';

/**
 * `base` as `/` or `/a/b/` (leading and trailing slash added); throws for anything but plain path
 * segments of `[A-Za-z0-9._~-]`, since it ends up in a script, a header file and URLs.
 */
export function normalizeBase(base = '/'): string {
  const trimmed = base.replace(/^\/+|\/+$/g, '');
  const normalized = trimmed === '' ? '/' : `/${trimmed}/`;
  if (!BASE_RE.test(normalized) || normalized.split('/').some((s) => s === '.' || s === '..')) {
    throw new Error(`--base must be a URL path such as / or /my-repo/ (letters, digits, . _ ~ -), got ${JSON.stringify(base)}`);
  }
  return normalized;
}

/**
 * Bundle one script with esbuild (a dev dependency, loaded only here): minified, ES2020,
 * `__SKILLS_API_BASE__` set to `BASE_PLACEHOLDER`.
 */
export async function bundleScript(script: Script, projectRoot: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: projectRoot,
    entryPoints: [script.entry],
    bundle: true,
    write: false,
    format: script.format,
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    define: { __SKILLS_API_BASE__: JSON.stringify(BASE_PLACEHOLDER), __SKILLS_API_SEARCH__: JSON.stringify(SEARCH_PLACEHOLDER) },
  });
  const file = result.outputFiles[0];
  if (file === undefined) throw new Error(`esbuild wrote nothing for ${script.entry}`);
  return file.text;
}

/**
 * One script with `base` (and in sw.js the search entry) in place: pre-bundled in the package,
 * bundled from the sources in a clone.
 */
async function siteScript(script: Script, base: string, search: SearchManifest | undefined): Promise<string> {
  let text: string;
  try {
    text = await fs.readFile(`${root}site/${script.out}`, 'utf8');
  } catch {
    text = await bundleScript(script, root);
  }
  // The base is plain path characters (normalizeBase), so it is the same inside a JS string.
  text = text.replaceAll(JSON.stringify(BASE_PLACEHOLDER), JSON.stringify(base));
  const placeholder = JSON.stringify(SEARCH_PLACEHOLDER);
  const uses = text.split(placeholder).length - 1;
  if (script.out !== 'sw.js') return uses === 0 ? text : text.replaceAll(placeholder, '""');
  if (uses !== 1) throw new Error(`sw.js must hold the search placeholder once, found ${uses}`);
  // A JS string of the JSON, read by JSON.parse: V8 scans a long string far faster than it parses
  // the same object literal, and the worker compiles its whole script before it starts.
  const entry = search?.index === undefined ? '""' : JSON.stringify(JSON.stringify({ root: search.root, index: search.index }));
  return text.replace(placeholder, () => entry);
}

/** Short content hash used as a cache-busting query string. */
function hash8(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * `_headers` (Netlify, Cloudflare Pages): CORS on the API files; `immutable` for the
 * content-hashed search files; a short cache for everything else. Both hosts merge every rule
 * that matches a path and join repeated headers with a comma, so no two rules that can match the
 * same path set the same header: the cache rules list the other paths one pattern each.
 */
export function headersFile(base: string, siteFiles: readonly string[]): string {
  const short = STATIC_CACHE_CONTROL;
  const api = `${base}${API_PREFIX}`;
  const rule = (path: string, ...headers: string[]): string => `${path}\n${headers.map((line) => `  ${line}`).join('\n')}\n`;
  const rules = [
    rule(`${api}/*`, 'Access-Control-Allow-Origin: *', 'X-Content-Type-Options: nosniff'),
    rule(`${base}${SEARCH_DIR}/*`, `Cache-Control: ${IMMUTABLE_CACHE_CONTROL}`),
    // A skill's own files: never run as the site's page (its HTML or SVG), as every host answers them.
    rule(`${api}/skills/:owner/:repo/files/*`, "Content-Security-Policy: default-src 'none'; sandbox"),
    ...[
      `${api}/manifest.json`,
      `${api}/categories/*`,
      `${api}/skills/_list/*`,
      `${api}/skills/_ids/*`,
      `${api}/changes/*`,
      `${api}/openapi.json`,
      `${api}/quality.json`,
      `${api}/skills/:owner/:repo/index.json`,
      `${api}/skills/:owner/:repo/content.json`,
      `${api}/skills/:owner/:repo/stats.json`,
      `${api}/skills/:owner/:repo/files/*`,
      `${api}/skills/:owner/:repo/archive.tar.gz`,
      `${base}skills/*`,
      base,
      `${base}feed.json`,
      `${base}feed.xml`,
      ...siteFiles.map((file) => `${base}${file}`),
    ].map((path) => rule(path, `Cache-Control: ${short}`)),
  ];
  return `# Written by the build (builder/site.ts) for Netlify and Cloudflare Pages; other hosts ignore it.\n\n${rules.join('\n')}`;
}

/**
 * Write the Service Worker, the page helper, the demo page, `_headers` and `.nojekyll` through
 * `writer` (paths relative to the output folder).
 */
export async function writeSite(writer: OutputWriter, options: SiteOptions = {}): Promise<void> {
  const base = normalizeBase(options.base);
  const scripts = await Promise.all(SCRIPTS.map(async (script) => ({ out: script.out, text: await siteScript(script, base, options.search) })));
  const copied = await Promise.all(COPIED.map(async (name) => ({ out: name, text: await fs.readFile(`${root}site/${name}`, 'utf8') })));
  const files = [...scripts, ...copied];
  for (const file of files) await writer.writeFile(file.out, file.text);

  // index.html names app.js and style.css with their content hash, so a cached page never pairs
  // with a stale script.
  let html = await fs.readFile(`${root}site/index.html`, 'utf8');
  for (const file of files) {
    html = html.replaceAll(`"./${file.out}"`, `"./${file.out}?v=${hash8(file.text)}"`);
  }
  await writer.writeFile('index.html', html);
  await writer.writeFile('_headers', headersFile(base, ['index.html', ...files.map((f) => f.out)].sort()));
  await writer.writeFile('.nojekyll', '');
}
