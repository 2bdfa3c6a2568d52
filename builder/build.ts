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
 */
import { readFileSync, realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Manifest } from '../src/manifest.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { defaultCacheDir, readLoadCache, writeLoadCache } from './build-cache.ts';
import { GENERATOR } from './package-info.ts';
import { emitChangePages, logBytesAfter, planChanges, readChangeLog, skippedSkillIds, withChangeLog, writeChangeLog } from './changes.ts';
import { ATOM_FEED_PATH, JSON_FEED_PATH, atomFeed, jsonFeed } from './feeds.ts';
import { loadContent } from './load-content.ts';
import { OPENAPI_PATH, openApiDocument } from './openapi.ts';
import type { Problem, SkillRecord } from './model.ts';
import { recoverOutput, writeAtomically, type OutputWriter } from './output.ts';
import { outputCacheFile, readOutputRecord, readSkillFilesRecord, writeOutputRecord, writeSkillFilesRecord, type OutputRecord } from './output-record.ts';
import { pageKeeper, readPageMemo, writePageMemo } from './page-memo.ts';
import { formatProblem } from './problems.ts';
import { buildSearchIndex } from './search-index.ts';
import { normalizeBase, writeSite } from './site.ts';
import { keepDetail, writeSkillFiles, type SkillFilesMemo } from './skill-output.ts';
import { writeTree } from './write-tree.ts';
import { stampInputsInThread, stampInputsInTwoThreads } from './stamp-thread.ts';
import { readTokenCacheInThread } from './token-cache-thread.ts';
import { buildCodeHash, buildKey, hasRecord, rememberBuild, stampLog, upToDate, type InputStamp } from './up-to-date.ts';

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
  let files = 0;
  let step = 'loading content';
  const progress = (next: string): void => {
    step = next;
    options.onProgress?.(step, files);
  };
  progress('loading content');
  const incremental = options.incremental === true;
  const cacheDir = resolve(options.cacheDir ?? defaultCacheDir());
  const out = resolve(options.outDir);
  if (incremental && (cacheDir === out || cacheDir.startsWith(out + sep))) {
    // The output is replaced as a whole and published: a cache there would be deleted or served.
    throw new Error(`the build cache folder ${cacheDir} must be outside the output ${out}`);
  }
  // Nothing changed since the build that wrote this output (builder/up-to-date.ts): answer from its
  // record, reading no skill and touching nothing. When there is no record to answer from, the
  // inputs are stamped in a thread of their own (builder/stamp-thread.ts) while the caches are read.
  const pending = incremental ? upToDateCheck(options, out, cacheDir, builtAt) : undefined;
  let check: { root: string; key: string; stamp: InputStamp; log: string } | undefined;
  const stamped = pending?.stamping.then((stamp) => {
    check = { root: pending.root, key: pending.key, stamp, log: stamp.log };
  });
  // Awaited below; a build that fails before then must not leave its failure unhandled.
  stamped?.catch(() => undefined);
  if (pending?.threaded === false) {
    await stamped;
    const report = check === undefined ? undefined : upToDate(cacheDir, check.root, out, check.key, check.stamp);
    if (report !== undefined) {
      progress('nothing changed since the last build');
      return upToDateReport(report, out, started);
    }
  }
  const previous = incremental ? readCacheOf(cacheDir, options.contentDir) : undefined;
  // What the live output holds, file by file, when it is still the output the last incremental
  // build left: then only changed files are written and committed in place (shared/commit-journal.ts).
  const outputRecord = incremental ? readOutputRecord(cacheDir, out) : undefined;
  // Kept skills' files are only those a build of the same options and build code made.
  const skillFilesRecord = outputRecord === undefined || pending === undefined ? undefined : readSkillFilesRecord(cacheDir, out, pending.key);
  // List pages made of the same summaries are kept (builder/page-memo.ts); every page's input is remembered.
  const pageMemo = outputRecord === undefined || pending === undefined ? undefined : readPageMemo(cacheDir, out, pending.key);
  await stamped;
  const pageInputs = incremental && check !== undefined ? new Map<string, string>() : undefined;
  const { content, problems, skipped, cache, fromCache, fingerprint } = await loadContent(options.contentDir, {
    previous,
    quality: options.quality,
    // The stamps the no-change check took, so each folder is stamped once.
    ...(incremental ? { stamps: { started: check?.stamp.started ?? Date.now(), ...(check === undefined ? {} : { taken: check.stamp.folders, entries: check.stamp.entries }) } } : {}),
  });
  // A damaged change log is never skippable: it is the history mirrors follow (builder/changes.ts).
  const { log, problems: logProblems } = readChangeLog(options.contentDir);
  problems.push(...logProblems);
  const skippable = problems.every((p) => skipped.some((dir) => p.file === dir || p.file.startsWith(`${dir}/`)));
  if (problems.length > 0 && !(options.skipInvalid === true && skippable)) throw new BuildError(problems);
  // What this build adds to the log, at the build's time; written just before the swap.
  const appended = planChanges(log.entries, content.skills, skippedSkillIds(skipped), builtAt ?? new Date().toISOString());
  const changes = [...log.entries, ...appended];
  const logBytes = logBytesAfter(log, appended);
  // Each skill's files and archive as the live output has them, kept where the skill folder's
  // input hash is unchanged (incremental builds only).
  const skillFiles: SkillFilesMemo | undefined = incremental && cache !== undefined
    ? { previous: skillFilesRecord ?? new Map(), hashOf: (dir) => cache.skills.get(dir)?.hash, next: new Map(), kept: new Set(), keptDetails: new Set() }
    : undefined;

  // The search token cache is read and checked in a thread of its own while the skill files and
  // the tree are made (builder/token-cache-thread.ts).
  const tokenCacheFile = outputCacheFile(cacheDir, out, 'search-tokens', '.bin');
  const tokenCache = incremental ? readTokenCacheInThread(tokenCacheFile, buildCodeHash()) : undefined;

  const { result: manifest, stats } = await writeAtomically(options.outDir, MANIFEST_PATH, async (writer) => {
    const emit: typeof writer.emit = (path, data) => {
      if (++files % 1000 === 0) options.onProgress?.(step, files);
      return writer.emit(path, data);
    };
    progress(`writing ${content.skills.length} skills, lists and categories`);
    // writeTree emits the manifest too; it is written here instead, last, with the search entry
    // and `builtAt` added.
    // Each skill's files, archive and discovery indexes first: the details name the archive.
    const withFiles = await writeSkillFiles(content, writer, realpathSync.native(options.contentDir), options.base, skillFiles);
    const shared = cache?.shared;
    const keptDetail = skillFiles === undefined || shared === undefined ? undefined : (skill: SkillRecord) => keepDetail(skillFiles, writer, skill, shared);
    const written = await writeTree(withFiles, (path, data) => (path === MANIFEST_PATH ? Promise.resolve() : emit(path, data)), skillFiles?.kept, keptDetail, pageInputs === undefined ? undefined : pageKeeper(pageMemo, pageInputs, writer.keep));
    progress('building the search index');
    const keepSearch = searchKeeper(outputRecord, writer);
    let search = await buildSearchIndex(content.skills, emit, content.categories, {}, incremental ? { file: tokenCacheFile, code: buildCodeHash(), keep: keepSearch, ...(tokenCache === undefined ? {} : { large: tokenCache }) } : undefined);
    const changeCount = await emitChangePages(changes, emit);
    progress(outputRecord === undefined ? 'writing the site and swapping the output in' : 'writing the site and committing the changed files');
    if (options.site !== false) {
      // The root copy rides in sw.js (read by the Service Worker before the manifest arrives)
      // instead of the manifest, which every host's first request of any kind reads.
      await writeSite(writer, { base: options.base, search });
      search = { root: search.root };
      const base = normalizeBase(options.base);
      await writer.writeFile(JSON_FEED_PATH, jsonFeed(changes, content.skills, base));
      await writer.writeFile(ATOM_FEED_PATH, atomFeed(changes, content.skills, base));
    }
    await writer.emit(OPENAPI_PATH, openApiDocument());
    const final: Manifest = {
      ...written,
      search,
      changes: changeCount,
      ...(fingerprint === undefined ? {} : { contentHash: withChangeLog(fingerprint, logBytes) }),
      ...(builtAt === undefined ? {} : { builtAt }),
      generator: { name: GENERATOR.name, version: GENERATOR.version },
    };
    await writer.emit(MANIFEST_PATH, final);
    return final;
  }, {
    reuse: incremental,
    record: incremental,
    ...(outputRecord === undefined ? {} : { inPlace: outputRecord }),
    // The previous tree is all hard links into the new one (or gone): removing it is bookkeeping.
    removeInBackground: incremental,
    beforeSwap: async () => {
      if (appended.length === 0) return;
      await writeChangeLog(options.contentDir, log, logBytes);
      if (check !== undefined) check.log = stampLog(check.root);
    },
  });
  // After the swap: a build killed before this line leaves the older cache, which is keyed by
  // input hashes and so never wrong. Records go over those read: a delta of what changed.
  if (incremental && stats.record !== undefined) {
    writeOutputRecord(cacheDir, out, stats.record, outputRecord, stats.changed);
    if (skillFiles !== undefined && check !== undefined) writeSkillFilesRecord(cacheDir, out, skillFiles.next, stats.record, check.key, skillFilesRecord, (dir) => skillFiles.kept.has(dir) && skillFiles.keptDetails?.has(dir) === true);
    if (pageInputs !== undefined && check !== undefined) writePageMemo(cacheDir, out, pageInputs, stats.record, check.key);
  }
  if (incremental && cache !== undefined) saveLoadCache(cacheDir, cache);
  if (check !== undefined) {
    rememberBuild(cacheDir, check.root, out, check.key, check.stamp, check.log, {
      skills: content.skills.length, skipped, problems, files: stats.files, bytes: stats.bytes, folders: fromCacheTotal(cache),
    });
  }
  return {
    skills: content.skills.length,
    skipped,
    problems,
    files: stats.files,
    bytes: stats.bytes,
    reused: stats.reused,
    fromCache,
    manifest,
    ms: Math.round(performance.now() - started),
  };
}

/** Search files the live output keeps (an in-place build): their names are hashes of their bytes. */
function searchKeeper(outputRecord: OutputRecord | undefined, writer: OutputWriter): ((paths: string[]) => boolean) | undefined {
  const keep = writer.keep;
  if (outputRecord === undefined || keep === undefined) return undefined;
  return (paths) => {
    const files: Array<[string, string]> = [];
    for (const path of paths) {
      const key = outputRecord.get(path);
      if (key === undefined) return false;
      files.push([path, key]);
    }
    return keep.call(writer, files);
  };
}

/** The report of a build that found nothing changed (`upToDate`): the live output's manifest, untouched. */
function upToDateReport(report: NonNullable<ReturnType<typeof upToDate>>, out: string, started: number): BuildReport {
  const manifest = JSON.parse(readFileSync(resolve(out, ...MANIFEST_PATH.split('/')), 'utf8')) as Manifest;
  const { folders, ...rest } = report;
  return { ...rest, reused: report.files, fromCache: folders, manifest, ms: Math.round(performance.now() - started) };
}

/** Write the load cache after the swap; a failure only costs the next build a full load. */
function saveLoadCache(cacheDir: string, cache: Parameters<typeof writeLoadCache>[1]): void {
  try {
    writeLoadCache(cacheDir, cache);
  } catch {
    // The output is in place; without a cache the next build only loads everything again.
  }
}

/** Skill folders a later build can re-use: every folder this load has a result of. */
function fromCacheTotal(cache: { skills: ReadonlyMap<string, unknown> } | undefined): number {
  return cache?.skills.size ?? 0;
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
  const threaded = !hasRecord(cacheDir, root, out);
  return { root, key, threaded, stamping: threaded ? stampInputsInThread(root, cacheDir) : stampInputsInTwoThreads(root, cacheDir) };
}

/** The stored build cache of content folder `contentDir`, if any (a missing folder has none). */
function readCacheOf(cacheDir: string, contentDir: string): ReturnType<typeof readLoadCache> {
  let real: string;
  try {
    real = realpathSync.native(contentDir);
  } catch {
    return undefined;
  }
  return readLoadCache(cacheDir, real);
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
