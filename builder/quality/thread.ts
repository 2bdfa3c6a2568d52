/**
 * The quality thread (started by `QualityPass`): computes the per-skill signals of each batch of
 * skills it is sent, takes the stored signals of the others, and at the end compares them all
 * (copies) and counts the report, reading a skill's SKILL.md again only where it may be a copy.
 * The build's thread gets the checks back in a compact form (`QualityOutcome`).
 */
import { parentPort } from 'node:worker_threads';
import { compareSkills, flagCount, signalsOfText, signalsText, skillSignals, type SkillSignals } from './index.ts';
import type { DuplicateInfo, DuplicateInput } from './duplicates.ts';
import { skillsOf, type FinishSkill, type QualityOutcome, type ThreadAnswer, type ThreadMessage } from './messages.ts';
import { readSkillText } from '../skill-text.ts';

const own = new Map<string, SkillSignals>();
/** Stored signals, parsed as they come (while the build's thread goes on loading); undefined: not of their shape. */
const stored = new Map<string, SkillSignals | undefined>();
let failed: string | undefined;

parentPort?.on('message', (message: ThreadMessage) => {
  if (message.kind === 'compute') {
    try {
      for (const skill of message.skills) own.set(skill.id, skillSignals(skill));
    } catch (error) {
      // Answered at the end: the build's thread computes everything again, where it surfaces.
      failed ??= error instanceof Error ? error.message : String(error);
    }
  } else if (message.kind === 'stored') {
    const ids = message.ids.split('\n');
    const texts = message.texts.split('\n');
    ids.forEach((id, i) => stored.set(id, signalsOfText(texts[i]!)));
  } else {
    let answer: ThreadAnswer;
    try {
      answer = failed === undefined ? { outcome: finish(message.root, skillsOf(message)) } : { error: failed };
    } catch (error) {
      answer = { error: error instanceof Error ? error.message : String(error) };
    }
    parentPort!.postMessage(answer);
  }
});

function finish(root: string, skills: readonly FinishSkill[]): QualityOutcome {
  const signals = new Map<string, SkillSignals>();
  const texts: [number, string][] = [];
  skills.forEach((skill, i) => {
    const computed = own.get(skill.id);
    if (computed !== undefined) texts.push([i, signalsText(computed)]);
    const found = computed ?? stored.get(skill.id);
    // Never expected (the build's thread then computes them itself).
    if (found === undefined) throw new Error(`no quality signals of ${skill.dir}`);
    signals.set(skill.id, found);
  });
  const { checks, report } = compareSkills(skills.map((skill) => textOnDemand(root, skill)), signals);
  const flags = new Int32Array(skills.length);
  const duplicates: [number, DuplicateInfo][] = [];
  skills.forEach((skill, i) => {
    const { flags: found, duplicateOf, similar } = checks.get(skill.id)!;
    flags[i] = flagCount(found);
    if (duplicateOf !== undefined || similar !== undefined) duplicates.push([i, { ...(duplicateOf === undefined ? {} : { duplicateOf }), ...(similar === undefined ? {} : { similar }) }]);
  });
  return { report, flags, duplicates, texts };
}

/** A skill as the copy detector reads it, its text read again only when asked for. */
function textOnDemand(root: string, skill: FinishSkill): DuplicateInput {
  return {
    id: skill.id,
    createdAt: skill.createdAt,
    get raw(): string {
      return readSkillText(root, skill.dir, skill.sha, skill.size, true);
    },
    get body(): string {
      return readSkillText(root, skill.dir, skill.sha, skill.size, true).slice(skill.bodyAt);
    },
  };
}
