/**
 * Skill folder names (`skills/<owner>/<repo>`) become path segments of the output and of URLs,
 * so they are checked before anything is written (docs/decisions.md H13–H15): the patterns of
 * docs/decisions.md §2 (`OWNER_RE`, `REPO_RE`), plus the names some file systems cannot hold.
 */
import { OWNER_RE, REPO_RE } from '../src/paths.ts';
import { quote } from './problems.ts';

/** Longest file name most file systems accept, in bytes. */
const MAX_NAME_BYTES = 255;
/** Windows reserves these names with any extension (`con`, `NUL.txt`, `lpt1.json`). */
const DEVICE_RE = /^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])(?:\..*)?$/i;
/** C0 and C1 control characters, DEL included. */
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `name` cannot be the owner or repo segment of a skill, or undefined when it can. */
export function segmentProblem(kind: 'owner' | 'repo', name: string): string | undefined {
  const shown = quote(name);
  if (name === '') return 'must not be empty';
  if (name === '.' || name === '..') return `${shown} is not a folder name`;
  if (/[/\\]/.test(name)) return `${shown} must not contain / or \\`;
  if (CONTROL_RE.test(name)) return `${shown} must not contain control characters`;
  if (name.includes('%')) return `${shown} must not contain %`;
  if (new TextEncoder().encode(name).length > MAX_NAME_BYTES) return `is longer than ${MAX_NAME_BYTES} bytes`;
  if (DEVICE_RE.test(name)) return `${shown} is a Windows device name (con, prn, aux, nul, com1–9, lpt1–9)`;
  if (kind === 'repo' && /\.git$/i.test(name)) return `${shown} must not end in .git`;
  if (kind === 'owner' && !OWNER_RE.test(name)) {
    return `${shown} must be 1–39 characters of A–Z, a–z, 0–9 and -, not starting or ending with -`;
  }
  if (kind === 'repo' && !REPO_RE.test(name)) return `${shown} must be 1–100 characters of A–Z, a–z, 0–9, ., _ and -`;
  return undefined;
}

/**
 * Identity of a skill for collisions: ids are case-insensitive (docs/decisions.md §2) and Unicode
 * normalization must not make two folders one, so `Foo/Bar`, `foo/bar` and NFC/NFD spellings
 * share a key.
 */
export function identityKey(owner: string, repo: string): string {
  return `${owner}/${repo}`.normalize('NFC').toLowerCase();
}
