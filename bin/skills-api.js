#!/usr/bin/env node
// `skills-api`, the one command line of the package (cli/skills-api.ts).
// Installed from npm it runs the compiled dist/ with plain Node. In a clone, where the TypeScript
// sources sit beside this file, it runs them through tsx (a dev dependency), so an edit applies
// without a compile step.
import { existsSync } from 'node:fs';

// A reader that stops early (`skills-api deploy --dry-run | head`) closes the pipe: the command
// stops quietly, as other command-line tools do, instead of with a stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const source = new URL('../cli/skills-api.ts', import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import('../dist/cli/skills-api.js'));
}
process.exitCode = await main(process.argv.slice(2));
