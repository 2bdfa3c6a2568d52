/**
 * The files an `--incremental` build keeps beside its output (the build cache, the output record,
 * the skill-files record): a JSON header line, then a body whose SHA-256 the header's `checksum`
 * holds. A file cut short, edited or half-written never passes `readCheckedFile`, so a reader
 * falls back to doing the work instead of trusting it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The header and body of `file`, or undefined when it is missing, malformed or fails its checksum. */
export function readCheckedFile(file: string): { header: Record<string, unknown>; body: string } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const headerEnd = text.indexOf('\n');
  if (headerEnd === -1) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(text.slice(0, headerEnd));
  } catch {
    return undefined;
  }
  const body = text.slice(headerEnd + 1);
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return undefined;
  if ((header as Record<string, unknown>).checksum !== sha256Hex(body)) return undefined;
  return { header: header as Record<string, unknown>, body };
}

/** Replace `file` atomically with `header` (its `checksum` added last) and `body`. Throws on failure. */
export function writeCheckedFile(file: string, header: Record<string, unknown>, body: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify({ ...header, checksum: sha256Hex(body) })}\n${body}`);
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** SHA-256 of a text, in hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
