/**
 * Zod schemas of every JSON shape the API answers with (docs/api.md "Endpoints").
 * The runtime handler imports only the inferred *types* from here (so a Service Worker bundle
 * carries no zod); tests, the typed client and the OpenAPI document use the schemas themselves.
 */
import { z } from 'zod';

/** ISO 8601 UTC timestamp as written by the build (`2025-01-31T12:00:00.000Z`). */
export const Timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/);
/** Calendar date `YYYY-MM-DD`. */
export const CalendarDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const Count = z.number().int().nonnegative();

/**
 * Additive: a skill's quality signals in a list or search result: flags worth a review (high or
 * medium severity) and whether it is an exact copy of another skill.
 */
export const QualitySummary = z.object({ flags: Count, duplicate: z.boolean() });
export type QualitySummary = z.infer<typeof QualitySummary>;

/** Item of the skill list (endpoint 1, 9). `description` is at most 200 characters. */
export const SkillSummary = z.object({
  id: z.string(),
  owner: z.string(),
  repo: z.string(),
  name: z.string(),
  description: z.string(),
  stars: Count,
  forks: Count,
  updatedAt: Timestamp,
  categories: z.array(z.string()),
  platforms: z.array(z.string()),
  quality: QualitySummary.optional(),
});
export type SkillSummary = z.infer<typeof SkillSummary>;

/**
 * Where an imported skill lives: the repository, the skill folder inside it (`.` for the root),
 * the commit it was imported from, and the plugin of a marketplace that declares it.
 */
export const SkillSource = z.object({
  repository: z.string(),
  path: z.string(),
  commit: z.string(),
  plugin: z.object({ name: z.string(), marketplace: z.string() }).optional(),
  /** Scripts the skill folder ships (executable, or a script by its extension), paths in the folder. */
  executables: z.array(z.string()).optional(),
});

/** One problem of a loading profile. */
const SpecProblem = z.object({ field: z.string(), rule: z.string(), message: z.string() });
const ProfileResult = z.object({ pass: z.boolean(), problems: z.array(SpecProblem) });

/**
 * Additive: a skill's quality signals (advice, not verdicts): whether it loads under each profile
 * (the Agent Skills specification, Claude Code, the claude.ai upload, Codex), security flags to
 * review, and copies (`duplicateOf` the original of an exact copy, `similar` near copies).
 */
export const SkillChecks = z.object({
  profiles: z.object({ agentskills: ProfileResult, 'claude-code': ProfileResult, 'claude-ai': ProfileResult, codex: ProfileResult }),
  flags: z.array(
    z.object({
      id: z.string(),
      severity: z.enum(['high', 'medium', 'low']),
      line: Count.describe('1-based line of the SKILL.md; 0 for the folder'),
      excerpt: z.string().describe('the text around the match, HTML-escaped'),
      message: z.string(),
    }),
  ),
  duplicateOf: z.string().optional(),
  similar: z.array(z.string()).optional(),
});
export type SkillChecks = z.infer<typeof SkillChecks>;
export type SkillSource = z.infer<typeof SkillSource>;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** One file of a skill: its path in the folder, byte size and SHA-256 hex; answered at `…/files/<path>`. */
export const SkillFile = z.object({
  path: z.string().describe('relative, `/`-separated path inside the skill folder'),
  size: Count,
  sha256: Sha256,
});

/** The archive of a skill's folder. */
export const SkillArchive = z.object({
  url: z.string().describe('URL path of the `.tar.gz` (`<base>api/v1/skills/:owner/:repo/archive.tar.gz`)'),
  size: Count,
  sha256: Sha256,
});

/** Skill detail (endpoint 2): the summary with the full description plus repository metadata. */
export const SkillDetail = SkillSummary.extend({
  content: z.string(),
  watchers: Count,
  openIssues: Count,
  license: z.string(),
  createdAt: Timestamp,
  pushedAt: Timestamp,
  author: z.object({ name: z.string(), avatar: z.string() }),
  installCommands: z.record(z.string(), z.string()),
  /** Additive: where an imported skill lives (absent for hand-made content). */
  source: SkillSource.optional(),
  checks: SkillChecks.optional(),
  /** Additive: every file of the skill's folder, sorted by path, SKILL.md included (docs/api.md "Files and archive"). */
  files: z.array(SkillFile).optional(),
  /** Additive: the folder as a deterministic `.tar.gz`. */
  archive: SkillArchive.optional(),
});
export type SkillDetail = z.infer<typeof SkillDetail>;


/** Raw SKILL.md (endpoint 3): `sha` is SHA-256 hex of the bytes, `size` the byte length. */
export const SkillContent = z.object({
  content: z.string(),
  sha: z.string().regex(/^[0-9a-f]{64}$/),
  size: Count,
});
export type SkillContent = z.infer<typeof SkillContent>;

/** Usage statistics (endpoint 4). */
export const SkillStats = z.object({
  views: Count,
  installs: Count,
  favorites: Count,
  starHistory: z.array(z.object({ date: CalendarDate, stars: Count })),
});
export type SkillStats = z.infer<typeof SkillStats>;

export const SubcategoryRef = z.object({ slug: z.string(), name: z.string(), skillCount: Count });
export type SubcategoryRef = z.infer<typeof SubcategoryRef>;

/** Category record of the list (endpoint 7). */
export const Category = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  icon: z.string(),
  skillCount: Count,
  subcategories: z.array(SubcategoryRef),
});
export type Category = z.infer<typeof Category>;

export const TopSkill = z.object({ owner: z.string(), repo: z.string(), name: z.string(), stars: Count });
export type TopSkill = z.infer<typeof TopSkill>;

/** Single category record (endpoint 8): the list record plus the 5 most-starred skills. */
export const CategoryDetail = Category.extend({ topSkills: z.array(TopSkill) });
export type CategoryDetail = z.infer<typeof CategoryDetail>;

/** Pagination object of paged lists. */
export const Pagination = z.object({
  page: z.number().int().positive(),
  limit: z.number().int().positive(),
  total: Count,
  totalPages: Count,
});
export type Pagination = z.infer<typeof Pagination>;

/** Search result item (endpoint 5). */
export const SearchResult = SkillSummary.pick({ id: true, owner: true, repo: true, name: true, description: true, stars: true }).extend({
  score: z.number(),
  highlights: z.object({ name: z.string().optional(), description: z.string().optional() }).optional(),
  quality: QualitySummary.optional(),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchMeta = z.object({
  query: z.string(),
  took: z.number().nonnegative(),
  /** Present (true) when no skill matched every plain word and the answer lists those matching the most (docs/api.md). */
  relaxed: z.literal(true).optional(),
});
export type SearchMeta = z.infer<typeof SearchMeta>;

/** Autocomplete suggestion (endpoint 6). */
export const Suggestion = z.object({ text: z.string(), count: Count });
export type Suggestion = z.infer<typeof Suggestion>;

/** Error body of every failure. */
export const ErrorResponse = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});

/** Response envelopes, one per endpoint. */
export const SkillListResponse = z.object({ data: z.array(SkillSummary), pagination: Pagination });
export type SkillListResponse = z.infer<typeof SkillListResponse>;
export const SkillDetailResponse = z.object({ data: SkillDetail });
export const SkillContentResponse = z.object({ data: SkillContent });
export const SkillStatsResponse = z.object({ data: SkillStats });
export const SearchResponse = z.object({ data: z.array(SearchResult), pagination: Pagination, meta: SearchMeta });
export type SearchResponse = z.infer<typeof SearchResponse>;
export const AutocompleteResponse = z.object({ data: z.array(Suggestion) });
export const CategoryListResponse = z.object({ data: z.array(Category) });
export const CategoryDetailResponse = z.object({ data: CategoryDetail });
/** The answer of `GET /api/search`, the open `skills` CLI's search (src/compat.ts). */
export const CompatSearchResponse = z.object({
  skills: z.array(z.object({ id: z.string(), name: z.string(), source: z.string().describe('owner/repo to give `npx skills add`'), installs: z.int().min(0) })),
});

/**
 * Additive: one entry of the change log (`GET /changes`, docs/api.md "Changes"): the skill `id`
 * was `added`, `updated` or `removed` by the build at `at`; `sha256` identifies the skill's
 * published state (for `removed`, the state it had). `cursor` names the entry: ask `since` it.
 */
export const ChangeEntry = z.object({
  cursor: z.string(),
  at: Timestamp,
  id: z.string(),
  change: z.enum(['added', 'updated', 'removed']),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ChangeEntry = z.infer<typeof ChangeEntry>;

/** Paging of the change log: the `limit` applied and whether entries follow this page. */
export const ChangesPagination = z.object({ limit: z.number().int().positive(), hasMore: z.boolean() });

/** `GET /changes`: entries oldest first; `meta.cursor` is the `since` of the next request. */
export const ChangesResponse = z.object({ data: z.array(ChangeEntry), pagination: ChangesPagination, meta: z.object({ cursor: z.string() }) });
export type ChangesResponse = z.infer<typeof ChangesResponse>;
