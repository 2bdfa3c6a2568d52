/**
 * Checked files read a line at a time (builder/checked-file.ts `readCheckedLines`): the lines are
 * the body's lines, decoded one by one over chunks of the file, whatever their length or their
 * characters, and a file whose body does not match its checksum, or whose header is refused, gives
 * no answer. `readCheckedLinesWithDelta` adds the delta written over that very base.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { deltaFile, readCheckedFile, readCheckedLines, readCheckedLinesWithDelta, writeCheckedFile, writeDeltaFile } from '../builder/checked-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'checked-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The lines `readCheckedLines` gives for `file`, or undefined when it gives no answer. */
function linesOf(file: string, accept: (header: Record<string, unknown>) => boolean = () => true): string[] | undefined {
  const lines: string[] = [];
  return readCheckedLines(file, accept, (line) => void lines.push(line)) === undefined ? undefined : lines;
}

describe('readCheckedLines', () => {
  it('gives the lines of the body as readCheckedFile has it, for any characters', () => {
    const file = join(dir, 'any.ndjson');
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replaceAll('\n', ' ')), { maxLength: 30 }), (lines) => {
        const body = lines.map((line) => `${line}\n`).join('');
        writeCheckedFile(file, { kind: 'test' }, body);
        const whole = readCheckedFile(file);
        expect(whole?.body).toBe(body);
        expect(linesOf(file)).toEqual(lines);
      }),
      { numRuns: 100 },
    );
  });

  it('reads lines longer than its chunk and lines across chunk boundaries, with characters outside ASCII', () => {
    const file = join(dir, 'long.ndjson');
    const lines = [`${'é'.repeat(3_000_000)}x`, 'short', `${'ab'.repeat(2_500_001)}🙂`, ...Array.from({ length: 50_000 }, (_, n) => `line ${n} ✓`)];
    writeCheckedFile(file, { kind: 'test' }, `${lines.join('\n')}\n`);
    expect(linesOf(file)).toEqual(lines);
  });

  it('gives no answer for a changed byte, a cut file, a refused header or a refused line', () => {
    const file = join(dir, 'damaged.ndjson');
    writeCheckedFile(file, { kind: 'test' }, 'one\ntwo\nthree\n');
    expect(linesOf(file)).toEqual(['one', 'two', 'three']);
    expect(linesOf(file, (header) => header.kind === 'other')).toBeUndefined();
    expect(readCheckedLines(file, () => true, (line) => line !== 'two')).toBeUndefined();
    const bytes = readFileSync(file);
    writeFileSync(file, Buffer.concat([bytes.subarray(0, bytes.length - 3), Buffer.from('EE\n')]));
    expect(linesOf(file)).toBeUndefined();
    writeFileSync(file, bytes.subarray(0, bytes.length - 4));
    expect(linesOf(file)).toBeUndefined();
    writeFileSync(file, bytes.subarray(0, bytes.indexOf(0x0a)));
    expect(linesOf(file)).toBeUndefined();
    expect(linesOf(join(dir, 'missing.ndjson'))).toBeUndefined();
  });
});

describe('readCheckedLinesWithDelta', () => {
  it("adds the delta's lines only over its own base, and only when taken", () => {
    const file = join(dir, 'based.ndjson');
    writeCheckedFile(file, { kind: 'base' }, 'a\nb\n');
    const checksum = readCheckedFile(file)!.header.checksum as string;
    writeDeltaFile(file, checksum, { kind: 'delta' }, 'c\n');
    const read = (takeDelta?: () => boolean): Array<[string, boolean]> | undefined => {
      const lines: Array<[string, boolean]> = [];
      const answer = readCheckedLinesWithDelta(file, { accept: () => true, ...(takeDelta === undefined ? {} : { takeDelta }), line: (text, inBase) => void (text === '' || lines.push([text, inBase])) });
      return answer === undefined ? undefined : lines;
    };
    expect(read()).toEqual([['a', true], ['b', true], ['c', false]]);
    expect(read(() => false)).toEqual([['a', true], ['b', true]]);
    // The delta's header is shown to `accept`, which may refuse the base for it.
    let seen: unknown;
    expect(readCheckedLinesWithDelta(file, { accept: (_, delta) => ((seen = delta?.kind), false), line: () => true })).toBeUndefined();
    expect(seen).toBe('delta');
    // A base written again since: the old delta is not its own.
    writeCheckedFile(file, { kind: 'base' }, 'a\nb\nz\n');
    expect(read()).toEqual([['a', true], ['b', true], ['z', true]]);
    rmSync(deltaFile(file));
    expect(read()).toEqual([['a', true], ['b', true], ['z', true]]);
  });
});
