/**
 * builder/skill-names.ts: which folder names may become the owner and repo of a skill
 * (docs/decisions.md H13, H15) and when two names are the same id (docs/decisions.md H14).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { identityKey, segmentProblem } from '../builder/skill-names.ts';
import { OWNER_RE, REPO_RE } from '../src/paths.ts';

describe('segmentProblem', () => {
  it.each([
    ['owner', 'acme'],
    ['owner', 'Beta-Co'],
    ['owner', 'a'],
    ['owner', 'x'.repeat(39)],
    ['owner', 'console'],
    ['owner', 'com10'],
    ['repo', 'pdf-toolkit'],
    ['repo', 'skill.v2'],
    ['repo', '.github'],
    ['repo', '_list'],
    ['repo', 'index'],
    ['repo', 'manifest.json'],
    ['repo', 'git'],
    ['repo', 'x'.repeat(100)],
  ] as const)('%s %j is accepted', (kind, name) => {
    expect(segmentProblem(kind, name)).toBeUndefined();
  });

  it.each([
    ['repo', '', 'must not be empty'],
    ['repo', '.', '"." is not a folder name'],
    ['repo', '..', '".." is not a folder name'],
    ['owner', '..', '".." is not a folder name'],
    ['repo', 'a/b', '"a/b" must not contain / or \\'],
    ['repo', 'a\\b', '"a\\\\b" must not contain / or \\'],
    ['owner', '..\\..', '"..\\\\.." must not contain / or \\'],
    ['repo', 'a%2fb', '"a%2fb" must not contain %'],
    ['repo', '%2e%2e', '"%2e%2e" must not contain %'],
    ['repo', 'a\u0000b', '"a\\u0000b" must not contain control characters'],
    ['repo', 'a\nb', '"a\\nb" must not contain control characters'],
    ['repo', 'a\u007fb', '"a\\u007fb" must not contain control characters'],
    ['repo', 'a\u0085b', '"a\\u0085b" must not contain control characters'],
    ['repo', 'tool.git', '"tool.git" must not end in .git'],
    ['repo', 'tool.GIT', '"tool.GIT" must not end in .git'],
    ['repo', 'con', '"con" is a Windows device name (con, prn, aux, nul, com1–9, lpt1–9)'],
    ['owner', 'NUL', '"NUL" is a Windows device name (con, prn, aux, nul, com1–9, lpt1–9)'],
    ['repo', 'nul.txt', '"nul.txt" is a Windows device name (con, prn, aux, nul, com1–9, lpt1–9)'],
    ['repo', 'Lpt1', '"Lpt1" is a Windows device name (con, prn, aux, nul, com1–9, lpt1–9)'],
    ['repo', 'com9.tar.gz', '"com9.tar.gz" is a Windows device name (con, prn, aux, nul, com1–9, lpt1–9)'],
    ['owner', 'aux', '"aux" is a Windows device name (con, prn, aux, nul, com1–9, lpt1–9)'],
    ['owner', 'prn', '"prn" is a Windows device name (con, prn, aux, nul, com1–9, lpt1–9)'],
    ['repo', 'é'.repeat(128), 'is longer than 255 bytes'],
    ['repo', 'x'.repeat(256), 'is longer than 255 bytes'],
    ['repo', 'x'.repeat(101), `"${'x'.repeat(101)}" must be 1–100 characters of A–Z, a–z, 0–9, ., _ and -`],
    ['owner', 'x'.repeat(40), `"${'x'.repeat(40)}" must be 1–39 characters of A–Z, a–z, 0–9 and -, not starting or ending with -`],
    ['owner', '-acme', '"-acme" must be 1–39 characters of A–Z, a–z, 0–9 and -, not starting or ending with -'],
    ['owner', 'acme-', '"acme-" must be 1–39 characters of A–Z, a–z, 0–9 and -, not starting or ending with -'],
    ['owner', '_list', '"_list" must be 1–39 characters of A–Z, a–z, 0–9 and -, not starting or ending with -'],
    ['owner', 'a.b', '"a.b" must be 1–39 characters of A–Z, a–z, 0–9 and -, not starting or ending with -'],
    ['repo', 'café', '"café" must be 1–100 characters of A–Z, a–z, 0–9, ., _ and -'],
    ['repo', 'a b', '"a b" must be 1–100 characters of A–Z, a–z, 0–9, ., _ and -'],
  ] as const)('%s %j is rejected', (kind, name, expected) => {
    expect(segmentProblem(kind, name)).toBe(expected);
  });

  it('accepts only names the output contract accepts (OWNER_RE / REPO_RE)', () => {
    const name = fc.string({ unit: fc.constantFrom(...'aZ09-._%/\\\u0000é '.split('')), maxLength: 12 });
    fc.assert(
      fc.property(name, (n) => {
        if (segmentProblem('owner', n) === undefined) expect(OWNER_RE.test(n)).toBe(true);
        if (segmentProblem('repo', n) === undefined) expect(REPO_RE.test(n)).toBe(true);
      }),
    );
  });
});

describe('identityKey', () => {
  it.each([
    ['Foo', 'Bar', 'foo', 'bar'],
    ['ACME', 'Tool.V2', 'acme', 'tool.v2'],
    ['owner', 'caf\u00e9', 'owner', 'cafe\u0301'],
  ])('%s/%s and %s/%s are one id', (o1, r1, o2, r2) => {
    expect(identityKey(o1, r1)).toBe(identityKey(o2, r2));
  });

  it('keeps different ids apart', () => {
    expect(identityKey('foo', 'bar')).not.toBe(identityKey('foo', 'bar2'));
    expect(identityKey('foo-bar', 'x')).not.toBe(identityKey('foo', 'bar-x'));
  });
});
