/**
 * `npm run build:package` (also `prepare`, so `npm install` in a clone and `npm pack` run it):
 * the published package under `dist/`.
 *
 * 1. tsc (tsconfig.build.json): ESM JavaScript and declarations for `src/`, `builder/`, `cli/` and `shared/`,
 *    with relative `.ts` specifiers rewritten to `.js` in the JavaScript.
 * 2. The same rewrite in the declarations (tsc leaves them as written), so a consumer compiling
 *    with `NodeNext` resolves them without `allowImportingTsExtensions`.
 * 3. The demo page under `dist/site/`: its three scripts bundled once (builder/site.ts bundles them
 *    the same way in a clone), and its static files copied, so a build from the package needs no
 *    esbuild.
 *
 * The output is written to `dist.tmp/` and renamed over `dist/` when complete.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleScript, COPIED, SCRIPTS } from '../builder/site.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAGING = join(ROOT, 'dist.tmp');

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** `from './x.ts'`, `import('./x.ts')` and `import './x.ts'` with a relative `.ts` specifier → `.js`. */
export function rewriteDeclarationSpecifiers(text: string): string {
  return text.replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*?)\.ts\2/g, '$1$2$3.js$2');
}

async function main(): Promise<void> {
  await fs.rm(STAGING, { recursive: true, force: true });
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', STAGING], { stdio: 'inherit' });
  let declarations = 0;
  for (const file of await filesUnder(STAGING)) {
    if (!file.endsWith('.d.ts')) continue;
    const text = await fs.readFile(file, 'utf8');
    const rewritten = rewriteDeclarationSpecifiers(text);
    if (rewritten !== text) await fs.writeFile(file, rewritten);
    declarations++;
  }
  await fs.mkdir(join(STAGING, 'site'), { recursive: true });
  for (const script of SCRIPTS) await fs.writeFile(join(STAGING, 'site', script.out), await bundleScript(script, ROOT));
  for (const name of [...COPIED, 'index.html']) await fs.copyFile(join(ROOT, 'site', name), join(STAGING, 'site', name));
  await fs.rm(DIST, { recursive: true, force: true });
  await fs.rename(STAGING, DIST);
  const files = (await filesUnder(DIST)).length;
  // stderr: `npm pack --json` prints its JSON on stdout after this.
  console.error(`dist/: ${files} files (${declarations} declarations) from ${relative(process.cwd(), ROOT) || '.'}`);
}

await main();
