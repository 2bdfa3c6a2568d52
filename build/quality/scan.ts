/**
 * Security flags of a SKILL.md: a static scan for what deserves a second look before installing
 * a skill. Each flag says "review", never "malicious": a download piped into a shell is also how
 * many honest tools install. Every pattern is linear (no nested quantifiers), so any text scans
 * in time proportional to its length, and the scan never throws.
 */

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
  message: string;
}

/** Patterns matched line by line. */
const LINE_PATTERNS: readonly LinePattern[] = [
  {
    id: 'pipe-to-shell',
    severity: 'high',
    // curl/wget/iwr … | sh, bash, zsh, python, node, perl, ruby, iex (PowerShell), sudo sh
    pattern: /\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]{0,300}\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z|k|da|fi)?sh\b|\b(?:curl|wget)\b[^|\n]{0,300}\|\s*(?:sudo\s+)?(?:python[0-9.]*|node|perl|ruby|php|iex)\b/i,
    message: 'Review: a download is piped straight into a shell or interpreter',
  },
  {
    id: 'instruction-override',
    severity: 'medium',
    pattern: /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|system|your)\s+(?:instructions|prompts?|rules|guidelines)\b|\bdo\s+not\s+(?:tell|inform|reveal\s+to)\s+the\s+user\b|\bwithout\s+(?:telling|asking|informing)\s+the\s+user\b|\byou\s+are\s+now\s+(?:in\s+)?(?:developer|jailbreak|dan|god)\s*mode\b/i,
    message: 'Review: wording that tries to override the agent\'s instructions or hide actions from the user',
  },
  {
    id: 'encoded-blob',
    severity: 'medium',
    // Hex is a subset of these characters. No word boundary after the run: with one, a long
    // run followed by a letter would backtrack quadratically.
    pattern: /[A-Za-z0-9+/]{160,}/,
    message: 'Review: a long encoded blob (base64 or hex) that readers cannot check by eye',
  },
  {
    id: 'outbound-url',
    severity: 'low',
    pattern: /\bhttps?:\/\/[^\s)<>"'`]+/i,
    message: 'Review: the instructions reach out to this address',
  },
];

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
  return text
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
    .replace(/[\u0000-\u001f\u007f-\u009f\u200B-\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g, (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`);
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

/** Scan one skill; flags sorted by line, then id. Never throws. */
export function scanSkill(input: ScanInput): Flag[] {
  const flags: Flag[] = [];
  const counts = new Map<string, number>();
  const add = (flag: Flag): void => {
    const n = counts.get(flag.id) ?? 0;
    if (n >= MAX_PER_ID) return;
    counts.set(flag.id, n + 1);
    flags.push(flag);
  };
  const lines = typeof input.text === 'string' ? input.text.split('\n') : [];
  lines.forEach((line, i) => {
    // Very long lines are scanned in their first 20,000 characters: patterns stay linear anyway.
    const scanned = line.length > 20_000 ? line.slice(0, 20_000) : line;
    for (const p of LINE_PATTERNS) {
      const match = p.pattern.exec(scanned);
      if (match !== null) add({ id: p.id, severity: p.severity, line: i + 1, excerpt: excerpt(scanned, match.index), message: p.message });
    }
    const hidden = INVISIBLE.exec(scanned);
    if (hidden !== null) {
      const bidi = /[\u202A-\u202E\u2066-\u2069]/.test(hidden[0]);
      add({
        id: 'hidden-unicode',
        severity: bidi ? 'high' : 'medium',
        line: i + 1,
        excerpt: excerpt(scanned, hidden.index),
        message: bidi ? 'Review: bidirectional control characters can make text read differently than it runs' : 'Review: invisible zero-width characters in the text',
      });
    }
  });
  const tools = typeof input.allowedTools === 'string' ? input.allowedTools.split(/[\s,]+/) : Array.isArray(input.allowedTools) ? input.allowedTools.filter((t): t is string => typeof t === 'string') : [];
  const shell = tools.find((tool) => SHELL_TOOLS.test(tool.trim()));
  if (shell !== undefined) {
    const line = lines.findIndex((l) => /^allowed-tools\s*:/.test(l) || l.includes(shell));
    add({ id: 'shell-tool', severity: 'medium', line: line + 1, excerpt: escapeExcerpt(shell), message: 'Review: allowed-tools pre-approves a shell, so commands run without asking' });
  }
  for (const file of (input.executables ?? []).slice(0, MAX_PER_ID)) {
    add({ id: 'executable-script', severity: 'low', line: 0, excerpt: escapeExcerpt(file), message: 'Review: the skill ships a script an agent may run' });
  }
  return flags.sort((a, b) => a.line - b.line || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
