/**
 * categories.json and platforms.json of generated content: copied from a real content folder when
 * it has them (so the synthetic skills use the real category tree), else the spec's 24 categories
 * with a few subcategories and the three default platforms.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { titleWord } from './gen-text.ts';

/** The two files' text. */
export interface Taxonomy {
  categories: string;
  platforms: string;
}

/** Read categories.json/platforms.json from `dir`, or null when missing or not the expected shape. */
export function readTaxonomy(dir: string): Taxonomy | null {
  try {
    const categories = readFileSync(join(dir, 'categories.json'), 'utf8');
    const platforms = readFileSync(join(dir, 'platforms.json'), 'utf8');
    const c = JSON.parse(categories) as { categories?: unknown };
    const p = JSON.parse(platforms) as { platforms?: unknown };
    if (!Array.isArray(c.categories) || c.categories.length === 0 || !Array.isArray(p.platforms) || p.platforms.length === 0) return null;
    return { categories, platforms };
  } catch {
    return null;
  }
}

/** The spec's 24 categories with a few subcategories, for when no real categories.json exists. */
export function generatedTaxonomy(): Taxonomy {
  const names: Record<string, string> = {
    development: 'Development', frontend: 'Frontend', backend: 'Backend', devops: 'DevOps', data: 'Data Science',
    'ai-ml': 'AI/Machine Learning', security: 'Security', mobile: 'Mobile', cloud: 'Cloud', database: 'Database',
    testing: 'Testing', api: 'API Design', marketing: 'Marketing', design: 'Design', legal: 'Legal', finance: 'Finance',
    hr: 'Human Resources', education: 'Education', writing: 'Writing', sales: 'Sales', support: 'Support',
    management: 'Management', productivity: 'Productivity', research: 'Research',
  };
  const subs: Record<string, string[]> = {
    development: ['code-review', 'refactoring', 'git'], frontend: ['react', 'css', 'accessibility'],
    backend: ['nodejs', 'python', 'go'], devops: ['ci-cd', 'containers', 'infrastructure-as-code', 'monitoring'],
    data: ['analytics', 'etl', 'visualization'], 'ai-ml': ['llm', 'agents', 'mlops'],
    security: ['appsec', 'secrets', 'compliance'], marketing: ['seo', 'social-media', 'email-marketing'],
    writing: ['technical-writing', 'copywriting'],
  };
  const categories = Object.entries(names).map(([slug, name], i) => ({
    slug,
    icon: slug,
    // The spec lists the 12 technical categories first.
    group: i < 12 ? 'technical' : 'professional',
    name,
    description: `Skills for ${name.toLowerCase()} work.`,
    translations: {},
    subcategories: (subs[slug] ?? []).map((s) => {
      const sub = s.split('-').map(titleWord).join(' ');
      return { slug: s, name: sub, description: `Skills for ${sub}.`, translations: {} };
    }),
  }));
  const platforms = [
    { id: 'claude-code', name: 'Claude Code', install: '/plugin install {owner}/{repo}' },
    { id: 'codex', name: 'Codex', install: 'codex skills add {owner}/{repo}' },
    { id: 'chatgpt', name: 'ChatGPT', install: 'Download {name} and upload it in ChatGPT under Settings → Skills' },
  ];
  return {
    categories: `${JSON.stringify({ categories }, null, 2)}\n`,
    platforms: `${JSON.stringify({ platforms }, null, 2)}\n`,
  };
}

