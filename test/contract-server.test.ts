/**
 * The Node host: the shared contract suite against the real HTTP server (`startServer`) on port 0,
 * over the contract tree written to a temporary folder and read back through the fs loader.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../src/node/server.ts';
import { writeContractTree } from './contract/contract-data.ts';
import { defineContractSuite } from './contract/suite.ts';

defineContractSuite('Node server', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'contract-server-'));
  await writeContractTree(dir);
  const running = await startServer({ dir, host: '127.0.0.1' });
  return {
    fetch: (path, init) => fetch(new URL(path, running.url), init),
    hosted: ['mcp'],
    close: async () => {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
