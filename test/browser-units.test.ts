/**
 * The pure parts of the browser side, in Node: which requests the Service Worker answers, the
 * highlight and Markdown parsers of the demo page (whatever they return is rendered with text
 * nodes and a fixed set of elements), the `--base` check and the `_headers` file.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headersFile, normalizeBase } from '../build/site.ts';
import { niceCeiling } from '../site/chart.ts';
import { decodeEntities, parseHighlight } from '../site/highlight.ts';
import { parseInline, parseMarkdown, type Block, type Inline } from '../site/markdown.ts';
import { createBrowserHandler, isApiRequest } from '../src/browser-api.ts';
import { FORMAT_VERSION } from '../src/paths.ts';

const ORIGIN = 'https://user.github.io';

describe('isApiRequest', () => {
  it.each([
    ['/api/v1/skills?sort=name', '/', true],
    ['/api/v1/skills/search?q=pdf', '/', true],
    ['/api/v1/skills/acme/pdf-kit', '/', true],
    ['/api/v1/skills/acme/pdf-kit/stats', '/', true],
    ['/api/v1/categories?locale=de', '/', true],
    ['/api/v1', '/', true],
    ['/api/v1/', '/', true],
    // A repo may end in .json: routed, so the handler answers it.
    ['/api/v1/skills/acme/notes.json', '/', true],
    // Unknown paths get the handler's 404 body, as from `npm start`.
    ['/api/v1/nothing/here', '/', true],
    // Static files of the tree go to the network (the handler's loader, static clients).
    ['/api/v1/manifest.json', '/', false],
    ['/api/v1/skills/acme/pdf-kit/index.json', '/', false],
    ['/api/v1/skills/_list/all/stars-desc/1.json', '/', false],
    ['/api/v1/skills/_search/r.0123abcd.json', '/', false],
    ['/api/v1/categories/index.de.json', '/', false],
    // Not the API.
    ['/', '/', false],
    ['/index.html', '/', false],
    ['/sw.js', '/', false],
    ['/api/v10/skills', '/', false],
    ['/api/v1x', '/', false],
    // Under a sub-path.
    ['/repo/api/v1/skills?page=2', '/repo/', true],
    ['/repo/api/v1/manifest.json', '/repo/', false],
    ['/api/v1/skills', '/repo/', false],
    ['/other/api/v1/skills', '/repo/', false],
  ])('%s under base %s → %s', (path, base, expected) => {
    expect(isApiRequest(new URL(path, ORIGIN), ORIGIN, base)).toBe(expected);
  });

  it('never answers another origin', () => {
    expect(isApiRequest(new URL('https://example.com/api/v1/skills'), ORIGIN, '/')).toBe(false);
    expect(isApiRequest(new URL('http://user.github.io/api/v1/skills'), ORIGIN, '/')).toBe(false);
  });
});

describe('createBrowserHandler', () => {
  it('answers under the path of the site URL and always revalidates the manifest, only the manifest', async () => {
    const files: Record<string, unknown> = {
      '/repo/api/v1/manifest.json': { format: FORMAT_VERSION, pageSize: 20, skillCount: 0, locales: ['en'], categories: [], platforms: [], lists: { all: 0 } },
      '/repo/api/v1/categories/index.json': { data: [] },
    };
    const calls: Array<[string, RequestCache | undefined]> = [];
    const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      calls.push([url.pathname, init?.cache]);
      const body = files[url.pathname];
      return body === undefined ? new Response('not found', { status: 404 }) : Response.json(body);
    }) as typeof fetch;
    const handle = createBrowserHandler(`${ORIGIN}/repo/`, fakeFetch);
    const response = await handle(new Request(`${ORIGIN}/repo/api/v1/categories`));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: [] });
    expect(calls).toEqual([
      ['/repo/api/v1/manifest.json', 'no-cache'],
      ['/repo/api/v1/categories/index.json', undefined],
    ]);
  });
});

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

describe('normalizeBase', () => {
  it.each([
    ['/', '/'],
    ['', '/'],
    ['repo', '/repo/'],
    ['/repo', '/repo/'],
    ['/repo/', '/repo/'],
    ['//a/b//', '/a/b/'],
  ])('%j → %j', (input, output) => {
    expect(normalizeBase(input)).toBe(output);
  });

  it.each(['/a b/', '/../', '/a/./b/', '/"/', '/<script>/', '/a?b/', '/a#b/', '/%2e%2e/'])('rejects %j', (input) => {
    expect(() => normalizeBase(input)).toThrow(/--base must be a URL path/);
  });
});

describe('headersFile', () => {
  it('sets CORS on the API, immutable on the hashed search files, a short cache elsewhere, under the base', () => {
    expect(headersFile('/repo/', ['app.js', 'index.html'])).toMatchInlineSnapshot(`
      "# Written by the build (build/site.ts) for Netlify and Cloudflare Pages; other hosts ignore it.

      /repo/api/v1/*
        Access-Control-Allow-Origin: *
        X-Content-Type-Options: nosniff

      /repo/api/v1/skills/_search/*
        Cache-Control: public, max-age=31536000, immutable

      /repo/api/v1/manifest.json
        Cache-Control: public, max-age=300

      /repo/api/v1/categories/*
        Cache-Control: public, max-age=300

      /repo/api/v1/skills/_list/*
        Cache-Control: public, max-age=300

      /repo/api/v1/skills/:owner/:repo/index.json
        Cache-Control: public, max-age=300

      /repo/api/v1/skills/:owner/:repo/content.json
        Cache-Control: public, max-age=300

      /repo/api/v1/skills/:owner/:repo/stats.json
        Cache-Control: public, max-age=300

      /repo/
        Cache-Control: public, max-age=300

      /repo/app.js
        Cache-Control: public, max-age=300

      /repo/index.html
        Cache-Control: public, max-age=300
      "
    `);
  });

  it('never lets two Cache-Control rules match one path (hosts would join them with a comma)', () => {
    // The rules as patterns: `:name` one segment, `*` anything (Netlify and Cloudflare semantics).
    const rules = headersFile('/', ['app.js', 'index.html', 'sw.js'])
      .split('\n\n')
      .filter((block) => block.includes('Cache-Control'))
      .map((block) => block.split('\n')[0]!)
      .map((path) => new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/:[a-z]+/g, '[^/]+').replace(/\*/g, '.*')}$`));
    const paths = [
      '/',
      '/index.html',
      '/app.js',
      '/sw.js',
      '/api/v1/manifest.json',
      '/api/v1/categories/index.json',
      '/api/v1/categories/devops/index.de.json',
      '/api/v1/skills/_list/all/stars-desc/1.json',
      '/api/v1/skills/_list/category/devops/name-asc/ordinals.json',
      '/api/v1/skills/acme/pdf-kit/index.json',
      '/api/v1/skills/acme/pdf-kit/content.json',
      '/api/v1/skills/acme/pdf-kit/stats.json',
      '/api/v1/skills/_search/r.0123abcd.json',
      '/api/v1/skills/_search/d.0123abcd.4.json',
    ];
    for (const path of paths) expect(rules.filter((rule) => rule.test(path)), path).toHaveLength(1);
  });
});
