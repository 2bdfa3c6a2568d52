/**
 * Answers of the API kept by URL, for a host that answers many requests in one process (the Node
 * server). Every answer is a pure function of the build (docs/decisions.md §1.4), so the same
 * URL gets the same bytes until the build changes: a kept answer is sent again without running
 * the handler, reading files, serializing or hashing. No Node built-ins.
 *
 * Bodies are kept once per content ETag (a SHA-256 of the bytes), whatever URL produced them: many
 * connections asking for the same answer, even through different URLs (another query order, an
 * id in other letter cases), are handed the same bytes. That is what bounds the memory of clients
 * that pipeline requests and never read (each holds one reply until it reads: with one body per
 * reply, 200 of them asking for a 1 MiB SKILL.md held 200 MiB).
 */
import { Lru } from './lru.ts';

/** Limits of an `AnswerMemo`. */
export interface AnswerMemoOptions {
  /** Bytes of bodies kept; default 32 MiB. */
  maxBytes?: number;
  /** Answers (URLs) kept; default 10,000. */
  maxAnswers?: number;
}

/** One kept answer: the headers of the 200 (with its ETag and length) and its body. */
export interface KeptAnswer {
  headers: Headers;
  body: Uint8Array<ArrayBuffer>;
}

/** The URL → answer and ETag → body memory of `withCaching` (src/http-cache.ts). */
export class AnswerMemo {
  private readonly answers: Lru<{ headers: Headers; etag: string }>;
  private readonly bodies: Lru<Uint8Array<ArrayBuffer>>;
  private readonly largest: number;
  private readonly computing = new Map<string, Promise<void>>();
  private version = 0;

  constructor({ maxBytes = 32 * 1024 * 1024, maxAnswers = 10_000 }: AnswerMemoOptions = {}) {
    this.answers = new Lru(maxAnswers);
    this.bodies = new Lru(maxBytes);
    // One answer may take an eighth of the room, so a few large bodies cannot push out the rest.
    this.largest = Math.floor(maxBytes / 8);
  }

  /** Increases at every `clear()`; `keep` ignores an answer computed before the last one. */
  get generation(): number {
    return this.version;
  }

  /** The answer kept for `url` (a copy of its headers, the shared body), or undefined. */
  get(url: string): KeptAnswer | undefined {
    const answer = this.answers.get(url);
    if (answer === undefined) return undefined;
    const body = this.bodies.get(answer.etag);
    if (body === undefined) {
      // Its body made room for others: answer anew.
      this.answers.delete(url);
      return undefined;
    }
    return { headers: new Headers(answer.headers), body };
  }

  /**
   * Keep the 200 answer of `url` computed in `generation`, tagged `etag`, and return the body to
   * send: the one already kept under `etag` when there is one (so its fresh copy can be dropped),
   * else `body` itself. Nothing is kept for a body over an eighth of the room, or an answer of a
   * build that has since been replaced.
   */
  keep(url: string, generation: number, headers: Headers, etag: string, body: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
    const kept = this.bodies.get(etag);
    const shared = kept ?? body;
    if (generation !== this.version || shared.byteLength > this.largest) return shared;
    if (kept === undefined) this.bodies.set(etag, body, body.byteLength);
    this.answers.set(url, { headers: new Headers(headers), etag });
    return shared;
  }

  /**
   * Say that the answer of `url` is being computed; the returned function says it is done (kept
   * or not). Meanwhile `pending(url)` lets other requests for the same URL wait for it instead of
   * computing it too: 200 connections asking at once for one 1 MiB answer computed it 60–80 times
   * over, each holding copies of the body. Only for hosts where one request may wait on another's
   * work (the Node server; not workerd).
   */
  start(url: string): () => void {
    if (this.computing.has(url)) return () => undefined;
    let done!: () => void;
    this.computing.set(url, new Promise<void>((resolve) => (done = resolve)));
    return () => {
      this.computing.delete(url);
      done();
    };
  }

  /** Resolves once the answer of `url` under way is done (then `get(url)` tells whether it was kept); undefined when none is. */
  pending(url: string): Promise<void> | undefined {
    return this.computing.get(url);
  }

  /** Forget every answer: the build behind them changed. */
  clear(): void {
    this.version++;
    this.answers.clear();
    this.bodies.clear();
  }
}
