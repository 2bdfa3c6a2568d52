/**
 * The small pure checks behind content validation and problem messages (build/content-schemas.ts,
 * build/problems.ts), and the zod-free fast path of skill.json and stats.json against the schemas.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  StatsFile,
  isCalendarDate,
  isHttpsUrl,
  isUtcTimestamp,
  quickSkillJson,
  quickStats,
  skillJsonSchema,
  type KnownIds,
} from '../build/content-schemas.ts';
import { fieldPath, formatProblem, quote } from '../build/problems.ts';

describe('isUtcTimestamp', () => {
  it.each([
    ['2025-01-31T12:00:00Z', true],
    ['2025-01-31T12:00:00.5Z', true],
    ['2025-01-31T12:00:00.123456789Z', true],
    ['2024-02-29T00:00:00Z', true],
    ['2025-02-29T00:00:00Z', false],
    ['2025-04-31T00:00:00Z', false],
    ['2025-01-31T24:00:00Z', false],
    ['2025-01-31T12:60:00Z', false],
    ['2025-01-31T12:00:00', false],
    ['2025-01-31T12:00:00+00:00', false],
    ['2025-01-31t12:00:00z', false],
    ['2025-01-31 12:00:00Z', false],
    ['2025-01-31', false],
    ['', false],
  ])('%j → %s', (value, expected) => {
    expect(isUtcTimestamp(value)).toBe(expected);
  });
});

describe('isCalendarDate', () => {
  it.each([
    ['2025-01-01', true],
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2025-13-01', false],
    ['2025-00-10', false],
    ['2025-1-1', false],
    ['2025-01-01T00:00:00Z', false],
  ])('%j → %s', (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });
});

describe('isHttpsUrl', () => {
  it.each([
    ['https://avatars.example.com/u/1.png', true],
    ['https://example.com', true],
    ['HTTPS://EXAMPLE.COM/a', true],
    ['http://example.com/a.png', false],
    ['javascript:alert(1)', false],
    ['data:image/png;base64,AAAA', false],
    ['//example.com/a.png', false],
    ['/a.png', false],
    ['https://', false],
    ['https://exa mple.com', false],
    ['https://example.com/\ta', false],
    [' https://example.com', false],
  ])('%j → %s', (value, expected) => {
    expect(isHttpsUrl(value)).toBe(expected);
  });
});

describe('problem messages', () => {
  it.each([
    [[], ''],
    [['stars'], 'stars'],
    [['starHistory', 2, 'date'], 'starHistory[2].date'],
    [['categories', 0, 'subcategories', 1, 'slug'], 'categories[0].subcategories[1].slug'],
    [[0], '[0]'],
  ])('fieldPath(%j) = %j', (path, expected) => {
    expect(fieldPath(path)).toBe(expected);
  });

  it('formats with and without a field', () => {
    expect(formatProblem({ file: 'skills/a/b/skill.json', field: 'stars', message: 'expected integer ≥ 0' })).toBe(
      'skills/a/b/skill.json → stars: expected integer ≥ 0',
    );
    expect(formatProblem({ file: 'categories.json', message: 'missing (required)' })).toBe('categories.json: missing (required)');
  });

  it('never lets a control or bidi character from the content reach a terminal', () => {
    const line = formatProblem({ file: 'skills/a\u001b[31m/b', field: 'x\u202ey', message: `bad ${quote('\u009b2J\u0000')}` });
    expect(line).toBe('skills/a\\u001b[31m/b → x\\u202ey: bad "\\u009b2J\\u0000"');
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
  });
});

describe('dates: arithmetic agrees with Date', () => {
  // The checks before they became arithmetic: what Date itself accepts and formats back.
  const viaDate = (value: string): boolean => {
    const time = Date.parse(`${value}T00:00:00Z`);
    return /^\d{4}-\d{2}-\d{2}$/.test(value) && Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === value;
  };
  const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
  const year = fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 400, 1900, 2000, 2024, 2100)).map((n) => String(n).padStart(4, '0'));
  const date = fc.tuple(year, two, two).map(([y, m, d]) => `${y}-${m}-${d}`);

  it('isCalendarDate', () => {
    fc.assert(fc.property(date, (value) => isCalendarDate(value) === viaDate(value)), { numRuns: 20_000 });
  });

  it('isUtcTimestamp', () => {
    const timestamp = fc.tuple(date, two, two, two).map(([d, h, m, s]) => `${d}T${h}:${m}:${s}Z`);
    fc.assert(
      fc.property(timestamp, (value) => {
        const time = Date.parse(value);
        const expected = Number.isFinite(time) && new Date(time).toISOString().slice(0, 19) === value.slice(0, 19);
        return isUtcTimestamp(value) === expected;
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('quickSkillJson and quickStats: the schemas, without zod, for plainly valid files', () => {
  const known: KnownIds = { categories: new Set(['css', 'data']), platforms: new Set(['codex', 'claude-code']) };
  const schema = skillJsonSchema(known);
  // Mostly valid values, with the near misses each field's check must catch.
  const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 20 }, { arbitrary: bad, weight: 1 });
  const count = mostly(fc.nat(), fc.constantFrom(-1, 1.5, 2 ** 53, '3', null, -0));
  const text = mostly(fc.constantFrom('Ann', ' padded ', 'x'), fc.oneof(fc.constantFrom('', '   ', 7), fc.string({ maxLength: 6 })));
  const time = mostly(
    fc.constantFrom('2025-01-31T12:00:00Z', '2025-01-31T12:00:00.5Z', '2024-02-29T23:59:59.123456Z'),
    fc.constantFrom('2025-02-30T00:00:00Z', '2025-01-31', 5),
  );
  const ids = (pool: string[], bad: string) => mostly(fc.array(fc.constantFrom(...pool), { maxLength: 3 }), fc.constantFrom(bad, [bad], 'x', [1]));
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
  const skillJson = fc
    .record({
      stars: count,
      forks: count,
      watchers: count,
      openIssues: count,
      createdAt: time,
      updatedAt: time,
      pushedAt: time,
      author: mostly(
        fc.record({ name: text, avatar: mostly(fc.constant('https://a.example/x.png'), fc.constantFrom('http://a.example/x', 'https://a b', 3)) }),
        fc.constantFrom(null, [], { name: 'Ann', avatar: 'https://a.example', extra: 1 }, { name: 'Ann' }),
      ),
      categories: ids(['css', 'data'], 'nope'),
      platforms: ids(['codex', 'claude-code'], 'other'),
      name: optional(text),
      description: optional(text),
      license: optional(text),
      installCommands: optional(
        mostly(fc.dictionary(fc.constantFrom('codex', 'claude-code', 'x'), text), fc.constantFrom([], 'cmd', JSON.parse('{"__proto__":"x"}') as object)),
      ),
      extra: fc.option(fc.constant(1), { nil: undefined, freq: 10 }),
    })
    // As JSON has them: optional fields absent rather than undefined, keys in any order.
    .chain((value) => {
      const entries = Object.entries(value).filter(([, v]) => v !== undefined);
      return fc.shuffledSubarray(entries, { minLength: entries.length }).map((shuffled) => JSON.parse(JSON.stringify(Object.fromEntries(shuffled))) as unknown);
    });

  /**
   * Whenever `quick` answers for a generated value, zod accepts it too and gives the same output;
   * `quick` must answer more than 100 times (so the property checks something).
   */
  function agreesWithZod(values: fc.Arbitrary<unknown>, quick: (raw: unknown) => unknown, zod: z.ZodType, numRuns: number): void {
    let answered = 0;
    fc.assert(
      fc.property(values, (raw) => {
        const fast = quick(raw);
        if (fast === undefined) return;
        answered += 1;
        const parsed = zod.safeParse(raw);
        expect(parsed.success).toBe(true);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
      }),
      { numRuns },
    );
    expect(answered).toBeGreaterThan(100);
  }

  it('skill.json: accepts only what the schema accepts, with the same output', () => {
    // About 4% of these values are valid: 9,000 runs give the quick path ~350 to check, far above the floor of 100.
    agreesWithZod(skillJson, (raw) => quickSkillJson(raw, known), schema, 9000);
  });

  it('stats.json: accepts only what the schema accepts, with the same output', () => {
    const entry = fc.oneof(
      { arbitrary: fc.record({ date: mostly(fc.constantFrom('2025-01-01', '2024-02-29'), fc.constantFrom('2025-02-30', '2025-1-1', 3)), stars: count }), weight: 12 },
      fc.constantFrom(null, { date: '2025-01-01', stars: 1, extra: 1 }, { date: '2025-01-01' }),
    );
    const stats = fc
      .record({ views: count, installs: count, favorites: count, starHistory: fc.oneof(fc.array(entry, { maxLength: 3 }), fc.constant({})) })
      .map((value) => JSON.parse(JSON.stringify(value)) as unknown);
    agreesWithZod(stats, quickStats, StatsFile, 3000);
  });
});
