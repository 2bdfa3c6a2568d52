/**
 * DOM building for the demo page. Everything from the API reaches the page through
 * `document.createTextNode`/`textContent` or a fixed set of elements made here; nothing is ever
 * assigned to `innerHTML`, and the only attribute values taken from data are checked link
 * targets (markdown.ts) and the avatar URL (an `https:` URL checked by the build, checked again).
 */
import { parseHighlight } from './highlight.ts';
import { parseMarkdown, type Block, type Inline } from './markdown.ts';

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | null | ((event: Event) => void)>;

/** Create an element: `on…` attributes become listeners, `true` a boolean attribute, null/false/undefined are skipped. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Append children (strings become text nodes). */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** A search highlight as text nodes and `<mark>` elements only (see highlight.ts). */
export function renderHighlight(html: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const segment of parseHighlight(html)) {
    fragment.appendChild(segment.mark ? h('mark', null, segment.text) : document.createTextNode(segment.text));
  }
  return fragment;
}

/** A Markdown document as DOM (see markdown.ts for the subset). Headings start at `<h3>`. */
export function renderMarkdown(source: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  append(fragment, parseMarkdown(source).map(renderBlock));
  return fragment;
}

function renderBlock(block: Block): Node {
  switch (block.type) {
    case 'heading': {
      const level = Math.min(block.level + 2, 6);
      return h(`h${level}` as 'h3', null, ...block.children.map(renderInline));
    }
    case 'paragraph':
      return h('p', null, ...block.children.map(renderInline));
    case 'code':
      // Focusable, so a keyboard can scroll a long line sideways (axe: scrollable-region-focusable).
      return h('pre', { tabindex: '0' }, h('code', { 'data-lang': block.lang || null }, block.text));
    case 'list': {
      const items = block.items.map((item) => {
        // A tight item (one paragraph) is shown without the paragraph margins.
        const [first, ...rest] = item.children;
        const content = first?.type === 'paragraph' && rest.length === 0 ? first.children.map(renderInline) : item.children.map(renderBlock);
        const box = item.checked === null ? null : h('input', { type: 'checkbox', disabled: true, checked: item.checked, 'aria-label': item.checked ? 'done' : 'to do' });
        return h('li', { class: box ? 'task' : null }, box, ...content);
      });
      return block.ordered ? h('ol', { start: block.start === 1 ? null : block.start }, ...items) : h('ul', null, ...items);
    }
    case 'quote':
      return h('blockquote', null, ...block.children.map(renderBlock));
    case 'rule':
      return h('hr');
    case 'table': {
      const cell = (tag: 'th' | 'td', inlines: Inline[], k: number): Node =>
        h(tag, { style: block.align[k] ? `text-align:${block.align[k]}` : null }, ...inlines.map(renderInline));
      return h(
        'div',
        { class: 'table-scroll', tabindex: '0' },
        h(
          'table',
          null,
          h('thead', null, h('tr', null, ...block.head.map((c, k) => cell('th', c, k)))),
          h('tbody', null, ...block.rows.map((row) => h('tr', null, ...row.map((c, k) => cell('td', c, k))))),
        ),
      );
    }
  }
}

function renderInline(inline: Inline): Node {
  switch (inline.type) {
    case 'text':
      return document.createTextNode(inline.text);
    case 'code':
      return h('code', null, inline.text);
    case 'strong':
      return h('strong', null, ...inline.children.map(renderInline));
    case 'em':
      return h('em', null, ...inline.children.map(renderInline));
    case 'link':
      // A relative link gets no href here: the page points it at the skill's file, if it has one.
      if (inline.relative === true) return h('a', { 'data-href': inline.href }, ...inline.children.map(renderInline));
      return h('a', { href: inline.href, rel: 'nofollow noopener noreferrer ugc', target: '_blank' }, ...inline.children.map(renderInline));
  }
}
