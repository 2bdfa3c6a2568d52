/**
 * Text processing shared by build and runtime (tokenizer, folding, stop words, typo rule), the
 * index encodings, and highlights: escaping of hostile text, exact offsets with any Unicode
 * (docs/decisions.md H25–H27).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PositionTable, PositionsWriter, PostingsWriter, decodePositions, decodePostings, decodeVarints, encodePositions, encodePostings, encodeVarints, countVarints } from '../src/search/codec.ts';
import { escapeHtml, highlightDescription, highlightText, type MatchedWords } from '../src/search/highlight.ts';
import { fold, isOneEdit, isTypoOf, processTerm, terms, tokenize, words } from '../src/search/options.ts';
import { unmark, wellFormed } from './helpers/search-helpers.ts';

const only = (...words: string[]): MatchedWords => ({ terms: new Set(words), phrases: [] });

describe('options', () => {
  it('words() and tokenize() find the runs of letters, digits and marks, ASCII text or not', () => {
    // The reference pattern, independent of the ASCII fast path in options.ts.
    const unicode = /[\p{L}\p{N}\p{M}]+/gu;
    const text = fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 }));
    fc.assert(
      fc.property(text, (t) => {
        const expected = [...t.matchAll(unicode)].map((m) => [m[0], m.index]);
        expect(words(t)).toEqual(expected.map(([w]) => w));
        expect(tokenize(t).map((token) => [token.text, token.start])).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['Docker', 'docker'],
    ['CAFÉ', 'cafe'],
    ['e\u0301cole', 'ecole'],
    ['İstanbul', 'istanbul'],
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['ﬁle', 'file'],
    ['１２３', '123'],
    ['Ωmega', 'ωmega'],
    ['東京', '東京'],
    ['⒈', '1'],
  ])('fold(%s) = %s', (word, folded) => {
    expect(fold(word)).toBe(folded);
  });

  it.each([
    ['the', null],
    ['The', null],
    ['docker', 'docker'],
    ['x'.repeat(40), 'x'.repeat(40)],
    ['x'.repeat(41), null],
    ['\u0301', null],
  ])('processTerm(%s) = %s', (word, term) => {
    expect(processTerm(word)).toBe(term);
  });

  it('tokenize keeps offsets into the original text', () => {
    const text = 'İ ß 🎉 e\u0301cole, <b>docker-compose</b>';
    const tokens = tokenize(text);
    expect(tokens.map((t) => t.text)).toEqual(['İ', 'ß', 'e\u0301cole', 'b', 'docker', 'compose', 'b']);
    for (const t of tokens) expect(text.slice(t.start, t.end)).toBe(t.text);
    expect(terms('The Docker of a compose FILE')).toEqual(['docker', 'compose', 'file']);
  });

  it.each([
    ['docker', 'dockr', true],
    ['docker', 'dockers', true],
    ['docker', 'dacker', true],
    ['docker', 'docker', false],
    ['docker', 'dkocer', false],
    ['docker', 'do', false],
  ])('isOneEdit(%s, %s) = %s', (a, b, expected) => {
    expect(isOneEdit(a, b)).toBe(expected);
  });

  it('a typo needs 5 characters and the same first 3', () => {
    expect(isTypoOf('kubernets', 'kubernetes')).toBe(true);
    expect(isTypoOf('dockr', 'docker')).toBe(true);
    expect(isTypoOf('dokr', 'dokar')).toBe(false);
    expect(isTypoOf('xubernetes', 'kubernetes')).toBe(false);
    expect(isTypoOf('kbernetes', 'kubernetes')).toBe(false);
  });

  it('isOneEdit agrees with the optimal string alignment (Damerau) distance', () => {
    const osa = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          const cost = a[i - 1] === b[j - 1] ? 0 : 1;
          d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
        }
      }
      return d[a.length]![b.length]!;
    };
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 7 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(isOneEdit(a, b)).toBe(osa(a, b) === 1);
      }),
      { numRuns: 2000 },
    );
    expect(isTypoOf('kuberentes', 'kubernetes')).toBe(true);
  });
});

describe('codec', () => {
  it('varints round-trip', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: Number.MAX_SAFE_INTEGER })), (values) => {
        const encoded = encodeVarints(values);
        expect(decodeVarints(encoded)).toEqual(values);
        expect(countVarints(encoded)).toBe(values.length);
        expect(JSON.parse(JSON.stringify(encoded))).toBe(encoded);
        expect(encoded).toMatch(/^[0-9a-zA-Z_-]*$/);
      }),
    );
    expect(encodeVarints([0, 31, 32, 1023, 1024])).toBe('0vx0_vxw0');
  });

  it('rejects bad text and bad numbers', () => {
    expect(() => decodeVarints('x')).toThrow(/truncated/);
    expect(() => decodeVarints('0"')).toThrow(/bad character/);
    expect(() => decodePostings('x')).toThrow(/truncated/);
    expect(() => decodePostings('0"')).toThrow(/bad character at 1/);
    expect(() => decodePostings(encodePostings([3, 9], [1, 2]) + '\u00e9')).toThrow(/bad character/);
    expect(() => encodeVarints([-1])).toThrow(RangeError);
    expect(() => encodeVarints([1.5])).toThrow(RangeError);
    expect(() => encodePostings([2, 1], [1, 1])).toThrow(RangeError);
    expect(() => encodePostings([1], [8])).toThrow(RangeError);
  });

  it('the streaming writers the build uses start each term afresh after take()', () => {
    // One writer streams every term of a build: a term's first gap counts from -1 again.
    const postings = new PostingsWriter();
    postings.push(3, 1);
    postings.push(7, 9);
    expect(postings.take()).toBe(encodePostings([3, 7], [1, 9]));
    postings.push(0, 4);
    expect(decodePostings(postings.take())).toEqual({ docs: Int32Array.from([0]), masks: Uint8Array.from([4]) });
    const positions = new PositionsWriter();
    positions.field(Int32Array.from([9, 2, 5, 11]), 1, 4);
    expect(positions.size).toBeGreaterThan(0);
    expect(positions.take()).toBe(encodePositions([[[2, 5, 11]]]));
    expect(positions.size).toBe(0);
  });

  const postingsArb = fc
    .uniqueArray(fc.nat({ max: 5000 }), { maxLength: 60 })
    .map((docs) => docs.sort((a, b) => a - b))
    .chain((docs) => fc.tuple(fc.constant(docs), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: docs.length, maxLength: docs.length })));

  it('postings round-trip', () => {
    fc.assert(
      fc.property(postingsArb, ([docs, masks]) => {
        const decoded = decodePostings(encodePostings(docs, masks));
        expect([...decoded.docs]).toEqual(docs);
        expect([...decoded.masks]).toEqual(masks);
      }),
    );
  });

  it('positions round-trip for any subset of documents and any stream of fields', () => {
    const arb = postingsArb.chain(([docs, masks]) =>
      fc.tuple(
        fc.constant(masks),
        // Per document, per field bit 1, 2, 4: its positions (used when the mask has the bit).
        fc.tuple(...masks.map(() => fc.tuple(...[0, 1, 2].map(() => fc.uniqueArray(fc.nat({ max: 3000 }), { minLength: 1, maxLength: 5 }).map((p) => p.sort((a, b) => a - b)))))),
        fc.subarray(docs.map((_, i) => i)),
        fc.constantFrom(3, 4, 7),
      ),
    );
    fc.assert(
      fc.property(arb, ([masks, positions, wanted, fields]) => {
        // Stored: the fields of the stream only; expected back: those, every other slot empty.
        const expected = masks.map((mask, i) => [0, 1, 2].map((f) => (mask & fields & (1 << f) ? positions[i]![f]! : [])));
        const encoded = encodePositions(expected.map((slots, i) => slots.filter((_, f) => masks[i]! & fields & (1 << f))));
        // Rows after a first row of 2, as when a term's positions come in several pieces.
        const table = new PositionTable(wanted.length + 2);
        decodePositions(encoded, Uint8Array.from(masks), fields, wanted, table, 2);
        wanted.forEach((i, k) => {
          const got = [0, 1, 2].map((f) => [...table.values.subarray(table.start[(k + 2) * 3 + f]!, table.start[(k + 2) * 3 + f + 1]!)]);
          expect(got).toEqual(expected[i]);
        });
        // Text that ends before the last wanted document is an error, not empty positions.
        if (wanted.length > 0 && masks.slice(0, wanted[wanted.length - 1]! + 1).some((m) => m & fields)) {
          expect(() => decodePositions('', Uint8Array.from(masks), fields, wanted, new PositionTable(wanted.length), 0)).toThrow();
        }
      }),
    );
  });
});

describe('highlights', () => {
  it('escapes &, <, >, quotes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it.each([
    ['<img src=x onerror=alert(1)> docker', only('docker'), '&lt;img src=x onerror=alert(1)&gt; <mark>docker</mark>'],
    ['</script><script>alert(1)</script> docker', only('docker', 'script'), '&lt;/<mark>script</mark>&gt;&lt;<mark>script</mark>&gt;alert(1)&lt;/<mark>script</mark>&gt; <mark>docker</mark>'],
    ['<mark onmouseover="x()">docker</mark>', only('docker', 'mark'), '&lt;<mark>mark</mark> onmouseover=&quot;x()&quot;&gt;<mark>docker</mark>&lt;/<mark>mark</mark>&gt;'],
    ['Tom &amp; Jerry & docker', only('amp'), 'Tom &amp;<mark>amp</mark>; Jerry &amp; docker'],
    ['a < b && c > "quot"', only('quot', 'lt'), 'a &lt; b &amp;&amp; c &gt; &quot;<mark>quot</mark>&quot;'],
    ['İstanbul STRASSE Straße', only('istanbul', 'strasse'), '<mark>İstanbul</mark> <mark>STRASSE</mark> <mark>Straße</mark>'],
    ['🎉docker🎉 e\u0301cole', only('docker', 'ecole'), '🎉<mark>docker</mark>🎉 <mark>e\u0301cole</mark>'],
    ['the docker of the compose file', { terms: new Set<string>(), phrases: [['compose', 'file']] }, 'the docker of the <mark>compose</mark> <mark>file</mark>'],
    ['compose, then file; compose the file', { terms: new Set<string>(), phrases: [['compose', 'file']] }, '<mark>compose</mark>, then <mark>file</mark>; <mark>compose</mark> the <mark>file</mark>'],
    ['file compose', { terms: new Set<string>(), phrases: [['compose', 'file']] }, undefined],
    ['nothing here', only('docker'), undefined],
  ])('%s', (text, matched, expected) => {
    expect(highlightText(text, matched)).toBe(expected);
  });

  it('cuts a long description around the first match, on word boundaries', () => {
    const text = `${'lorem ipsum '.repeat(30)}the docker compose tool ${'dolor sit '.repeat(30)}`;
    const cut = highlightDescription(text, only('docker'))!;
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).toContain('<mark>docker</mark>');
    expect(unmark(cut).length).toBeLessThanOrEqual(200);
    expect(text).toContain(unmark(cut).slice(1, -1));
    expect(highlightDescription(`docker ${'word '.repeat(100)}`, only('docker'))!.startsWith('<mark>docker</mark> word')).toBe(true);
    expect(highlightDescription('short docker text', only('docker'))).toBe('short <mark>docker</mark> text');
  });

  it('never splits a surrogate pair when it must cut inside a long word', () => {
    const text = `${'🎉'.repeat(150)} docker ${'🎉'.repeat(150)}`;
    const cut = highlightDescription(text, only('docker'))!;
    expect(wellFormed(cut)).toBe(true);
    expect(cut).toContain('<mark>docker</mark>');
  });

  const hostileText = fc
    .tuple(
      fc.array(
        fc.oneof(
          fc.constantFrom('docker', 'Docker', 'compose', 'file', 'the', 'İstanbul', 'Straße', 'e\u0301cole', '🎉', '&amp;', 'amp', 'lt', 'quot', '<mark>', '</mark>', '<img src=x onerror=alert(1)>', '</script>', '"', "'", '&', '<', '>'),
          fc.string({ unit: 'grapheme', maxLength: 4 }),
        ),
        { maxLength: 80 },
      ),
      fc.constantFrom(' ', '', '\n'),
    )
    .map(([parts, separator]) => parts.join(separator));

  it('only <mark> is markup, and the text comes back unchanged (full text and description windows)', () => {
    const matchedArb = fc.record({
      terms: fc.uniqueArray(fc.constantFrom('docker', 'compose', 'istanbul', 'strasse', 'ecole', 'amp', 'lt', 'quot', 'mark', 'img'), { maxLength: 4 }).map((t) => new Set(t)),
      phrases: fc.array(fc.constantFrom(['compose', 'file'], ['docker', 'compose']), { maxLength: 1 }),
    });
    fc.assert(
      fc.property(hostileText, matchedArb, fc.integer({ min: 20, max: 200 }), (text, matched, max) => {
        for (const html of [highlightText(text, matched), highlightDescription(text, matched, max)]) {
          if (html === undefined) continue;
          expect(html.replace(/<\/?mark>/g, '')).not.toMatch(/[<>"']/);
          expect(html.replace(/<\/?mark>/g, '')).not.toMatch(/&(?!amp;|lt;|gt;|quot;|#39;)/);
          expect(wellFormed(html)).toBe(true);
          expect(html).toMatch(/^(?:[^<]|<mark>[^<]+<\/mark>)*$/);
        }
        const full = highlightText(text, matched);
        if (full !== undefined) expect(unmark(full)).toBe(text);
        const window = highlightDescription(text, matched, max);
        if (window !== undefined) {
          // The window is a piece of the text, with `…` where it was cut.
          const plain = unmark(window);
          const pieces = [plain, plain.replace(/^…/, ''), plain.replace(/…$/, ''), plain.replace(/^…/, '').replace(/…$/, '')];
          expect(pieces.some((piece) => text.includes(piece))).toBe(true);
        }
      }),
      { numRuns: 1500 },
    );
  });
});
