/**
 * Install commands of an imported skill, from the evidence the repository gives, as people run
 * them today (docs/import.md says where each comes from):
 *
 * - Claude Code: the open `skills` CLI, `npx skills add owner/repo --skill <name> -a claude-code`,
 *   also for a skill a marketplace declares (its plugin is in the detail's `source.plugin`): a
 *   marketplace install is two commands (`/plugin marketplace add`, then `/plugin install`), and
 *   every value here is one command a person can paste and run, or one plain sentence.
 * - Codex: an OpenAI-style layout (`skills/.curated|.experimental/<name>`, or `agents/openai.yaml`
 *   in the folder) → Codex's `$skill-installer install <tree URL>`; `skills/.system` → preinstalled;
 *   otherwise `npx skills add owner/repo --skill <name> -a codex`.
 *
 * Every command is one line of printable text (src/plain-text.ts `oneLine`: no line breaks, control
 * or bidirectional-control characters), whatever the repository holds: names that need it are
 * quoted for a POSIX shell.
 */
import { oneLine } from '../../src/plain-text.ts';

/** What the commands are made from. */
export interface InstallFacts {
  /** `owner/repo` on GitHub, or undefined for another host. */
  github: string | undefined;
  /** The URL to give `npx skills add` when the repository is not on GitHub. */
  repositoryUrl: string;
  /** The skill folder (`.` for the root). */
  path: string;
  /** Front matter `name`. */
  name: string;
  /** The declaring plugin of a marketplace. */
  plugin: { name: string; marketplace: string } | undefined;
  /** OpenAI layout: `.curated`, `.experimental`, `.system`, or `agents` (agents/openai.yaml). */
  openai: '.curated' | '.experimental' | '.system' | 'agents' | undefined;
  /** Branch (or commit) for links into the repository. */
  ref: string;
}

/** Platform ids the importer writes commands for. */
export const IMPORT_PLATFORMS = ['claude-code', 'codex'] as const;

/** `value` quoted for a POSIX shell when it holds anything but plain characters. */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9._:@/+=-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The install command per platform id. */
export function installCommands(facts: InstallFacts): Record<(typeof IMPORT_PLATFORMS)[number], string> {
  const repo = facts.github ?? facts.repositoryUrl;
  const skillsCli = (agent: string): string => `npx skills add ${shellWord(repo)} --skill ${shellWord(oneLine(facts.name))} -a ${agent}`;
  const claude = skillsCli('claude-code');
  let codex: string;
  if (facts.openai === '.system') codex = 'Preinstalled in Codex (a system skill)';
  else if (facts.openai !== undefined && facts.github !== undefined) {
    const tree = `https://github.com/${facts.github}/tree/${encodeURI(facts.ref)}/${facts.path.split('/').map(encodeURIComponent).join('/')}`;
    codex = `$skill-installer install ${tree}`;
  } else codex = skillsCli('codex');
  return { 'claude-code': oneLine(claude), codex: oneLine(codex) };
}
