/**
 * The files an `--incremental` build keeps beside its output (the build cache, the output record,
 * the skill-files record): a JSON header line, then a body whose SHA-256 the header's `checksum`
 * holds. A file cut short, edited or half-written never passes `readCheckedFile`, so a reader
 * falls back to doing the work instead of trusting it. A large one may have a delta beside it
 * (`<file>.delta`, itself a checked file whose header names the base's checksum): a build that
 * changed a few entries writes those there instead of the whole file again.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** The header and body of `file`, or undefined when it is missing, malformed or fails its checksum. */
export function readCheckedFile(file: string): { header: Record<string, unknown>; body: string } | undefined {
  const read = readCheckedBytes(file);
  return read === undefined ? undefined : { header: read.header, body: read.body.toString('utf8') };
}

/**
 * The header and body bytes of `file`, or undefined when it is missing, malformed, not
 * `accept`ed by its header or fails its checksum.
 */
export function readCheckedBytes(file: string, accept?: (header: Record<string, unknown>) => boolean): { header: Record<string, unknown>; body: Buffer } | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const headerEnd = bytes.indexOf(0x0a);
  if (headerEnd === -1) return undefined;
  const header = parseHeader(bytes.toString('utf8', 0, headerEnd));
  if (header === undefined || accept?.(header) === false) return undefined;
  // The checksum is of the body's bytes: hashed as read, before they are decoded.
  const body = bytes.subarray(headerEnd + 1);
  if (header.checksum !== sha256Hex(body)) return undefined;
  return { header, body };
}

/**
 * Read checked file `file` a line at a time: `accept` sees the header first (false: stop, the
 * file is not of the kind asked for), then `line` gets each line of the body, in order (false:
 * stop, the line is malformed). The header is returned only when every line was taken and the
 * body's bytes match its checksum; otherwise undefined, and the caller must drop what it took
 * from the lines. For bodies of hundreds of megabytes: the file is read in chunks into one reused
 * buffer and each line decoded on its own, so neither the whole file nor one string of its body
 * is ever held (decoding a body as one string is slower than the lines' parsing itself, most of
 * all when a line holds a character outside ASCII, which makes the whole string two-byte).
 */
export function readCheckedLines(file: string, accept: (header: Record<string, unknown>) => boolean, line: (text: string, tail?: string) => boolean | void, options: { tails?: boolean } = {}): Record<string, unknown> | undefined {
  // With `tails`, a line's text after its first tab is decoded apart (`lineWithTail`).
  const { tails = false } = options;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    let buffer = Buffer.allocUnsafe(CHUNK);
    let length = 0;
    let header: Record<string, unknown> | undefined;
    const hash = createHash('sha256');
    for (;;) {
      // A line longer than the buffer: grow it, keeping the line's start.
      if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)], buffer.length * 2);
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      let at = 0;
      let end = buffer.indexOf(0x0a, length);
      // The header line is not part of the body the checksum covers.
      if (header === undefined && end !== -1 && end < length + read) {
        header = parseHeader(buffer.toString('utf8', 0, end));
        if (header === undefined || !accept(header)) return undefined;
        at = end + 1;
        hash.update(buffer.subarray(at, length + read));
      } else if (header !== undefined) hash.update(buffer.subarray(length, length + read));
      length += read;
      if (header === undefined) continue;
      for (end = buffer.indexOf(0x0a, at); end !== -1 && end < length; end = buffer.indexOf(0x0a, at)) {
        if ((tails ? lineWithTail(buffer, at, end, line) : line(buffer.toString('utf8', at, end))) === false) return undefined;
        at = end + 1;
      }
      buffer.copy(buffer, 0, at, length);
      length -= at;
    }
    if (header === undefined) return undefined;
    // A body that does not end with a line break still has its last line.
    if (length > 0 && (tails ? lineWithTail(buffer, 0, length, line) : line(buffer.toString('utf8', 0, length))) === false) return undefined;
    return header.checksum === hash.digest('hex') ? header : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Give `line` the line at `buffer[at, end)`, its text after the first tab (a byte no JSON text
 * holds unescaped) decoded as a string of its own: a slice of the line's string would keep the
 * whole line alive as long as the tail is kept.
 */
function lineWithTail(buffer: Buffer, at: number, end: number, line: (text: string, tail?: string) => boolean | void): boolean | void {
  const tab = buffer.subarray(at, end).indexOf(0x09);
  return tab === -1 ? line(buffer.toString('utf8', at, end)) : line(buffer.toString('utf8', at, at + tab), buffer.toString('utf8', at + tab + 1, end));
}

/** A line of a delta (a string) as `lineWithTail` gives it: its text up to the first tab, and after. */
function splitTail(text: string): [string, string | undefined] {
  const tab = text.indexOf('\t');
  return tab === -1 ? [text, undefined] : [text.slice(0, tab), text.slice(tab + 1)];
}

/** Bytes read at a time by `readCheckedLines`. */
const CHUNK = 4 << 20;

/** A header line as an object, or undefined. */
function parseHeader(text: string): Record<string, unknown> | undefined {
  try {
    const header = JSON.parse(text) as unknown;
    return typeof header === 'object' && header !== null && !Array.isArray(header) ? (header as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Replace `file` atomically with `header` (its `checksum` added last) and `body`. Throws on failure. */
export function writeCheckedFile(file: string, header: Record<string, unknown>, body: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  // Encoded once, then hashed and written as bytes (a body can be hundreds of megabytes).
  const bytes = Buffer.from(body, 'utf8');
  try {
    const fd = openSync(temporary, 'w');
    try {
      writeAll(fd, Buffer.from(`${JSON.stringify({ ...header, checksum: sha256Hex(bytes) })}\n`, 'utf8'));
      writeAll(fd, bytes);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Write all of `bytes` at the file's position. */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** SHA-256 of a text (as UTF-8) or of bytes, in hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The file beside checked file `file` that holds what changed since it was written (a delta),
 * so a build that changed a few entries of a large cache writes those instead of the whole file.
 */
export function deltaFile(file: string): string {
  return `${file}.delta`;
}

/** What `readCheckedLinesWithDelta` asks of its caller. */
export interface CheckedLinesReader {
  /**
   * Whether the base file is of the kind asked for, given its header and, when a delta was
   * written over this very base, the delta's header (false: nothing is read).
   */
  accept(header: Record<string, unknown>, delta: Record<string, unknown> | undefined): boolean;
  /** Whether to take the lines of that delta after the base's (default: yes). */
  takeDelta?(delta: Record<string, unknown>, header: Record<string, unknown>): boolean;
  /**
   * One line of the base (`inBase`) or then of the delta; false: malformed, the whole read fails.
   * With `tails`, the line's text after its first tab comes apart, as `tail`.
   */
  line(text: string, inBase: boolean, tail?: string): boolean | void;
  /** Decode each line's text after its first tab apart (see `readCheckedLines`). */
  tails?: boolean;
}

/**
 * Checked file `file` and its delta (`deltaFile`) a line at a time (`readCheckedLines`): the base's
 * lines, then, when the delta was written over this very base (its header's `base` is the base's
 * checksum; a base written again since, or a delta of another one, is ignored) and is taken, the
 * delta's. The headers read, or undefined when the base cannot be read, is not accepted or a line
 * was refused (the caller then drops what it took from the lines).
 */
export function readCheckedLinesWithDelta(file: string, reader: CheckedLinesReader): { header: Record<string, unknown>; delta?: Record<string, unknown> } | undefined {
  // The delta is small and read first: whether the base is accepted may depend on it.
  const stored = readCheckedFile(deltaFile(file));
  let delta: { header: Record<string, unknown>; body: string } | undefined;
  const header = readCheckedLines(
    file,
    (head) => {
      delta = deltaOver(stored, head);
      return reader.accept(head, delta?.header);
    },
    (text, tail) => reader.line(text, true, tail),
    { tails: reader.tails === true },
  );
  if (header === undefined) return undefined;
  if (delta === undefined || reader.takeDelta?.(delta.header, header) === false) return { header };
  try {
    for (const text of delta.body.split('\n')) {
      const [head, tail] = reader.tails === true ? splitTail(text) : [text, undefined];
      if (reader.line(head, false, tail) === false) return undefined;
    }
  } catch {
    return undefined;
  }
  return { header, delta: delta.header };
}

/** `stored`, the delta read beside a base whose header is `header`, when it was written over that very base. */
function deltaOver<D extends { header: Record<string, unknown> }>(stored: D | undefined, header: Record<string, unknown>): D | undefined {
  return stored !== undefined && stored.header.base === header.checksum ? stored : undefined;
}

/**
 * Checked file `file` as bytes (`readCheckedBytes`) with its delta as text, when the delta was
 * written over this very base (as `readCheckedLinesWithDelta` takes it); undefined when the base
 * cannot be read or `accept` (given its header and the delta's) refuses it.
 */
export function readCheckedBytesWithDelta(
  file: string,
  accept: (header: Record<string, unknown>, delta: Record<string, unknown> | undefined) => boolean,
): { header: Record<string, unknown>; body: Buffer; delta?: { header: Record<string, unknown>; body: string } } | undefined {
  // The delta is small and read first: whether the base is accepted may depend on it.
  const stored = readCheckedFile(deltaFile(file));
  let delta: typeof stored;
  const whole = readCheckedBytes(file, (header) => {
    delta = deltaOver(stored, header);
    return accept(header, delta?.header);
  });
  if (whole === undefined) return undefined;
  return delta === undefined ? whole : { ...whole, delta };
}

/**
 * Replace the delta of checked file `file`, whose checksum is `base`, atomically. The base is not
 * touched: the delta must hold every change since the base was written. Throws on failure.
 */
export function writeDeltaFile(file: string, base: string, header: Record<string, unknown>, body: string): void {
  writeCheckedFile(deltaFile(file), { ...header, base }, body);
}

/**
 * Replace checked file `file` as a whole, its delta removed first: a build killed in between
 * leaves the old base alone, never a delta over a base of the same bytes written later. Throws on
 * failure.
 */
export function writeCheckedFileWhole(file: string, header: Record<string, unknown>, body: string): void {
  rmSync(deltaFile(file), { force: true });
  writeCheckedFile(file, header, body);
}
