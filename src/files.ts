/**
 * Answers of a skill's files and archive (docs/api.md "Files and archive"): the raw bytes with
 * their media type, an ETag from the SHA-256 the detail lists (the strong-ETag form every host
 * uses, so no host hashes the bytes again), CORS and a sandboxing Content-Security-Policy: a
 * skill's own HTML or SVG must never run as the directory's page.
 */
import { lookup } from 'mrmime';
import { ApiError } from './errors.ts';
import type { BytesLoader } from './loader.ts';
import { quote } from './params.ts';
import { findSkill } from './answers/skills.ts';
import type { AnswerContext } from './endpoints.ts';
import { skillArchivePath, skillFilePath, skillFileUrlPath, type SkillFileEntry } from './skill-files.ts';

/** A file of a skill's folder (`path` decoded), or its archive. */
type FileRoute = { kind: 'skill-file'; path: string } | { kind: 'skill-archive' };

/** `GET /api/v1/skills/:owner/:repo/files/*path` (src/endpoints.ts `getSkillFile`). */
export const skillFile = (context: AnswerContext<'/:owner/:repo/*path'>) => fileAnswer(context, { kind: 'skill-file', path: context.path.path });

/** `GET /api/v1/skills/:owner/:repo/archive.tar.gz` (src/endpoints.ts `getSkillArchive`). */
export const skillArchive = (context: AnswerContext<'/:owner/:repo'>) => fileAnswer(context, { kind: 'skill-archive' });

/**
 * The detail lists each file with its SHA-256; the skill is found in any case of its id, like a
 * skill, with `Content-Location` naming the canonical URL.
 */
async function fileAnswer(context: AnswerContext<'/:owner/:repo'>, route: FileRoute): Promise<Response> {
  const found = await findSkill(context, 'detail');
  const { owner, repo } = found.canonical ?? context.path;
  const tail = route.kind === 'skill-archive' ? skillArchivePath(owner, repo) : skillFileUrlPath(owner, repo, route.path);
  const moved: Record<string, string> = found.canonical === undefined ? {} : { 'content-location': `${context.basePath}${tail}` };
  return answerFile(context.options.bytes, found.body, owner, repo, route, context.request.method === 'HEAD', moved);
}

/** Headers of every file answer besides type, ETag and length. */
const FILE_HEADERS = {
  'access-control-allow-origin': '*',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
} as const;

/**
 * The answer to a file or archive route of the skill whose detail body is `detail` (its id in
 * the canonical case: `owner`/`repo`). A path the detail does not list is NOT_FOUND; a listed
 * file missing from the tree is a SERVER_ERROR (the build is incomplete).
 */
export async function answerFile(
  bytes: BytesLoader | undefined,
  detail: unknown,
  owner: string,
  repo: string,
  route: FileRoute,
  head: boolean,
  extra: Record<string, string>,
): Promise<Response> {
  const data = (detail as { data?: { files?: SkillFileEntry[]; archive?: { sha256: string } } }).data;
  const id = `${owner}/${repo}`;
  let path: string;
  let sha256: string;
  let type: string | undefined;
  if (route.kind === 'skill-archive') {
    if (data?.archive === undefined) throw new ApiError('NOT_FOUND', `The skill ${id} has no archive in this build`);
    path = skillArchivePath(owner, repo);
    sha256 = data.archive.sha256;
    type = 'application/gzip';
  } else {
    const entry = data?.files?.find((file) => file.path === route.path);
    if (entry === undefined) throw new ApiError('NOT_FOUND', `The skill ${id} has no file ${quote(route.path)}`);
    path = skillFilePath(owner, repo, entry.path);
    sha256 = entry.sha256;
  }
  if (bytes === undefined) throw new ApiError('NOT_FOUND', `This source of the directory holds no file bytes (${quote(path)})`);
  const body = await bytes(path);
  if (body === undefined) throw new ApiError('SERVER_ERROR', `The file ${path} is missing: rebuild the output`);
  const headers = {
    ...FILE_HEADERS,
    'content-type': type ?? mediaType(route.kind === 'skill-file' ? route.path : path, body),
    etag: etagOfHex(sha256),
    'content-length': String(body.byteLength),
    ...extra,
  };
  return new Response(head ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Extensions whose files in a skill folder are text that mrmime's table types as something else:
 * TypeScript, not an MPEG transport stream; Graphviz, not a Word template.
 */
const SKILL_FILE_TYPES: Readonly<Record<string, string>> = {
  ts: 'text/typescript',
  mts: 'text/typescript',
  cts: 'text/typescript',
  dot: 'text/vnd.graphviz',
  gv: 'text/vnd.graphviz',
};

/** The media type of file name `name` by its extension (`SKILL_FILE_TYPES`, then mrmime), if known. */
export function typeOfName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return (dot === -1 ? undefined : SKILL_FILE_TYPES[name.slice(dot + 1).toLowerCase()]) ?? lookup(name);
}

/**
 * The media type of a file: by its extension (`typeOfName`), `; charset=utf-8` added to a textual
 * type whose bytes are UTF-8; without a known extension `text/plain; charset=utf-8` for UTF-8 text
 * without NUL, else `application/octet-stream`. The same on every host.
 */
export function mediaType(path: string, body: Uint8Array): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const known = typeOfName(name);
  const text = isUtf8Text(body);
  if (known === undefined) return text ? 'text/plain; charset=utf-8' : 'application/octet-stream';
  const textual = known.startsWith('text/') || /^application\/(?:json|javascript|xml|x-sh|toml|yaml)/.test(known) || known.endsWith('+xml') || known.endsWith('+json');
  return textual && text ? `${known}; charset=utf-8` : known;
}

function isUtf8Text(body: Uint8Array): boolean {
  if (body.includes(0)) return false;
  try {
    utf8.decode(body);
    return true;
  } catch {
    return false;
  }
}

/** The strong ETag of bytes whose SHA-256 hex is `hex`: the form `strongEtag` gives (src/http-cache.ts). */
export function etagOfHex(hex: string): string {
  let binary = '';
  for (let i = 0; i < hex.length; i += 2) binary += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
  return `"${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}"`;
}
