/**
 * The license of an imported skill (docs/import.md "Licenses"): the first of
 *
 * 1. a license file in the skill folder (`LICENSE`, `LICENSE.txt`, `LICENSE.md`, `COPYING`, …),
 *    identified from its text;
 * 2. the front matter's `license`, as an SPDX id or expression where it names a license
 *    (`Apache-2.0 license` → `Apache-2.0`, through spdx-correct and spdx-expression-parse);
 * 3. the license file of the nearest folder above the skill (a plugin's, else the repository's
 *    root), identified from its text;
 * 4. GitHub's SPDX id for the repository.
 *
 * A license file whose text is no known license gives npm's pointer `SEE LICENSE IN <file>`, so
 * does a front matter `license` that names none (`Proprietary` → `SEE LICENSE IN SKILL.md`;
 * `Complete terms in LICENSE.txt` → `SEE LICENSE IN LICENSE.txt`). `NOASSERTION` only when none of
 * the four exists.
 *
 * License texts are identified by comparing their words with the SPDX texts (package
 * spdx-license-list) of the licenses repositories use most (`COMMON_LICENSES`): no npm library
 * that identifies license texts is well kept, so this is a small documented matcher, below.
 */
import { createRequire } from 'node:module';
import spdxCorrect from 'spdx-correct';
import parseSpdx from 'spdx-expression-parse';

/** File names taken as a folder's license file, in this order of preference. */
export const LICENSE_FILES = ['LICENSE', 'LICENSE.txt', 'LICENSE.md', 'LICENCE', 'LICENCE.txt', 'LICENCE.md', 'COPYING', 'COPYING.txt', 'COPYING.md'];

/** The licenses a text is compared with: the ones public repositories carry nearly always. */
export const COMMON_LICENSES = [
  'MIT', 'MIT-0', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', '0BSD', 'Unlicense', 'CC0-1.0', 'CC-BY-4.0',
  'CC-BY-SA-4.0', 'MPL-2.0', 'GPL-2.0-only', 'GPL-3.0-only', 'LGPL-2.1-only', 'LGPL-3.0-only', 'AGPL-3.0-only',
  'BSL-1.0', 'EPL-2.0', 'Zlib',
] as const;

/**
 * Least share of shared word pairs (Sørensen–Dice over word bigrams) for a text to be a license:
 * a copyright line, a title or a short preamble of the project's own change little, a different
 * license (MIT against ISC or MIT-0, BSD-2 against BSD-3) falls below.
 */
export const MIN_SIMILARITY = 0.8;

/** Lower-case words of a license text without the parts that differ between copies of one license. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    // Placeholders of the SPDX texts and copyright lines of real files: never part of the terms.
    .replace(/<[^>\n]{1,80}>|\[[^\]\n]{1,80}\]/g, ' ')
    .replace(/^(?=[^\n]{0,300}$)[^\n]*\bcopyright\b[^\n]*(?:\(c\)|©|\d{4})[^\n]*$/gm, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((w) => w !== '');
}

function bigrams(list: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < list.length; i++) out.add(`${list[i - 1]} ${list[i]}`);
  return out;
}

let templates: { id: string; pairs: Set<string> }[] | undefined;

/** The word pairs of each common license's SPDX text, read once. */
function licenseTemplates(): { id: string; pairs: Set<string> }[] {
  if (templates === undefined) {
    const require = createRequire(import.meta.url);
    templates = COMMON_LICENSES.map((id) => {
      const entry = require(`spdx-license-list/licenses/${id}.json`) as { licenseText: string };
      return { id, pairs: bigrams(words(entry.licenseText)) };
    });
  }
  return templates;
}

/** The SPDX id of a license text among `COMMON_LICENSES`, or undefined when it is none of them. */
export function identifyLicenseText(text: string): string | undefined {
  // A license text is a few kB (the GPL 35 kB); past that it is something else.
  const pairs = bigrams(words(text.slice(0, 64 * 1024)));
  if (pairs.size === 0) return undefined;
  let best: { id: string; score: number } | undefined;
  for (const template of licenseTemplates()) {
    let shared = 0;
    for (const pair of pairs) if (template.pairs.has(pair)) shared++;
    const score = (2 * shared) / (pairs.size + template.pairs.size);
    if (best === undefined || score > best.score) best = { id: template.id, score };
  }
  return best !== undefined && best.score >= MIN_SIMILARITY ? best.id : undefined;
}

/** Whether `value` parses as an SPDX license expression. */
function isSpdxExpression(value: string): boolean {
  try {
    parseSpdx(value);
    return true;
  } catch {
    return false;
  }
}

/** Front matter values that say nothing (treated as no `license`). */
const SAYS_NOTHING = /^(?:unknown|none|n\/?a|tbd|todo|-+|\?+|null|unspecified|not specified)$/i;

/**
 * A front matter `license` as an SPDX expression, or `SEE LICENSE IN <file>` when it names no
 * license, or undefined when it says nothing (`Unknown`, empty).
 */
export function frontMatterLicense(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  if (text === '' || SAYS_NOTHING.test(text)) return undefined;
  if (isSpdxExpression(text)) return text;
  // A pointer to a file ("Complete terms in LICENSE.txt", a URL of a LICENSE) names the file.
  // A URL points outside the skill: SKILL.md, which holds it, is the place to look.
  const hasUrl = /https?:\/\//i.test(text);
  const file = hasUrl ? undefined : (/(?:^|[\s(])((?:LICEN[CS]E|COPYING)(?:[.-][\w-]+)*\.(?:txt|md|rst))\b/.exec(text) ?? /\b(?:in|see)\s+(LICEN[CS]E|COPYING)\b/i.exec(text))?.[1];
  const pointsAtFile = file !== undefined;
  if (!pointsAtFile && !hasUrl) {
    // "Apache-2.0 license", "MIT License", "3-clause BSD license", "AGPL-3.0 (referencing …)":
    // spdx-correct knows the spellings; it is given short names only, since it guesses a
    // license for nearly any text ("Complete terms in LICENSE.txt" → MPL-2.0).
    const name = text.replace(/\([^)]*\)/g, ' ').replace(/\b(?:the|licen[cs]ed?|under|agreement)\b/gi, ' ').replace(/\s+/g, ' ').trim();
    if (name !== '' && name.split(' ').length <= 4) {
      const corrected = spdxCorrect(name) ?? spdxCorrect(text);
      if (corrected !== null && isSpdxExpression(corrected)) return corrected;
    }
  }
  return `SEE LICENSE IN ${pointsAtFile ? file : 'SKILL.md'}`;
}

/** A license file found for a skill: its path in the repository and its text. */
export interface LicenseFile {
  path: string;
  text: string;
}

/** What decided a skill's license (reported as `licenseBy`). */
export type LicenseSource = 'folder' | 'front-matter' | 'repository' | 'github' | 'none';

/**
 * A license file's SPDX id, else `SEE LICENSE IN <file>`: the file name for the skill folder's own
 * file, the path in the repository for a file above the skill folder.
 */
export function licenseOfFile(file: LicenseFile, own = true): string {
  return identifyLicenseText(file.text) ?? `SEE LICENSE IN ${own ? file.path.slice(file.path.lastIndexOf('/') + 1) : file.path}`;
}

/** The license of a skill, by the chain of this module's comment. */
export function licenseFor(input: {
  folderFile?: LicenseFile | undefined;
  frontMatter?: unknown;
  /** The nearest license file of a folder above the skill (the root's at the latest). */
  aboveFile?: LicenseFile | undefined;
  /** GitHub's SPDX id of the repository. */
  github?: string | undefined;
}): { license: string; by: LicenseSource } {
  if (input.folderFile !== undefined) return { license: licenseOfFile(input.folderFile), by: 'folder' };
  const fromFrontMatter = frontMatterLicense(input.frontMatter);
  if (fromFrontMatter !== undefined) return { license: fromFrontMatter, by: 'front-matter' };
  if (input.aboveFile !== undefined) return { license: licenseOfFile(input.aboveFile, false), by: 'repository' };
  if (input.github !== undefined && input.github !== 'NOASSERTION' && input.github.trim() !== '') return { license: input.github, by: 'github' };
  return { license: 'NOASSERTION', by: 'none' };
}

/**
 * The license file of `folder` itself (`.` for the root) and of the nearest folder above it,
 * given a lookup of regular files by path.
 */
export function licenseFilesOf(folder: string, isFile: (path: string) => boolean): { own?: string; above?: string } {
  const inFolder = (dir: string): string | undefined => LICENSE_FILES.map((name) => (dir === '.' ? name : `${dir}/${name}`)).find(isFile);
  const own = inFolder(folder);
  let above: string | undefined;
  if (folder !== '.') {
    const parts = folder.split('/');
    for (let n = parts.length - 1; n >= 0 && above === undefined; n--) above = inFolder(n === 0 ? '.' : parts.slice(0, n).join('/'));
  }
  return { ...(own === undefined ? {} : { own }), ...(above === undefined ? {} : { above }) };
}
