/**
 * Writes the static tree (src/paths.ts) from validated content: every skill resource, the list
 * pages (`hasListPages`: filtered lists in order `desc` only) and every list's ordinals file in
 * every order, the categories in every locale, and the manifest. The search index is
 * written separately (builder/search-index.ts). Output depends only on `content`: everything is
 * sorted, no clock or environment locale is read.
 */
import type { Manifest } from '../src/manifest.ts';
import {
  API_PREFIX,
  DEFAULT_LOCALE,
  FORMAT_VERSION,
  LOCALE_RE,
  MANIFEST_PATH,
  ORDERS,
  PAGE_SIZE,
  SORTS,
  categoriesPath,
  categoryPath,
  hasListPages,
  idKey,
  idShardCount,
  idShardPath,
  listKey,
  listOrdinalsPath,
  listPagePath,
  skillPath,
  type ListFilter,
} from '../src/paths.ts';
import type { Category, CategoryDetail, SkillListResponse, TopSkill } from '../src/schemas.ts';
import { JsonText, type CategoryDef, type Content, type Emit, type Localized, type SkillRecord, type SubcategoryDef } from './model.ts';
import { listsInput, pageInput, summaryHashOf, type PageKeeper } from './page-memo.ts';
import { compareCodeUnits, sortedIndexes } from './sort-orders.ts';
import { toContent, toDetail, toStats, toSummary } from './summary.ts';

/** The directory's quality report (builder/quality/), a static file beside the manifest. */
export const QUALITY_PATH = `${API_PREFIX}/quality.json`;

/** Locales shipped even when the content translates nothing into them (docs/decisions.md §4). */
export const REQUIRED_LOCALES = ['en', 'de', 'fr', 'ja', 'ko', 'zh-TW'] as const;

/** Number of skills in a category record's `topSkills` (docs/decisions.md §4). */
export const TOP_SKILLS = 5;

/** One pre-built list: its filter and its members (indexes into `content.skills`). */
interface ListDef {
  filter: ListFilter;
  members: ReadonlySet<number> | null; // null: every skill
}

/**
 * Write every file of the static tree except the search index through `emit`, one file at a
 * time (memory stays bounded by the content itself, never by the output), and return the
 * manifest, which is also emitted at `MANIFEST_PATH`. The content and stats files of the skill
 * folders in `kept`, and the details `keptDetail` says yes to, are left out (an incremental build
 * kept them in the live output), as are the list pages `pages` keeps (builder/page-memo.ts).
 */
export async function writeTree(content: Content, emit: Emit, kept?: ReadonlySet<string>, keptDetail?: (skill: SkillRecord) => boolean, pages?: PageKeeper): Promise<Manifest> {
  // Content promises skills sorted by id; sorting again costs little and makes the output
  // independent of discovery order whatever the caller passes.
  const skills = [...content.skills].sort((a, b) => compareCodeUnits(a.id, b.id));

  for (const skill of skills) {
    // An incremental build keeps a detail made of the same parts (builder/skill-output.ts `keepDetail`).
    if (keptDetail?.(skill) !== true) await emit(skillPath(skill.owner, skill.repo, 'detail'), { data: toDetail(skill) });
    // Kept from the live output by an incremental build (builder/skill-output.ts `KEPT_RESOURCES`).
    if (kept?.has(skill.dir) === true) continue;
    await emit(skillPath(skill.owner, skill.repo, 'content'), { data: toContent(skill) });
    await emit(skillPath(skill.owner, skill.repo, 'stats'), { data: toStats(skill) });
  }

  // Each summary is serialized once, and only when a page is made: a skill is on a page of every
  // list it belongs to, in every order, and an incremental build makes few pages.
  const summaryTexts: Array<string | undefined> = new Array<string | undefined>(skills.length);
  const summaryOf = (i: number): string => (summaryTexts[i] ??= JSON.stringify(toSummary(skills[i]!)));
  // What each page is made of, for the pages an incremental build may keep.
  const hashes = pages === undefined ? undefined : skills.map((skill, i) => summaryHashOf(skill, () => summaryOf(i)));
  const byStarsDesc = sortedIndexes(skills, 'stars', 'desc');
  const lists = listDefs(skills, content);
  const totals = new Map<string, number>(lists.map((list) => [listKey(list.filter), list.members?.size ?? skills.length]));
  // The lists' files all at once when nothing they are made of changed (builder/page-memo.ts).
  const keptLists = pages !== undefined && pages.keepLists(listsInput(JSON.stringify([content.categories, content.platforms]), hashes!));
  if (!keptLists) await writeLists(skills, lists, byStarsDesc, { summaryOf, hashes, pages }, emit);

  const locales = localesOf(content.categories);
  const categoryMembers = new Map(
    lists.flatMap((l) => (l.filter.kind === 'category' ? [[l.filter.slug, l.members!] as const] : [])),
  );
  const count = (slug: string): number => categoryMembers.get(slug)?.size ?? 0;
  const topSkills = (slug: string): TopSkill[] => {
    const members = categoryMembers.get(slug)!;
    const top: TopSkill[] = [];
    for (const i of byStarsDesc) {
      if (top.length === TOP_SKILLS) break;
      if (!members.has(i)) continue;
      const skill = skills[i]!;
      top.push({ owner: skill.owner, repo: skill.repo, name: skill.name, stars: skill.stars });
    }
    return top;
  };
  for (const locale of locales) {
    const records: Category[] = content.categories.map((def) => ({
      slug: def.slug,
      ...localize(def, locale),
      icon: def.icon,
      skillCount: count(def.slug),
      subcategories: def.subcategories.map((sub) => ({ slug: sub.slug, name: localize(sub, locale).name, skillCount: count(sub.slug) })),
    }));
    await emit(categoriesPath(locale), { data: records });
    for (const [i, def] of content.categories.entries()) {
      const detail: CategoryDetail = { ...records[i]!, topSkills: topSkills(def.slug) };
      await emit(categoryPath(def.slug, locale), { data: detail });
      for (const sub of def.subcategories) {
        const subDetail: CategoryDetail = {
          slug: sub.slug,
          ...localize(sub, locale),
          icon: def.icon,
          skillCount: count(sub.slug),
          subcategories: [],
          topSkills: topSkills(sub.slug),
        };
        await emit(categoryPath(sub.slug, locale), { data: subDetail });
      }
    }
  }

  if (content.quality !== undefined) await emit(QUALITY_PATH, content.quality);

  // The id index: lower-cased id → id, for case-insensitive skill URLs.
  const idShards = idShardCount(skills.length);
  const shards = new Map<string, Record<string, string>>();
  for (const skill of skills) {
    const key = idKey(skill.owner, skill.repo);
    const path = idShardPath(key, idShards);
    const shard = shards.get(path) ?? {};
    shard[key] = skill.id;
    shards.set(path, shard);
  }
  for (let n = 0; n < idShards; n++) {
    const path = `${API_PREFIX}/skills/_ids/${n}.json`;
    const shard = shards.get(path) ?? {};
    await emit(path, Object.fromEntries(Object.entries(shard).sort(([a], [b]) => compareCodeUnits(a, b))));
  }

  const manifest: Manifest = {
    format: FORMAT_VERSION,
    pageSize: PAGE_SIZE,
    skillCount: skills.length,
    locales,
    categories: [...categoryMembers.keys()].sort(compareCodeUnits),
    platforms: content.platforms.map((p) => p.id).sort(compareCodeUnits),
    lists: Object.fromEntries([...totals.entries()].sort(([a], [b]) => compareCodeUnits(a, b))),
    idShards,
  };
  await emit(MANIFEST_PATH, manifest);
  return manifest;
}

/** How `writeLists` gets a page's summaries: their texts, and their hashes with the page memo. */
interface PageParts {
  summaryOf(i: number): string;
  hashes: readonly string[] | undefined;
  pages: PageKeeper | undefined;
}

/**
 * Every list's pages (those `pages` does not keep) and its ordinals file, in every order
 * (`skills`: by id; `byStarsDesc`: the default order, whose positions are the ordinals).
 */
async function writeLists(skills: readonly SkillRecord[], lists: readonly ListDef[], byStarsDesc: number[], parts: PageParts, emit: Emit): Promise<void> {
  const { summaryOf, hashes, pages } = parts;
  // The ordinal of a skill is its position in the default order (see listOrdinalsPath).
  const ordinalOf: number[] = new Array<number>(skills.length);
  byStarsDesc.forEach((index, ordinal) => (ordinalOf[index] = ordinal));
  const listsOfSkill = listsOf(skills.length, lists);
  for (const sort of SORTS) {
    for (const order of ORDERS) {
      const sorted = sort === 'stars' && order === 'desc' ? byStarsDesc : sortedIndexes(skills, sort, order);
      // Each list's members in this order, from one pass over it (a skill is in a few lists of dozens).
      const membersOf: number[][] = lists.map((list) => (list.members === null ? sorted : []));
      for (const i of sorted) for (const l of listsOfSkill[i]!) membersOf[l]!.push(i);
      for (const [l, list] of lists.entries()) {
        const members = membersOf[l]!;
        // Filtered lists have no `asc` pages: the runtime reads their `desc` pages (src/paths.ts).
        const totalPages = Math.ceil(members.length / PAGE_SIZE);
        const pageCount = hasListPages(list.filter, order) ? Math.max(1, totalPages) : 0;
        for (let page = 1; page <= pageCount; page++) {
          const onPage = members.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
          const pagination: SkillListResponse['pagination'] = { page, limit: PAGE_SIZE, total: members.length, totalPages };
          const path = listPagePath(list.filter, sort, order, page);
          const paginationText = JSON.stringify(pagination);
          if (pages !== undefined && pages.keep(path, pageInput(paginationText, onPage.map((i) => hashes![i]!)))) continue;
          // The text JSON.stringify gives a `SkillListResponse` of these summaries.
          await emit(path, new JsonText(`{"data":[${onPage.map(summaryOf).join(',')}],"pagination":${paginationText}}`));
        }
        const ordinals = listOrdinalsPath(list.filter, sort, order);
        await emit(ordinals, { ordinals: members.map((i) => ordinalOf[i]!) });
        pages?.made(ordinals);
      }
    }
  }
}

/** For each skill (by index), the lists (by index into `lists`) that name it among their members. */
function listsOf(count: number, lists: readonly ListDef[]): number[][] {
  const of: number[][] = Array.from({ length: count }, () => []);
  lists.forEach((list, l) => {
    if (list.members !== null) for (const i of list.members) of[i]!.push(l);
  });
  return of;
}

/**
 * Every pre-built list: `all`, one per category slug (a top-level category also holds the skills
 * of its subcategories, docs/decisions.md §4) and one per platform of platforms.json.
 */
function listDefs(skills: readonly SkillRecord[], content: Content): ListDef[] {
  const parentOf = new Map<string, string>();
  const categorySets = new Map<string, Set<number>>();
  for (const def of content.categories) {
    categorySets.set(def.slug, new Set());
    for (const sub of def.subcategories) {
      categorySets.set(sub.slug, new Set());
      parentOf.set(sub.slug, def.slug);
    }
  }
  const platformSets = new Map(content.platforms.map((p) => [p.id, new Set<number>()]));
  skills.forEach((skill, i) => {
    for (const slug of skill.categories) {
      categorySets.get(slug)?.add(i);
      const parent = parentOf.get(slug);
      if (parent !== undefined) categorySets.get(parent)!.add(i);
    }
    for (const id of skill.platforms) platformSets.get(id)?.add(i);
  });
  return [
    { filter: { kind: 'all' }, members: null },
    ...[...categorySets].map(([slug, members]): ListDef => ({ filter: { kind: 'category', slug }, members })),
    ...[...platformSets].map(([id, members]): ListDef => ({ filter: { kind: 'platform', id }, members })),
  ];
}

/** `en` first, then every other locale shipped or translated, sorted. */
function localesOf(categories: readonly CategoryDef[]): string[] {
  const found = new Set<string>(REQUIRED_LOCALES);
  for (const def of categories) {
    for (const entry of [def, ...def.subcategories]) {
      for (const locale of Object.keys(entry.translations)) {
        // Locales become file names: never let an odd key reach a path.
        if (!LOCALE_RE.test(locale)) throw new Error(`categories.json → ${entry.slug}.translations: invalid locale ${JSON.stringify(locale)}`);
        found.add(locale);
      }
    }
  }
  found.delete(DEFAULT_LOCALE);
  return [DEFAULT_LOCALE, ...[...found].sort(compareCodeUnits)];
}

/** Name and description in `locale`, each falling back to English. */
function localize(def: CategoryDef | SubcategoryDef, locale: string): Localized {
  const t = locale === DEFAULT_LOCALE ? undefined : def.translations[locale];
  return { name: t?.name || def.name, description: t?.description || def.description };
}
