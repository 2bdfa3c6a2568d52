/**
 * The build's quality pass beside the loading of skills: each skill is handed, as soon as it is
 * loaded, to a thread that computes its own signals (loading rules, scan, copy sketch), and the
 * stored signals of skills loaded from the build cache are handed over as they are (text, never
 * parsed on the build's thread); at the end the thread compares them all (copies) and counts the
 * report. On two cores the whole pass then costs the build little wall time: at 100k skills the
 * comparison and the stored signals' parsing took the build's thread 2 s.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads.ts';
import { computeQuality, signalsOfText, signalsText, StoredChecks, type QualityInput, type QualityReport, type SkillChecks, type SkillSignals } from './index.ts';
import { finishMessage, type FinishSkill, type QualityOutcome, type ThreadAnswer, type ThreadMessage } from './messages.ts';

/** Skills per message: few enough to start early, enough to keep messages few. */
const BATCH = 64;
/** Stored signals per message. */
const STORED_BATCH = 2048;

/** A skill as `QualityPass.finish` takes it: its input, and where its SKILL.md text is. */
export type PassSkill = QualityInput & Omit<FinishSkill, 'bodyAt'>;

/** What the pass gives: every skill's checks, the report, and the signals it computed. */
export interface QualityResult {
  checks: Map<string, SkillChecks>;
  report: QualityReport;
  /** The signals computed by this pass (`signalsText`), by id: the others were stored. */
  texts: Map<string, string>;
}

/** Collects skills as they load; `finish` gives the checks and the report. */
export class QualityPass {
  readonly #root: string;
  #worker: Worker | undefined;
  #batch: QualityInput[] = [];
  /** Stored signals not posted yet: their ids, and their texts (`signalsText`, one line each). */
  #storedIds: string[] = [];
  #storedTexts: string[] = [];
  #answer: ((answer: ThreadAnswer | undefined) => void) | undefined;

  /** `root`: the content folder's real path (the thread reads texts there again). */
  constructor(root: string) {
    this.#root = root;
    try {
      this.#worker = startWorker(import.meta.url, 'thread');
    } catch {
      // No thread: everything is computed by `finish`, as `computeQuality` alone would.
      return;
    }
    this.#worker.on('message', (answer: ThreadAnswer) => this.#answer?.(answer));
    // A thread that fails leaves everything to `finish` (a build never fails for its advice).
    const stop = (): void => {
      this.#worker = undefined;
      this.#answer?.(undefined);
    };
    this.#worker.on('error', stop);
    this.#worker.on('exit', stop);
    // An idle thread must not keep the process alive (a load that failed half-way never calls
    // `finish`); one with work to answer must, or a process waiting only for it would exit.
    this.#worker.unref();
  }

  /** Hand a loaded skill to the thread, to compute its signals. */
  add(skill: QualityInput): void {
    if (this.#worker === undefined) return;
    const { id, repo, createdAt, raw, body, frontMatter, source } = skill;
    this.#batch.push({ id, repo, createdAt, raw, body, frontMatter, source: source && { path: source.path, executables: source.executables } });
    if (this.#batch.length >= BATCH) this.#flush();
  }

  /**
   * The signals of skill `id` as an earlier build stored them (`signalsText`); `finish` is given
   * them again (`storedOf`).
   */
  stored(id: string, text: string): void {
    if (this.#worker === undefined) return;
    this.#storedIds.push(id);
    this.#storedTexts.push(text);
    if (this.#storedIds.length >= STORED_BATCH) this.#flush();
  }

  #post(message: ThreadMessage): void {
    this.#worker?.postMessage(message);
  }

  #flush(): void {
    if (this.#worker === undefined) return;
    if (this.#batch.length > 0) this.#post({ kind: 'compute', skills: this.#batch });
    // Two strings per batch: thousands of short strings cost the message far more to copy.
    if (this.#storedIds.length > 0) this.#post({ kind: 'stored', ids: this.#storedIds.join('\n'), texts: this.#storedTexts.join('\n') });
    this.#batch = [];
    this.#storedIds = [];
    this.#storedTexts = [];
  }

  /**
   * Compare every skill of the build (`skills`, sorted by id; each one given to `add` or `stored`
   * before) and stop the thread. `bodyAt`: where a skill's body starts in its text; `storedOf`:
   * the text given to `stored` for it. Whatever the thread cannot give is computed here, where
   * its errors surface.
   */
  async finish<S extends PassSkill>(skills: readonly S[], bodyAt: (skill: S) => number, storedOf: (skill: S) => string | undefined): Promise<QualityResult> {
    const worker = this.#worker;
    let answer: ThreadAnswer | undefined;
    if (worker !== undefined) {
      this.#flush();
      worker.ref();
      answer = await new Promise<ThreadAnswer | undefined>((resolve) => {
        this.#answer = resolve;
        this.#post(finishMessage(this.#root, skills, bodyAt));
      });
      this.#answer = undefined;
      this.#worker = undefined;
      await worker.terminate();
    }
    return answer !== undefined && 'outcome' in answer ? checksOf(skills, answer.outcome, storedOf) : here(skills, storedOf);
  }
}

/** The checks of the thread's outcome: each skill's built from its signals' text, parsed when read. */
function checksOf<S extends PassSkill>(skills: readonly S[], outcome: QualityOutcome, storedOf: (skill: S) => string | undefined): QualityResult {
  const texts = new Map<string, string>();
  for (const [i, text] of outcome.texts) texts.set(skills[i]!.id, text);
  const duplicates = new Map(outcome.duplicates);
  const checks = new Map<string, SkillChecks>();
  skills.forEach((skill, i) => {
    const info = duplicates.get(i);
    const text = texts.get(skill.id) ?? storedOf(skill)!;
    checks.set(skill.id, new StoredChecks(text, { flags: outcome.flags[i]!, duplicate: info?.duplicateOf !== undefined }, info));
  });
  return { checks, report: outcome.report, texts };
}

/** The whole pass on the build's thread (no thread, or one that failed), as `computeQuality` makes it. */
function here<S extends PassSkill>(skills: readonly S[], storedOf: (skill: S) => string | undefined): QualityResult {
  const stored = new Map<string, SkillSignals>();
  for (const skill of skills) {
    const text = storedOf(skill);
    const signals = text === undefined ? undefined : signalsOfText(text);
    if (signals !== undefined) stored.set(skill.id, signals);
  }
  const { checks, report, signals } = computeQuality(skills, stored);
  const texts = new Map<string, string>();
  for (const [id, own] of signals) if (!stored.has(id)) texts.set(id, signalsText(own));
  return { checks, report, texts };
}
