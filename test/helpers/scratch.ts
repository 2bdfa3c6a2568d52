/**
 * Folders a test file makes and removes after each test: content folders it pushes to `folders`
 * (`createContentFolder`) and empty scratch folders from `scratch()`.
 */
import { promises as fs } from 'node:fs';
import { afterEach } from 'vitest';
import { tempDir, type ContentFolder } from './fixture-content.ts';

/** Register the clean-up (call once at a test file's top level); `prefix` names the scratch folders. */
export function cleanedAfterEach(prefix: string): { folders: ContentFolder[]; scratch: () => Promise<string> } {
  const folders: ContentFolder[] = [];
  const scratchDirs: string[] = [];
  afterEach(async () => {
    await Promise.all(folders.splice(0).map((f) => f.remove()));
    await Promise.all(scratchDirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
  });
  /** A temporary folder removed after the test. */
  const scratch = async (): Promise<string> => {
    const dir = await tempDir(prefix);
    scratchDirs.push(dir);
    return dir;
  };
  return { folders, scratch };
}
