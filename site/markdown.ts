/**
 * A small, safe Markdown subset for showing SKILL.md bodies: parsed into a plain tree here and
 * turned into DOM nodes (text nodes and a fixed set of elements) by render.ts — never HTML
 * strings. Raw HTML in the source stays literal text; images are shown as their alt text (no
 * third-party requests); links keep only `http:`, `https:` and `mailto:` targets.
 *
 * Blocks: ATX headings, paragraphs, fenced and indented code, `-`/`*`/`+` and numbered lists
 * (nested, `[ ]`/`[x]` tasks), block quotes, thematic breaks, pipe tables. Inline: code spans,
 * `**strong**`/`__strong__`, `*emphasis*`, links, `<https://…>` autolinks, backslash escapes.
 * `_emphasis_` is not supported on purpose: snake_case identifiers are everywhere in skills.
 *
 * Every scan is linear or bounded (closers are looked up once per position with a memo, nesting
 * is capped), so a hostile 1 MiB document cannot freeze the page.
 */

import { lowerBound } from '../src/sorted.ts';

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong' | 'em'; children: Inline[] }
  /** `relative`: a link to a file beside SKILL.md (`reference.md`, `scripts/x.py`), resolved by the page. */
  | { type: 'link'; href: string; children: Inline[]; relative?: true };

export type Block =
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'code'; lang: string; text: string }
  | { type: 'list'; ordered: boolean; start: number; items: ListItem[] }
  | { type: 'quote'; children: Block[] }
  | { type: 'rule' }
  | { type: 'table'; align: Array<'left' | 'center' | 'right' | null>; head: Inline[][]; rows: Inline[][][] };

export interface ListItem {
  /** `true`/`false` for a task item (`- [x]`/`- [ ]`), else null. */
  checked: boolean | null;
  children: Block[];
}

/** Deepest nesting of quotes and lists (and of inline strong/em/link) that is still parsed. */
const MAX_DEPTH = 8;
/**
 * Most formatted inline nodes in one paragraph, heading or cell; the rest of its text stays
 * plain. A browser lays out tens of thousands of inline elements on one unbreakable line in time
 * that grows much faster than their number (a long run of `*_` can freeze a tab), and no real
 * paragraph comes near this.
 */
const MAX_INLINE_NODES = 2000;

// Every pattern runs in linear time on a line of any length (no nested or adjacent ambiguous repeats).
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t](.*))?$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const INDENTED = /^(?: {4}|\t)/;

/** Parse a Markdown document into blocks. */
export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, '\n').split('\n'), 0);
}

function parseBlocks(lines: readonly string[], depth: number): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = fenceAt(line);
    if (fence !== null) {
      const marker = fence.marker;
      const body: string[] = [];
      i++;
      while (i < lines.length && !isClosingFence(lines[i]!, marker)) body.push(lines[i++]!);
      i++; // the closing fence (or past the end)
      blocks.push({ type: 'code', lang: fence.lang, text: body.join('\n') });
      continue;
    }
    if (INDENTED.test(line)) {
      const body: string[] = [];
      while (i < lines.length && (INDENTED.test(lines[i]!) || lines[i]!.trim() === '')) body.push(lines[i++]!.replace(INDENTED, ''));
      while (body.length > 0 && body[body.length - 1]!.trim() === '') body.pop();
      blocks.push({ type: 'code', lang: '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      blocks.push({ type: 'heading', level: heading[1]!.length, children: parseInline(headingText(heading[2] ?? ''), depth) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i++;
      continue;
    }
    if (QUOTE.test(line) && depth < MAX_DEPTH) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) body.push(lines[i++]!.replace(QUOTE, ''));
      blocks.push({ type: 'quote', children: parseBlocks(body, depth + 1) });
      continue;
    }
    const item = ITEM.exec(line);
    if (item !== null && depth < MAX_DEPTH) {
      i = parseList(lines, i, depth, blocks);
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_DELIMITER.test(lines[i + 1]!) && lines[i + 1]!.includes('-')) {
      i = parseTable(lines, i, depth, blocks);
      continue;
    }
    const text: string[] = [line.trim()];
    i++;
    while (i < lines.length && lines[i]!.trim() !== '' && !startsBlock(lines, i)) text.push(lines[i++]!.trim());
    blocks.push({ type: 'paragraph', children: parseInline(text.join('\n'), depth) });
  }
  return blocks;
}

/** An opening code fence: its marker and language; a backtick fence's info may hold no backtick. */
function fenceAt(line: string): { marker: string; lang: string } | null {
  const match = FENCE.exec(line);
  if (match === null || (match[1]!.startsWith('`') && match[2]!.includes('`'))) return null;
  return { marker: match[1]!, lang: match[2]!.trim().split(/\s/)[0]! };
}

/** Heading text without its optional closing `#` sequence (scanned by hand: linear time). */
function headingText(raw: string): string {
  const text = raw.trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) return '';
  return end < text.length && (text[end - 1] === ' ' || text[end - 1] === '\t') ? text.slice(0, end).trimEnd() : text;
}

function isClosingFence(line: string, marker: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= marker.length && trimmed === marker[0]!.repeat(trimmed.length) && line.search(/\S/) <= 3;
}

/** Whether line `i` interrupts a paragraph. */
function startsBlock(lines: readonly string[], i: number): boolean {
  const line = lines[i]!;
  return fenceAt(line) !== null || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

/** Parse a list starting at line `start`; returns the index after it. */
function parseList(lines: readonly string[], start: number, depth: number, out: Block[]): number {
  const first = ITEM.exec(lines[start]!)!;
  const ordered = /\d/.test(first[2]!);
  const bullet = first[2]!.slice(-1);
  const items: ListItem[] = [];
  let i = start;
  for (;;) {
    const match = ITEM.exec(lines[i] ?? '');
    if (match === null || /\d/.test(match[2]!) !== ordered || match[2]!.slice(-1) !== bullet) break;
    // Continuation lines are indented at least as far as the item's text (at least 2 columns).
    const indent = Math.max(2, match[1]!.length + match[2]!.length + 1);
    const body: string[] = [match[3] ?? ''];
    i++;
    while (i < lines.length) {
      const line = lines[i]!;
      if (line.trim() === '') {
        // A blank line stays in the item only when indented content follows it.
        const next = lines[i + 1];
        if (next === undefined || leadingSpaces(next) < indent || next.trim() === '') break;
        body.push('');
        i++;
        continue;
      }
      if (leadingSpaces(line) >= indent) body.push(line.slice(indent));
      else if (!startsBlock(lines, i) && body[body.length - 1] !== '') body.push(line.trim()); // lazy continuation
      else break;
      i++;
    }
    const task = /^\[([ xX])\][ \t]+/.exec(body[0]!);
    if (task !== null) body[0] = body[0]!.slice(task[0].length);
    items.push({ checked: task === null ? null : task[1] !== ' ', children: parseBlocks(body, depth + 1) });
    while (i < lines.length && lines[i]!.trim() === '' && ITEM.test(lines[i + 1] ?? '')) i++;
  }
  out.push({ type: 'list', ordered, start: ordered ? Number.parseInt(first[2]!, 10) : 1, items });
  return i;
}

function leadingSpaces(line: string): number {
  return line.length - line.replace(/^ +/, '').length;
}

function parseTable(lines: readonly string[], start: number, depth: number, out: Block[]): number {
  const align = splitRow(lines[start + 1]!).map((cell) => {
    const c = cell.trim();
    if (c.startsWith(':') && c.endsWith(':')) return 'center' as const;
    if (c.endsWith(':')) return 'right' as const;
    if (c.startsWith(':')) return 'left' as const;
    return null;
  });
  const cells = (line: string): Inline[][] => {
    const row = splitRow(line);
    return align.map((_, k) => parseInline((row[k] ?? '').trim(), depth));
  };
  const head = cells(lines[start]!);
  const rows: Inline[][][] = [];
  let i = start + 2;
  while (i < lines.length && lines[i]!.trim() !== '' && lines[i]!.includes('|') && !startsBlock(lines, i)) rows.push(cells(lines[i++]!));
  out.push({ type: 'table', align, head, rows });
  return i;
}

/** Cells of a table row: split on `|` that is not escaped and not inside a code span. */
function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  let code = false;
  for (let k = 0; k < row.length; k++) {
    const c = row[k]!;
    if (c === '\\' && row[k + 1] === '|') {
      cell += '|';
      k++;
    } else if (c === '`') {
      code = !code;
      cell += c;
    } else if (c === '|' && !code) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

const ESCAPABLE = '\\`*_{}[]()#+-.!|<>~"\'';
const SAFE_HREF = /^(?:https?:\/\/|mailto:)[^\s]+$/i;
/** A relative link (no scheme, not rooted, not a fragment or query): a file of the skill's folder, maybe. */
const RELATIVE_HREF = /^(?![a-z][a-z0-9+.-]*:|[/\\#?])[^\s]+$/i;

/**
 * Finds the next occurrence of a token at or after a position, before a limit; -1 when none.
 * `backticks(k, from, end)` finds the next run of exactly `k` backticks.
 */
type Find = ((token: string, from: number, end: number) => number) & {
  backticks: (length: number, from: number, end: number) => number;
  /** Formatted nodes (code, strong, em, links) made so far in this inline text. */
  made: number;
};

/**
 * A `Find` over `text` that remembers the last answer per token, so repeated lookups while
 * scanning forward (at any nesting level: positions are absolute) cost linear time in total.
 */
function finder(text: string): Find {
  const memo = new Map<string, { from: number; at: number }>();
  const find = (token: string, from: number, end: number): number => {
    const last = memo.get(token);
    let at: number;
    if (last !== undefined && last.from <= from && (last.at === -1 || last.at >= from)) at = last.at;
    else {
      at = text.indexOf(token, from);
      memo.set(token, { from, at });
    }
    return at !== -1 && at + token.length <= end ? at : -1;
  };
  // Every backtick run of the text by its length, found in one pass when first needed: a closer
  // is then a binary search. (Searching the text for each opener's run was quadratic: a 1 MiB
  // document of runs of decreasing length took two minutes.)
  let runs: Map<number, number[]> | undefined;
  const backticks = (length: number, from: number, end: number): number => {
    if (runs === undefined) {
      runs = new Map();
      for (let i = text.indexOf('`'); i !== -1; i = text.indexOf('`', i)) {
        let j = i;
        while (text.charCodeAt(j) === 96) j++;
        const starts = runs.get(j - i);
        if (starts === undefined) runs.set(j - i, [i]);
        else starts.push(i);
        i = j;
      }
    }
    const starts = runs.get(length);
    if (starts === undefined) return -1;
    const at = starts[lowerBound(starts, from)];
    return at !== undefined && at + length <= end ? at : -1;
  };
  return Object.assign(find, { backticks, made: 0 });
}

/** Parse inline Markdown; `depth` caps nesting of strong/em/link. */
export function parseInline(text: string, depth = 0): Inline[] {
  return inlineRange(text, 0, text.length, depth, finder(text));
}

/** Inline Markdown of `text[start, end)`; nested runs are parsed in place (no copies). */
function inlineRange(text: string, start: number, end: number, depth: number, find: Find): Inline[] {
  const out: Inline[] = [];
  let textStart = start;
  let buffer = '';
  // Plain text is collected as ranges of `text` (plus escaped characters), not char by char.
  const flush = (to: number): void => {
    const chunk = buffer + text.slice(textStart, to);
    buffer = '';
    if (chunk === '') return;
    const last = out[out.length - 1];
    if (last?.type === 'text') last.text += chunk;
    else out.push({ type: 'text', text: chunk });
  };
  const nested = depth < MAX_DEPTH;
  let i = start;
  // Past the budget the rest is text: `flush(end)` below keeps it whole.
  while (i < end && find.made < MAX_INLINE_NODES) {
    const c = text[i]!;
    let node: Inline | null = null;
    let next = i;
    if (c === '\\' && i + 1 < end && ESCAPABLE.includes(text[i + 1]!)) {
      flush(i);
      buffer = text[i + 1]!;
      i += 2;
      textStart = i;
      continue;
    } else if (c === '`') {
      let run = 1;
      while (i + run < end && text[i + run] === '`') run++;
      // The closing run must be exactly as long as the opening one.
      const close = find.backticks(run, i + run, end);
      if (close === -1) {
        i += run; // the whole run is literal text
        continue;
      }
      let code = text.slice(i + run, close).replace(/\n/g, ' ');
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ')) code = code.slice(1, -1);
      node = { type: 'code', text: code };
      next = close + run;
    } else if (nested && (c === '*' || c === '_') && text[i + 1] === c && i + 2 < end && !/\s/.test(text[i + 2]!)) {
      const close = find(c + c, i + 2, end);
      if (close > i + 2) {
        node = { type: 'strong', children: inlineRange(text, i + 2, close, depth + 1, find) };
        next = close + 2;
      }
    } else if (nested && c === '*' && i + 1 < end && !/\s/.test(text[i + 1]!)) {
      const close = find('*', i + 1, end);
      if (close > i + 1 && !/\s/.test(text[close - 1]!)) {
        node = { type: 'em', children: inlineRange(text, i + 1, close, depth + 1, find) };
        next = close + 1;
      }
    } else if (c === '!' && text[i + 1] === '[') {
      const image = linkAt(text, i + 1, end, find);
      if (image !== null) {
        // Alt text only: no request to the image's host.
        flush(i);
        buffer = text.slice(i + 2, image.labelEnd);
        i = image.end;
        textStart = i;
        continue;
      }
    } else if (nested && c === '[') {
      const link = linkAt(text, i, end, find);
      if (link !== null) {
        const children = inlineRange(text, i + 1, link.labelEnd, depth + 1, find);
        flush(i);
        find.made++;
        if (SAFE_HREF.test(link.href)) out.push({ type: 'link', href: link.href, children });
        else if (RELATIVE_HREF.test(link.href)) out.push({ type: 'link', href: link.href, children, relative: true });
        else for (const child of children) pushMerged(out, child);
        i = link.end;
        textStart = i;
        continue;
      }
    } else if (c === '<') {
      const auto = /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i.exec(text.slice(i, Math.min(end, i + 2048)));
      if (auto !== null) {
        node = { type: 'link', href: auto[1]!, children: [{ type: 'text', text: auto[1]! }] };
        next = i + auto[0].length;
      }
    }
    if (node === null) {
      i++;
      continue;
    }
    flush(i);
    out.push(node);
    find.made++;
    i = next;
    textStart = i;
  }
  flush(end);
  return out;
}

/** Append `node`, merging adjacent text nodes. */
function pushMerged(out: Inline[], node: Inline): void {
  const last = out[out.length - 1];
  if (node.type === 'text' && last?.type === 'text') last.text += node.text;
  else out.push(node);
}

/** A `[label](href)` starting at `[`: where the label ends, the href, and the index after `)`. */
function linkAt(text: string, open: number, end: number, find: Find): { labelEnd: number; href: string; end: number } | null {
  const labelEnd = find('](', open + 1, end);
  // The label may not span another `]`; keep it short so a bad document stays cheap.
  if (labelEnd === -1 || labelEnd - open > 1000 || text.slice(open + 1, labelEnd).includes(']')) return null;
  // The target ends at the first `)`: no nested parentheses.
  const close = find(')', labelEnd + 2, end);
  if (close === -1 || close - labelEnd > 2048) return null;
  const target = text.slice(labelEnd + 2, close).trim();
  // Drop an optional title: `(url "title")`.
  const href = target.replace(/\s+["'(].*$/s, '').replace(/^<(.*)>$/, '$1');
  if (/\s/.test(href)) return null;
  return { labelEnd, href, end: close + 1 };
}
