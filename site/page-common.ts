/**
 * What the views of the demo page share: the current locale and its text, reading the API
 * (errors as `ApiFailure`), formatting in the locale, and small pieces (badges, chips).
 */
import { siteBasePath } from '../src/browser-api.ts';
import { apiFetch } from '../src/page-api.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import type { Category } from '../src/schemas.ts';
import { CATALOGS, counted, isLocale, localeFor, type Locale, type Messages } from './i18n.ts';
import { h } from './render.ts';

/** Display names of the known platforms (others are title-cased from their id). */
export const PLATFORM_NAMES: Readonly<Record<string, string>> = { 'claude-code': 'Claude Code', codex: 'Codex', chatgpt: 'ChatGPT' };
/** Query parameters of the list endpoints that the page keeps in its own URL. */
export const LIST_PARAMS = ['category', 'platform', 'sort', 'order', 'page'];
export const SEARCH_PARAMS = ['q', 'category', 'platform', 'minStars', 'page'];

/** An error answer of the API (or a failed request), shown as its code and message. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The locale the page speaks now. */
export let locale: Locale = initialLocale();
/** The page's text in the current locale (site/i18n.ts). */
export let t: Messages = CATALOGS[locale];
const categoriesByLocale = new Map<string, Promise<Category[]>>();
let platformIds: Promise<string[]> | undefined;

/** Speak `next` from now on (the caller renders again). */
export function setLocale(next: Locale): void {
  locale = next;
  t = CATALOGS[locale];
}

// ---------------------------------------------------------------- data

/** The JSON body of an API path (relative to `/api/v1/`), or an `ApiFailure`. */
export async function get<T>(path: string): Promise<T> {
  let response: Response;
  try {
    response = await apiFetch(path);
  } catch (error) {
    throw new ApiFailure(0, 'NETWORK_ERROR', String(error));
  }
  const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  if (!response.ok) {
    throw new ApiFailure(response.status, body?.error?.code ?? `HTTP_${response.status}`, body?.error?.message ?? response.statusText);
  }
  return body as T;
}

/** `path?query` with empty values dropped. */
export function withQuery(path: string, params: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') query.set(key, value);
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** The values of `keys` in `params` (null when absent). */
export function pick(params: URLSearchParams, keys: readonly string[]): Record<string, string | null> {
  return Object.fromEntries(keys.map((key) => [key, params.get(key)]));
}

/** The category tree in the current locale, asked once per locale. */
export function categories(): Promise<Category[]> {
  let pending = categoriesByLocale.get(locale);
  if (pending === undefined) {
    pending = get<{ data: Category[] }>(withQuery('categories', { locale })).then((body) => body.data);
    pending.catch(() => categoriesByLocale.delete(locale));
    categoriesByLocale.set(locale, pending);
  }
  return pending;
}

/** Platform ids: no endpoint lists them, so they are read from the static manifest file. */
export function platforms(): Promise<string[]> {
  platformIds ??= fetch(`${siteBasePath()}${MANIFEST_PATH}`)
    .then((response) => (response.ok ? (response.json() as Promise<{ platforms?: unknown }>) : { platforms: [] }))
    .then((manifest) => (Array.isArray(manifest.platforms) ? manifest.platforms.filter((p): p is string => typeof p === 'string') : []))
    .catch(() => []);
  return platformIds;
}

/** Category slug → localized name, subcategories included. */
export async function categoryNames(): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const category of await categories().catch(() => [])) {
    names.set(category.slug, category.name);
    for (const sub of category.subcategories) names.set(sub.slug, sub.name);
  }
  return names;
}

// ---------------------------------------------------------------- formatting

/** The locale chosen earlier on this browser, else the one closest to the browser's languages. */
function initialLocale(): Locale {
  try {
    const stored = localStorage.getItem('locale');
    if (isLocale(stored)) return stored;
  } catch {
    // Storage can be blocked: the browser's languages decide.
  }
  return localeFor(navigator.languages ?? [navigator.language]);
}

/** `n` things in the current locale (plural rules and digits from Intl). */
export const count = (n: number, message: Parameters<typeof counted>[2]): string => counted(locale, n, message);

/** A number in the current locale; `compact` abbreviates, `date` gives a UTC day. */
export const number = (n: number): string => new Intl.NumberFormat(locale).format(n);
export const compact = (n: number): string => new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
export const date = (iso: string): string => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
export const platformName = (id: string): string => PLATFORM_NAMES[id] ?? id.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => `${dash ? ' ' : ''}${c.toUpperCase()}`);

/** A file size in B or KB. */
export function bytes(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`;
}

/** A colored initial standing in for an icon or a missing avatar (the hue comes from the key). */
export function badge(key: string, label: string, extra = ''): HTMLElement {
  let hash = 0;
  for (const c of key) hash = (hash * 31 + c.codePointAt(0)!) % 360;
  const initial = Array.from(label.trim())[0]?.toUpperCase() ?? '?';
  return h('span', { class: `badge ${extra}`.trim(), style: `--hue:${hash}`, 'aria-hidden': 'true' }, initial);
}

/** A count badge, labelled for screen readers and on hover ("12 skills", not just "12"). */
export function countPill(n: number): HTMLElement {
  const label = count(n, t.skillCount);
  return h('span', { class: 'count-pill', title: label, 'aria-label': label }, number(n));
}

/** Category chips, each linking to the list of its skills. */
export function chips(slugs: readonly string[], names: Map<string, string>): HTMLElement {
  return h('ul', { class: 'chips' }, ...slugs.map((slug) => h('li', null, h('a', { href: withQuery('#/skills', { category: slug }), class: 'chip' }, names.get(slug) ?? slug))));
}
