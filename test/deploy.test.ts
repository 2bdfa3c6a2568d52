/**
 * `skills-api deploy` against a real S3-compatible server (s3rver, on a free loopback port, with
 * the real AWS SDK client): a first deploy, a one-change deploy that uploads only the changed
 * objects and the manifest after them, retired objects deleted one deploy later, a deploy cut off
 * at the network level (a TCP proxy in front of the server drops every connection part-way) that a
 * rerun completes, and one object the network always refuses (the rerun sends only what did not
 * arrive). The order of writes is the server's own record of them (its events) and the proxy's.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runBuild } from '../builder/build.ts';
import { markerOf } from '../shared/commit-journal.ts';
import { planDeploy, readOutput, type LocalObject } from '../src/node/deploy.ts';
import { parseS3Target } from '../src/node/deploy-s3.ts';
import { main, type CliIo } from '../cli/skills-api.ts';
import { MANIFEST_PATH } from '../src/paths.ts';
import { treeHashes } from './helpers/read-tree.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const BUCKET = 'skills';
const PREFIX = 'site';
/** The keys s3rver accepts by default (it checks signatures). */
const KEYS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

/** A TCP proxy on loopback that can cut every connection and refuse new ones: a network outage. */
class Outage {
  private readonly sockets = new Set<Socket>();
  private down = false;
  /** Request lines that went through, in order (`PUT /skills/site/...`, `POST /skills?delete`). */
  requests: string[] = [];
  /** Requests whose connection is cut before they reach the server, every time they are sent. */
  refuse: ((request: string) => boolean) | undefined;
  readonly server: Server;
  constructor(private readonly target: number) {
    this.server = createServer((client) => {
      if (this.down) return void client.destroy();
      const upstream = connect(this.target, '127.0.0.1');
      this.sockets.add(client).add(upstream);
      const close = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
      // Requests are forwarded by hand, so a refused one never reaches the server.
      client.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString('latin1').matchAll(/^(GET|PUT|POST|DELETE|HEAD) (\S+) HTTP\/1\.1\r$/gm)) {
          const request = `${line[1]} ${line[2]}`;
          if (this.refuse?.(request)) return close();
          this.requests.push(request);
        }
        upstream.write(chunk);
      });
      upstream.pipe(client);
    });
  }
  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }
  cut(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy();
  }
  restore(): void {
    this.down = false;
  }
}

let tmp: string;
let s3: S3rver;
let proxy: Outage;
let endpoint: string;
let client: S3Client;
/** Keys the server stored or deleted, in order (its event log), relative to the prefix. */
let events: { kind: 'put' | 'delete'; key: string }[] = [];
let onPut: ((key: string) => void) | undefined;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'deploy-'));
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(tmp, 's3'), configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = (await s3.run()) as AddressInfo;
  // S3rver is a Koa application: it emits an `event` for every object it stores.
  (s3 as unknown as { on(name: 'event', listener: (event: never) => void): void }).on('event', (event: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => {
    for (const record of event.Records) {
      const key = decodeURIComponent(record.s3.object.key).replace(`${PREFIX}/`, '');
      events.push({ kind: record.eventName.startsWith('ObjectCreated') ? 'put' : 'delete', key });
      if (record.eventName.startsWith('ObjectCreated')) onPut?.(key);
    }
  });
  proxy = new Outage(port);
  endpoint = `http://127.0.0.1:${await proxy.listen()}`;
  client = new S3Client({ endpoint: `http://127.0.0.1:${port}`, region: 'auto', forcePathStyle: true, credentials: { accessKeyId: KEYS.AWS_ACCESS_KEY_ID, secretAccessKey: KEYS.AWS_SECRET_ACCESS_KEY } });
});

afterAll(async () => {
  client?.destroy();
  proxy?.server.close();
  await s3?.close();
  await rm(tmp, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function deploy(dir: string, ...flags: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...KEYS, AWS_MAX_ATTEMPTS: '3' },
  };
  const code = await main(['deploy', dir, '--to', `s3://${BUCKET}/${PREFIX}`, '--endpoint', endpoint, ...flags], io);
  return { code, stdout, stderr };
}

/**
 * SHA-256 hex of the bytes the bucket holds at each key (undefined: no object), read with GET.
 * (Listing is no help here: s3rver caps a page at 1,000 keys, pages ListObjects out of key order,
 * and its ListObjectsV2 continuation tokens need a cipher Node 20 lacks.)
 */
async function bucketGet(keys: Iterable<string>): Promise<Map<string, string | undefined>> {
  const { createHash } = await import('node:crypto');
  const out = new Map<string, string | undefined>();
  for (const key of keys) {
    try {
      const body = await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/${key}` }))).Body!.transformToByteArray();
      out.set(key, createHash('sha256').update(body).digest('hex'));
    } catch (error) {
      if ((error as Error).name !== 'NoSuchKey') throw error;
      out.set(key, undefined);
    }
  }
  return out;
}

/** The build's files as they are published (without the files for other hosts). */
function published(dir: string): Map<string, string> {
  const tree = treeHashes(dir);
  tree.delete('_headers');
  tree.delete('.nojekyll');
  return tree;
}

/** Keys whose bytes differ between two builds, or that only `after` has. */
function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([key, hash]) => before.get(key) !== hash).map(([key]) => key).sort();
}

async function build(content: string, name: string): Promise<string> {
  const out = join(tmp, name);
  await runBuild({ contentDir: content, outDir: out, sourceDateEpoch: '1700000000' });
  return out;
}

describe('skills-api deploy to an S3-compatible server', () => {
  let content: string;
  let a: string;
  let b: string;

  beforeAll(async () => {
    content = join(tmp, 'content');
    await cp('content', content, { recursive: true });
    a = await build(content, 'a');
  });

  it('--dry-run lists every upload, manifest last, and writes nothing', async () => {
    events = [];
    const run = await deploy(a, '--dry-run');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    const files = published(a);
    expect(lines.filter((line) => line.startsWith('upload '))).toHaveLength(files.size);
    expect(lines.at(-2)).toBe(`upload ${MANIFEST_PATH} (the manifest, last)`);
    expect(lines.at(-1)).toMatch(new RegExp(`would upload ${files.size} objects .*0 unchanged`));
    expect(events).toEqual([]);
  });

  it('a first deploy uploads the tree with media types and cache headers, the manifest after every other object', async () => {
    events = [];
    const run = await deploy(a);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const files = published(a);
    expect(run.stdout).toMatch(new RegExp(`${files.size} objects uploaded .*manifest last.*0 deleted`));
    expect(await bucketGet(files.keys())).toEqual(files);
    const puts = events.filter((e) => e.kind === 'put' && !e.key.startsWith('.skills-api-deploy')).map((e) => e.key);
    expect(puts).toHaveLength(files.size);
    expect(puts.at(-1)).toBe(MANIFEST_PATH);
    const head = async (key: string) => client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/${key}` }));
    const search = [...files.keys()].find((key) => key.startsWith('api/v1/skills/_search/'))!;
    expect((await head(search)).CacheControl).toBe('public, max-age=31536000, immutable');
    expect((await head(search)).ContentType).toBe('application/json; charset=utf-8');
    expect((await head(MANIFEST_PATH)).CacheControl).toBe('public, max-age=300');
    expect((await head('index.html')).ContentType).toBe('text/html; charset=utf-8');
    expect((await head('sw.js')).ContentType).toMatch(/^(application|text)\/javascript; charset=utf-8$/);
    // Nothing changed: nothing is written.
    events = [];
    const again = await deploy(a);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Nothing to deploy: .* \(\d+ objects; 2 requests in/);
    expect(events).toEqual([]);
  });

  it('after one SKILL.md changed, only the objects whose bytes changed are uploaded, then the manifest; vanished ones stay one deploy', async () => {
    const skill = join(content, 'skills', 'kenji-sato', 'japanese-business-email', 'SKILL.md');
    await writeFile(skill, `${await readFile(skill, 'utf8')}\nOne more line about keigo in replies.\n`);
    b = await build(content, 'b');
    const before = published(a);
    const after = published(b);
    const expected = changed(before, after);
    const vanished = [...before.keys()].filter((key) => !after.has(key));
    expect(expected.length).toBeLessThan(after.size / 10);
    events = [];
    const run = await deploy(b);
    expect(run.code, run.stderr).toBe(0);
    const puts = events.filter((e) => e.kind === 'put' && !e.key.startsWith('.skills-api-deploy')).map((e) => e.key);
    expect([...puts].sort()).toEqual(expected);
    expect(puts.at(-1)).toBe(MANIFEST_PATH);
    expect(run.stdout).toContain(`${expected.length} objects uploaded`);
    expect(run.stdout).toContain(`0 deleted, ${vanished.length} kept until the next deploy`);
    // The bucket holds the new tree, plus the old tree's vanished objects for its readers.
    expect(await bucketGet(after.keys())).toEqual(after);
    for (const [key, hash] of await bucketGet(vanished)) expect(hash, key).toBe(before.get(key));
  });

  it('an outage part-way leaves the published manifest as it was; the rerun finishes, and deletes what the deploy before retired', async () => {
    // Every skill changes: hundreds of objects to upload.
    const { readdir } = await import('node:fs/promises');
    for (const entry of await readdir(join(content, 'skills'), { recursive: true })) {
      if (!entry.endsWith('SKILL.md')) continue;
      const file = join(content, 'skills', entry);
      await writeFile(file, `${await readFile(file, 'utf8')}\nRevised.\n`);
    }
    const c = await build(content, 'c');
    const before = published(b);
    const after = published(c);
    const expected = changed(before, after);
    const retiredByB = [...published(a).keys()].filter((key) => !before.has(key));
    expect(expected.length).toBeGreaterThan(100);

    events = [];
    let puts = 0;
    onPut = (key) => {
      if (!key.startsWith('.skills-api-deploy') && ++puts === 40) proxy.cut();
    };
    const cut = await deploy(c, '--concurrency', '4');
    onPut = undefined;
    proxy.restore();
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/^skills-api: deploy stopped after \d+ of \d+ uploads: .*\nThe published tree is unchanged .*Run the same command again to finish\.\n$/s);
    const manifest = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/${MANIFEST_PATH}` }));
    expect(await manifest.Body!.transformToString()).toBe(await readFile(join(b, MANIFEST_PATH), 'utf8'));
    expect(events.some((e) => e.key === MANIFEST_PATH)).toBe(false);

    events = [];
    proxy.requests = [];
    const rerun = await deploy(c);
    expect(rerun.code, rerun.stderr).toBe(0);
    const rerunPuts = events.filter((e) => e.kind === 'put' && !e.key.startsWith('.skills-api-deploy')).map((e) => e.key);
    expect(rerunPuts.at(-1)).toBe(MANIFEST_PATH);
    // Every changed object the cut deploy may not have stored, at most, and only those.
    expect(new Set(rerunPuts).size).toBe(rerunPuts.length);
    for (const key of rerunPuts) expect(expected).toContain(key);
    expect(await bucketGet(after.keys())).toEqual(after);
    const bucket = await bucketGet([...retiredByB, ...before.keys()]);
    // The objects deploy b retired are gone; the ones c retires stay one more deploy.
    expect(retiredByB.length).toBeGreaterThan(0);
    for (const key of retiredByB) if (!after.has(key)) expect(bucket.get(key), key).toBeUndefined();
    const retiredByC = [...before.keys()].filter((key) => !after.has(key));
    for (const key of retiredByC) expect(bucket.get(key), key).toBe(before.get(key));
    // One multi-object delete, after the manifest (s3rver records no event for it; the proxy saw it).
    const manifestPut = proxy.requests.map((line) => line.startsWith(`PUT /${BUCKET}/${PREFIX}/${MANIFEST_PATH}`)).lastIndexOf(true);
    const deletes = proxy.requests.map((line, i) => [line, i] as const).filter(([line]) => /^POST \/skills\/?\?delete/.test(line));
    expect(manifestPut).toBeGreaterThan(0);
    expect(deletes.length, proxy.requests.filter((line) => !line.startsWith('PUT')).join('\n')).toBeGreaterThan(0);
    for (const [, at] of deletes) expect(at).toBeGreaterThan(manifestPut);
  });

  it('one object the network always refuses stops the deploy; the rerun uploads only what did not arrive', async () => {
    const { readdir } = await import('node:fs/promises');
    const before = published(join(tmp, 'c'));
    for (const entry of await readdir(join(content, 'skills'), { recursive: true })) {
      if (!entry.endsWith('SKILL.md')) continue;
      const file = join(content, 'skills', entry);
      await writeFile(file, `${await readFile(file, 'utf8')}\nRevised again.\n`);
    }
    const d = await build(content, 'd');
    const after = published(d);
    const expected = changed(before, after).filter((key) => key !== MANIFEST_PATH);
    const refused = expected[Math.floor(expected.length / 3)]!;
    proxy.refuse = (request) => request.startsWith(`PUT /${BUCKET}/${PREFIX}/${refused}?`) || request === `PUT /${BUCKET}/${PREFIX}/${refused}`;
    events = [];
    const failed = await deploy(d, '--concurrency', '4');
    proxy.refuse = undefined;
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/deploy stopped after \d+ of \d+ uploads: PUT .*\nThe published tree is unchanged/s);
    const arrived = new Set(events.filter((e) => e.kind === 'put' && !e.key.startsWith('.skills-api-deploy')).map((e) => e.key));
    expect(arrived.has(refused)).toBe(false);
    expect(arrived.has(MANIFEST_PATH)).toBe(false);
    expect(arrived.size).toBeGreaterThan(0);

    events = [];
    const rerun = await deploy(d);
    expect(rerun.code, rerun.stderr).toBe(0);
    const puts = events.filter((e) => e.kind === 'put' && !e.key.startsWith('.skills-api-deploy')).map((e) => e.key);
    // The deploy that failed recorded what arrived: only the rest goes again, then the manifest.
    expect(puts.at(-1)).toBe(MANIFEST_PATH);
    expect(puts.slice(0, -1).sort()).toEqual(expected.filter((key) => !arrived.has(key)).sort());
    expect(puts).toContain(refused);
    expect(await bucketGet(after.keys())).toEqual(after);
  });

  it('bad targets, a missing build and a missing bucket are clear errors', async () => {
    const io = (env: NodeJS.ProcessEnv) => {
      let stderr = '';
      return { io: { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) }, env } as CliIo, err: () => stderr };
    };
    const bad = io(KEYS);
    expect(await main(['deploy', a, '--to', 'https://bucket/x'], bad.io)).toBe(1);
    expect(bad.err()).toContain('--to must be s3://<bucket>[/<prefix>]');
    for (const url of ['notaurl', 'ftp://example.com']) {
      const endpointFlag = io(KEYS);
      expect(await main(['deploy', a, '--to', 's3://skills', '--endpoint', url], endpointFlag.io)).toBe(2);
      expect(endpointFlag.err()).toContain(`--endpoint must be an http(s) URL, got "${url}"`);
    }
    const missing = io(KEYS);
    expect(await main(['deploy', join(tmp, 'nothing'), '--to', 's3://skills', '--endpoint', endpoint], missing.io)).toBe(1);
    expect(missing.err()).toContain('build first');
    const bucket = io({ ...KEYS, AWS_MAX_ATTEMPTS: '1' });
    expect(await main(['deploy', a, '--to', 's3://no-such-bucket', '--endpoint', endpoint], bucket.io)).toBe(1);
    expect(bucket.err()).toContain('the bucket no-such-bucket does not exist');
    const keys = io({ AWS_ACCESS_KEY_ID: 'WRONG', AWS_SECRET_ACCESS_KEY: 'WRONG', AWS_MAX_ATTEMPTS: '1' });
    expect(await main(['deploy', a, '--to', 's3://skills', '--endpoint', endpoint], keys.io)).toBe(1);
    expect(keys.err()).toMatch(/refused the credentials/);
    // An endpoint that is no S3 API (a website answering 404 to everything) is not an empty bucket.
    const site = createHttpServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    try {
      const web = io({ ...KEYS, AWS_MAX_ATTEMPTS: '1' });
      expect(await main(['deploy', a, '--to', 's3://skills', '--endpoint', `http://127.0.0.1:${(site.address() as AddressInfo).port}`, '--dry-run'], web.io)).toBe(1);
      expect(web.err()).toMatch(/answered 404 without an S3 error: is --endpoint the S3 API endpoint/);
    } finally {
      await new Promise((done) => site.close(done));
    }
  });

  it('refuses a folder a live build is committing into, and names it', async () => {
    // The marker an incremental build holds while it commits, naming a live process (this
    // test's parent) as its owner: the deploy must not read the folder half-way.
    const marker = markerOf(a);
    await writeFile(marker, `.commit-${basename(a)}-${process.ppid}-000000000000`);
    try {
      const run = await deploy(a);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`a build is committing into ${a}`);
    } finally {
      await rm(marker, { force: true });
    }
  });
});

describe('readOutput', () => {
  it('names objects alike for ./dir, dir/. and dir//, and gives a skill\'s files the media type every host answers with', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deploy-read-'));
    try {
      const files = join(dir, 'api', 'v1', 'skills', 'acme', 'kit', 'files');
      await mkdir(files, { recursive: true });
      await writeFile(join(dir, ...MANIFEST_PATH.split('/')), '{}');
      await writeFile(join(files, 'helper.ts'), 'export const x = 1;\n');
      await writeFile(join(files, 'NOTES'), 'plain notes\n');
      await writeFile(join(files, 'graph.dot'), 'digraph { a -> b }\n');
      const keys = async (path: string) => (await readOutput(path)).map((o) => o.key);
      const expected = await keys(dir);
      expect(expected).toContain('api/v1/skills/acme/kit/files/helper.ts');
      for (const path of [`${dir}/.`, `${dir}//`, `./${relative(process.cwd(), dir)}`]) expect(await keys(path), path).toEqual(expected);
      const types = Object.fromEntries((await readOutput(dir)).map((o) => [o.key.split('/').pop(), o.contentType]));
      expect(types).toMatchObject({ 'helper.ts': 'text/typescript; charset=utf-8', NOTES: 'text/plain; charset=utf-8', 'graph.dot': 'text/vnd.graphviz; charset=utf-8' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('planDeploy', () => {
  const object = (key: string, hash: string): LocalObject => ({ key, file: key, size: 1, hash, contentType: 'application/json', cacheControl: 'public, max-age=300' });
  const manifest = (hash: string) => object(MANIFEST_PATH, hash);

  it('keeps vanished objects one deploy, then deletes them unless they came back', () => {
    const first = planDeploy([object('x.json', '1'), object('y.json', '1'), manifest('m1')], undefined);
    expect(first.upload.map((o) => o.key)).toEqual(['x.json', 'y.json']);
    const second = planDeploy([object('x.json', '1'), manifest('m2')], first.next);
    expect(second.upload).toEqual([]);
    expect(second.manifest?.hash).toBe('m2');
    expect(second.retire).toEqual(['y.json']);
    expect(second.remove).toEqual([]);
    const third = planDeploy([object('x.json', '2'), manifest('m3')], second.next);
    expect(third.remove).toEqual(['y.json']);
    const back = planDeploy([object('x.json', '1'), object('y.json', '1'), manifest('m3')], second.next);
    expect(back.upload.map((o) => o.key)).toEqual([]);
    expect(back.remove).toEqual([]);
  });

  it('uploads again what an unfinished deploy may have written, and keeps it one deploy when the build dropped it', () => {
    const state = planDeploy([object('x.json', '1'), manifest('m1')], undefined).next;
    const plan = planDeploy([object('x.json', '1'), manifest('m1')], state, ['x.json', 'z.json']);
    expect(plan.upload.map((o) => o.key)).toEqual(['x.json']);
    expect(plan.next.retired).toEqual({ 'z.json': '' });
    expect(plan.changes).toBe(true);
  });

  it('parses s3 targets', () => {
    expect(parseS3Target('s3://my-bucket')).toEqual({ bucket: 'my-bucket', prefix: '' });
    expect(parseS3Target('s3://my-bucket/a/b/')).toEqual({ bucket: 'my-bucket', prefix: 'a/b' });
    expect(() => parseS3Target('s3://My_Bucket')).toThrow(/not a valid bucket name/);
    expect(() => parseS3Target('s3://bucket/a/../b')).toThrow(/'\.\.' segment/);
  });
});
