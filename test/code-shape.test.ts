// The size limits of the code (issue 23): no function over 150 lines and no file over 800 lines
// in the runtime (src/), the builder (builder/) and the page (site/). A unit past them is split by
// meaning (a command, a view, a step of its own), so this test keeps the limit from creeping back.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const FOLDERS = ['src', 'builder', 'site'];
const MAX_FILE_LINES = 800;
const MAX_FUNCTION_LINES = 150;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

/** Every function-like node of a file longer than `max` lines, named by its place. */
export function longFunctions(fileName: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) {
        const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
        found.push(`${fileName}:${start + 1} ${name} ${lines} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Lines of a text as `wc -l` counts them when it ends with a newline. */
function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)));

describe('code shape', () => {
  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it(`no file is over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((file) => ({ file: relative(ROOT, file), lines: lineCount(readFileSync(file, 'utf8')) }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `${file} ${lines} lines`);
    expect(long).toEqual([]);
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files.flatMap((file) =>
      longFunctions(relative(ROOT, file), readFileSync(file, 'utf8'), MAX_FUNCTION_LINES),
    );
    expect(long).toEqual([]);
  });

  it('the checker sees a long function', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const x${i} = ${i};`).join('\n');
    expect(longFunctions('x.ts', `function big() {\n${body}\n}\n`, MAX_FUNCTION_LINES)).toEqual([
      `x.ts:1 big ${MAX_FUNCTION_LINES + 2} lines`,
    ]);
    expect(longFunctions('x.ts', `const f = () => {\n${body}\n};\n`, MAX_FUNCTION_LINES)).toHaveLength(1);
    expect(longFunctions('x.ts', 'function small() {\n  return 1;\n}\n', MAX_FUNCTION_LINES)).toEqual([]);
  });
});
