/**
 * The small pure checks behind content validation and problem messages (builder/content-schemas.ts,
 * builder/problems.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isCalendarDate,
  isHttpsUrl,
  isUtcTimestamp,
} from '../builder/content-schemas.ts';
import { fieldPath, formatProblem, quote } from '../builder/problems.ts';

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
