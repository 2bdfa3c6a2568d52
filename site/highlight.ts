/**
 * Search highlights (`highlights.name` / `.description`) as segments of plain text. The API
 * promises HTML-escaped text with matched words wrapped in `<mark>…</mark>`; the page does not
 * take that on trust and never assigns it to `innerHTML`: only the exact tokens `<mark>` and
 * `</mark>` open and close a mark, entities are decoded to characters, and everything else —
 * including any other `<tag>` that should not be there — stays literal text. Rendered with text
 * nodes and `<mark>` elements, a highlight can never create another element or run anything.
 */

/** A run of highlight text, marked or not. */
export interface HighlightSegment {
  text: string;
  mark: boolean;
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decode the entities an HTML escaper writes (`&amp;`, `&lt;`, `&#39;`, `&#x27;` …); unknown ones stay literal. */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z]+));/g, (whole, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED[name] ?? whole;
    const code = dec !== undefined ? Number(dec) : Number.parseInt(hex!, 16);
    // No NUL, no lone surrogates, nothing past Unicode.
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : whole;
  });
}

/** Split a highlight string into text segments; adjacent segments never share a `mark` value. */
export function parseHighlight(html: string): HighlightSegment[] {
  const segments: HighlightSegment[] = [];
  let mark = false;
  for (const part of html.split(/(<mark>|<\/mark>)/)) {
    if (part === '<mark>') mark = true;
    else if (part === '</mark>') mark = false;
    else if (part !== '') {
      const text = decodeEntities(part);
      const last = segments[segments.length - 1];
      if (last !== undefined && last.mark === mark) last.text += text;
      else segments.push({ text, mark });
    }
  }
  return segments;
}
