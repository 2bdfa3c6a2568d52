/**
 * The contract suite's oracle: the answers the API must give, computed the slow obvious way
 * straight from the content (filter every skill, sort every skill, slice), independent of the
 * build's page files and of the handler's page arithmetic.
 */
import type { CategoryDef, Content, SkillRecord } from '../../builder/model.ts';
import type { Order, Sort } from '../../src/paths.ts';
import type { Category, CategoryDetail, SkillSummary } from '../../src/schemas.ts';

const collator = new Intl.Collator('en', { sensitivity: 'base' });

/** A list request: category slugs (all must hold), an optional platform. */
export interface ReferenceQuery {
  sort?: Sort;
  order?: Order;
  categories?: string[];
  platform?: string;
}

export class Reference {
  readonly skills: readonly SkillRecord[];
  /** Every slug (top-level and subcategory) → its definition, its parent for subcategories. */
  readonly slugs = new Map<string, { name: string; description: string; translations: CategoryDef['translations']; parent?: CategoryDef; def?: CategoryDef }>();

  constructor(readonly content: Content) {
    this.skills = content.skills;
    for (const def of content.categories) {
      this.slugs.set(def.slug, { ...def, def });
      for (const sub of def.subcategories) this.slugs.set(sub.slug, { ...sub, parent: def });
    }
  }

  /** Skills listed under `slug` or, for a top-level slug, under one of its subcategories. */
  inCategory(slug: string): SkillRecord[] {
    const entry = this.slugs.get(slug);
    const accepted = new Set([slug, ...(entry?.def?.subcategories.map((s) => s.slug) ?? [])]);
    return this.skills.filter((s) => s.categories.some((c) => accepted.has(c)));
  }

  /** The whole list for a query, in its order. */
  list(query: ReferenceQuery = {}): SkillRecord[] {
    const sort = query.sort ?? 'stars';
    const order = query.order ?? 'desc';
    let skills = [...this.skills];
    for (const slug of query.categories ?? []) {
      const members = new Set(this.inCategory(slug));
      skills = skills.filter((s) => members.has(s));
    }
    if (query.platform !== undefined) skills = skills.filter((s) => s.platforms.includes(query.platform!));
    return skills.sort((a, b) => {
      const byKey =
        sort === 'stars' ? a.stars - b.stars : sort === 'updated' ? Date.parse(a.updatedAt) - Date.parse(b.updatedAt) : collator.compare(a.name, b.name);
      const signed = order === 'asc' ? byKey : -byKey;
      if (signed !== 0) return signed;
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
  }

  /** The record with `id`. */
  skill(id: string): SkillRecord {
    const found = this.skills.find((s) => s.id === id);
    if (found === undefined) throw new Error(`reference: no skill ${id}`);
    return found;
  }

  /** Every locale the build must ship: en, the required five and every translated one. */
  locales(): string[] {
    const found = new Set(['de', 'fr', 'ja', 'ko', 'zh-TW']);
    for (const entry of this.slugs.values()) for (const locale of Object.keys(entry.translations)) found.add(locale);
    found.delete('en');
    return ['en', ...[...found].sort()];
  }

  /** Name and description of a slug in a locale, each falling back to English. */
  localized(slug: string, locale: string): { name: string; description: string } {
    const entry = this.slugs.get(slug)!;
    const t = locale === 'en' ? undefined : entry.translations[locale];
    return { name: t?.name || entry.name, description: t?.description || entry.description };
  }

  /** The category list in a locale (endpoint 7). */
  categories(locale: string): Category[] {
    return this.content.categories.map((def) => ({
      slug: def.slug,
      ...this.localized(def.slug, locale),
      icon: def.icon,
      skillCount: this.inCategory(def.slug).length,
      subcategories: def.subcategories.map((sub) => ({ slug: sub.slug, name: this.localized(sub.slug, locale).name, skillCount: this.inCategory(sub.slug).length })),
    }));
  }

  /** One category record in a locale (endpoint 8). */
  category(slug: string, locale: string): CategoryDetail {
    const entry = this.slugs.get(slug)!;
    const top = this.list({ categories: [slug] }).slice(0, 5);
    const def = entry.def;
    return {
      slug,
      ...this.localized(slug, locale),
      icon: (def ?? entry.parent)!.icon,
      skillCount: this.inCategory(slug).length,
      subcategories: def?.subcategories.map((sub) => ({ slug: sub.slug, name: this.localized(sub.slug, locale).name, skillCount: this.inCategory(sub.slug).length })) ?? [],
      topSkills: top.map((s) => ({ owner: s.owner, repo: s.repo, name: s.name, stars: s.stars })),
    };
  }
}

/**
 * Problems of a list item against its record (empty when it matches): every summary field equal,
 * the description equal or, over 200 characters, a prefix cut at a word end with `…`.
 */
export function summaryProblems(summary: SkillSummary, record: SkillRecord): string[] {
  const problems: string[] = [];
  const expected = { id: record.id, owner: record.owner, repo: record.repo, name: record.name, stars: record.stars, forks: record.forks, updatedAt: record.updatedAt, categories: record.categories, platforms: record.platforms };
  for (const [key, value] of Object.entries(expected)) {
    if (JSON.stringify(summary[key as keyof SkillSummary]) !== JSON.stringify(value)) problems.push(`${record.id}.${key}`);
  }
  const d = summary.description;
  if (record.description.length <= 200) {
    if (d !== record.description) problems.push(`${record.id}.description differs`);
  } else if (!(d.length <= 200 && d.endsWith('…') && record.description.startsWith(d.slice(0, -1)) && atWordEnd(record.description, d.length - 1))) {
    problems.push(`${record.id}.description is not a cut of the full text: ${JSON.stringify(d)}`);
  }
  return problems;
}

/** The cut at `n` ends a word (whitespace follows) or is the hard cut of one over-long word. */
function atWordEnd(text: string, n: number): boolean {
  return /\s/.test(text[n] ?? '') || (n >= 198 && !/\s/.test(text.slice(0, n)));
}
