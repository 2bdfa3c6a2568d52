/**
 * What a repository as a whole says about its skills' categories (docs/import.md "Categories"):
 * its own catalog's categories (sickn33/antigravity-awesome-skills' `data/catalog.json`), and the
 * profile the classifier uses for every skill of it (its domain, its boilerplate words).
 */
import { FrontMatterError, parseFrontMatter } from '../../src/text/front-matter.ts';
import { normalizeRepoPath } from './discover.ts';
import { repositoryProfile, type RepositoryProfile } from './classify.ts';

/** Catalog files a repository may keep of its skills: `{ skills: [{ path, category }] }`. */
export const CATALOG_FILES = ['data/catalog.json', 'catalog.json'];

/**
 * A catalog's category per skill folder. Only `category` is read: such catalogs compute their
 * tags from the skill's name, which the classifier reads itself.
 */
export function catalogHints(bytes: Buffer | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (bytes === undefined) return out;
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return out;
  }
  const skills = (raw as { skills?: unknown } | null)?.skills;
  if (!Array.isArray(skills)) return out;
  for (const skill of skills.slice(0, 100_000)) {
    const { path, category } = (skill ?? {}) as { path?: unknown; category?: unknown };
    if (typeof path !== 'string' || typeof category !== 'string' || category.trim() === '') continue;
    const folder = normalizeRepoPath(path.replace(/\/?SKILL\.md$/i, '') || '.');
    if (folder !== undefined) out.set(folder, [category.trim()]);
  }
  return out;
}

/** The classifier's profile of a repository from its SKILL.md files (unreadable ones left out). */
export function profileOfSkills(files: readonly (Buffer | undefined)[], known: ReadonlySet<string>, domain: string | undefined): RepositoryProfile {
  const skills: { name: string; description: string }[] = [];
  for (const bytes of files) {
    if (bytes === undefined) continue;
    try {
      const front = parseFrontMatter(bytes.toString('utf8'));
      skills.push({ name: front.name, description: front.description });
    } catch (error) {
      if (!(error instanceof FrontMatterError)) throw error;
    }
  }
  return repositoryProfile(skills, known, domain);
}
