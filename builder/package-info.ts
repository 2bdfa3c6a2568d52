/**
 * The package's own name and version, from its package.json: one folder up in a clone (builder/),
 * two in the published package (dist/builder/). The build records them in the manifest
 * (`generator`), the command line prints them (`--version`, the serving commands).
 */
import { existsSync, readFileSync } from 'node:fs';

/** What made a build: this package, by name and version. */
export interface Generator {
  name: string;
  version: string;
}

/** This package's name and version (`0.0.0` if its package.json cannot be found, never expected). */
export const GENERATOR: Generator = (() => {
  for (const path of ['../package.json', '../../package.json']) {
    const url = new URL(path, import.meta.url);
    if (!existsSync(url)) continue;
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: unknown; version?: unknown };
    if (pkg.name === 'skills-directory-api' && typeof pkg.version === 'string') return { name: pkg.name, version: pkg.version };
  }
  return { name: 'skills-directory-api', version: '0.0.0' };
})();
