/**
 * The MCP Skills Extension (SEP-2640, `io.modelcontextprotocol/skills`) over the directory: every
 * skill is a folder of `skill://` resources, enumerated by `skills/list`, described one at a time
 * by `skills/get` (front matter verbatim, every file with its `sha256:` digest and size), read
 * with `resources/read`, and browsed with `resources/directory/read`. The choices the extension
 * leaves open are documented in docs/mcp.md.
 *
 * A skill's files come from the detail's `files` list, each read raw through
 * `/api/v1/skills/:owner/:repo/files/<path>`. A directory without that list (an older build) has
 * one file per skill, its SKILL.md, read through `/content`: `filesOf` is the one place that
 * tells the two apart.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { typeOfName } from '../files.ts';
import { ErrorCode, McpError, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { parseDocument } from 'yaml';
import { parseFrontMatter, splitFrontMatter } from '../text/front-matter.ts';
import type { SkillsClient } from '../client.ts';
import { isApiError } from '../errors.ts';
import { Turns } from '../fair.ts';
import type { SkillContent, SkillDetail } from '../schemas.ts';

/** The extension's identifier, the key of `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** Skill entries per `skills/list` page (the API's page size; a skill's files are never split). */
export const SKILLS_PAGE_SIZE = 50;
/** The extension's per-skill limits: files (SKILL.md included) and their total bytes. */
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;
/** Skills described at once by one server, whatever asks (each is two API requests). */
export const SKILL_LOADS_AT_ONCE = 8;
/** The media type of a directory resource. */
export const DIRECTORY_MIME = 'inode/directory';
/** A name the Agent Skills specification accepts: lower-case letters, digits, single inner hyphens, at most 64. */
const SKILL_NAME_RE = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Longest description the Agent Skills specification accepts, in characters (code points). */
export const MAX_DESCRIPTION_LENGTH = 1024;

/** One file of a skill: its path in the folder (`/`-separated), length in bytes and SHA-256 (hex). */
export interface SkillFile {
  path: string;
  size: number;
  sha256: string;
}

/** A skill as the extension sees it. */
interface SkillRecord {
  owner: string;
  repo: string;
  /** Segments of the skill's root after `skill://`: `[owner, repo]`, or `[owner, repo, name]` when the name is not the repo. */
  root: string[];
  files: SkillFile[];
  /** Whether `files` came from the detail (read through the files route) or is the SKILL.md alone (read through `/content`). */
  read: 'files' | 'content';
  /** The SKILL.md front matter as JSON; undefined when it cannot be parsed. */
  frontmatter?: Record<string, unknown>;
  /** Why the skill is not served as an extension skill (absent from `skills/list`, refused by `skills/get`). */
  problem?: string;
}

/** One entry of `skills/list` and the `skill` of `skills/get`. */
export interface SkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string; size: number }[];
}

// The params are checked by the handlers (`stringParam`): a wrong one is -32602 naming it, where
// a schema's failure would be the SDK's -32603 with the whole validation report.
const ANY_PARAMS = z.record(z.string(), z.unknown()).optional();
const ListSkillsRequest = z.object({ method: z.literal('skills/list'), params: ANY_PARAMS });
const GetSkillRequest = z.object({ method: z.literal('skills/get'), params: ANY_PARAMS });
const DirectoryReadRequest = z.object({ method: z.literal('resources/directory/read'), params: ANY_PARAMS });

/** The string param `name` of a request (undefined when absent and not `required`), or -32602 naming it. */
function stringParam(params: Record<string, unknown> | undefined, name: string, required: true): string;
function stringParam(params: Record<string, unknown> | undefined, name: string, required: false): string | undefined;
function stringParam(params: Record<string, unknown> | undefined, name: string, required: boolean): string | undefined {
  const value = params?.[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string') throw new McpError(ErrorCode.InvalidParams, `params.${name}: expected a string, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`);
  return value;
}

/**
 * The files of a skill and how to read them: the detail's `files` when the directory lists them,
 * else the SKILL.md alone, whose `/content` answer gives its size and SHA-256.
 */
export function filesOf(detail: SkillDetail & { files?: SkillFile[] }, content: SkillContent): Pick<SkillRecord, 'files' | 'read'> {
  if (Array.isArray(detail.files)) return { files: detail.files, read: 'files' };
  return { files: [{ path: 'SKILL.md', size: content.size, sha256: content.sha }], read: 'content' };
}

/** `skill://` followed by the segments, each percent-encoded. */
export function skillUri(segments: readonly string[]): string {
  return `skill://${segments.map(encodeURIComponent).join('/')}`;
}

/**
 * Declare the extension on `server` and answer its methods and resources through `client`.
 * Call before the server connects. `loads` bounds the skills described at once; servers made per
 * request (MCP over HTTP) share one, so a batch of `skills/list` calls cannot fan out unbounded.
 */
export function registerSkillsExtension(server: McpServer, client: SkillsClient, source: string, loads = new Turns(SKILL_LOADS_AT_ONCE)): void {
  server.server.registerCapabilities({ extensions: { [SKILLS_EXTENSION]: { directoryRead: true } } });

  server.server.setRequestHandler(ListSkillsRequest, async (request) => {
    const cursor = stringParam(request.params, 'cursor', false);
    const page = cursor === undefined ? 1 : Number(cursor);
    if (!Number.isSafeInteger(page) || page < 1 || String(page) !== (cursor ?? '1')) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid cursor ${JSON.stringify(cursor)}`);
    }
    // By name, so pages stay put while stars change between builds.
    const list = await viaApi(source, () => client.listSkills({ page, limit: SKILLS_PAGE_SIZE, sort: 'name', order: 'asc' }));
    if (page > Math.max(1, list.pagination.totalPages)) throw new McpError(ErrorCode.InvalidParams, `Invalid cursor ${JSON.stringify(cursor)}: past the last page`);
    const records = await Promise.all(list.data.map((s) => loads.run(() => viaApi(source, () => loadSkill(client, s.owner, s.repo)))));
    const skills = records.filter((r) => r.problem === undefined).map(entryOf);
    return { resultType: 'complete', skills, ...(page < list.pagination.totalPages ? { nextCursor: String(page + 1) } : {}) } as never;
  });

  server.server.setRequestHandler(GetSkillRequest, async (request) => {
    const uri = stringParam(request.params, 'uri', true);
    const segments = parseSkillUri(uri);
    if (segments === undefined || segments.length < 3 || segments.at(-1) !== 'SKILL.md') {
      throw new McpError(ErrorCode.InvalidParams, `${JSON.stringify(uri)} is not the skill://<skill-path>/SKILL.md URI of a skill`);
    }
    const record = await loads.run(() => findSkill(client, source, segments[0]!, segments[1]!, uri));
    if (!sameSegments(segments.slice(0, -1), record.root)) {
      throw new McpError(ErrorCode.InvalidParams, `No skill at ${uri}; ${record.owner}/${record.repo} is the skill ${skillUri([...record.root, 'SKILL.md'])}`);
    }
    if (record.problem !== undefined) throw new McpError(ErrorCode.InvalidParams, `${record.owner}/${record.repo} is not served as a skill: ${record.problem}`);
    return { resultType: 'complete', skill: entryOf(record) } as never;
  });

  server.server.setRequestHandler(DirectoryReadRequest, async (request) => {
    const uri = stringParam(request.params, 'uri', true);
    const cursor = stringParam(request.params, 'cursor', false);
    // Every listing fits one answer (a skill has at most MAX_SKILL_FILES files): no cursor is ever given out.
    if (cursor !== undefined) throw new McpError(ErrorCode.InvalidParams, `Invalid cursor ${JSON.stringify(cursor)}`);
    const segments = parseSkillUri(uri);
    if (segments === undefined || segments.length < 2) {
      throw new McpError(ErrorCode.InvalidParams, `${JSON.stringify(uri)} is not a skill directory; skills/list enumerates the skills`);
    }
    const record = await loads.run(() => findSkill(client, source, segments[0]!, segments[1]!, uri));
    const resources = childrenOf(record, segments);
    if (resources === undefined) throw new McpError(ErrorCode.InvalidParams, `${uri} is not a directory of ${record.owner}/${record.repo}`);
    return { resultType: 'complete', resources } as never;
  });

  // Every file of every skill: skill://<skill-path>/<file-path>. Registered after the SKILL.md
  // template of mcp.ts, which answers skill://<owner>/<repo>/SKILL.md first.
  server.registerResource(
    'skill-file',
    new ResourceTemplate('skill://{owner}/{repo}/{+path}', { list: undefined }),
    { title: 'A file of a skill', description: 'Any file of a skill, at skill://<skill-path>/<file-path> (skills/get lists them with their digests)' },
    async (uri) => {
      const segments = parseSkillUri(uri.href);
      if (segments === undefined) throw new McpError(ErrorCode.InvalidParams, `Resource ${uri.href} not found`);
      const record = await loads.run(() => findSkill(client, source, segments[0]!, segments[1] ?? '', uri.href));
      const path = pathInSkill(record, segments);
      if (path === undefined || !record.files.some((f) => f.path === path)) {
        throw new McpError(ErrorCode.InvalidParams, `Resource ${uri.href} not found: ${record.owner}/${record.repo} has no such file`);
      }
      return readFile(client, source, record, path, uri.href);
    },
  );
}

/** The SEP-2640 entry of a servable skill. */
function entryOf(record: SkillRecord): SkillEntry {
  return {
    uri: skillUri([...record.root, 'SKILL.md']),
    frontmatter: record.frontmatter!,
    resources: record.files.map((f) => ({ uri: skillUri([...record.root, ...f.path.split('/')]), digest: `sha256:${f.sha256}`, size: f.size })),
  };
}

/** Describe one skill: its files, front matter, root, and whether it can be served as an extension skill. */
async function loadSkill(client: SkillsClient, owner: string, repo: string): Promise<SkillRecord> {
  const [{ data: detail }, { data: content }] = await Promise.all([client.getSkill(owner, repo), client.getSkillContent(owner, repo)]);
  const { files, read } = filesOf(detail, content);
  const record: SkillRecord = { owner: detail.owner, repo: detail.repo, root: [detail.owner, detail.repo], files, read };
  let name: unknown;
  let description: unknown;
  try {
    // Checked as the build checks it, then read as any host reads it (below).
    parseFrontMatter(content.content);
    record.frontmatter = verbatimFrontMatter(content.content);
    ({ name, description } = record.frontmatter);
  } catch (error) {
    record.problem = `its SKILL.md front matter cannot be read (${error instanceof Error ? error.message : String(error)})`;
    return record;
  }
  if (typeof name !== 'string' || !SKILL_NAME_RE.test(name)) {
    record.problem = `its name ${JSON.stringify(name)} is not an Agent Skills name (1–64 lower-case letters, digits and single hyphens)`;
    return record;
  }
  const descriptionLength = typeof description === 'string' ? [...description].length : 0;
  if (descriptionLength > MAX_DESCRIPTION_LENGTH) {
    record.problem = `its description is ${descriptionLength} characters; the Agent Skills specification allows ${MAX_DESCRIPTION_LENGTH}`;
    return record;
  }
  // The last segment of a skill's path is its name (SEP-2640): owner/repo when they agree, owner/repo/name when not.
  if (name !== detail.repo) record.root.push(name);
  const bytes = files.reduce((sum, f) => sum + f.size, 0);
  if (files.length > MAX_SKILL_FILES) record.problem = `it has ${files.length} files; the extension's limit is ${MAX_SKILL_FILES}`;
  else if (bytes > MAX_SKILL_BYTES) record.problem = `its files hold ${bytes} bytes; the extension's limit is ${MAX_SKILL_BYTES}`;
  return record;
}

/**
 * The front matter as plain YAML 1.2 reads it (the `yaml` library's defaults: the core schema, so
 * `updated: 2025-10-20` stays that text): the JSON a host gets when it parses the SKILL.md it
 * reads and compares it, field by field, with the entry (SEP-2640). The build's own reading
 * turns dates into timestamps, which would not compare equal.
 */
function verbatimFrontMatter(text: string): Record<string, unknown> {
  const { block } = splitFrontMatter(text.startsWith('\uFEFF') ? text.slice(1) : text);
  const doc = parseDocument(`${block}\n`);
  if (doc.errors.length > 0) throw new Error(doc.errors[0]!.message);
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `loadSkill`, a missing skill being the unknown resource `uri` (-32602) and other failures saying what failed. */
async function findSkill(client: SkillsClient, source: string, owner: string, repo: string, uri: string): Promise<SkillRecord> {
  try {
    return await loadSkill(client, owner, repo);
  } catch (error) {
    if (isApiError(error) && error.status === 404) throw new McpError(ErrorCode.InvalidParams, `Resource ${uri} not found: no skill ${owner}/${repo}`);
    throw failure(source, error);
  }
}

/** The path in the skill's folder named by the URI segments, when they lie under the skill's root. */
function pathInSkill(record: SkillRecord, segments: readonly string[]): string | undefined {
  if (segments.length <= record.root.length || !sameSegments(segments.slice(0, record.root.length), record.root)) return undefined;
  return segments.slice(record.root.length).join('/');
}

/** The direct children of the directory `segments` names, or undefined when it is not a directory of the skill. */
function childrenOf(record: SkillRecord, segments: readonly string[]): Resource[] | undefined {
  // owner/repo above a root owner/repo/name holds that one folder.
  if (record.root.length === 3 && segments.length === 2 && sameSegments(segments, record.root.slice(0, 2))) {
    return [{ uri: skillUri(record.root), name: record.root[2]!, mimeType: DIRECTORY_MIME }];
  }
  const prefix = sameSegments(segments, record.root) ? '' : pathInSkill(record, segments);
  if (prefix === undefined) return undefined;
  const under = prefix === '' ? '' : `${prefix}/`;
  const children = new Map<string, Resource>();
  for (const file of record.files) {
    if (!file.path.startsWith(under)) continue;
    const rest = file.path.slice(under.length).split('/');
    const name = rest[0]!;
    const uri = skillUri([...segments, name]);
    if (rest.length > 1) children.set(name, { uri, name, mimeType: DIRECTORY_MIME });
    else if (file.path === 'SKILL.md' && record.problem === undefined) {
      // The skill's own SKILL.md is named and described by its front matter (the extension's resource metadata).
      const { name: skillName, description } = record.frontmatter as { name: string; description: string };
      children.set(name, { uri, name: skillName, description, mimeType: 'text/markdown', size: file.size });
    } else {
      // By the extension, as the files route types it (src/files.ts); unknown extensions go untyped.
      const mimeType = typeOfName(name);
      children.set(name, { uri, name, size: file.size, ...(mimeType === undefined ? {} : { mimeType }) });
    }
  }
  // A prefix with no file under it is no directory (folders exist only through their files).
  if (children.size === 0 && prefix !== '') return undefined;
  return [...children.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}

/**
 * One file's bytes as a resource: text when they are UTF-8 (BOM kept, so the text encodes back to
 * the very bytes its digest covers), else base64.
 */
async function readFile(client: SkillsClient, source: string, record: SkillRecord, path: string, uri: string): Promise<ReadResourceResult> {
  let bytes: Uint8Array;
  let mimeType: string;
  try {
    if (record.read === 'content') {
      bytes = new TextEncoder().encode((await client.getSkillContent(record.owner, record.repo)).data.content);
      mimeType = 'text/markdown';
    } else {
      const route = `/api/v1/skills/${encodeURIComponent(record.owner)}/${encodeURIComponent(record.repo)}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
      const response = await client.fetch(route);
      if (!response.ok) throw new Error(`GET ${route} answered ${response.status}`);
      bytes = new Uint8Array(await response.arrayBuffer());
      mimeType = response.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream';
    }
  } catch (error) {
    throw failure(source, error);
  }
  const text = utf8(bytes);
  const meta = { uri, mimeType };
  return { contents: [text === undefined ? { ...meta, blob: Buffer.from(bytes).toString('base64') } : { ...meta, text }] };
}

/** The text of UTF-8 bytes without NUL, else undefined. */
function utf8(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The decoded segments after `skill://`, or undefined when `uri` is not such a URI or holds an empty, `.` or `..` segment. */
export function parseSkillUri(uri: string): string[] | undefined {
  if (!uri.startsWith('skill://') || /[?#]/.test(uri)) return undefined;
  const raw = uri.slice('skill://'.length);
  if (raw === '') return undefined;
  try {
    const segments = raw.split('/').map((s) => decodeURIComponent(s));
    return segments.every((s) => s !== '' && s !== '.' && s !== '..' && !s.includes('/')) ? segments : undefined;
  } catch {
    return undefined;
  }
}

/** Owner and repo compare without case (ids are case-insensitive); the rest exactly. */
function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => (i < 2 ? s.toLowerCase() === b[i]!.toLowerCase() : s === b[i]));
}

/** An API failure as a JSON-RPC error that says what failed. */
function failure(source: string, error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (isApiError(error)) return new McpError(ErrorCode.InternalError, `${error.code} (${error.status}): ${error.message}`);
  return new McpError(ErrorCode.InternalError, `Failed reading ${source}: ${error instanceof Error ? error.message : String(error)}`);
}

/** `request()`, an API error becoming a JSON-RPC error. */
async function viaApi<T>(source: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw failure(source, error);
  }
}
