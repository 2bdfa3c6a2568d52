/**
 * The build: content folder → validated model → static tree and search index, swapped in
 * atomically (docs/decisions.md §2–3). A build with problems writes nothing unless `skipInvalid` is set, and then
 * only when every problem is confined to a skill folder (which is left out and reported).
 * Output is deterministic: it depends only on the content, plus `builtAt` in the manifest when
 * `SOURCE_DATE_EPOCH` is set. `incremental` re-uses the build cache (builder/build-cache.ts) for
 * skills whose input did not change; over the output the last incremental build wrote (its record,
 * builder/output-record.ts) it commits only the files whose bytes changed into the live folder with
 * a journal (shared/commit-journal.ts), otherwise it hard-links unchanged files into a new tree
 * and swaps; the cache is written only after the new output is in place; when nothing changed
 * since the incremental build that wrote the output, nothing is read or written
 * (builder/up-to-date.ts). The change log in the content folder gets this build's changes right
 * before the swap or commit (builder/changes.ts).
 *
 * This module holds the entry and the no-change check; the work past it is builder/build-work.ts,
 * loaded only when the check does not answer.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Manifest } from '../src/manifest.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { resolveCacheDir } from './build-cache.ts';
import type { BuildCheck } from './build-work.ts';
import type { Problem } from './model.ts';
import { recoverOutput } from './output.ts';
import { formatProblem } from './problems.ts';
import { normalizeBase } from './site.ts';
import { stampInputsInThread, stampInputsInTwoThreads } from './stamp-thread.ts';
import { SPLIT_OWNERS, buildKey, recordedFolders, upToDate, type InputStamp } from './up-to-date.ts';

/** Options of `runBuild`. */
export interface BuildOptions {
  /** The content folder (categories.json, platforms.json, skills/). */
  contentDir: string;
  /** The output folder, replaced as a whole when the build succeeds. */
  outDir: string;
  /** Build the valid skills and report the invalid ones instead of failing. */
  skipInvalid?: boolean;
  /** Seconds since the epoch to record as `builtAt`; default `process.env.SOURCE_DATE_EPOCH`. */
  sourceDateEpoch?: string | undefined;
  /** Also write the Service Worker, demo page and `_headers` (builder/site.ts); default true. */
  site?: boolean;
  /** Path the output is served under (`/my-repo/` on GitHub Pages), for the site files; default `/`. */
  base?: string;
  /**
   * Re-use what did not change, with the same output as a clean build: each skill folder whose
   * input is unchanged skips parsing and validation (the build cache in `cacheDir`); over the
   * output the last incremental build wrote, only changed files are written and committed in
   * place (an unchanged skill's files and archive are not even made), otherwise output files
   * whose bytes did not change are hard-linked from the previous output into a new tree.
   */
  incremental?: boolean;
  /** Folder of the build cache of `incremental`; default `node_modules/.cache/skills-api` under the working directory. */
  cacheDir?: string;
  /** Compute the quality signals (docs/quality.md); default true. Off only to measure their cost. */
  quality?: boolean;
  /** Told what the build is doing: each step as it starts, then every 1,000 files written. */
  onProgress?: (step: string, files: number) => void;
}

/** What a successful build did. */
export interface BuildReport {
  /** Skills written. */
  skills: number;
  /** Skill folders left out (only with `skipInvalid`), sorted. */
  skipped: string[];
  /** The problems that made those folders skipped. */
  problems: Problem[];
  /** Files written and their total size in bytes. */
  files: number;
  bytes: number;
  /** Of those files, how many were taken over unchanged from the previous output (`incremental`). */
  reused: number;
  /** Skill folders whose parsing and validation were re-used from the build cache (`incremental`). */
  fromCache: number;
  /** The manifest written at `MANIFEST_PATH`. */
  manifest: Manifest;
  /** Wall time in milliseconds. */
  ms: number;
}

/** The content has problems; nothing was written. `problems` lists every one of them. */
export class BuildError extends Error {
  readonly problems: Problem[];

  constructor(problems: Problem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(`the content has ${count}:\n${problems.map(formatProblem).join('\n')}`);
    this.name = 'BuildError';
    this.problems = problems;
  }
}

/** Build `contentDir` into `outDir`. Throws `BuildError` for content problems (output untouched). */
export async function runBuild(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  await recoverOutput(options.outDir);
  const builtAt = builtAtFrom('sourceDateEpoch' in options ? options.sourceDateEpoch : process.env.SOURCE_DATE_EPOCH);
  options.onProgress?.('loading content', 0);
  const incremental = options.incremental === true;
  const cacheDir = resolveCacheDir(options.cacheDir);
  const out = resolve(options.outDir);
  if (incremental && (cacheDir === out || cacheDir.startsWith(out + sep))) {
    // The output is replaced as a whole and published: a cache there would be deleted or served.
    throw new Error(`the build cache folder ${cacheDir} must be outside the output ${out}`);
  }
  // Nothing changed since the build that wrote this output (builder/up-to-date.ts): answer from its
  // record, reading no skill and touching nothing. When there is no record to answer from, the
  // inputs are stamped in a thread of their own (builder/stamp-thread.ts) while the caches are read.
  const pending = incremental ? upToDateCheck(options, out, cacheDir, builtAt) : undefined;
  const checked = pending === undefined ? Promise.resolve(undefined) : pending.stamping.then((stamp): BuildCheck => ({ root: pending.root, key: pending.key, stamp, log: stamp.log }));
  // Awaited by the work; a build that fails before then must not leave its failure unhandled.
  checked.catch(() => undefined);
  if (pending?.threaded === false) {
    const check = await checked;
    const report = check === undefined ? undefined : upToDate(cacheDir, check.root, out, check.key, check.stamp);
    if (report !== undefined) {
      options.onProgress?.('nothing changed since the last build', 0);
      return upToDateReport(report, out, started);
    }
  }
  // The rest of the build's code is loaded only now: a build answered above never needs it.
  const { buildAfterCheck } = await import('./build-work.ts');
  return buildAfterCheck(options, { started, builtAt, incremental, cacheDir, out, key: pending?.key, checked });
}

/** The report of a build that found nothing changed (`upToDate`): the live output's manifest, untouched. */
function upToDateReport(report: NonNullable<ReturnType<typeof upToDate>>, out: string, started: number): BuildReport {
  const manifest = JSON.parse(readFileSync(resolve(out, ...MANIFEST_PATH.split('/')), 'utf8')) as Manifest;
  const { folders, ...rest } = report;
  return { ...rest, reused: report.files, fromCache: folders, manifest, ms: Math.round(performance.now() - started) };
}

/**
 * What the no-change check of an incremental build needs: the content folder's real path, the key
 * of the options and build code, and the inputs' stamps, taken here before anything is read, or,
 * when no record can answer (`threaded`), started here in a thread of their own
 * (builder/stamp-thread.ts).
 * Undefined when the content folder cannot be resolved (the build then reports it).
 */
function upToDateCheck(options: BuildOptions, out: string, cacheDir: string, builtAt: string | undefined): { root: string; key: string; stamping: Promise<InputStamp>; threaded: boolean } | undefined {
  let root: string;
  try {
    root = realpathSync.native(options.contentDir);
  } catch {
    return undefined;
  }
  const key = buildKey({
    root,
    out,
    skipInvalid: options.skipInvalid === true,
    site: options.site !== false,
    base: normalizeBase(options.base),
    quality: options.quality !== false,
    builtAt: builtAt ?? null,
  });
  // Only when the build cannot be answered from a record (none kept): the caches are then read
  // for sure. With a record, reading them beside the stamps slows the answer when nothing changed
  // (a second core is not always free), so the stamps come first, here, as the only work (half of
  // them in a thread beside when the content folder is large, builder/stamp-thread.ts).
  const folders = recordedFolders(cacheDir, root, out);
  const threaded = folders === undefined;
  // A record of at least as many skill folders as it takes owner folders to stamp in two threads:
  // the second thread is started before the owner folders are listed.
  const stamping = threaded ? stampInputsInThread(root, cacheDir) : stampInputsInTwoThreads(root, cacheDir, undefined, folders >= SPLIT_OWNERS);
  return { root, key, threaded, stamping };
}

/** `SOURCE_DATE_EPOCH` (whole seconds) as an ISO timestamp; undefined when unset or empty. */
export function builtAtFrom(epoch: string | undefined): string | undefined {
  if (epoch === undefined || epoch === '') return undefined;
  const seconds = /^\d{1,12}$/.test(epoch) ? Number(epoch) : NaN;
  if (!Number.isSafeInteger(seconds) || seconds * 1000 > 8.64e15) {
    throw new Error(`SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, got ${JSON.stringify(epoch)}`);
  }
  return new Date(seconds * 1000).toISOString();
}
