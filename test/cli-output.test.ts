/**
 * The CLI's readable output: terminal text helpers (width, truncation, sanitizing, highlights),
 * the formatters of each answer, and the progress line.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCategories, formatCategory, formatSearch, formatSkill, formatSkillList } from '../src/node/cli-output.ts';
import { progress } from '../cli/progress.ts';
import { columns, displayWidth, oneLine, renderHighlight, sanitize, styleFor, truncate, type Style } from '../src/node/terminal-text.ts';
import type { CategoryDetail, SearchResponse, SkillDetail, SkillListResponse } from '../src/schemas.ts';
import { escapeHtml } from '../src/search/highlight.ts';

const PLAIN = styleFor({ isTTY: false }, {});
/** Emphasis made visible for snapshots. */
const MARKED: Style = { mark: (t) => `[${t}]`, strong: (t) => `*${t}*`, dim: (t) => `(${t})` };

describe('terminal text', () => {
  it.each([
    ['abc', 3],
    ['', 0],
    ['文章を磨く', 10],
    ['😀', 2],
    ['✍️', 2],
    ['e\u0301', 1],
    ['\x1b[1;7mPDF\x1b[22;27m', 3],
    ['데브옵스', 8],
  ])('displayWidth(%j) = %i', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it.each([
    ['PDF Toolkit', 20, 'PDF Toolkit'],
    ['PDF Toolkit', 11, 'PDF Toolkit'],
    ['PDF Toolkit', 10, 'PDF Toolk…'],
    ['文章を磨く', 5, '文章…'],
    ['\x1b[1mPDF Toolkit\x1b[22m', 5, '\x1b[1mPDF \x1b[0m…'],
  ])('truncate(%j, %i) = %j', (text, max, cut) => {
    expect(truncate(text, max)).toBe(cut);
  });

  it('truncate never exceeds the width (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer({ min: 1, max: 30 }), (text, max) => {
        expect(displayWidth(truncate(text, max))).toBeLessThanOrEqual(max);
      }),
    );
  });

  it('sanitize removes escape sequences, C1 controls and bidi overrides, keeps newlines, tabs and text', () => {
    expect(sanitize('a\x1b[2Jb\x9bc\u202Ed\u2066e\u0007f\r\n\tg 😀 文')).toBe('a[2Jbcdef\n\tg 😀 文');
    expect(oneLine('  two\n lines\t here ')).toBe('two lines here');
  });

  it.each([
    ['<mark>PDF</mark> Toolkit', '[PDF] Toolkit'],
    ['Extract <mark>PDF</mark> and <mark>pdf</mark>s', 'Extract [PDF] and [pdf]s'],
    ['a &amp; b &lt;c&gt; &quot;q&quot; &#39;s&#39; &#x1F600; &#xD800; &bogus;', 'a & b <c> "q" \'s\' 😀 &#xD800; &bogus;'],
    ['&lt;mark onmouseover=x&gt;hi&lt;/mark&gt;', '<mark onmouseover=x>hi</mark>'],
    ['&lt;img src=x onerror=alert(1)&gt; <mark>tag</mark>', '<img src=x onerror=alert(1)> [tag]'],
    ['x\x1b[2Jy <mark>\u202Ez</mark>', 'x[2Jy [z]'],
    ['two\nlines <mark>here</mark>', 'two lines [here]'],
  ])('renderHighlight(%j)', (html, text) => {
    expect(renderHighlight(html, MARKED)).toBe(text);
  });

  it('renderHighlight of escaped text without marks gives the text back on one line (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        expect(renderHighlight(escapeHtml(text), PLAIN)).toBe(oneLine(text));
      }),
    );
  });

  it('columns align wide text', () => {
    expect(columns([['文章', 'x', '1'], ['ab', 'yy', '100']], ['left', 'left', 'right'])).toEqual(['文章  x     1', 'ab    yy  100']);
  });

  it.each<[boolean, Record<string, string>, boolean]>([
    [true, {}, true],
    [false, {}, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true],
    [false, { FORCE_COLOR: '1' }, true],
    [true, { FORCE_COLOR: '0' }, true],
    [false, { FORCE_COLOR: '0' }, false],
  ])('styleFor(isTTY %s, env %j) emphasizes: %s', (isTTY, env, ansi) => {
    expect(styleFor({ isTTY }, env).mark('x') !== 'x').toBe(ansi);
  });
});

const SEARCH: SearchResponse = {
  data: [
    { id: 'acme/pdf-toolkit', owner: 'acme', repo: 'pdf-toolkit', name: 'PDF Toolkit', description: 'Extract text & tables from PDF files.', stars: 1234, score: 9.5, highlights: { name: '<mark>PDF</mark> Toolkit', description: 'Extract text &amp; tables from <mark>PDF</mark> files.' } },
    { id: 'zed/pdf-summarizer', owner: 'zed', repo: 'pdf-summarizer', name: 'PDF Summarizer', description: 'Summarize long reports.', stars: 800, score: 3 },
  ],
  pagination: { page: 1, limit: 20, total: 2, totalPages: 1 },
  meta: { query: 'pdf', took: 1.2 },
};

const LIST: SkillListResponse = {
  data: [
    { id: 'acme/pdf-toolkit', owner: 'acme', repo: 'pdf-toolkit', name: 'PDF Toolkit', description: 'd', stars: 1234, forks: 1, updatedAt: '2025-06-01T08:30:00.000Z', categories: ['development'], platforms: ['codex'] },
    { id: 'zed/prose-polisher', owner: 'zed', repo: 'prose-polisher', name: 'Prose \x1b[31mPolisher', description: 'd', stars: 80, forks: 1, updatedAt: '2025-03-10T12:00:00.000Z', categories: ['writing', 'development'], platforms: ['codex'] },
  ],
  pagination: { page: 2, limit: 2, total: 5, totalPages: 3 },
};

const DETAIL: SkillDetail = {
  ...LIST.data[0]!,
  description: 'Extract text and tables from PDF files.\nSecond line.',
  content: '# PDF Toolkit',
  watchers: 7,
  openIssues: 1,
  license: 'MIT',
  createdAt: '2024-03-01T10:00:00.000Z',
  pushedAt: '2025-06-01T08:30:00.000Z',
  author: { name: 'acme', avatar: 'https://avatars.example.com/acme.png' },
  installCommands: { 'claude-code': '/plugin install acme/pdf-toolkit', codex: 'codex skills add acme/pdf-toolkit' },
};

const CATEGORY: CategoryDetail = {
  slug: 'development',
  name: 'Development',
  description: 'Writing code.',
  icon: 'code',
  skillCount: 3,
  subcategories: [{ slug: 'code-review', name: 'Code Review', skillCount: 1 }],
  topSkills: [{ owner: 'acme', repo: 'pdf-toolkit', name: 'PDF Toolkit', stars: 1234 }, { owner: 'zed', repo: 'pdf-summarizer', name: 'PDF Summarizer', stars: 800 }],
};

describe('formatters', () => {
  it('search results: rank, name, id, stars, description below, matches emphasized', () => {
    expect(formatSearch(SEARCH, { style: MARKED })).toMatchInlineSnapshot(`
      "*2 skills for pdf*( · page 1 of 1)

      1.  [PDF] Toolkit     (acme/pdf-toolkit)    ★ 1,234
          Extract text & tables from [PDF] files.
      2.  *PDF Summarizer*  (zed/pdf-summarizer)    ★ 800
          Summarize long reports.
      "
    `);
    expect(formatSearch({ ...SEARCH, data: [], pagination: { ...SEARCH.pagination, total: 0, totalPages: 0 } }, { style: PLAIN })).toMatchInlineSnapshot(`
      "0 skills for pdf · page 1 of 0
      No skill matches.
      "
    `);
  });

  it('search lines are cut to the terminal width', () => {
    const lines = formatSearch(SEARCH, { style: PLAIN, width: 30 }).split('\n');
    expect(lines[3]).toBe('    Extract text & tables fro…');
  });

  it('a list page as a table, control characters removed', () => {
    expect(formatSkillList(LIST, { style: PLAIN })).toMatchInlineSnapshot(`
      "NAME                ID                  STARS  UPDATED     CATEGORIES
      PDF Toolkit         acme/pdf-toolkit    1,234  2025-06-01  development
      Prose [31mPolisher  zed/prose-polisher     80  2025-03-10  writing, development
      page 2 of 3 · 5 skills
      "
    `);
  });

  it('one skill with its facts, install commands and stats', () => {
    expect(formatSkill(DETAIL, { style: PLAIN }, { views: 5400, installs: 820, favorites: 96, starHistory: [{ date: '2025-01-01', stars: 900 }] })).toMatchInlineSnapshot(`
      "PDF Toolkit
      acme/pdf-toolkit

      Extract text and tables from PDF files.
      Second line.

      Stars         1,234
      Forks         1
      Watchers      7
      Open issues   1
      License       MIT
      Author        acme
      Categories    development
      Platforms     codex
      Created       2024-03-01
      Updated       2025-06-01
      Pushed        2025-06-01
      Views         5,400
      Installs      820
      Favorites     96
      Star history  2025-01-01 900

      Install
        claude-code  /plugin install acme/pdf-toolkit
        codex        codex skills add acme/pdf-toolkit
      "
    `);
  });

  it('categories and one category', () => {
    expect(formatCategories([CATEGORY], { style: PLAIN })).toMatchInlineSnapshot(`
      "SLUG         NAME         SKILLS  SUBCATEGORIES
      development  Development       3  code-review (1)
      "
    `);
    expect(formatCategory(CATEGORY, { style: PLAIN })).toMatchInlineSnapshot(`
      "Development (development) · 3 skills
      Writing code.

      Subcategories
        code-review  Code Review  1

      Top skills
        1.  PDF Toolkit     acme/pdf-toolkit    ★ 1,234
        2.  PDF Summarizer  zed/pdf-summarizer    ★ 800
      "
    `);
  });
});

describe('progress', () => {
  it('prints nothing when the stream is not a terminal', () => {
    const written: string[] = [];
    const line = progress({ isTTY: false, write: (t: string) => written.push(t) }, 'Bundling');
    line.update(1, 2);
    line.stop();
    expect(written).toEqual([]);
  });

  it('draws a bar on a terminal and erases it when stopped', () => {
    const written: string[] = [];
    let now = 0;
    const line = progress({ isTTY: true, columns: 120, write: (t: string) => written.push(t) }, 'Bundling', () => now);
    now = 1500;
    line.update(1, 2);
    line.stop();
    expect(written[0]).toBe('\r\x1b[2KBundling ⠙ 0.0 s');
    expect(written[1]).toBe(`\r\x1b[2KBundling [${'█'.repeat(15)}${'░'.repeat(15)}] 50% 1/2 · 1.5 s`);
    expect(written.at(-1)).toBe('\r\x1b[2K');
  });
});
