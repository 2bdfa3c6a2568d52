/**
 * `npm run bench:fast-paths [-- --count 10000]`: what each hand-written fast path buys over the
 * library it stands beside, measured alone on the same inputs (issue: fast paths measured or
 * removed). On synthetic content (`npm run gen`, generated when missing):
 *
 * - front matter: `parseFrontMatter` (the `simpleMapping` fast path, `yaml` for the rest)
 *   against `parseYaml` (`yaml` alone) on every SKILL.md's block;
 * - timestamps of skill.json: `isUtcTimestamp` (its arithmetic `isDay` date check) against zod's
 *   ISO check plus a Date round trip;
 * - query parameters: `ParamReader` (src/params.ts, what the runtime uses) against the zod
 *   schemas of src/query-schemas.ts on the same parameter sets, and the bytes each adds to a
 *   minified bundle (what a browser or a Worker downloads);
 * - the output record of an incremental build (eight paths a skill): its file's lines held as
 *   bytes with a hash table (`OutputRecord` over builder/record-lines.ts) against a `Map` of
 *   strings read line by line, each read and then used as a one-change build uses it (every path
 *   kept: its key checked, claimed, set in the new output's record; then the paths gone).
 *
 * Each timing is the median of `--runs` passes over all inputs, after one warm-up pass.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { loadContent } from '../builder/load-content.ts';
import { parseFrontMatter, parseYaml, simpleMapping } from '../src/text/front-matter.ts';
import { isUtcTimestamp } from '../builder/content-schemas.ts';
import { z } from 'zod';
import { readSearchQuery, readAutocompleteQuery } from '../src/answers/search-query.ts';
import { readListQuery } from '../src/lists.ts';
import { AutocompleteParams, ListParams, SearchParams } from '../src/query-schemas.ts';
import { generate } from './gen.ts';
import { fileKey, OutputRecord } from '../builder/output-record.ts';
import { RecordLines } from '../builder/record-lines.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    content: { type: 'string' },
  },
  strict: true,
});
const count = Number(values.count);
const runs = Number(values.runs);
const content = values.content ?? join('bench-out', 'quality', `content-${count}`);
if (!existsSync(join(content, 'skills'))) {
  console.error(`generating ${count} skills into ${content}…`);
  await generate({ count, out: content, force: true });
}

const loaded = await loadContent(content, { quality: false });
const skills = loaded.content.skills;
const manifest = {
  categories: [...new Set(loaded.content.categories.flatMap((c) => [c.slug, ...c.subcategories.map((s) => s.slug)]))],
  platforms: loaded.content.platforms.map((p) => p.id),
};

const read = (path: string): string => readFileSync(join(content, path), 'utf8');
const blocks = skills.map((s) => {
  const raw = read(join(s.dir, 'SKILL.md'));
  return raw.slice(4, raw.indexOf('\n---', 4));
});
const sources = skills.map((s) => read(join(s.dir, 'SKILL.md')));
const skillJsons = skills.map((s) => JSON.parse(read(join(s.dir, 'skill.json'))) as unknown);

function median(fn: () => void): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[times.length >> 1]!;
}

const rows: string[][] = [];
const add = (what: string, ours: number, library: number, note: string): void => {
  rows.push([what, `${ours.toFixed(0)} ms`, `${library.toFixed(0)} ms`, `${(library / ours).toFixed(1)}×`, note]);
};

// Front matter.
const fast = blocks.filter((b) => simpleMapping(b) !== undefined).length;
add(
  `front matter of ${blocks.length.toLocaleString('en')} SKILL.md`,
  median(() => sources.forEach((s) => parseFrontMatter(s))),
  median(() => blocks.forEach((b) => parseYaml(b))),
  `ours: split + fast path (${fast.toLocaleString('en')} of them take it), library: \`yaml\` on the block alone`,
);

// Timestamps: the arithmetic day check (`isDay` inside `isUtcTimestamp`) against zod's ISO check
// plus the Date round trip it would need to refuse `2025-02-30`.
const stamps = skillJsons.flatMap((j) => ['createdAt', 'updatedAt', 'pushedAt'].map((k) => String((j as Record<string, unknown>)[k])));
const isoDatetime = z.iso.datetime();
add(
  `${stamps.length.toLocaleString('en')} timestamps`,
  median(() => stamps.forEach((t) => isUtcTimestamp(t))),
  median(() => stamps.forEach((t) => isoDatetime.safeParse(t).success && new Date(t).toISOString().slice(0, 10) === t.slice(0, 10))),
  '`isUtcTimestamp` (regular expression + `isDay`) vs `z.iso.datetime()` + a Date round trip',
);

// Query parameters: what real requests look like, one set per skill.
const paramSets = skills.map((s, i) => {
  const category = s.categories[0];
  return [
    new URLSearchParams({ q: s.name.split(' ')[0] ?? 'x', page: String(1 + (i % 3)), limit: '20', ...(category === undefined ? {} : { category }) }),
    new URLSearchParams({ sort: i % 2 === 0 ? 'stars' : 'name', page: '2' }),
    new URLSearchParams({ q: s.name.slice(0, 4), limit: '5' }),
  ] as const;
});
const zodNumbers = (params: URLSearchParams): Record<string, unknown> =>
  Object.fromEntries([...params].map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v]));
add(
  `${(paramSets.length * 3).toLocaleString('en')} query strings`,
  median(() =>
    paramSets.forEach(([search, list, auto]) => {
      readSearchQuery(search, manifest);
      readListQuery(list, null);
      readAutocompleteQuery(auto);
    }),
  ),
  median(() =>
    paramSets.forEach(([search, list, auto]) => {
      SearchParams.safeParse(zodNumbers(search));
      ListParams.safeParse(zodNumbers(list));
      AutocompleteParams.safeParse(zodNumbers(auto));
    }),
  ),
  'ParamReader vs the zod schemas (numbers converted first)',
);

// The output record: eight paths a skill, as the record file has them.
const recordPaths = skills.flatMap((s, i) => [
  ...['files/SKILL.md', 'archive.tar.gz', 'content.json', 'stats.json', 'detail.json'].map((leaf) => `api/v1/skills/${s.id}/${leaf}`),
  `skills/${s.id}/.well-known/agent-skills/index.json`,
  `api/v1/skills/_search/q.${i.toString(16).padStart(16, '0')}.json`,
  `api/v1/categories/${s.categories[0] ?? 'none'}/skills/stars/${i}.json`,
]);
const recordKeys = recordPaths.map((path) => fileKey(path));
const recordBody = Buffer.from(recordPaths.map((path, i) => `${recordKeys[i]} ${path}\n`).join(''), 'utf8');
/** The paths as a build makes them: new strings each pass, whose hashes no Map has seen yet. */
const freshPaths = (): string[] => recordPaths.map((path) => `${path.slice(0, 3)}${path.slice(3)}`);
/**
 * Keep every path as `OutputWriter.keep` keeps a skill's files (builder/output.ts): the eight
 * paths' keys checked first, then each path claimed (not in the new record yet) and set.
 */
const keepAll = (paths: readonly string[], hasKey: (path: string, key: string) => boolean, has: (path: string) => boolean, set: (path: string, key: string) => void): void => {
  for (let at = 0; at < paths.length; at += 8) {
    let all = true;
    for (let i = at; i < at + 8; i++) all &&= hasKey(paths[i]!, recordKeys[i]!);
    if (!all) continue;
    for (let i = at; i < at + 8; i++) if (!has(paths[i]!)) set(paths[i]!, recordKeys[i]!);
  }
};
let gone = 0;
add(
  `output record of ${recordPaths.length.toLocaleString('en')} paths`,
  median(() => {
    const paths = freshPaths();
    const previous = new OutputRecord(RecordLines.parse(recordBody)!, true);
    const next = previous.emptyLike();
    keepAll(paths, (path, key) => previous.hasKey(path, key), (path) => next.has(path), (path, key) => next.set(path, key));
    gone = [...previous.missingFrom(next)].length;
  }),
  median(() => {
    const paths = freshPaths();
    const previous = new Map<string, string>();
    for (let at = 0; at < recordBody.length; ) {
      const end = recordBody.indexOf(0x0a, at);
      const line = recordBody.toString('utf8', at, end);
      at = end + 1;
      const second = line.indexOf(' ', line.indexOf(' ') + 1);
      previous.set(line.slice(second + 1), line.slice(0, second));
    }
    const next = new Map<string, string>();
    keepAll(paths, (path, key) => previous.get(path) === key, (path) => next.has(path), (path, key) => next.set(path, key));
    gone = [...previous.keys()].filter((path) => !next.has(path)).length;
  }),
  'read, then every path kept and the gone ones found: the lines as bytes with a hash table and marks (`OutputRecord`) vs a `Map` of strings read line by line and a second one for the new output',
);
if (gone !== 0) throw new Error(`the output record bench kept ${recordPaths.length - gone} of ${recordPaths.length} paths`);

// Bundle bytes of each way to read parameters.
async function bundleBytes(contents: string): Promise<{ min: number; gzip: number }> {
  const result = await build({ stdin: { contents, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, minify: true, write: false, format: 'esm', platform: 'browser', logLevel: 'silent' });
  const bytes = result.outputFiles[0]!.contents;
  return { min: bytes.length, gzip: gzipSync(bytes).length };
}
const ours = await bundleBytes(`export { ParamReader } from './src/params.ts';`);
const zod = await bundleBytes(`export { SearchParams, ListParams, AutocompleteParams } from './src/query-schemas.ts';`);

const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;
console.log(
  [
    `<!-- bench:fast-paths count=${count} -->`,
    `### Fast paths at ${count.toLocaleString('en')} skills (median of ${runs} passes)`,
    '',
    '| inputs | ours | library alone | library / ours | what |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    `Bundled and minified for a browser: src/params.ts ${kib(ours.min)} (${kib(ours.gzip)} gzip); the zod schemas of src/query-schemas.ts ${kib(zod.min)} (${kib(zod.gzip)} gzip).`,
    '<!-- /bench:fast-paths -->',
  ].join('\n'),
);
