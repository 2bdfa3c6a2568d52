/**
 * What the importer needs from git, through the `git` command: a repository at hand (a local work
 * tree as it is, or a URL cloned bare and blobless into a cache folder and fetched again on the
 * next run), the file list of one commit, the bytes of some of its files, and per folder the first
 * and last commit that touched it.
 *
 * Everything is read from the commit, never from a work tree: uncommitted edits do not count, and
 * a symbolic link is only ever a blob holding its target (mode 120000), so nothing outside the
 * repository can be reached through one.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** One entry of a commit's tree (`git ls-tree -r`). */
export interface TreeEntry {
  /** `100644`, `100755` (executable), `120000` (symbolic link), `160000` (submodule). */
  mode: string;
  /** Object id of the blob (or of the submodule's commit). */
  oid: string;
  /** Path from the repository root, `/`-separated. */
  path: string;
}

/** A repository ready to read. */
export interface Repository {
  /** The git directory (`.git` of a work tree, or the bare clone in the cache). */
  gitDir: string;
  /** The commit read: the work tree's HEAD, or the fetched default branch (or `ref`). */
  commit: string;
  /** Its committer date, ISO 8601 UTC. */
  committedAt: string;
  /** The branch the commit is on, when there is one (`main`), for links. */
  branch: string | undefined;
  /** The remote URL (`origin`) of a local work tree, or the URL cloned. */
  remoteUrl: string | undefined;
}

/** A failing git command, with what it printed. */
export class GitError extends Error {
  override name = 'GitError';
}

/** Run git; resolves stdout as a Buffer. Git never prompts (no terminal, no credential helper prompts). */
export function git(args: readonly string[], cwd?: string): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd,
        encoding: 'buffer',
        maxBuffer: 512 * 1024 * 1024,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo', LC_ALL: 'C' },
      },
      (error, stdout, stderr) => {
        if (error !== null) {
          const said = stderr.toString('utf8').trim().split('\n').slice(-3).join(' ');
          reject(new GitError(`git ${args.slice(0, 2).join(' ')} failed${said === '' ? `: ${error.message}` : `: ${said}`}`));
        } else resolvePromise(stdout);
      },
    );
  });
}

async function gitText(args: readonly string[], cwd?: string): Promise<string> {
  return (await git(args, cwd)).toString('utf8').trim();
}

/** Whether `source` names a local folder (an existing path) rather than a URL. */
export function isLocalSource(source: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[^/\\]+@[^/\\]+:/.test(source)) return false;
  return existsSync(source) && statSync(source).isDirectory();
}

/** The cache folder of a URL: readable and unique (`github.com_owner_repo-<hash>`). */
export function cacheFolderName(url: string): string {
  const readable = url.replace(/^[a-z+]+:\/\/|\.git$/gi, '').replace(/^[^@/]*@/, '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(-80);
  return `${readable}-${createHash('sha256').update(url).digest('hex').slice(0, 10)}`;
}

/**
 * A repository ready to read: a local work tree as it is (its HEAD), or `url` cloned into
 * `cacheDir` (bare, blobless: history and trees, file contents fetched when read) and fetched
 * again when the clone exists. `ref` picks a branch or tag instead of the default branch.
 */
export async function openRepository(source: string, cacheDir: string, ref?: string): Promise<Repository> {
  if (isLocalSource(source)) {
    const top = await gitText(['rev-parse', '--show-toplevel'], source).catch(() => {
      throw new GitError(`${source} is not a git work tree`);
    });
    const gitDir = resolve(top, await gitText(['rev-parse', '--git-dir'], top));
    const commit = await gitText(['rev-parse', '--verify', `${ref ?? 'HEAD'}^{commit}`], top);
    const branch = ref ?? ((await gitText(['symbolic-ref', '--quiet', '--short', 'HEAD'], top).catch(() => '')) || undefined);
    const remoteUrl = (await gitText(['config', '--get', 'remote.origin.url'], top).catch(() => '')) || undefined;
    return { gitDir, commit, committedAt: await commitDate(gitDir, commit), branch, remoteUrl };
  }
  const gitDir = join(resolve(cacheDir), cacheFolderName(source));
  if (existsSync(join(gitDir, 'HEAD'))) {
    await git(['--git-dir', gitDir, 'fetch', '--quiet', '--prune', '--filter=blob:none', 'origin', '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*']);
  } else {
    // Cloned beside its final place and renamed in: an interrupted clone never looks complete.
    await mkdir(resolve(cacheDir), { recursive: true });
    const partial = `${gitDir}.partial`;
    await rm(partial, { recursive: true, force: true });
    await git(['clone', '--quiet', '--bare', '--filter=blob:none', source, partial]);
    await rename(partial, gitDir);
  }
  const target = ref ?? 'HEAD';
  const commit = await gitText(['--git-dir', gitDir, 'rev-parse', '--verify', `${target}^{commit}`]);
  const branch = ref ?? ((await gitText(['--git-dir', gitDir, 'symbolic-ref', '--quiet', '--short', 'HEAD']).catch(() => '')) || undefined);
  return { gitDir, commit, committedAt: await commitDate(gitDir, commit), branch, remoteUrl: source };
}

/** Committer date of `commit`, ISO 8601 UTC. */
async function commitDate(gitDir: string, commit: string): Promise<string> {
  const seconds = Number(await gitText(['--git-dir', gitDir, 'log', '-1', '--format=%ct', commit]));
  return new Date(seconds * 1000).toISOString();
}

/** Every file of `commit` (blobs, links and submodules), sorted by path. */
export async function listTree(repo: Repository): Promise<TreeEntry[]> {
  const out = await git(['--git-dir', repo.gitDir, 'ls-tree', '-r', '-z', '--full-tree', repo.commit]);
  const entries: TreeEntry[] = [];
  for (const record of out.toString('utf8').split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const [mode, , oid] = record.slice(0, tab).split(' ') as [string, string, string];
    entries.push({ mode, oid, path: record.slice(tab + 1) });
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The bytes of blobs by object id, through one `git cat-file --batch` (a blobless clone fetches
 * what it lacks). A blob over `limit` bytes is left out (its size is still returned).
 */
export async function readBlobs(repo: Repository, oids: readonly string[], limit: number): Promise<Map<string, { size: number; bytes?: Buffer }>> {
  const unique = [...new Set(oids)];
  const found = new Map<string, { size: number; bytes?: Buffer }>();
  if (unique.length === 0) return found;
  // Sizes first (cheap, and no download of an oversized blob).
  const sizes = (await runWithInput(['--git-dir', repo.gitDir, 'cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], `${unique.join('\n')}\n`))
    .toString('utf8')
    .trim()
    .split('\n');
  const wanted: string[] = [];
  for (const line of sizes) {
    const [oid, type, size] = line.split(' ') as [string, string, string];
    if (type !== 'blob') continue;
    found.set(oid, { size: Number(size) });
    if (Number(size) <= limit) wanted.push(oid);
  }
  if (wanted.length === 0) return found;
  const out = await runWithInput(['--git-dir', repo.gitDir, 'cat-file', '--batch'], `${wanted.join('\n')}\n`);
  let at = 0;
  while (at < out.length) {
    const end = out.indexOf(0x0a, at);
    const [oid, , size] = out.subarray(at, end).toString('utf8').split(' ') as [string, string, string];
    const start = end + 1;
    const bytes = out.subarray(start, start + Number(size));
    found.set(oid, { size: Number(size), bytes: Buffer.from(bytes) });
    at = start + Number(size) + 1;
  }
  return found;
}

/** Run git with `input` on stdin; resolves stdout. */
function runWithInput(args: readonly string[], input: string): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('git', [...args], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolvePromise(Buffer.concat(chunks));
      else reject(new GitError(`git ${args.slice(2, 4).join(' ')} failed: ${stderr.trim()}`));
    });
    child.stdin.end(input);
  });
}

/** First and last commit date (committer, ISO 8601 UTC) of each folder. */
export interface FolderDates {
  created: string;
  updated: string;
}

/**
 * For each of `folders` (`.` for the root), the committer dates of the first and the last commit
 * up to `repo.commit` that changed a file below it: one pass over the history's changes, newest
 * first. Moves are followed: when a commit renames `old/x/SKILL.md` to `new/x/SKILL.md`, older
 * commits under `old/x` count for `new/x`, so a skill keeps its real age after a reorganization
 * (which decides which of two copies is the original).
 */
export async function folderDates(repo: Repository, folders: readonly string[]): Promise<Map<string, FolderDates>> {
  const dates = new Map<string, FolderDates>();
  if (folders.length === 0) return dates;
  /** Folder path (current or former) → the skill folder it is. */
  const owners = new Map(folders.map((f) => [f, f]));
  const ownerOf = (path: string): [prefix: string, folder: string] | undefined => {
    for (let folder = parentOf(path); ; folder = parentOf(folder)) {
      const owner = owners.get(folder);
      if (owner !== undefined) return [folder, owner];
      if (folder === '.') return undefined;
    }
  };
  const touch = (folder: string, iso: string): void => {
    const known = dates.get(folder);
    // Earliest and latest, not first and last seen: committer dates need not follow the graph.
    if (known === undefined) dates.set(folder, { created: iso, updated: iso });
    else if (iso < known.created) known.created = iso;
    else if (iso > known.updated) known.updated = iso;
  };
  // Each commit is an empty field, `@<seconds>`, then its changes: a status (`M`, `A`, `D`, `R100`,
  // `C75`, …) and one path, or two for a rename or copy, all NUL-separated. A path is never
  // empty, so only an empty field can announce a commit.
  const args = ['--git-dir', repo.gitDir, 'log', '--format=%x00@%ct', '--name-status', '-z', '-M', repo.commit];
  const fields = (await git(args)).toString('utf8').split('\0');
  let iso = new Date(0).toISOString();
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field === '') {
      const header = fields[i + 1];
      if (header !== undefined && /^@\d+$/.test(header)) {
        iso = new Date(Number(header.slice(1)) * 1000).toISOString();
        i++;
      }
      continue;
    }
    // The first status of a commit follows its header line's newline.
    const status = field.replace(/^\n/, '');
    const moved = status.startsWith('R') || status.startsWith('C');
    const from = moved ? fields[++i] : undefined;
    const path = fields[++i];
    if (path === undefined) break;
    const owner = ownerOf(path);
    if (owner === undefined) continue;
    touch(owner[1], iso);
    if (status.startsWith('R') && from !== undefined) {
      // `from` held the same file: its folder (at the same depth below the skill folder) was this skill.
      const rest = owner[0] === '.' ? path : path.slice(owner[0].length + 1);
      if (from === rest || from.endsWith(`/${rest}`)) {
        const former = from === rest ? '.' : from.slice(0, from.length - rest.length - 1);
        if (!owners.has(former)) owners.set(former, owner[1]);
      }
    }
  }
  return dates;
}

/** `a/b/c` → `a/b`; `a` → `.`. */
function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '.' : path.slice(0, slash);
}
