/**
 * What the build's thread and the quality thread (builder/quality/thread.ts) send each other
 * (`QualityPass`). A module of its own: the thread's module listens to its parent port as it loads.
 */
import type { QualityInput, QualityReport } from './index.ts';
import type { DuplicateInfo } from './duplicates.ts';

/** Where a skill's SKILL.md is, to read it again, and the bytes it must still have. */
export interface FinishSkill {
  id: string;
  createdAt: string;
  /** `skills/<owner>/<repo>`, under the content folder. */
  dir: string;
  sha: string;
  size: number;
  /** Where the body starts in the text. */
  bodyAt: number;
}

/** What the build's thread sends. */
export type ThreadMessage =
  | { kind: 'compute'; skills: QualityInput[] }
  /** Stored signals (`signalsText`): ids and texts, a line each, in the same order. */
  | { kind: 'stored'; ids: string; texts: string }
  /** Every skill of the build, sorted by id (`finishMessage`); `root`: the content folder's real path. */
  | FinishMessage;

/**
 * The skills of a `finish` by column: each text field's values a line each, the numbers in typed
 * arrays (a message of 100k small objects took the build's thread 0.3 s to send).
 */
export interface FinishMessage {
  kind: 'finish';
  root: string;
  ids: string;
  createdAt: string;
  dirs: string;
  shas: string;
  sizes: Float64Array;
  bodyAt: Float64Array;
}

/** The `finish` message of `skills`, `bodyAt` giving where each one's body starts in its text. */
export function finishMessage<S extends Omit<FinishSkill, 'bodyAt'>>(root: string, skills: readonly S[], bodyAt: (skill: S) => number): FinishMessage {
  const column = (key: 'id' | 'createdAt' | 'dir' | 'sha'): string => skills.map((skill) => skill[key]).join('\n');
  return {
    kind: 'finish', root, ids: column('id'), createdAt: column('createdAt'), dirs: column('dir'), shas: column('sha'),
    sizes: Float64Array.from(skills, (skill) => skill.size), bodyAt: Float64Array.from(skills, bodyAt),
  };
}

/** The skills of a `finish` message. */
export function skillsOf(message: FinishMessage): FinishSkill[] {
  const ids = message.ids.split('\n');
  const createdAt = message.createdAt.split('\n');
  const dirs = message.dirs.split('\n');
  const shas = message.shas.split('\n');
  return ids.map((id, i) => ({ id, createdAt: createdAt[i]!, dir: dirs[i]!, sha: shas[i]!, size: message.sizes[i]!, bodyAt: message.bodyAt[i]! }));
}

/** The checks of every skill of a `finish`, by its place in that message's list. */
export interface QualityOutcome {
  report: QualityReport;
  /** Each skill's flags worth a review (`QualitySummary.flags`). */
  flags: Int32Array;
  /** The skills that copy another or have near copies, and what they copy. */
  duplicates: [index: number, info: DuplicateInfo][];
  /** The signals this thread computed (`signalsText`), for the build cache. */
  texts: [index: number, text: string][];
}

/** The thread's answer to a `finish`; compute and stored batches get none. */
export type ThreadAnswer = { outcome: QualityOutcome } | { error: string };
