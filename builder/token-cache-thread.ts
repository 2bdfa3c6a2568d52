/**
 * The search token cache of an `--incremental` build (builder/search-corpus.ts) read in a thread
 * of its own while the build makes the skill files and the tree: reading it, checking its SHA-256
 * and every token of it is a second of work at 100k skills that needs nothing of the build. The
 * body moves to the build's thread without a copy; only the map by document key is made there.
 * The result is the one `readTokenCache` gives; a thread that cannot be started or fails reads
 * the file in the calling thread instead.
 */
import { readTokenCache, tokenCacheOf, type TokenCache, type TokenCacheBytes } from './search-corpus.ts';
import { inThreadOrHere } from './threads.ts';

/** What the thread posts: the checked body (`null`: no usable cache), or why it has none. */
export type TokenCacheMessage = { bytes: TokenCacheBytes | null; error?: undefined } | { error: string; bytes?: undefined };

/** `readTokenCache(file, code)`, started now in a thread of its own. */
export function readTokenCacheInThread(file: string, code: string): Promise<TokenCache | undefined> {
  return inThreadOrHere<TokenCacheMessage, TokenCache | undefined>(
    import.meta.url,
    'token-cache-worker',
    { file, code },
    (message) => (message.error !== undefined ? undefined : { value: message.bytes === null ? undefined : tokenCacheOf(message.bytes) }),
    () => readTokenCache(file, code),
  );
}
