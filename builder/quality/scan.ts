/**
 * Security flags of a SKILL.md: a static scan for what deserves a second look before installing
 * a skill. Each flag says "review", never "malicious": a download piped into a shell is also how
 * many honest tools install. Every pattern is linear (no nested quantifiers), so any text scans
 * in time proportional to its length, and the scan never throws.
 */

import { escapeHtml } from '../../src/search/highlight.ts';
import { upperBound } from '../../src/sorted.ts';

export type Severity = 'high' | 'medium' | 'low';

/** One flag: what, how serious, where (1-based line), the line's text around it (HTML-escaped). */
export interface Flag {
  id: string;
  severity: Severity;
  line: number;
  excerpt: string;
  message: string;
}

/** What the scan reads besides the text. */
export interface ScanInput {
  /** The raw SKILL.md. */
  text: string;
  /** Front matter `allowed-tools`, as parsed. */
  allowedTools: unknown;
  /** Files of the skill folder the import saw as executable scripts (paths in the folder). */
  executables?: readonly string[] | undefined;
}

interface LinePattern {
  id: string;
  severity: Severity;
  pattern: RegExp;
  /**
   * Lower-case ASCII words every match contains one of: only lines holding one are matched
   * against `pattern` (found with native `indexOf` in the lower-cased text, many times faster
   * than the pattern tried at every position of a text that mostly cannot match).
   */
  anchors: readonly string[];
  message: string;
}

/** Patterns that match within one line (none can cross a line break). */
const LINE_PATTERNS: readonly LinePattern[] = [
  {
    id: 'pipe-to-shell',
    severity: 'high',
    // curl/wget/iwr … | sh, bash, zsh, python, node, perl, ruby, iex (PowerShell), sudo sh
    anchors: ['curl', 'wget', 'iwr', 'irm', 'invoke-'],
    pattern: /\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]{0,300}\|[ \t]*(?:sudo[ \t]+(?:-[^\s]+[ \t]+)*)?(?:ba|z|k|da|fi)?sh\b|\b(?:curl|wget)\b[^|\n]{0,300}\|[ \t]*(?:sudo[ \t]+)?(?:python[0-9.]*|node|perl|ruby|php|iex)\b/i,
    message: 'Review: a download is piped straight into a shell or interpreter',
  },
  {
    id: 'instruction-override',
    severity: 'medium',
    anchors: ['ignore', 'disregard', 'forget', 'override', 'user', 'mode'],
    pattern: /\b(?:ignore|disregard|forget|override)[ \t]+(?:all[ \t]+|any[ \t]+)?(?:the[ \t]+)?(?:previous|prior|above|earlier|system|your)[ \t]+(?:instructions|prompts?|rules|guidelines)\b|\bdo[ \t]+not[ \t]+(?:tell|inform|reveal[ \t]+to)[ \t]+the[ \t]+user\b|\bwithout[ \t]+(?:telling|asking|informing)[ \t]+the[ \t]+user\b|\byou[ \t]+are[ \t]+now[ \t]+(?:in[ \t]+)?(?:developer|jailbreak|dan|god)[ \t]*mode\b/i,
    message: 'Review: wording that tries to override the agent\'s instructions or hide actions from the user',
  },
  {
    id: 'outbound-url',
    severity: 'low',
    anchors: ['://'],
    pattern: /\bhttps?:\/\/[^\s)<>"'`]+/i,
    message: 'Review: the instructions reach out to this address',
  },
];

/** Characters of a base64 (or hex) run, and the run length that makes an `encoded-blob` flag. */
const BLOB_RUN = 160;
function isBlobUnit(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
}

/**
 * Where runs of `BLOB_RUN` or more base64 characters start. Any such run covers a multiple of
 * `BLOB_RUN`, so only those positions are looked at, and the run around one is measured only
 * when it holds a base64 character: in prose that is a word, a few characters each way. (As a
 * regular expression, `[A-Za-z0-9+/]{160,}`, every position inside a word started an attempt,
 * which was most of the scan's time.)
 */
function blobStarts(text: string): number[] {
  const found: number[] = [];
  let end = 0;
  for (let probe = BLOB_RUN - 1; probe < text.length && found.length < MAX_PER_ID; probe += BLOB_RUN) {
    if (probe < end || !isBlobUnit(text.charCodeAt(probe))) continue;
    let start = probe;
    while (start > end && isBlobUnit(text.charCodeAt(start - 1))) start--;
    end = probe + 1;
    while (end < text.length && isBlobUnit(text.charCodeAt(end))) end++;
    if (end - start >= BLOB_RUN) found.push(start);
  }
  return found;
}

/** Zero-width and bidirectional-control characters. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069]/;
/** Tool grants that give a shell. */
const SHELL_TOOLS = /^(?:bash|shell|sh|zsh|terminal|powershell|cmd|exec|run_shell_command|local_shell)(?:\(.*\))?$/i;

/** Most flags of one kind (outbound URLs can be many). */
const MAX_PER_ID = 20;
/** Excerpt length around the match, in code points. */
const EXCERPT = 120;

/** `text` safe to put into HTML and onto a terminal: `& < > " '` escaped, controls and bidi as `\u{…}`. */
export function escapeExcerpt(text: string): string {
  return escapeHtml(text).replace(/[\u0000-\u001f\u007f-\u009f\u200B-\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g, (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`);
}

/** The part of `line` around `index`, at most `EXCERPT` code points, escaped. */
function excerpt(line: string, index: number): string {
  const chars = [...line];
  // `index` counts UTF-16 units: turn it into a code-point position.
  const at = [...line.slice(0, index)].length;
  const start = Math.max(0, Math.min(at - 30, chars.length - EXCERPT));
  const cut = chars.slice(start, start + EXCERPT).join('');
  return escapeExcerpt(`${start > 0 ? '…' : ''}${cut}${start + EXCERPT < chars.length ? '…' : ''}`);
}

/** The global (`g`) form of each pattern, compiled once. */
const GLOBAL = new Map<RegExp, RegExp>();

/** The line (1-based) holding `index`: how many lines start at or before it. */
function lineAt(starts: readonly number[], index: number): number {
  return upperBound(starts, index);
}

/** Matches of a global pattern, at most one per line and `MAX_PER_ID` in all: [line, index in the line, line text]. */
function* matchesByLine(text: string, pattern: RegExp, starts: () => number[]): Generator<[number, number, string]> {
  let global = GLOBAL.get(pattern);
  if (global === undefined) GLOBAL.set(pattern, (global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)));
  global.lastIndex = 0;
  let last = 0;
  let count = 0;
  for (let m = global.exec(text); m !== null && count < MAX_PER_ID; m = global.exec(text)) {
    if (m[0].length === 0) global.lastIndex++;
    const lines = starts();
    const line = lineAt(lines, m.index);
    if (line === last) continue;
    last = line;
    count++;
    const start = lines[line - 1]!;
    const end = text.indexOf('\n', start);
    yield [line, m.index - start, text.slice(start, end === -1 ? text.length : end)];
  }
}

/**
 * Matches of a pattern with anchors (at most one per line, `MAX_PER_ID` in all), trying the
 * pattern only on the lines that hold an anchor. The same as `matchesByLine` (no pattern crosses
 * a line), which it falls back to when lower-casing changed the text's length (a `İ` becomes two
 * units), so positions in `lower` are positions in `text`.
 */
function* anchoredMatches(text: string, lower: string, p: LinePattern, starts: () => number[]): Generator<[number, number, string]> {
  if (lower.length !== text.length) {
    yield* matchesByLine(text, p.pattern, starts);
    return;
  }
  const lines = new Set<number>();
  for (const anchor of p.anchors) {
    for (let at = lower.indexOf(anchor); at !== -1; ) {
      const line = lineAt(starts(), at);
      lines.add(line);
      // On to the next line: one anchor is enough to try a line.
      const next = starts()[line];
      at = next === undefined ? -1 : lower.indexOf(anchor, next);
    }
  }
  let count = 0;
  for (const line of [...lines].sort((a, b) => a - b)) {
    const start = starts()[line - 1]!;
    const end = text.indexOf('\n', start);
    const lineText = text.slice(start, end === -1 ? text.length : end);
    const m = p.pattern.exec(lineText);
    if (m === null) continue;
    yield [line, m.index, lineText];
    if (++count === MAX_PER_ID) return;
  }
}

/** Scan one skill; flags sorted by line, then id. Never throws. `anchors: false` tries every pattern on the whole text (the reference the anchored scan is tested against). */
export function scanSkill(input: ScanInput, options: { anchors?: boolean } = {}): Flag[] {
  const flags: Flag[] = [];
  const text = typeof input.text === 'string' ? input.text : '';
  // One pass per pattern over the whole text (patterns never cross a line); line starts are
  // computed only when something matched.
  let lineStarts: number[] | undefined;
  const starts = (): number[] => {
    if (lineStarts === undefined) {
      lineStarts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    }
    return lineStarts;
  };
  const lower = text.toLowerCase();
  for (const p of LINE_PATTERNS) {
    const matches = options.anchors === false ? matchesByLine(text, p.pattern, starts) : anchoredMatches(text, lower, p, starts);
    for (const [line, index, lineText] of matches) {
      flags.push({ id: p.id, severity: p.severity, line, excerpt: excerpt(lineText, index), message: p.message });
    }
  }
  let lastBlobLine = 0;
  for (const at of blobStarts(text)) {
    const lines = starts();
    const line = lineAt(lines, at);
    if (line === lastBlobLine) continue;
    lastBlobLine = line;
    const end = text.indexOf('\n', lines[line - 1]!);
    const lineText = text.slice(lines[line - 1]!, end === -1 ? text.length : end);
    flags.push({ id: 'encoded-blob', severity: 'medium', line, excerpt: excerpt(lineText, at - lines[line - 1]!), message: 'Review: a long encoded blob (base64 or hex) that readers cannot check by eye' });
  }
  for (const [line, index, lineText] of matchesByLine(text, INVISIBLE, starts)) {
    const bidi = /[\u202A-\u202E\u2066-\u2069]/.test(lineText);
    flags.push({
      id: 'hidden-unicode',
      severity: bidi ? 'high' : 'medium',
      line,
      excerpt: excerpt(lineText, index),
      message: bidi ? 'Review: bidirectional control characters can make text read differently than it runs' : 'Review: invisible zero-width characters in the text',
    });
  }
  const tools = typeof input.allowedTools === 'string' ? input.allowedTools.split(/[\s,]+/) : Array.isArray(input.allowedTools) ? input.allowedTools.filter((t): t is string => typeof t === 'string') : [];
  const shell = tools.find((tool) => SHELL_TOOLS.test(tool.trim()));
  if (shell !== undefined) {
    const lines = text.split('\n', 200);
    const line = lines.findIndex((l) => /^allowed-tools\s*:/.test(l) || l.includes(shell));
    flags.push({ id: 'shell-tool', severity: 'medium', line: line + 1, excerpt: escapeExcerpt(shell), message: 'Review: allowed-tools pre-approves a shell, so commands run without asking' });
  }
  for (const file of (input.executables ?? []).slice(0, MAX_PER_ID)) {
    flags.push({ id: 'executable-script', severity: 'low', line: 0, excerpt: escapeExcerpt(file), message: 'Review: the skill ships a script an agent may run' });
  }
  return flags.sort((a, b) => a.line - b.line || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
