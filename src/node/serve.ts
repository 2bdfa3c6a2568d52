/**
 * `npm run serve -- --dir <dir> [--port <n>] [--host <h>] [--rate-limit <N/min>]`: serve an existing
 * output folder (the canonical API and its static files).
 */
import { parseArgs } from 'node:util';
import { MANIFEST_PATH } from '../paths.ts';
import { UsageError, readManifest, readPort, readRateLimit, runCommand, serveUntilSignal } from './cli.ts';

const USAGE = `Usage: npm run serve -- --dir <output folder> [--port <n>] [--host <address>] [--rate-limit <N/min>]
  --dir         output folder of a build (required), e.g. public
  --port        port to listen on (default: PORT, else 3000; 0 picks a free one)
  --host        address to listen on (default: every interface)
  --rate-limit  API requests allowed per client: N/s, N/min or N/h (default: no limit)`;

runCommand('serve', USAGE, async () => {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'rate-limit': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values.dir === undefined) throw new UsageError('--dir is required');
  const port = readPort(values.port, process.env['PORT']);
  const rateLimit = readRateLimit(values['rate-limit']);
  const manifest = await readManifest(values.dir);
  if (manifest === undefined) {
    throw new Error(`${values.dir} has no ${MANIFEST_PATH}: it is not a build output. Build it first: npm run build -- --out ${values.dir}`);
  }
  await serveUntilSignal({ dir: values.dir, port, host: values.host, rateLimit, manifest });
});
