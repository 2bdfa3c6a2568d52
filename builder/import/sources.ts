/**
 * The sources file of `skills-api import --sources FILE` (JSON or YAML): the repositories of a
 * directory, with optional settings per repository. Either a list, or `{ repositories: [...] }`;
 * an entry is a URL or path, or an object:
 *
 * ```yaml
 * repositories:
 *   - https://github.com/anthropics/skills
 *   - url: https://github.com/wshobson/agents
 *     owner: wshobson                  # the id's owner segment (default: the GitHub owner)
 *     ref: main                        # a branch or tag (default: the default branch)
 *     include: ["plugins/*\/skills/*"]  # skill folders to take (globs; default all)
 *     exclude: ["plugins/legacy-*\/**"] # skill folders to leave out
 *     categories:                      # per skill folder name or path: 1–3 category slugs
 *       postgresql: [database]
 *     category: development            # the repository's domain: a slug its skills lean to
 * ```
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { formatProblem, zodProblems } from '../problems.ts';

/** One repository to import, with its settings. */
export interface SourceSpec {
  /** A git URL (https, ssh, file) or a local work tree. */
  url: string;
  owner?: string | undefined;
  ref?: string | undefined;
  include?: string[] | undefined;
  exclude?: string[] | undefined;
  /** Category overrides by skill folder name or path. */
  categories?: Record<string, string[]> | undefined;
  /** The repository's domain: a category slug its skills lean to and fall back on. */
  category?: string | undefined;
}

const Text = z.string().trim().min(1, { error: 'expected a non-empty string' });
// A plain string is `{ url }`, a plain list is `{ repositories }`: one object shape each, so a
// problem is reported at its field (`repositories.0.categories.a`), not as "no union matched".
const Entry = z.preprocess(
  (value) => (typeof value === 'string' ? { url: value } : value),
  z.strictObject(
    {
      url: Text,
      owner: Text.optional(),
      ref: Text.optional(),
      include: z.array(Text).max(100).optional(),
      exclude: z.array(Text).max(100).optional(),
      categories: z.record(Text, z.array(Text).min(1).max(3, { error: 'at most 3 categories' })).optional(),
      category: Text.optional(),
    },
    { error: 'expected a URL or { url, owner?, ref?, include?, exclude?, categories?, category? }' },
  ),
);
const SourcesFile = z.preprocess(
  (value) => (Array.isArray(value) ? { repositories: value } : value),
  z.strictObject({ repositories: z.array(Entry).max(10_000) }, { error: 'expected a list of repositories, or { repositories: [...] }' }),
);

/** A sources file that cannot be used; the message names the file and the field. */
export class SourcesError extends Error {
  override name = 'SourcesError';
}

/** Read and check a sources file. Relative local paths are taken from the file's folder. */
export async function readSourcesFile(file: string): Promise<SourceSpec[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SourcesError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let raw: unknown;
  try {
    // YAML 1.2 core: plain data only, aliases bounded.
    raw = /\.json$/i.test(file) ? (JSON.parse(text) as unknown) : (parse(text, { version: '1.2', schema: 'core', uniqueKeys: true, maxAliasCount: 100 }) as unknown);
  } catch (error) {
    throw new SourcesError(`${file}: not valid ${/\.json$/i.test(file) ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
  const parsed = SourcesFile.safeParse(raw);
  if (!parsed.success) throw new SourcesError(zodProblems(file, parsed.error, raw).map(formatProblem).join('\n'));
  const base = dirname(resolve(file));
  return parsed.data.repositories.map((entry) => ({ ...entry, url: resolveSource(entry.url, base) }));
}

/**
 * A source as given on the command line or in a sources file: a URL or an absolute path as it
 * is; a relative path that exists, resolved from `base`; else GitHub's `owner/repo` shorthand as
 * its https URL; anything else resolved from `base` (and reported missing when read).
 */
export function resolveSource(source: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[^/\\]+@[^/\\]+:/.test(source) || isAbsolute(source)) return source;
  const path = resolve(base, source);
  if (!existsSync(path) && /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/.test(source)) return `https://github.com/${source}`;
  return path;
}
