/**
 * The pure and file-level parts of the Node host: header parsing (Accept-Encoding, If-None-Match,
 * Vary), the rate limiter, command-line value checks, the path guard and the fs loader.
 */
import fc from 'fast-check';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPort, readRateLimit } from '../cli/cli.ts';
import { fsLoader } from '../src/node/fs-loader.ts';
import { createRateLimiter } from '../src/node/rate-limit.ts';
import { addVary } from '../src/http-cache.ts';
import { acceptsGzip, SharedGzip } from '../src/node/reply.ts';
import { gunzipSync } from 'node:zlib';
import { isPlainSegment, resolveInside } from '../src/node/safe-path.ts';

describe('acceptsGzip', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['deflate, br', false],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['gzip;q=0', false],
    ['gzip; q=0.000', false],
    ['*', true],
    ['*;q=0', false],
    ['gzip;q=0, *', false],
    ['identity, *;q=0.5', true],
    ['gzip;q=abc', false],
  ])('%j → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe('SharedGzip', () => {
  it('gzips one body once for every caller, the same bytes to each, and keeps within its room', async () => {
    const shared = new SharedGzip(100);
    const body = Buffer.from('abc'.repeat(20));
    const [a, b] = [shared.gzip('"t"', body), shared.gzip('"t"', body)];
    expect(b).toBe(a);
    expect(gunzipSync(await a).toString()).toBe(body.toString());
    // A second body of 60 bytes pushes the first out (room for 100).
    void shared.gzip('"u"', body);
    expect(shared.gzip('"t"', body)).not.toBe(a);
  });
});

describe('addVary', () => {
  it.each([
    [undefined, 'Accept-Encoding'],
    ['', 'Accept-Encoding'],
    ['Origin', 'Origin, Accept-Encoding'],
    ['accept-encoding', 'accept-encoding'],
    ['Origin, Accept-Encoding', 'Origin, Accept-Encoding'],
    ['*', '*'],
  ])('%j → %s', (current, expected) => {
    expect(addVary(current, 'Accept-Encoding')).toBe(expected);
  });
});

describe('createRateLimiter', () => {
  it('allows `limit` requests per client per window, then says how long to wait', () => {
    let time = 1_000_000;
    const limit = createRateLimiter({ limit: 2, windowMs: 10_000 }, () => time);
    expect(limit('a')).toEqual({ allowed: true, limit: 2, remaining: 1, reset: 10 });
    expect(limit('a')).toEqual({ allowed: true, limit: 2, remaining: 0, reset: 10 });
    expect(limit('b').allowed).toBe(true);
    time += 2_500;
    expect(limit('a')).toEqual({ allowed: false, limit: 2, remaining: 0, reset: 8 });
    time += 7_499;
    expect(limit('a').reset).toBe(1);
    time += 1;
    expect(limit('a')).toEqual({ allowed: true, limit: 2, remaining: 1, reset: 10 });
  });

  it('never lets more than `limit` through in one window (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 0, max: 3000 })), { maxLength: 60 }), (max, steps) => {
        let time = 0;
        const limit = createRateLimiter({ limit: max, windowMs: 5_000 }, () => time);
        const allowed = new Map<string, number>();
        let windowStart = 0;
        for (const [client, wait] of steps) {
          time += wait;
          if (time - windowStart >= 5_000) {
            windowStart = time;
            allowed.clear();
          }
          const decision = limit(client);
          if (decision.allowed) allowed.set(client, (allowed.get(client) ?? 0) + 1);
          expect(decision.reset).toBeGreaterThanOrEqual(1);
          expect(decision.remaining).toBe(max - (allowed.get(client) ?? 0));
          expect(allowed.get(client) ?? 0).toBeLessThanOrEqual(max);
        }
      }),
    );
  });
});

describe('command-line values', () => {
  it.each([
    [undefined, undefined, 3000],
    [undefined, '', 3000],
    [undefined, '8080', 8080],
    ['4000', '8080', 4000],
    ['0', undefined, 0],
    ['65535', undefined, 65535],
  ])('--port %j, PORT %j → %d', (flag, env, expected) => {
    expect(readPort(flag, env)).toBe(expected);
  });

  it('rejects a bad port, naming where it came from', () => {
    expect(() => readPort('65536', undefined)).toThrowErrorMatchingInlineSnapshot(`[UsageError: --port must be a port number from 0 to 65535, got "65536"]`);
    expect(() => readPort(undefined, 'http')).toThrowErrorMatchingInlineSnapshot(`[UsageError: PORT must be a port number from 0 to 65535, got "http"]`);
    expect(() => readPort('-1', undefined)).toThrow(/--port/);
  });

  it('reads --rate-limit as N/s, N/min, N/h or a bare N per minute', () => {
    expect(readRateLimit(undefined)).toBeUndefined();
    expect(readRateLimit('120')).toEqual({ limit: 120, windowMs: 60_000 });
    expect(() => readRateLimit('0')).toThrowErrorMatchingInlineSnapshot(`[UsageError: --rate-limit must be N/s, N/min or N/h (N a positive whole number; a bare N is per minute), got "0"]`);
  });
});

describe('resolveInside and fsLoader', () => {
  let base: string;
  let root: string;

  beforeAll(async () => {
    base = realpathSync(await mkdtemp(join(tmpdir(), 'server-parts-')));
    root = join(base, 'out');
    await mkdir(join(root, 'api', 'v1'), { recursive: true });
    await mkdir(join(base, 'outside'));
    await writeFile(join(base, 'outside', 'secret.json'), '{"secret":true}');
    await writeFile(join(base, 'top.json'), '{"top":true}');
    await writeFile(join(root, 'api', 'v1', 'good.json'), '{"data":[1,2]}');
    await writeFile(join(root, 'api', 'v1', 'corrupt.json'), '{"data": [1,');
    await symlink(join(base, 'outside'), join(root, 'api', 'v1', 'link-dir'), 'dir');
    await symlink(join(base, 'outside', 'secret.json'), join(root, 'api', 'v1', 'link.json'));
    await symlink(join(root, 'api', 'v1', 'good.json'), join(root, 'api', 'v1', 'inner-link.json'));
    // The root itself may be a link: only what lies below it is checked.
    await symlink(root, join(base, 'root-link'), 'dir');
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it.each(['', '.', '..', 'a/b', 'a\\b', 'a\0b'])('%j is not a plain segment', (segment) => {
    expect(isPlainSegment(segment)).toBe(false);
  });

  it('reads JSON files; missing, linked or escaping paths read as undefined', async () => {
    const load = fsLoader(root);
    expect(await load('api/v1/good.json')).toEqual({ data: [1, 2] });
    for (const path of ['api/v1/missing.json', 'api/v1/good.json/x', 'api/v1', 'api/v1/link.json', 'api/v1/link-dir/secret.json', 'api/v1/inner-link.json', '../top.json', 'api/../../top.json', '/etc/hostname', 'api//v1/good.json']) {
      expect(await load(path), path).toBeUndefined();
    }
    expect(await fsLoader(join(base, 'root-link'))('api/v1/good.json')).toEqual({ data: [1, 2] });
  });

  it('rejects a corrupt JSON file, naming it', async () => {
    await expect(fsLoader(root)('api/v1/corrupt.json')).rejects.toThrow(/^api\/v1\/corrupt\.json: not valid JSON \(.+\); rebuild the output folder$/);
  });

  it('never resolves outside the root, whatever the segments (property)', async () => {
    const segment = fc.oneof(fc.constantFrom('..', '.', '', 'api', 'v1', 'good.json', 'link-dir', 'outside', 'secret.json', '%2e%2e', '..\\..', 'a/../..'), fc.string({ maxLength: 6 }));
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { maxLength: 6 }), async (segments) => {
        const found = await resolveInside(root, segments);
        if (found !== undefined) {
          expect(found.path === root || found.path.startsWith(root + sep)).toBe(true);
          expect(found.path).not.toContain('outside');
        }
      }),
      { numRuns: 300 },
    );
  });
});
