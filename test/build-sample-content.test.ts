/**
 * The sample content shipped in content/ (issue "Static build on real sample content"): it loads
 * without a single problem and builds into a tree whose skill files match the API schemas.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { loadContent } from '../builder/load-content.ts';
import { formatProblem } from '../builder/problems.ts';
import { skillPath } from '../src/paths.ts';
import { SkillContentResponse, SkillDetailResponse, SkillStatsResponse } from '../src/schemas.ts';
import { tempDir } from './helpers/fixture-content.ts';

const out = join(await tempDir('sample-build-'), 'public');
afterAll(() => fs.rm(join(out, '..'), { recursive: true, force: true }));

describe('content/', () => {
  it('loads without problems', async () => {
    const { content, problems, skipped } = await loadContent('content');
    expect(problems.map(formatProblem)).toEqual([]);
    expect(skipped).toEqual([]);
    let folders = 0;
    for (const owner of await fs.readdir('content/skills')) folders += (await fs.readdir(join('content/skills', owner))).length;
    expect(folders).toBeGreaterThan(0);
    expect(content.skills).toHaveLength(folders);
  });

  it('builds; every skill file matches the API schemas and its SKILL.md', async () => {
    const report = await runBuild({ contentDir: 'content', outDir: out, site: false, sourceDateEpoch: undefined });
    const { content } = await loadContent('content');
    expect(report.skills).toBe(content.skills.length);
    for (const skill of content.skills) {
      const read = async (kind: 'detail' | 'content' | 'stats'): Promise<unknown> =>
        JSON.parse(await fs.readFile(join(out, skillPath(skill.owner, skill.repo, kind)), 'utf8'));
      const detail = SkillDetailResponse.parse(await read('detail')).data;
      expect(detail.id).toBe(skill.id);
      const raw = await fs.readFile(join('content', skill.dir, 'SKILL.md'));
      const file = SkillContentResponse.parse(await read('content')).data;
      expect(file.sha).toBe(createHash('sha256').update(raw).digest('hex'));
      expect(file.size).toBe(raw.length);
      SkillStatsResponse.parse(await read('stats'));
    }
  });
});
