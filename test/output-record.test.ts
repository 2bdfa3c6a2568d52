/**
 * The output record as a Map would have it (builder/output-record.ts `OutputRecord` over
 * builder/record-lines.ts): read from a record file's lines, then changed as a build changes it,
 * it answers every question as a Map of the same history answers it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutputRecord } from '../builder/output-record.ts';
import { RecordLines } from '../builder/record-lines.ts';

/** A line as the record's writer makes it: a path with a line break or a leading quote is stored as JSON. */
const line = (path: string, key: string): string => `${key} ${path.includes('\n') || path.startsWith('"') ? JSON.stringify(path) : path}\n`;

/** Paths like the output's, outside ASCII, with line breaks, quotes and spaces too; few enough that they repeat. */
const segment = fc.oneof(
  fc.constantFrom('api', 'v1', 'skills', 'files', 'SKILL.md', 'content.json', 'résumé', 'ü', '日本', 'a b', '"q', 'x\ny', '😀', 'Z'),
  fc.string({ minLength: 1, maxLength: 6 }),
);
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
const key = fc.tuple(fc.constantFrom('m7bhTcWjqQRYppojyzsdXZ', 'V05tFSQpGj7GzD-ecciQU1', 'scTmSTl1-8tqJGxJ7zg42V'), fc.nat(99999)).map(([hash, size]) => `${hash} ${size}`);
const op = fc.oneof(
  fc.tuple(fc.constant('set' as const), path, key),
  fc.tuple(fc.constant('delete' as const), path, key),
);

/** The record `body` describes, and the Map a reader of its lines in order would make. */
function read(entries: ReadonlyArray<readonly [string, string]>): { record: OutputRecord; model: Map<string, string> } {
  const lines = RecordLines.parse(Buffer.from(entries.map(([p, k]) => line(p, k)).join(''), 'utf8'));
  expect(lines).toBeDefined();
  return { record: new OutputRecord(lines, true), model: new Map(entries) };
}

/** Every answer of `record` is `model`'s, for `probes` and as a whole. */
function same(record: OutputRecord, model: ReadonlyMap<string, string>, probes: readonly string[]): void {
  expect(record.size).toBe(model.size);
  expect([...record].sort()).toEqual([...model].sort());
  expect([...record.keys()].sort()).toEqual([...model.keys()].sort());
  // Those a new path of one of these lengths may fold onto (builder/output.ts `foldedOntoKept`).
  for (const lengths of [new Set<number>(), new Set([3, 7, 12])]) {
    expect([...record.keysOutsideAsciiOr(lengths)].sort()).toEqual([...model.keys()].filter((p) => lengths.has(p.length) || /[^\x00-\x7f]/.test(p)).sort());
  }
  for (const p of [...probes, ...model.keys()]) {
    expect(record.get(p)).toBe(model.get(p));
    expect(record.has(p)).toBe(model.has(p));
    for (const k of [model.get(p), 'm7bhTcWjqQRYppojyzsdXZ 1']) if (k !== undefined) expect(record.hasKey(p, k)).toBe(model.get(p) === k);
  }
}

function apply(record: OutputRecord, model: Map<string, string>, ops: ReadonlyArray<readonly ['set' | 'delete', string, string]>): void {
  for (const [kind, p, k] of ops) {
    if (kind === 'set') {
      record.set(p, k);
      model.set(p, k);
    } else expect(record.delete(p)).toBe(model.delete(p));
  }
}

describe('the output record', () => {
  it('answers as a Map of the same lines and changes, and a record over the same lines as a Map of its own changes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(path, key), { maxLength: 40 }), fc.array(op, { maxLength: 40 }), fc.array(op, { maxLength: 40 }), (entries, changes, fill) => {
        const { record, model } = read(entries);
        same(record, model, changes.map(([, p]) => p));
        apply(record, model, changes);
        same(record, model, changes.map(([, p]) => p));
        // A new output's record over the same lines: empty, then filled as a build fills it.
        const next = record.emptyLike();
        const nextModel = new Map<string, string>();
        same(next, nextModel, entries.map(([p]) => p));
        apply(next, nextModel, fill);
        same(next, nextModel, [...entries.map(([p]) => p), ...fill.map(([, p]) => p)]);
        // The paths gone from the new output: by their marks over the same lines, by look-ups otherwise.
        const gone = [...model.keys()].filter((p) => !nextModel.has(p)).sort();
        expect([...record.missingFrom(next)].sort()).toEqual(gone);
        const apart = new OutputRecord();
        for (const [p, k] of nextModel) apart.set(p, k);
        expect([...record.missingFrom(apart)].sort()).toEqual(gone);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a line without a key and size, and a quoted path that is not a JSON string', () => {
    expect(RecordLines.parse(Buffer.from('m7bhTcWjqQRYppojyzsdXZ 12 a/b\n'))).toBeDefined();
    expect(RecordLines.parse(Buffer.from('m7bhTcWjqQRYppojyzsdXZ 12 a/b\nm7bhTcWjqQRYppojyzsdXZ\n'))).toBeUndefined();
    expect(RecordLines.parse(Buffer.from('m7bhTcWjqQRYppojyzsdXZ 12 "a/b\n'))).toBeUndefined();
    expect(RecordLines.parse(Buffer.from('m7bhTcWjqQRYppojyzsdXZ 12 "1"x\n'))).toBeUndefined();
    // A body that does not end with a line break still has its last line; empty lines are none.
    const lines = RecordLines.parse(Buffer.from('\nm7bhTcWjqQRYppojyzsdXZ 12 a/b\n\nV05tFSQpGj7GzD-ecciQU1 7 c'))!;
    expect([...new OutputRecord(lines, true)]).toEqual([
      ['a/b', 'm7bhTcWjqQRYppojyzsdXZ 12'],
      ['c', 'V05tFSQpGj7GzD-ecciQU1 7'],
    ]);
  });
});
