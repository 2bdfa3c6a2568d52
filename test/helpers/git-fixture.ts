/**
 * Real git repositories for import tests: `git init` in a temporary folder, files written (or
 * linked, or removed), and commits with fixed author and committer dates, so every fixture has
 * the same history and commit ids on every run.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A file's content, a link (`{ symlink: target }`) or `null` to remove it. */
export type GitFile = string | { symlink: string } | null;

/** A repository made for a test. */
export interface GitFixture {
  dir: string;
  /** Write `files` and commit them at `date` (ISO 8601); resolves the commit id. */
  commit(date: string, files: Record<string, GitFile>, message?: string): Promise<string>;
}

function git(dir: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...env },
  }).trim();
}

/** A new repository under `parent` named `name`, with `origin` set to `remote` when given. */
export async function gitFixture(parent: string, name: string, remote?: string): Promise<GitFixture> {
  const dir = join(parent, name);
  await fs.mkdir(dir, { recursive: true });
  git(dir, ['init', '--quiet', '--initial-branch=main']);
  git(dir, ['config', 'user.name', 'Fixture']);
  git(dir, ['config', 'user.email', 'fixture@example.com']);
  git(dir, ['config', 'commit.gpgsign', 'false']);
  if (remote !== undefined) git(dir, ['remote', 'add', 'origin', remote]);
  return {
    dir,
    async commit(date, files, message = `commit at ${date}`) {
      for (const [path, content] of Object.entries(files)) {
        const file = join(dir, path);
        await fs.rm(file, { recursive: true, force: true });
        if (content === null) continue;
        await fs.mkdir(dirname(file), { recursive: true });
        if (typeof content === 'string') await fs.writeFile(file, content);
        else await fs.symlink(content.symlink, file);
      }
      git(dir, ['add', '--all']);
      git(dir, ['commit', '--quiet', '--allow-empty', '-m', message], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
      return git(dir, ['rev-parse', 'HEAD']);
    },
  };
}

/** A temporary folder for fixtures. */
export function tempFolder(prefix: string): Promise<string> {
  return fs.mkdtemp(join(tmpdir(), prefix));
}

/** A SKILL.md with `name`, `description` and extra front matter lines. */
export function skillMd(name: string, description: string, extra = '', body = `# ${name}\n\nInstructions.\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`;
}
