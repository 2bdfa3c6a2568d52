/**
 * The JSON records of one skill as the API answers them: the list summary, the detail, the raw
 * content and the stats (docs/api.md, docs/decisions.md §4).
 */
import type { SkillContent, SkillDetail, SkillStats, SkillSummary } from '../src/schemas.ts';
import type { SkillRecord } from './model.ts';
import { qualitySummary } from './quality/index.ts';

/** Longest summary description, `…` included (docs/decisions.md §4). */
export const SUMMARY_DESCRIPTION_MAX = 200;

/**
 * Shorten `text` to at most `max` UTF-16 code units: cut at the last whitespace that leaves room
 * for `…`, or mid-word when the first `max - 1` units hold no whitespace (never inside a
 * surrogate pair). Text that already fits is returned unchanged.
 */
export function truncateDescription(text: string, max = SUMMARY_DESCRIPTION_MAX): string {
  if (text.length <= max) return text;
  // `window` is the longest prefix that still leaves room for the ellipsis, plus the one unit
  // after it: a space right after the prefix means the prefix ends on a whole word.
  const window = text.slice(0, max);
  let cut = -1;
  for (let i = window.length - 1; i > 0; i--) {
    if (/\s/.test(window[i]!)) {
      cut = i;
      break;
    }
  }
  let head = cut > 0 ? text.slice(0, cut).trimEnd() : '';
  if (head === '') {
    let end = max - 1;
    // Do not leave a lone high surrogate at the end of the cut.
    if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end -= 1;
    head = text.slice(0, end);
  }
  return `${head}…`;
}

/** The list item of a skill (endpoint 1): the description shortened to 200 characters. */
export function toSummary(skill: SkillRecord): SkillSummary {
  return {
    id: skill.id,
    owner: skill.owner,
    repo: skill.repo,
    name: skill.name,
    description: truncateDescription(skill.description),
    stars: skill.stars,
    forks: skill.forks,
    updatedAt: skill.updatedAt,
    categories: skill.categories,
    platforms: skill.platforms,
    ...(skill.checks === undefined ? {} : { quality: qualitySummary(skill.checks) }),
  };
}

/** The detail of a skill (endpoint 2): full description, Markdown body as `content`. */
export function toDetail(skill: SkillRecord): SkillDetail {
  // The detail has the full `checks`, not their summary.
  const { quality: _quality, ...summary } = toSummary(skill);
  return {
    ...summary,
    description: skill.description,
    content: skill.body,
    watchers: skill.watchers,
    openIssues: skill.openIssues,
    license: skill.license,
    createdAt: skill.createdAt,
    pushedAt: skill.pushedAt,
    author: { name: skill.author.name, avatar: skill.author.avatar },
    installCommands: sortedRecord(skill.installCommands),
    ...(skill.source === undefined ? {} : { source: skill.source }),
    ...(skill.checks === undefined ? {} : { checks: skill.checks }),
    ...(skill.files === undefined ? {} : { files: skill.files.map(({ path, size, sha256 }) => ({ path, size, sha256 })) }),
    ...(skill.archive === undefined ? {} : { archive: { url: skill.archive.url, size: skill.archive.size, sha256: skill.archive.sha256 } }),
  };
}

/** The raw SKILL.md of a skill (endpoint 3). */
export function toContent(skill: SkillRecord): SkillContent {
  return { content: skill.raw, sha: skill.sha, size: skill.size };
}

/** The usage statistics of a skill (endpoint 4). */
export function toStats(skill: SkillRecord): SkillStats {
  const { views, installs, favorites, starHistory } = skill.stats;
  return { views, installs, favorites, starHistory: starHistory.map(({ date, stars }) => ({ date, stars })) };
}

/** Copy of a record with keys in code-unit order, so the output never depends on input order. */
function sortedRecord(record: Record<string, string>): Record<string, string> {
  const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, record[k]!]));
}
