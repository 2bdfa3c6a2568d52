/**
 * Pure helpers of the search benchmark (scripts/bench-*.ts): the fixed queries are valid in our
 * syntax and within the limits, their translations for Pagefind and MiniSearch, the HTML pages
 * Pagefind indexes, and the percentile used in every figure. (The benchmark itself is a script:
 * no timing is asserted here.)
 */
import { describe, expect, it } from 'vitest';
import { layersOf, roundTripsInRow, timelineOf, withTimeline } from '../scripts/bench-browser.ts';
import { percentile } from '../scripts/bench-engine.ts';
import { markdownToHtml } from '../scripts/bench-pagefind.ts';
import { ADVERSARIAL, QUERIES, toMiniSearch, toPagefind } from '../scripts/bench-queries.ts';
import { parseQuery } from '../src/search/query.ts';

describe('benchmark queries', () => {
  it('are valid queries of our syntax, at least 20, covering every form', () => {
    expect(QUERIES.length).toBeGreaterThanOrEqual(20);
    for (const { q } of QUERIES) expect(() => parseQuery(q), q).not.toThrow();
    const forms = new Set(QUERIES.map((q) => q.form));
    for (const form of ['term', 'terms', 'phrase', 'field:term', 'field:"phrase"', '-term', 'prefix*', 'typo', 'mixed']) {
      expect(forms.has(form), form).toBe(true);
    }
  });

  it('hostile queries fit in 200 characters, except the one that must be rejected for length', () => {
    const long = ADVERSARIAL.filter((q) => q.q.length > 200).map((q) => q.form);
    expect(long).toEqual(['500 terms (over 200 chars: rejected)']);
    expect(ADVERSARIAL.find((q) => q.form === '100 one-letter terms')!.q.split(' ')).toHaveLength(100);
  });
});

describe('toPagefind', () => {
  it.each([
    ['docker', 'docker'],
    ['terraform plan', 'terraform plan'],
    ['"pull request"', '"pull request"'],
    ['name:docker', 'docker'],
    ['name:"code review"', '"code review"'],
    ['docker -kubernetes', 'docker'],
    ['kube*', 'kube'],
    ['name:docker -kubernetes "compose file"', 'docker "compose file"'],
    ['-only', ''],
  ])('%s → %s', (q, expected) => {
    expect(toPagefind(q)).toBe(expected);
  });
});

describe('toMiniSearch', () => {
  it('builds an AND tree with fields, prefixes and AND_NOT, without stop words', () => {
    expect(toMiniSearch('the name:docker kube* -"compose file"')).toMatchInlineSnapshot(`
      {
        "combineWith": "AND_NOT",
        "queries": [
          {
            "combineWith": "AND",
            "queries": [
              {
                "combineWith": "AND",
                "fields": [
                  "name",
                ],
                "fuzzy": 0.2,
                "prefix": true,
                "queries": [
                  "docker",
                ],
              },
              {
                "combineWith": "AND",
                "fuzzy": false,
                "prefix": true,
                "queries": [
                  "kube",
                ],
              },
            ],
          },
          {
            "combineWith": "AND",
            "fuzzy": false,
            "prefix": false,
            "queries": [
              "compose",
              "file",
            ],
          },
        ],
      }
    `);
  });
});

describe('markdownToHtml', () => {
  it('escapes text and keeps the block structure', () => {
    expect(markdownToHtml('# Title\n\nSome <b>text</b> &\nmore.\n\n- item one\n1. step\n\n```sh\necho "<x>"\n```\n')).toBe(
      [
        '<h2>Title</h2>',
        '<p>Some &#60;b&#62;text&#60;/b&#62; &#38; more.</p>',
        '<li>item one</li>',
        '<li>step</li>',
        '<pre><code>echo &#34;&#60;x&#62;&#34;</code></pre>',
      ].join('\n'),
    );
  });
});

describe('roundTripsInRow', () => {
  it('counts the longest chain of requests each sent after the previous response', () => {
    // manifest, then two chunks at once, then a file sent after the chunks came back.
    const log = [
      { start: 0, end: 50 },
      { start: 60, end: 110 },
      { start: 61, end: 112 },
      { start: 120, end: 170 },
    ];
    expect(roundTripsInRow(log)).toBe(3);
    expect(roundTripsInRow(log.slice(1, 3))).toBe(1);
    expect(roundTripsInRow([])).toBe(0);
  });

  it('layersOf lists the files of each link of that chain, in order, without the skipped ones', () => {
    const log = [
      { path: '/c2', start: 61, end: 112 },
      { path: '/sw.js', start: 0, end: 50 },
      { path: '/d1', start: 120, end: 170 },
      { path: '/c1', start: 60, end: 110 },
      { path: '/m', start: 62, end: 111 },
    ];
    expect(layersOf(log, new Set(['/sw.js']))).toEqual([['/c1', '/c2', '/m'], ['/d1']]);
    expect(layersOf(log, new Set())).toEqual([['/sw.js'], ['/c1', '/c2', '/m'], ['/d1']]);
  });
});

describe('the worker timeline', () => {
  it('reads the steps of a run from its marks: index files back after the request, summary shards asked and back', () => {
    const marks: Array<[string, number]> = [
      ['start', 20], ['ask m', 21], ['ran', 30], ['install', 35], ['activate', 38], ['back m', 70],
      ['fetch', 50], ['ask t', 52], ['ask p', 53], ['back t', 110], ['back p', 115],
      ['ask d', 127], ['ask d', 130], ['back d', 190], ['back d', 201], ['answer', 206],
    ];
    expect(timelineOf(marks)).toEqual({ compiled: 20, ran: 30, activated: 38, request: 50, firstAsked: 52, indexBack: 115, summariesAsked: 127, summariesBack: 201, answered: 206 });
    // A worker that never answered has no answer mark, and the rest stands.
    expect(timelineOf(marks.filter(([n]) => n !== 'answer'))?.answered).toBeUndefined();
    // A run that asked for no summary (no result) has no timeline.
    expect(timelineOf(marks.filter(([n]) => !n.endsWith(' d')))).toBeUndefined();
  });

  it('keeps the script whole and strict: the marks go after its "use strict"', () => {
    const wrapped = withTimeline('"use strict";self.x=1;');
    expect(wrapped.startsWith('"use strict";self.__benchMarks=')).toBe(true);
    expect(wrapped).toContain('\nself.x=1;\n');
    expect(() => new Function(wrapped)).not.toThrow();
  });
});

describe('percentile', () => {
  it.each([
    [[], 0.5, NaN],
    [[7], 0.95, 7],
    [[3, 1, 2], 0.5, 2],
    [[1, 2, 3, 4], 0.5, 2],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95, 10],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9, 9],
  ])('%j at %d → %d', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });
});
