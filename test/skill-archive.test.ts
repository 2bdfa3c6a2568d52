/**
 * The archives a build writes are compressed on libuv's thread pool, several at once, and
 * finished in order (builder/skill-output.ts); the writer thread makes each folder once, parents
 * first (builder/output-thread.ts). Neither may change a byte: every archive of a real build over
 * more skills than are compressed at once must be the one `skillArchive` makes on the calling
 * thread from the same files, and the detail and discovery index must name its size and SHA-256.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { writeBatch } from '../builder/output-thread.ts';
import { skillArchive, skillArchiveInPool } from '../builder/skill-archive.ts';
import { createContentFolder, skillDir, tempDir, type ContentFolder, type FileSpec } from './helpers/fixture-content.ts';

const SKILLS = 40;
const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

let content: ContentFolder;
let out: string;

beforeAll(async () => {
  // Skills of different sizes and shapes, so their archives take different times to compress.
  const files: Record<string, FileSpec> = {};
  for (let i = 1; i <= SKILLS; i++) {
    if (i % 4 === 0) files[`${skillDir(i)}/reference/notes-${i}.md`] = `# Notes ${i}\n\n${'A line of notes. '.repeat(i * 50)}\n`;
    if (i % 5 === 0) files[`${skillDir(i)}/scripts/run.sh`] = `#!/bin/sh\necho ${i}\n`;
  }
  content = await createContentFolder({ skills: SKILLS, files });
  for (let i = 5; i <= SKILLS; i += 5) await fs.chmod(join(content.dir, skillDir(i), 'scripts/run.sh'), 0o755);
  out = join(await tempDir('skill-archive-'), 'public');
  await runBuild({ contentDir: content.dir, outDir: out, sourceDateEpoch: undefined });
}, 60_000);

afterAll(async () => {
  await content?.remove();
  if (out !== undefined) await fs.rm(join(out, '..'), { recursive: true, force: true });
});

describe('archives compressed on the thread pool', () => {
  it('each is the archive made on the calling thread, and the detail and discovery index name it', async () => {
    let archiveEntries = 0;
    for (let i = 1; i <= SKILLS; i++) {
      const [, owner, repo] = skillDir(i).split('/') as [string, string, string];
      const api = join(out, 'api/v1/skills', owner, repo);
      const detail = JSON.parse(await fs.readFile(join(api, 'index.json'), 'utf8')) as { data: { files: { path: string; sha256: string }[]; archive: { size: number; sha256: string } } };
      const archived = await Promise.all(
        detail.data.files.map(async (file) => {
          const source = join(content.dir, skillDir(i), file.path);
          return { path: file.path, bytes: new Uint8Array(await fs.readFile(source)), executable: ((await fs.stat(source)).mode & 0o111) !== 0 };
        }),
      );
      const written = new Uint8Array(await fs.readFile(join(api, 'archive.tar.gz')));
      expect(Buffer.from(written).equals(Buffer.from(skillArchive(archived))), `${owner}/${repo}`).toBe(true);
      expect(detail.data.archive, `${owner}/${repo}`).toEqual({ url: `/api/v1/skills/${owner}/${repo}/archive.tar.gz`, size: written.length, sha256: sha(written) });
      const discovery = JSON.parse(await fs.readFile(join(out, 'skills', owner, repo, '.well-known/agent-skills/index.json'), 'utf8')) as { skills: { type: string; digest: string }[] };
      const entry = discovery.skills[0]!;
      if (entry.type === 'archive') {
        archiveEntries += 1;
        expect(entry.digest).toBe(`sha256:${sha(written)}`);
      }
    }
    // Skills of more than a SKILL.md are installed from their archive.
    expect(archiveEntries).toBeGreaterThanOrEqual(10);
  });

  it('skillArchiveInPool gives skillArchive\'s bytes, and many at once each their own', async () => {
    const sets = Array.from({ length: 24 }, (_, i) => [
      { path: 'SKILL.md', bytes: new TextEncoder().encode(`---\nname: s${i}\n---\n${'body '.repeat(i * 200)}`), executable: false },
      { path: `scripts/s${i}.py`, bytes: new Uint8Array(i * 97).fill(i), executable: i % 2 === 0 },
    ]);
    const pooled = await Promise.all(sets.map((files) => skillArchiveInPool(files)));
    sets.forEach((files, i) => expect(Buffer.from(pooled[i]!).equals(Buffer.from(skillArchive(files))), `set ${i}`).toBe(true));
  });
});

describe('the writer thread makes folders top down', () => {
  it('writes files into new nested folders beside existing ones, and names the path a file blocks', async () => {
    const root = await tempDir('writer-folders-');
    try {
      await fs.mkdir(join(root, 'kept/a'), { recursive: true });
      await fs.writeFile(join(root, 'blocker'), 'a file where a folder is needed');
      const ok = writeBatch([
        [join(root, 'kept/a/b/c/one.json'), undefined, '1', 1],
        [join(root, 'kept/a/two.json'), undefined, '2', 1],
        [join(root, 'new/x/y/three.json'), undefined, '3', 1],
        [join(root, 'new/x/four.json'), undefined, '4', 1],
      ]);
      expect(ok).toEqual({ bytes: 4, reused: 0 });
      for (const [path, text] of [['kept/a/b/c/one.json', '1'], ['kept/a/two.json', '2'], ['new/x/y/three.json', '3'], ['new/x/four.json', '4']]) {
        expect(await fs.readFile(join(root, path!), 'utf8')).toBe(text);
      }
      const blocked = writeBatch([[join(root, 'blocker/inside/five.json'), undefined, '5', 1]]);
      expect(blocked.error?.message).toContain(join(root, 'blocker'));
      expect(await fs.readFile(join(root, 'blocker'), 'utf8')).toBe('a file where a folder is needed');
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
