/**
 * Categories of imported skills (builder/import/classify.ts, docs/import.md "Categories"):
 *
 * - precision against hand judgments of real skills (test/fixtures/import-categories.json: 100
 *   judged skills the classifier was tuned on, 30 held out), from their name and a description
 *   excerpt, with each repository's profile as the importer computes it;
 * - the rules that matter on their own: whole words, the repository's domain, subcategories;
 * - on a fixture repository made here: marketplace labels, a repository catalog, the sources
 *   file's `category`, boilerplate words of a large repository.
 */
import { promises as fs, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoriesFor, classify, classifyText } from '../builder/import/classify.ts';
import { runImport, type ImportReport } from '../builder/import/run.ts';
import { readSourcesFile } from '../builder/import/sources.ts';
import { gitFixture, skillMd, tempFolder } from './helpers/git-fixture.ts';

interface Judged {
  id: string;
  repository: string;
  path: string;
  name: string;
  description: string;
  labels?: string[];
  hints?: string[];
  accept: string[];
}
const fixture = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'import-categories.json'), 'utf8')) as {
  repositories: Record<string, { domain?: string; common: string[] }>;
  judged: Judged[];
  heldOut: Judged[];
};
const categoriesJson = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'content', 'categories.json'), 'utf8')) as { categories: { slug: string; subcategories: { slug: string }[] }[] };
const known = new Set(categoriesJson.categories.flatMap((c) => [c.slug, ...c.subcategories.map((s) => s.slug)]));

/** Assigned categories an editor accepts, over all assigned; skills left with none acceptable. */
function measure(skills: readonly Judged[]): { precision: number; assigned: number; withoutAcceptable: string[] } {
  let assigned = 0;
  let accepted = 0;
  const withoutAcceptable: string[] = [];
  for (const skill of skills) {
    const profile = fixture.repositories[skill.repository]!;
    const { categories } = categoriesFor({
      labels: skill.labels ?? [],
      hints: skill.hints,
      name: skill.name,
      description: skill.description,
      profile: { ...(profile.domain === undefined ? {} : { domain: profile.domain }), common: new Set(profile.common) },
      known,
    });
    const good = categories.filter((slug) => skill.accept.includes(slug));
    assigned += categories.length;
    accepted += good.length;
    if (good.length === 0) withoutAcceptable.push(`${skill.id}: ${categories.join(', ')}`);
  }
  return { precision: accepted / assigned, assigned, withoutAcceptable };
}

describe('precision against hand judgments of real skills', () => {
  it('the judged set: at least 90 % of assigned categories acceptable, every skill with one', () => {
    expect(fixture.judged).toHaveLength(100);
    for (const skill of fixture.judged) for (const slug of skill.accept) expect(known.has(slug), `${skill.id}: ${slug}`).toBe(true);
    const result = measure(fixture.judged);
    console.info(`categories, judged set: precision ${(result.precision * 100).toFixed(1)} % over ${result.assigned} assigned`);
    expect(result.withoutAcceptable).toEqual([]);
    expect(result.precision).toBeGreaterThanOrEqual(0.9);
  });

  it('the held-out set (never tuned on) holds up as well', () => {
    expect(fixture.heldOut).toHaveLength(30);
    const result = measure(fixture.heldOut);
    console.info(`categories, held-out set: precision ${(result.precision * 100).toFixed(1)} % over ${result.assigned} assigned`);
    expect(result.withoutAcceptable).toEqual([]);
    expect(result.precision).toBeGreaterThanOrEqual(0.9);
  });
});

describe('the classifier', () => {
  it('matches whole words only: an author is no auth, a skill creator is no test', () => {
    expect(classifyText('chapter-helper', 'Helps an author plan the chapters of a novel.')).not.toContain('security');
    expect(classifyText('login-flow', 'Add auth to a web app with OAuth and sessions.')).toContain('security');
    expect(classifyText('skill-creator', 'Guide for creating effective skills that extend the agent.')).not.toContain('testing');
  });

  it('weighs the name and the description far above the body', () => {
    const body = 'Kubernetes kubernetes docker helm. '.repeat(40);
    expect(classify({ name: 'seo-audit', description: 'Audit SEO issues: crawlability, indexation and rankings.', body }).categories[0]).toBe('marketing');
  });

  it('knows the repository\'s domain: a science collection\'s compliance is not security', () => {
    const skill = { name: 'compliance-checklist', description: 'Check regulatory compliance and audit trails of medical device software.', labels: [], known };
    expect(categoriesFor(skill).categories).toContain('security');
    const inScience = categoriesFor({ ...skill, profile: { domain: 'science', common: new Set() } }).categories;
    expect(inScience).not.toContain('security');
    expect(inScience).toContain('science');
    // Nothing to go on: the domain, not productivity.
    expect(categoriesFor({ name: 'xyz', description: 'Does xyz.', labels: [], profile: { domain: 'science', common: new Set() }, known })).toEqual({ categories: ['science'], by: 'fallback' });
  });

  it('assigns a subcategory after its category where one fits, primary first', () => {
    expect(classify({ name: 'react-modernization', description: 'Migrate React class components to hooks.' }, known).categories.slice(0, 2)).toEqual(['frontend', 'react']);
    expect(classify({ name: 'scrna-qc', description: 'Quality control for single-cell RNA-seq data with scanpy.' }, known).categories.slice(0, 2)).toEqual(['science', 'bioinformatics']);
  });

  it('takes a specific label as it is, a vague one only with the skill\'s words', () => {
    expect(categoriesFor({ labels: ['security'], name: 'x', description: 'y', known })).toEqual({ categories: ['security'], by: 'labels' });
    expect(categoriesFor({ labels: ['development'], name: 'x', description: 'y', known }).by).toBe('fallback');
    expect(categoriesFor({ labels: ['development'], name: 'linter-setup', description: 'Set up a linter.', known }).categories[0]).toBe('development');
  });
});

describe('import: labels, catalog, domain and boilerplate of a repository', () => {
  let base: string;
  let out: string;
  let report: ImportReport;
  const categoriesOf = (id: string): string[] | undefined => report.skills.find((s) => s.id === id)?.categories;

  beforeAll(async () => {
    base = await tempFolder('import-categories-');
    const catalog = await gitFixture(base, 'catalog', 'https://github.com/cat/skills');
    await catalog.commit('2025-01-01T00:00:00Z', {
      '.claude-plugin/marketplace.json': JSON.stringify({ name: 'm', plugins: [{ name: 'pay', source: './plugins/pay', category: 'payments' }] }),
      'plugins/pay/skills/refund-helper/SKILL.md': skillMd('refund-helper', 'Answers questions about refunds.'),
      'data/catalog.json': JSON.stringify({ skills: [{ path: 'skills/threat-notes/SKILL.md', category: 'security' }, { path: 'skills/meal-plan/SKILL.md', category: 'security' }] }),
      // The catalog's hint agrees with the skill's own words: taken; it alone is not enough.
      'skills/threat-notes/SKILL.md': skillMd('threat-notes', 'Keep notes on threats found in a review.'),
      'skills/meal-plan/SKILL.md': skillMd('meal-plan', 'Plan meals for the week.'),
    });
    // A large repository repeating one sentence: its boilerplate says nothing; the sources file gives its domain.
    const apps = await gitFixture(base, 'apps', 'https://github.com/apps/automations');
    const files: Record<string, string> = {};
    for (const app of ['Acme', 'Bolt', 'Crux', 'Dyno', 'Echo', 'Flux', 'Gale', 'Hue', 'Ion', 'Jet', 'Kite', 'Lux', 'Mox', 'Nyx', 'Orb', 'Pax', 'Quo', 'Rho', 'Sol', 'Tau']) {
      files[`${app.toLowerCase()}-automation/SKILL.md`] = skillMd(`${app.toLowerCase()}-automation`, `Automate ${app} tasks via Hub MCP. Always search tools first for current schemas.`);
    }
    files['zendesk-automation/SKILL.md'] = skillMd('zendesk-automation', 'Automate Zendesk tasks via Hub MCP, for support tickets and help center articles. Always search tools first for current schemas.');
    await apps.commit('2025-01-01T00:00:00Z', files);
    out = join(base, 'content');
    report = await runImport({
      sources: [{ url: catalog.dir }, { url: apps.dir, category: 'productivity' }],
      out,
      cacheDir: join(base, 'cache'),
      meta: { kind: 'none' },
      today: '2025-02-01',
    });
  }, 60_000);

  afterAll(async () => {
    await fs.rm(base, { recursive: true, force: true });
  });

  it('maps a marketplace category onto our slugs, and a catalog hint where the skill agrees', () => {
    expect(categoriesOf('cat/refund-helper')).toEqual(['finance']);
    expect(categoriesOf('cat/threat-notes')?.[0]).toBe('security');
    expect(categoriesOf('cat/meal-plan')).not.toContain('security');
  });

  it('leaves out a repository\'s boilerplate, falls back on its domain', () => {
    expect(report.repositories.map((r) => r.error)).toEqual([undefined, undefined]);
    expect(categoriesOf('apps/acme-automation')).toEqual(['productivity']);
    expect(report.skills.find((s) => s.id === 'apps/acme-automation')?.categoriesBy).toBe('fallback');
    expect(categoriesOf('apps/zendesk-automation')?.[0]).toBe('support');
    // "MCP" in every description is no sign of AI.
    expect(report.skills.filter((s) => s.categories?.includes('ai-ml'))).toEqual([]);
  });

  it('reads `category` from the sources file; an unknown one is an error naming it', async () => {
    const file = join(base, 'sources.yaml');
    await fs.writeFile(file, 'repositories:\n  - url: https://github.com/a/b\n    category: science\n');
    expect((await readSourcesFile(file))[0]?.category).toBe('science');
    const bad = await runImport({ sources: [{ url: join(base, 'apps'), category: 'astrology' }], out, cacheDir: join(base, 'cache'), meta: { kind: 'none' }, today: '2025-02-01' });
    expect(bad.repositories[0]?.error).toBe('sources file → category: unknown category "astrology"');
  });
});
