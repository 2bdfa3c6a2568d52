/**
 * The bundle host: the shared contract suite against the runtime handler over an offline bundle,
 * written by `writeBundle` from the contract tree on disk and read back from the file, so every
 * endpoint answers from the bundle exactly as from the tree.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBundle } from '../builder/bundle.ts';
import { bundleBytesLoader, bundleLoader } from '../src/bundle.ts';
import { createHandler } from '../src/handler.ts';
import { readBundleFile } from '../src/node/bundle-file.ts';
import { writeContractTree } from './contract/contract-data.ts';
import { defineContractSuite } from './contract/suite.ts';

defineContractSuite('offline bundle', async () => {
  const root = await mkdtemp(join(tmpdir(), 'contract-bundle-'));
  await writeContractTree(join(root, 'tree'));
  await writeBundle(join(root, 'tree'), join(root, 'skills.bundle'));
  const bundle = await readBundleFile(join(root, 'skills.bundle'));
  const handler = createHandler(bundleLoader(bundle), { bytes: bundleBytesLoader(bundle) });
  return {
    fetch: (path, init) => handler(new Request(new URL(path, 'http://bundle.test'), init)),
    close: () => rm(root, { recursive: true, force: true }),
  };
});
