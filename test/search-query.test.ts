/**
 * The query parser (docs/decisions.md §5): every syntax form, every error code and its message, and that
 * no string of up to 400 characters makes it throw anything but a coded ApiError.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/errors.ts';
import { readFileSync } from 'node:fs';
import { REQUEST_WORDS } from '../src/search/options.ts';
import { parseQuery } from '../src/search/query.ts';
import { wellFormed } from './helpers/search-helpers.ts';

function error(q: string | undefined): { code: string; message: string } {
  try {
    parseQuery(q);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    expect(e.details).toEqual({ params: [{ param: 'q', message: e.message }] });
    return { code: e.code, message: e.message };
  }
  throw new Error(`no error for ${JSON.stringify(q)}`);
}

describe('parseQuery: forms', () => {
  it.each([
    ['docker', 'docker'],
    ['Docker  COMPOSE', 'docker compose'],
    ['"compose file"', '"compose file"'],
    ['name:docker', 'name:docker'],
    ['NAME:Docker', 'name:docker'],
    ['description:"compose file"', 'description:"compose file"'],
    ['content:volumes', 'content:volumes'],
    ['-kubernetes docker', '-kubernetes docker'],
    ['-"helm chart" docker', '-"helm chart" docker'],
    ['-name:draft docker', '-name:draft docker'],
    ['kub*', 'kub*'],
    ['name:kub*', 'name:kub*'],
    ['the*', 'the*'],
    ['"docker"', '"docker"'],
    ['name:docker -kubernetes "compose file"', 'name:docker -kubernetes "compose file"'],
    ['the docker of a compose', 'docker compose'],
    ['"the compose of file"', '"compose file"'],
    ['docker docker DOCKER', 'docker'],
    ['docker-compose', '"docker compose"'],
    ['node.js', '"node js"'],
    ['Café Straße İstanbul', 'cafe strasse istanbul'],
    ['ﬁle １２', 'file 12'],
    ['e\u0301cole', 'ecole'],
    ['"a"b"c d"', 'b "c d"'],
    ['docker "the" compose', 'docker compose'],
    ['__proto__', 'proto'],
    ['constructor', 'constructor'],
    ['12:30', '"12 30"'],
    ['(a+)+$ docker', 'docker'],
  ])('%s → %s', (q, normalized) => {
    expect(parseQuery(q).normalized).toBe(normalized);
  });

  it('clauses carry kind, field, negation and mode', () => {
    expect(parseQuery('name:docker -kubernetes "compose file" kub* "helm"').clauses).toEqual([
      { kind: 'word', negated: false, field: 'name', term: 'docker', mode: 'plain' },
      { kind: 'word', negated: true, field: null, term: 'kubernetes', mode: 'plain' },
      { kind: 'phrase', negated: false, field: null, terms: ['compose', 'file'] },
      { kind: 'word', negated: false, field: null, term: 'kub', mode: 'prefix' },
      { kind: 'word', negated: false, field: null, term: 'helm', mode: 'exact' },
    ]);
  });

  it('request words leave bare single words, stay quoted, in a field or in a phrase; alone they are a query of stop words', () => {
    expect(parseQuery('How do I merge several PDF files into one, please?').normalized).toBe('merge pdf files');
    expect(parseQuery('I need help using docker').normalized).toBe('docker');
    expect(parseQuery('"help" docker').normalized).toBe('"help" docker');
    expect(parseQuery('name:help docker').normalized).toBe('name:help docker');
    expect(parseQuery('using-git docker').normalized).toBe('"using git" docker');
    expect(() => parseQuery('help')).toThrow(expect.objectContaining({ code: 'INVALID_QUERY', message: expect.stringMatching(/^q has no searchable words: stop words \(words that only phrase a request/) }));
    expect(() => parseQuery('how do I')).toThrow(expect.objectContaining({ code: 'INVALID_QUERY' }));
    expect(() => parseQuery('please help me')).toThrow(expect.objectContaining({ code: 'INVALID_QUERY' }));
    expect(() => parseQuery('help -docker')).toThrow(expect.objectContaining({ code: 'INVALID_QUERY', message: 'q only excludes: add at least one word to search for' }));
    expect(parseQuery('"help"').normalized).toBe('"help"');
  });

  it('docs/api.md lists exactly the request words of the code', () => {
    const docs = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
    const listed = /plain words: `([^`]+)`/.exec(docs)?.[1]?.split(/\s+/);
    expect(listed).toEqual([...REQUEST_WORDS]);
  });
});

describe('parseQuery: errors', () => {
  it.each([
    [undefined, 'INVALID_QUERY'],
    ['', 'INVALID_QUERY'],
    ['   ', 'INVALID_QUERY'],
    ['a', 'INVALID_QUERY'],
    ['é', 'INVALID_QUERY'],
    ['🎉', 'INVALID_QUERY'],
    ['*', 'INVALID_QUERY'],
    ['**', 'INVALID_QUERY'],
    [' * * ', 'INVALID_QUERY'],
    ['-', 'INVALID_QUERY'],
    ['"', 'INVALID_QUERY'],
    ['\u0000', 'INVALID_QUERY'],
    ['\uD800', 'INVALID_QUERY'],
    ['the of and', 'INVALID_QUERY'],
    ['(', 'INVALID_QUERY'],
    ['[', 'INVALID_QUERY'],
    ['\\', 'INVALID_QUERY'],
    ['(a+)+$', 'INVALID_QUERY'],
    ['🎉🎉 !!', 'INVALID_QUERY'],
    ['-docker', 'INVALID_QUERY'],
    ['-docker -"compose file"', 'INVALID_QUERY'],
    ['--x', 'INVALID_QUERY'],
    ['d*', 'INVALID_QUERY'],
    ['x'.repeat(201), 'QUERY_TOO_LONG'],
    ['🎉'.repeat(201), 'QUERY_TOO_LONG'],
    ['"unbalanced', 'INVALID_SYNTAX'],
    ['docker "compose file', 'INVALID_SYNTAX'],
    ['name:', 'INVALID_SYNTAX'],
    ['docker name: compose', 'INVALID_SYNTAX'],
    ['foo:bar', 'INVALID_SYNTAX'],
    ['docker - compose', 'INVALID_SYNTAX'],
    ['a*b', 'INVALID_SYNTAX'],
    ['docker **', 'INVALID_SYNTAX'],
    ['docker *', 'INVALID_SYNTAX'],
    ['"compose file"*', 'INVALID_SYNTAX'],
    ['docker-comp*', 'INVALID_SYNTAX'],
  ])('%j → %s', (q, code) => {
    expect(error(q).code).toBe(code);
  });

  it('200 characters is fine, code points not UTF-16 units count', () => {
    const long = `${Array.from({ length: 25 }, (_, i) => `word${String(i).padStart(3, '0')}`).join(' ')}x`;
    expect(long).toHaveLength(200);
    expect(parseQuery(long).clauses).toHaveLength(25);
    expect(parseQuery(`${'🎉'.repeat(150)} docker`).normalized).toBe('docker');
  });

  it('a word over 40 characters is ignored like a stop word', () => {
    expect(parseQuery(`docker ${'x'.repeat(41)}`).normalized).toBe('docker');
    expect(parseQuery(`docker ${'x'.repeat(40)}`).normalized).toBe(`docker ${'x'.repeat(40)}`);
    expect(error('x'.repeat(200)).code).toBe('INVALID_QUERY');
  });

  it('a query that is one character once interpreted is too short', () => {
    expect(error('x!').code).toBe('INVALID_QUERY');
    expect(error('x "the"').code).toBe('INVALID_QUERY');
  });

  it('more than 32 words is INVALID_QUERY', () => {
    const words = Array.from({ length: 33 }, (_, i) => `w${i}`);
    expect(error(words.join(' ')).code).toBe('INVALID_QUERY');
    expect(parseQuery(words.slice(0, 32).join(' ')).clauses).toHaveLength(32);
  });

  it('messages name the problem', () => {
    expect(error(undefined).message).toMatchInlineSnapshot(`"q is required: give a search query"`);
    expect(error('  ').message).toMatchInlineSnapshot(`"q is empty: give a search query"`);
    expect(error('*').message).toMatchInlineSnapshot(`"q "*" is too broad: give at least one word"`);
    expect(error('a').message).toMatchInlineSnapshot(`"q "a" is too short: give at least 2 characters"`);
    // Two characters, one of them searchable.
    expect(error('C++').message).toMatchInlineSnapshot(`"q "C++" holds one searchable character ("c"): give at least 2 letters or digits"`);
    expect(error('the of').message).toMatchInlineSnapshot(`"q has no searchable words: stop words (words that only phrase a request, such as how, need, help, included), punctuation, symbols and words over 40 characters are ignored; quote a word to search for it ("help")"`);
    expect(error('-docker').message).toMatchInlineSnapshot(`"q only excludes: add at least one word to search for"`);
    expect(error('d*').message).toMatchInlineSnapshot(`"prefix "d*" is too short: give at least 2 characters before *"`);
    expect(error('x'.repeat(201)).message).toMatchInlineSnapshot(`"q is 201 characters long; the limit is 200"`);
    expect(error('docker "compose file').message).toMatchInlineSnapshot(`"unbalanced quote in "\\"compose file": close the phrase with ""`);
    expect(error('name:').message).toMatchInlineSnapshot(`""name:" has nothing after the colon: write name:word or name:"a phrase""`);
    expect(error('foo:bar').message).toMatchInlineSnapshot(`"unknown field "foo" in "foo:bar": use name, description, content, or put it in quotes to search for its words"`);
    expect(error('docker - x').message).toMatchInlineSnapshot(`""-" has nothing after it: write -word or -"a phrase""`);
    expect(error('a*b').message).toMatchInlineSnapshot(`""a*b": * may only end a word"`);
    expect(error('"a b"*').message).toMatchInlineSnapshot(`""\\"a b\\"*": * may only end a word, not a phrase"`);
    expect(error('docker-comp*').message).toMatchInlineSnapshot(`""docker-comp*": * may only end a single word"`);
    expect(error('docker *').message).toMatchInlineSnapshot(`""*": * may only end a single word (nothing before it)"`);
  });
});

describe('parseQuery: properties', () => {
  const alphabet = fc.constantFrom(...'ab -*":name:description:content:fooé🎉\u0000\uD800\uDC00İß\t\n()[]\\.'.split(''), 'name:', 'the ', 'docker');
  const hostile = fc.oneof(
    fc.string({ maxLength: 400 }),
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 400 }),
    fc.array(alphabet, { maxLength: 120 }).map((parts) => parts.join('')),
  );

  it('never throws anything but a coded ApiError, for any string up to 400 characters', () => {
    fc.assert(
      fc.property(hostile, (q) => {
        try {
          const parsed = parseQuery(q);
          expect(parsed.clauses.length).toBeGreaterThan(0);
          expect(parsed.clauses.some((c) => !c.negated)).toBe(true);
        } catch (e) {
          expect(e).toBeInstanceOf(ApiError);
          expect(['INVALID_QUERY', 'QUERY_TOO_LONG', 'INVALID_SYNTAX']).toContain((e as ApiError).code);
          expect((e as ApiError).status).toBe(400);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('the normalized query parses to itself (meta.query is a valid query with the same meaning)', () => {
    fc.assert(
      fc.property(hostile, (q) => {
        let parsed;
        try {
          parsed = parseQuery(q);
        } catch {
          return;
        }
        const again = parseQuery(parsed.normalized);
        expect(again.normalized).toBe(parsed.normalized);
        expect(again.clauses).toEqual(parsed.clauses);
        // No lone surrogate ever reaches the output.
        expect(wellFormed(parsed.normalized)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
