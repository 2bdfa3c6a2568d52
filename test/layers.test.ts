/**
 * The layers of the source tree (README "Layers"), read from every relative import: the runtime
 * core imports neither Node built-ins nor the hosts, the builder nor the command line; the Node host
 * and the builder never import each other (what both need is in the core or shared/); only the
 * command line imports both.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Code files under `dir` (repo-relative, `/`-separated). */
function codeFiles(dir: string): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  const entries = readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|mts|js|mjs)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(sep).join('/'));
}

/** What `file` imports: repo paths for relative specifiers, the specifier itself otherwise. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return importedFiles.map(({ fileName }) => (fileName.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), fileName)) : fileName));
}

type Layer = 'core' | 'edge' | 'node' | 'builder' | 'cli' | 'shared';
const FOLDERS: Record<Layer, string> = { core: 'src', edge: 'src/edge', node: 'src/node', builder: 'builder', cli: 'cli', shared: 'shared' };

function layerOf(path: string): Layer | undefined {
  if (path.startsWith('cli/')) return 'cli';
  if (path.startsWith('builder/')) return 'builder';
  if (path.startsWith('shared/')) return 'shared';
  if (path.startsWith('src/node/')) return 'node';
  if (path.startsWith('src/edge/')) return 'edge';
  if (path.startsWith('src/')) return 'core';
  return undefined;
}

/** Every import from a file of `from` into one of `to`, as `file → target`. */
function crossing(from: Layer, to: readonly Layer[]): string[] {
  const files = codeFiles(FOLDERS[from]).filter((f) => layerOf(f) === from);
  return files.flatMap((file) => importsOf(file).filter((target) => to.includes(layerOf(target) as Layer)).map((target) => `${file} → ${target}`));
}

describe('layers', () => {
  it('the Node host never imports the builder or the command line', () => {
    expect(crossing('node', ['builder', 'cli'])).toEqual([]);
  });

  it('the builder never imports the Node host or the command line', () => {
    expect(crossing('builder', ['node', 'cli'])).toEqual([]);
  });

  it('the runtime core imports no host, builder or command line, and no Node built-in', () => {
    expect(crossing('core', ['node', 'edge', 'builder', 'cli', 'shared'])).toEqual([]);
    const builtins = codeFiles('src').filter((f) => layerOf(f) === 'core').flatMap((f) => importsOf(f).filter((s) => s.startsWith('node:')).map((s) => `${f} → ${s}`));
    expect(builtins).toEqual([]);
  });

  it('shared/ (Node code the builder and the Node host both use) imports the core alone', () => {
    expect(crossing('shared', ['node', 'edge', 'builder', 'cli'])).toEqual([]);
  });

  it('the edge Worker builds on the core alone', () => {
    expect(crossing('edge', ['node', 'builder', 'cli'])).toEqual([]);
  });

  it('reads the imports it checks: the command line imports both the builder and the Node host', () => {
    const targets = codeFiles('cli').flatMap(importsOf).map(layerOf);
    expect(targets).toContain('builder');
    expect(targets).toContain('node');
  });
});
