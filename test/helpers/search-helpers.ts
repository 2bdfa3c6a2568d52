/**
 * Helpers of the search tests: skill records from a few fields, an in-memory build of the search
 * index with an engine over it, and the reference answers of an unsplit MiniSearch index.
 */
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { synonymsOf } from '../../src/search/forms.ts';
import { buildSearchIndex, type SearchIndexOptions } from '../../builder/search-index.ts';
import type { CategoryDef, SkillRecord } from '../../builder/model.ts';
import { mapLoader } from '../../src/loader.ts';
import type { Suggestion } from '../../src/schemas.ts';
import type { Manifest } from '../../src/manifest.ts';
import { FORMAT_VERSION, PAGE_SIZE } from '../../src/paths.ts';
import { createSearchEngine, type SearchAnswer, type SearchEngine } from '../../src/search/index.ts';
import { readAutocompleteQuery, readSearchQuery } from '../../src/answers/search-query.ts';
import {
  FIELD_BIT,
  FIELDS,
  processTerm,
  terms,
  words,
  type Field,
} from '../../src/search/options.ts';
import type { Clause, ParsedQuery } from '../../src/search/query.ts';

/** The fields a test sets on a skill; everything else gets a plain default. */
export interface SkillSpec {
  owner?: string;
  repo?: string;
  name?: string;
  description?: string;
  body?: string;
  stars?: number;
  updatedAt?: string;
  categories?: string[];
  platforms?: string[];
  hasIndex?: boolean;
}

/** A skill record from a spec (`i` makes the default id unique). */
export function makeSkill(i: number, spec: SkillSpec = {}): SkillRecord {
  const owner = spec.owner ?? 'owner';
  const repo = spec.repo ?? `skill-${String(i).padStart(3, '0')}`;
  const name = spec.name ?? `Skill ${i}`;
  const description = spec.description ?? `Description of skill ${i}.`;
  const body = spec.body ?? '';
  return {
    id: `${owner}/${repo}`,
    owner,
    repo,
    dir: `skills/${owner}/${repo}`,
    name,
    description,
    body,
    raw: `---\nname: x\ndescription: y\n---\n${body}`,
    sha: '0'.repeat(64),
    size: body.length,
    frontMatter: {},
    stars: spec.stars ?? 0,
    forks: 0,
    watchers: 0,
    openIssues: 0,
    license: 'MIT',
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: spec.updatedAt ?? '2025-01-01T00:00:00.000Z',
    pushedAt: '2025-01-01T00:00:00.000Z',
    author: { name: 'A', avatar: 'https://example.com/a.png' },
    categories: spec.categories ?? [],
    platforms: spec.platforms ?? ['claude-code'],
    installCommands: {},
    hasIndex: spec.hasIndex ?? false,
    stats: { views: 0, installs: 0, favorites: 0, starHistory: [] },
  };
}

/** A small category tree: `dev` with subcategories `review` and `git`, and `ops`. */
export const CATEGORIES: CategoryDef[] = [
  {
    slug: 'dev',
    icon: 'code',
    group: 'technical',
    name: 'Development',
    description: 'Code.',
    translations: {},
    subcategories: [
      { slug: 'review', name: 'Review', description: 'Review.', translations: {} },
      { slug: 'git', name: 'Git', description: 'Git.', translations: {} },
    ],
  },
  { slug: 'ops', icon: 'server', group: 'technical', name: 'Ops', description: 'Ops.', translations: {}, subcategories: [] },
];

export const PLATFORMS = ['chatgpt', 'claude-code', 'codex'];

/**
 * The engine as the handler drives it: the request's parameters read at the edge
 * (`readSearchQuery`, `readAutocompleteQuery`), then the typed engine. Errors of either come back
 * as a rejected promise.
 */
export interface EdgeEngine {
  search(params: URLSearchParams): Promise<SearchAnswer>;
  autocomplete(params: URLSearchParams): Promise<{ data: Suggestion[] }>;
}

/** `engine` behind the HTTP edge, with `manifest`'s categories and platforms. */
export function atTheEdge(engine: SearchEngine, manifest: Manifest): EdgeEngine {
  return {
    search: async (params) => engine.search(readSearchQuery(params, manifest)),
    autocomplete: async (params) => engine.autocomplete(readAutocompleteQuery(params)),
  };
}

/** An in-memory build and an engine over it. `loads` records every file the engine read. */
export interface Built {
  engine: EdgeEngine;
  files: Map<string, unknown>;
  manifest: Manifest;
  loads: string[];
  /** A fresh engine (cold caches) over the same files. */
  fresh(): EdgeEngine;
}

/** Build the search index of `skills` into memory and create an engine over it. */
export async function buildIndex(
  skills: SkillRecord[],
  options: SearchIndexOptions = {},
  categories: CategoryDef[] = CATEGORIES,
): Promise<Built> {
  const files = new Map<string, unknown>();
  const search = await buildSearchIndex(
    skills,
    async (path, data) => {
      if (files.has(path)) throw new Error(`emitted twice: ${path}`);
      files.set(path, JSON.parse(JSON.stringify(data)));
    },
    categories,
    options,
  );
  const manifest: Manifest = {
    format: FORMAT_VERSION,
    pageSize: PAGE_SIZE,
    skillCount: skills.length,
    locales: ['en'],
    categories: categories.flatMap((c) => [c.slug, ...c.subcategories.map((s) => s.slug)]).sort(),
    platforms: PLATFORMS,
    lists: {},
    search,
  };
  const loads: string[] = [];
  const inner = mapLoader(files);
  const loader = (path: string): Promise<unknown> => {
    loads.push(path);
    return inner(path);
  };
  const fresh = (): EdgeEngine => atTheEdge(createSearchEngine(loader, manifest), manifest);
  return { engine: fresh(), files, manifest, loads, fresh };
}

/** Every result id of a search (all pages), or the error code. */
export async function allIds(engine: EdgeEngine, params: Record<string, string>): Promise<string[] | string> {
  const ids: string[] = [];
  try {
    for (let page = 1; ; page++) {
      const answer = await engine.search(new URLSearchParams({ ...params, limit: '100', page: String(page) }));
      ids.push(...answer.data.map((r) => r.id));
      if (page >= answer.pagination.totalPages) return ids;
    }
  } catch (error) {
    return (error as { code: string }).code;
  }
}

const TEXT: Record<Field, (s: SkillRecord) => string> = { name: (s) => s.name, description: (s) => s.description, content: (s) => s.body };

/** Fields of `skill` (bits) where the adjacent words `phrase` occur (stop words skipped). */
export function phraseFields(skill: SkillRecord, phrase: readonly string[], fields: number): number {
  let found = 0;
  for (const field of FIELDS) {
    if (!(fields & FIELD_BIT[field])) continue;
    const seq = terms(TEXT[field](skill));
    for (let i = 0; i + phrase.length <= seq.length; i++) {
      if (phrase.every((t, k) => seq[i + k] === t)) {
        found |= FIELD_BIT[field];
        break;
      }
    }
  }
  return found;
}

/**
 * The rules of the reference, written from the documented decisions (README "Search", docs/decisions.md
 * §5), not imported from the code under test, so a bug in its ranking or typo rule shows:
 * - a plain term of 3+ characters also matches the terms it begins; one of 5+ characters also the
 *   terms one edit (insert, delete, replace) away that share its first 3 characters;
 * - expansions: the 50 most frequent terms per clause;
 * - order: most clauses matched by their exact term, then the largest sum over clauses of the
 *   best field weight (name 3, description 2, content 1), then stars, then most recently
 *   updated, then id.
 */
const RULES = { implicitPrefix: 3, typoMin: 5, typoSharedPrefix: 3, expansions: 50, weights: { name: 3, description: 2, content: 1 }, kinds: { exact: 5, form: 4, loose: 1 } } as const;

/** Levenshtein distance by dynamic programming over UTF-16 units (not the code's shortcut). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function referenceTypo(term: string, candidate: string): boolean {
  return term.length >= RULES.typoMin && candidate.slice(0, RULES.typoSharedPrefix) === term.slice(0, RULES.typoSharedPrefix) && editDistance(term, candidate) === 1;
}

/** The best weight among the fields of `mask` (name 1, description 2, content 4). */
function referenceWeight(mask: number): number {
  return Math.max(0, ...(['name', 'description', 'content'] as const).filter((f) => mask & FIELD_BIT[f]).map((f) => RULES.weights[f]));
}

/** The documents in ranking order for equal relevance: stars, then recency, then id. */
function referenceOrder(skills: readonly SkillRecord[]): SkillRecord[] {
  return [...skills].sort((a, b) => b.stars - a.stars || (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The reference: the same query answered by one unsplit MiniSearch index of the same documents
 * (same tokenizer and `processTerm`), with the documented matching rules and ranking (above)
 * applied to MiniSearch's matches, phrases checked on the text itself. Returns ids, best first.
 */
export class ReferenceIndex {
  readonly docs: SkillRecord[];
  private readonly ms: MiniSearch<{ n: number; name: string; description: string; content: string }>;
  private readonly df = new Map<string, number>();

  constructor(skills: readonly SkillRecord[]) {
    this.docs = referenceOrder(skills);
    this.ms = new MiniSearch({ idField: 'n', fields: [...FIELDS], tokenize: words, processTerm: (w) => processTerm(w) });
    this.ms.addAll(this.docs.map((s, n) => ({ n, name: s.name, description: s.description, content: s.body })));
    for (const s of this.docs) for (const t of new Set(terms(`${s.name} ${s.description} ${s.body}`))) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  /** Fields of document `n` holding `term` (bits), and 8 when the term is at least half of the name's words. */
  private fieldsOf(n: number, term: string): number {
    const s = this.docs[n]!;
    let bits = 0;
    for (const f of FIELDS) if (terms(TEXT[f](s)).includes(term)) bits |= FIELD_BIT[f];
    const name = terms(s.name);
    if (2 * name.filter((t) => t === term).length >= name.length && name.includes(term)) bits |= 8;
    return bits;
  }

  /** Per document number: [matched fields, best match weight] of one clause (absent: no match). */
  private clause(clause: Clause): Map<number, [number, number]> {
    const fields = clause.field === null ? 7 : FIELD_BIT[clause.field];
    const out = new Map<number, [number, number]>();
    if (clause.kind === 'phrase') {
      this.docs.forEach((s, n) => {
        const f = phraseFields(s, clause.terms, fields);
        if (f) out.set(n, [f, referenceWeight(f) * RULES.kinds.exact]);
      });
      return out;
    }
    const { term, mode } = clause;
    const plain = mode === 'plain' && !clause.negated;
    const prefix = mode === 'prefix' || (plain && term.length >= RULES.implicitPrefix);
    const typo = plain && term.length >= RULES.typoMin;
    const alpha = /^[a-z]+$/;
    const stem = plain && term.length >= RULES.implicitPrefix && alpha.test(term) ? stemmer(term) : null;
    const synonyms = plain ? new Set(synonymsOf(term).filter((a) => a.length === 1).map((a) => a[0]!)) : new Set<string>();
    const all = [...this.df.keys()];
    // Kinds: as written, another form (stem, synonym), prefix or typo (the 50 most frequent).
    const kind = new Map<string, number>();
    if (this.df.has(term)) kind.set(term, mode === 'prefix' ? RULES.kinds.exact : RULES.kinds.exact);
    for (const t of all) {
      if (t === term) continue;
      if ((stem !== null && t.length >= RULES.implicitPrefix && alpha.test(t) && stemmer(t) === stem) || synonyms.has(t)) kind.set(t, RULES.kinds.form);
    }
    const others = all.filter((t) => t !== term && !kind.has(t) && ((prefix && t.startsWith(term)) || (typo && referenceTypo(term, t))));
    others.sort((a, b) => this.df.get(b)! - this.df.get(a)! || (a < b ? -1 : 1));
    for (const t of others.slice(0, RULES.expansions)) kind.set(t, mode === 'prefix' ? RULES.kinds.exact : RULES.kinds.loose);
    this.docs.forEach((_, n) => {
      let any = 0;
      let best = 0;
      for (const [t, k] of kind) {
        const found = this.fieldsOf(n, t);
        const bits = found & fields;
        if (!bits) continue;
        any |= bits;
        // A name made at least half of this word weighs 4 (docs/api.md "Ranking").
        best = Math.max(best, (found & 8 && bits & 1 ? 4 : referenceWeight(bits)) * k);
      }
      if (any) out.set(n, [any, best]);
    });
    return out;
  }

  /** Ids of the documents matching `query` under the filters, best first (`relax` false: never relaxed, as autocomplete counts). */
  search(query: ParsedQuery, filter: (s: SkillRecord) => boolean = () => true, relax = true): string[] {
    const positives = query.clauses.filter((c) => !c.negated);
    const positive = positives.map((c) => this.clause(c));
    const negative = query.clauses.filter((c) => c.negated).map((c) => this.clause(c));
    const plainWord = (c: Clause): boolean => c.kind === 'word' && c.mode === 'plain' && c.field === null && !c.negated;
    const weights = positives.map((c, k) => {
      const df = c.kind === 'phrase' ? Math.min(...c.terms.map((t) => this.df.get(t) ?? 0)) : positive[k]!.size;
      return Math.min(100, Math.round(10 * Math.log(1 + this.docs.length / Math.max(1, df))));
    });
    const rank = (relaxed: boolean): Array<{ n: number; matched: number; relevance: number }> => {
      const ranked: Array<{ n: number; matched: number; relevance: number }> = [];
      this.docs.forEach((s, n) => {
        if (!filter(s) || negative.some((m) => m.has(n))) return;
        const holds = positive.map((m) => m.has(n));
        const ok = relaxed
          ? positives.every((c, k) => plainWord(c) || holds[k]) && positives.some((c, k) => plainWord(c) && holds[k])
          : holds.every(Boolean);
        if (!ok) return;
        let matched = 0;
        let relevance = 0;
        positive.forEach((m, k) => {
          const hit = m.get(n);
          if (hit === undefined) return;
          matched++;
          relevance += weights[k]! * hit[1];
        });
        ranked.push({ n, matched, relevance });
      });
      return ranked;
    };
    let ranked = rank(false);
    // Relaxed below 10 full matches (docs/api.md), when that adds documents.
    if (relax && ranked.length < 10 && positives.filter(plainWord).length >= 2) {
      const relaxed = rank(true);
      if (relaxed.length > ranked.length) ranked = relaxed;
    }
    ranked.sort((a, b) => b.matched - a.matched || b.relevance - a.relevance || a.n - b.n);
    return ranked.map((r) => this.docs[r.n]!.id);
  }
}

/** Undo `escapeHtml` after removing `<mark>` tags. */
export function unmark(html: string): string {
  return html
    .replace(/<\/?mark>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Words of the generated corpora: prefixes, typos, accents, stop words and hostile markup. */
export const VOCABULARY = [
  'docker', 'dockerfile', 'docking', 'compose', 'composer', 'file', 'files', 'kubernetes', 'kubernets', 'kubectl',
  'kubelet', 'helm', 'chart', 'charts', 'review', 'reviewer', 'code', 'test', 'tests', 'testing', 'Café', 'cafe',
  'Straße', 'strasse', 'İstanbul', 'e\u0301cole', 'the', 'of', 'a', 'amp', 'lt', 'quot', '<b>', '&amp;', '</script>',
  '<img src=x onerror=alert(1)>', '🎉', '42',
];
const SEPARATORS = [' ', ' ', ' ', '-', ', ', '\n', '. '];

const text = (max: number) =>
  fc
    .array(fc.tuple(fc.constantFrom(...VOCABULARY), fc.constantFrom(...SEPARATORS)), { maxLength: max })
    .map((parts) => parts.map(([w, s]) => w + s).join('').trim());

/** A generated corpus: up to `max` skills with ties in stars and dates, categories, platforms. */
export function corpusArb(max = 25): fc.Arbitrary<SkillRecord[]> {
  const skillArb = fc.record({
    owner: fc.constantFrom('acme', 'Beta-Co', 'zeta9'),
    name: text(4).map((t) => t || 'Unnamed'),
    description: text(14).map((t) => t || 'No description.'),
    body: text(30),
    stars: fc.constantFrom(0, 5, 10, 10, 250),
    updatedAt: fc.constantFrom('2024-01-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z'),
    categories: fc.subarray(['dev', 'review', 'git', 'ops']),
    platforms: fc.subarray(PLATFORMS, { minLength: 1 }),
    hasIndex: fc.boolean(),
  });
  return fc.array(skillArb, { minLength: 1, maxLength: max }).map((specs) => specs.map((spec, i) => makeSkill(i, spec)));
}

/** A generated query over `VOCABULARY`: every clause form, fields, negation, phrases, prefixes. */
export const queryArb: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom('', '', '', '-'),
      fc.constantFrom('', '', '', 'name:', 'description:', 'content:'),
      fc.oneof(
        fc.constantFrom(...VOCABULARY.filter((w) => /^[\p{L}\p{N}\p{M}]+$/u.test(w))),
        fc.constantFrom('dock*', 'kub*', 'com*', 'te*', 'rev*', 'caf*', '"docker"', 'kubernetez', 'dockr', 'composr'),
        fc
          .array(fc.constantFrom('docker', 'compose', 'file', 'the', 'kubernetes', 'helm', 'chart', 'code', 'review', 'test'), { minLength: 2, maxLength: 3 })
          .map((w) => `"${w.join(' ')}"`),
      ),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((clauses) => clauses.map(([neg, field, body]) => neg + field + body).join(' '));

/** Optional filters of a search. */
export const filterArb = fc.record(
  {
    category: fc.constantFrom('dev', 'review', 'git', 'ops'),
    platform: fc.constantFrom(...PLATFORMS),
    minStars: fc.constantFrom('0', '5', '10', '11', '1000'),
    hasIndex: fc.constantFrom('true', 'false'),
  },
  { requiredKeys: [] },
);

/** The reference filter of `filterArb` values (a top-level category includes its subcategories). */
export function referenceFilter(f: { category?: string; platform?: string; minStars?: string; hasIndex?: string }): (s: SkillRecord) => boolean {
  const accepted = f.category === undefined ? undefined : new Set([f.category, ...(CATEGORIES.find((c) => c.slug === f.category)?.subcategories.map((s) => s.slug) ?? [])]);
  return (s) =>
    (accepted === undefined || s.categories.some((c) => accepted.has(c))) &&
    (f.platform === undefined || s.platforms.includes(f.platform)) &&
    (f.minStars === undefined || s.stars >= Number(f.minStars)) &&
    (f.hasIndex === undefined || s.hasIndex === (f.hasIndex === 'true'));
}

/** True when `s` holds no lone surrogate (String#isWellFormed, which ES2022 typings lack). */
export function wellFormed(s: string): boolean {
  return !/\p{Cs}/u.test(s);
}
