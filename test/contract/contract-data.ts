/**
 * The data a host of the contract suite serves, and the build of it. By default that is the
 * sample content folder `content/` (`SAMPLE`); `FIXTURE` is an in-memory content made of edge
 * cases (ties, collation, empty category) that hosts may run the suite over as well.
 *
 * A host serves `data.files()` (an in-memory build: path → JSON) or `writeContractTree(dir, data)`
 * (the same files on disk); the suite derives its expectations from `data.content()`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emitChangePages, planChanges } from '../../builder/changes.ts';
import { loadContent } from '../../builder/load-content.ts';
import type { Content, SkillRecord } from '../../builder/model.ts';
import { buildSearchIndex } from '../../builder/search-index.ts';
import { writeSkillFiles } from '../../builder/skill-output.ts';
import { writeTree } from '../../builder/write-tree.ts';
import { MANIFEST_PATH } from '../../src/paths.ts';
import type { ChangeEntry } from '../../src/schemas.ts';
import { fixtureContent } from '../helpers/runtime-content.ts';

/** The sample content folder the suite runs against by default. */
export const CONTRACT_CONTENT_DIR = fileURLToPath(new URL('../../content', import.meta.url));

/** One content and its static tree (search index included), each computed once per test file. */
export interface ContractData {
  name: string;
  content(): Promise<Content>;
  /** The change log the tree publishes (`contractChangeLog`). */
  changes(): Promise<ChangeEntry[]>;
  files(): Promise<Map<string, unknown>>;
}

/** Skills of the first build that the second one removes: enough to cross a page of the log. */
const RETIRED = 45;
/** Skills whose description the second build changes. */
const EDITED = 3;

/**
 * A change log of two builds ending in `content` (builder/changes.ts `planChanges`): the first saw
 * every skill, the first `EDITED` with another description, and `RETIRED` skills that are gone
 * now; the second updates those and removes these (tombstones whose detail is 404). More than
 * one page file, every kind of change.
 */
export function contractChangeLog(content: Content): ChangeEntry[] {
  const template = content.skills[0]!;
  const retired = Array.from({ length: RETIRED }, (_, i): SkillRecord => ({ ...template, id: `retired/skill-${i}`, owner: 'retired', repo: `skill-${i}` }));
  const before = [...content.skills.map((skill, i) => (i < EDITED ? { ...skill, description: `${skill.description} (draft)` } : skill)), ...retired];
  const first = planChanges([], before, new Set(), '2025-01-01T00:00:00.000Z');
  return [...first, ...planChanges(first, content.skills, new Set(), '2025-02-01T12:00:00.000Z')];
}

function contractData(name: string, load: () => Promise<Content>, contentDir?: string): ContractData {
  let content: Promise<Content> | undefined;
  let files: Promise<Map<string, unknown>> | undefined;
  // Skill files, archives and discovery indexes, written as `runBuild` writes them (bytes as
  // Uint8Array, JSON as values); the content comes back with each skill's `archive`.
  const skillFiles = new Map<string, unknown>();
  const withFiles = async (loaded: Content): Promise<Content> => {
    if (contentDir === undefined) return loaded;
    const writer = {
      emit: async (path: string, json: unknown) => void skillFiles.set(path, JSON.parse(JSON.stringify(json))),
      writeFile: async (path: string, bytes: string | Uint8Array) => void skillFiles.set(path, typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes),
      copyFile: async () => {
        throw new Error('not used');
      },
    };
    return writeSkillFiles(loaded, writer, contentDir);
  };
  const data: ContractData = {
    name,
    content: () => (content ??= load().then(withFiles)),
    changes: async () => contractChangeLog(await data.content()),
    files: () =>
      (files ??= (async () => {
        const content = await data.content();
        const map = new Map<string, unknown>(skillFiles);
        const emit = async (path: string, json: unknown): Promise<void> => {
          if (map.has(path)) throw new Error(`emitted twice: ${path}`);
          // Round-trip through JSON text, as a file on disk would.
          map.set(path, JSON.parse(JSON.stringify(json)));
        };
        // The same tree as `runBuild` (builder/build.ts): the layout, the search index, the
        // manifest with its search entry.
        const written = await writeTree(content, (path, json) => (path === MANIFEST_PATH ? Promise.resolve() : emit(path, json)));
        const search = await buildSearchIndex(content.skills, emit, content.categories);
        const changes = await emitChangePages(await data.changes(), emit);
        await emit(MANIFEST_PATH, { ...written, search, changes });
        return map;
      })()),
  };
  return data;
}

/** The sample content folder `content/`; any problem in it fails the suite, listed in full. */
export const SAMPLE = contractData('sample content', async () => {
  const { content, problems } = await loadContent(CONTRACT_CONTENT_DIR);
  if (problems.length > 0) {
    throw new Error(`content/ has problems:\n${problems.map((p) => `${p.file}${p.field ? ` → ${p.field}` : ''}: ${p.message}`).join('\n')}`);
  }
  return content;
}, CONTRACT_CONTENT_DIR);

/** The in-memory edge-case fixture (test/helpers/runtime-content.ts). */
export const FIXTURE = contractData('edge-case fixture', async () => fixtureContent());

/** Write the static tree of `data` under `dir` (for hosts that serve a folder). */
export async function writeContractTree(dir: string, data: ContractData = SAMPLE): Promise<void> {
  for (const [path, json] of await data.files()) {
    const file = join(dir, ...path.split('/'));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, json instanceof Uint8Array ? json : JSON.stringify(json));
  }
}

/** The content the suite runs against by default (`SAMPLE.content()`). */
export function contractContent(): Promise<Content> {
  return SAMPLE.content();
}

/** The static tree the suite runs against by default (`SAMPLE.files()`). */
export function contractFiles(): Promise<Map<string, unknown>> {
  return SAMPLE.files();
}
