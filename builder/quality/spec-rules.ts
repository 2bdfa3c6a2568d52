/**
 * Where a SKILL.md loads: one table of front-matter rules, each naming the profiles it applies to
 * and where it comes from (docs/quality.md cites them):
 *
 * - `agentskills`: the open Agent Skills specification (agentskills.io/specification).
 * - `claude-ai`: the claude.ai skill upload, whose checks Anthropic's skill-creator ships as
 *   `scripts/quick_validate.py` (anthropics/skills), plus the reserved words of Anthropic's skill
 *   authoring guide.
 * - `claude-code`: Claude Code, which reads name and description and ignores other keys.
 * - `codex`: Codex's loader (openai/codex `codex-rs/core/src/skills/loader.rs`): name and
 *   description required, at most 64 and 1024 characters after folding whitespace,
 *   `metadata.short-description` at most 500; other keys ignored.
 *
 * Advice, not verdicts: a failing profile means "review before relying on it there".
 */

/** The profiles, in the order they are reported. */
export const PROFILES = ['agentskills', 'claude-code', 'claude-ai', 'codex'] as const;
export type Profile = (typeof PROFILES)[number];

/** One problem of a profile. */
export interface SpecProblem {
  field: string;
  rule: string;
  message: string;
}

/** What the rules look at. */
export interface SpecInput {
  /** The front matter as parsed (plain data). */
  frontMatter: Record<string, unknown>;
  /** The skill's folder name (the import's folder, else the id's repo segment). */
  folder: string;
}

interface Rule {
  id: string;
  field: string;
  profiles: readonly Profile[];
  /** A message when the rule is broken, else undefined. */
  check: (input: SpecInput) => string | undefined;
}

/** Keys the specification (and the claude.ai upload) define. */
export const SPEC_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** Characters as Codex and Python count them: code points. */
const length = (value: string): number => [...value].length;
/** Codex folds runs of whitespace into one space before checking. */
const folded = (value: string): string => value.split(/\s+/).filter(Boolean).join(' ');
const name = (input: SpecInput): string => text(input.frontMatter.name)?.trim() ?? '';
const description = (input: SpecInput): string => text(input.frontMatter.description)?.trim() ?? '';

/** Every rule; the order is the order problems are reported in. */
export const RULES: readonly Rule[] = [
  {
    id: 'name-length',
    field: 'name',
    profiles: ['agentskills', 'claude-code', 'claude-ai'],
    check: (i) => (length(name(i)) > 64 ? `name is ${length(name(i))} characters; at most 64` : undefined),
  },
  {
    id: 'name-length',
    field: 'name',
    profiles: ['codex'],
    check: (i) => (length(folded(name(i))) > 64 ? `name is ${length(folded(name(i)))} characters; Codex loads at most 64` : undefined),
  },
  {
    id: 'name-charset',
    field: 'name',
    profiles: ['agentskills', 'claude-code', 'claude-ai'],
    check: (i) => (/^[a-z0-9-]*$/.test(name(i)) ? undefined : 'name may hold only lowercase letters, digits and hyphens (kebab-case)'),
  },
  {
    id: 'name-hyphens',
    field: 'name',
    profiles: ['agentskills', 'claude-ai'],
    check: (i) => (/^-|-$|--/.test(name(i)) ? 'name must not start or end with a hyphen or hold two in a row' : undefined),
  },
  {
    id: 'name-folder',
    field: 'name',
    profiles: ['agentskills'],
    check: (i) => (name(i) === i.folder ? undefined : `name must equal its folder name ${JSON.stringify(i.folder)}`),
  },
  {
    id: 'name-reserved',
    field: 'name',
    profiles: ['claude-ai'],
    check: (i) => (/anthropic|claude/i.test(name(i)) ? 'name must not contain the reserved words "anthropic" or "claude"' : undefined),
  },
  {
    id: 'description-length',
    field: 'description',
    profiles: ['agentskills', 'claude-ai'],
    check: (i) => (length(description(i)) > 1024 ? `description is ${length(description(i))} characters; at most 1024` : undefined),
  },
  {
    id: 'description-length',
    field: 'description',
    profiles: ['codex'],
    check: (i) => (length(folded(description(i))) > 1024 ? `description is ${length(folded(description(i)))} characters; Codex loads at most 1024` : undefined),
  },
  {
    id: 'description-angle-brackets',
    field: 'description',
    profiles: ['claude-ai'],
    check: (i) => (/[<>]/.test(description(i)) ? 'description must not contain < or > (no XML tags)' : undefined),
  },
  {
    id: 'compatibility-type',
    field: 'compatibility',
    profiles: ['agentskills', 'claude-ai'],
    check: (i) => {
      const value = i.frontMatter.compatibility;
      if (value === undefined) return undefined;
      if (typeof value !== 'string') return 'compatibility must be a string';
      return length(value) > 500 ? `compatibility is ${length(value)} characters; at most 500` : undefined;
    },
  },
  {
    id: 'metadata-string-map',
    field: 'metadata',
    profiles: ['agentskills'],
    check: (i) => {
      const value = i.frontMatter.metadata;
      if (value === undefined) return undefined;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'metadata must be a mapping of string keys to string values';
      const bad = Object.entries(value as Record<string, unknown>).find(([, v]) => typeof v !== 'string');
      return bad === undefined ? undefined : `metadata.${bad[0]} must be a string`;
    },
  },
  {
    id: 'short-description-length',
    field: 'metadata.short-description',
    profiles: ['codex'],
    check: (i) => {
      const metadata = i.frontMatter.metadata as Record<string, unknown> | undefined;
      const value = typeof metadata === 'object' && metadata !== null ? text(metadata['short-description']) : undefined;
      return value !== undefined && length(folded(value)) > 500 ? `metadata.short-description is ${length(folded(value))} characters; Codex loads at most 500` : undefined;
    },
  },
  {
    id: 'allowed-tools-type',
    field: 'allowed-tools',
    profiles: ['agentskills'],
    check: (i) => {
      const value = i.frontMatter['allowed-tools'];
      return value === undefined || typeof value === 'string' ? undefined : 'allowed-tools must be a space-separated string of tool names';
    },
  },
  {
    id: 'unknown-keys',
    field: 'front matter',
    profiles: ['agentskills', 'claude-ai'],
    check: (i) => {
      const extra = Object.keys(i.frontMatter).filter((key) => !(SPEC_KEYS as readonly string[]).includes(key)).sort();
      return extra.length === 0 ? undefined : `keys the specification does not define: ${extra.join(', ')}`;
    },
  },
];

/** Pass or fail and the problems, per profile. */
export type ProfileResults = Record<Profile, { pass: boolean; problems: SpecProblem[] }>;

/** Check a front matter against every profile. */
export function checkSpec(input: SpecInput): ProfileResults {
  const results = Object.fromEntries(PROFILES.map((p) => [p, { pass: true, problems: [] as SpecProblem[] }])) as ProfileResults;
  for (const rule of RULES) {
    const message = rule.check(input);
    if (message === undefined) continue;
    for (const profile of rule.profiles) {
      results[profile].pass = false;
      results[profile].problems.push({ field: rule.field, rule: rule.id, message });
    }
  }
  return results;
}
