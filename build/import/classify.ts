/**
 * Categories of an imported skill, 1 to 3 of the 24 top-level slugs (docs/import.md):
 *
 * 1. The sources file's override for the skill, when there is one (used as given).
 * 2. Labels the repository gives: a declaring marketplace plugin's `category`, `tags` and
 *    `keywords`, and front matter `metadata.category` / `metadata.tags` / `tags`, mapped through
 *    `LABELS` (a slug is taken as itself).
 * 3. Otherwise the keyword rules below over the name (counted twice) and the description: each
 *    rule adds its weight once per matching word; the best three scores of at least
 *    `MIN_SCORE` win (ties by slug), else `productivity`.
 */

/** Labels seen in real marketplaces and front matter → slug. */
export const LABELS: Readonly<Record<string, string>> = {
  languages: 'development', language: 'development', development: 'development', coding: 'development', code: 'development',
  modernization: 'development', refactoring: 'development', git: 'development', tooling: 'development', 'developer-tools': 'development',
  workflows: 'productivity', workflow: 'productivity', utilities: 'productivity', utility: 'productivity', productivity: 'productivity', automation: 'productivity',
  'ai-ml': 'ai-ml', ai: 'ai-ml', ml: 'ai-ml', llm: 'ai-ml', agents: 'ai-ml', memory: 'ai-ml', 'machine-learning': 'ai-ml',
  security: 'security', appsec: 'security', compliance: 'security',
  marketing: 'marketing', seo: 'marketing', documentation: 'writing', docs: 'writing', writing: 'writing', content: 'writing',
  infrastructure: 'devops', operations: 'devops', devops: 'devops', 'ci-cd': 'devops', observability: 'devops', monitoring: 'devops',
  business: 'management', management: 'management', 'project-management': 'management', governance: 'legal', legal: 'legal',
  quality: 'testing', testing: 'testing', qa: 'testing', creative: 'design', design: 'design', ui: 'design', ux: 'design',
  data: 'data', analytics: 'data', 'data-science': 'data', performance: 'backend', backend: 'backend', database: 'database',
  databases: 'database', api: 'api', apis: 'api', finance: 'finance', payments: 'finance', accounting: 'finance',
  frontend: 'frontend', web: 'frontend', accessibility: 'frontend', mobile: 'mobile', ios: 'mobile', android: 'mobile',
  cloud: 'cloud', aws: 'cloud', azure: 'cloud', gcp: 'cloud', education: 'education', learning: 'education', teaching: 'education',
  research: 'research', sales: 'sales', crm: 'sales', support: 'support', 'customer-support': 'support', hr: 'hr', recruiting: 'hr',
  blockchain: 'development', gaming: 'development', 'document-processing': 'productivity', documents: 'productivity', office: 'productivity',
};

/** One keyword rule: words (lower case, matched as whole words or word prefixes ending in `*`) and their weight. */
interface Rule {
  slug: string;
  weight: number;
  words: readonly string[];
}

/** The keyword rules, strongest first within a slug. */
export const RULES: readonly Rule[] = [
  { slug: 'frontend', weight: 3, words: ['react', 'vue', 'svelte', 'angular', 'css', 'tailwind', 'frontend', 'front-end', 'html', 'dom', 'nextjs', 'next.js', 'ui component*'] },
  { slug: 'frontend', weight: 2, words: ['browser', 'web app*', 'webapp*', 'accessibility', 'a11y', 'artifact*'] },
  { slug: 'backend', weight: 3, words: ['backend', 'back-end', 'server-side', 'fastapi', 'django', 'flask', 'express', 'node.js', 'nodejs', 'microservice*', 'golang', 'rust'] },
  { slug: 'backend', weight: 1, words: ['python', 'typescript', 'javascript', 'java', 'server'] },
  { slug: 'devops', weight: 3, words: ['kubernetes', 'k8s', 'docker', 'terraform', 'helm', 'ci/cd', 'cicd', 'github actions', 'deployment*', 'devops', 'ansible', 'gitops'] },
  { slug: 'devops', weight: 2, words: ['ci', 'pipeline*', 'monitoring', 'observability', 'incident*', 'infrastructure'] },
  { slug: 'cloud', weight: 3, words: ['aws', 'azure', 'gcp', 'cloud', 'serverless', 'lambda', 'cloudflare'] },
  { slug: 'data', weight: 3, words: ['spreadsheet*', 'excel', 'xlsx', 'csv', 'pandas', 'dataframe*', 'etl', 'analytics', 'dashboard*', 'chart*', 'visualization*', 'data pipeline*'] },
  { slug: 'data', weight: 1, words: ['data'] },
  { slug: 'database', weight: 3, words: ['sql', 'postgres*', 'mysql', 'sqlite', 'mongodb', 'database*', 'schema*', 'query optimization', 'redis'] },
  { slug: 'ai-ml', weight: 3, words: ['llm*', 'prompt*', 'rag', 'embedding*', 'machine learning', 'model training', 'fine-tun*', 'agent*', 'mcp', 'claude api', 'openai', 'anthropic'] },
  { slug: 'ai-ml', weight: 1, words: ['ai', 'model*'] },
  { slug: 'security', weight: 3, words: ['security', 'vulnerabilit*', 'threat*', 'sast', 'owasp', 'pentest*', 'auth*', 'secrets', 'encryption', 'compliance', 'cve*'] },
  { slug: 'mobile', weight: 3, words: ['ios', 'android', 'swift', 'kotlin', 'flutter', 'react native', 'mobile'] },
  { slug: 'testing', weight: 3, words: ['test*', 'playwright', 'jest', 'pytest', 'e2e', 'qa', 'coverage', 'tdd'] },
  { slug: 'api', weight: 3, words: ['api*', 'rest', 'graphql', 'openapi', 'grpc', 'endpoint*', 'sdk*', 'webhook*'] },
  { slug: 'development', weight: 2, words: ['code', 'coding', 'refactor*', 'debug*', 'git', 'pull request*', 'code review*', 'repository', 'programming', 'developer*', 'cli'] },
  { slug: 'marketing', weight: 3, words: ['marketing', 'seo', 'campaign*', 'brand*', 'social media', 'newsletter*', 'ad copy', 'growth'] },
  { slug: 'design', weight: 3, words: ['design*', 'canvas', 'figma', 'poster*', 'art', 'generative art', 'algorithmic art', 'gif*', 'theme*', 'visual*', 'illustration*', 'typography', 'color*'] },
  { slug: 'legal', weight: 3, words: ['legal', 'contract*', 'license*', 'gdpr', 'privacy policy', 'terms of service', 'nda'] },
  { slug: 'finance', weight: 3, words: ['finance', 'financial', 'accounting', 'invoice*', 'budget*', 'payment*', 'tax*', 'stripe'] },
  { slug: 'hr', weight: 3, words: ['hiring', 'recruit*', 'interview*', 'onboarding', 'employee*', 'hr', 'resume*'] },
  { slug: 'education', weight: 3, words: ['teach*', 'tutor*', 'lesson*', 'course*', 'student*', 'quiz*', 'learning'] },
  { slug: 'writing', weight: 3, words: ['writing', 'write', 'document*', 'docx', 'word document*', 'copywriting', 'blog', 'article*', 'technical writing', 'co-author*', 'editing', 'prose', 'communication*'] },
  { slug: 'sales', weight: 3, words: ['sales', 'crm', 'lead*', 'prospect*', 'pipeline review', 'deal*'] },
  { slug: 'support', weight: 3, words: ['support ticket*', 'customer support', 'helpdesk', 'faq*', 'troubleshoot*'] },
  { slug: 'management', weight: 3, words: ['project management', 'planning', 'plan', 'roadmap*', 'meeting*', 'stakeholder*', 'okr*', 'team*', 'linear', 'jira', 'notion', 'internal comm*'] },
  { slug: 'productivity', weight: 2, words: ['productivity', 'workflow*', 'automat*', 'pdf', 'pptx', 'powerpoint', 'presentation*', 'slack', 'email*', 'template*', 'form*'] },
  { slug: 'research', weight: 3, words: ['research*', 'literature', 'paper*', 'citation*', 'survey*', 'investigat*', 'knowledge'] },
];

/** The least score that makes a keyword category. */
export const MIN_SCORE = 3;
/** Most categories per skill. */
export const MAX_CATEGORIES = 3;
/** The category of a skill no rule matches. */
export const FALLBACK = 'productivity';

/** Lower-case words and two-word phrases of `text`. */
function tokens(text: string): string[] {
  const words = text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}][\p{L}\p{N}+#./-]*/gu) ?? [];
  const clean = words.map((w) => w.replace(/[./-]+$/, ''));
  return [...clean, ...clean.slice(1).map((w, i) => `${clean[i]} ${w}`)];
}

/** Whether `word` (a token) matches a rule word (`prefix*` or an exact word or phrase). */
function matches(ruleWord: string, word: string): boolean {
  return ruleWord.endsWith('*') ? word.startsWith(ruleWord.slice(0, -1)) : word === ruleWord;
}

/** Slugs of the keyword rules for `name` and `description`, best first. */
export function classifyText(name: string, description: string): string[] {
  const scores = new Map<string, number>();
  const words = [...tokens(name), ...tokens(name), ...tokens(description)];
  for (const rule of RULES) {
    for (const ruleWord of rule.words) {
      const count = words.filter((w) => matches(ruleWord, w)).length;
      if (count > 0) scores.set(rule.slug, (scores.get(rule.slug) ?? 0) + rule.weight * Math.min(count, 3));
    }
  }
  return [...scores]
    .filter(([, score]) => score >= MIN_SCORE)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_CATEGORIES)
    .map(([slug]) => slug);
}

/** Slugs that labels map to (in label order, unique), given the slugs that exist. */
export function slugsOfLabels(labels: readonly string[], known: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const label of labels) {
    const key = label.trim().toLowerCase().replace(/[\s_]+/g, '-');
    const slug = known.has(key) ? key : LABELS[key];
    if (slug !== undefined && known.has(slug) && !out.includes(slug)) out.push(slug);
  }
  return out;
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

/** 1–3 categories for a skill: `override`, else labels, else keywords, else `FALLBACK`. */
export function categoriesFor(options: {
  override?: readonly string[] | undefined;
  labels: readonly string[];
  name: string;
  description: string;
  known: ReadonlySet<string>;
}): { categories: string[]; by: 'override' | 'labels' | 'keywords' | 'fallback' } {
  if (options.override !== undefined && options.override.length > 0) return { categories: [...options.override], by: 'override' };
  const labelled = slugsOfLabels(options.labels, options.known).slice(0, MAX_CATEGORIES);
  if (labelled.length > 0) return { categories: labelled, by: 'labels' };
  const keywords = classifyText(options.name, options.description).filter((slug) => options.known.has(slug));
  if (keywords.length > 0) return { categories: keywords, by: 'keywords' };
  return { categories: [options.known.has(FALLBACK) ? FALLBACK : [...options.known].sort()[0]!], by: 'fallback' };
}
