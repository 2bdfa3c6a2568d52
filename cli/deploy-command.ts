/**
 * `skills-api deploy <dir> --to s3://<bucket>[/<prefix>]` on the command line: the flags turned
 * into `runDeploy` over an S3 store, a progress line on a terminal, `--dry-run`'s list of actions,
 * and a summary. The work is in deploy.ts and deploy-s3.ts.
 */
import { folder } from './cli.ts';
import { planDeploy, runDeploy, type DeployReport } from '../src/node/deploy.ts';
import { parseS3Target, s3Store } from '../src/node/deploy-s3.ts';
import { progress } from './progress.ts';
import type { CliIo } from './skills-api.ts';

/** Flags of `skills-api deploy`. */
export interface DeployFlags {
  to: string;
  endpoint?: string;
  dryRun?: boolean;
  concurrency?: number;
}

/** Run a deploy of `dir`; resolves when the bucket holds the build (or, with `--dry-run`, the plan is printed). */
export async function deployCommand(dir: string, o: DeployFlags, io: CliIo): Promise<DeployReport> {
  const target = parseS3Target(o.to);
  const store = s3Store({ ...target, env: io.env, ...(o.endpoint === undefined ? {} : { endpoint: o.endpoint }) });
  const bar = progress(io.stderr, 'Uploading');
  // Ctrl-C stops the deploy at once, and says where that leaves the bucket (docs/deploy.md "An
  // interrupted deploy"): the manifest goes last, so readers keep the tree they had until then.
  const interrupted = (): void => {
    bar.stop();
    io.stderr.write('skills-api: deploy interrupted: readers keep the published tree until the new manifest is uploaded, last; run the same command again to finish\n');
    process.exit(130);
  };
  if (o.dryRun !== true) process.once('SIGINT', interrupted);
  let result: DeployReport;
  try {
    result = await runDeploy({
      dir,
      store,
      dryRun: o.dryRun === true,
      ...(o.concurrency === undefined ? {} : { concurrency: o.concurrency }),
      onProgress: (done, total) => bar.update(done, total),
    });
  } finally {
    process.off('SIGINT', interrupted);
    bar.stop();
    store.close();
  }
  const { plan } = result;
  const seconds = `${(result.ms / 1000).toFixed(1)} s`;
  if (o.dryRun === true) {
    const lines = [
      ...plan.upload.map((object) => `upload ${object.key} (${object.size} bytes, ${object.contentType}, ${object.cacheControl})`),
      ...(plan.manifest === undefined ? [] : [`upload ${plan.manifest.key} (the manifest, last)`]),
      ...plan.remove.map((key) => `delete ${key} (retired by the deploy before)`),
      ...plan.retire.map((key) => `keep ${key} until the next deploy (no longer built)`),
    ];
    io.stdout.write(lines.map((line) => `${line}\n`).join(''));
    io.stdout.write(
      `Dry run for ${folder(dir)} → ${store.describe}: would upload ${plan.upload.length + (plan.manifest === undefined ? 0 : 1)} objects (${size(bytes(plan))}), ` +
        `delete ${plan.remove.length}, keep ${plan.retire.length} retired; ${plan.unchanged} unchanged${plan.changes ? '' : ' (nothing to do)'}\n`,
    );
    return result;
  }
  io.stdout.write(
    plan.changes
      ? `Deployed ${folder(dir)} to ${store.describe}: ${result.uploaded} objects uploaded (${size(result.uploadedBytes)}${plan.manifest === undefined ? '' : ', manifest last'}), ` +
          `${result.removed} deleted, ${plan.retire.length} kept until the next deploy, ${plan.unchanged} unchanged; ${result.requests} requests in ${seconds}\n`
      : `Nothing to deploy: ${store.describe} holds this build of ${folder(dir)} (${plan.unchanged} objects; ${result.requests} requests in ${seconds})\n`,
  );
  return result;
}

function bytes(plan: ReturnType<typeof planDeploy>): number {
  return plan.upload.reduce((sum, object) => sum + object.size, plan.manifest?.size ?? 0);
}

function size(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}
