/**
 * Prose of the synthetic content generator (scripts/gen.ts): words drawn by a Zipf law from the
 * vocabulary of gen-words.ts, mixed with topic words of the skill's categories and a few focus
 * words of its own; sentences, lists, tables, fenced code with identifiers, Markdown bodies of a
 * target size, descriptions, and YAML scalars for the front matter.
 */
import { Rng, Zipf } from './gen-random.ts';
import { ACCENTED_WORDS, CODE_LANGS, FUNCTION_WORDS, GENERAL_WORDS, PHRASES, RARE_WORDS, TECH_WORDS, TOPIC_WORDS } from './gen-words.ts';

const SECTION_HEADINGS = [
  'Instructions', 'Workflow', 'Examples', 'Output format', 'Checklist', 'Troubleshooting', 'Notes',
  'References', 'Limitations', 'Inputs', 'Setup', 'Best practices', 'Common mistakes', 'Guidelines',
  'How it works', 'Before you start', 'Reporting', 'Edge cases', 'Quick reference', 'Verification',
];

/** Commands that start shell lines and `allowed-tools` entries. */
export const SHELL_TOOLS = ['git', 'npm', 'npx', 'docker', 'kubectl', 'terraform', 'python', 'jq', 'curl', 'gh', 'pnpm', 'cargo', 'go', 'make', 'helm', 'aws', 'psql', 'rg'];

/** Proper spellings of topic words when they start a display name. */
const PROPER: Record<string, string> = {
  typescript: 'TypeScript', javascript: 'JavaScript', github: 'GitHub', gitlab: 'GitLab', postgresql: 'PostgreSQL',
  postgres: 'Postgres', nodejs: 'Node.js', nextjs: 'Next.js', mongodb: 'MongoDB', mysql: 'MySQL', graphql: 'GraphQL',
  openapi: 'OpenAPI', pytorch: 'PyTorch', ios: 'iOS', fastapi: 'FastAPI', dynamodb: 'DynamoDB', duckdb: 'DuckDB',
  bigquery: 'BigQuery', swiftui: 'SwiftUI', vscode: 'VS Code', sqlite: 'SQLite', nestjs: 'NestJS', tensorflow: 'TensorFlow',
  huggingface: 'Hugging Face', openai: 'OpenAI', hubspot: 'HubSpot', quickbooks: 'QuickBooks', linkedin: 'LinkedIn',
  tiktok: 'TikTok', dbt: 'dbt', jupyter: 'Jupyter', opentofu: 'OpenTofu', okrs: 'OKRs', cicd: 'CI/CD', wcag: 'WCAG',
  circleci: 'CircleCI', mlops: 'MLOps', mlflow: 'MLflow', devops: 'DevOps', webvitals: 'Web Vitals', pubmed: 'PubMed',
  arxiv: 'arXiv', supabase: 'Supabase', planetscale: 'PlanetScale', rabbitmq: 'RabbitMQ', elasticsearch: 'Elasticsearch',
};
/** Words written in capitals in names ("API Design Reviewer"). */
export const ACRONYMS = new Set(
  'api apis css html sql seo llm llms aws gcp iam ci cd jwt xss csrf sqli ssrf cve sast dast sbom rbac okr kpi sla csat nps faq nda dpa gdpr ccpa hipaa soc2 tls ssl ssh dns cdn vpc ec2 s3 kms sqs sns rag ux ui crm orm etl elt json yaml csv xml http grpc sdk tdd bdd e2e pdf sre k6 cli'.split(' '),
);

/** The whole vocabulary, most frequent first, without duplicates. */
const VOCAB = [...new Set([...FUNCTION_WORDS, ...GENERAL_WORDS, ...TECH_WORDS, ...RARE_WORDS])];
const VOCAB_ZIPF = new Zipf(VOCAB.length, 1.05);
/** The tail (everything after the most common 600 words), drawn uniformly for rare terms. */
const TAIL = VOCAB.slice(600);
const TOPIC_ZIPF = new Map(Object.entries(TOPIC_WORDS).map(([k, v]) => [k, new Zipf(v.length, 0.9)]));
const ALL_TOPIC = [...new Set(Object.values(TOPIC_WORDS).flat())];
const ALL_TOPIC_ZIPF = new Zipf(ALL_TOPIC.length, 0.9);
/** Words fit for identifiers: ASCII letters only, longer than two. */
const IDENT_OK = new Set([...VOCAB, ...ALL_TOPIC].filter((w) => /^[a-z]{3,}$/.test(w)));

/** Words a skill writes about: its topics (by category) and a few focus words of its own. */
export interface Voice {
  rng: Rng;
  topics: string[][];
  topicZipfs: Zipf[];
  focus: string[];
  /** camelCase identifiers this skill has made, re-used as real code re-uses its names. */
  idents: string[];
}

/** One word: mostly the general vocabulary by rank, else topic, focus, rare or (seldom) accented words. */
function word(v: Voice): string {
  const r = v.rng.next();
  if (r < 0.62) return VOCAB[VOCAB_ZIPF.draw(v.rng)] as string;
  if (r < 0.77) {
    const t = v.rng.int(v.topics.length);
    return (v.topics[t] as string[])[(v.topicZipfs[t] as Zipf).draw(v.rng)] as string;
  }
  if (r < 0.89) return v.rng.pick(v.focus);
  if (r < 0.9985) return v.rng.pick(TAIL);
  return v.rng.pick(ACCENTED_WORDS);
}

export function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** Display form of a word inside a skill name. */
export function titleWord(w: string): string {
  return PROPER[w] ?? (ACRONYMS.has(w) ? w.toUpperCase() : capitalize(w));
}

function freshCamel(v: Voice, parts: number): string {
  let s = identWord(v);
  for (let i = 1; i < parts; i++) s += capitalize(identWord(v));
  return s;
}

/**
 * Common camelCase identifiers shared by every skill (`useState`, `fetchJson` in real code), most
 * frequent first. Built once from a fixed seed so they are the same in every run.
 */
const SHARED_IDENTS = (() => {
  const v: Voice = { rng: new Rng('shared-identifiers'), topics: [ALL_TOPIC], topicZipfs: [ALL_TOPIC_ZIPF], focus: TAIL.slice(0, 12), idents: [] };
  return Array.from({ length: 4000 }, (_, i) => freshCamel(v, 2 + (i % 3 === 2 ? 1 : 0)));
})();
const SHARED_IDENTS_ZIPF = new Zipf(SHARED_IDENTS.length, 1);

/**
 * A camelCase identifier: a commonly shared one, one this skill already used, or a new one
 * (camelCase is one token to a search tokenizer, so this sets the size of the vocabulary's tail).
 */
function camel(v: Voice, parts: number): string {
  if (parts < 2) return identWord(v);
  const r = v.rng.next();
  if (r < 0.35) return SHARED_IDENTS[SHARED_IDENTS_ZIPF.draw(v.rng)] as string;
  if (r < 0.85 && v.idents.length >= 8) return v.rng.pick(v.idents);
  const made = freshCamel(v, parts);
  v.idents.push(made);
  return made;
}

function snake(v: Voice, parts: number): string {
  const out: string[] = [];
  for (let i = 0; i < parts; i++) out.push(identWord(v));
  return out.join('_');
}

function kebab(v: Voice, parts: number): string {
  const out: string[] = [];
  for (let i = 0; i < parts; i++) out.push(identWord(v));
  return out.join('-');
}

/** A word fit for identifiers. */
export function identWord(v: Voice): string {
  for (;;) {
    const w = word(v);
    if (IDENT_OK.has(w)) return w;
  }
}

/** An identifier as it appears in inline code: `fetchUserProfile`, `max_retries`, `--dry-run`, `src/a-b.ts`. */
function identifier(v: Voice): string {
  switch (v.rng.int(6)) {
    case 0:
      return camel(v, v.rng.range(2, 3));
    case 1:
      return snake(v, v.rng.range(2, 3));
    case 2:
      return `--${kebab(v, v.rng.range(1, 2))}`;
    case 3:
      return `${v.rng.pick(['src', 'lib', 'docs', 'scripts', 'config', 'app'])}/${kebab(v, 2)}.${v.rng.pick(['ts', 'py', 'md', 'json', 'yaml', 'go'])}`;
    case 4:
      return `${v.rng.pick(SHELL_TOOLS)} ${identWord(v)}`;
    default:
      return snake(v, 2).toUpperCase();
  }
}

/** One sentence of 5–24 words with the odd collocation, inline code or comma. */
export function sentence(v: Voice, min = 5, max = 24): string {
  const n = v.rng.range(min, max);
  let text = '';
  let previous = '';
  for (let i = 0; i < n; i++) {
    const r = v.rng.next();
    let w: string;
    if (r < 0.04) w = v.rng.pick(PHRASES);
    else if (r < 0.065) w = `\`${identifier(v)}\``;
    else {
      w = word(v);
      // Real prose does not stutter ("the the"): draw again once.
      if (w === previous) w = word(v);
    }
    previous = w;
    text += i === 0 ? capitalize(w) : ` ${w}`;
    if (i > 2 && i < n - 2 && v.rng.chance(0.06)) text += ',';
  }
  return `${text}${v.rng.chance(0.08) ? ':' : '.'}`;
}

function paragraph(v: Voice): string {
  const n = v.rng.range(2, 5);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(sentence(v));
  return out.join(' ');
}

function bulletList(v: Voice, ordered: boolean): string {
  const n = v.rng.range(3, 8);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const lead = ordered ? `${i + 1}. ` : '- ';
    const bold = v.rng.chance(0.3) ? `**${capitalize(word(v))} ${word(v)}**: ` : '';
    out.push(`${lead}${bold}${sentence(v, 3, 14)}`);
  }
  return out.join('\n');
}

function table(v: Voice): string {
  const cols = v.rng.range(2, 4);
  const header: string[] = [];
  for (let c = 0; c < cols; c++) header.push(capitalize(word(v)));
  const rows = [`| ${header.join(' | ')} |`, `|${'---|'.repeat(cols)}`];
  const n = v.rng.range(3, 7);
  for (let r = 0; r < n; r++) {
    const cells: string[] = [`\`${identifier(v)}\``];
    for (let c = 1; c < cols; c++) cells.push(sentence(v, 2, 7).slice(0, -1));
    rows.push(`| ${cells.join(' | ')} |`);
  }
  return rows.join('\n');
}

function codeLine(v: Voice, lang: (typeof CODE_LANGS)[number]): string {
  const r = v.rng;
  switch (lang) {
    case 'sh':
      return r.chance(0.15)
        ? `# ${sentence(v, 3, 9).slice(0, -1).toLowerCase()}`
        : `${r.pick(SHELL_TOOLS)} ${identWord(v)} ${r.chance(0.6) ? `--${kebab(v, r.range(1, 2))} ` : ''}${r.chance(0.5) ? `${kebab(v, 2)}.${r.pick(['json', 'txt', 'yaml', 'md'])}` : `"${identWord(v)}"`}`;
    case 'ts':
      switch (r.int(5)) {
        case 0:
          return `import { ${camel(v, 2)} } from './${kebab(v, 2)}.ts';`;
        case 1:
          return `const ${camel(v, 2)} = await ${camel(v, 2)}(${camel(v, 1)}, { ${identWord(v)}: ${r.range(1, 500)} });`;
        case 2:
          return `export function ${camel(v, 3)}(${identWord(v)}: string): ${capitalize(camel(v, 2))} | undefined {`;
        case 3:
          return `  if (!${camel(v, 2)}) throw new Error('${sentence(v, 3, 8).slice(0, -1).replace(/'/g, '')}');`;
        default:
          return `  return ${camel(v, 2)}.filter((${identWord(v).charAt(0)}) => ${identWord(v).charAt(0)}.${camel(v, 2)} > ${r.range(0, 100)});`;
      }
    case 'python':
      switch (r.int(4)) {
        case 0:
          return `def ${snake(v, r.range(2, 3))}(${snake(v, 1)}, ${snake(v, 2)}=None):`;
        case 1:
          return `    ${snake(v, 2)} = ${snake(v, 1)}.${snake(v, 2)}(${r.range(1, 99)})`;
        case 2:
          return `    # ${sentence(v, 3, 9).slice(0, -1).toLowerCase()}`;
        default:
          return `    return [${identWord(v)} for ${identWord(v)} in ${snake(v, 2)} if ${identWord(v)}]`;
      }
    case 'yaml':
      return `${r.chance(0.5) ? '  ' : ''}${snake(v, r.range(1, 2))}: ${r.chance(0.3) ? r.range(1, 3600) : kebab(v, r.range(1, 2))}`;
    case 'json':
      return `  "${camel(v, r.range(1, 2))}": ${r.chance(0.4) ? r.range(0, 1000) : `"${kebab(v, r.range(1, 3))}"`},`;
    case 'sql':
      return r.chance(0.5)
        ? `SELECT ${snake(v, 1)}, ${snake(v, 2)}, count(*) FROM ${snake(v, 2)} WHERE ${snake(v, 1)} = $${r.range(1, 3)} GROUP BY 1, 2;`
        : `CREATE INDEX ${snake(v, 3)}_idx ON ${snake(v, 2)} (${snake(v, 1)});`;
    case 'go':
      return r.chance(0.5)
        ? `func ${capitalize(camel(v, 2))}(${identWord(v)} string) (${capitalize(camel(v, 1))}, error) {`
        : `\tif err := ${camel(v, 2)}(ctx, ${identWord(v)}); err != nil { return fmt.Errorf("${identWord(v)}: %w", err) }`;
    case 'md':
      return r.chance(0.3) ? `## ${capitalize(word(v))} ${word(v)}` : `- [ ] ${sentence(v, 3, 10)}`;
  }
}

const CODE_LANG_ZIPF = new Zipf(CODE_LANGS.length, 1);

function codeBlock(v: Voice): string {
  const lang = CODE_LANGS[CODE_LANG_ZIPF.draw(v.rng)] as (typeof CODE_LANGS)[number];
  const n = v.rng.range(2, 18);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(codeLine(v, lang));
  return `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``;
}

/** A Markdown body of at least `target` bytes (it stops at the first block boundary past it). */
export function body(v: Voice, name: string, description: string, target: number): string {
  const parts: string[] = [`# ${name}`, paragraph(v)];
  let size = parts[0]!.length + parts[1]!.length;
  const push = (block: string): void => {
    parts.push(block);
    size += block.length + 2;
  };
  if (v.rng.chance(0.7)) {
    push('## When to use');
    push(`${sentence(v, 4, 10)}\n\n${bulletList(v, false)}`);
  }
  if (v.rng.chance(0.2)) push(`> ${description}`);
  let step = 0;
  while (size < target) {
    const r = v.rng.next();
    if (r < 0.33) push(paragraph(v));
    else if (r < 0.5) push(bulletList(v, v.rng.chance(0.3)));
    else if (r < 0.7) push(codeBlock(v));
    else if (r < 0.8) push(`### ${++step}. ${capitalize(sentence(v, 2, 6).slice(0, -1))}`);
    else if (r < 0.92) push(`## ${v.rng.pick(SECTION_HEADINGS)}`);
    else if (r < 0.97) push(table(v));
    else push(`> **Note:** ${sentence(v)}`);
  }
  return `${parts.join('\n\n')}\n`;
}

/** A description of about `target` characters (30–1000). */
export function description(v: Voice, lead: string, target: number): string {
  let text = `${lead} ${sentence(v, 4, 14)}`;
  if (v.rng.chance(0.6)) text += ` Use when ${sentence(v, 4, 14).replace(/^./, (c) => c.toLowerCase())}`;
  while (text.length < target) text += ` ${sentence(v, 5, 18)}`;
  if (text.length > 1000) text = `${text.slice(0, text.lastIndexOf(' ', 996)).replace(/[,.:]$/, '')}.`;
  return text.replace(/:$/, '.');
}

/** YAML scalar: plain when unambiguous, else a JSON (= YAML double-quoted) string. */
export function yamlScalar(text: string): string {
  const plain = /^[A-Za-z][A-Za-z0-9 ,.;()'`/&+!?-]*$/.test(text) && !/: | #|[ ]$/.test(text);
  return plain ? text : JSON.stringify(text);
}

/** A folded block scalar (`>-`) wrapped at about 80 columns: parses back to the same text. */
export function yamlFolded(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line && line.length + w.length + 1 > 80) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  lines.push(line);
  return `>-\n${lines.map((l) => `  ${l}`).join('\n')}`;
}


/** The voice of one skill: its categories' topic words (unknown slugs get all topics) and 12 focus words. */
export function createVoice(rng: Rng, topicSlugs: readonly string[]): Voice {
  return {
    rng,
    topics: topicSlugs.map((t) => TOPIC_WORDS[t] ?? ALL_TOPIC),
    topicZipfs: topicSlugs.map((t) => TOPIC_ZIPF.get(t) ?? ALL_TOPIC_ZIPF),
    focus: Array.from({ length: 12 }, () => rng.pick(TAIL)),
    idents: [],
  };
}

/** A word of topic `t` of the voice, by popularity. */
export function topicWord(v: Voice, t: number): string {
  return (v.topics[t] as string[])[(v.topicZipfs[t] as Zipf).draw(v.rng)] as string;
}
