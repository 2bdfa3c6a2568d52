/**
 * Licenses of imported skills (builder/import/license.ts, docs/import.md "Licenses"): the chain
 * folder file → front matter → the license file above (the root's) → GitHub, on a fixture
 * repository made here, and the matcher and front matter normalization on their own.
 */
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frontMatterLicense, identifyLicenseText, licenseFor } from '../builder/import/license.ts';
import { runImport, type ImportReport } from '../builder/import/run.ts';
import { gitFixture, skillMd, tempFolder } from './helpers/git-fixture.ts';

const spdxText = (id: string): string => (createRequire(import.meta.url)(`spdx-license-list/licenses/${id}.json`) as { licenseText: string }).licenseText;
/** A real MIT license file as repositories carry it: their own title and copyright line. */
const MIT_FILE = spdxText('MIT').replace('<year> <copyright holders>', '2025 Example Inc.');

describe('license texts', () => {
  it('identifies the common licenses from their texts, copyright lines and placeholders aside', () => {
    expect(identifyLicenseText(MIT_FILE)).toBe('MIT');
    for (const id of ['Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', 'MIT-0', 'GPL-3.0-only', 'AGPL-3.0-only', 'LGPL-3.0-only', 'MPL-2.0', 'Unlicense']) {
      expect(identifyLicenseText(spdxText(id)), id).toBe(id);
    }
    // A license with its lines re-wrapped and a project heading is still itself.
    expect(identifyLicenseText(`# License\n\n${spdxText('BSD-3-Clause').replace(/\n/g, ' ')}`)).toBe('BSD-3-Clause');
  });

  it('gives nothing for a text that is no common license', () => {
    expect(identifyLicenseText('© Acme. All rights reserved. Use of these materials is subject to the Acme service terms.')).toBeUndefined();
    expect(identifyLicenseText('')).toBeUndefined();
    // Half of the MIT text is not the MIT license.
    expect(identifyLicenseText(MIT_FILE.slice(0, MIT_FILE.length / 2))).toBeUndefined();
  });

  it('normalizes front matter to SPDX where it names a license, else points at the file', () => {
    expect(frontMatterLicense('Apache-2.0 license')).toBe('Apache-2.0');
    expect(frontMatterLicense('MIT License')).toBe('MIT');
    expect(frontMatterLicense('3-clause BSD license')).toBe('BSD-3-Clause');
    expect(frontMatterLicense('Apache License, Version 2.0')).toBe('Apache-2.0');
    expect(frontMatterLicense('MIT OR Apache-2.0')).toBe('MIT OR Apache-2.0');
    expect(frontMatterLicense('Complete terms in LICENSE.txt')).toBe('SEE LICENSE IN LICENSE.txt');
    expect(frontMatterLicense('Proprietary')).toBe('SEE LICENSE IN SKILL.md');
    expect(frontMatterLicense('https://github.com/example/lib/blob/main/LICENSE')).toBe('SEE LICENSE IN SKILL.md');
    expect(frontMatterLicense('Unknown')).toBeUndefined();
    expect(frontMatterLicense(['MIT'])).toBeUndefined();
  });

  it('NOASSERTION only when nothing at all exists', () => {
    expect(licenseFor({})).toEqual({ license: 'NOASSERTION', by: 'none' });
    expect(licenseFor({ github: 'NOASSERTION' })).toEqual({ license: 'NOASSERTION', by: 'none' });
    expect(licenseFor({ github: 'MIT' })).toEqual({ license: 'MIT', by: 'github' });
  });
});

describe('import: the license chain', () => {
  let base: string;
  let report: ImportReport;
  let out: string;

  beforeAll(async () => {
    base = await tempFolder('import-license-');
    const repo = await gitFixture(base, 'lic', 'https://github.com/lic/skills');
    await repo.commit('2025-01-01T00:00:00Z', {
      LICENSE: MIT_FILE,
      'skills/plain/SKILL.md': skillMd('plain', 'Inherits the root license.'),
      'skills/named/SKILL.md': skillMd('named', 'Front matter names a license.', 'license: Apache-2.0 license\n'),
      'skills/own/SKILL.md': skillMd('own', 'Its own license file wins over the front matter.', 'license: MIT\n'),
      'skills/own/LICENSE.txt': spdxText('BSD-3-Clause'),
      'skills/custom/SKILL.md': skillMd('custom', 'A license file that is no known license.'),
      'skills/custom/LICENSE.md': 'Use it only on Tuesdays.\n',
      'skills/vague/SKILL.md': skillMd('vague', 'Front matter says nothing useful.', 'license: Unknown\n'),
      'plugins/p/LICENSE': spdxText('ISC'),
      'plugins/p/skills/deep/SKILL.md': skillMd('deep', 'The plugin folder license is nearer than the root one.'),
      'plugins/q/LICENSE.md': 'Ask us first.\n',
      'plugins/q/skills/asked/SKILL.md': skillMd('asked', 'A license above the folder that is no known license.'),
    });
    const bare = await gitFixture(base, 'bare', 'https://github.com/lic/bare');
    await bare.commit('2025-01-01T00:00:00Z', { 'skills/none/SKILL.md': skillMd('none', 'No license anywhere.') });
    out = join(base, 'content');
    report = await runImport({ sources: [{ url: repo.dir }, { url: bare.dir }], out, cacheDir: join(base, 'cache'), meta: { kind: 'none' }, today: '2025-02-01' });
  }, 60_000);

  afterAll(async () => {
    await fs.rm(base, { recursive: true, force: true });
  });

  it('writes an SPDX id or a pointer for every skill, and says where it came from', async () => {
    const got = Object.fromEntries(report.skills.filter((s) => s.status === 'imported').map((s) => [s.id, [s.license, s.licenseBy]]));
    expect(got).toEqual({
      'lic/plain': ['MIT', 'repository'],
      'lic/named': ['Apache-2.0', 'front-matter'],
      'lic/own': ['BSD-3-Clause', 'folder'],
      'lic/custom': ['SEE LICENSE IN LICENSE.md', 'folder'],
      'lic/vague': ['MIT', 'repository'],
      'lic/deep': ['ISC', 'repository'],
      'lic/asked': ['SEE LICENSE IN plugins/q/LICENSE.md', 'repository'],
      'lic/none': ['NOASSERTION', 'none'],
    });
    const json = JSON.parse(await fs.readFile(join(out, 'skills/lic/named/skill.json'), 'utf8')) as { license: string };
    expect(json.license).toBe('Apache-2.0');
  });
});
