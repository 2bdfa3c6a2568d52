/** The search box of the page's frame, with autocomplete suggestions from the API. */
import type { Suggestion } from '../src/schemas.ts';
import { h } from './render.ts';
import { get, number, withQuery, count } from './page-common.ts';

/** Show `q` in the search box unless the reader is typing there. */
export function syncSearchBox(q: string): void {
  const input = document.getElementById('q') as HTMLInputElement;
  if (document.activeElement !== input) input.value = q;
}

/**
 * What the box holds once suggestion `text` is chosen while it held `typed`: the reader's own
 * words with the last one completed, when the suggestion's last word completes it (a suggestion is
 * the normalized query, its request words dropped and its case folded, which searches the same);
 * else the suggestion itself.
 */
export function chosenText(typed: string, text: string): string {
  const last = /\S+$/.exec(typed);
  const completed = /\S+$/.exec(text)?.[0];
  if (last === null || completed === undefined || !completed.toLowerCase().startsWith(last[0].toLowerCase())) return text;
  return typed.slice(0, last.index) + completed;
}

/** Wire the search box: submit navigates with `go`, typing asks for suggestions, `/` focuses it. */
export function setupSearchBox(go: (hash: string) => void): void {
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
              input.value = chosenText(input.value, suggestion.text);
              submit(input.value);
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
      input.value = chosenText(input.value, items[active]!.text);
      submit(input.value);
    }
  });
  input.addEventListener('blur', () => setTimeout(close, 100));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit(input.value);
  });
}
