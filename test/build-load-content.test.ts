/**
 * builder/load-content.ts on real folders: the record built from a valid skill, and every content
 * hostile input of docs/decisions.md that the loader decides (H12–H19), each reported with file and field.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent, type LoadResult } from '../builder/load-content.ts';
import { formatProblem } from '../builder/problems.ts';
import {
  FIXTURE_CATEGORIES_JSON,
  FIXTURE_PLATFORMS_JSON,
  createContentFolder,
  skillJson,
  skillMd,
  statsJson,
  type ContentFolder,
  type FileSpec,
} from './helpers/fixture-content.ts';
import { cleanedAfterEach } from './helpers/scratch.ts';

const { folders, scratch } = cleanedAfterEach('load-content-');

/** A content folder with `skills` valid skills plus `files`, loaded. */
async function load(files: Record<string, FileSpec> = {}, skills = 3, prepare?: (dir: string) => Promise<unknown>): Promise<LoadResult & { folder: ContentFolder }> {
  const folder = await createContentFolder({ skills, files });
  folders.push(folder);
  await prepare?.(folder.dir);
  return { ...(await loadContent(folder.dir)), folder };
}

/** The formatted problems of a content folder. */
async function problemsOf(files: Record<string, FileSpec>, skills = 0): Promise<string[]> {
  return (await load(files, skills)).problems.map(formatProblem);
}

/** The files of one otherwise valid skill at `dir` (fixture skill 1's data). */
function skill(dir: string, overrides: Record<string, FileSpec> = {}): Record<string, FileSpec> {
  return { [`${dir}/SKILL.md`]: skillMd({ name: 'Tool', description: 'Does it.' }), [`${dir}/skill.json`]: skillJson(1), ...overrides };
}

describe('a valid content folder', () => {
  it('loads every skill, sorted by id, with categories and platforms in file order', async () => {
    const result = await load({}, 7);
    expect(result.problems).toEqual([]);
    expect(result.skipped).toEqual([]);
    expect(result.content.skills.map((s) => s.id)).toEqual([
      'acme/skill-03',
      'acme/skill-06',
      'globex/skill-01',
      'globex/skill-04',
      'globex/skill-07',
      'initech/skill-02',
      'initech/skill-05',
    ]);
    expect(result.content.categories.map((c) => c.slug)).toEqual(['dev', 'ops', 'writing']);
    expect(result.content.platforms.map((p) => p.id)).toEqual(['claude-code', 'codex', 'chatgpt']);
  });

  it('builds the record: overrides, templates, license fallback, hasIndex, stats, hashes', async () => {
    const text = '\uFEFF---\r\nname: PDF Toolkit\r\ndescription: Extract text.\r\nlicense: Apache-2.0\r\nmetadata:\r\n  released: 2024-03-01\r\n---\r\n# Body\r\n';
    const dir = 'skills/Acme/pdf.tools';
    const result = await load(
      {
        [`${dir}/SKILL.md`]: text,
        [`${dir}/skill.json`]: skillJson(1, {
          description: 'A longer description from skill.json.',
          categories: ['review', 'dev', 'review'],
          platforms: ['codex', 'chatgpt', 'claude-code'],
          installCommands: { codex: 'codex skills add acme/pdf-tools --pinned' },
          createdAt: '2024-01-02T03:04:05.5Z',
        }),
        [`${dir}/stats.json`]: statsJson(2),
        [`${dir}/.claude-plugin/marketplace.json`]: '{}',
      },
      0,
    );
    expect(result.problems).toEqual([]);
    const bytes = Buffer.from(text);
    expect(result.content.skills).toEqual([
      {
        id: 'Acme/pdf.tools',
        owner: 'Acme',
        repo: 'pdf.tools',
        dir,
        name: 'PDF Toolkit',
        description: 'A longer description from skill.json.',
        body: '# Body\r\n',
        raw: text, // BOM kept: sha and size are of these exact bytes
        sha: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.length,
        frontMatter: { name: 'PDF Toolkit', description: 'Extract text.', license: 'Apache-2.0', metadata: { released: '2024-03-01T00:00:00.000Z' } },
        stars: 37,
        forks: 1,
        watchers: 1,
        openIssues: 1,
        license: 'Apache-2.0',
        createdAt: '2024-01-02T03:04:05.500Z',
        updatedAt: '2025-03-02T08:30:00.000Z',
        pushedAt: '2025-03-02T08:30:00.000Z',
        author: { name: 'Author 1', avatar: 'https://avatars.example.com/u/1.png' },
        categories: ['review', 'dev'], // skill.json's order (primary first), without repeats
        platforms: ['chatgpt', 'claude-code', 'codex'],
        installCommands: {
          chatgpt: 'Download PDF Toolkit (Acme/pdf.tools) and upload it in ChatGPT',
          'claude-code': '/plugin install Acme/pdf.tools',
          codex: 'codex skills add acme/pdf-tools --pinned',
        },
        hasIndex: true,
        // Every file of the folder but the content format's metadata (skill.json, stats.json, marketplace.json).
        files: [{ path: 'SKILL.md', contentPath: 'SKILL.md', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), executable: false }],
        stats: statsJson(2),
        // Quality signals (test/quality.test.ts checks them): the name is not kebab-case.
        checks: expect.objectContaining({ flags: [], profiles: expect.objectContaining({ codex: { pass: true, problems: [] } }) }),
      },
    ]);
  });

  it('prefers skill.json license and name, falls back to NOASSERTION, defaults stats to zero', async () => {
    const result = await load(
      {
        ...skill('skills/a/one', { 'skills/a/one/skill.json': skillJson(1, { license: 'MIT', name: 'Override' }) }),
        ...skill('skills/a/two', { 'skills/a/two/SKILL.md': skillMd({ name: 'Two', description: 'x', license: ['MIT'] }) }),
        ...skill('skills/a/three'),
      },
      0,
    );
    expect(result.problems).toEqual([]);
    expect(result.content.skills.map((s) => [s.id, s.name, s.license, s.hasIndex, s.stats])).toEqual([
      ['a/one', 'Override', 'MIT', false, { views: 0, installs: 0, favorites: 0, starHistory: [] }],
      ['a/three', 'Tool', 'NOASSERTION', false, { views: 0, installs: 0, favorites: 0, starHistory: [] }],
      ['a/two', 'Two', 'NOASSERTION', false, { views: 0, installs: 0, favorites: 0, starHistory: [] }],
    ]);
  });

  it('expands a template once: a name holding {repo} stays as written', async () => {
    const result = await load(skill('skills/a/b', { 'skills/a/b/skill.json': skillJson(1, { name: 'Evil {repo} {owner}', platforms: ['chatgpt'] }) }), 0);
    expect(result.content.skills[0]?.installCommands).toEqual({ chatgpt: 'Download Evil {repo} {owner} (a/b) and upload it in ChatGPT' });
  });

  it('ignores plain files beside the skill folders', async () => {
    const result = await load({ 'skills/README.md': 'hello', 'skills/acme/.DS_Store': 'x' }, 2);
    expect(result.problems).toEqual([]);
    expect(result.content.skills).toHaveLength(2);
  });
});

describe('a loaded record holds no SKILL.md text', () => {
  it('reads the text again when asked for, and refuses bytes changed since the load', async () => {
    const result = await load({}, 2);
    const [first, second] = result.content.skills;
    const path = (dir: string): string => join(result.folder.dir, dir, 'SKILL.md');
    const text = await fs.readFile(path(first!.dir), 'utf8');
    expect(first!.raw).toBe(text);
    expect(text.endsWith(first!.body)).toBe(true);
    // Accessors, the record's last keys of the load (the quality pass adds `checks` after them):
    // it serializes as one holding its text.
    expect(Object.keys(first!).filter((key) => key !== 'checks').slice(-2)).toEqual(['raw', 'body']);
    expect(JSON.parse(JSON.stringify(first))).toMatchObject({ raw: text, body: first!.body, name: first!.name });
    // The same size, other bytes: a record that held its text would not notice.
    const before = await fs.readFile(path(second!.dir), 'utf8');
    await fs.writeFile(path(second!.dir), before.replace('Does', 'Goes'));
    expect((await fs.stat(path(second!.dir))).size).toBe(second!.size);
    expect(() => second!.raw).toThrow(`${second!.dir}/SKILL.md changed while building: build again`);
    expect(() => second!.body).toThrow('changed while building');
  });
});

describe('SKILL.md problems reach the report with file and field', () => {
  it('executable front matter (docs/decisions.md H1) is reported and never run', async () => {
    const marker = join(await scratch(), 'ran');
    const code = `---javascript\n{ name: (require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'), 'n'), description: 'd' }\n---\n`;
    expect(await problemsOf(skill('skills/a/b', { 'skills/a/b/SKILL.md': code }))).toEqual([
      'skills/a/b/SKILL.md: front matter must start with a line of exactly ---',
    ]);
    await expect(fs.access(marker)).rejects.toThrow();
  });

  it('non-string name and description (docs/decisions.md H11)', async () => {
    expect(await problemsOf(skill('skills/a/b', { 'skills/a/b/SKILL.md': '---\nname: 2024-01-01\ndescription: [a]\n---\n' })))
      .toMatchInlineSnapshot(`
        [
          "skills/a/b/SKILL.md → name: expected a non-empty string, got a date",
          "skills/a/b/SKILL.md → description: expected a non-empty string, got a list",
        ]
      `);
  });

  it('a SKILL.md over 1 MiB is rejected before parsing (docs/decisions.md H12)', async () => {
    // Past the limit the content would be an alias bomb; it is never parsed.
    const big = `---\nname: a\ndescription: b\n---\n${'x'.repeat(1024 * 1024)}`;
    expect(await problemsOf(skill('skills/a/b', { 'skills/a/b/SKILL.md': big }))).toEqual([
      'skills/a/b/SKILL.md: is larger than the limit of 1 MiB (1048607 bytes or more)',
    ]);
    const exactly = `---\nname: a\ndescription: b\n---\n`;
    const atLimit = exactly + 'x'.repeat(1024 * 1024 - exactly.length);
    expect(await problemsOf(skill('skills/a/b', { 'skills/a/b/SKILL.md': atLimit }))).toEqual([]);
  });

  it('missing files, invalid UTF-8, invalid JSON', async () => {
    expect(
      await problemsOf({
        ...skill('skills/a/missing', { 'skills/a/missing/SKILL.md': null, 'skills/a/missing/skill.json': null, 'skills/a/missing/README.md': 'x' }),
        ...skill('skills/a/bytes', { 'skills/a/bytes/SKILL.md': Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe]) }),
        ...skill('skills/a/json', { 'skills/a/json/skill.json': '{ "stars": 1, }', 'skills/a/json/stats.json': '' }),
        ...skill('skills/a/dir', { 'skills/a/dir/SKILL.md': null, 'skills/a/dir/SKILL.md/inner': 'x' }),
      }),
    ).toMatchInlineSnapshot(`
      [
        "skills/a/bytes/SKILL.md: is not valid UTF-8",
        "skills/a/dir/SKILL.md: is not a regular file",
        "skills/a/json/skill.json: is not valid JSON: Expected double-quoted property name in JSON at position 14",
        "skills/a/json/stats.json: is not valid JSON: Unexpected end of JSON input",
        "skills/a/missing/SKILL.md: missing (required)",
        "skills/a/missing/skill.json: missing (required)",
      ]
    `);
  });
});

describe('folder names (docs/decisions.md H13, H15, H16)', () => {
  it('reports unusable owner and repo names and skips those folders', async () => {
    const result = await load({
      ...skill('skills/con/tool'),
      ...skill('skills/acme/NUL.txt'),
      ...skill('skills/acme/lpt1'),
      ...skill('skills/acme/a%2e%2e'),
      ...skill('skills/acme/a\\b'),
      ...skill('skills/acme/tab\there'),
      ...skill('skills/acme/x.git'),
      ...skill('skills/-x-/tool'),
      ...skill('skills/_list/tool'),
      ...skill('skills/acme/ok'),
    }, 0);
    expect(result.content.skills.map((s) => s.id)).toEqual(['acme/ok']);
    expect(result.skipped).toHaveLength(9);
    expect(result.problems.map(formatProblem)).toMatchInlineSnapshot(`
      [
        "skills/-x-/tool → owner: "-x-" must be 1–39 characters of A–Z, a–z, 0–9 and -, not starting or ending with -",
        "skills/_list/tool → owner: "_list" must be 1–39 characters of A–Z, a–z, 0–9 and -, not starting or ending with -",
        "skills/acme/NUL.txt → repo: "NUL.txt" is a Windows device name (con, prn, aux, nul, com1–9, lpt1–9)",
        "skills/acme/a%2e%2e → repo: "a%2e%2e" must not contain %",
        "skills/acme/a\\b → repo: "a\\\\b" must not contain / or \\",
        "skills/acme/lpt1 → repo: "lpt1" is a Windows device name (con, prn, aux, nul, com1–9, lpt1–9)",
        "skills/acme/tab\\u0009here → repo: "tab\\there" must not contain control characters",
        "skills/acme/x.git → repo: "x.git" must not end in .git",
        "skills/con/tool → owner: "con" is a Windows device name (con, prn, aux, nul, com1–9, lpt1–9)",
      ]
    `);
  });

  it('names like reserved output files are ordinary repos (their files live under the owner)', async () => {
    const names = ['index', '_list', 'manifest.json', 'content.json', 'stats.json', 'pages', '_search'];
    const files = Object.assign({}, ...names.map((n) => skill(`skills/api/${n}`))) as Record<string, FileSpec>;
    const result = await load(files, 0);
    expect(result.problems).toEqual([]);
    expect(result.content.skills.map((s) => s.repo).sort()).toEqual([...names].sort());
  });
});

describe('id collisions (docs/decisions.md H14, H19)', () => {
  it('folders differing only by case or Unicode form are all reported, none is built', async () => {
    const result = await load({
      ...skill('skills/Foo/Bar'),
      ...skill('skills/foo/bar'),
      ...skill('skills/FOO/bar'),
      ...skill('skills/acme/caf\u00e9'),
      ...skill('skills/acme/cafe\u0301'),
      ...skill('skills/acme/fine'),
    }, 0);
    expect(result.content.skills.map((s) => s.id)).toEqual(['acme/fine']);
    expect(result.skipped).toEqual(['skills/FOO/bar', 'skills/Foo/Bar', 'skills/acme/cafe\u0301', 'skills/acme/caf\u00e9', 'skills/foo/bar']);
    const collisions = result.problems.filter((p) => p.message.startsWith('same id'));
    expect(collisions.map(formatProblem)).toMatchInlineSnapshot(`
      [
        "skills/FOO/bar: same id as skills/Foo/Bar, skills/foo/bar (ids are case-insensitive): rename or remove one",
        "skills/Foo/Bar: same id as skills/FOO/bar, skills/foo/bar (ids are case-insensitive): rename or remove one",
        "skills/acme/cafe\u0301: same id as skills/acme/café (ids are case-insensitive): rename or remove one",
        "skills/acme/café: same id as skills/acme/cafe\u0301 (ids are case-insensitive): rename or remove one",
        "skills/foo/bar: same id as skills/FOO/bar, skills/Foo/Bar (ids are case-insensitive): rename or remove one",
      ]
    `);
  });
});

describe('symbolic links (docs/decisions.md H17)', () => {
  it('are never followed: files, skill folders, owner folders, .claude-plugin', async () => {
    const outside = await scratch();
    await fs.writeFile(join(outside, 'secret.md'), skillMd({ name: 'SECRET-NAME', description: 'SECRET' }));
    await fs.mkdir(join(outside, 'skill'));
    await fs.writeFile(join(outside, 'skill', 'SKILL.md'), skillMd({ name: 'SECRET-NAME', description: 'SECRET' }));
    await fs.writeFile(join(outside, 'skill', 'skill.json'), JSON.stringify(skillJson(1)));
    await fs.mkdir(join(outside, 'owner', 'repo'), { recursive: true });
    await fs.mkdir(join(outside, 'plugin'));
    await fs.writeFile(join(outside, 'plugin', 'marketplace.json'), '{}');
    const result = await load({
      ...skill('skills/a/hostname', { 'skills/a/hostname/SKILL.md': { symlink: '/etc/hostname' } }),
      ...skill('skills/a/secret', { 'skills/a/secret/SKILL.md': { symlink: join(outside, 'secret.md') } }),
      ...skill('skills/a/json', { 'skills/a/json/skill.json': { symlink: join(outside, 'skill', 'skill.json') } }),
      ...skill('skills/a/stats', { 'skills/a/stats/stats.json': { symlink: '/dev/zero' } }),
      'skills/a/linked': { symlink: join(outside, 'skill') },
      'skills/linked-owner': { symlink: outside },
      ...skill('skills/a/plugin', { 'skills/a/plugin/.claude-plugin': { symlink: join(outside, 'plugin') } }),
      ...skill('skills/a/plugin-file', {
        'skills/a/plugin-file/.claude-plugin/marketplace.json': { symlink: join(outside, 'plugin', 'marketplace.json') },
      }),
      ...skill('skills/a/plugin-fifo', { 'skills/a/plugin-fifo/.claude-plugin/readme.txt': 'x' }),
    }, 0, async (dir) => execFileSync('mkfifo', [join(dir, 'skills/a/plugin-fifo/.claude-plugin/marketplace.json')]));
    expect(result.problems.map(formatProblem)).toMatchInlineSnapshot(`
      [
        "skills/a/linked: is a symbolic link, not followed",
        "skills/linked-owner: is a symbolic link, not followed",
        "skills/a/hostname/SKILL.md: is a symbolic link, not followed",
        "skills/a/json/skill.json: is a symbolic link, not followed",
        "skills/a/plugin/.claude-plugin: is a symbolic link, not followed",
        "skills/a/plugin-fifo/.claude-plugin/marketplace.json: is not a regular file",
        "skills/a/plugin-file/.claude-plugin/marketplace.json: is a symbolic link, not followed",
        "skills/a/secret/SKILL.md: is a symbolic link, not followed",
        "skills/a/stats/stats.json: is a symbolic link, not followed",
      ]
    `);
    // A linked or FIFO marketplace.json is never read, only looked at, and reported (above).
    expect(result.content.skills.map((s) => s.id)).toEqual([]);
    expect(JSON.stringify(result.content)).not.toContain('SECRET');
  });

  it('a skills folder that is a link affects everything', async () => {
    const outside = await scratch();
    const result = await load({ skills: null }, 0);
    await result.folder.write({ skills: { symlink: outside } });
    const again = await loadContent(result.folder.dir);
    expect(again.problems.map(formatProblem)).toEqual(['skills: must be a folder, not a link or file']);
  });
});

describe('skill.json and stats.json (docs/decisions.md H18)', () => {
  it('reports every wrong field of one skill at once', async () => {
    const bad = {
      stars: -1,
      forks: 1.5,
      watchers: '3',
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: '2024-01-01T00:00:00Z',
      pushedAt: '2025-02-30T00:00:00Z',
      author: { name: '', avatar: 'javascript:alert(1)' },
      categories: ['dev', 'nope', 3],
      platforms: [],
      installCommands: { codex: 'x', __proto__: 'y' },
      homepage: 'https://example.com',
    };
    expect(
      await problemsOf(
        skill('skills/a/b', {
          'skills/a/b/skill.json': JSON.stringify(bad).replace('"installCommands":{"codex":"x"}', '"installCommands":{"codex":"x","__proto__":"y"}'),
          'skills/a/b/stats.json': {
            views: 1,
            installs: -2,
            favorites: 0,
            starHistory: [
              { date: '2025-02-01', stars: 1 },
              { date: '2025-01-01', stars: 2 },
              { date: '2025-01-01', stars: 2 },
              { date: '2025-13-01', stars: 2 },
              { date: '2025-03-01' },
            ],
            extra: true,
          },
        }),
      ),
    ).toMatchInlineSnapshot(`
      [
        "skills/a/b/skill.json → stars: expected integer ≥ 0",
        "skills/a/b/skill.json → forks: expected integer ≥ 0",
        "skills/a/b/skill.json → watchers: expected integer ≥ 0",
        "skills/a/b/skill.json → openIssues: required",
        "skills/a/b/skill.json → pushedAt: expected an ISO 8601 UTC timestamp such as 2025-01-31T12:00:00Z",
        "skills/a/b/skill.json → author.name: expected a non-empty string",
        "skills/a/b/skill.json → author.avatar: expected an https: URL",
        "skills/a/b/skill.json → categories[1]: unknown category "nope" (not in categories.json)",
        "skills/a/b/skill.json → categories[2]: expected a category id",
        "skills/a/b/skill.json → platforms: expected at least one platform",
        "skills/a/b/skill.json → homepage: unknown field",
        "skills/a/b/skill.json → updatedAt: is before createdAt (2025-01-01T00:00:00Z)",
        "skills/a/b/skill.json → installCommands.codex: platform "codex" is not in platforms",
        "skills/a/b/skill.json → installCommands.__proto__: platform "__proto__" is not in platforms",
        "skills/a/b/stats.json → installs: expected integer ≥ 0",
        "skills/a/b/stats.json → starHistory[3].date: expected a calendar date YYYY-MM-DD",
        "skills/a/b/stats.json → starHistory[4].stars: required",
        "skills/a/b/stats.json → extra: unknown field",
        "skills/a/b/stats.json → starHistory[1].date: must be after the previous date 2025-02-01 (strictly ascending)",
        "skills/a/b/stats.json → starHistory[2].date: must be after the previous date 2025-01-01 (strictly ascending)",
      ]
    `);
  });

  it.each([
    ['javascript: avatar', { author: { name: 'a', avatar: 'javascript:alert(1)' } }, 'author.avatar: expected an https: URL'],
    ['data: avatar', { author: { name: 'a', avatar: 'data:image/png;base64,AAAA' } }, 'author.avatar: expected an https: URL'],
    ['http: avatar', { author: { name: 'a', avatar: 'http://example.com/a.png' } }, 'author.avatar: expected an https: URL'],
    ['avatar with a newline', { author: { name: 'a', avatar: 'https://example.com/\n.png' } }, 'author.avatar: expected an https: URL'],
    ['local time', { createdAt: '2024-01-01T10:00:00' }, 'createdAt: expected an ISO 8601 UTC timestamp such as 2025-01-31T12:00:00Z'],
    ['an offset', { createdAt: '2024-01-01T10:00:00+02:00' }, 'createdAt: expected an ISO 8601 UTC timestamp such as 2025-01-31T12:00:00Z'],
    ['a date only', { createdAt: '2024-01-01' }, 'createdAt: expected an ISO 8601 UTC timestamp such as 2025-01-31T12:00:00Z'],
    ['a number', { createdAt: 1704103200000 }, 'createdAt: expected an ISO 8601 UTC timestamp such as 2025-01-31T12:00:00Z'],
    ['hour 24', { pushedAt: '2024-01-01T24:00:00Z' }, 'pushedAt: expected an ISO 8601 UTC timestamp such as 2025-01-31T12:00:00Z'],
    ['unknown platform', { platforms: ['claude-code', 'vim'] }, 'platforms[1]: unknown platform "vim" (not in platforms.json)'],
    ['platforms not a list', { platforms: 'codex' }, 'platforms: expected a list of platform ids'],
    ['a huge count', { stars: 2 ** 60 }, 'stars: the number is too large (at most 9007199254740991)'],
    ['1e20 stars', { stars: 1e20 }, 'stars: the number is too large (at most 9007199254740991)'],
    ['a fractional count', { stars: 1.5 }, 'stars: expected integer ≥ 0'],
    ['an empty override', { name: ' ' }, 'name: expected a non-empty string'],
    ['a 257-character name override', { name: 'n'.repeat(257) }, 'name: at most 256 characters'],
    ['17 categories', { categories: Array.from({ length: 17 }, () => 'dev') }, 'categories: at most 16 categories'],
    ['an install command over two lines', { installCommands: { 'claude-code': 'npx x\nrm -rf ~' } }, 'installCommands.claude-code: expected one line without control or bidirectional-control characters'],
    ['a bidi control in an install command', { installCommands: { 'claude-code': 'npx \u202esafe' } }, 'installCommands.claude-code: expected one line without control or bidirectional-control characters'],
    ['bidi controls in a name override', { name: 'Official \u202eloot yfitrec\u202c by Anthropic' }, 'name: bidirectional control characters (U+202E, U+202C) can make the text read differently than it is; remove them'],
    ['a bidi isolate in a description override', { description: 'safe \u2067tool' }, 'description: bidirectional control characters (U+2067) can make the text read differently than it is; remove them'],
    ['a JSON array', [], ': expected a JSON object'],
  ])('%s', async (_, overrides, expected) => {
    const json = Array.isArray(overrides) ? overrides : skillJson(1, overrides);
    const lines = await problemsOf(skill('skills/a/b', { 'skills/a/b/skill.json': json as FileSpec }));
    expect(lines).toEqual([`skills/a/b/skill.json → ${expected}`.replace(' → :', ':')]);
  });

  it('a stats.json that is missing is zeros, one that is present must be complete', async () => {
    expect(await problemsOf(skill('skills/a/b', { 'skills/a/b/stats.json': { views: 1 } }))).toEqual([
      'skills/a/b/stats.json → installs: required',
      'skills/a/b/stats.json → favorites: required',
      'skills/a/b/stats.json → starHistory: required',
    ]);
  });
});

describe('categories.json and platforms.json', () => {
  it('reports every problem, and skills are still checked', async () => {
    const categories = structuredClone(FIXTURE_CATEGORIES_JSON) as { categories: Record<string, unknown>[] };
    categories.categories.push(
      { slug: 'review', icon: 'x', group: 'technical', name: 'Dup', description: 'Dup' },
      { slug: 'Bad Slug', icon: '', group: 'fun', name: 'x', description: 'x', translations: { EN_us: { name: 'x' }, en: { name: 'y' } }, colour: 'red' },
    );
    const platforms = structuredClone(FIXTURE_PLATFORMS_JSON);
    platforms.platforms.push({ id: 'codex', name: 'Codex 2', install: 'run {owner}/{skill}' });
    expect(await problemsOf({ 'categories.json': categories, 'platforms.json': platforms }, 1)).toMatchInlineSnapshot(`
      [
        "categories.json → categories[4].slug: expected a slug of a–z, 0–9 and single hyphens",
        "categories.json → categories[4].icon: expected a non-empty string",
        "categories.json → categories[4].group: expected "technical" or "professional"",
        "categories.json → categories[4].translations.EN_us: invalid key: expected a locale code such as de or zh-TW",
        "categories.json → categories[4].translations.en: invalid key: en is the default: use name and description",
        "categories.json → categories[4].colour: unknown field",
        "categories.json → categories[3].slug: duplicate slug "review" (also at categories[0].subcategories[0].slug)",
        "platforms.json → platforms[3].install: unknown placeholder {skill}: use {owner}, {repo}, {id} or {name}",
        "platforms.json → platforms[3].id: duplicate id "codex" (also at platforms[1].id)",
      ]
    `);
  });

  it('missing files and a missing skills folder', async () => {
    expect(await problemsOf({ 'categories.json': null, 'platforms.json': '[]', skills: null }, 0)).toEqual([
      'categories.json: missing (required)',
      'platforms.json: expected an object { platforms: [...] }',
      'skills: missing: expected skills/<owner>/<repo>/ folders',
    ]);
    const missing = join(await scratch(), 'nope');
    expect((await loadContent(missing)).problems.map(formatProblem)).toEqual([`.: content folder ${JSON.stringify(missing)} not found`]);
  });
});

describe('limits against amplification', () => {
  it('a display name over 256 characters in the front matter is refused, naming the field', async () => {
    const lines = await problemsOf(skill('skills/a/b', { 'skills/a/b/SKILL.md': `---\nname: ${'N'.repeat(300)}\ndescription: d\n---\n` }));
    expect(lines).toEqual(['skills/a/b/SKILL.md → name: at most 256 characters, got 300']);
  });

  it('bidirectional controls in a name or description are refused, written literally or as YAML escapes; RTL marks are not', async () => {
    const lines = await problemsOf({
      ...skill('skills/a/b', { 'skills/a/b/SKILL.md': '---\nname: "Official \\u202eloot yfitrec\\u202c by Anthropic"\ndescription: d\n---\n' }),
      ...skill('skills/a/c', { 'skills/a/c/SKILL.md': '---\nname: c\ndescription: Reads \u2066right\u2069 to left\n---\n' }),
      ...skill('skills/a/d', { 'skills/a/d/SKILL.md': '---\nname: \u05e9\u05dc\u05d5\u05dd\u200f tool\ndescription: d\u200e\n---\n' }),
    });
    expect(lines).toEqual([
      'skills/a/b/SKILL.md → name: bidirectional control characters (U+202E, U+202C) can make the text read differently than it is; remove them',
      'skills/a/c/SKILL.md → description: bidirectional control characters (U+2066, U+2069) can make the text read differently than it is; remove them',
    ]);
  });

  it('more than 64 locales, or one locale twice in two cases, name categories.json and the field', async () => {
    const categories = structuredClone(FIXTURE_CATEGORIES_JSON) as { categories: { translations?: Record<string, unknown> }[] };
    categories.categories[0]!.translations = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`x${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`, { name: 'n' }]));
    categories.categories[1]!.translations = { de: { name: 'a' }, DE: { name: 'b' } };
    const lines = await problemsOf({ 'categories.json': categories }, 1);
    expect(lines).toEqual([
      'categories.json → categories[0].translations: at most 64 locales',
      'categories.json → categories[1].translations.DE: same locale as "de" (locales are case-insensitive)',
    ]);
  });
});
