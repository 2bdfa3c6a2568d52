/**
 * A content folder for the MCP Skills Extension tests, built for real: skills whose name is their
 * repo (one with a BOM and nested metadata, one with supporting files in folders), one whose valid
 * name differs from its repo, one whose name is no Agent Skills name, and enough generated skills
 * that `skills/list` takes two pages.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runBuild } from '../../builder/build.ts';
import { writeBundle } from '../../builder/bundle.ts';
import { TOOLS_CONTENT } from './tools-fixture.ts';

export interface SkillsExtFixture {
  root: string;
  /** The build output. */
  dir: string;
  /** The bundle of `dir`. */
  bundle: string;
  cleanup(): Promise<void>;
}

/** Generated skills besides the hand-written ones: more than one `skills/list` page. */
export const GENERATED_SKILLS = 52;

const SKILL_JSON = {
  stars: 5, forks: 0, watchers: 0, openIssues: 0,
  createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-06-01T00:00:00Z', pushedAt: '2025-06-01T00:00:00Z',
  author: { name: 'acme', avatar: 'https://avatars.example.com/acme.png' },
  categories: ['development'], platforms: ['claude-code'],
};

/** Files of each hand-written skill, by `owner/repo`. */
export const SKILL_FILES: Record<string, Record<string, string | Uint8Array>> = {
  'acme/git-workflow': {
    // A BOM and CRLF: the digest covers the bytes as written.
    'SKILL.md': '\uFEFF---\r\nname: git-workflow\r\ndescription: Follow the team\'s Git conventions for branches and commits.\r\nlicense: Apache-2.0\r\nmetadata:\r\n  version: "2.1.0"\r\n  tags: [git, commits]\r\n  updated: 2025-10-20\r\n---\r\n# Git workflow\r\n\r\nPick a template from `templates/`; run `scripts/check.sh` before pushing. Ünïcode ✓\r\n',
    'templates/commit.md': '# Commit message\n\ntype(scope): summary\n',
    'templates/regional/eu.md': '# EU template\n',
    'scripts/check.sh': '#!/bin/sh\ngit diff --check\n',
    'assets/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0xfe]),
  },
  'acme/pdf-official': {
    'SKILL.md': '---\nname: pdf\ndescription: Extract text and tables from PDF files.\nallowed-tools: Bash(python:*)\n---\n# PDF\n\nSee references/FORMS.md.\n',
    'references/FORMS.md': '# Forms\n\nFill them.\n',
  },
  'zed/long-description': {
    'SKILL.md': `---\nname: long-description\ndescription: ${'A very long description. '.repeat(44)}\n---\n# Long\n`,
  },
  'zed/fancy': {
    'SKILL.md': '---\nname: Fancy Name\ndescription: A skill whose name has capitals and a space.\n---\n# Fancy\n',
  },
};

/** Build the fixture into a fresh temporary folder. */
export async function buildSkillsExtFixture(): Promise<SkillsExtFixture> {
  const root = await mkdtemp(join(tmpdir(), 'skills-ext-fixture-'));
  const content = join(root, 'content');
  const put = async (path: string, body: string | Uint8Array) => {
    await mkdir(dirname(join(content, path)), { recursive: true });
    await writeFile(join(content, path), body);
  };
  for (const name of ['categories.json', 'platforms.json']) await put(name, await readFile(join(TOOLS_CONTENT, name)));
  for (const [id, files] of Object.entries(SKILL_FILES)) {
    await put(`skills/${id}/skill.json`, JSON.stringify(SKILL_JSON));
    for (const [path, body] of Object.entries(files)) await put(`skills/${id}/${path}`, body);
  }
  for (let i = 1; i <= GENERATED_SKILLS; i++) {
    const name = `gen-skill-${String(i).padStart(2, '0')}`;
    await put(`skills/gen/${name}/skill.json`, JSON.stringify(SKILL_JSON));
    await put(`skills/gen/${name}/SKILL.md`, `---\nname: ${name}\ndescription: Generated skill number ${i}.\n---\n# ${name}\n`);
  }
  const dir = join(root, 'public');
  const bundle = join(root, 'skills.bundle');
  await runBuild({ contentDir: content, outDir: dir, site: false, sourceDateEpoch: undefined });
  await writeBundle(dir, bundle);
  return { root, dir, bundle, cleanup: () => rm(root, { recursive: true, force: true }) };
}
