/**
 * The quality thread (started by `QualityPass`): computes the per-skill signals of each batch of
 * skills it is sent and answers `[id, signals]` pairs, or the error that stopped a batch.
 */
import { parentPort } from 'node:worker_threads';
import { skillSignals, type QualityInput, type SkillSignals } from './index.ts';

/** A batch's answer. */
export type ThreadAnswer = { results: [string, SkillSignals][] } | { error: string };

parentPort?.on('message', (batch: QualityInput[]) => {
  let answer: ThreadAnswer;
  try {
    answer = { results: batch.map((skill) => [skill.id, skillSignals(skill)]) };
  } catch (error) {
    answer = { error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer);
});
