/**
 * The OpenAPI document checked by a third-party validator against what the server really sends:
 * every GET of the shared contract suite goes through Stoplight Prism's validating proxy
 * (`prism proxy`, 5.14) in front of the real Node server, and any response that Prism finds at
 * odds with the document (its `sl-violations` header, location `response`) fails the file. The
 * suite itself reads the server's own answers, so Prism's header changes cannot hide anything.
 * Prism 5.14 cannot proxy HEAD (it parses the empty body): HEAD is compared with GET by the suite.
 *
 * A second check proves the validator is live: the same proxy over a deliberately wrong document
 * (stars as a string) must complain about the same answers. Lint: redocly `recommended` and
 * spectral `oas` on the document, errors fail.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../builder/openapi.ts';
import { startServer, type RunningServer } from '../src/node/server.ts';
import { writeContractTree } from './contract/contract-data.ts';
import { defineContractSuite } from './contract/suite.ts';
import { run } from './helpers/node22-tools.ts';

const BIN = join(import.meta.dirname, '..', 'node_modules', '.bin');

interface Violation {
  location: string[];
  severity: string;
  message: string;
}

/** A free loopback port (Prism takes a port, not 0). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `prism proxy <document> <upstream>` on a loopback port, once it listens. */
async function startPrism(document: string, upstream: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(join(BIN, 'prism'), ['proxy', document, upstream, '--host', '127.0.0.1', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Prism is listening on/.test(output)) resolve();
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`prism exited (${code}):\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The violations Prism reports about the response (request violations are the suite's deliberate bad requests). */
function responseViolations(response: Response): Violation[] {
  const header = response.headers.get('sl-violations');
  if (header === null) return [];
  return (JSON.parse(header) as Violation[]).filter((v) => v.location[0] === 'response');
}

/** Whether every percent-escape of `path` decodes. */
function wellEncoded(path: string): boolean {
  try {
    decodeURI(path);
    return true;
  } catch {
    return false;
  }
}

let work: string;
let server: RunningServer;
const seen: { path: string; violations: Violation[] }[] = [];

defineContractSuite('Node server, every GET also through the Prism validating proxy', async () => {
  work = await mkdtemp(join(tmpdir(), 'contract-prism-'));
  const dir = join(work, 'public');
  await writeContractTree(dir);
  const document = join(work, 'openapi.json');
  await writeFile(document, JSON.stringify(openApiDocument()));
  server = await startServer({ dir, host: '127.0.0.1' });
  const prism = await startPrism(document, server.url);
  return {
    fetch: async (path, init) => {
      const method = init?.method ?? 'GET';
      // Prism 5.14 exits on a malformed percent-encoding (the suite's hostile paths): those reach
      // no documented operation, and the suite checks the server's answer to them itself.
      if (method === 'GET' && wellEncoded(path)) {
        const checked = await fetch(new URL(path, prism.url), init);
        await checked.arrayBuffer();
        seen.push({ path, violations: responseViolations(checked) });
      }
      return fetch(new URL(path, server.url), init);
    },
    hosted: ['mcp'],
    close: async () => {
      await prism.stop();
      await server.close();
    },
  };
});

describe('Prism saw the suite', () => {
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('found no response at odds with the document, over hundreds of requests', () => {
    expect(seen.length).toBeGreaterThan(300);
    expect(seen.filter((s) => s.violations.length > 0).slice(0, 5)).toEqual([]);
  });
});

describe('the validator is live', () => {
  let dir: string;
  let live: RunningServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'prism-live-'));
    await writeContractTree(join(dir, 'public'));
    live = await startServer({ dir: join(dir, 'public'), host: '127.0.0.1' });
  });
  afterAll(async () => {
    await live?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('complains about the same answers when the document is deliberately wrong', async () => {
    const wrong = openApiDocument() as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    wrong.components.schemas['SkillSummary']!.properties['stars'] = { type: 'string' };
    const document = join(dir, 'wrong.json');
    await writeFile(document, JSON.stringify(wrong));
    const prism = await startPrism(document, live.url);
    try {
      const response = await fetch(`${prism.url}/api/v1/skills?limit=2`);
      await response.arrayBuffer();
      expect(responseViolations(response).map((v) => v.location.join('.'))).toEqual(['response.body.data.0.stars', 'response.body.data.1.stars']);
    } finally {
      await prism.stop();
    }
  }, 60_000);
});

describe('lint', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
    await writeFile(join(dir, 'openapi.json'), JSON.stringify(openApiDocument(), null, 1));
    await writeFile(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('redocly recommended: no problem at all', async () => {
    const result = await run(join(BIN, 'redocly'), ['lint', join(dir, 'openapi.json'), '--extends', 'recommended', '--format', 'json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const report = JSON.parse(result.stdout) as { totals: { errors: number; warnings: number } };
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(result.code).toBe(0);
  }, 60_000);

  it('spectral oas: no error; the one warning is info-contact (docs/api.md says why)', async () => {
    const result = await run(join(BIN, 'spectral'), ['lint', join(dir, 'openapi.json'), '--ruleset', join(dir, '.spectral.yaml'), '--format', 'json', '--quiet'], {});
    const problems = JSON.parse(result.stdout || '[]') as { code: string; severity: number }[];
    expect(problems.filter((p) => p.severity === 0)).toEqual([]);
    expect(problems.map((p) => p.code)).toEqual(['info-contact']);
  }, 60_000);
});
