/**
 * The pure parts of the demo page (site/), in Node: the highlight and Markdown parsers (whatever
 * they return is rendered with text nodes and a fixed set of elements), the chart's scale, and
 * the page's languages.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { niceCeiling } from '../site/chart.ts';
import { decodeEntities, parseHighlight } from '../site/highlight.ts';
import { CATALOGS, LOCALES, counted, localeFor } from '../site/i18n.ts';
import { parseInline, parseMarkdown, type Block, type Inline } from '../site/markdown.ts';

describe('parseHighlight', () => {
  it.each([
    ['plain', [{ text: 'plain', mark: false }]],
    ['<mark>Docker</mark> Compose', [{ text: 'Docker', mark: true }, { text: ' Compose', mark: false }]],
    ['a <mark>b</mark><mark>c</mark> d', [{ text: 'a ', mark: false }, { text: 'bc', mark: true }, { text: ' d', mark: false }]],
    ['&lt;img src=x onerror=alert(1)&gt;', [{ text: '<img src=x onerror=alert(1)>', mark: false }]],
    ['&lt;mark onmouseover=x&gt;<mark>t</mark>&lt;/mark&gt;', [{ text: '<mark onmouseover=x>', mark: false }, { text: 't', mark: true }, { text: '</mark>', mark: false }]],
    ['&amp;amp; &quot;q&quot; &#39;s&#39; &#x27;', [{ text: '&amp; "q" \'s\' \'', mark: false }]],
    // Not what the API writes, and still only text: a raw tag stays literal.
    ['<img src=x onerror=alert(1)>', [{ text: '<img src=x onerror=alert(1)>', mark: false }]],
    ['<MARK>x</MARK>', [{ text: '<MARK>x</MARK>', mark: false }]],
    ['', []],
  ])('%j', (html, segments) => {
    expect(parseHighlight(html)).toEqual(segments);
  });

  it('turns any escaped text back into the original, and marks exactly the wrapped words', () => {
    const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    fc.assert(
      fc.property(fc.array(fc.record({ text: fc.string({ minLength: 1, maxLength: 12 }), mark: fc.boolean() }), { maxLength: 8 }), (parts) => {
        const html = parts.map((p) => (p.mark ? `<mark>${escape(p.text)}</mark>` : escape(p.text))).join('');
        const segments = parseHighlight(html);
        expect(segments.map((s) => s.text).join('')).toBe(parts.map((p) => p.text).join(''));
        expect(segments.filter((s) => s.mark).map((s) => s.text).join('')).toBe(parts.filter((p) => p.mark).map((p) => p.text).join(''));
      }),
    );
  });
});

describe('decodeEntities', () => {
  it.each([
    ['&#60;&#x3C;&#X3c;', '<<<'],
    ['&#0; &#xD800; &#x110000; &bogus; &amp', '&#0; &#xD800; &#x110000; &bogus; &amp'],
    ['&#128512;', '😀'],
  ])('%s → %s', (input, output) => {
    expect(decodeEntities(input)).toBe(output);
  });
});

/** Every inline node of a tree, depth first. */
function inlines(blocks: readonly Block[]): Inline[] {
  const out: Inline[] = [];
  const walkInline = (nodes: readonly Inline[]): void => {
    for (const node of nodes) {
      out.push(node);
      if (node.type === 'strong' || node.type === 'em' || node.type === 'link') walkInline(node.children);
    }
  };
  const walk = (nodes: readonly Block[]): void => {
    for (const block of nodes) {
      if (block.type === 'heading' || block.type === 'paragraph') walkInline(block.children);
      else if (block.type === 'quote') walk(block.children);
      else if (block.type === 'list') for (const item of block.items) walk(item.children);
      else if (block.type === 'table') for (const row of [block.head, ...block.rows]) for (const cell of row) walkInline(cell);
    }
  };
  walk(blocks);
  return out;
}

describe('parseMarkdown', () => {
  it('parses the supported blocks', () => {
    const source = [
      '# Title ##',
      '',
      'Some *em* and **strong** text',
      'with `code` and a [link](https://example.com "t").',
      '',
      '```bash',
      'npm test',
      '```',
      '',
      '- one',
      '- [x] done',
      '  - nested',
      '',
      '3. three',
      '4. four',
      '',
      '> quoted',
      '',
      '---',
      '',
      '| a | b |',
      '|:--|--:|',
      '| `x|y` | 2 |',
    ].join('\n');
    expect(parseMarkdown(source)).toMatchInlineSnapshot(`
      [
        {
          "children": [
            {
              "text": "Title",
              "type": "text",
            },
          ],
          "level": 1,
          "type": "heading",
        },
        {
          "children": [
            {
              "text": "Some ",
              "type": "text",
            },
            {
              "children": [
                {
                  "text": "em",
                  "type": "text",
                },
              ],
              "type": "em",
            },
            {
              "text": " and ",
              "type": "text",
            },
            {
              "children": [
                {
                  "text": "strong",
                  "type": "text",
                },
              ],
              "type": "strong",
            },
            {
              "text": " text
      with ",
              "type": "text",
            },
            {
              "text": "code",
              "type": "code",
            },
            {
              "text": " and a ",
              "type": "text",
            },
            {
              "children": [
                {
                  "text": "link",
                  "type": "text",
                },
              ],
              "href": "https://example.com",
              "type": "link",
            },
            {
              "text": ".",
              "type": "text",
            },
          ],
          "type": "paragraph",
        },
        {
          "lang": "bash",
          "text": "npm test",
          "type": "code",
        },
        {
          "items": [
            {
              "checked": null,
              "children": [
                {
                  "children": [
                    {
                      "text": "one",
                      "type": "text",
                    },
                  ],
                  "type": "paragraph",
                },
              ],
            },
            {
              "checked": true,
              "children": [
                {
                  "children": [
                    {
                      "text": "done",
                      "type": "text",
                    },
                  ],
                  "type": "paragraph",
                },
                {
                  "items": [
                    {
                      "checked": null,
                      "children": [
                        {
                          "children": [
                            {
                              "text": "nested",
                              "type": "text",
                            },
                          ],
                          "type": "paragraph",
                        },
                      ],
                    },
                  ],
                  "ordered": false,
                  "start": 1,
                  "type": "list",
                },
              ],
            },
          ],
          "ordered": false,
          "start": 1,
          "type": "list",
        },
        {
          "items": [
            {
              "checked": null,
              "children": [
                {
                  "children": [
                    {
                      "text": "three",
                      "type": "text",
                    },
                  ],
                  "type": "paragraph",
                },
              ],
            },
            {
              "checked": null,
              "children": [
                {
                  "children": [
                    {
                      "text": "four",
                      "type": "text",
                    },
                  ],
                  "type": "paragraph",
                },
              ],
            },
          ],
          "ordered": true,
          "start": 3,
          "type": "list",
        },
        {
          "children": [
            {
              "children": [
                {
                  "text": "quoted",
                  "type": "text",
                },
              ],
              "type": "paragraph",
            },
          ],
          "type": "quote",
        },
        {
          "type": "rule",
        },
        {
          "align": [
            "left",
            "right",
          ],
          "head": [
            [
              {
                "text": "a",
                "type": "text",
              },
            ],
            [
              {
                "text": "b",
                "type": "text",
              },
            ],
          ],
          "rows": [
            [
              [
                {
                  "text": "x|y",
                  "type": "code",
                },
              ],
              [
                {
                  "text": "2",
                  "type": "text",
                },
              ],
            ],
          ],
          "type": "table",
        },
      ]
    `);
  });

  it.each([
    // The target ends at the first `)` (no nested parentheses): the rest is text.
    ['[x](javascript:alert(1))', [{ type: 'text', text: 'x)' }]],
    ['[x](javascript:void0)', [{ type: 'text', text: 'x' }]],
    ['[x](data:text/html,hi)', [{ type: 'text', text: 'x' }]],
    ['[x](JaVaScRiPt:void0)', [{ type: 'text', text: 'x' }]],
    ['[x](/relative)', [{ type: 'text', text: 'x' }]],
    ['[x](mailto:a@b.example)', [{ type: 'link', href: 'mailto:a@b.example', children: [{ type: 'text', text: 'x' }] }]],
    ['![pixel](https://tracker.example/p.gif)', [{ type: 'text', text: 'pixel' }]],
    ['<https://example.com/a>', [{ type: 'link', href: 'https://example.com/a', children: [{ type: 'text', text: 'https://example.com/a' }] }]],
    ['<img src=x onerror=alert(1)>', [{ type: 'text', text: '<img src=x onerror=alert(1)>' }]],
    ['snake_case_name and __init__', [{ type: 'text', text: 'snake_case_name and ' }, { type: 'strong', children: [{ type: 'text', text: 'init' }] }]],
    ['\\*not em\\*', [{ type: 'text', text: '*not em*' }]],
    ['``a ` b``', [{ type: 'code', text: 'a ` b' }]],
    ['`unclosed', [{ type: 'text', text: '`unclosed' }]],
  ])('inline %j', (source, expected) => {
    expect(parseInline(source)).toEqual(expected);
  });

  it('keeps only http, https and mailto link targets, for any input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (source) => {
        for (const node of inlines(parseMarkdown(source))) {
          if (node.type === 'link') expect(node.href).toMatch(/^(?:https?:\/\/|mailto:)\S+$/i);
        }
      }),
    );
  });

  it('loses no text of a plain paragraph', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z ]{0,79}$/), (source) => {
        const text = inlines(parseMarkdown(source))
          .map((n) => (n.type === 'text' ? n.text : ''))
          .join('');
        expect(text).toBe(source.trim());
      }),
    );
  });

  // A SKILL.md can hold up to 1 MiB of anything; none of these may freeze the page. The test
  // timeout (generous, for a busy machine) is the guard: each input takes milliseconds.
  it.each([
    ['[', '['.repeat(1 << 20)],
    ['[a](', '[a]('.repeat(1 << 18)],
    ['*a', '*a'.repeat(1 << 19)],
    ['**', '**a'.repeat(350_000)],
    ['`', '`x'.repeat(1 << 19)],
    ['# + spaces', `# ${' '.repeat(1 << 20)}x`],
    ['> nesting', '>'.repeat(1 << 16)],
    ['- nesting', Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i * 2)}- item`).join('\n')],
    ['table', `|a|b|\n|-|-|\n${'|x|y|\n'.repeat(50_000)}`],
    ['fences', '```\n'.repeat(100_000)],
    // Backtick runs of decreasing length: each opener's closer was searched through the rest of
    // the text (two minutes at 1 MiB); now a lookup in an index of runs.
    ['decreasing backtick runs', Array.from({ length: 1447 }, (_, i) => '`'.repeat(1447 - i)).join(' ')],
  ])('a hostile document (%s) is parsed in bounded time', (_, source) => {
    const started = performance.now();
    expect(() => parseMarkdown(source)).not.toThrow();
    // A blow-up guard only (BENCHMARKS.md has the figures): every one of these takes well under 1 s.
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 10_000);

  it('code spans close on a run of exactly the same length', () => {
    expect(parseInline('a ``b ` c`` d `e` ```f``')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'code', text: 'b ` c' },
      { type: 'text', text: ' d ' },
      { type: 'code', text: 'e' },
      { type: 'text', text: ' ```f``' },
    ]);
  });
});

describe('niceCeiling', () => {
  it.each([
    [0, 1],
    [7, 10],
    [12, 20],
    [2370, 2500],
    [31_200, 50_000],
    [100, 100],
  ])('%d → %d', (value, expected) => {
    expect(niceCeiling(value)).toBe(expected);
  });
});

describe('the page in six languages', () => {
  it.each<[string[], string]>([
    [['ja-JP', 'en'], 'ja'],
    [['de-AT'], 'de'],
    [['fr-CA', 'de'], 'fr'],
    [['zh-Hant-HK'], 'zh-TW'],
    [['zh-HK'], 'zh-TW'],
    [['zh-CN', 'ko-KR'], 'ko'],
    [['pt-BR'], 'en'],
    [['not a tag', 'KO'], 'ko'],
    [[], 'en'],
  ])('browser languages %j → %s', (languages, expected) => {
    expect(localeFor(languages)).toBe(expected);
  });

  it('every catalog has every message, none empty, and the counts follow each language\'s plural rules', () => {
    const keys = Object.keys(CATALOGS.en).sort();
    for (const [code] of LOCALES) {
      const catalog = CATALOGS[code];
      expect(Object.keys(catalog).sort(), code).toEqual(keys);
      for (const [key, value] of Object.entries(catalog)) {
        if (typeof value === 'string') expect(value.trim(), `${code}.${key}`).not.toBe('');
        if (typeof value === 'object') expect(Object.keys(value).sort(), `${code}.${key}`).toEqual(Object.keys(CATALOGS.en[key as keyof typeof CATALOGS.en] as object).sort());
      }
    }
    expect(counted('en', 1, CATALOGS.en.skillCount)).toBe('1 skill');
    expect(counted('en', 1200, CATALOGS.en.skillCount)).toBe('1,200 skills');
    expect(counted('de', 1200, CATALOGS.de.skillCount)).toBe('1.200 Skills');
    // French counts 0 and 1 as singular.
    expect(counted('fr', 0, CATALOGS.fr.resultsFor)).toBe('0 résultat pour');
    expect(counted('ja', 3, CATALOGS.ja.skillCount)).toBe('3 件のスキル');
  });
});

describe('parseMarkdown bounds what a browser must lay out', () => {
  it('a paragraph of 65,000 emphasis runs keeps 2,000 formatted nodes and the rest as plain text, nothing lost', () => {
    const text = '*a* '.repeat(65_000);
    const [paragraph] = parseMarkdown(text) as Array<{ type: 'paragraph'; children: Inline[] }>;
    const formatted = paragraph!.children.filter((n) => n.type !== 'text');
    expect(formatted).toHaveLength(2000);
    const plain = (nodes: Inline[]): string => nodes.map((n) => (n.type === 'text' || n.type === 'code' ? n.text : `*${plain(n.children)}*`)).join('');
    expect(plain(paragraph!.children)).toBe(text.trim());
  });
});
