/**
 * Other forms of a query word, applied at query time only (the index holds the words as written):
 * its English stem (the Porter stemmer of the `stemmer` package, so `deploying` and `deploy`,
 * `tests` and `testing` meet) and the synonym table below (docs/api.md "Synonyms"). No Node
 * built-ins: this runs in every host.
 */
import { stemmer } from 'stemmer';
import { IMPLICIT_PREFIX_MIN, terms } from './options.ts';

/** Stems computed so far (terms repeat across queries; a bounded map, cleared when full). */
const STEMS = new Map<string, string>();
const MAX_STEMS = 50_000;

/** The Porter stem of a folded term; terms with digits or under `IMPLICIT_PREFIX_MIN` characters are their own stem. */
export function stemOf(term: string): string {
  if (term.length < IMPLICIT_PREFIX_MIN || !/^[a-z]+$/.test(term)) return term;
  let stem = STEMS.get(term);
  if (stem === undefined) {
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    STEMS.set(term, (stem = stemmer(term)));
  }
  return stem;
}

/**
 * Where the index terms sharing `term`'s stem start: the common beginning of the term and its
 * stem (the stemmer only rewrites a word's end: `deploying` → `deploi`, so `deplo`), or null
 * when that is shorter than `IMPLICIT_PREFIX_MIN` characters.
 */
export function stemScanPrefix(term: string): string | null {
  const stem = stemOf(term);
  let i = 0;
  while (i < term.length && i < stem.length && term.charCodeAt(i) === stem.charCodeAt(i)) i++;
  return i >= IMPLICIT_PREFIX_MIN ? term.slice(0, i) : null;
}

/**
 * Groups of words and phrases that mean the same thing in a skill directory. A query word that
 * is a member of a group (or has the stem of a one-word member) also matches every other member:
 * a one-word member as that exact word, a phrase where all its words occur in one field. Keep it
 * small: it ships in every runtime.
 */
export const SYNONYMS: readonly (readonly string[])[] = [
  ['kubernetes', 'k8s'],
  ['docker', 'containerized', 'containerization'],
  ['xlsx', 'excel', 'spreadsheet', 'workbook'],
  ['docx', 'word document'],
  ['pptx', 'powerpoint', 'slides', 'presentation'],
  ['postgres', 'postgresql', 'psql'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
  ['ml', 'machine learning'],
  ['ai', 'artificial intelligence'],
  ['llm', 'language model'],
  ['analysis', 'analyze', 'analyse', 'analytics', 'analyzing'],
  ['auth', 'authentication', 'authenticate', 'login', 'oauth'],
  ['deploy', 'deployment', 'deploying'],
  ['db', 'database'],
  ['ci', 'continuous integration'],
  ['cicd', 'ci/cd', 'pipeline'],
  ['rnaseq', 'rna seq', 'scrna'],
  ['sequencing', 'seq'],
  ['slow', 'performance', 'optimization'],
  ['speed', 'performance', 'optimize'],
  ['email', 'mail', 'gmail'],
  ['image', 'images', 'picture', 'photo'],
  ['video', 'videos', 'movie'],
  ['plot', 'visualization'],
  ['frontend', 'front end', 'ui'],
  ['backend', 'back end', 'server'],
  ['scraping', 'scrape', 'crawler', 'crawl'],
  ['security', 'vulnerability', 'secure'],
  ['aws', 'amazon web services'],
  ['gcp', 'google cloud'],
  ['nlp', 'natural language processing'],
  ['api', 'apis', 'endpoint'],
  ['merge', 'combine', 'concatenate'],
];

/**
 * One-way additions: a query word (or a word of its stem) that also matches narrower words, but
 * not the other way round. `containers` asks for Docker; `docker` does not ask for C4 container
 * diagrams or CSS container queries, nor `plot` for Helm charts.
 */
export const NARROWER: readonly (readonly [string, readonly string[]])[] = [
  ['container', ['docker', 'containerized', 'containerization']],
  // `chart` is also Helm's: a query for plots should not get Helm charts.
  ['chart', ['plot', 'visualization']],
];

/**
 * Per stem of a one-word member: the other members of its groups, each as its folded terms. Made
 * at the first search, not as the code loads: a worker started for a list or a detail never needs
 * it, and stemming it is a large part of running the Service Worker's script.
 */
let alternatives: ReadonlyMap<string, readonly (readonly string[])[]> | undefined;

/**
 * Stem the synonym table now (it is otherwise stemmed at the first search): the Service Worker
 * calls this once activated, while the page it now controls sends its first request.
 */
export function prepareSynonyms(): void {
  alternativesByStem();
}

function alternativesByStem(): ReadonlyMap<string, readonly (readonly string[])[]> {
  if (alternatives !== undefined) return alternatives;
  const map = new Map<string, Map<string, string[]>>();
  /** Let a word of `word`'s stem also match each of `others` (folded terms). */
  const add = (word: string, others: readonly string[][]): void => {
    const key = stemOf(word);
    let known = map.get(key);
    if (known === undefined) map.set(key, (known = new Map()));
    for (const other of others) known.set(other.join(' '), other);
  };
  for (const group of SYNONYMS) {
    const members = group.map((member) => terms(member)).filter((t) => t.length > 0);
    for (const member of members) if (member.length === 1) add(member[0]!, members.filter((other) => other !== member));
  }
  for (const [word, narrower] of NARROWER) add(word, narrower.map((member) => terms(member)).filter((t) => t.length > 0));
  return (alternatives = new Map([...map].map(([key, others]) => [key, [...others.values()]])));
}

/**
 * The synonyms of a folded query term: each a list of terms (one word, or the words of a phrase),
 * never the term itself nor a word of its own stem.
 */
export function synonymsOf(term: string): ReadonlyArray<readonly string[]> {
  const stem = stemOf(term);
  return (alternativesByStem().get(stem) ?? []).filter((alt) => !(alt.length === 1 && stemOf(alt[0]!) === stem));
}
