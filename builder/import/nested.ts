/**
 * Skills inside other skills' folders and skills in template folders (docs/import.md "Where
 * skills are found"): when such a SKILL.md is a skill of its own, and when it is not.
 *
 * - A SKILL.md inside another skill's folder is its own skill when its front matter gives a name
 *   of its own (sickn33/antigravity-awesome-skills' `game-development/2d-games`); one that repeats
 *   the outer skill's name is a copy of it and skipped. The outer skill keeps all its files.
 * - A SKILL.md in a template folder (`template/`, `templates/`) is a skill unless its text is a
 *   placeholder (anthropics/skills' `template/`: "Replace with description of the skill …").
 */
import type { FrontMatter } from '../../src/text/front-matter.ts';
import type { FoundSkill } from './discover.ts';

/** Descriptions and bodies that are a template's placeholders, not a skill's text. */
const PLACEHOLDER = [
  /\breplace (?:this |it )?with\b/i,
  /\b(?:insert|add|put|write) (?:your |the )?(?:description|instructions|text)\b/i,
  /\byour (?:skill )?description here\b/i,
  /^\s*(?:todo|tbd|fixme|lorem ipsum|description|\[[^\]]*\]|<[^>]*>|\{\{[^}]*\}\})\W*$/i,
];

/** Whether a front matter's description (or what little body it has) is a placeholder. */
export function isPlaceholder(front: Pick<FrontMatter, 'name' | 'description' | 'body'>): boolean {
  if (PLACEHOLDER.some((pattern) => pattern.test(front.description))) return true;
  // A body of a heading and a line or two saying where the instructions go.
  const body = front.body.replace(/^#+\s*/gm, '').trim();
  return body.split(/\s+/).length < 12 && /\b(?:insert|todo|tbd|replace|instructions (?:go )?(?:here|below))\b/i.test(body);
}

/**
 * Why a found skill is not a skill of its own, or undefined when it is. `parentName` is the
 * front matter name of the skill folder it sits in (undefined when that one was not imported).
 */
export function nestedSkillProblem(skill: FoundSkill, front: Pick<FrontMatter, 'name' | 'description' | 'body'>, parentName: string | undefined): string | undefined {
  if (skill.template === true && isPlaceholder(front)) return 'a template whose text is a placeholder, not a skill';
  if (skill.parent !== undefined && parentName !== undefined && parentName.trim().toLowerCase() === front.name.trim().toLowerCase()) {
    return `inside the skill folder ${skill.parent} with its name (${JSON.stringify(front.name)}): a copy, not a skill of its own`;
  }
  return undefined;
}
