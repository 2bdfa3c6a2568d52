/**
 * Text for a terminal: emphasis (ANSI when enabled), display width of Unicode text, aligned
 * columns, and removal of control characters, since skill text comes from untrusted repositories
 * and must never drive the terminal (escape sequences, bidi overrides).
 */
import { sanitize } from '../plain-text.ts';

/** How text is emphasized: ANSI sequences on a terminal, nothing otherwise. */
export interface Style {
  /** A search match (bold, inverse). */
  mark(text: string): string;
  /** A heading or a name (bold). */
  strong(text: string): string;
  /** Secondary text (dim). */
  dim(text: string): string;
}

const PLAIN: Style = { mark: (t) => t, strong: (t) => t, dim: (t) => t };
const ANSI: Style = {
  mark: (t) => `\x1b[1;7m${t}\x1b[22;27m`,
  strong: (t) => `\x1b[1m${t}\x1b[22m`,
  dim: (t) => `\x1b[2m${t}\x1b[22m`,
};

/**
 * ANSI emphasis when the output is a terminal, unless `NO_COLOR` is set; `FORCE_COLOR` (not `0`)
 * forces it on, e.g. in a pager.
 */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Style {
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return ANSI;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return PLAIN;
  return stream.isTTY === true ? ANSI : PLAIN;
}

// Removing what could drive a terminal is the core's (the builder needs it too).
export { oneLine, sanitize } from '../plain-text.ts';

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decode the HTML entities a highlight can hold (named basics and numeric). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * A search highlight (HTML-escaped text with `<mark>…</mark>`) as terminal text: marked words
 * emphasized with `style.mark`, entities decoded, on one line, control characters removed.
 */
export function renderHighlight(html: string, style: Style): string {
  return html
    .split(/(<mark>[\s\S]*?<\/mark>)/)
    .map((part) => {
      const marked = part.startsWith('<mark>') && part.endsWith('</mark>');
      const text = oneLineKeepEdges(decodeEntities(marked ? part.slice(6, -7) : part));
      return marked && text !== '' ? style.mark(text) : text;
    })
    .join('')
    .trim();
}

function oneLineKeepEdges(text: string): string {
  return sanitize(text).replace(/\s+/g, ' ');
}

// Zero width: combining marks, variation selectors, zero-width joiners and spaces.
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200f\ufe00-\ufe0f]$/u;
const EMOJI = /^\p{Extended_Pictographic}$/u;

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

const ANSI_SEQUENCE = /\x1b\[[0-9;]*m/g;

/** Columns `text` takes in a terminal (ANSI emphasis ignored; CJK and emoji count 2). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text.replace(ANSI_SEQUENCE, '')) {
    if (ZERO_WIDTH.test(char)) continue;
    const cp = char.codePointAt(0)!;
    width += isWide(cp) || (cp > 0xff && EMOJI.test(char)) ? 2 : 1;
  }
  return width;
}

/** `text` cut to at most `max` columns, ending in `…` when cut (ANSI emphasis kept, closed). */
export function truncate(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  let out = '';
  let width = 0;
  let styled = false;
  // Split keeps the ANSI sequences as their own parts (odd indexes); they take no room.
  for (const [i, part] of text.split(/(\x1b\[[0-9;]*m)/).entries()) {
    if (i % 2 === 1) {
      out += part;
      styled = true;
      continue;
    }
    for (const char of part) {
      const w = displayWidth(char);
      if (width + w > max - 1) return `${out}${styled ? '\x1b[0m' : ''}…`;
      out += char;
      width += w;
    }
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` columns, on the left (`right`) or the right. */
export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/**
 * Rows as aligned columns separated by two spaces; `align` per column (default left). Trailing
 * spaces are trimmed.
 */
export function columns(rows: readonly (readonly string[])[], align: ReadonlyArray<'left' | 'right'> = []): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell))));
  return rows.map((row) => row.map((cell, i) => pad(cell, widths[i]!, align[i] ?? 'left')).join('  ').trimEnd());
}

const NUMBER = new Intl.NumberFormat('en-US');

/** An integer with thousands separators (`12,345`), the same in every locale. */
export function count(n: number): string {
  return NUMBER.format(n);
}
