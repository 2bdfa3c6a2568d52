/**
 * The build's work once the no-change check (builder/build.ts `runBuild`) did not answer: load the
 * content, write the tree and the search index, swap or commit the output, then keep the caches.
 * A module of its own so that a build answered from its record never loads the code of the rest.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Manifest } from '../src/manifest.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { BuildError, type BuildOptions, type BuildReport } from './build.ts';
import { readLoadCache, writeLoadCache } from './build-cache.ts';
import { GENERATOR } from './package-info.ts';
import { emitChangePages, logBytesAfter, planChanges, readChangeLog, readLogRecord, rememberSoundLog, shortenedLogProblem, soundPrefixOf, skippedSkillIds, withChangeLog, writeChangeLog } from './changes.ts';
import { ATOM_FEED_PATH, JSON_FEED_PATH, atomFeed, jsonFeed } from './feeds.ts';
import type { FolderStamp } from './folder-stamp.ts';
import { loadContent } from './load-content.ts';
import { OPENAPI_PATH, openApiDocument } from './openapi.ts';
import type { SkillRecord } from './model.ts';
import { writeAtomically, type OutputWriter } from './output.ts';
import { outputCacheFile, readOutputRecord, readSkillFilesRecord, writeOutputRecord, writeSkillFilesRecord, type OutputRecord } from './output-record.ts';
import { pageKeeper, readPageMemo, writePageMemo, type PageInputs } from './page-memo.ts';
import { buildSearchIndex } from './search-index.ts';
import { normalizeBase, writeSite } from './site.ts';
import { keepDetail, writeSkillFiles, type SkillFilesMemo } from './skill-output.ts';
import { writeTree } from './write-tree.ts';
import { readTokenCacheInThread } from './token-cache-thread.ts';
import { buildCodeHash, rememberBuild, stampDetails, stampLog, type InputStamp } from './up-to-date.ts';

/** The no-change check of an incremental build once its stamps are taken (`runBuild`). */
export interface BuildCheck {
  /** The content folder's real path. */
  root: string;
  /** The key of the options and build code (up-to-date.ts `buildKey`). */
  key: string;
  stamp: InputStamp;
  /** The change log's stamp, taken again after this build appended to it. */
  log: string;
}

/** What `runBuild` settled before the work: when it started, the options it resolved, the check under way. */
export interface BuildStart {
  started: number;
  builtAt: string | undefined;
  incremental: boolean;
  /** The build cache folder and the output folder, resolved. */
  cacheDir: string;
  out: string;
  /** The key of the no-change check; undefined when there is none (not incremental, or no content folder). */
  key: string | undefined;
  /** The no-change check, once its stamps are taken; undefined when there is none. */
  checked: Promise<BuildCheck | undefined>;
}

/** The build past the no-change check: see the module comment and `runBuild`. */
export async function buildAfterCheck(options: BuildOptions, start: BuildStart): Promise<BuildReport> {
  const { started, builtAt, incremental, cacheDir, out, key, checked } = start;
  let files = 0;
  let step = 'loading content';
  const progress = (next: string): void => {
    step = next;
    options.onProgress?.(step, files);
  };
  // The content folder's real path names its caches (the build cache, the change log's sound prefix).
  const contentRoot = incremental ? realContentDir(options.contentDir) : undefined;
  const previous = contentRoot === undefined ? undefined : readLoadCache(cacheDir, contentRoot);
  // What the live output holds, file by file, when it is still the output the last incremental
  // build left: then only changed files are written and committed in place (shared/commit-journal.ts).
  const outputRecord = incremental ? readOutputRecord(cacheDir, out) : undefined;
  // Kept skills' files are only those a build of the same options and build code made.
  const skillFilesRecord = outputRecord === undefined || key === undefined ? undefined : readSkillFilesRecord(cacheDir, out, key);
  // List pages made of the same summaries are kept (builder/page-memo.ts); every page's input is remembered.
  const pageMemo = outputRecord === undefined || key === undefined ? undefined : readPageMemo(cacheDir, out, key);
  const check = await checked;
  const pageInputs: PageInputs | undefined = incremental && check !== undefined ? { pages: new Map() } : undefined;
  const { content, problems, skipped, cache, fromCache, fingerprint, quality } = await loadContent(options.contentDir, {
    previous,
    quality: options.quality,
    // The quality pass finishes in its thread while the skills' files are written (they do not read checks).
    deferQuality: true,
    // The stamps the no-change check took, so each folder is stamped once.
    ...(incremental ? { stamps: { started: check?.stamp.started ?? Date.now(), ...(check === undefined ? {} : takenStamps(check.stamp)) } } : {}),
  });
  // A damaged change log is never skippable: it is the history mirrors follow (builder/changes.ts).
  // An incremental build checks only the lines after those the last one left sound.
  const logRecord = contentRoot === undefined ? undefined : readLogRecord(cacheDir, contentRoot);
  const { log, problems: logProblems } = readChangeLog(options.contentDir, soundPrefixOf(logRecord, buildCodeHash()));
  problems.push(...logProblems);
  // Fewer entries than the last build left: lost lines are never quietly written again.
  const shortened = shortenedLogProblem(logRecord, log.entries.length);
  if (shortened !== undefined) problems.push(shortened);
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
    const withSkillFiles = await writeSkillFiles(content, writer, realpathSync.native(options.contentDir), options.base, skillFiles);
    // Every record's checks are set from here on.
    const report = await quality;
    const withFiles = report === undefined ? withSkillFiles : { ...withSkillFiles, quality: report };
    const shared = cache?.shared;
    const keptDetail = skillFiles === undefined || shared === undefined ? undefined : (skill: SkillRecord) => keepDetail(skillFiles, writer, skill, shared);
    const written = await writeTree(withFiles, (path, data) => (path === MANIFEST_PATH ? Promise.resolve() : emit(path, data)), skillFiles?.kept, keptDetail, pageInputs === undefined ? undefined : pageKeeper(pageMemo, pageInputs, writer.keep));
    progress('building the search index');
    const keepSearch = searchKeeper(outputRecord, writer);
    const readSearch = keepSearch === undefined ? undefined : outputReader(options.outDir, outputRecord!);
    let search = await buildSearchIndex(content.skills, emit, content.categories, {}, incremental ? { file: tokenCacheFile, code: buildCodeHash(), keep: keepSearch, ...(readSearch === undefined ? {} : { read: readSearch }), ...(tokenCache === undefined ? {} : { large: tokenCache }) } : undefined);
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
  if (contentRoot !== undefined) rememberSoundLog(cacheDir, contentRoot, buildCodeHash(), logBytes, changes.length);
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

/**
 * Reads a file of the live output (an in-place build: the files of its record stay where they
 * are until the commit); undefined for a path the record does not hold or a file that cannot be
 * read. The search patch checks each file's text against its name (builder/search-splice.ts).
 */
function outputReader(outDir: string, outputRecord: OutputRecord): (path: string) => string | undefined {
  return (path) => {
    if (!outputRecord.has(path)) return undefined;
    try {
      return readFileSync(resolve(outDir, ...path.split('/')), 'utf8');
    } catch {
      return undefined;
    }
  };
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

/** What the load re-uses of the no-change check's stamps: each folder's stamp and the listings. */
function takenStamps(stamp: InputStamp): { taken: Map<string, FolderStamp>; entries: string } {
  const { folders, entries } = stampDetails(stamp);
  return { taken: folders, entries };
}

/** The real path of content folder `contentDir`; undefined when it is missing (it then has no caches). */
function realContentDir(contentDir: string): string | undefined {
  try {
    return realpathSync.native(contentDir);
  } catch {
    return undefined;
  }
}
