/**
 * Safe SKILL.md front matter: YAML only, no code, bounded work. SKILL.md files come from
 * untrusted repositories, so the parser refuses anything a front-matter tool or a YAML library
 * would otherwise "helpfully" run or expand (docs/decisions.md H1–H11):
 *
 * - the first line (after an optional BOM) must be exactly `---` and the block ends at the first
 *   line of exactly `---`, so no front-matter language (`---js`, `---json`, `---toString`, ...) is
 *   ever looked up. The block is split here, the way gray-matter splits it (the format authors
 *   know), without gray-matter: its engines could run code, and its per-call work (a content-keyed
 *   cache lookup, a Buffer copy of every file) cost more than the YAML itself;
 * - the YAML goes through `yaml` with an alias limit, unique keys, and every error or warning
 *   (unresolved `!!js/function`, `!tags`) rejected. The schema is YAML 1.2 core plus timestamps
 *   and `<<` merges: what authors expect from js-yaml-based tools. Plain YAML 1.1 would turn
 *   `description: No` into `false`, `n:` into a `false` key and `time: 12:30` into 750;
 * - a block of only `key: text` lines, one level of nesting and word lists (nearly every
 *   SKILL.md) takes a fast path that accepts exactly what `yaml` reads the same way, and hands
 *   anything else to `yaml`;
 * - the root must be a mapping; values become plain JSON data (dates as ISO strings, `__proto__`
 *   kept as an ordinary own key, nesting depth bounded).
 */
import { parseDocument } from 'yaml';
import { quote } from './printable.ts';

/** Deepest nesting of mappings and lists accepted in front matter. */
export const MAX_FRONT_MATTER_DEPTH = 64;
/** Longest display name (front matter or skill.json), in UTF-16 units. */
export const MAX_NAME_LENGTH = 256;
/**
 * Bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069): in a
 * name or description they make text read differently than it is (`Official \u202eloot
 * yfitrec\u202c by Anthropic` shows as "Official certify tool by Anthropic"). The marks U+200E and
 * U+200F, which right-to-left text legitimately needs, stay allowed.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** Why `value` cannot be a display name or description, when it holds bidirectional controls. */
export function bidiProblem(value: string): string | undefined {
  const found = [...new Set(value.match(BIDI_CONTROLS) ?? [])];
  if (found.length === 0) return undefined;
  const codes = found.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`).join(', ');
  return `bidirectional control characters (${codes}) can make the text read differently than it is; remove them`;
}

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

/**
 * Parse a SKILL.md text (BOM allowed, LF or CRLF): check the delimiters, parse the YAML front
 * matter safely and require non-empty string `name` and `description`. Throws only
 * `FrontMatterError`, listing every problem it can tell apart.
 */
export function parseFrontMatter(text: string): FrontMatter {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const { block, body } = splitFrontMatter(src);
  // Like gray-matter: a block of only blank and comment lines is an empty mapping, not YAML null.
  const data: Record<string, unknown> = block.replace(/^\s*#[^\n]+/gm, '').trim() === '' ? {} : (simpleMapping(block) ?? parseYaml(block));
  const issues: FrontMatterIssue[] = [];
  const name = requiredText(data, 'name', issues);
  // A display name is shown in every list it is in: a long one multiplies the output.
  if (name.length > MAX_NAME_LENGTH) issues.push({ field: 'name', message: `at most ${MAX_NAME_LENGTH} characters, got ${name.length}` });
  const description = requiredText(data, 'description', issues);
  for (const [field, value] of [['name', name], ['description', description]] as const) {
    const bidi = bidiProblem(value);
    if (bidi !== undefined) issues.push({ field, message: bidi });
  }
  const plain = toPlain(data, '', 0, issues) as Record<string, unknown>;
  if (issues.length > 0) throw new FrontMatterError(issues);
  return { data: plain, name, description, body };
}

/**
 * Split `src` into its YAML block and body. The first line must be exactly `---` and a later line
 * must be exactly `---` too (a trailing CR is allowed on both): the block ends at the first
 * `\n---`, and the body starts after that line (one CR and one LF dropped), as in gray-matter.
 */
export function splitFrontMatter(src: string): { block: string; body: string } {
  const firstEnd = src.indexOf('\n');
  const first = firstEnd === -1 ? src : src.slice(0, firstEnd);
  if (!first.startsWith('---')) fail('missing front matter: the file must start with a line of exactly ---');
  if (first !== '---' && first !== '---\r') fail('front matter must start with a line of exactly ---');
  const close = firstEnd === -1 ? -1 : src.indexOf('\n---', firstEnd);
  if (close === -1) fail('front matter has no closing line of exactly ---');
  const lineEnd = src.indexOf('\n', close + 1);
  const closing = src.slice(close + 1, lineEnd === -1 ? src.length : lineEnd);
  if (closing !== '---' && closing !== '---\r') {
    fail(`front matter must end with a line of exactly ---, found ${quote(closing.slice(0, 40))}`);
  }
  let body = src.slice(close + 4);
  if (body.startsWith('\r')) body = body.slice(1);
  if (body.startsWith('\n')) body = body.slice(1);
  return { block: src.slice(3, close), body };
}

/** `key: value` with a plain key; the value is checked by `simpleText`. */
const SIMPLE_LINE = /^([A-Za-z][A-Za-z0-9_-]*): +(.*?) *$/;
/** Characters a plain scalar may hold anywhere (no controls, C1, line or BOM code points, no surrogates). */
const SIMPLE_CHARS = /^[\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$/;
/** Plain scalars the core schema reads as null or booleans instead of text. */
const NOT_TEXT = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/**
 * The string YAML 1.2 core reads from a one-line value, for the common forms only: plain text
 * starting with a letter (no `: ` or ` #`, not null or a boolean), a version such as `1.2.3`, or
 * text in double or single quotes with no escape or quote inside. Undefined for anything else.
 */
function simpleText(value: string): string | undefined {
  if (!SIMPLE_CHARS.test(value)) return undefined;
  const quote = value[0];
  if (quote === '"' || quote === "'") {
    const inner = value.slice(1, -1);
    const plainInside = quote === '"' ? !/["\\]/.test(inner) : !inner.includes("'");
    return value.length >= 2 && value.endsWith(quote) && plainInside ? inner : undefined;
  }
  if (/^\d+(?:\.\d+){2,}$/.test(value)) return value;
  const plain = /^[A-Za-z]/.test(value) && !value.includes(': ') && !value.endsWith(':') && !value.includes(' #');
  return plain && !NOT_TEXT.has(value) ? value : undefined;
}

/** A one-line flow list of plain words: `[a, b c, d]`. */
const FLOW_LIST = /^\[([^[\]{},]*(?:,[^[\]{},]*)*)\]$/;

/**
 * The value of a one-line `simpleText`, a flow list of plain words or a `YYYY-MM-DD` date, as
 * YAML 1.2 core with timestamps reads it (a date the way `yaml` computes it, out-of-range days
 * rolling over).
 */
function simpleValue(value: string): string | string[] | Date | undefined {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (date !== null) return new Date(Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!));
  const list = FLOW_LIST.exec(value);
  if (list === null) return simpleText(value);
  // YAML separates with spaces and tabs only: `String#trim` would also drop U+00A0 and other Unicode spaces, which YAML keeps.
  const trimYaml = (text: string): string => text.replace(/^[ \t]+|[ \t]+$/g, '');
  if (trimYaml(list[1]!) === '') return [];
  const items = list[1]!.split(',').map(trimYaml);
  return items.every((item) => /^[A-Za-z][A-Za-z0-9_. -]*$/.test(item) && !NOT_TEXT.has(item)) ? items : undefined;
}

/**
 * The fast path of the front matter: when every line of `block` is empty, `key: value` with a
 * plain key and a `simpleValue`, or `key:` followed by such lines indented alike (one level of
 * nesting) — no continuation lines, comments, repeated keys or CR — the mapping `yaml` would read
 * from it; otherwise undefined, and `yaml` reads the block. Exported for the test that checks it
 * against `parseYaml`.
 */
export function simpleMapping(block: string): Record<string, unknown> | undefined {
  if (block.includes('\r')) return undefined;
  const out: Record<string, unknown> = {};
  /** The mapping of the last `key:` line, while its indented lines are read. */
  let nested: Record<string, unknown> | undefined;
  let indent = '';
  for (const line of block.split('\n')) {
    if (line === '') continue;
    if (nested !== undefined && line.startsWith(' ')) {
      indent ||= /^ +/.exec(line)![0];
      if (!line.startsWith(indent) || line[indent.length] === ' ' || !addEntry(nested, line.slice(indent.length))) return undefined;
      continue;
    }
    // `key:` with nothing under it is null, not a mapping.
    if (nested !== undefined && Object.keys(nested).length === 0) return undefined;
    nested = undefined;
    const parent = /^([A-Za-z][A-Za-z0-9_-]*):$/.exec(line)?.[1];
    if (parent !== undefined) {
      if (simpleText(parent) !== parent || Object.hasOwn(out, parent)) return undefined;
      nested = {};
      indent = '';
      out[parent] = nested;
    } else if (!addEntry(out, line)) {
      return undefined;
    }
  }
  if (nested !== undefined && Object.keys(nested).length === 0) return undefined;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Add the `key: value` of `line` to `map`; false when the line is not that simple or the key repeats. */
function addEntry(map: Record<string, unknown>, line: string): boolean {
  const match = SIMPLE_LINE.exec(line);
  if (match === null) return false;
  const [, key, raw] = match as unknown as [string, string, string];
  const value = simpleValue(raw);
  if (value === undefined || simpleText(key) !== key || Object.hasOwn(map, key)) return false;
  map[key] = value;
  return true;
}

/**
 * A front-matter block read as YAML 1.2 core + timestamps: no code, bounded aliases, nothing
 * unresolved; a mapping or a `FrontMatterError`. Exported for the test of `simpleMapping`.
 */
export function parseYaml(source: string): Record<string, unknown> {
  let doc;
  try {
    // The block ends at "\n---": in a CRLF file its last line keeps a lone CR, which would
    // otherwise end up inside the last value.
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
  const line = (message.split('\n')[0] ?? '').replace(/:$/, '');
  // The YAML parser recurses per level: thousands of nested brackets or indents exhaust the
  // stack before any limit of ours is reached. Say what the file did, not what the engine felt.
  return line.replace(/^(?:RangeError: )?Maximum call stack size exceeded/, `nested too deeply (at most ${MAX_FRONT_MATTER_DEPTH} levels)`);
}

function messageOf(error: unknown): string {
  return firstLine(error instanceof Error ? error.message : String(error));
}
