/**
 * Rate limiting on the Node server (issue 5): off by default; with `rateLimit` every API answer
 * carries `X-RateLimit-Limit/Remaining/Reset`, a client over the limit gets 429 RATE_LIMITED with
 * `Retry-After`, other clients and static files go on. Real server on port 0, real tree.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRateLimit } from '../cli/cli.ts';
import { parseRateLimit } from '../src/node/rate-limit.ts';
import { startServer } from '../src/node/server.ts';
import { writeContractTree } from './contract/contract-data.ts';

let root: string;
let out: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rate-limit-test-'));
  out = join(root, 'public');
  await writeContractTree(out);
  await writeFile(join(out, 'index.html'), '<!doctype html><title>x</title>');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** GET `path` from `base`, from the local address `localAddress` (127.0.0.x: distinct clients). */
function get(base: string, path: string, localAddress = '127.0.0.1'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('--rate-limit values', () => {
  it.each([
    ['60/min', { limit: 60, windowMs: 60_000 }],
    ['60/m', { limit: 60, windowMs: 60_000 }],
    ['5/s', { limit: 5, windowMs: 1_000 }],
    ['1000/h', { limit: 1000, windowMs: 3_600_000 }],
    ['120', { limit: 120, windowMs: 60_000 }],
  ])('%s → %j', (flag, expected) => {
    expect(parseRateLimit(flag)).toEqual(expected);
    expect(readRateLimit(flag)).toEqual(expected);
  });

  it.each(['0/min', '-1/s', '10/day', '10/', '/min', 'ten/min', '1.5/s', '1e3', ''])('rejects %j', (flag) => {
    expect(parseRateLimit(flag)).toBeUndefined();
    expect(() => readRateLimit(flag)).toThrow(/--rate-limit must be N\/s, N\/min or N\/h/);
  });
});

describe('server with a rate limit', () => {
  it('counts down in X-RateLimit-* headers, then answers 429 RATE_LIMITED with Retry-After, per client', async () => {
    const running = await startServer({ dir: out, host: '127.0.0.1', rateLimit: { limit: 3, windowMs: 60_000 } });
    try {
      const remaining: string[] = [];
      for (const path of ['/api/v1/skills', '/api/v1/categories', '/api/v1/skills/nobody/nothing']) {
        const answer = await get(running.url, path);
        expect(answer.headers['x-ratelimit-limit']).toBe('3');
        expect(Number(answer.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(1);
        expect(answer.headers['retry-after']).toBeUndefined();
        remaining.push(String(answer.headers['x-ratelimit-remaining']));
      }
      expect(remaining).toEqual(['2', '1', '0']);

      const refused = await get(running.url, '/api/v1/skills');
      expect(refused.status).toBe(429);
      expect(refused.headers['x-ratelimit-limit']).toBe('3');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers['x-ratelimit-reset']).toBe(String(retryAfter));
      expect(JSON.parse(refused.body)).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/retry in \d+ s/) } });

      // Static files are not limited and carry no limit headers; another client has its own count.
      const page = await get(running.url, '/index.html');
      expect(page.status).toBe(200);
      expect(page.headers['x-ratelimit-limit']).toBeUndefined();
      const other = await get(running.url, '/api/v1/skills', '127.0.0.2');
      expect(other.status).toBe(200);
      expect(other.headers['x-ratelimit-remaining']).toBe('2');
    } finally {
      await running.close();
    }
  });

  it('starts counting again when the window ends', async () => {
    // A clock the test moves: no waiting for the window to pass.
    let time = 1_000_000;
    const running = await startServer({ dir: out, host: '127.0.0.1', rateLimit: { limit: 1, windowMs: 1_000, now: () => time } });
    try {
      expect((await get(running.url, '/api/v1/skills')).status).toBe(200);
      expect((await get(running.url, '/api/v1/skills')).status).toBe(429);
      time += 999;
      expect((await get(running.url, '/api/v1/skills')).status).toBe(429);
      time += 1;
      expect((await get(running.url, '/api/v1/skills')).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('is off by default: no limit headers, no 429', async () => {
    const running = await startServer({ dir: out, host: '127.0.0.1' });
    try {
      for (let i = 0; i < 5; i++) {
        const answer = await get(running.url, '/api/v1/skills');
        expect(answer.status).toBe(200);
        expect(answer.headers['x-ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await running.close();
    }
  });
});
