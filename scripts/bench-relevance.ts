/**
 * `npm run bench:relevance -- --content DIR`: how well search answers, on our own judged set.
 *
 * `bench/relevance-judgments.json` holds 42 queries (keywords, agent-style sentences, word-form
 * and synonym variants) with graded judgments (2 serves the need, 1 related, 0 not) of the skills
 * pooled from several engines over the real repositories that `bench/relevance-corpus.md` names
 * (import them with the command written there; their content is not part of this repository).
 * This script builds DIR, asks our handler each query (first 10 results), asks MiniSearch 7 the
 * same (one index of name, description and content with our tokenizer; OR, prefix, fuzzy 0.2,
 * boosts name 3 and description 2), and prints per kind and overall: nDCG@10 (unjudged results
 * count 0), success@5 (a result graded 2 among the first 5) and the share of queries with no
 * result.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import MiniSearch from 'minisearch';
import { runBuild } from '../builder/build.ts';
import { loadContent } from '../builder/load-content.ts';
import { createHandler } from '../src/handler.ts';
import { fsLoader } from '../src/node/index.ts';
import { processTerm, words } from '../src/search/options.ts';

interface Judged {
  q: string;
  kind: string;
  judgments: Record<string, number>;
}

const { values } = parseArgs({
  options: {
    content: { type: 'string' },
    judgments: { type: 'string', default: new URL('../bench/relevance-judgments.json', import.meta.url).pathname },
    verbose: { type: 'boolean', default: false },
    /** List the results of each engine that no judgment covers. */
    unjudged: { type: 'boolean', default: false },
  },
  strict: true,
});
if (values.content === undefined) {
  console.error('bench:relevance needs --content DIR: the six repositories of bench/relevance-corpus.md imported with `skills-api import` (the command is there)');
  process.exit(2);
}
const queries = (JSON.parse(readFileSync(values.judgments, 'utf8')) as { queries: Judged[] }).queries;

/** nDCG@10 with gains 2^grade − 1; the ideal is the judged grades sorted. */
export function ndcg(ids: readonly string[], judgments: Record<string, number>, k = 10): number {
  const gain = (g: number): number => 2 ** g - 1;
  const dcg = ids.slice(0, k).reduce((sum, id, i) => sum + gain(judgments[id] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(judgments)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + gain(g) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

const out = mkdtempSync(join(tmpdir(), 'bench-relevance-'));
try {
  await runBuild({ contentDir: values.content, outDir: out, site: false, skipInvalid: true });
  const handler = createHandler(fsLoader(out));
  const ours = async (q: string): Promise<string[]> => {
    const response = await handler(new Request(`http://bench.local/api/v1/skills/search?limit=10&q=${encodeURIComponent(q)}`));
    const body = (await response.json()) as { data?: Array<{ id: string }> };
    return (body.data ?? []).map((r) => r.id);
  };
  const { content } = await loadContent(values.content, { quality: false });
  const ms = new MiniSearch<{ id: string; name: string; description: string; content: string }>({
    fields: ['name', 'description', 'content'],
    tokenize: words,
    processTerm: (term) => processTerm(term) ?? false,
    searchOptions: { boost: { name: 3, description: 2 }, prefix: true, fuzzy: 0.2, combineWith: 'OR' },
  });
  ms.addAll((content?.skills ?? []).map((s) => ({ id: s.id, name: s.name, description: s.description, content: s.body })));
  const mini = async (q: string): Promise<string[]> => ms.search(q).slice(0, 10).map((r) => String(r.id));

  const rows: string[] = ['| engine | kind | queries | nDCG@10 | success@5 | zero results | unjudged in top 10 |', '|---|---|---|---|---|---|---|'];
  for (const [name, engine] of [['ours', ours], ['MiniSearch', mini]] as const) {
    const per = new Map<string, { n: number; ndcg: number; success: number; zero: number; unjudged: number; shown: number }>();
    for (const j of queries) {
      const ids = await engine(j.q);
      if (values.verbose) console.log(`${name} ${ndcg(ids, j.judgments).toFixed(2)} ${j.q}: ${ids.slice(0, 5).join(', ')}`);
      // Results nobody judged count 0: a high share means the judgments need another pooling round.
      const unjudged = ids.filter((id) => !(id in j.judgments));
      if (values.unjudged && unjudged.length > 0) console.log(`unjudged ${name} ${JSON.stringify(j.q)}: ${unjudged.join(' ')}`);
      for (const kind of [j.kind, 'all']) {
        const p = per.get(kind) ?? { n: 0, ndcg: 0, success: 0, zero: 0, unjudged: 0, shown: 0 };
        p.unjudged += unjudged.length;
        p.shown += ids.length;
        p.n++;
        p.ndcg += ndcg(ids, j.judgments);
        p.success += ids.slice(0, 5).some((id) => j.judgments[id] === 2) ? 1 : 0;
        p.zero += ids.length === 0 ? 1 : 0;
        per.set(kind, p);
      }
    }
    for (const [kind, p] of per) {
      rows.push(`| ${name} | ${kind} | ${p.n} | ${(p.ndcg / p.n).toFixed(3)} | ${((100 * p.success) / p.n).toFixed(0)} % | ${((100 * p.zero) / p.n).toFixed(0)} % | ${p.shown === 0 ? 0 : ((100 * p.unjudged) / p.shown).toFixed(0)} % |`);
    }
  }
  console.log(rows.join('\n'));
} finally {
  rmSync(out, { recursive: true, force: true });
}
