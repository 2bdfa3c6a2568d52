/**
 * Quality signals of every skill (docs/quality.md), computed once by the build from the whole
 * directory and served statically: where the skill loads (spec-rules.ts), what deserves a review
 * (scan.ts), and whether it copies another (duplicates.ts). Advice, never a filter: nothing is
 * hidden or removed because of them.
 */
import type { Flag } from './scan.ts';
import { scanSkill } from './scan.ts';
import { findDuplicates, sketchSkill, type DuplicateGroup, type DuplicateInfo, type DuplicateInput, type Sketch } from './duplicates.ts';
import { checkSpec, PROFILES, type ProfileResults } from './spec-rules.ts';

/** The `checks` field of a skill's detail. */
export interface SkillChecks {
  profiles: ProfileResults;
  flags: Flag[];
  duplicateOf?: string;
  similar?: string[];
}

/** The `quality` field of a skill's summary (lists and search). */
export interface QualitySummary {
  /** Flags of high or medium severity (the ones worth a review; outbound links are low). */
  flags: number;
  /** An exact copy of another skill. */
  duplicate: boolean;
}

/** The directory's report, `api/v1/quality.json`. */
export interface QualityReport {
  format: 'skills-api-quality';
  version: 1;
  skills: number;
  /** Skills passing each profile. */
  profiles: Record<string, { pass: number; fail: number }>;
  /** Skills breaking each rule (any profile). */
  rules: Record<string, number>;
  /** Skills with each flag, and flags by severity. */
  flags: Record<string, number>;
  severities: Record<string, number>;
  /** Groups of exact copies (original first). */
  duplicateGroups: DuplicateGroup[];
  /** Skills with near copies, and the pairs linked. */
  similarSkills: number;
  similarPairs: number;
}

/** What quality needs of a skill. */
export interface QualityInput {
  id: string;
  repo: string;
  createdAt: string;
  raw: string;
  body: string;
  frontMatter: Record<string, unknown>;
  /** Import facts: the folder in its repository and the scripts it ships. */
  source?: { path: string; executables?: readonly string[] | undefined } | undefined;
}

/** What one skill gives on its own (everything but the comparison with the others). */
export interface SkillSignals {
  profiles: ProfileResults;
  flags: Flag[];
  sketch: Sketch;
}

/** The per-skill part of the quality pass: loading rules, the scan and the copy sketch. */
export function skillSignals(skill: QualityInput): SkillSignals {
  const folder = skill.source === undefined ? skill.repo : skill.source.path === '.' ? skill.repo : skill.source.path.split('/').at(-1)!;
  return {
    profiles: checkSpec({ frontMatter: skill.frontMatter, folder }),
    flags: scanSkill({ text: skill.raw, allowedTools: skill.frontMatter['allowed-tools'], executables: skill.source?.executables }),
    sketch: sketchSkill(skill),
  };
}

/**
 * Checks of every skill, by id, and the report. `signals` holds per-skill results computed
 * earlier (the build's quality thread, `QualityPass`); the others are computed here.
 */
export function computeQuality(skills: readonly QualityInput[], signals?: ReadonlyMap<string, SkillSignals>): { checks: Map<string, SkillChecks>; report: QualityReport; signals: Map<string, SkillSignals> } {
  const own = new Map<string, SkillSignals>();
  for (const skill of skills) own.set(skill.id, signals?.get(skill.id) ?? skillSignals(skill));
  return { ...compareSkills(skills, own), signals: own };
}

/**
 * Checks of every skill, by id, and the report, given every skill's own signals (`own`, by id):
 * the comparison between skills (copies) and the counts. Reads a skill's text only where it may
 * be a copy.
 */
export function compareSkills(skills: readonly DuplicateInput[], own: ReadonlyMap<string, SkillSignals>): { checks: Map<string, SkillChecks>; report: QualityReport } {
  const sketches = new Map<string, SkillSignals['sketch']>();
  for (const skill of skills) sketches.set(skill.id, own.get(skill.id)!.sketch);
  const { bySkill, groups, similarPairs } = findDuplicates(skills, sketches);
  const checks = new Map<string, SkillChecks>();
  const report: QualityReport = {
    format: 'skills-api-quality',
    version: 1,
    skills: skills.length,
    profiles: Object.fromEntries(PROFILES.map((p) => [p, { pass: 0, fail: 0 }])),
    rules: {},
    flags: {},
    severities: { high: 0, medium: 0, low: 0 },
    duplicateGroups: groups,
    similarSkills: 0,
    similarPairs,
  };
  // Once per skill of a large directory: no set or spread object for the many skills with no
  // problem, flag or copy.
  for (const skill of skills) {
    const { profiles, flags } = own.get(skill.id)!;
    const duplicates = bySkill.get(skill.id);
    checks.set(skill.id, duplicates === undefined ? { profiles, flags } : { profiles, flags, ...duplicates });
    let broken: Set<string> | undefined;
    for (const profile of PROFILES) {
      const result = profiles[profile];
      report.profiles[profile]![result.pass ? 'pass' : 'fail']++;
      for (const problem of result.problems) (broken ??= new Set()).add(problem.rule);
    }
    if (broken !== undefined) for (const rule of broken) report.rules[rule] = (report.rules[rule] ?? 0) + 1;
    if (flags.length > 0) {
      for (const id of new Set(flags.map((f) => f.id))) report.flags[id] = (report.flags[id] ?? 0) + 1;
      for (const flag of flags) report.severities[flag.severity] = (report.severities[flag.severity] ?? 0) + 1;
    }
    if (duplicates?.similar !== undefined) report.similarSkills++;
  }
  report.rules = sortedKeys(report.rules);
  report.flags = sortedKeys(report.flags);
  return { checks, report };
}

/** The summary of a skill's checks. */
export function qualitySummary(checks: SkillChecks): QualitySummary {
  if (checks instanceof StoredChecks) return checks.summary;
  return { flags: flagCount(checks.flags), duplicate: checks.duplicateOf !== undefined };
}

/** How many of `flags` are worth a review (high or medium: `QualitySummary.flags`). */
export function flagCount(flags: readonly Flag[]): number {
  let count = 0;
  for (const flag of flags) if (flag.severity !== 'low') count++;
  return count;
}

/**
 * Signals as stored in the build cache (builder/build-cache.ts): JSON, with the sketch's bands as
 * a list (JSON has no typed arrays) or null. Read back by `signalsOfText`.
 */
export function signalsText(signals: SkillSignals): string {
  const { exactKey, bands } = signals.sketch;
  return JSON.stringify({ ...signals, sketch: { exactKey, bands: bands === undefined ? null : [...bands] } });
}

/** Signals stored by `signalsText`, or undefined when `text` is not of that shape. */
export function signalsOfText(text: string): SkillSignals | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || !isObject(value.profiles) || !Array.isArray(value.flags) || !isObject(value.sketch)) return undefined;
  const { exactKey, bands } = value.sketch;
  if (typeof exactKey !== 'number' || !(bands === null || (Array.isArray(bands) && bands.every((b) => Number.isInteger(b) && b >= 0 && b <= 0xffffffff)))) return undefined;
  const signals = value as unknown as SkillSignals;
  signals.sketch.bands = bands === null ? undefined : Uint32Array.from(bands as number[]);
  return signals;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The checks of a skill whose signals are the stored `text` (`signalsText`): to JSON (a detail)
 * the object `computeQuality` gives, its `profiles` and `flags` parsed from the text when first
 * read, its summary (`qualitySummary`) the one given, computed where the signals were. An
 * incremental build reads the profiles and flags only of the skills whose detail it writes:
 * parsing 100k skills' signals on the build's thread cost more than half a second, and an object
 * with accessors of its own, 0.2 s more to make.
 */
export class StoredChecks implements SkillChecks {
  declare duplicateOf?: string;
  declare similar?: string[];
  readonly #summary: QualitySummary;
  #text: string | undefined;
  #signals: SkillSignals | undefined;

  constructor(text: string, summary: QualitySummary, duplicates: DuplicateInfo | undefined) {
    this.#text = text;
    this.#summary = summary;
    if (duplicates?.duplicateOf !== undefined) this.duplicateOf = duplicates.duplicateOf;
    if (duplicates?.similar !== undefined) this.similar = duplicates.similar;
  }

  /** The summary given (`qualitySummary`). */
  get summary(): QualitySummary {
    return this.#summary;
  }

  get profiles(): ProfileResults {
    return this.#parsed().profiles;
  }

  get flags(): Flag[] {
    return this.#parsed().flags;
  }

  #parsed(): SkillSignals {
    if (this.#signals === undefined) {
      const signals = signalsOfText(this.#text!);
      // The text passed its file's checksum and was read by the quality thread: only a bug gets here.
      if (signals === undefined) throw new Error('stored quality signals of a skill are not of their shape: delete the build cache and build again');
      this.#signals = signals;
      this.#text = undefined;
    }
    return this.#signals;
  }

  /** The keys of a computed one, in its order. */
  toJSON(): SkillChecks {
    return { profiles: this.profiles, flags: this.flags, ...(this.duplicateOf === undefined ? {} : { duplicateOf: this.duplicateOf }), ...(this.similar === undefined ? {} : { similar: this.similar }) };
  }
}

function sortedKeys(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
