/**
 * The change log (builder/changes.ts, src/changes.ts, docs/api.md "Changes") with real builds of
 * content folders on disk: what each build appends to `changes.ndjson`, what `/api/v1/changes`
 * and the feeds answer, a fresh clone, a damaged log, `--skip-invalid`, failed builds.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SaxesParser } from 'saxes';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BuildError, runBuild } from '../builder/build.ts';
import { CHANGE_LOG_FILE, readChangeLog, type SoundPrefix } from '../builder/changes.ts';
import { contentFingerprint } from '../builder/load-content.ts';
import { createClient } from '../src/client.ts';
import { createHandler } from '../src/handler.ts';
import type { Manifest } from '../src/manifest.ts';
import { fsLoader } from '../src/node/fs-loader.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { staticPathFor } from '../src/static-path.ts';
import { ChangesResponse, ErrorResponse, type ChangeEntry } from '../src/schemas.ts';
import { createContentFolder, defaultSkillMd, skillDir, skillJson, skillMd, statsJson, tempDir, type ContentFolder } from './helpers/fixture-content.ts';
import { readTree } from './helpers/read-tree.ts';

const run = promisify(execFile);

/** SOURCE_DATE_EPOCH of build n: one day apart. */
const epoch = (n: number): string => String(1_750_000_000 + n * 86_400);
const iso = (n: number): string => new Date(Number(epoch(n)) * 1000).toISOString();

let content: ContentFolder;
let root: string;
let out: string;

beforeEach(async () => {
  content = await createContentFolder({ skills: 3 });
  root = await tempDir('changes-test-');
  out = join(root, 'public');
});
afterEach(async () => {
  await content.remove();
  await fs.rm(root, { recursive: true, force: true });
});

/** Build number `n` (the site and feeds only when asked: bundling the demo page is the slow part). */
function build(n: number, options: { skipInvalid?: boolean; incremental?: boolean; base?: string; outDir?: string; contentDir?: string; site?: boolean } = {}) {
  return runBuild({
    contentDir: options.contentDir ?? content.dir,
    outDir: options.outDir ?? out,
    sourceDateEpoch: epoch(n),
    cacheDir: join(root, 'cache'),
    site: false,
    ...options,
  });
}

async function logText(dir = content.dir): Promise<string> {
  return fs.readFile(join(dir, CHANGE_LOG_FILE), 'utf8');
}

async function logEntries(dir = content.dir): Promise<ChangeEntry[]> {
  return (await logText(dir))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ChangeEntry);
}

/** GET `path` from the built output through the handler. */
async function api(path: string, dir = out): Promise<{ status: number; body: unknown }> {
  const response = await createHandler(fsLoader(dir))(new Request(new URL(path, 'http://localhost/')));
  return { status: response.status, body: await response.json() };
}

async function changes(query = '', dir = out): Promise<ChangesResponse> {
  const { status, body } = await api(`/api/v1/changes${query}`, dir);
  expect(status, JSON.stringify(body)).toBe(200);
  return ChangesResponse.strict().parse(body);
}

const summary = (entries: readonly ChangeEntry[]): string[] => entries.map((e) => `${e.change} ${e.id} ${e.at}`);

describe('what a build appends', () => {
  it('the first build logs every skill as added, sorted by id, at SOURCE_DATE_EPOCH; the API serves the log', async () => {
    const report = await build(1);
    const entries = await logEntries();
    expect(summary(entries)).toEqual([`added acme/skill-03 ${iso(1)}`, `added globex/skill-01 ${iso(1)}`, `added initech/skill-02 ${iso(1)}`]);
    expect(entries.map((e) => e.cursor.split('-')[0])).toEqual(['1', '2', '3']);
    expect(report.manifest.changes).toBe(3);
    const body = await changes();
    expect(body).toEqual({ data: entries, pagination: { limit: 100, hasMore: false }, meta: { cursor: entries[2]!.cursor } });
    // The page file is that answer, byte for byte what a plain static host serves.
    const file = staticPathFor('/api/v1/changes')!;
    expect(JSON.parse(await fs.readFile(join(out, file), 'utf8'))).toEqual(body);
    expect(await changes(`?since=${body.meta.cursor}`)).toEqual({ data: [], pagination: { limit: 100, hasMore: false }, meta: { cursor: body.meta.cursor } });
  });

  it('a rebuild without changes appends nothing and the output is byte-identical (clean and incremental)', async () => {
    await build(1);
    const log = await logText();
    const first = await readTree(out);
    await build(1);
    expect(await logText()).toBe(log);
    expect(await readTree(out)).toEqual(first);
    await build(1, { incremental: true });
    await build(1, { incremental: true });
    expect(await logText()).toBe(log);
    expect(await readTree(out)).toEqual(first);
    // A later build time without changes: still nothing appended.
    await build(5);
    expect(await logText()).toBe(log);
  });

  it('an edited description is updated; stars, stats, dates and a new upstream commit are not changes; a removal is removed and 404', async () => {
    await build(1);
    const before = await logEntries();
    await content.write({
      [`${skillDir(1)}/SKILL.md`]: skillMd({ name: 'Skill 1', description: 'Does thing number 1, better.', license: 'MIT' }),
      [`${skillDir(2)}/skill.json`]: skillJson(2, {
        stars: 999,
        forks: 55,
        updatedAt: '2025-12-01T00:00:00Z',
        pushedAt: '2025-12-01T00:00:00Z',
        source: { repository: 'https://github.com/initech/skills', path: 'skill-02', commit: 'f'.repeat(40) },
      }),
      [`${skillDir(2)}/stats.json`]: { ...statsJson(2), views: 123_456 },
    });
    await build(2, { incremental: true });
    const after = await logEntries();
    expect(after.slice(0, 3)).toEqual(before);
    expect(summary(after.slice(3))).toEqual([`updated globex/skill-01 ${iso(2)}`]);
    expect(after[3]!.sha256).not.toBe(before[1]!.sha256);

    await content.write({ [skillDir(3)]: null });
    await build(3);
    const removed = (await logEntries()).slice(4);
    expect(summary(removed)).toEqual([`removed acme/skill-03 ${iso(3)}`]);
    // The tombstone carries the state the skill had.
    expect(removed[0]!.sha256).toBe(before[0]!.sha256);
    expect((await api('/api/v1/skills/acme/skill-03')).status).toBe(404);
    const all = await changes();
    expect(summary(all.data)).toEqual(summary(await logEntries()));

    // Back again: added, with a new entry (the history keeps the removal).
    await content.write({ [`${skillDir(3)}/SKILL.md`]: defaultSkillMd(3), [`${skillDir(3)}/skill.json`]: skillJson(3) });
    await build(4);
    expect(summary((await logEntries()).slice(5))).toEqual([`added acme/skill-03 ${iso(4)}`]);
  });

  it("a skill's own skill.json or stats.json file (kept as _skill.json, _stats.json) is part of its state", async () => {
    await build(1);
    const before = await logEntries();
    await content.write({ [`${skillDir(1)}/_skill.json`]: '{"own": 1}\n' });
    await build(2, { incremental: true });
    expect(summary((await logEntries()).slice(before.length))).toEqual([`updated globex/skill-01 ${iso(2)}`]);
    await content.write({ [`${skillDir(1)}/_stats.json`]: '{"own": 2}\n', [`${skillDir(2)}/_skill.json`]: '{"own": 3}\n' });
    await build(3, { incremental: true });
    expect(summary((await logEntries()).slice(before.length + 1))).toEqual([`updated globex/skill-01 ${iso(3)}`, `updated initech/skill-02 ${iso(3)}`]);
  });

  it('metadata of skill.json (categories, platforms, license, install commands, name override) are changes', async () => {
    await build(1);
    const overrides: Array<Record<string, unknown>> = [
      { categories: ['ops'] },
      { platforms: ['claude-code', 'chatgpt'] },
      { license: 'Apache-2.0' },
      { installCommands: { 'claude-code': 'do it differently' } },
      { name: 'Another name' },
    ];
    for (const [i, override] of overrides.entries()) {
      await content.write({ [`${skillDir(1)}/skill.json`]: skillJson(1, override) });
      await build(2 + i);
      expect(summary((await logEntries()).slice(3 + i))).toEqual([`updated globex/skill-01 ${iso(2 + i)}`]);
    }
  });

  it('at never goes back: a build dated before the last entry stamps the last entry’s time', async () => {
    await build(5);
    await content.write({ [`${skillDir(1)}/SKILL.md`]: skillMd({ name: 'Skill 1', description: 'Changed.', license: 'MIT' }) });
    await build(2);
    expect(summary((await logEntries()).slice(3))).toEqual([`updated globex/skill-01 ${iso(5)}`]);
  });

  it('without SOURCE_DATE_EPOCH, at is the time of the build', async () => {
    const started = new Date().toISOString();
    await runBuild({ contentDir: content.dir, outDir: out, sourceDateEpoch: undefined, site: false });
    const [entry] = await logEntries();
    expect(entry!.at >= started && entry!.at <= new Date().toISOString()).toBe(true);
  });

  it('--skip-invalid: a skipped skill is no removal, and comes back unchanged without an entry', async () => {
    await build(1);
    const log = await logText();
    await content.write({ [`${skillDir(2)}/skill.json`]: skillJson(2, { stars: -1 }) });
    const report = await build(2, { skipInvalid: true });
    expect(report.skipped).toEqual([skillDir(2)]);
    expect(await logText()).toBe(log);
    expect((await api('/api/v1/skills/initech/skill-02')).status).toBe(404);
    await content.write({ [`${skillDir(2)}/skill.json`]: skillJson(2) });
    await build(3);
    expect(await logText()).toBe(log);
  });

  it('a failed build appends nothing and leaves the output as it was', async () => {
    await build(1);
    const log = await logText();
    const before = await readTree(out);
    // A new skill and an invalid one: content problems fail the build.
    await content.write({
      'skills/newco/fresh/SKILL.md': skillMd({ name: 'Fresh', description: 'New.' }),
      'skills/newco/fresh/skill.json': skillJson(4),
      [`${skillDir(2)}/skill.json`]: skillJson(2, { stars: -1 }),
    });
    await expect(build(2)).rejects.toBeInstanceOf(BuildError);
    // The output cannot be replaced (a folder the build did not write): fails after loading.
    await content.write({ [`${skillDir(2)}/skill.json`]: skillJson(2) });
    const foreign = join(root, 'foreign');
    await fs.mkdir(foreign);
    await fs.writeFile(join(foreign, 'keep.txt'), 'not a build');
    await expect(build(2, { outDir: foreign })).rejects.toThrow(/refusing|manifest/);
    expect(await logText()).toBe(log);
    expect(await readTree(out)).toEqual(before);
    await build(2);
    expect(summary((await logEntries()).slice(3))).toEqual([`added newco/fresh ${iso(2)}`]);
  });
});

describe('two builds of one content folder at once', () => {
  it('the one that finishes second fails instead of overwriting the entries the other appended', async () => {
    await build(1);
    const before = await readTree(out);
    await content.write({ [`${skillDir(1)}/SKILL.md`]: skillMd({ name: 'Skill 1', description: 'v2', license: 'MIT' }) });
    // What another build appends meanwhile: the same change at another time.
    const other = join(root, 'other-content');
    await fs.cp(content.dir, other, { recursive: true });
    await build(7, { contentDir: other, outDir: join(root, 'other-public') });
    const theirs = await fs.readFile(join(other, CHANGE_LOG_FILE));
    const error = await runBuild({
      contentDir: content.dir,
      outDir: out,
      sourceDateEpoch: epoch(2),
      site: false,
      onProgress: (step) => {
        if (step === 'building the search index') writeFileSync(join(content.dir, CHANGE_LOG_FILE), theirs);
      },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).toMatch(/changes\.ndjson changed during the build/);
    expect(await fs.readFile(join(content.dir, CHANGE_LOG_FILE))).toEqual(theirs);
    expect(await readTree(out)).toEqual(before);
  });
});

describe('paging', () => {
  it('since and limit walk a log of several pages; the page files are the default answers', async () => {
    const many = await createContentFolder({ skills: 130 });
    try {
      await build(1, { contentDir: many.dir });
      const log = await logEntries(many.dir);
      expect(log).toHaveLength(130);
      const seen: ChangeEntry[] = [];
      let cursor: string | undefined;
      for (;;) {
        const body = await changes(cursor === undefined ? '?limit=7' : `?since=${cursor}&limit=7`);
        seen.push(...body.data);
        cursor = body.meta.cursor;
        if (!body.pagination.hasMore) break;
      }
      expect(seen).toEqual(log);
      expect((await changes(`?since=${cursor}`)).data).toEqual([]);
      const page2 = await changes(`?since=${log[99]!.cursor}`);
      expect(page2.data).toEqual(log.slice(100));
      // The typed client asks the same.
      const client = createClient({ loader: fsLoader(out) });
      expect(await client.listChanges({ since: log[99]!.cursor })).toEqual(page2);
      expect((await client.listChanges({ limit: 3 })).data).toEqual(log.slice(0, 3));
      await expect(client.listChanges({ since: '999-0123456789abcdef' })).rejects.toMatchObject({ code: 'INVALID_PARAMS', status: 400 });
      expect(JSON.parse(await fs.readFile(join(out, staticPathFor(`/api/v1/changes?since=${log[99]!.cursor}`)!), 'utf8'))).toEqual(page2);
      expect(staticPathFor(`/api/v1/changes?since=${log[98]!.cursor}`)).toBeNull();
      expect(staticPathFor('/api/v1/changes?limit=5')).toBeNull();
      const bad = await api('/api/v1/changes?since=131-0123456789abcdef&limit=0');
      expect(bad.status).toBe(400);
      expect(ErrorResponse.parse(bad.body).error.details).toEqual({ params: [expect.objectContaining({ param: 'limit' })] });
      const unknown = await api(`/api/v1/changes?since=131-${log[0]!.cursor.split('-')[1]}`);
      expect(unknown.status).toBe(400);
      expect(ErrorResponse.parse(unknown.body).error.details).toEqual({ params: [expect.objectContaining({ param: 'since' })] });
    } finally {
      await many.remove();
    }
  });
});

describe('the log lives with the content', () => {
  it('a fresh clone of the content repository builds the same log and output, appending nothing', async () => {
    await build(1);
    await content.write({ [`${skillDir(1)}/SKILL.md`]: skillMd({ name: 'Skill 1', description: 'v2', license: 'MIT' }) });
    await build(2);
    const git = (cwd: string, ...args: string[]) => run('git', args, { cwd, env: { ...process.env, GIT_AUTHOR_DATE: '2025-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2025-01-01T00:00:00Z' } });
    await git(content.dir, 'init', '-q');
    await git(content.dir, 'add', '-A');
    await git(content.dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'content');
    const clone = join(root, 'clone');
    await run('git', ['clone', '-q', content.dir, clone]);
    const log = await logText();
    const cloneOut = join(root, 'clone-public');
    // Another machine: no build cache, a later clock.
    const report = await runBuild({ contentDir: clone, outDir: cloneOut, sourceDateEpoch: epoch(2), incremental: true, cacheDir: join(root, 'other-cache'), site: false });
    expect(await logText(clone)).toBe(log);
    expect(await readTree(cloneOut)).toEqual(await readTree(out));
    expect(report.manifest.contentHash).toBe(await contentFingerprint(clone));
    expect((await changes('', cloneOut)).data).toHaveLength(4);
  });

  it('the content fingerprint covers the log: a changed log makes the output stale', async () => {
    const report = await build(1);
    expect(report.manifest.contentHash).toBe(await contentFingerprint(content.dir));
    await fs.rm(join(content.dir, CHANGE_LOG_FILE));
    expect(await contentFingerprint(content.dir)).not.toBe(report.manifest.contentHash);
  });
});

describe('a damaged log', () => {
  const damages: Array<[what: string, damage: (lines: string[]) => string[], line: number, message: RegExp]> = [
    ['an edited id', (l) => l.map((line, i) => (i === 1 ? line.replace('globex/skill-01', 'globex/skill-09') : line)), 2, /does not follow|log does not hold/],
    ['an edited time', (l) => l.map((line, i) => (i === 2 ? line.replace(/"at":"[^"]+"/, '"at":"2030-01-01T00:00:00.000Z"') : line)), 3, /does not follow/],
    ['a line that is not JSON', (l) => [l[0]!, '{"cursor":', ...l.slice(1)], 2, /not a JSON object/],
    ['a missing line', (l) => [l[0]!, l[2]!], 2, /does not follow/],
    ['an extra field', (l) => l.map((line, i) => (i === 0 ? line.replace('{', '{"note":1,') : line)), 1, /exactly the fields/],
  ];

  // Incremental builds remember how much of the log they checked (`readLogRecord`): an edit
  // of those bytes must still be found.
  const cases = [false, true].flatMap((incremental) => damages.map(([what, ...rest]) => [`${what}${incremental ? ', incremental builds' : ''}`, ...rest, incremental] as const));
  it.each(cases)('%s: a clear error naming the file and line; nothing written, the log untouched', async (_what, damage, line, message, incremental) => {
    await build(1, { incremental });
    if (incremental) expect((await fs.readdir(join(root, 'cache'))).filter((f) => /^changes-[0-9a-f]{16}\.json$/.test(f))).toHaveLength(1);
    const before = await readTree(out);
    const lines = (await logText()).split('\n').filter((l) => l !== '');
    const damaged = `${damage(lines).join('\n')}\n`;
    await fs.writeFile(join(content.dir, CHANGE_LOG_FILE), damaged);
    // A real change too, so a build that ignored the damage would append.
    await content.write({ [`${skillDir(1)}/SKILL.md`]: skillMd({ name: 'Skill 1', description: 'v2', license: 'MIT' }) });
    for (const skipInvalid of [false, true]) {
      const error = await build(2, { skipInvalid, incremental }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BuildError);
      const problem = (error as BuildError).problems.find((p) => p.file === CHANGE_LOG_FILE);
      expect(problem).toMatchObject({ file: CHANGE_LOG_FILE, field: `line ${line}` });
      expect(problem!.message).toMatch(message);
      expect((error as Error).message).toContain(`${CHANGE_LOG_FILE}`);
    }
    expect(await logText()).toBe(damaged);
    expect(await readTree(out)).toEqual(before);
  });
});

describe('a log that lost its last lines', () => {
  it('since the last incremental build: a clear error, nothing written, until the log is restored', async () => {
    await build(1, { incremental: true });
    await content.write({ [`${skillDir(1)}/SKILL.md`]: skillMd({ name: 'Skill 1', description: 'v2', license: 'MIT' }) });
    await build(2, { incremental: true });
    const whole = await logText();
    const lines = whole.split('\n').filter((line) => line !== '');
    const before = await readTree(out);
    // One line short (an older log checked out), then no log at all (a log never committed).
    for (const [text, entries] of [[`${lines.slice(0, -1).join('\n')}\n`, lines.length - 1], [undefined, 0]] as const) {
      if (text === undefined) await fs.rm(join(content.dir, CHANGE_LOG_FILE));
      else await fs.writeFile(join(content.dir, CHANGE_LOG_FILE), text);
      const error = await build(3, { incremental: true }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BuildError);
      expect((error as BuildError).problems).toEqual([
        { file: CHANGE_LOG_FILE, message: expect.stringMatching(new RegExp(`^holds ${entries} entries, fewer than the ${lines.length} the last build left in it: its last lines are gone`)) },
      ]);
      expect(await readTree(out)).toEqual(before);
      if (text !== undefined) expect(await logText()).toBe(text);
    }
    await fs.writeFile(join(content.dir, CHANGE_LOG_FILE), whole);
    await build(3, { incremental: true });
    expect(await logText()).toBe(whole);
  });
});

describe('a sound prefix (readChangeLog with what an earlier build checked)', () => {
  const soundOf = (bytes: Buffer, entries: number): SoundPrefix => ({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), entries });

  it('gives the same entries, fields in their order, and checks every line after it', async () => {
    await build(1);
    await content.write({ [`${skillDir(1)}/SKILL.md`]: skillMd({ name: 'Skill 1', description: 'v2', license: 'MIT' }) });
    const firstBytes = await fs.readFile(join(content.dir, CHANGE_LOG_FILE));
    const first = readChangeLog(content.dir).log.entries;
    await build(2);
    const whole = readChangeLog(content.dir);
    expect(whole.problems).toEqual([]);
    expect(whole.log.entries.length).toBe(first.length + 1);
    const sound = soundOf(firstBytes, first.length);
    expect(readChangeLog(content.dir, sound)).toEqual(whole);
    // The whole log as the prefix: nothing left to check.
    const all = await fs.readFile(join(content.dir, CHANGE_LOG_FILE));
    expect(readChangeLog(content.dir, soundOf(all, whole.log.entries.length))).toEqual(whole);
    // A line after the prefix is checked: an edited cursor there is found, at its line.
    const edited = `${firstBytes.toString('utf8')}${JSON.stringify({ ...whole.log.entries.at(-1)!, cursor: `${first.length + 1}-0000000000000000` })}\n`;
    await fs.writeFile(join(content.dir, CHANGE_LOG_FILE), edited);
    expect(readChangeLog(content.dir, sound).problems).toMatchObject([{ file: CHANGE_LOG_FILE, field: `line ${first.length + 1}` }]);
  });

  it('lines inside it are only parsed, their fields put in order; bytes that differ from it are checked whole', async () => {
    await build(1);
    const lines = (await logText()).split('\n').filter((l) => l !== '');
    // The first entry with its fields in another order and a cursor that does not follow: a
    // log no build wrote, which a whole check refuses.
    const entry = JSON.parse(lines[0]!) as ChangeEntry;
    const reordered = JSON.stringify({ sha256: entry.sha256, change: entry.change, id: entry.id, at: entry.at, cursor: `1-${'f'.repeat(16)}` });
    const bytes = Buffer.from(`${[reordered, ...lines.slice(1)].join('\n')}\n`);
    await fs.writeFile(join(content.dir, CHANGE_LOG_FILE), bytes);
    expect(readChangeLog(content.dir).problems).toMatchObject([{ field: 'line 1' }]);
    const trusted = readChangeLog(content.dir, soundOf(bytes, lines.length));
    expect(trusted.problems).toEqual([]);
    expect(Object.keys(trusted.log.entries[0]!)).toEqual(['cursor', 'at', 'id', 'change', 'sha256']);
    // A prefix whose hash is not of these bytes, or that does not end a line, is not trusted.
    for (const sound of [{ ...soundOf(bytes, lines.length), sha256: '0'.repeat(64) }, soundOf(bytes.subarray(0, bytes.length - 1), lines.length)]) {
      expect(readChangeLog(content.dir, sound).problems).toMatchObject([{ field: 'line 1' }]);
    }
  });
});

describe('feeds', () => {
  it('feed.xml is well-formed Atom and feed.json a JSON Feed 1.1, latest first, escaped, under --base', async () => {
    await content.write({
      [`${skillDir(1)}/SKILL.md`]: skillMd({ name: 'Tags <b> & "quotes"', description: 'Fish & chips <script>alert(1)</script> ]]> \u0001 done', license: 'MIT' }),
    });
    await build(1, { base: '/repo/', site: true });
    await content.write({ [`${skillDir(2)}/SKILL.md`]: skillMd({ name: 'Skill 2', description: 'Now better.', license: 'MIT' }), [skillDir(3)]: null });
    await build(2, { base: '/repo/', site: true });

    const xml = await fs.readFile(join(out, 'feed.xml'), 'utf8');
    const parser = new SaxesParser({ xmlns: true });
    const stack: string[] = [];
    const texts = new Map<string, string[]>();
    const links: Array<Record<string, string>> = [];
    let text = '';
    parser.on('opentag', (tag) => {
      expect(tag.uri).toBe('http://www.w3.org/2005/Atom');
      stack.push(tag.local);
      text = '';
      if (tag.local === 'link' && stack.at(-2) === 'entry') links.push(Object.fromEntries(Object.entries(tag.attributes).map(([k, a]) => [k, typeof a === 'string' ? a : a.value])));
    });
    parser.on('text', (t) => (text += t));
    parser.on('closetag', () => {
      const path = stack.join('/');
      texts.set(path, [...(texts.get(path) ?? []), text]);
      stack.pop();
      text = '';
    });
    parser.write(xml).close();
    // Only live skills, newest first, one item each: skill 2 updated, then the first build's
    // skills in reverse log order (acme/skill-03 is gone).
    expect(texts.get('feed/entry/title')).toEqual(['Skill 2 (initech/skill-02) updated', 'Tags <b> & "quotes" (globex/skill-01) added']);
    expect(texts.get('feed/entry/summary')![1]).toBe('Fish & chips <script>alert(1)</script> ]]>  done');
    expect(texts.get('feed/updated')).toEqual([iso(2)]);
    expect(texts.get('feed/entry/updated')).toEqual([iso(2), iso(1)]);
    expect(texts.get('feed/id')![0]).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(links.filter((l) => l['rel'] === 'alternate').map((l) => l['href'])).toEqual(['/repo/#/skills/initech/skill-02', '/repo/#/skills/globex/skill-01']);
    expect(links.filter((l) => l['rel'] === 'related').map((l) => l['href'])).toEqual(['/repo/api/v1/skills/initech/skill-02', '/repo/api/v1/skills/globex/skill-01']);

    const feed = JSON.parse(await fs.readFile(join(out, 'feed.json'), 'utf8')) as Record<string, unknown> & { items: Array<Record<string, unknown>> };
    // JSON Feed 1.1's required fields: version, title, items; each item an id and content.
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(typeof feed.title).toBe('string');
    expect(feed.feed_url).toBe('/repo/feed.json');
    expect(feed.home_page_url).toBe('/repo/');
    for (const item of feed.items) {
      expect(typeof item.id).toBe('string');
      expect(typeof item.content_text === 'string' || typeof item.content_html === 'string').toBe(true);
    }
    expect(new Set(feed.items.map((i) => i.id)).size).toBe(feed.items.length);
    expect(feed.items.map((i) => [i.title, i.url, i.external_url, i.date_published])).toEqual([
      ['Skill 2 (initech/skill-02) updated', '/repo/#/skills/initech/skill-02', '/repo/api/v1/skills/initech/skill-02', iso(2)],
      ['Tags <b> & "quotes" (globex/skill-01) added', '/repo/#/skills/globex/skill-01', '/repo/api/v1/skills/globex/skill-01', iso(1)],
    ]);
    // The Atom id and the JSON Feed id of an item are one id.
    expect(feed.items.map((i) => i.id)).toEqual(texts.get('feed/entry/id'));
  });

  it('holds the latest 50 skills', async () => {
    const many = await createContentFolder({ skills: 60 });
    try {
      await build(1, { contentDir: many.dir, site: true });
      const feed = JSON.parse(await fs.readFile(join(out, 'feed.json'), 'utf8')) as { items: unknown[] };
      expect(feed.items).toHaveLength(50);
      const manifest = JSON.parse(await fs.readFile(join(out, MANIFEST_PATH), 'utf8')) as Manifest;
      expect(manifest.changes).toBe(60);
    } finally {
      await many.remove();
    }
  });
});
