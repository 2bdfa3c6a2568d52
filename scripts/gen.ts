/**
 * Synthetic content generator: `npm run gen -- --count N --out DIR [--seed S] [--force]`.
 *
 * Writes a content folder in the real format (README "Content format") with N skills whose
 * statistics look like a public skills directory: SKILL.md sizes log-normal (median ~7 KB,
 * p90 ~15 KB, max ~70 KB), descriptions of 30–1000 characters, Zipf-distributed real English and
 * technical vocabulary with per-category topic words, code blocks with identifiers (the long tail
 * of rare terms), star counts heavily skewed, owners with several repos (preferential attachment),
 * categories and platforms spread unevenly, dates 2023–2026.
 *
 * Deterministic: every skill draws from its own PRNG seeded by (seed, index), owners by (seed),
 * so the same arguments give byte-identical output. Files are written as each skill is made, so
 * memory stays flat at any count.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Rng, Zipf } from './gen-random.ts';
import { generatedTaxonomy, readTaxonomy } from './gen-taxonomy.ts';
import {
  ACRONYMS,
  SHELL_TOOLS,
  body,
  capitalize,
  createVoice,
  description,
  identWord,
  sentence,
  titleWord,
  topicWord,
  yamlFolded,
  yamlScalar,
  type Voice,
} from './gen-text.ts';
import { FAMILY_NAMES, GIVEN_NAMES, NAME_OBJECTS, NAME_ROLES, ORG_STEMS, ORG_SUFFIXES } from './gen-words.ts';

/** Options of `generate`. */
export interface GenOptions {
  /** Number of skills. */
  count: number;
  /** Output content folder; must be missing or empty unless `force`. */
  out: string;
  /** PRNG seed (default `1`). */
  seed?: string;
  /** Replace an existing non-empty output folder. */
  force?: boolean;
  /** Where to copy categories.json and platforms.json from (default: the repository's content/). */
  templateDir?: string;
  /** Progress lines (default: none). */
  progress?: (line: string) => void;
}

/** What `generate` wrote. */
export interface GenSummary {
  count: number;
  owners: number;
  files: number;
  /** Total bytes of every file written. */
  bytes: number;
  /** SKILL.md sizes in bytes. */
  skillMd: { median: number; p90: number; max: number; total: number };
  /** Description lengths in characters. */
  description: { median: number; max: number };
  /** Where categories.json / platforms.json came from: `copied` from templateDir or `generated`. */
  taxonomy: 'copied' | 'generated';
  ms: number;
}

/** The part of a categories.json entry the generator reads. */
interface CategoryLike {
  slug: string;
  subcategories?: { slug: string }[];
}

const REPO_CONTENT = fileURLToPath(new URL('../content/', import.meta.url));

/** Start and end of the dates the generator uses (createdAt ≥ START, everything ≤ END). */
const START = Date.UTC(2023, 0, 1);
const CREATED_END = Date.UTC(2025, 11, 31);
const END = Date.UTC(2026, 2, 31);

/** Most skills one owner gets (real directories have owners with a few hundred). */
const MAX_REPOS = 150;

/** Preferred relative frequency of top-level categories (most common first). */
const CATEGORY_POPULARITY = [
  'development', 'ai-ml', 'devops', 'frontend', 'backend', 'data', 'productivity', 'writing',
  'security', 'testing', 'cloud', 'marketing', 'api', 'database', 'design', 'research', 'mobile',
  'education', 'management', 'support', 'sales', 'finance', 'legal', 'hr',
];

/** Probability that a skill supports each platform (others 0.15); at least one is always set. */
const PLATFORM_ODDS: Record<string, number> = { 'claude-code': 0.9, codex: 0.45, chatgpt: 0.3 };

/** Licenses by frequency (repeats weight the draw). */
const LICENSES = ['MIT', 'MIT', 'MIT', 'Apache-2.0', 'Apache-2.0', 'BSD-3-Clause', 'GPL-3.0', 'MPL-2.0', 'ISC', 'CC-BY-4.0', 'Unlicense'];

/** ISO 8601 UTC timestamp without milliseconds (`2024-03-01T10:00:00Z`), as GitHub writes them. */
function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** An owner: login (folder name), author shown on its skills, and the repos it has so far. */
interface Owner {
  login: string;
  author: string;
  avatar: string;
  repos: Set<string>;
}

/** A new owner: an organization (`cloudsmith-io`) or a person (`maria-gonzalez`), unique case-insensitively. */
function makeOwner(rng: Rng, index: number, taken: Set<string>): Owner {
  let login: string;
  let author: string;
  if (rng.chance(0.45)) {
    const stem = rng.pick(ORG_STEMS) + (rng.chance(0.5) ? rng.pick(ORG_STEMS) : '');
    const suffix = rng.chance(0.7) ? rng.pick(ORG_SUFFIXES) : '';
    login = suffix ? `${stem}${rng.chance(0.7) ? '-' : ''}${suffix}` : stem;
    author = login.split('-').map((p) => (ACRONYMS.has(p) || p.length <= 2 ? p.toUpperCase() : capitalize(p))).join(' ');
  } else {
    const given = rng.pick(GIVEN_NAMES);
    const family = rng.pick(FAMILY_NAMES);
    author = `${given} ${family}`;
    const style = rng.int(4);
    login =
      style === 0 ? `${given}-${family}`.toLowerCase()
      : style === 1 ? `${given}${family}`
      : style === 2 ? `${given.charAt(0)}${family}`.toLowerCase()
      : `${given.toLowerCase()}${rng.range(1, 99)}`;
  }
  let unique = login;
  for (let n = 2; taken.has(unique.toLowerCase()); n++) unique = `${login}${n}`;
  taken.add(unique.toLowerCase());
  const id = 1000 + ((index * 7919) % 90_000_000);
  return { login: unique, author, avatar: `https://avatars.githubusercontent.com/u/${id}?v=4`, repos: new Set() };
}

/** The `p` quantile of ascending `sorted` (0 when empty). */
function percentile(sorted: Int32Array, p: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number);
}

/** Name parts by popularity, so that some names recur ("Plan Reviewer") as they do in real directories. */
const OBJECT_ZIPF = new Zipf(NAME_OBJECTS.length, 0.9);
const ROLE_ZIPF = new Zipf(NAME_ROLES.length, 0.9);

/** What every skill draws from: the category tree ordered by popularity and the platform ids. */
interface Corpus {
  catOrder: CategoryLike[];
  catZipf: Zipf;
  platformIds: string[];
}

/** One generated skill: its files (path relative to the skill folder → text) and sizes for the summary. */
interface GeneratedSkill {
  repo: string;
  files: Array<[string, string]>;
  mdBytes: number;
  descLength: number;
}

/** Categories of one skill: a primary one by popularity (often a subcategory), sometimes one or two more. */
function pickCategories(rng: Rng, corpus: Corpus): { slugs: string[]; topicSlugs: string[] } {
  const slugs = new Set<string>();
  const tops: string[] = [];
  const nCats = rng.chance(0.08) ? 3 : rng.chance(0.35) ? 2 : 1;
  for (let c = 0; c < nCats; c++) {
    const cat = corpus.catOrder[corpus.catZipf.draw(rng)] as CategoryLike;
    tops.push(cat.slug);
    const subs = cat.subcategories ?? [];
    slugs.add(subs.length > 0 && rng.chance(0.55) ? rng.pick(subs).slug : cat.slug);
  }
  return { slugs: [...slugs].sort(), topicSlugs: [...new Set(tops)] };
}

/** Name words: "Terraform Plan Reviewer", "Kubernetes Doctor", "Invoice Reconciler", … and the topic word used. */
function pickName(v: Voice): { words: string[]; topic: string } {
  const rng = v.rng;
  const topic = topicWord(v, 0);
  const shape = rng.int(10);
  const object = NAME_OBJECTS[OBJECT_ZIPF.draw(rng)] as string;
  const role = NAME_ROLES[ROLE_ZIPF.draw(rng)] as string;
  const words =
    shape < 4 ? [titleWord(topic), object, role]
    : shape < 6 ? [titleWord(topic), role]
    : shape < 8 ? [object, role]
    : [titleWord(topic), titleWord(rng.pick(v.topics[v.topics.length - 1] as string[])), role];
  return { words, topic };
}

/** SKILL.md front matter (name and description always, the rest as real skills write it) and its license. */
function frontMatter(v: Voice, owner: Owner, name: string, desc: string, topic: string): { head: string; license?: string } {
  const rng = v.rng;
  const fm: string[] = ['---', `name: ${yamlScalar(name)}`];
  fm.push(`description: ${desc.length > 300 && rng.chance(0.3) ? yamlFolded(desc) : yamlScalar(desc)}`);
  const license = rng.chance(0.6) ? rng.pick(LICENSES) : undefined;
  if (license) fm.push(`license: ${license}`);
  if (rng.chance(0.3)) fm.push(`version: ${rng.range(0, 3)}.${rng.range(0, 12)}.${rng.range(0, 20)}`);
  if (rng.chance(0.25)) fm.push(`allowed-tools: ${['Read', 'Grep', `Bash(${rng.pick(SHELL_TOOLS)}:*)`, 'Write', 'Edit'].slice(0, rng.range(1, 5)).join(', ')}`);
  if (rng.chance(0.2)) {
    fm.push('metadata:', `  maintainer: ${owner.login}`, `  tags: [${[topic, ...Array.from({ length: rng.range(1, 4) }, () => identWord(v))].join(', ')}]`);
    // A YAML date inside metadata, as real skills have (the build emits it as an ISO string).
    if (rng.chance(0.25)) fm.push(`  reviewed: ${isoSeconds(START + rng.next() * (END - START)).slice(0, 10)}`);
  }
  fm.push('---');
  return { head: `${fm.join('\n')}\n`, ...(license ? { license } : {}) };
}

/** Skill number `i` of owner `owner` (draws only from its own PRNG, so skills are independent). */
function makeSkill(seed: string, i: number, owner: Owner, corpus: Corpus): GeneratedSkill {
  const rng = new Rng(`${seed}:skill:${i}`);
  const { slugs, topicSlugs } = pickCategories(rng, corpus);
  const voice = createVoice(rng, topicSlugs);
  const { words: nameWords, topic } = pickName(voice);
  const slugBase = nameWords.join('-').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  // A quarter of real skills use their kebab-case folder name as display name.
  const name = rng.chance(0.25) ? slugBase : nameWords.join(' ');
  let repoBase = slugBase;
  if (rng.chance(0.1)) repoBase = `${repoBase}-skill`;
  else if (rng.chance(0.05)) repoBase = `claude-${repoBase}`;
  let repo = repoBase;
  for (let n = 2; owner.repos.has(repo); n++) repo = `${repoBase}-${n}`;
  owner.repos.add(repo);

  const verb = capitalize(rng.pick(['review', 'generate', 'audit', 'draft', 'analyze', 'fix', 'plan', 'summarize', 'check', 'write', 'optimize', 'explain']));
  const lead = `${verb} ${nameWords.slice(0, -1).join(' ').toLowerCase()} ${rng.pick(['work', 'files', 'changes', 'documents', 'reports', 'tasks', 'projects'])}.`;
  const desc = description(voice, lead, Math.max(30, Math.min(1000, Math.round(rng.logNormal(120, 0.8)))));
  const { head, license: fmLicense } = frontMatter(voice, owner, name, desc, topic);
  const target = Math.max(400, Math.min(69_000, Math.round(rng.logNormal(6700, 0.595))));
  const md = head + body(voice, name, desc, target - head.length);

  // Repository metadata: stars log-normal (median ~12, a few over 100k), dates 2023–2026.
  const stars = rng.chance(0.08) ? 0 : Math.min(300_000, Math.floor(rng.logNormal(12, 2.2)));
  const created = START + rng.next() * (CREATED_END - START);
  const updated = created + rng.next() * (END - created);
  const pushed = created + rng.next() * (updated - created);
  const platforms = corpus.platformIds.filter((p) => rng.chance(PLATFORM_ODDS[p] ?? 0.15));
  if (platforms.length === 0) platforms.push(corpus.platformIds.includes('claude-code') ? 'claude-code' : (corpus.platformIds[0] as string));
  const skillJson: Record<string, unknown> = {
    stars,
    forks: Math.floor(stars * (0.03 + rng.next() * 0.15)),
    watchers: Math.floor(stars * (0.01 + rng.next() * 0.04)) + rng.int(3),
    openIssues: Math.floor(Math.sqrt(stars) * rng.next() * 0.8),
    createdAt: isoSeconds(created),
    updatedAt: isoSeconds(updated),
    pushedAt: isoSeconds(pushed),
    author: { name: owner.author, avatar: owner.avatar },
    categories: slugs,
    platforms: platforms.sort(),
  };
  // Optional overrides, as some real repositories set them.
  if (rng.chance(0.04)) skillJson.name = nameWords.join(' ');
  if (rng.chance(0.04)) skillJson.description = `${desc} ${sentence(voice, 8, 20)}`;
  if (!fmLicense || rng.chance(0.1)) skillJson.license = rng.chance(0.8) ? rng.pick(LICENSES) : undefined;
  if (rng.chance(0.05)) {
    const p = rng.pick(platforms);
    skillJson.installCommands = { [p]: `npx skills add ${owner.login}/${repo} --agent ${p}` };
  }

  const files: Array<[string, string]> = [
    ['SKILL.md', md],
    ['skill.json', `${JSON.stringify(skillJson, null, 2)}\n`],
  ];
  if (rng.chance(0.85)) files.push(['stats.json', `${JSON.stringify(stats(rng, stars, created, updated), null, 2)}\n`]);
  if (rng.chance(0.2)) {
    const marketplace = {
      name: repo,
      owner: { name: owner.author },
      metadata: { description: desc.slice(0, 120), version: `${rng.range(0, 2)}.${rng.range(0, 9)}.0` },
      plugins: [{ name: repo, source: './', description: desc.slice(0, 200), skills: ['./'] }],
    };
    files.push(['.claude-plugin/marketplace.json', `${JSON.stringify(marketplace, null, 2)}\n`]);
  }
  return { repo, files, mdBytes: Buffer.byteLength(md), descLength: desc.length };
}

/**
 * Generate `options.count` skills into `options.out`; returns what was written. Files are written
 * asynchronously (a few hundred skills in flight at most) so the disk works while the next skills
 * are made.
 */
export async function generate(options: GenOptions): Promise<GenSummary> {
  const started = performance.now();
  const count = options.count;
  if (!Number.isInteger(count) || count < 0) throw new Error(`--count: expected an integer ≥ 0, got ${count}`);
  const seed = options.seed ?? '1';
  const out = resolve(options.out);
  if (existsSync(out) && readdirSync(out).length > 0) {
    if (!options.force) throw new Error(`${out} is not empty: pass --force to replace it`);
    rmSync(out, { recursive: true, force: true });
  }
  mkdirSync(join(out, 'skills'), { recursive: true });

  const copied = readTaxonomy(options.templateDir ?? REPO_CONTENT);
  const taxonomy = copied ?? generatedTaxonomy();
  writeFileSync(join(out, 'categories.json'), taxonomy.categories);
  writeFileSync(join(out, 'platforms.json'), taxonomy.platforms);
  let bytes = Buffer.byteLength(taxonomy.categories) + Buffer.byteLength(taxonomy.platforms);
  let files = 2;

  const cats = (JSON.parse(taxonomy.categories) as { categories: CategoryLike[] }).categories;
  // Popular categories first; any the spec does not name go last.
  const catOrder = [...cats].sort((a, b) => rank(a.slug) - rank(b.slug) || (a.slug < b.slug ? -1 : 1));
  const corpus: Corpus = {
    catOrder,
    catZipf: new Zipf(catOrder.length, 0.8),
    platformIds: (JSON.parse(taxonomy.platforms) as { platforms: { id: string }[] }).platforms.map((p) => p.id),
  };

  const ownerRng = new Rng(`${seed}:owners`);
  const owners: Owner[] = [];
  const ownerOf = new Int32Array(count);
  const takenLogins = new Set<string>();
  const mdSizes = new Int32Array(count);
  const descLengths = new Int32Array(count);
  const pending: Promise<void>[] = [];

  for (let i = 0; i < count; i++) {
    // Preferential attachment: a new owner, or the owner of a random earlier skill (capped at
    // MAX_REPOS, so the first owners do not swallow a tenth of the corpus).
    const earlier = i === 0 || ownerRng.chance(0.35) ? -1 : (ownerOf[ownerRng.int(i)] as number);
    if (earlier < 0 || (owners[earlier] as Owner).repos.size >= MAX_REPOS) {
      ownerOf[i] = owners.length;
      owners.push(makeOwner(ownerRng, owners.length, takenLogins));
    } else {
      ownerOf[i] = earlier;
    }
    const owner = owners[ownerOf[i] as number] as Owner;
    const skill = makeSkill(seed, i, owner, corpus);
    mdSizes[i] = skill.mdBytes;
    descLengths[i] = skill.descLength;
    const dir = join(out, 'skills', owner.login, skill.repo);
    for (const [, text] of skill.files) bytes += Buffer.byteLength(text);
    files += skill.files.length;
    pending.push(writeSkill(dir, skill.files));
    if (pending.length >= 256) await Promise.all(pending.splice(0));
    if (options.progress && (i + 1) % 10_000 === 0) options.progress(`gen: ${i + 1}/${count} skills`);
  }

  await Promise.all(pending);
  const sortedMd = mdSizes.slice().sort();
  const sortedDesc = descLengths.slice().sort();
  let mdTotal = 0;
  for (const s of mdSizes) mdTotal += s;
  return {
    count,
    owners: owners.length,
    files,
    bytes,
    skillMd: { median: percentile(sortedMd, 0.5), p90: percentile(sortedMd, 0.9), max: sortedMd[sortedMd.length - 1] ?? 0, total: mdTotal },
    description: { median: percentile(sortedDesc, 0.5), max: sortedDesc[sortedDesc.length - 1] ?? 0 },
    taxonomy: copied ? 'copied' : 'generated',
    ms: Math.round(performance.now() - started),
  };
}

/** Write one skill's files into `dir`, creating the folders they need. */
async function writeSkill(dir: string, files: Array<[string, string]>): Promise<void> {
  for (const [path, text] of files) {
    const file = join(dir, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

function rank(slug: string): number {
  const i = CATEGORY_POPULARITY.indexOf(slug);
  return i < 0 ? CATEGORY_POPULARITY.length : i;
}

/** Usage statistics consistent with the star count: a monthly star history growing to `stars`. */
function stats(rng: Rng, stars: number, created: number, updated: number): Record<string, unknown> {
  const views = Math.floor(stars * (3 + rng.next() * 37) + rng.logNormal(50, 1.5));
  const installs = Math.floor(views * (0.02 + rng.next() * 0.28));
  const starHistory: { date: string; stars: number }[] = [];
  if (rng.chance(0.9)) {
    const first = new Date(created);
    const last = new Date(updated);
    const months = (last.getUTCFullYear() - first.getUTCFullYear()) * 12 + last.getUTCMonth() - first.getUTCMonth();
    const stepMonths = months > 24 ? 2 : 1;
    const shape = 0.5 + rng.next() * 2;
    for (let m = 0; m <= months; m += stepMonths) {
      const d = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + m + 1, 1));
      const t = months === 0 ? 1 : m / months;
      starHistory.push({ date: d.toISOString().slice(0, 10), stars: Math.round(stars * Math.pow(t, shape)) });
    }
  }
  return { views, installs, favorites: Math.floor(installs * (0.05 + rng.next() * 0.35)), starHistory };
}

const USAGE = `usage: npm run gen -- [--count N] [--out DIR] [--seed S] [--force]
  --count N   skills to generate (default 1000)
  --out DIR   content folder to write (default bench-out/content-N); a folder with files in it needs --force
  --seed S    seed of the generator (default 1): same arguments, byte-identical output
  --force     replace DIR if it has files`;

/** The command line, or a usage error (exit 2) naming what is wrong. */
function parseCommandLine(argv: string[]): { count: number; out: string; seed: string; force: boolean } | undefined {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      count: { type: 'string', default: '1000' },
      out: { type: 'string' },
      seed: { type: 'string', default: '1' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return undefined;
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1) throw new Error(`--count: expected a positive integer, got ${JSON.stringify(values.count)}`);
  return { count, out: values.out ?? `bench-out/content-${count}`, seed: values.seed, force: values.force };
}

/** Human-readable byte count. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

async function main(): Promise<void> {
  let args: ReturnType<typeof parseCommandLine>;
  try {
    args = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    // node:util parseArgs names the unknown option or the missing value; ours names the bad value.
    console.error(`gen: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (args === undefined) {
    console.log(USAGE);
    return;
  }
  const { count, out } = args;
  const summary = await generate({ count, out, seed: args.seed, force: args.force, progress: (line) => process.stderr.write(`${line}\n`) });
  const s = summary;
  console.log(
    [
      `generated ${s.count} skills by ${s.owners} owners into ${out} (${s.taxonomy} categories/platforms)`,
      `files: ${s.files}, bytes: ${formatBytes(s.bytes)}`,
      `SKILL.md: median ${formatBytes(s.skillMd.median)}, p90 ${formatBytes(s.skillMd.p90)}, max ${formatBytes(s.skillMd.max)}, total ${formatBytes(s.skillMd.total)}`,
      `description: median ${s.description.median} chars, max ${s.description.max} chars`,
      `time: ${(s.ms / 1000).toFixed(1)} s`,
    ].join('\n'),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(`gen: ${(err as Error).message}`);
    process.exit(1);
  });
}
