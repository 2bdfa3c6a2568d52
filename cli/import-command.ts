/**
 * `skills-api import` on the command line: the flags turned into `runImport` options, a progress
 * bar on a terminal, warnings on stderr, and a summary with the category distribution.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { MetaSource } from '../builder/import/github.ts';
import { readSourcesFile, resolveSource, type SourceSpec } from '../builder/import/sources.ts';
import { runImport } from '../builder/import/run.ts';
import { folder, UsageError } from './cli.ts';
import { progress } from './progress.ts';
import type { CliIo, ImportFlags } from './skills-api.ts';

/** Default GitHub REST API. */
export const GITHUB_API = 'https://api.github.com';

/** Run an import; resolves when the content folder is written. */
export async function importCommand(args: readonly string[], o: ImportFlags, io: CliIo): Promise<void> {
  const sources: SourceSpec[] = args.map((url) => ({ url: resolveSource(url, process.cwd()) }));
  if (o.sources !== undefined) sources.push(...(await readSourcesFile(o.sources)));
  if (sources.length === 0) throw new UsageError('give repositories to import: skills-api import <git URL | path | owner/repo>... or --sources FILE');
  if (o.githubMeta !== undefined && o.githubApi !== undefined) throw new UsageError('give --github-meta or --github-api, not both');
  const cacheDir = o.cacheDir ?? join('node_modules', '.cache', 'skills-api', 'import');
  const meta: MetaSource =
    o.githubMeta !== undefined ? { kind: 'saved', dir: o.githubMeta } :
    o.githubApi !== undefined ? { kind: 'live', apiUrl: o.githubApi === true ? GITHUB_API : o.githubApi, token: io.env['GITHUB_TOKEN'], cacheDir } :
    { kind: 'none' };
  const bar = progress(io.stderr, 'Importing');
  const warnings: string[] = [];
  let report;
  try {
    report = await runImport({
      sources,
      out: o.out,
      cacheDir,
      meta,
      includeInternal: o.includeInternal === true,
      prune: o.prune === true,
      today: o.date ?? todayUtc(io.env['SOURCE_DATE_EPOCH']),
      onProgress: (done, total) => bar.update(done, total),
      warn: (text) => warnings.push(text),
    });
  } finally {
    bar.stop();
  }
  for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
  if (o.report !== undefined) {
    await mkdir(dirname(o.report), { recursive: true });
    await writeFile(o.report, `${JSON.stringify(report, null, 2)}\n`);
  }
  const { counts } = report;
  const failed = report.repositories.filter((r) => r.error !== undefined).length;
  io.stdout.write(
    `Imported ${plural(counts.imported, 'skill')} from ${plural(report.repositories.length - failed, 'repository', 'repositories')} into ${folder(o.out)} ` +
      `(${counts.added} new, ${counts.changed} changed, ${counts.unchanged} unchanged, ${counts.removed} removed; ${counts.skipped} SKILL.md skipped${o.report === undefined ? '' : `, listed in ${o.report}`}) in ${(report.ms / 1000).toFixed(1)} s\n`,
  );
  const categories = Object.entries(report.categories).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (categories.length > 0) io.stdout.write(`Categories: ${categories.map(([slug, n]) => `${slug} ${n}`).join(', ')}\n`);
  if (failed > 0) throw new Error(`${failed} of ${report.repositories.length} repositories could not be read (their skills were kept): see the warnings above`);
}

/** Today (UTC) as YYYY-MM-DD, or the day of SOURCE_DATE_EPOCH when set. */
function todayUtc(epoch: string | undefined): string {
  const seconds = epoch !== undefined && /^\d{1,12}$/.test(epoch) ? Number(epoch) : undefined;
  return new Date(seconds === undefined ? Date.now() : seconds * 1000).toISOString().slice(0, 10);
}

/** `1 skill`, `2 skills`. */
function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}
