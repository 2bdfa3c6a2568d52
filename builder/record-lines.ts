/**
 * The `<key> <path>` lines of an output record file (builder/output-record.ts) held as the bytes
 * they were read as, with a hash table over their paths. A record has about eight lines per
 * skill: as a Map of two strings per line, a large one is millions of small objects that every
 * collection of the old generation walks, and an in-place build would make a second one for its
 * new output. Here a line is three numbers and its bytes stay outside the JavaScript heap; a
 * record of the new output shares them (`OutputRecord`). BENCHMARKS.md "The output record as
 * bytes" measures both.
 */

/** Lines of a record file, looked up by path. Entries are numbered in file order. */
export class RecordLines {
  /** Entries (lines), including any superseded by a later line of the same path. */
  readonly capacity: number;
  readonly #bytes: Buffer;
  /** Where each entry's line (its key) starts, where its path starts, where its line ends. */
  readonly #keyAt: Int32Array;
  readonly #pathAt: Int32Array;
  readonly #endAt: Int32Array;
  /** Open addressing over the paths' hashes: entry + 1, 0 for an empty slot. */
  readonly #table: Int32Array;
  /** Entries whose path a later line of the file names again: not in the table, never present. */
  readonly #superseded: Uint8Array;
  /** Per entry: 1 when its path has a byte outside ASCII, 2 when it is stored quoted. */
  readonly #wide: Uint8Array;
  /** Paths stored as JSON strings (a line break, or a leading quote), by their text. */
  readonly #quoted: Map<string, number>;
  readonly #quotedText: Map<number, string>;
  /**
   * The last paths looked up and their entries, a few: a build asks for the same paths several
   * times in a row (all of a skill's files checked, then each claimed and set).
   */
  readonly #recentPaths: (string | undefined)[] = new Array<string | undefined>(RECENT).fill(undefined);
  readonly #recentEntries = new Int32Array(RECENT);
  #recentNext = 0;

  private constructor(bytes: Buffer, keyAt: Int32Array, pathAt: Int32Array, endAt: Int32Array, count: number) {
    this.#bytes = bytes;
    this.#keyAt = keyAt;
    this.#pathAt = pathAt;
    this.#endAt = endAt;
    this.capacity = count;
    this.#superseded = new Uint8Array(count);
    this.#wide = new Uint8Array(count);
    this.#quoted = new Map();
    this.#quotedText = new Map();
    let size = 1;
    while (size < count * 2) size *= 2;
    this.#table = new Int32Array(size);
  }

  /**
   * The lines of `body` (a record file's body: `<hash> <size> <path>` lines, a path beginning with
   * `"` being a JSON string), or undefined when a line is malformed.
   */
  static parse(body: Buffer): RecordLines | undefined {
    let count = 0;
    for (let at = body.indexOf(0x0a); at !== -1; at = body.indexOf(0x0a, at + 1)) count++;
    count++;
    const keyAt = new Int32Array(count);
    const pathAt = new Int32Array(count);
    const endAt = new Int32Array(count);
    let n = 0;
    for (let start = 0; start < body.length; ) {
      let end = body.indexOf(0x0a, start);
      if (end === -1) end = body.length;
      if (end > start) {
        const first = body.indexOf(0x20, start);
        const second = first === -1 || first >= end ? -1 : body.indexOf(0x20, first + 1);
        if (second === -1 || second >= end) return undefined;
        keyAt[n] = start;
        pathAt[n] = second + 1;
        endAt[n] = end;
        n++;
      }
      start = end + 1;
    }
    const lines = new RecordLines(body, keyAt, pathAt, endAt, n);
    return lines.#index() ? lines : undefined;
  }

  /** Fill the table; false when a quoted path is not a JSON string. */
  #index(): boolean {
    const bytes = this.#bytes;
    const mask = this.#table.length - 1;
    for (let entry = 0; entry < this.capacity; entry++) {
      const start = this.#pathAt[entry]!;
      const end = this.#endAt[entry]!;
      if (bytes[start] === 0x22) {
        let path: unknown;
        try {
          path = JSON.parse(bytes.toString('utf8', start, end));
        } catch {
          return false;
        }
        if (typeof path !== 'string') return false;
        const earlier = this.#quoted.get(path);
        if (earlier !== undefined) this.#superseded[earlier] = 1;
        this.#quoted.set(path, entry);
        this.#quotedText.set(entry, path);
        this.#wide[entry] = 2;
        continue;
      }
      let hash = FNV_OFFSET;
      let any = 0;
      for (let i = start; i < end; i++) {
        const byte = bytes[i]!;
        any |= byte;
        hash = Math.imul(hash ^ byte, FNV_PRIME);
      }
      if (any >= 0x80) this.#wide[entry] = 1;
      for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
        const found = this.#table[slot]!;
        if (found === 0) {
          this.#table[slot] = entry + 1;
          break;
        }
        if (this.#samePaths(found - 1, entry)) {
          this.#superseded[found - 1] = 1;
          this.#table[slot] = entry + 1;
          break;
        }
      }
    }
    return true;
  }

  /** Whether entries `a` and `b` have the same path bytes. */
  #samePaths(a: number, b: number): boolean {
    const bytes = this.#bytes;
    const length = this.#endAt[a]! - this.#pathAt[a]!;
    if (this.#endAt[b]! - this.#pathAt[b]! !== length) return false;
    for (let i = 0, x = this.#pathAt[a]!, y = this.#pathAt[b]!; i < length; i++) if (bytes[x + i] !== bytes[y + i]) return false;
    return true;
  }

  /** The entry of `path`, or -1. */
  entryOf(path: string): number {
    const recent = this.#recentPaths;
    for (let i = 0; i < RECENT; i++) if (recent[i] === path) return this.#recentEntries[i]!;
    const entry = this.#find(path);
    const slot = this.#recentNext;
    recent[slot] = path;
    this.#recentEntries[slot] = entry;
    this.#recentNext = (slot + 1) % RECENT;
    return entry;
  }

  #find(path: string): number {
    if (this.#quoted.size > 0) {
      const quoted = this.#quoted.get(path);
      if (quoted !== undefined) return quoted;
    }
    let hash = FNV_OFFSET;
    let ascii = true;
    for (let i = 0; i < path.length; i++) {
      const c = path.charCodeAt(i);
      if (c >= 0x80) {
        ascii = false;
        break;
      }
      hash = Math.imul(hash ^ c, FNV_PRIME);
    }
    // A path outside ASCII is compared as its UTF-8 bytes, as the file has it.
    const encoded = ascii ? undefined : Buffer.from(path, 'utf8');
    if (encoded !== undefined) {
      hash = FNV_OFFSET;
      for (const byte of encoded) hash = Math.imul(hash ^ byte, FNV_PRIME);
    }
    const mask = this.#table.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const found = this.#table[slot]!;
      if (found === 0) return -1;
      const entry = found - 1;
      if (encoded === undefined ? this.#pathIs(entry, path) : this.#pathBytesAre(entry, encoded)) return entry;
    }
  }

  /** Whether entry `entry`'s path is ASCII `path`. */
  #pathIs(entry: number, path: string): boolean {
    const start = this.#pathAt[entry]!;
    if (this.#endAt[entry]! - start !== path.length) return false;
    const bytes = this.#bytes;
    for (let i = 0; i < path.length; i++) if (bytes[start + i] !== path.charCodeAt(i)) return false;
    return true;
  }

  #pathBytesAre(entry: number, encoded: Uint8Array): boolean {
    const start = this.#pathAt[entry]!;
    if (this.#endAt[entry]! - start !== encoded.length) return false;
    const bytes = this.#bytes;
    for (let i = 0; i < encoded.length; i++) if (bytes[start + i] !== encoded[i]) return false;
    return true;
  }

  /** Whether entry `entry` is superseded by a later line of its path. */
  superseded(entry: number): boolean {
    return this.#superseded[entry] === 1;
  }

  /** Whether entry `entry`'s path is outside ASCII or has a length among `lengths`. */
  outsideAsciiOr(entry: number, lengths: ReadonlySet<number>): boolean {
    const wide = this.#wide[entry];
    if (wide === 1) return true;
    if (wide === 0) return lengths.has(this.#endAt[entry]! - this.#pathAt[entry]!);
    const path = this.#quotedText.get(entry)!;
    return lengths.has(path.length) || /[^\x00-\x7f]/.test(path);
  }

  /** The path of entry `entry`. */
  pathOf(entry: number): string {
    const quoted = this.#quotedText.size > 0 ? this.#quotedText.get(entry) : undefined;
    if (quoted !== undefined) return quoted;
    return this.#bytes.toString('utf8', this.#pathAt[entry], this.#endAt[entry]);
  }

  /** The key (`<hash> <size>`) of entry `entry`. */
  keyOf(entry: number): string {
    return this.#bytes.toString('latin1', this.#keyAt[entry], this.#pathAt[entry]! - 1);
  }

  /** Whether entry `entry`'s key is `key`. */
  keyIs(entry: number, key: string): boolean {
    const start = this.#keyAt[entry]!;
    if (this.#pathAt[entry]! - 1 - start !== key.length) return false;
    const bytes = this.#bytes;
    for (let i = 0; i < key.length; i++) if (bytes[start + i] !== key.charCodeAt(i)) return false;
    return true;
  }
}

/** Paths `entryOf` remembers: more than a skill's files and archive, its discovery index and detail. */
const RECENT = 8;

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
