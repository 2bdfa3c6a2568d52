/**
 * The readable output of the `skills-api` CLI: API answers as aligned columns for a terminal,
 * search highlights emphasized instead of raw `<mark>`, every text from the content sanitized.
 * (`--json` prints the API's JSON instead; see skills-api.ts.)
 */
import type { Category, CategoryDetail, SearchResponse, SkillDetail, SkillListResponse, SkillStats } from '../schemas.ts';
import { columns, count, oneLine, renderHighlight, sanitize, truncate, type Style } from './terminal-text.ts';

/** How to print: the emphasis and, on a terminal, its width (long lines are cut to it). */
export interface OutputOptions {
  style: Style;
  width?: number | undefined;
}

/** Widest name column; longer names are cut with `…`. */
const NAME_WIDTH = 40;

/** Search results: rank, name, id and stars on one line, the description below, matches emphasized. */
export function formatSearch(body: SearchResponse, { style, width }: OutputOptions): string {
  const { data, pagination, meta } = body;
  const total = `${count(pagination.total)} ${pagination.total === 1 ? 'skill' : 'skills'}`;
  const head = style.strong(`${total} for ${oneLine(meta.query)}`) + style.dim(` · page ${pagination.page} of ${pagination.totalPages}`);
  if (data.length === 0) return `${head}\n${pagination.total === 0 ? 'No skill matches.' : 'No results on this page.'}\n`;
  const first = (pagination.page - 1) * pagination.limit;
  const rows = data.map((r, i) => [
    `${first + i + 1}.`,
    truncate(r.highlights?.name === undefined ? style.strong(oneLine(r.name)) : renderHighlight(r.highlights.name, style), NAME_WIDTH),
    style.dim(oneLine(r.id)),
    `★ ${count(r.stars)}`,
  ]);
  const lines = columns(rows, ['right', 'left', 'left', 'right']);
  // Descriptions start under the names.
  const indent = ' '.repeat(Math.max(...rows.map((row) => row[0]!.length)) + 2);
  const out = [head, ''];
  data.forEach((r, i) => {
    const description = r.highlights?.description === undefined ? oneLine(r.description) : renderHighlight(r.highlights.description, style);
    out.push(lines[i]!, cut(indent + description, width));
  });
  return `${out.join('\n')}\n`;
}

/** A page of skills as a table, with the page position below. */
export function formatSkillList(body: SkillListResponse, { style, width }: OutputOptions): string {
  const { data, pagination } = body;
  const foot = style.dim(`page ${pagination.page} of ${pagination.totalPages} · ${count(pagination.total)} ${pagination.total === 1 ? 'skill' : 'skills'}`);
  if (data.length === 0) return `${pagination.total === 0 ? 'No skills.' : 'No skills on this page.'}\n${foot}\n`;
  const rows = [
    ['NAME', 'ID', 'STARS', 'UPDATED', 'CATEGORIES'].map(style.strong),
    ...data.map((s) => [truncate(oneLine(s.name), NAME_WIDTH), oneLine(s.id), count(s.stars), s.updatedAt.slice(0, 10), oneLine(s.categories.join(', '))]),
  ];
  return `${columns(rows, ['left', 'left', 'right']).map((line) => cut(line, width)).join('\n')}\n${foot}\n`;
}

/** One skill: name, id, description, its facts as aligned pairs, install commands, and stats when given. */
export function formatSkill(skill: SkillDetail, { style }: OutputOptions, stats?: SkillStats): string {
  const facts: string[][] = [
    ['Stars', count(skill.stars)],
    ['Forks', count(skill.forks)],
    ['Watchers', count(skill.watchers)],
    ['Open issues', count(skill.openIssues)],
    ['License', oneLine(skill.license)],
    ['Author', oneLine(skill.author.name)],
    ['Categories', oneLine(skill.categories.join(', '))],
    ['Platforms', oneLine(skill.platforms.join(', '))],
    ['Created', skill.createdAt.slice(0, 10)],
    ['Updated', skill.updatedAt.slice(0, 10)],
    ['Pushed', skill.pushedAt.slice(0, 10)],
  ];
  if (stats !== undefined) {
    facts.push(['Views', count(stats.views)], ['Installs', count(stats.installs)], ['Favorites', count(stats.favorites)]);
    const recent = stats.starHistory.slice(-6).map((p) => `${p.date} ${count(p.stars)}`);
    if (recent.length > 0) facts.push(['Star history', `${stats.starHistory.length > 6 ? '… ' : ''}${recent.join(', ')}`]);
  }
  const install = Object.entries(skill.installCommands).map(([platform, command]) => [`  ${oneLine(platform)}`, oneLine(command)]);
  const out = [
    style.strong(oneLine(skill.name)),
    style.dim(oneLine(skill.id)),
    '',
    sanitize(skill.description).trim(),
    '',
    ...columns(facts.map(([k, v]) => [style.strong(k!), v!])),
  ];
  if (install.length > 0) out.push('', style.strong('Install'), ...columns(install));
  return `${out.join('\n')}\n`;
}

/** The category list: slug, name, skill count and subcategories. */
export function formatCategories(categories: readonly Category[], { style, width }: OutputOptions): string {
  const rows = [
    ['SLUG', 'NAME', 'SKILLS', 'SUBCATEGORIES'].map(style.strong),
    ...categories.map((c) => [oneLine(c.slug), oneLine(c.name), count(c.skillCount), oneLine(c.subcategories.map((s) => `${s.slug} (${count(s.skillCount)})`).join(', '))]),
  ];
  return `${columns(rows, ['left', 'left', 'right']).map((line) => cut(line, width)).join('\n')}\n`;
}

/** One category: name, slug, count, description, subcategories and top skills. */
export function formatCategory(category: CategoryDetail, { style }: OutputOptions): string {
  const out = [
    style.strong(oneLine(category.name)) + style.dim(` (${oneLine(category.slug)}) · ${count(category.skillCount)} ${category.skillCount === 1 ? 'skill' : 'skills'}`),
    sanitize(category.description).trim(),
  ];
  if (category.subcategories.length > 0) {
    out.push('', style.strong('Subcategories'), ...columns(category.subcategories.map((s) => [`  ${oneLine(s.slug)}`, oneLine(s.name), count(s.skillCount)]), ['left', 'left', 'right']));
  }
  if (category.topSkills.length > 0) {
    const rows = category.topSkills.map((s, i) => [`  ${i + 1}.`, truncate(oneLine(s.name), NAME_WIDTH), style.dim(`${oneLine(s.owner)}/${oneLine(s.repo)}`), `★ ${count(s.stars)}`]);
    out.push('', style.strong('Top skills'), ...columns(rows, ['left', 'left', 'left', 'right']));
  }
  return `${out.join('\n')}\n`;
}

/** `line` cut to the terminal width, when there is one. */
function cut(line: string, width: number | undefined): string {
  return width === undefined ? line : truncate(line, width);
}
