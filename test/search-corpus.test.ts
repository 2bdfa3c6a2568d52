/**
 * The search token cache of `--incremental` builds (builder/search-corpus.ts): a corpus made with
 * the tokens of an earlier build's documents is the corpus made by scanning every document, after
 * edits, removals and additions; a damaged file, or one of other build code, is not used.
 * Records of the sample content, a real cache file. The corpus's tokens are the indexed terms
 * of each field, as the runtime reads them, for any text.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../builder/load-content.ts';
import type { SkillRecord } from '../builder/model.ts';
import { readTokenCache, tokenizeCorpus, writeTokenCache } from '../builder/search-corpus.ts';
import { terms } from '../src/search/options.ts';

const SAMPLE = fileURLToPath(new URL('../content', import.meta.url));

let base: string;
let skills: SkillRecord[];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'search-corpus-'));
  skills = (await loadContent(SAMPLE, { quality: false })).content.skills;
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** `skill` with its body edited (and so its SKILL.md's SHA-256, as a load would give). */
function edited(skill: SkillRecord, text: string): SkillRecord {
  return { ...skill, body: `${skill.body}\n${text}\n`, sha: `${skill.sha.slice(0, -8)}deadbeef` };
}

describe('the corpus', () => {
  it("holds each field's indexed terms in order, the runtime's terms(), for any text (surrogates, marks, repeated words)", () => {
    const piece = fc.constantFrom('docker', 'Docker', 'DOCKER', 'dock', 'the', 'e\u0301', 'İ', '🎉', '𝐀𝐁', '\ud800', '\udc00', '東京', '١٢', ' ', '-', '\u0301', 'ß', 'x'.repeat(70));
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.array(piece, { maxLength: 16 }).map((p) => p.join('')));
    const doc = fc.record({ name: text, description: text, body: text });
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 6 }), (docs) => {
        const records = docs.map((d, i) => ({ ...d, sha: `sha${i}` }) as SkillRecord);
        const corpus = tokenizeCorpus(records);
        docs.forEach((d, i) => {
          const tokens = [...corpus.tokens[i]!].map((t) => corpus.terms[t]);
          const [description, content] = [corpus.starts[i * 2]!, corpus.starts[i * 2 + 1]!];
          expect(tokens.slice(0, description)).toEqual(terms(d.name));
          expect(tokens.slice(description, content)).toEqual(terms(d.description));
          expect(tokens.slice(content)).toEqual(terms(d.body));
        });
      }),
      { numRuns: 1500 },
    );
  });
});

describe('the search token cache', () => {
  it('gives the corpus of a full scan after edits, removals and additions, and is refused when damaged or of other code', async () => {
    const file = join(base, 'tokens.bin');
    const first = skills.slice(0, -3);
    writeTokenCache(file, 'code-1', first, tokenizeCorpus(first));

    const same = readTokenCache(file, 'code-1');
    expect(same?.docs.size).toBe(first.length);
    expect(tokenizeCorpus(first, same)).toEqual(tokenizeCorpus(first));

    // One document edited with words no document had, two removed, three added.
    const next = [edited(first[0]!, 'zyxwvut quasiunique words'), ...first.slice(3), ...skills.slice(-3)];
    const cached = tokenizeCorpus(next, readTokenCache(file, 'code-1'));
    const scanned = tokenizeCorpus(next);
    expect(cached).toEqual(scanned);
    expect(cached.terms).toContain('zyxwvut');
    // Terms only the removed documents held are gone.
    const removedOnly = tokenizeCorpus(first.slice(1, 3)).terms.filter((t) => !scanned.terms.includes(t));
    for (const term of removedOnly) expect(cached.terms).not.toContain(term);

    // Another build code, a damaged body, a cut file: not used.
    expect(readTokenCache(file, 'code-2')).toBeUndefined();
    const bytes = await readFile(file);
    const damaged = Buffer.from(bytes);
    damaged[damaged.length - 5] = damaged[damaged.length - 5]! ^ 1;
    await writeFile(file, damaged);
    expect(readTokenCache(file, 'code-1')).toBeUndefined();
    await writeFile(file, bytes.subarray(0, bytes.length - 100));
    expect(readTokenCache(file, 'code-1')).toBeUndefined();
    expect(readTokenCache(join(base, 'missing.bin'), 'code-1')).toBeUndefined();
  });
});
