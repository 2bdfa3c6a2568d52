/**
 * Zod schemas of the JSON files of a content folder (README "Content format", docs/decisions.md §2):
 * categories.json, platforms.json, and per skill skill.json and stats.json. Objects are strict
 * (an unknown field is reported, so a typo never silently drops data), counts are integers ≥ 0,
 * timestamps ISO 8601 UTC (normalized to `toISOString()` form so they compare as strings).
 * Checks that span several fields live in the `*Problems` functions below the schemas.
 */
import { z } from 'zod';
import { DEFAULT_LOCALE, LOCALE_RE, SLUG_RE } from '../src/paths.ts';
import { MAX_NAME_LENGTH, bidiProblem } from '../src/text/front-matter.ts';
import type { Problem } from './model.ts';
import { fieldPath, problem, quote } from './problems.ts';

const TEXT_ERROR = 'expected a non-empty string';
const COUNT_ERROR = 'expected integer ≥ 0';
const SLUG_ERROR = 'expected a slug of a–z, 0–9 and single hyphens';
const TIMESTAMP_ERROR = 'expected an ISO 8601 UTC timestamp such as 2025-01-31T12:00:00Z';
const DATE_ERROR = 'expected a calendar date YYYY-MM-DD';
const URL_ERROR = 'expected an https: URL';

/** Non-empty text (surrounding whitespace trimmed). */
const Text = z.string({ error: TEXT_ERROR }).trim().min(1, { error: TEXT_ERROR });
/** Integer ≥ 0 (a safe integer: `1e20` is too large to count exactly). */
const Count = z
  .int({ error: (issue) => (typeof issue.input === 'number' && Number.isInteger(issue.input) ? `the number is too large (at most ${Number.MAX_SAFE_INTEGER})` : COUNT_ERROR) })
  .min(0, { error: COUNT_ERROR });
/** Most categories, and most platforms, of one skill. */
export const MAX_PER_SKILL = 16;
/** Most translation locales of one category. */
export const MAX_LOCALES = 64;
/** One line of printable text: no line breaks, controls or bidirectional controls. */
export function isOneLine(value: string): boolean {
  return !/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(value);
}
/** A display name or description without bidirectional controls (`bidiProblem`). */
const noBidi = (value: string): boolean => bidiProblem(value) === undefined;
const bidiError = (issue: { input?: unknown }): string => bidiProblem(String(issue.input)) ?? 'bidirectional control characters';
/** Category slug or platform id. */
const Slug = z.string({ error: SLUG_ERROR }).regex(SLUG_RE, { error: SLUG_ERROR });

/** `2025-01-31T12:00:00Z` (fraction optional, `Z` required) naming a real instant. */
export function isUtcTimestamp(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?Z$/.exec(value);
  return match !== null && isDay(match[1]!, match[2]!, match[3]!) && +match[4]! < 24 && +match[5]! < 60 && +match[6]! < 60;
}

/** `YYYY-MM-DD` naming a real day. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match !== null && isDay(match[1]!, match[2]!, match[3]!);
}

/**
 * Whether year, month and day (digits) name a real day of the proleptic Gregorian calendar, as
 * `Date` counts: arithmetic, because parsing and formatting a `Date` per value is a large part of
 * loading (bench:fast-paths measures it).
 */
function isDay(year: string, month: string, day: string): boolean {
  const y = +year;
  const m = +month;
  const d = +day;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = m === 2 ? (leap ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
  return m >= 1 && m <= 12 && d >= 1 && d <= days;
}

/** An absolute `https:` URL with a host and nothing a browser would silently strip. */
export function isHttpsUrl(value: string): boolean {
  // The URL parser silently drops tabs and newlines: check the raw text first.
  if (!/^[^\s\u0000-\u001f\u007f]+$/.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.hostname !== '';
}

const Timestamp = z
  .string({ error: TIMESTAMP_ERROR })
  .refine(isUtcTimestamp, { error: TIMESTAMP_ERROR })
  .transform((value) => new Date(value).toISOString());
const CalendarDate = z.string({ error: DATE_ERROR }).refine(isCalendarDate, { error: DATE_ERROR });
const HttpsUrl = z.string({ error: URL_ERROR }).refine(isHttpsUrl, { error: URL_ERROR });

const Translations = z
  .record(
    z
      .string()
      .regex(LOCALE_RE, { error: 'expected a locale code such as de or zh-TW' })
      .refine((locale) => locale !== DEFAULT_LOCALE, { error: 'en is the default: use name and description' }),
    z.strictObject({ name: Text.optional(), description: Text.optional() }, { error: 'expected { name, description }' }),
    { error: 'expected an object of locale → { name, description }' },
  )
  .refine((translations) => Object.keys(translations).length <= MAX_LOCALES, { error: `at most ${MAX_LOCALES} locales` })
  .superRefine((translations, ctx) => {
    // `de` and `DE` would be the same output file on a case-insensitive disk.
    const seen = new Map<string, string>();
    for (const locale of Object.keys(translations)) {
      const other = seen.get(locale.toLowerCase());
      if (other !== undefined) ctx.addIssue({ code: 'custom', path: [locale], message: `same locale as ${JSON.stringify(other)} (locales are case-insensitive)` });
      seen.set(locale.toLowerCase(), locale);
    }
  })
  .default({});

const Subcategory = z.strictObject(
  { slug: Slug, name: Text, description: Text, translations: Translations },
  { error: 'expected a subcategory object' },
);

const Category = z.strictObject(
  {
    slug: Slug,
    icon: Text,
    group: z.enum(['technical', 'professional'], { error: 'expected "technical" or "professional"' }),
    name: Text,
    description: Text,
    translations: Translations,
    subcategories: z.array(Subcategory, { error: 'expected a list of subcategories' }).default([]),
  },
  { error: 'expected a category object' },
);

/** categories.json: `{ categories: [...] }`, kept in file order. */
export const CategoriesFile = z.strictObject(
  { categories: z.array(Category, { error: 'expected a list of categories' }) },
  { error: 'expected an object { categories: [...] }' },
);

/** Placeholders an install template may use. */
const PLACEHOLDERS = ['owner', 'repo', 'id', 'name'];

/** Placeholders of `template` that are not `{owner}`, `{repo}`, `{id}` or `{name}`. */
function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!).filter((name) => !PLACEHOLDERS.includes(name));
}

const Platform = z.strictObject(
  {
    id: Slug,
    name: Text,
    install: Text.refine((t) => unknownPlaceholders(t).length === 0, {
      error: (issue) =>
        `unknown placeholder ${unknownPlaceholders(String(issue.input)).map((p) => `{${p}}`).join(', ')}: use {owner}, {repo}, {id} or {name}`,
    }),
  },
  { error: 'expected a platform object' },
);

/** platforms.json: `{ platforms: [...] }`, at least one, kept in file order. */
export const PlatformsFile = z.strictObject(
  { platforms: z.array(Platform, { error: 'expected a list of platforms' }).min(1, { error: 'expected at least one platform' }) },
  { error: 'expected an object { platforms: [...] }' },
);

/** What a skill.json may refer to; a set left out (its file was invalid) is not checked. */
export interface KnownIds {
  categories?: ReadonlySet<string>;
  platforms?: ReadonlySet<string>;
}

const member = (kind: string, known: ReadonlySet<string> | undefined, file: string) =>
  z
    .string({ error: `expected a ${kind} id` })
    .refine((value) => known === undefined || known.has(value), {
      error: (issue) => `unknown ${kind} ${quote(String(issue.input))} (not in ${file})`,
    });

/** A repository URL: https, http, ssh, git or file, no whitespace or control characters. */
export function isRepositoryUrl(value: string): boolean {
  if (!/^[^\s\u0000-\u001f\u007f]+$/.test(value) || !URL.canParse(value)) return false;
  return ['https:', 'http:', 'ssh:', 'git:', 'file:'].includes(new URL(value).protocol);
}

/** A path inside a repository: `.` for its root, else plain `/`-separated segments (no `.`, `..`, empty). */
export function isRepositoryPath(value: string): boolean {
  return value === '.' || (value.length <= 1024 && value.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && !/[\u0000-\u001f\\]/.test(s)));
}

/** Where an imported skill lives (written by `skills-api import`; additive detail field `source`). */
const SkillSource = z.strictObject(
  {
    repository: z.string({ error: 'expected a repository URL' }).refine(isRepositoryUrl, { error: 'expected a repository URL (https, ssh, git or file)' }),
    path: z.string({ error: 'expected a path' }).refine(isRepositoryPath, { error: 'expected . or a relative path inside the repository' }),
    commit: z.string({ error: 'expected a commit id' }).regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, { error: 'expected a full commit id (40 or 64 hex digits)' }),
    plugin: z
      .strictObject({ name: Text, marketplace: Text }, { error: 'expected { name, marketplace }' })
      .optional(),
    executables: z
      .array(z.string().refine(isRepositoryPath, { error: 'expected a relative path in the skill folder' }), { error: 'expected a list of paths' })
      .max(1000, { error: 'at most 1000 paths' })
      .optional(),
  },
  { error: 'expected { repository, path, commit, plugin? }' },
);

/** skill.json, checking category slugs and platform ids against `known`. */
export function skillJsonSchema(known: KnownIds) {
  return z.strictObject(
    {
      stars: Count,
      forks: Count,
      watchers: Count,
      openIssues: Count,
      createdAt: Timestamp,
      updatedAt: Timestamp,
      pushedAt: Timestamp,
      author: z.strictObject({ name: Text, avatar: HttpsUrl }, { error: 'expected { name, avatar }' }),
      categories: z
        .array(member('category', known.categories, 'categories.json'), { error: 'expected a list of category slugs' })
        .max(MAX_PER_SKILL, { error: `at most ${MAX_PER_SKILL} categories` }),
      platforms: z
        .array(member('platform', known.platforms, 'platforms.json'), { error: 'expected a list of platform ids' })
        .min(1, { error: 'expected at least one platform' })
        .max(MAX_PER_SKILL, { error: `at most ${MAX_PER_SKILL} platforms` }),
      name: Text.max(MAX_NAME_LENGTH, { error: `at most ${MAX_NAME_LENGTH} characters` }).refine(noBidi, { error: bidiError }).optional(),
      description: Text.refine(noBidi, { error: bidiError }).optional(),
      license: Text.optional(),
      installCommands: z
        .record(z.string(), Text.refine(isOneLine, { error: 'expected one line without control or bidirectional-control characters' }), {
          error: 'expected an object of platform id → command',
        })
        .optional(),
      source: SkillSource.optional(),
    },
    { error: 'expected a JSON object' },
  );
}
export type SkillJson = z.output<ReturnType<typeof skillJsonSchema>>;

/** stats.json. */
export const StatsFile = z.strictObject(
  {
    views: Count,
    installs: Count,
    favorites: Count,
    starHistory: z.array(z.strictObject({ date: CalendarDate, stars: Count }, { error: 'expected { date, stars }' }), {
      error: 'expected a list of { date, stars }',
    }),
  },
  { error: 'expected a JSON object' },
);

/** An own property of parsed JSON, or undefined. */
function own(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** Every (path, value) of `items[i][key]` (and deeper with `childKey`) that is a string. */
function stringsAt(list: unknown, path: (string | number)[], key: string, childKey?: string): { path: string; value: string }[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item, i) => {
    const value = own(item, key);
    const here = typeof value === 'string' ? [{ path: fieldPath([...path, i, key]), value }] : [];
    return childKey === undefined ? here : [...here, ...stringsAt(own(item, childKey), [...path, i, childKey], key)];
  });
}

/** Each repeated value after its first occurrence, as a problem naming both places. */
function duplicates(file: string, what: string, entries: { path: string; value: string }[]): Problem[] {
  const first = new Map<string, string>();
  const problems: Problem[] = [];
  for (const { path, value } of entries) {
    const seen = first.get(value);
    if (seen === undefined) first.set(value, path);
    else problems.push(problem(file, `duplicate ${what} ${quote(value)} (also at ${seen})`, path));
  }
  return problems;
}

/** categories.json: slugs are unique across categories and subcategories. */
export function categoriesProblems(file: string, raw: unknown): Problem[] {
  return duplicates(file, 'slug', stringsAt(own(raw, 'categories'), ['categories'], 'slug', 'subcategories'));
}

/** platforms.json: ids are unique. */
export function platformsProblems(file: string, raw: unknown): Problem[] {
  return duplicates(file, 'id', stringsAt(own(raw, 'platforms'), ['platforms'], 'id'));
}

/**
 * skill.json: `updatedAt` not before `createdAt`, and `installCommands` only for platforms the
 * skill lists. Fields that are themselves invalid are left to the schema's problems.
 */
export function skillJsonProblems(file: string, raw: unknown): Problem[] {
  const problems: Problem[] = [];
  const created = own(raw, 'createdAt');
  const updated = own(raw, 'updatedAt');
  if (typeof created === 'string' && typeof updated === 'string' && isUtcTimestamp(created) && isUtcTimestamp(updated)) {
    if (Date.parse(updated) < Date.parse(created)) problems.push(problem(file, `is before createdAt (${created})`, 'updatedAt'));
  }
  const platforms = own(raw, 'platforms');
  const commands = own(raw, 'installCommands');
  if (Array.isArray(platforms) && typeof commands === 'object' && commands !== null && !Array.isArray(commands)) {
    for (const id of Object.keys(commands)) {
      if (!platforms.includes(id)) {
        problems.push(problem(file, `platform ${quote(id)} is not in platforms`, fieldPath(['installCommands', id])));
      }
    }
  }
  return problems;
}

/** stats.json: star history dates strictly ascending. */
export function statsProblems(file: string, raw: unknown): Problem[] {
  const history = own(raw, 'starHistory');
  if (!Array.isArray(history)) return [];
  const problems: Problem[] = [];
  let previous: string | undefined;
  history.forEach((entry, i) => {
    const date = own(entry, 'date');
    if (typeof date !== 'string' || !isCalendarDate(date)) return;
    if (previous !== undefined && date <= previous) {
      problems.push(problem(file, `must be after the previous date ${previous} (strictly ascending)`, fieldPath(['starHistory', i, 'date'])));
    }
    previous = date;
  });
  return problems;
}
