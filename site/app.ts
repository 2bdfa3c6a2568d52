/**
 * The demo page (bundled by build/site.ts into `<out>/app.js`): browse, filter, search and read
 * skills through the canonical API. Every request goes through `apiFetch` (page-api.ts), so the
 * Service Worker answers it once it controls the page. Hash routing (`#/skills/owner/repo`)
 * keeps every view a plain static URL that works under any sub-path.
 *
 * Views: `#/` (`#/skills?…`) list · `#/search?q=…` · `#/categories` · `#/categories/:slug?…` ·
 * `#/skills/:owner/:repo`.
 */
import { siteBasePath } from '../src/browser-api.ts';
import { apiFetch, ready } from '../src/page-api.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import type { Category, CategoryDetail, Pagination, SearchResponse, SkillContent, SkillDetail, SkillListResponse, SkillStats, SkillSummary, Suggestion } from '../src/schemas.ts';
import { starChart } from './chart.ts';
import { CATALOGS, LOCALES, counted, isLocale, localeFor, type Locale, type Messages } from './i18n.ts';
import { categoryIcon } from './icons.ts';
import { append, h, renderHighlight, renderMarkdown } from './render.ts';

const PLATFORM_NAMES: Readonly<Record<string, string>> = { 'claude-code': 'Claude Code', codex: 'Codex', chatgpt: 'ChatGPT' };
/** Query parameters of the list endpoints that the page keeps in its own URL. */
const LIST_PARAMS = ['category', 'platform', 'sort', 'order', 'page'];
const SEARCH_PARAMS = ['q', 'category', 'platform', 'minStars', 'page'];

/** An error answer of the API (or a failed request), shown as its code and message. */
class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const main = document.getElementById('view') as HTMLElement;
const localeSelect = document.getElementById('locale') as HTMLSelectElement;
let locale: Locale = initialLocale();
/** The page's text in the current locale (site/i18n.ts). */
let t: Messages = CATALOGS[locale];
let generation = 0;
const categoriesByLocale = new Map<string, Promise<Category[]>>();
let platformIds: Promise<string[]> | undefined;

// ---------------------------------------------------------------- data

async function get<T>(path: string): Promise<T> {
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
function withQuery(path: string, params: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') query.set(key, value);
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

function pick(params: URLSearchParams, keys: readonly string[]): Record<string, string | null> {
  return Object.fromEntries(keys.map((key) => [key, params.get(key)]));
}

function categories(): Promise<Category[]> {
  let pending = categoriesByLocale.get(locale);
  if (pending === undefined) {
    pending = get<{ data: Category[] }>(withQuery('categories', { locale })).then((body) => body.data);
    pending.catch(() => categoriesByLocale.delete(locale));
    categoriesByLocale.set(locale, pending);
  }
  return pending;
}

/** Platform ids: no endpoint lists them, so they are read from the static manifest file. */
function platforms(): Promise<string[]> {
  platformIds ??= fetch(`${siteBasePath()}${MANIFEST_PATH}`)
    .then((response) => (response.ok ? (response.json() as Promise<{ platforms?: unknown }>) : { platforms: [] }))
    .then((manifest) => (Array.isArray(manifest.platforms) ? manifest.platforms.filter((p): p is string => typeof p === 'string') : []))
    .catch(() => []);
  return platformIds;
}

/** Category slug → localized name, subcategories included. */
async function categoryNames(): Promise<Map<string, string>> {
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
const count = (n: number, message: Parameters<typeof counted>[2]): string => counted(locale, n, message);

const number = (n: number): string => new Intl.NumberFormat(locale).format(n);
const compact = (n: number): string => new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
const date = (iso: string): string => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
const platformName = (id: string): string => PLATFORM_NAMES[id] ?? id.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => `${dash ? ' ' : ''}${c.toUpperCase()}`);

function bytes(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`;
}

/** A colored initial standing in for an icon or a missing avatar (the hue comes from the key). */
function badge(key: string, label: string, extra = ''): HTMLElement {
  let hash = 0;
  for (const c of key) hash = (hash * 31 + c.codePointAt(0)!) % 360;
  const initial = Array.from(label.trim())[0]?.toUpperCase() ?? '?';
  return h('span', { class: `badge ${extra}`.trim(), style: `--hue:${hash}`, 'aria-hidden': 'true' }, initial);
}

/** A count badge, labelled for screen readers and on hover ("12 skills", not just "12"). */
function countPill(n: number): HTMLElement {
  const label = count(n, t.skillCount);
  return h('span', { class: 'count-pill', title: label, 'aria-label': label }, number(n));
}

// ---------------------------------------------------------------- routing

interface Route {
  path: string[];
  params: URLSearchParams;
}

function currentRoute(): Route {
  const raw = location.hash.replace(/^#\/?/, '');
  const cut = raw.indexOf('?');
  const path = (cut === -1 ? raw : raw.slice(0, cut)).split('/').filter((s) => s !== '');
  const decoded = path.map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  return { path: decoded, params: new URLSearchParams(cut === -1 ? '' : raw.slice(cut + 1)) };
}

function go(hash: string): void {
  if (location.hash === hash) void render();
  else location.hash = hash;
}

const skillHref = (s: { owner: string; repo: string }): string => `#/skills/${encodeURIComponent(s.owner)}/${encodeURIComponent(s.repo)}`;

async function render(): Promise<void> {
  const mine = ++generation;
  const { path, params } = currentRoute();
  const [head, a, b, ...rest] = path;
  const view = h('div', { class: 'view', 'aria-busy': 'true' });
  main.replaceChildren(h('p', { class: 'loading' }, t.loading));
  markNav(head === 'categories' ? 'categories' : head === 'search' ? 'search' : 'skills');
  if (head !== 'search') syncSearchBox('');
  try {
    if (head === undefined || (head === 'skills' && a === undefined)) await listView(view, params);
    else if (head === 'search' && a === undefined) await searchView(view, params);
    else if (head === 'categories' && a === undefined) await categoriesView(view);
    else if (head === 'categories' && b === undefined) await categoryView(view, a!, params);
    else if (head === 'skills' && b !== undefined && rest.length === 0) await detailView(view, a!, b);
    else throw new ApiFailure(404, 'NOT_FOUND', `The page ${location.hash} does not exist`);
  } catch (error) {
    if (mine !== generation) return;
    // An unknown skill: offer a search for its name (`owner/the-name` → "the name").
    const suggestion = head === 'skills' && b !== undefined ? safeDecode(b).replace(/[-_.]+/g, ' ') : undefined;
    // The error is the whole page: its title is the page's heading.
    view.replaceChildren(errorBox(error, suggestion, 'h1'));
  }
  if (mine !== generation) return; // a newer navigation already started
  view.removeAttribute('aria-busy');
  main.replaceChildren(view);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function markNav(current: string): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-nav]')) {
    if (link.dataset.nav === current) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

/**
 * A friendly view of a failure: a title, a sentence, a way back, and (when given) a search for
 * `suggestion`. The code stays on the element (`data-code`) for tools and tests.
 */
function errorBox(error: unknown, suggestion?: string, level: 'h1' | 'h2' = 'h2'): HTMLElement {
  const failure = error instanceof ApiFailure ? error : new ApiFailure(0, 'ERROR', String(error));
  // What a reader is told for each kind of failure: a title and a sentence, never raw API output.
  const [title, text] = t.failures[failure.code] ?? t.failures['DEFAULT']!;
  return h(
    'div',
    { class: 'error', role: 'alert', 'data-code': failure.code },
    h(level, null, title),
    h('p', null, text),
    h(
      'p',
      { class: 'error-actions' },
      h('a', { href: '#/' }, t.browseAll),
      suggestion === undefined || suggestion.trim().length < 2 ? null : h('span', null, ' · ', h('a', { href: withQuery('#/search', { q: suggestion }) }, t.searchFor(suggestion))),
    ),
  );
}

// ---------------------------------------------------------------- shared pieces

function select(name: string, label: string, value: string, options: ReadonlyArray<[string, string]>, onChange: (value: string) => void): HTMLElement {
  const element = h(
    'select',
    { name, onchange: () => onChange(element.value) },
    ...options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
  );
  return h('label', { class: 'field' }, h('span', null, label), element);
}

/** The filter bar of a list: category, platform, sort and order; a change resets the page. */
async function listControls(params: URLSearchParams, navigate: (next: URLSearchParams) => void, categoryLabel = t.category): Promise<HTMLElement> {
  const [cats, ids] = await Promise.all([categories().catch(() => []), platforms()]);
  const change = (key: string) => (value: string) => {
    const next = new URLSearchParams(params);
    if (value === '') next.delete(key);
    else next.set(key, value);
    next.delete('page');
    navigate(next);
  };
  const categoryOptions: Array<[string, string]> = [['', t.all]];
  for (const category of cats) {
    categoryOptions.push([category.slug, category.name]);
    for (const sub of category.subcategories) categoryOptions.push([sub.slug, `\u00a0\u00a0\u00a0${sub.name}`]);
  }
  const sort = params.get('sort') ?? 'stars';
  return h(
    'div',
    { class: 'filters' },
    select('category', categoryLabel, params.get('category') ?? '', categoryOptions, change('category')),
    select('platform', t.platform, params.get('platform') ?? '', [['', t.all], ...ids.map((id): [string, string] => [id, platformName(id)])], change('platform')),
    select('sort', t.sortBy, sort, [['stars', t.sortStars], ['updated', t.sortUpdated], ['name', t.sortName]], change('sort')),
    select('order', t.order, params.get('order') ?? 'desc', [['desc', t.descending], ['asc', t.ascending]], change('order')),
  );
}

function pager(pagination: Pagination, hrefFor: (page: number) => string): HTMLElement | null {
  const { page, totalPages } = pagination;
  if (totalPages <= 1 && page === 1) return null;
  const link = (target: number, text: string, rel: string): HTMLElement =>
    target >= 1 && target <= totalPages ? h('a', { href: hrefFor(target), rel, class: 'button' }, text) : h('span', { class: 'button', 'aria-disabled': 'true' }, text);
  return h(
    'nav',
    { class: 'pager', 'aria-label': t.pages },
    link(page - 1, t.previous, 'prev'),
    h('span', { class: 'page-of' }, t.pageOf(number(page), number(Math.max(totalPages, 1)))),
    link(page + 1, t.next, 'next'),
  );
}

function chips(slugs: readonly string[], names: Map<string, string>): HTMLElement {
  return h('ul', { class: 'chips' }, ...slugs.map((slug) => h('li', null, h('a', { href: withQuery('#/skills', { category: slug }), class: 'chip' }, names.get(slug) ?? slug))));
}

function skillCard(skill: SkillSummary, names: Map<string, string>): HTMLElement {
  return h(
    'li',
    { class: 'card' },
    h('div', { class: 'card-head' }, h('h3', null, h('a', { href: skillHref(skill), class: 'stretched' }, skill.name)), h('span', { class: 'stars', title: count(skill.stars, t.starCount), 'aria-label': count(skill.stars, t.starCount) }, `★ ${compact(skill.stars)}`)),
    h('p', { class: 'id' }, skill.id),
    h('p', { class: 'desc' }, skill.description),
    h(
      'p',
      { class: 'meta' },
      h('span', null, count(skill.forks, t.forkCount)),
      h('span', null, t.updatedOn(date(skill.updatedAt))),
      h('span', null, skill.platforms.map(platformName).join(' · ')),
    ),
    chips(skill.categories, names),
  );
}

function skillList(body: SkillListResponse, names: Map<string, string>, hrefFor: (page: number) => string): HTMLElement[] {
  const { total } = body.pagination;
  // The count heads the list (h1 → h2 → the cards' h3, in order for screen readers).
  const nodes: HTMLElement[] = [h('h2', { class: 'result-count' }, count(total, t.skillCount))];
  nodes.push(body.data.length === 0 ? h('p', { class: 'empty' }, t.noSkills) : h('ol', { class: 'cards' }, ...body.data.map((s) => skillCard(s, names))));
  const nav = pager(body.pagination, hrefFor);
  if (nav !== null) nodes.push(nav);
  return nodes;
}

// ---------------------------------------------------------------- views

async function listView(view: HTMLElement, params: URLSearchParams): Promise<void> {
  document.title = t.brand;
  const query = pick(params, LIST_PARAMS);
  const [body, names, controls] = await Promise.all([
    get<SkillListResponse>(withQuery('skills', query)),
    categoryNames(),
    listControls(params, (next) => go(withQuery('#/skills', pick(next, LIST_PARAMS)))),
  ]);
  append(view, [
    h('div', { class: 'view-head' }, h('h1', null, t.skillsTitle), h('p', { class: 'lede' }, t.skillsLede)),
    controls,
    ...skillList(body, names, (page) => withQuery('#/skills', { ...query, page: String(page) })),
  ]);
}

async function searchView(view: HTMLElement, params: URLSearchParams): Promise<void> {
  const q = params.get('q') ?? '';
  document.title = q === '' ? `${t.search} · ${t.brand}` : `${q} · ${t.search} · ${t.brand}`;
  syncSearchBox(q);
  const help = h(
    'details',
    { class: 'syntax' },
    h('summary', null, t.searchSyntax),
    h(
      'dl',
      null,
      ...[
        ['pdf tables', t.syntaxAll],
        ['"merge request"', t.syntaxPhrase],
        ['name:docker', t.syntaxField],
        ['-kubernetes', t.syntaxExclude],
        ['kube*', t.syntaxPrefix],
      ].flatMap(([form, meaning]) => [h('dt', null, h('code', null, form!)), h('dd', null, meaning!)]),
    ),
  );
  const head = h('div', { class: 'view-head' }, h('h1', null, q === '' ? t.search : t.searchResults));
  if (q === '') {
    append(view, [head, h('p', { class: 'lede' }, t.typeAbove), help]);
    return;
  }
  const query = pick(params, SEARCH_PARAMS);
  const navigate = (next: URLSearchParams): void => go(withQuery('#/search', pick(next, SEARCH_PARAMS)));
  const controls = await searchControls(params, navigate);
  let body: SearchResponse;
  try {
    body = await get<SearchResponse>(withQuery('skills/search', query));
  } catch (error) {
    append(view, [head, controls, errorBox(error), help]);
    return;
  }
  const { total } = body.pagination;
  append(view, [
    head,
    controls,
    h(
      'h2',
      { class: 'result-count' },
      `${count(total, t.resultsFor)} `,
      h('code', { class: 'query' }, body.meta.query),
      ` · ${body.meta.took < 10 ? body.meta.took.toFixed(1) : Math.round(body.meta.took)} ms`,
    ),
    body.data.length === 0
      ? h('p', { class: 'empty' }, `${t.nothingFound} `, h('code', null, 'deploy*'))
      : h(
          'ol',
          { class: 'results' },
          ...body.data.map((result) =>
            h(
              'li',
              { class: 'result' },
              h(
                'div',
                { class: 'card-head' },
                h('h3', null, h('a', { href: skillHref(result), class: 'stretched' }, result.highlights?.name !== undefined ? renderHighlight(result.highlights.name) : result.name)),
                h('span', { class: 'stars', title: count(result.stars, t.starCount), 'aria-label': count(result.stars, t.starCount) }, `★ ${compact(result.stars)}`),
              ),
              // The score orders the results; it means nothing to a reader, so the page leaves it to the API.
              h('p', { class: 'id' }, result.id),
              h('p', { class: 'desc' }, result.highlights?.description !== undefined ? renderHighlight(result.highlights.description) : result.description),
            ),
          ),
        ),
    pager(body.pagination, (page) => withQuery('#/search', { ...query, page: String(page) })),
    help,
  ]);
}

async function searchControls(params: URLSearchParams, navigate: (next: URLSearchParams) => void): Promise<HTMLElement> {
  const bar = await listControls(params, navigate);
  // Search has its own order (relevance); keep category and platform, add a star threshold.
  for (const name of ['sort', 'order']) bar.querySelector(`select[name="${name}"]`)?.closest('label')?.remove();
  const change = (value: string): void => {
    const next = new URLSearchParams(params);
    if (value === '') next.delete('minStars');
    else next.set('minStars', value);
    next.delete('page');
    navigate(next);
  };
  bar.append(select('minStars', t.minStars, params.get('minStars') ?? '', [['', t.any], ...[10, 100, 1000, 5000].map((n): [string, string] => [String(n), `≥ ${number(n)}`])], change));
  return bar;
}

async function categoriesView(view: HTMLElement): Promise<void> {
  document.title = `${t.categoriesTitle} · ${t.brand}`;
  const list = await categories();
  append(view, [
    h('div', { class: 'view-head' }, h('h1', null, t.categoriesTitle), h('p', { class: 'lede' }, count(list.length, t.categoriesLede))),
    h(
      'ul',
      { class: 'category-grid' },
      ...list.map((category) =>
        h(
          'li',
          { class: 'card category' },
          h(
            'div',
            { class: 'card-head' },
            categoryIcon(category.icon) ?? badge(category.slug, category.name),
            h('h2', null, h('a', { href: `#/categories/${category.slug}`, class: 'stretched' }, category.name)),
            countPill(category.skillCount),
          ),
          h('p', { class: 'desc' }, category.description),
          category.subcategories.length === 0
            ? null
            : h(
                'ul',
                { class: 'chips' },
                // A subcategory without skills is named, not linked: the link would lead to an empty list.
                ...category.subcategories.map((sub) =>
                  h(
                    'li',
                    null,
                    sub.skillCount === 0
                      ? h('span', { class: 'chip empty', title: t.noSkillsYet }, sub.name)
                      : h('a', { class: 'chip', href: withQuery(`#/categories/${category.slug}`, { category: sub.slug }), 'aria-label': `${sub.name}, ${count(sub.skillCount, t.skillCount)}` }, `${sub.name} ${number(sub.skillCount)}`),
                  ),
                ),
              ),
        ),
      ),
    ),
  ]);
}

async function categoryView(view: HTMLElement, slug: string, params: URLSearchParams): Promise<void> {
  const query = pick(params, LIST_PARAMS);
  const path = `categories/${encodeURIComponent(slug)}`;
  const [detail, body, names, controls] = await Promise.all([
    get<{ data: CategoryDetail }>(withQuery(path, { locale })),
    get<SkillListResponse>(withQuery(`${path}/skills`, query)),
    categoryNames(),
    listControls(params, (next) => go(withQuery(`#/categories/${slug}`, pick(next, LIST_PARAMS))), t.subcategory),
  ]);
  const category = detail.data;
  document.title = `${category.name} · ${t.brand}`;
  // The subcategory filter offers this category's subcategories only.
  const subSelect = controls.querySelector<HTMLSelectElement>('select[name="category"]')!;
  const current = params.get('category') ?? '';
  subSelect.replaceChildren(
    h('option', { value: '' }, t.all),
    ...category.subcategories.map((sub) => h('option', { value: sub.slug, selected: sub.slug === current }, sub.name)),
  );
  if (category.subcategories.length === 0) subSelect.closest('label')?.remove();
  append(view, [
    h('nav', { class: 'crumbs', 'aria-label': t.breadcrumb }, h('a', { href: '#/categories' }, t.navCategories), ' / ', category.name),
    h('div', { class: 'view-head category-head' }, categoryIcon(category.icon, 'large') ?? badge(category.slug, category.name, 'large'), h('div', null, h('h1', null, category.name), h('p', { class: 'lede' }, category.description))),
    category.topSkills.length === 0
      ? null
      : h(
          'section',
          { class: 'top-skills' },
          h('h2', null, t.mostStarred),
          h('ol', null, ...category.topSkills.map((s) => h('li', null, h('a', { href: skillHref(s) }, s.name), h('span', { class: 'stars', title: count(s.stars, t.starCount) }, ` ★ ${compact(s.stars)}`)))),
        ),
    h('h2', null, t.allSkills),
    controls,
    ...skillList(body, names, (page) => withQuery(`#/categories/${slug}`, { ...query, page: String(page) })),
  ]);
}

async function detailView(view: HTMLElement, owner: string, repo: string): Promise<void> {
  const path = `skills/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  const [detailBody, stats, content, names] = await Promise.all([
    get<{ data: SkillDetail }>(path),
    get<{ data: SkillStats }>(`${path}/stats`).then((b) => b.data, () => null),
    get<{ data: SkillContent }>(`${path}/content`).then((b) => b.data, () => null),
    categoryNames(),
  ]);
  const skill = detailBody.data;
  document.title = `${skill.name} · ${t.brand}`;

  const rendered = h('article', { class: 'markdown' }, renderMarkdown(skill.content));
  const filesPanel = skill.files === undefined ? null : skillFilesPanel(skill);
  // Links in SKILL.md to the skill's own files (`reference.md`, `scripts/x.py`) open them here.
  if (filesPanel !== null) linkSiblingFiles(rendered, skill, filesPanel);
  const raw = h('pre', { class: 'raw', hidden: true, tabindex: '0' }, content?.content ?? skill.content);
  const tab = (label: string, show: HTMLElement, hide: HTMLElement): HTMLButtonElement => {
    const button = h('button', {
      type: 'button',
      role: 'tab',
      'aria-selected': show === rendered ? 'true' : 'false',
      onclick: () => {
        show.hidden = false;
        hide.hidden = true;
        for (const other of button.parentElement!.children) other.setAttribute('aria-selected', other === button ? 'true' : 'false');
      },
    }, label);
    return button;
  };

  append(view, [
    h('nav', { class: 'crumbs', 'aria-label': t.breadcrumb }, h('a', { href: '#/' }, t.navSkills), ' / ', skill.owner, ' / ', skill.repo),
    h(
      'header',
      { class: 'detail-head' },
      avatar(skill.author),
      h('div', { class: 'title' }, h('h1', null, skill.name), h('p', { class: 'id' }, `${skill.id} · ${t.byAuthor(skill.author.name)}`)),
      h('div', { class: 'big-stars', title: count(skill.stars, t.starCount), 'aria-label': count(skill.stars, t.starCount) }, h('span', { class: 'star', 'aria-hidden': 'true' }, '★'), ` ${number(skill.stars)}`),
    ),
    h('p', { class: 'lede' }, skill.description),
    h(
      'div',
      { class: 'detail-grid' },
      h(
        'div',
        { class: 'detail-main' },
        h(
          'section',
          { class: 'panel install' },
          h('h2', null, t.install),
          // From the directory itself: the discovery index the build writes for this skill.
          skill.files === undefined ? null : installRow('directory', `npx skills add ${directoryUrl()}skills/${skill.owner}/${skill.repo}`, t.fromDirectory),
          ...Object.entries(skill.installCommands).map(([platform, command]) => installRow(platform, command)),
        ),
        h(
          'section',
          { class: 'panel readme' },
          h('div', { class: 'panel-head' }, h('h2', null, 'SKILL.md'), h('div', { class: 'tabs', role: 'tablist' }, tab(t.rendered, rendered, raw), tab(t.raw, raw, rendered))),
          rendered,
          raw,
          content === null ? null : h('p', { class: 'fineprint' }, `${bytes(content.size)} · sha256 ${content.sha.slice(0, 12)}…`),
        ),
        filesPanel,
      ),
      h(
        'aside',
        { class: 'detail-side' },
        h(
          'section',
          { class: 'panel facts' },
          h('h2', null, t.about),
          h(
            'dl',
            null,
            ...fact(t.stars, number(skill.stars)),
            ...fact(t.forks, number(skill.forks)),
            ...fact(t.watchers, number(skill.watchers)),
            ...fact(t.openIssues, number(skill.openIssues)),
            ...fact(t.license, skill.license),
            ...fact(t.created, date(skill.createdAt)),
            ...fact(t.updated, date(skill.updatedAt)),
            ...fact(t.lastPush, date(skill.pushedAt)),
            ...fact(t.platforms, skill.platforms.map(platformName).join(', ')),
          ),
          chips(skill.categories, names),
        ),
        skill.source === undefined ? null : sourcePanel(skill.source),
        skill.archive === undefined ? null : integrityPanel(skill),
        skill.checks === undefined ? null : checksPanel(skill.checks),
        stats === null ? null : statsPanel(stats),
      ),
    ),
  ]);
}

/** Where an imported skill lives: the repository (linked when it is a web address), folder, commit, plugin. */
function sourcePanel(source: NonNullable<SkillDetail['source']>): HTMLElement {
  const web = /^https?:\/\//.test(source.repository);
  const tree = web && source.repository.startsWith('https://github.com/') ? `${source.repository}/tree/${source.commit}/${source.path === '.' ? '' : source.path}` : undefined;
  return h(
    'section',
    { class: 'panel source' },
    h('h2', null, t.source),
    h(
      'dl',
      null,
      h('dt', null, t.repository),
      h('dd', null, web ? h('a', { href: source.repository, rel: 'noopener nofollow' }, ...breakAtSlashes(source.repository.replace(/^https?:\/\/(www\.)?/, ''))) : source.repository),
      h('dt', null, t.folder),
      h('dd', null, tree === undefined ? h('code', null, source.path) : h('a', { href: tree, rel: 'noopener nofollow' }, h('code', null, source.path))),
      h('dt', null, t.commit),
      h('dd', null, h('code', { title: source.commit }, source.commit.slice(0, 12))),
      ...(source.plugin === undefined ? [] : [h('dt', null, t.plugin), h('dd', null, `${source.plugin.name}@${source.plugin.marketplace}`)]),
    ),
  );
}

/** Profile names as people know them. */
const profileName = (profile: string): string => ({ agentskills: t.profileSpec, 'claude-code': 'Claude Code', 'claude-ai': t.profileUpload, codex: 'Codex' })[profile] ?? profile;

/** The text of an HTML-escaped excerpt (shown as text, never parsed as markup). */
function unescapeExcerpt(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
}

/** Quality signals: a badge per profile, flags and copies, the details in an expandable list. Advice: "review". */
function checksPanel(checks: NonNullable<SkillDetail['checks']>): HTMLElement {
  const profiles = Object.entries(checks.profiles);
  const serious = checks.flags.filter((f) => f.severity !== 'low');
  const problems = profiles.flatMap(([profile, result]) => result.problems.map((p) => h('li', null, h('strong', null, profileName(profile)), `: ${p.message}`)));
  return h(
    'section',
    { class: 'panel checks' },
    h('h2', null, t.checks),
    h(
      'ul',
      { class: 'check-badges', 'aria-label': t.loadsIn },
      ...profiles.map(([profile, result]) =>
        h('li', { class: result.pass ? 'pass' : 'review', title: result.pass ? t.passes : count(result.problems.length, t.toReview) }, `${result.pass ? '✓' : '!'} ${profileName(profile)}`),
      ),
    ),
    checks.duplicateOf === undefined ? null : h('p', { class: 'copy-of' }, `${t.copyOf} `, h('a', { href: `#/skills/${checks.duplicateOf}` }, checks.duplicateOf)),
    checks.similar === undefined ? null : h('p', { class: 'copy-of' }, `${t.similarTo} `, ...checks.similar.flatMap((id, i) => [i > 0 ? ', ' : '', h('a', { href: `#/skills/${id}` }, id)])),
    h('p', { class: 'flag-count' }, serious.length === 0 ? t.noFlags : count(serious.length, t.flagsToReview)),
    problems.length === 0 && checks.flags.length === 0
      ? null
      : h(
          'details',
          null,
          h('summary', null, t.details),
          problems.length === 0 ? null : h('ul', { class: 'problems' }, ...problems),
          checks.flags.length === 0
            ? null
            : h(
                'ul',
                { class: 'flags' },
                ...checks.flags.map((f) =>
                  h('li', { class: `severity-${f.severity}` }, h('strong', null, t.severity[f.severity] ?? f.severity), ` ${f.message}${f.line > 0 ? ` (${t.atLine(number(f.line))})` : ''}`, h('code', null, unescapeExcerpt(f.excerpt))),
                ),
              ),
        ),
  );
}

function fact(label: string, value: string): HTMLElement[] {
  return [h('dt', null, label), h('dd', null, value)];
}

function avatar(author: SkillDetail['author']): HTMLElement {
  const fallback = badge(author.name, author.name, 'avatar');
  let url: URL | undefined;
  try {
    url = new URL(author.avatar);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:') return fallback;
  const image = h('img', { src: url.href, alt: '', class: 'avatar', width: 56, height: 56, loading: 'lazy', referrerpolicy: 'no-referrer' });
  image.addEventListener('error', () => image.replaceWith(fallback), { once: true });
  return image;
}

/** The URL of the site the page is served from (origin and base path, ending in `/`). */
function directoryUrl(): string {
  return `${location.origin}${siteBasePath()}`;
}

/** `text` with a line-break opportunity after each `/`, so long paths wrap there and not mid-word. */
function breakAtSlashes(text: string): (string | HTMLElement)[] {
  return text.split('/').flatMap((part, i) => (i === 0 ? [part] : ['/', h('wbr'), part]));
}

/** The URL of one file of a skill (each path segment encoded), or its archive. */
function fileUrl(skill: SkillDetail, path: string): string {
  return `${siteBasePath()}api/v1/skills/${encodeURIComponent(skill.owner)}/${encodeURIComponent(skill.repo)}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** Files shown as text in the page: up to 256 KB. */
const MAX_VIEW_BYTES = 256 * 1024;

/**
 * Every file of the skill's folder: path, size, a view of a text file (fetched when opened,
 * through the same API as everything else), and the folder's archive to download.
 */
function skillFilesPanel(skill: SkillDetail): HTMLElement {
  const files = skill.files ?? [];
  const rows = files.map((file) => {
    const body = h('pre', { class: 'file-text', tabindex: '0' });
    const details = h('details', { class: 'file', 'data-path': file.path }, h('summary', null, h('code', null, ...breakAtSlashes(file.path)), h('span', { class: 'size' }, bytes(file.size))), body);
    let loaded = false;
    details.addEventListener('toggle', () => {
      if (!details.open || loaded) return;
      loaded = true;
      if (file.size > MAX_VIEW_BYTES) {
        body.replaceChildren(h('a', { href: fileUrl(skill, file.path), download: file.path.split('/').pop() }, t.binaryFile));
        return;
      }
      body.textContent = t.loading;
      void apiFetch(fileUrl(skill, file.path).slice(`${siteBasePath()}api/v1/`.length))
        .then((response) => (response.ok ? response.arrayBuffer() : Promise.reject(new Error(String(response.status)))))
        .then((buffer) => {
          const data = new Uint8Array(buffer);
          let text: string | undefined;
          try {
            text = data.includes(0) ? undefined : new TextDecoder('utf-8', { fatal: true }).decode(data);
          } catch {
            text = undefined;
          }
          if (text !== undefined) body.textContent = text;
          else body.replaceChildren(h('a', { href: fileUrl(skill, file.path), download: file.path.split('/').pop() }, t.binaryFile));
        })
        .catch(() => (body.textContent = t.failures.DEFAULT![0]));
    });
    return h('li', null, details);
  });
  return h(
    'section',
    { class: 'panel files' },
    h('div', { class: 'panel-head' }, h('h2', null, t.files), h('span', { class: 'fineprint' }, count(files.length, t.fileCount))),
    h('ul', { class: 'file-list' }, ...rows),
    skill.archive === undefined ? null : h('p', null, h('a', { href: `${siteBasePath()}api/v1/skills/${encodeURIComponent(skill.owner)}/${encodeURIComponent(skill.repo)}/archive.tar.gz`, download: `${skill.repo}.tar.gz`, class: 'download' }, t.downloadArchive), ` · ${bytes(skill.archive.size)}`),
  );
}

/** Relative links of the rendered SKILL.md that name a file of the skill open that file in the files panel. */
function linkSiblingFiles(rendered: HTMLElement, skill: SkillDetail, panel: HTMLElement): void {
  const paths = new Set((skill.files ?? []).map((f) => f.path));
  for (const link of rendered.querySelectorAll('a[data-href]')) {
    const href = link.getAttribute('data-href') ?? '';
    let path: string;
    try {
      path = decodeURIComponent(href.replace(/^\.\//, '').split(/[?#]/)[0]!);
    } catch {
      continue;
    }
    if (!paths.has(path)) continue;
    link.setAttribute('href', fileUrl(skill, path));
    link.addEventListener('click', (event) => {
      const details = [...panel.querySelectorAll<HTMLDetailsElement>('details.file')].find((d) => d.dataset.path === path);
      if (details === undefined) return;
      event.preventDefault();
      details.open = true;
      details.scrollIntoView({ block: 'start' });
      details.querySelector('summary')?.focus();
    });
  }
}

/** What the directory serves, to check an install against: the commit and the archive's SHA-256. */
function integrityPanel(skill: SkillDetail): HTMLElement {
  return h(
    'section',
    { class: 'panel integrity' },
    h('h2', null, t.integrity),
    h(
      'dl',
      null,
      ...(skill.source === undefined ? [] : [h('dt', null, t.commit), h('dd', null, h('code', { class: 'hash' }, skill.source.commit))]),
      h('dt', null, t.archiveSha),
      h('dd', null, h('code', { class: 'hash' }, skill.archive!.sha256)),
    ),
  );
}

function installRow(platform: string, command: string, label = platformName(platform)): HTMLElement {
  const code = h('code', null, command);
  const copy = t.copy;
  const button = h('button', { type: 'button', class: 'copy', 'aria-label': t.copyCommand(label) }, copy);
  // Said aloud by screen readers when the copy is done (the button's own text changes too).
  const status = h('span', { class: 'visually-hidden', role: 'status' });
  button.addEventListener('click', () => {
    const done = (text: string): void => {
      button.textContent = text;
      status.textContent = text;
      setTimeout(() => (button.textContent = copy), 1500);
    };
    // `navigator.clipboard` is missing outside secure contexts.
    (navigator.clipboard?.writeText(command) ?? Promise.reject(new Error('no clipboard'))).then(
      () => done(t.copied),
      () => {
        // No clipboard access (permissions, insecure context): select the text for a manual copy.
        getSelection()?.selectAllChildren(code);
        done(t.pressCopy);
      },
    );
  });
  return h('div', { class: 'install-row', 'data-platform': platform }, h('span', { class: 'platform' }, label), h('div', { class: 'command', tabindex: '0', role: 'group', 'aria-label': label }, code), button, status);
}

function statsPanel(stats: SkillStats): HTMLElement {
  return h(
    'section',
    { class: 'panel stats' },
    h('h2', null, t.usage),
    h(
      'div',
      { class: 'numbers' },
      ...[
        [t.views, stats.views],
        [t.installs, stats.installs],
        [t.favorites, stats.favorites],
      ].map(([label, value]) => h('div', null, h('strong', null, compact(value as number)), h('span', null, label as string))),
    ),
    h('h3', null, t.starHistory),
    stats.starHistory.length === 0 ? h('p', { class: 'empty' }, t.noStarHistory) : starChart(stats.starHistory, compact),
  );
}

// ---------------------------------------------------------------- search box with autocomplete

function syncSearchBox(q: string): void {
  const input = document.getElementById('q') as HTMLInputElement;
  if (document.activeElement !== input) input.value = q;
}

function setupSearchBox(): void {
  const form = document.getElementById('search') as HTMLFormElement;
  const input = document.getElementById('q') as HTMLInputElement;
  const list = document.getElementById('suggestions') as HTMLUListElement;
  // `/` anywhere but in a field jumps to the search box, as on most directories.
  document.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement | null;
    const typing = target !== null && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
    if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      input.focus();
      input.select();
    }
  });
  let items: Suggestion[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;

  const close = (): void => {
    items = [];
    active = -1;
    list.hidden = true;
    list.replaceChildren();
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  };
  const submit = (q: string): void => {
    close();
    input.blur();
    if (q.trim() !== '') go(withQuery('#/search', { q: q.trim() }));
  };
  const show = (): void => {
    list.replaceChildren(
      ...items.map((suggestion, k) =>
        h(
          'li',
          {
            id: `suggestion-${k}`,
            role: 'option',
            'aria-selected': k === active ? 'true' : 'false',
            // mousedown, not click: it comes before the input's blur closes the list.
            onmousedown: (event) => {
              event.preventDefault();
              input.value = suggestion.text;
              submit(suggestion.text);
            },
          },
          h('span', { class: 'text' }, suggestion.text),
          h('span', { class: 'count' }, number(suggestion.count)),
        ),
      ),
    );
    list.hidden = items.length === 0;
    input.setAttribute('aria-expanded', String(items.length > 0));
    if (active >= 0) input.setAttribute('aria-activedescendant', `suggestion-${active}`);
    else input.removeAttribute('aria-activedescendant');
  };
  const suggest = async (): Promise<void> => {
    const q = input.value;
    const mine = ++asked;
    if (q.trim().length < 2) return close();
    try {
      const body = await get<{ data: Suggestion[] }>(withQuery('skills/autocomplete', { q, limit: '6' }));
      if (mine !== asked || document.activeElement !== input) return;
      items = body.data;
      active = -1;
      show();
    } catch {
      if (mine === asked) close();
    }
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void suggest(), 120);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (items.length === 0) return;
      event.preventDefault();
      active = (active + (event.key === 'ArrowDown' ? 1 : -1) + items.length + 1) % (items.length + 1);
      if (active === items.length) active = -1;
      show();
    } else if (event.key === 'Escape') {
      close();
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      input.value = items[active]!.text;
      submit(input.value);
    }
  });
  input.addEventListener('blur', () => setTimeout(close, 100));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit(input.value);
  });
}

// ---------------------------------------------------------------- start

/** The text of the page's own frame (site/index.html): elements marked `data-i18n="key"` (or `data-i18n-<attribute>`). */
function translateFrame(): void {
  document.documentElement.lang = locale;
  for (const element of document.querySelectorAll<HTMLElement>('[data-i18n]')) {
    const text = t[element.dataset.i18n as keyof Messages];
    if (typeof text === 'string') element.textContent = text;
  }
  for (const attribute of ['placeholder', 'aria-label', 'title']) {
    for (const element of document.querySelectorAll<HTMLElement>(`[data-i18n-${attribute}]`)) {
      const text = t[element.getAttribute(`data-i18n-${attribute}`) as keyof Messages];
      if (typeof text === 'string') element.setAttribute(attribute, text);
    }
  }
  if (document.getElementById('mode')?.dataset.mode !== undefined) showMode();
}

function setupLocale(): void {
  localeSelect.replaceChildren(...LOCALES.map(([code, name]) => h('option', { value: code, selected: code === locale, lang: code }, name)));
  translateFrame();
  localeSelect.addEventListener('change', () => {
    if (!isLocale(localeSelect.value)) return;
    locale = localeSelect.value;
    t = CATALOGS[locale];
    translateFrame();
    try {
      localStorage.setItem('locale', locale);
    } catch {
      // Not remembered; still applied.
    }
    void render();
  });
}

function showMode(): void {
  const mode = navigator.serviceWorker?.controller ? 'service-worker' : 'page';
  const status = document.getElementById('mode')!;
  status.dataset.mode = mode;
  status.textContent = mode === 'service-worker' ? t.modeWorker : t.modePage;
}

setupLocale();
setupSearchBox();
window.addEventListener('hashchange', () => {
  window.scrollTo(0, 0);
  void render();
});
navigator.serviceWorker?.addEventListener('controllerchange', showMode);
void ready().then(() => {
  showMode();
  return render();
});
