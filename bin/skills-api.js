#!/usr/bin/env node
// `skills-api`: runs the TypeScript CLI (src/node/skills-api.ts) through tsx, so it works on a
// fresh clone after `npm install` with no compile step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/node/skills-api.ts');
process.exitCode = await main(process.argv.slice(2));
