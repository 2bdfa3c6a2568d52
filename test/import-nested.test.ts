/**
 * Skills inside other skills' folders and in template folders (builder/import/nested.ts,
 * docs/import.md "Where skills are found"), on a fixture repository made here: a nested skill
 * with a name of its own is imported with its parent named, a copy and a placeholder template are
 * skipped with the reason, ids stay unique and stable.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPlaceholder } from '../builder/import/nested.ts';
import { runImport, type ImportOptions, type ImportReport } from '../builder/import/run.ts';
import { gitFixture, skillMd, tempFolder, type GitFixture } from './helpers/git-fixture.ts';

let base: string;
let repo: GitFixture;

beforeAll(async () => {
  base = await tempFolder('import-nested-');
  repo = await gitFixture(base, 'games', 'https://github.com/play/games');
  await repo.commit('2025-01-01T00:00:00Z', {
    'skills/game-development/SKILL.md': skillMd('game-development', 'Game development orchestrator that routes to platform skills.'),
    'skills/game-development/2d-games/SKILL.md': skillMd('2d-games', '2D game development principles. Sprites, tilemaps, physics, camera.'),
    'skills/game-development/web-games/SKILL.md': skillMd('web-games', 'Web browser game development principles.'),
    'skills/game-development/copy/SKILL.md': skillMd('game-development', 'An older copy of the outer skill.'),
    // Another top-level skill named like a nested one: ids stay unique.
    'skills/web-games/SKILL.md': skillMd('web-games-top', 'A top-level skill whose folder name a nested skill shares.'),
    'skills/app-builder/SKILL.md': skillMd('app-builder', 'Build applications from a request.'),
    'skills/app-builder/templates/SKILL.md': skillMd('templates', 'Project scaffolding templates for new applications.'),
    'template/SKILL.md': skillMd('template-skill', 'Replace with description of the skill and when Claude should use it.', '', '# Insert instructions below\n'),
  });
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

function options(out: string): ImportOptions {
  return { sources: [{ url: repo.dir }], out, cacheDir: join(base, 'cache'), meta: { kind: 'none' }, today: '2025-02-01' };
}

describe('nested skills', () => {
  let report: ImportReport;
  let out: string;

  beforeAll(async () => {
    out = join(base, 'content');
    report = await runImport(options(out));
  }, 60_000);

  it('imports a nested SKILL.md with a name of its own, naming its parent', () => {
    const imported = Object.fromEntries(report.skills.filter((s) => s.status === 'imported').map((s) => [s.path, [s.id, s.parent]]));
    expect(imported).toEqual({
      'skills/app-builder/SKILL.md': ['play/app-builder', undefined],
      'skills/app-builder/templates/SKILL.md': ['play/templates', 'skills/app-builder'],
      'skills/game-development/SKILL.md': ['play/game-development', undefined],
      'skills/game-development/2d-games/SKILL.md': ['play/2d-games', 'skills/game-development'],
      'skills/game-development/web-games/SKILL.md': ['play/web-games', 'skills/game-development'],
      'skills/web-games/SKILL.md': ['play/web-games-games', undefined],
    });
  });

  it('skips a copy of the parent and a placeholder template, with the reason', () => {
    const skipped = Object.fromEntries(report.skills.filter((s) => s.status === 'skipped').map((s) => [s.path, s.reason]));
    expect(skipped).toEqual({
      'skills/game-development/copy/SKILL.md': 'inside the skill folder skills/game-development with its name ("game-development"): a copy, not a skill of its own',
      'template/SKILL.md': 'a template whose text is a placeholder, not a skill',
    });
  });

  it('keeps the ids on the next import, whatever else appears', async () => {
    await repo.commit('2025-01-02T00:00:00Z', { 'skills/2d-games/SKILL.md': skillMd('2d-games-top', 'A new top-level skill taking a nested one\'s folder name.') });
    const again = await runImport(options(out));
    const ids = Object.fromEntries(again.skills.filter((s) => s.status === 'imported').map((s) => [s.path, s.id]));
    expect(ids['skills/game-development/2d-games/SKILL.md']).toBe('play/2d-games');
    expect(ids['skills/2d-games/SKILL.md']).toBe('play/2d-games-games');
    expect(new Set(Object.values(ids)).size).toBe(Object.values(ids).length);
  }, 60_000);

  it('tells placeholders from real text', () => {
    expect(isPlaceholder({ name: 't', description: 'Replace with description of the skill.', body: '' })).toBe(true);
    expect(isPlaceholder({ name: 't', description: 'TODO', body: '' })).toBe(true);
    expect(isPlaceholder({ name: 't', description: 'A skill.', body: '# Insert instructions below\n' })).toBe(true);
    expect(isPlaceholder({ name: 't', description: 'Project scaffolding templates for new applications.', body: '# Templates\n\nRead only the template matching the project type.' })).toBe(false);
  });
});
