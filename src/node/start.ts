/**
 * `npm start [-- --port <n>] [--host <h>] [--out <dir>] [--content <dir>] [--skip-invalid]
 * [--rate-limit <N/min>]`: serve the output folder (default `public/`), building the content folder
 * (default `content/`) into it first when it has no manifest yet.
 */
import { parseArgs } from 'node:util';
import { BuildError, runBuild } from '../../build/build.ts';
import { folder, readManifest, readPort, readRateLimit, runCommand, serveUntilSignal } from './cli.ts';

const USAGE = `Usage: npm start -- [--port <n>] [--host <address>] [--out <dir>] [--content <dir>] [--skip-invalid] [--rate-limit <N/min>]
  --port          port to listen on (default: PORT, else 3000; 0 picks a free one)
  --host          address to listen on (default: every interface)
  --out           output folder to serve (default: public); built first when it has no manifest
  --content       content folder to build from (default: content)
  --skip-invalid  when building, leave out invalid skill folders instead of failing
  --rate-limit    API requests allowed per client: N/s, N/min or N/h (default: no limit)`;

runCommand('start', USAGE, async () => {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      out: { type: 'string', default: 'public' },
      content: { type: 'string', default: 'content' },
      'skip-invalid': { type: 'boolean', default: false },
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
  const port = readPort(values.port, process.env['PORT']);
  const rateLimit = readRateLimit(values['rate-limit']);
  let manifest = await readManifest(values.out);
  if (manifest === undefined) {
    try {
      const report = await runBuild({ contentDir: values.content, outDir: values.out, skipInvalid: values['skip-invalid'] });
      const skipped = report.skipped.length === 0 ? '' : `, skipped ${report.skipped.length} invalid: ${report.skipped.join(', ')}`;
      console.log(`Built ${report.skills} skills from ${folder(values.content)} into ${folder(values.out)} (${report.files} files, ${report.ms} ms${skipped})`);
      manifest = report.manifest;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const hint = error instanceof BuildError ? '\nFix these, or start with --skip-invalid to leave those skills out.' : '';
      throw new Error(`${folder(values.out)} has no build yet and building ${folder(values.content)} failed (nothing written): ${reason}${hint}`, { cause: error });
    }
  }
  await serveUntilSignal({ dir: values.out, port, host: values.host, rateLimit, manifest });
});
