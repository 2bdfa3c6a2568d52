/**
 * Categories of an imported skill (docs/import.md "Categories"): 1 to 3 top-level slugs of
 * categories.json, each followed by its best-fitting subcategory when one fits, primary first.
 *
 * 1. The sources file's override for the skill, when there is one (used as given).
 * 2. Otherwise every piece of evidence is scored per slug, and the best slugs win:
 *    - labels the repository gives (a declaring marketplace plugin's `category`/`tags`/`keywords`,
 *      the front matter's `metadata.category`/`metadata.tags`/`category`/`tags`): a specific label
 *      decides on its own (`security` → security), a vague one (`development`, `workflows`) only
 *      helps the skill's own words; hints (a repository catalog's computed category) help too;
 *    - the words of the table in categories-rules.ts, whole words only, in the name (×2.5), the
 *      description (×1) and the start of the body (×0.3): name and description weigh far more;
 *    - the repository's domain (its sources-file `category`, else the category of at least 40 %
 *      of its skills): words that mean something else there do not count (`notIn`), the domain
 *      is the fallback; words in 40 % of a large repository's skills (its boilerplate) are dropped.
 *    A slug needs `MIN_SCORE` (a weight-3 word in the description); others beside the best need
 *    `RELATIVE` of its score.
 * 3. Nothing reaches it: the repository's domain, else `productivity`.
 */
import { LABELS, PARENTS, RULES, WEAK_LABELS } from './categories-rules.ts';

export { LABELS, RULES } from './categories-rules.ts';

/** The least score that makes a category (scores are in tenths: a weight-3 word in the description is 30). */
export const MIN_SCORE = 30;
/** A category beside the best one needs this share of the best score. */
export const RELATIVE = 0.45;
/** Most top-level categories per skill (each may bring one subcategory). */
export const MAX_CATEGORIES = 3;
/** The category of a skill nothing points anywhere, in a repository without a domain. */
export const FALLBACK = 'productivity';
/** How much a word counts in each part of a skill. */
// Whole numbers (×10), so that sums are exact and ties and thresholds never depend on the order of additions.
const FIELD_WEIGHTS = { name: 25, description: 10, body: 3 } as const;
/** Characters of the body read: its start says what the skill is about. */
const BODY_CHARS = 1500;
/** Score a label gives its slug: a specific one decides alone, a vague one needs company. */
const LABEL_SCORE = 30;
const WEAK_LABEL_SCORE = 20;
/** What the repository's domain adds to a skill that shows any sign of it. */
const DOMAIN_SCORE = 10;

/** A word in its plain form: lower case, a plural `s` dropped. */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is|os|ys)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The words of a text (letters and digits, with `+`, `#` and inner dots: `c++`, `next.js`). */
export function words(text: string): string[] {
  const found = text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}][\p{L}\p{N}+#.]*/gu) ?? [];
  return found.map((w) => singular(w.replace(/\.+$/, ''))).filter((w) => w !== '');
}

/** A rule word or phrase as the words `words` gives. */
const termKey = (term: string): string => words(term).join(' ');

/** A subcategory's words, which count for its parent already (through `PARENTS`). */
const SUB_KEYS = new Map<string, Set<string>>();
for (const rule of RULES) {
  const parent = PARENTS[rule.slug];
  if (parent === undefined) continue;
  const keys = SUB_KEYS.get(parent) ?? new Set<string>();
  for (const word of rule.words) keys.add(termKey(word));
  SUB_KEYS.set(parent, keys);
}
/** Rule lines with their terms in word form; a parent's line leaves out its subcategories' words (counted once). */
const COMPILED = RULES.map((rule) => ({
  ...rule,
  keys: [...new Set(rule.words.map(termKey).filter((k) => k !== '' && SUB_KEYS.get(rule.slug)?.has(k) !== true))],
}));
const LONGEST = Math.max(...COMPILED.flatMap((rule) => rule.keys.map((k) => k.split(' ').length)));
/** Rule lines by term: a skill's words are looked up, not every term tried. */
const BY_KEY = new Map<string, (typeof COMPILED)[number][]>();
for (const rule of COMPILED) for (const key of rule.keys) BY_KEY.set(key, [...(BY_KEY.get(key) ?? []), rule]);

/** Every run of 1–`LONGEST` consecutive words of `list`, joined by spaces. */
function grams(list: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    for (let n = 1; n <= LONGEST && i + n <= list.length; n++) out.add(list.slice(i, i + n).join(' '));
  }
  return out;
}

/** What the classifier knows of a skill. */
export interface ClassifyInput {
  name: string;
  description: string;
  body?: string | undefined;
  /** Labels the repository gives the skill (marketplace, front matter). */
  labels?: readonly string[] | undefined;
  /** Weaker labels: a repository catalog's computed category. */
  hints?: readonly string[] | undefined;
  /** The repository's domain (a category slug), when it has one. */
  domain?: string | undefined;
  /** Words so common in the repository's descriptions that they say nothing there. */
  common?: ReadonlySet<string> | undefined;
}

/** Scores per slug (subcategories' counted for their parents too; slugs with weak words only left out), and which came from labels. */
export function scores(input: ClassifyInput, known?: ReadonlySet<string>): { score: Map<string, number>; labelled: Set<string> } {
  const score = new Map<string, number>();
  const labelled = new Set<string>();
  /** Slugs with a word of weight 2 or 3, or a label: weak words alone never make a category. */
  const strong = new Set<string>();
  const add = (slug: string, value: number, isStrong = true): void => {
    if (known !== undefined && !known.has(slug)) return;
    score.set(slug, (score.get(slug) ?? 0) + value);
    if (isStrong) strong.add(slug);
    const parent = PARENTS[slug];
    if (parent !== undefined && (known === undefined || known.has(parent))) {
      score.set(parent, (score.get(parent) ?? 0) + value);
      if (isStrong) strong.add(parent);
    }
  };
  const keep = (list: string[]): string[] => (input.common === undefined ? list : list.filter((w) => !input.common!.has(w)));
  const fields = [
    { grams: grams(keep(words(input.name.replace(/[-_]+/g, ' ')))), weight: FIELD_WEIGHTS.name },
    { grams: grams(keep(words(input.description))), weight: FIELD_WEIGHTS.description },
    // Cut before stripping too: a body may be a megabyte.
    { grams: grams(keep(words(stripCode((input.body ?? '').slice(0, BODY_CHARS * 4)).slice(0, BODY_CHARS)))), weight: FIELD_WEIGHTS.body },
  ];
  for (const field of fields) {
    for (const gram of field.grams) {
      for (const rule of BY_KEY.get(gram) ?? []) {
        if (input.domain !== undefined && rule.notIn?.includes(input.domain) === true) continue;
        add(rule.slug, rule.weight * field.weight, rule.weight > 1);
      }
    }
  }
  const label = (raw: string, weak: boolean): void => {
    const key = raw.trim().toLowerCase().replace(/[\s_]+/g, '-');
    const slug = known?.has(key) === true ? key : LABELS[key];
    if (slug === undefined || (known !== undefined && !known.has(slug))) return;
    add(slug, weak || WEAK_LABELS.has(key) ? WEAK_LABEL_SCORE : LABEL_SCORE);
    labelled.add(slug);
    const parent = PARENTS[slug];
    if (parent !== undefined) labelled.add(parent);
  };
  for (const raw of input.labels ?? []) label(raw, false);
  for (const raw of input.hints ?? []) label(raw, true);
  if (input.domain !== undefined && (score.get(input.domain) ?? 0) > 0) add(input.domain, DOMAIN_SCORE, false);
  for (const slug of score.keys()) if (!strong.has(slug)) score.delete(slug);
  return { score, labelled };
}

/** Code blocks and links' targets say little about what a skill is for. */
function stripCode(body: string): string {
  return body.replace(/```[\s\S]*?(?:```|$)/g, ' ').replace(/\]\([^)]*\)/g, ']').replace(/https?:\/\/\S+/g, ' ');
}

/** The slugs for a skill, best first (top-level, each followed by its subcategory), or [] when nothing reaches `MIN_SCORE`. */
export function classify(input: ClassifyInput, known?: ReadonlySet<string>): { categories: string[]; byLabels: boolean } {
  const { score, labelled } = scores(input, known);
  const ranked = (slugs: string[]): string[] => slugs.sort((a, b) => score.get(b)! - score.get(a)! || (a < b ? -1 : 1));
  const tops = ranked([...score.keys()].filter((slug) => PARENTS[slug] === undefined && score.get(slug)! >= MIN_SCORE));
  if (tops.length === 0) return { categories: [], byLabels: false };
  const best = score.get(tops[0]!)!;
  const chosen = tops.filter((slug, i) => i === 0 || score.get(slug)! >= best * RELATIVE).slice(0, MAX_CATEGORIES);
  const out: string[] = [];
  for (const top of chosen) {
    out.push(top);
    const subs = ranked([...score.keys()].filter((slug) => PARENTS[slug] === top && score.get(slug)! >= MIN_SCORE));
    // A subcategory fits when it carries a good part of its parent's evidence.
    if (subs[0] !== undefined && score.get(subs[0])! >= score.get(top)! * 0.4) out.push(subs[0]);
  }
  return { categories: out, byLabels: labelled.has(chosen[0]!) };
}

/** The keyword slugs for a name and a description alone, best first (top-level only). */
export function classifyText(name: string, description: string): string[] {
  return classify({ name, description }).categories.filter((slug) => PARENTS[slug] === undefined);
}

/** Labels a front matter gives: `metadata.category`, `metadata.tags`, `category`, `tags`. */
export function frontMatterLabels(data: Record<string, unknown>): string[] {
  const metadata = typeof data.metadata === 'object' && data.metadata !== null && !Array.isArray(data.metadata) ? (data.metadata as Record<string, unknown>) : {};
  const out: string[] = [];
  for (const value of [metadata.category, metadata.categories, metadata.tags, data.category, data.tags]) {
    if (typeof value === 'string') out.push(...value.split(','));
    else if (Array.isArray(value)) out.push(...value.filter((v): v is string => typeof v === 'string'));
  }
  return out.slice(0, 50);
}

/** What the classifier learns from a whole repository. */
export interface RepositoryProfile {
  /** The category most of its skills share, when one does. */
  domain?: string;
  /** Words in at least `COMMON_SHARE` of its skills' names and descriptions. */
  common: Set<string>;
}

/** Share of a repository's descriptions a word must appear in to say nothing there. */
export const COMMON_SHARE = 0.4;
/** Share of a repository's skills that must share a category for it to be the domain. */
export const DOMAIN_SHARE = 0.4;
/** Fewest skills a repository needs for a profile (a small one says too little). */
export const PROFILE_MIN_SKILLS = 20;

/**
 * The domain and the boilerplate words of a repository, from all its skills: a science
 * collection's skills are science first; "Automate X tasks via Rube MCP" repeated 800 times says
 * nothing about X. `domain` given (the sources file's `category`) is taken as it is.
 */
export function repositoryProfile(skills: readonly { name: string; description: string }[], known?: ReadonlySet<string>, domain?: string): RepositoryProfile {
  const common = new Set<string>();
  if (skills.length >= PROFILE_MIN_SKILLS) {
    const frequency = new Map<string, number>();
    for (const skill of skills) {
      for (const word of new Set([...words(skill.name.replace(/[-_]+/g, ' ')), ...words(skill.description)])) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    }
    for (const [word, count] of frequency) if (count >= skills.length * COMMON_SHARE) common.add(word);
  }
  if (domain !== undefined) return { domain, common };
  if (skills.length < PROFILE_MIN_SKILLS) return { common };
  const counts = new Map<string, number>();
  for (const skill of skills) {
    for (const slug of classify({ ...skill, common }, known).categories) if (PARENTS[slug] === undefined) counts.set(slug, (counts.get(slug) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  return top !== undefined && top[1] >= skills.length * DOMAIN_SHARE ? { domain: top[0], common } : { common };
}

/** 1–3 categories (with subcategories) for a skill: `override`, else the evidence, else the domain or `FALLBACK`. */
export function categoriesFor(options: {
  override?: readonly string[] | undefined;
  labels: readonly string[];
  hints?: readonly string[] | undefined;
  name: string;
  description: string;
  body?: string | undefined;
  profile?: RepositoryProfile | undefined;
  known: ReadonlySet<string>;
}): { categories: string[]; by: 'override' | 'labels' | 'keywords' | 'fallback' } {
  if (options.override !== undefined && options.override.length > 0) return { categories: [...options.override], by: 'override' };
  const result = classify(
    { name: options.name, description: options.description, body: options.body, labels: options.labels, hints: options.hints, domain: options.profile?.domain, common: options.profile?.common },
    options.known,
  );
  if (result.categories.length > 0) return { categories: result.categories, by: result.byLabels ? 'labels' : 'keywords' };
  const domain = options.profile?.domain;
  const fallback = domain !== undefined && options.known.has(domain) ? domain : options.known.has(FALLBACK) ? FALLBACK : [...options.known].sort()[0]!;
  return { categories: [fallback], by: 'fallback' };
}
