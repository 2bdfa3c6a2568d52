/**
 * What the two edge test files share: the contract host over the Worker in workerd (the sample
 * tree written to a temporary folder, served from static assets or from a local R2 bucket), and
 * reading a build output back as the in-memory handler's tree.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorker, startEdge, type EdgeOptions } from '../../scripts/dev-edge.ts';
import { writeContractTree } from '../contract/contract-data.ts';
import type { ContractHost } from '../contract/suite.ts';

let script: Promise<string> | undefined;
/** The Worker bundled once per test file, like `wrangler deploy` does. */
export const workerScript = (): Promise<string> => (script ??= bundleWorker());

/** The contract suite's host: the Worker in workerd over the sample tree, with `options` (e.g. `r2`). */
export async function edgeContractHost(name: string, options: Omit<EdgeOptions, 'dir' | 'script'> = {}): Promise<ContractHost> {
  const dir = await mkdtemp(join(tmpdir(), `${name}-`));
  await writeContractTree(dir);
  const edge = await startEdge({ ...options, dir, script: await workerScript() });
  return {
    fetch: (path, init) => {
      // Compression is the platform's (Cloudflare compresses at its edge; miniflare imitates it
      // on every answer), not the API's: the suite asks for plain bodies and runs twice as fast.
      // Tests of the edge itself keep the default Accept-Encoding.
      const headers = new Headers(init?.headers);
      if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'identity');
      return fetch(new URL(path, edge.url), { ...init, headers });
    },
    close: async () => {
      await edge.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Every JSON file under `dir`, as the in-memory handler's tree (path → parsed JSON). */
export async function readJsonTree(dir: string): Promise<Map<string, unknown>> {
  const files = new Map<string, unknown>();
  for (const entry of (await readdir(dir, { recursive: true })).sort()) {
    if (!entry.endsWith('.json')) continue;
    files.set(entry.split(/[\\/]/).join('/'), JSON.parse(await readFile(join(dir, entry), 'utf8')));
  }
  return files;
}
