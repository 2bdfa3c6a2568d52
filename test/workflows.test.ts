/**
 * Every GitHub Actions workflow of the repository (`.github/workflows/*.yml`) and every example
 * (`docs/examples/*.yml`) is a valid workflow: checked by action-validator (the workflow JSON
 * schema plus its own checks, compiled to WebAssembly), the same check as its command line
 * `npx action-validator <file>`. Plus what the release depends on.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..');
const FOLDERS = ['.github/workflows', 'docs/examples'];

const files = (
  await Promise.all(FOLDERS.map(async (folder) => (await readdir(join(ROOT, folder))).filter((name) => /\.ya?ml$/.test(name)).map((name) => `${folder}/${name}`)))
).flat().sort();

describe('workflow files', () => {
  it('are all found (the Pages, release and nightly workflows at least)', () => {
    expect(files).toEqual(expect.arrayContaining(['.github/workflows/pages.yml', '.github/workflows/release.yml', 'docs/examples/nightly-directory.yml']));
  });

  it.each(files)('%s is a valid workflow', async (file) => {
    const { errors } = validateWorkflow(await readFile(join(ROOT, file), 'utf8'));
    expect(errors).toEqual([]);
  });

  it('the nightly example commits the content after the build, so the change log the build appends to is kept', async () => {
    const workflow = parse(await readFile(join(ROOT, 'docs/examples/nightly-directory.yml'), 'utf8')) as { jobs: { build: { steps: Array<{ name?: string; run?: string; if?: string }> } } };
    const steps = workflow.jobs.build.steps;
    const build = steps.findIndex((step) => /skills-api build .*--incremental/.test(step.run ?? ''));
    const commit = steps.findIndex((step) => /git add content/.test(step.run ?? ''));
    expect(build).toBeGreaterThan(-1);
    expect(commit).toBeGreaterThan(build);
    expect(steps.filter((step) => /git add content/.test(step.run ?? ''))).toHaveLength(1);
  });

  it('the validator refuses a broken workflow (the check can fail)', () => {
    const broken = 'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n';
    expect(validateWorkflow(broken).errors.length).toBeGreaterThan(0);
  });

  it('release.yml: on v* tags, the tests of .ci/run before publishing with provenance, the tarball on a release', async () => {
    const workflow = parse(await readFile(join(ROOT, '.github/workflows/release.yml'), 'utf8')) as {
      on: { push: { tags: string[] } };
      jobs: Record<string, { needs?: string; permissions?: Record<string, string>; steps: { run?: string; env?: Record<string, string> }[] }>;
    };
    expect(workflow.on.push.tags).toEqual(['v*']);
    const { test, publish } = workflow.jobs;
    expect(test!.steps.some((step) => step.run?.trim().endsWith('\nbash .ci/run'))).toBe(true);
    expect(publish!.needs).toBe('test');
    expect(publish!.permissions).toMatchObject({ 'id-token': 'write', contents: 'write' });
    const runs = publish!.steps.map((step) => step.run ?? '').join('\n');
    expect(runs).toMatch(/npm publish .* --provenance --access public/);
    expect(runs).toMatch(/gh release create /);
    expect(publish!.steps.find((step) => step.run?.startsWith('npm publish'))!.env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
  });
});
