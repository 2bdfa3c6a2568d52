/**
 * Problems found in a content folder, as users read them:
 * `skills/a/b/skill.json → stars: expected integer ≥ 0`. Every check of the build reports
 * `Problem`s (builder/model.ts) rather than throwing, so one run lists all of them.
 */
import type { z } from 'zod';
import type { Problem } from './model.ts';
import { printable, quote } from '../src/text/printable.ts';

/** `printable` and `quote` live in src/text/printable.ts (SKILL.md front matter needs them outside the builder). */
export { printable, quote };

/**
 * `file → field: message`, or `file: message` when no field applies. Folder names, YAML keys and
 * values come from untrusted content, so control and bidi characters are shown as `\uXXXX`
 * (a terminal never receives an escape sequence from a skill).
 */
export function formatProblem(problem: Problem): string {
  const text =
    problem.field === undefined
      ? `${problem.file}: ${problem.message}`
      : `${problem.file} → ${problem.field}: ${problem.message}`;
  return printable(text);
}

/** A problem, with `field` only when given (so snapshots and equality stay clean). */
export function problem(file: string, message: string, field?: string): Problem {
  return field === undefined || field === '' ? { file, message } : { file, field, message };
}

/** Dotted field path with list indexes in brackets: `starHistory[2].date`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * Turn the issues of a failed zod parse of `input` (the JSON of `file`) into problems: a missing
 * field reads "required", each unknown field is its own problem, everything else keeps the
 * schema's message.
 */
export function zodProblems(file: string, error: z.ZodError, input: unknown): Problem[] {
  const problems: Problem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push(problem(file, 'unknown field', fieldPath([...issue.path, key])));
    } else if (issue.code === 'invalid_key') {
      const inner = issue.issues[0]?.message ?? issue.message;
      problems.push(problem(file, `invalid key: ${inner}`, fieldPath(issue.path)));
    } else if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
      problems.push(problem(file, 'required', fieldPath(issue.path)));
    } else {
      problems.push(problem(file, issue.message, fieldPath(issue.path)));
    }
  }
  return problems;
}

/** The value at `path` inside parsed JSON, or undefined (own properties only). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
