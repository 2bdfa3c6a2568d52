/**
 * Safe SKILL.md front matter: YAML only, no code, bounded work. SKILL.md files come from
 * untrusted repositories, so the parser refuses anything gray-matter or a YAML library would
 * otherwise "helpfully" run or expand (BAD_INPUTS 1–11):
 *
 * - the first line (after an optional BOM) must be exactly `---`, so no front-matter language
 *   (`---js`, `---json`, `---toString`, ...) ever reaches gray-matter's engine lookup, and gray-matter
 *   gets its `js`/`javascript` engines replaced by functions that throw anyway;
 * - the YAML goes through `yaml` with an alias limit, unique keys, and every error or warning
 *   (unresolved `!!js/function`, `!tags`) rejected. The schema is YAML 1.2 core plus timestamps
 *   and `<<` merges: what authors expect from js-yaml-based tools. Plain YAML 1.1 would turn
 *   `description: No` into `false`, `n:` into a `false` key and `time: 12:30` into 750;
 * - the root must be a mapping; values become plain JSON data (dates as ISO strings, `__proto__`
 *   kept as an ordinary own key, nesting depth bounded).
 */
import matter from 'gray-matter';
import { parseDocument } from 'yaml';
import { quote } from './problems.ts';

/** Deepest nesting of mappings and lists accepted in front matter. */
export const MAX_FRONT_MATTER_DEPTH = 64;
/** Most YAML alias expansions accepted (an alias bomb needs millions). */
const MAX_ALIAS_COUNT = 100;

/** One thing wrong with a front matter; `field` is a dotted path into the YAML when known. */
export interface FrontMatterIssue {
  field?: string;
  message: string;
}

/** The only error `parseFrontMatter` throws: every issue found (at least one). */
export class FrontMatterError extends Error {
  readonly issues: FrontMatterIssue[];

  constructor(issues: FrontMatterIssue[]) {
    super(issues.map((i) => (i.field === undefined ? i.message : `${i.field}: ${i.message}`)).join('; '));
    this.name = 'FrontMatterError';
    this.issues = issues;
  }
}

/** A parsed SKILL.md. */
export interface FrontMatter {
  /** The front matter as plain JSON data. */
  data: Record<string, unknown>;
  /** Required `name`, trimmed. */
  name: string;
  /** Required `description`, trimmed. */
  description: string;
  /** Markdown after the closing `---` line (line endings as written). */
  body: string;
}

const fail = (message: string, field?: string): never => {
  throw new FrontMatterError([field === undefined ? { message } : { field, message }]);
};

const refuseCode = (): never => fail('front matter must be YAML: executable front matter is never run');

/**
 * Parse a SKILL.md text (BOM allowed, LF or CRLF): check the delimiters, parse the YAML front
 * matter safely and require non-empty string `name` and `description`. Throws only
 * `FrontMatterError`, listing every problem it can tell apart.
 */
export function parseFrontMatter(text: string): FrontMatter {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text;
  checkDelimiters(src);
  let file: { data: unknown; content: string };
  try {
    // Always an options object: without one gray-matter caches by content and shares results.
    file = matter(src, {
      language: 'yaml',
      engines: { js: refuseCode, javascript: refuseCode, yaml: parseYaml },
    });
  } catch (error) {
    if (error instanceof FrontMatterError) throw error;
    return fail(`front matter could not be read: ${messageOf(error)}`);
  }
  const data = file.data;
  // gray-matter turns an empty block into `{}` and may hand back non-objects from odd engines.
  if (!isPlainObject(data)) return fail('front matter must be a mapping');
  const issues: FrontMatterIssue[] = [];
  const name = requiredText(data, 'name', issues);
  const description = requiredText(data, 'description', issues);
  const plain = toPlain(data, '', 0, issues) as Record<string, unknown>;
  if (issues.length > 0) throw new FrontMatterError(issues);
  return { data: plain, name, description, body: file.content };
}

/**
 * The first line must be exactly `---` and a later line must be exactly `---` too (a trailing CR
 * is allowed on both). gray-matter alone would read `---js` as a language, and take any line
 * *starting* with `---` as the end.
 */
function checkDelimiters(src: string): void {
  const firstEnd = src.indexOf('\n');
  const first = firstEnd === -1 ? src : src.slice(0, firstEnd);
  if (!first.startsWith('---')) fail('missing front matter: the file must start with a line of exactly ---');
  if (first !== '---' && first !== '---\r') fail('front matter must start with a line of exactly ---');
  // gray-matter ends the block at the first "\n---" after the opening line.
  const close = firstEnd === -1 ? -1 : src.indexOf('\n---', firstEnd);
  if (close === -1) fail('front matter has no closing line of exactly ---');
  const lineEnd = src.indexOf('\n', close + 1);
  const closing = src.slice(close + 1, lineEnd === -1 ? src.length : lineEnd);
  if (closing !== '---' && closing !== '---\r') {
    fail(`front matter must end with a line of exactly ---, found ${quote(closing.slice(0, 40))}`);
  }
}

/** The YAML engine given to gray-matter: YAML 1.2 core + timestamps, no code, bounded aliases, nothing unresolved. */
function parseYaml(source: string): object {
  let doc;
  try {
    // The block ends where gray-matter found "\n---": in a CRLF file its last line keeps a lone
    // CR, which would otherwise end up inside the last value.
    doc = parseDocument(`${source}\n`, {
      version: '1.2',
      schema: 'core',
      customTags: ['timestamp'],
      uniqueKeys: true,
      merge: true,
      logLevel: 'error', // 'silent' would also drop the MULTIPLE_DOCS error
    });
  } catch (error) {
    return fail(`invalid YAML: ${messageOf(error)}`);
  }
  // Warnings include unresolved tags (`!!js/function`, `!foo`): their value would be guesswork.
  const [first, ...rest] = [...doc.errors, ...doc.warnings];
  if (first !== undefined) {
    const more = rest.length > 0 ? ` (and ${rest.length} more)` : '';
    // parseDocument's own text for this one points at an API, not at the file.
    const message = first.code === 'MULTIPLE_DOCS' ? 'more than one YAML document' : firstLine(first.message);
    return fail(`invalid YAML: ${message}${more}`);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // "Excessive alias count" (alias bomb), unresolved aliases, stack exhaustion.
    return fail(`invalid YAML: ${messageOf(error)}`);
  }
  if (!isPlainObject(value)) return fail('front matter must be a mapping');
  return value;
}

/** Read a required non-empty string field, recording an issue naming it otherwise. */
function requiredText(data: Record<string, unknown>, field: string, issues: FrontMatterIssue[]): string {
  const value = Object.hasOwn(data, field) ? data[field] : undefined;
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  const message =
    value === undefined ? 'required, expected a non-empty string' : `expected a non-empty string, got ${describe(value)}`;
  issues.push({ field, message });
  return '';
}

/**
 * Copy YAML output into plain JSON data: dates become ISO strings, keys are defined as own data
 * properties (a `__proto__` key stays a key, never a prototype), and anything JSON cannot carry
 * (`!!set`, `!!omap`, `!!binary`, `.inf`, `.nan`) or nesting deeper than the limit is an issue.
 */
function toPlain(value: unknown, path: string, depth: number, issues: FrontMatterIssue[]): unknown {
  const field = path === '' ? undefined : path;
  const issue = (message: string): undefined => {
    issues.push(field === undefined ? { message } : { field, message });
    return undefined;
  };
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : issue('numbers must be finite');
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? issue('invalid date') : value.toISOString();
  if (depth >= MAX_FRONT_MATTER_DEPTH) return issue(`nested deeper than ${MAX_FRONT_MATTER_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((item, i) => toPlain(item, `${path}[${i}]`, depth + 1, issues));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const child = toPlain(value[key], path === '' ? key : `${path}.${key}`, depth + 1, issues);
      Object.defineProperty(out, key, { value: child, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return issue(`unsupported YAML value (${describe(value)})`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A short human name of a value's type, for messages. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Date) return 'a date';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Map) return 'an ordered map';
  if (value instanceof Set) return 'a set';
  if (value instanceof Uint8Array) return 'binary data';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return 'an empty string';
  return `a ${typeof value}`;
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? '').replace(/:$/, '');
}

function messageOf(error: unknown): string {
  return firstLine(error instanceof Error ? error.message : String(error));
}
