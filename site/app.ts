/**
 * The demo page (bundled by builder/site.ts into `<out>/app.js`): browse, filter, search and read
 * skills through the canonical API. Every request goes through `apiFetch` (page-api.ts), so the
 * Service Worker answers it once it controls the page. Hash routing (`#/skills/owner/repo`)
 * keeps every view a plain static URL that works under any sub-path.
 *
 * Views: `#/` (`#/skills?…`) list · `#/search?q=…` · `#/categories` · `#/categories/:slug?…` ·
 * `#/skills/:owner/:repo`.
 *
 * This file routes and renders the lists; the detail view (detail-view.ts), the search box
 * (search-box.ts) and what the views share (page-common.ts: locale, API reads, formatting) have
 * files of their own.
 */
import { ready } from '../src/page-api.ts';
import type { CategoryDetail, Pagination, SearchResponse, SkillListResponse, SkillSummary } from '../src/schemas.ts';
import { LOCALES, isLocale, type Messages } from './i18n.ts';
import { categoryIcon } from './icons.ts';
import { append, h, renderHighlight } from './render.ts';
import { detailView } from './detail-view.ts';
import { ApiFailure, LIST_PARAMS, SEARCH_PARAMS, badge, categories, categoryNames, chips, compact, count, countPill, date, get, locale, number, pick, platformName, platforms, setLocale, t, withQuery } from './page-common.ts';
import { setupSearchBox, syncSearchBox } from './search-box.ts';


const main = document.getElementById('view') as HTMLElement;
const localeSelect = document.getElementById('locale') as HTMLSelectElement;
let generation = 0;

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
    setLocale(localeSelect.value);
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
setupSearchBox(go);
window.addEventListener('hashchange', () => {
  window.scrollTo(0, 0);
  void render();
});
navigator.serviceWorker?.addEventListener('controllerchange', showMode);
void ready().then(() => {
  showMode();
  return render();
});
