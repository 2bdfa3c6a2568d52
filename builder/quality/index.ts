/**
 * Quality signals of every skill (docs/quality.md), computed once by the build from the whole
 * directory and served statically: where the skill loads (spec-rules.ts), what deserves a review
 * (scan.ts), and whether it copies another (duplicates.ts). Advice, never a filter: nothing is
 * hidden or removed because of them.
 */
import type { Flag } from './scan.ts';
import { scanSkill } from './scan.ts';
import { findDuplicates, sketchSkill, type DuplicateGroup, type Sketch } from './duplicates.ts';
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
  const sketches = new Map<string, SkillSignals['sketch']>();
  for (const skill of skills) {
    const signal = signals?.get(skill.id) ?? skillSignals(skill);
    own.set(skill.id, signal);
    sketches.set(skill.id, signal.sketch);
  }
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
  return { checks, report, signals: own };
}

/** The summary of a skill's checks. */
export function qualitySummary(checks: SkillChecks): QualitySummary {
  return { flags: checks.flags.filter((f) => f.severity !== 'low').length, duplicate: checks.duplicateOf !== undefined };
}

function sortedKeys(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
