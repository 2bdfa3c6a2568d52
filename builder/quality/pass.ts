/**
 * The build's quality pass beside the loading of skills: each skill is handed, as soon as it is
 * loaded, to a thread that computes its own signals (loading rules, scan, copy sketch); when the
 * last skill is loaded only the comparison between skills is left (`computeQuality`). On two
 * cores the per-skill work (most of the pass) then costs the build almost no wall time.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads.ts';
import { computeQuality, type QualityInput, type QualityReport, type SkillChecks, type SkillSignals } from './index.ts';
import type { ThreadAnswer } from './thread.ts';

/** Skills per message: few enough to start early, enough to keep messages few. */
const BATCH = 64;

/** Collects skills as they load; `finish` gives the checks and the report. */
export class QualityPass {
  readonly #signals = new Map<string, SkillSignals>();
  #worker: Worker | undefined;
  #batch: QualityInput[] = [];
  #pending = 0;
  #drained: (() => void) | undefined;

  constructor() {
    try {
      this.#worker = startWorker(import.meta.url, 'thread');
    } catch {
      // No thread: everything is computed by `finish`, as `computeQuality` alone would.
      return;
    }
    this.#worker.on('message', (answer: ThreadAnswer) => {
      this.#pending--;
      // A batch that failed is computed again by `finish`, where its error surfaces.
      if ('results' in answer) for (const [id, signals] of answer.results) this.#signals.set(id, signals);
      if (this.#pending === 0) {
        this.#worker?.unref();
        this.#drained?.();
      }
    });
    // A thread that fails leaves its skills to `finish` (a build never fails for its advice).
    const stop = (): void => {
      this.#worker = undefined;
      this.#pending = 0;
      this.#drained?.();
    };
    this.#worker.on('error', stop);
    this.#worker.on('exit', stop);
    // An idle thread must not keep the process alive (a load that failed half-way never calls
    // `finish`); one with work to answer must, or a process waiting only for it would exit.
    this.#worker.unref();
  }

  /** Hand a loaded skill to the thread. */
  add(skill: QualityInput): void {
    if (this.#worker === undefined) return;
    const { id, repo, createdAt, raw, body, frontMatter, source } = skill;
    this.#batch.push({ id, repo, createdAt, raw, body, frontMatter, source: source && { path: source.path, executables: source.executables } });
    if (this.#batch.length >= BATCH) this.#flush();
  }

  #flush(): void {
    if (this.#worker === undefined || this.#batch.length === 0) return;
    this.#pending++;
    this.#worker.ref();
    this.#worker.postMessage(this.#batch);
    this.#batch = [];
  }

  /** Skills whose signals came from the thread (the others are computed by `finish`). */
  get fromThread(): number {
    return this.#signals.size;
  }

  /**
   * Wait for the thread, stop it, and compare the skills. `known`: signals computed by an earlier
   * build (the build cache) of skills not handed to `add`. Whatever neither gives is computed here.
   */
  async finish(skills: readonly QualityInput[], known?: ReadonlyMap<string, SkillSignals>): Promise<{ checks: Map<string, SkillChecks>; report: QualityReport; signals: Map<string, SkillSignals> }> {
    for (const [id, signals] of known ?? []) this.#signals.set(id, signals);
    this.#flush();
    if (this.#pending > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
    return computeQuality(skills, this.#signals);
  }
}
