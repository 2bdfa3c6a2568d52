/**
 * `npm run build -- [--content DIR] [--out DIR] [--skip-invalid] [--incremental] [--cache-dir DIR] [--base PATH]`:
 * build a content folder (default `content`) into a static tree (default `public`); `--base` is
 * the path the output is served under (default `/`, e.g. `/my-repo/` for a GitHub project page).
 * `--incremental` re-uses unchanged work through a build cache in `--cache-dir` (default
 * `node_modules/.cache/skills-api`).
 *
 * Exit codes: 0 built; 1 the content has problems (each printed as `path → field: message`) or
 * the build failed; 2 bad command line.
 */
import { parseArgs } from 'node:util';
import { BuildError, runBuild, type BuildReport } from './build.ts';
import { formatProblem } from './problems.ts';
import { normalizeBase } from './site.ts';

const USAGE =
  'usage: npm run build -- [--content DIR] [--out DIR] [--skip-invalid] [--incremental] [--cache-dir DIR] [--base PATH]';

/** Run the CLI with `argv` (without node and script); returns the exit code. */
async function main(argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        content: { type: 'string', default: 'content' },
        out: { type: 'string', default: 'public' },
        'skip-invalid': { type: 'boolean', default: false },
        incremental: { type: 'boolean', default: false },
        'cache-dir': { type: 'string' },
        base: { type: 'string', default: '/' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  try {
    normalizeBase(values.base);
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  try {
    const report = await runBuild({
      contentDir: values.content,
      outDir: values.out,
      skipInvalid: values['skip-invalid'],
      incremental: values.incremental,
      ...(values['cache-dir'] === undefined ? {} : { cacheDir: values['cache-dir'] }),
      base: values.base,
      ...(process.stderr.isTTY ? { onProgress: showProgress() } : {}),
    });
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    console.log(summary(report, values.out));
    if (report.skipped.length > 0) {
      console.log(`skipped ${report.skipped.length} invalid folder(s):`);
      for (const problem of report.problems) console.log(`  ${formatProblem(problem)}`);
    }
    return 0;
  } catch (error) {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    if (error instanceof BuildError) {
      console.error(`build failed, ${values.out} left unchanged: ${error.problems.length} problem(s) in ${values.content}`);
      for (const problem of error.problems) console.error(`  ${formatProblem(problem)}`);
    } else {
      console.error(`build failed, ${values.out} left unchanged: ${(error as Error).message}`);
    }
    return 1;
  }
}

/** A progress line on the terminal (stderr), rewritten in place: elapsed time, step, files written. */
function showProgress(): (step: string, files: number) => void {
  const started = performance.now();
  return (step, files) => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(`\r\x1b[K[${seconds} s] ${step}${files > 0 ? ` (${files} files written)` : ''}`);
  };
}

/** One line: skills, files, size, time. */
function summary(report: BuildReport, out: string): string {
  const size = report.bytes >= 1024 * 1024 ? `${(report.bytes / (1024 * 1024)).toFixed(1)} MiB` : `${(report.bytes / 1024).toFixed(1)} KiB`;
  const reused = report.reused > 0 ? ` (${report.reused} unchanged, re-used)` : '';
  const cached = report.fromCache > 0 ? `, ${report.fromCache} unchanged skills from the cache` : '';
  return `built ${report.skills} skills into ${out}${cached}: ${report.files} files${reused}, ${size}, ${report.ms} ms`;
}

process.exitCode = await main(process.argv.slice(2));
