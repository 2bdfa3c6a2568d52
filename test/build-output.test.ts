/**
 * builder/output.ts: the staging folder and the atomic swap (docs/decisions.md §3, docs/decisions.md H13, H20).
 */
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outputPathProblem, writeAtomically, type OutputWriter } from '../builder/output.ts';
import { tempDir } from './helpers/fixture-content.ts';
import { readTree } from './helpers/read-tree.ts';

const MARKER = 'api/v1/manifest.json';
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
});

/** A fresh parent folder; the output is `<parent>/public`. */
async function outDir(): Promise<string> {
  const parent = await tempDir('output-');
  dirs.push(parent);
  return join(parent, 'public');
}

/** Names in the output's parent other than the output itself (staging or backup leftovers). */
async function leftovers(out: string): Promise<string[]> {
  return (await fs.readdir(dirname(out))).filter((n) => n !== basename(out));
}

/** Write a small previous output (a finished build). */
async function previousBuild(out: string): Promise<Map<string, Buffer>> {
  await writeAtomically(out, MARKER, async (w) => {
    await w.emit(MARKER, { format: 1 });
    await w.emit('api/v1/skills/a/b/index.json', { data: { id: 'a/b' } });
    await w.writeFile('index.html', '<!doctype html>\n');
  });
  return readTree(out);
}

describe('writeAtomically', () => {
  it('writes compact JSON without a trailing newline, text and bytes as given, and counts them', async () => {
    const out = await outDir();
    const source = join(dirname(out), 'asset.js');
    await fs.writeFile(source, 'self.x = 1;');
    const { result, stats } = await writeAtomically(out, MARKER, async (w) => {
      await w.emit(MARKER, { format: 1, list: [1, 'é'] });
      await w.writeFile('index.html', '<p>hi</p>\n');
      await w.writeFile('bin/data.bin', new Uint8Array([0, 1, 2]));
      await w.copyFile('sw.js', source);
      return 'done';
    });
    expect(result).toBe('done');
    expect(stats).toEqual({ files: 4, bytes: 28 + 10 + 3 + 11, reused: 0 }); // é is two bytes
    const tree = await readTree(out);
    expect([...tree.keys()]).toEqual(['api/v1/manifest.json', 'bin/data.bin', 'index.html', 'sw.js']);
    expect(tree.get(MARKER)?.toString()).toBe('{"format":1,"list":[1,"é"]}');
    expect((await fs.stat(out)).mode & 0o777).toBe(0o755);
    expect(await leftovers(out)).toEqual(['asset.js']);
  });

  it('replaces a previous output as a whole (no stale file survives)', async () => {
    const out = await outDir();
    await previousBuild(out);
    await writeAtomically(out, MARKER, async (w) => w.emit(MARKER, { format: 1, second: true }));
    expect([...(await readTree(out)).keys()]).toEqual([MARKER]);
    expect(await leftovers(out)).toEqual([]);
  });

  it('a failure after many files leaves the previous output byte-identical and no staging folder (docs/decisions.md H20)', async () => {
    const out = await outDir();
    const before = await previousBuild(out);
    const failing = async (w: OutputWriter): Promise<void> => {
      await w.emit(MARKER, { format: 1, partial: true });
      for (let i = 0; i < 50; i++) await w.emit(`api/v1/skills/x/s${i}/index.json`, { i });
      throw new Error('injected failure at the last skill');
    };
    await expect(writeAtomically(out, MARKER, failing)).rejects.toThrow('injected failure at the last skill');
    expect(await readTree(out)).toEqual(before);
    expect(await leftovers(out)).toEqual([]);
  });

  it('writes still running when the filler fails are waited for, then removed with the staging folder', async () => {
    const out = await outDir();
    const before = await previousBuild(out);
    const racing = async (w: OutputWriter): Promise<void> => {
      for (let i = 0; i < 200; i++) void w.emit(`deep/${i}/a/b/c/file.json`, { i });
      throw new Error('failed while writes were running');
    };
    await expect(writeAtomically(out, MARKER, racing)).rejects.toThrow('failed while writes were running');
    expect(await readTree(out)).toEqual(before);
    expect(await leftovers(out)).toEqual([]);
  });

  it('a write the filler did not await still fails the build', async () => {
    const out = await outDir();
    const before = await previousBuild(out);
    const careless = async (w: OutputWriter): Promise<void> => {
      await w.emit('taken/file.json', 1);
      // Writing a file where a folder must go fails on disk, after `fill` has returned.
      w.emit('taken/file.json/inner.json', 2).catch(() => undefined);
    };
    await expect(writeAtomically(out, MARKER, careless)).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(await readTree(out)).toEqual(before);
    expect(await leftovers(out)).toEqual([]);
  });

  it('more bytes than the writer thread holds at once: the build waits for the disk, every byte arrives', async () => {
    const out = await outDir();
    // 48 files of 1 MiB each (over the 32 MiB in flight), each with its own content.
    const big = (i: number): string => String(i % 10).repeat(2 ** 20);
    const { stats } = await writeAtomically(out, MARKER, async (w) => {
      await w.emit(MARKER, { format: 1 });
      for (let i = 0; i < 48; i++) await w.writeFile(`big/${i}.txt`, big(i));
    });
    expect(stats.files).toBe(49);
    const tree = await readTree(out);
    for (let i = 0; i < 48; i++) expect(tree.get(`big/${i}.txt`)?.toString()).toBe(big(i));
  });

  it('a write that fails on disk stops the build at the next write', async () => {
    const out = await outDir();
    const before = await previousBuild(out);
    let writesAfter = 0;
    const stubborn = async (w: OutputWriter): Promise<void> => {
      await w.emit('taken/file.json', 1);
      await w.emit('taken/file.json/inner.json', 2);
      // The failure comes back from the writer thread; a later write must refuse to go on. The
      // loop yields to the event loop (where the thread's answer arrives) and ends only when a
      // write is refused, or after far more writes than the thread needs to answer.
      for (let i = 0; i < 100_000; i++) {
        await w.emit(`more/${i}.json`, i);
        writesAfter++;
        if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await expect(writeAtomically(out, MARKER, stubborn)).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(writesAfter).toBeLessThan(100_000);
    expect(await readTree(out)).toEqual(before);
    expect(await leftovers(out)).toEqual([]);
  });

  it('a failure with no previous output leaves nothing behind', async () => {
    const out = await outDir();
    await expect(writeAtomically(out, MARKER, async (w) => w.emit('../escape.json', {}))).rejects.toThrow(
      'refusing to write output path "../escape.json": contains ..',
    );
    expect(await fs.readdir(dirname(out))).toEqual([]);
  });

  it.each([
    ['../escape.json', 'contains ..'],
    ['a/../../escape.json', 'contains ..'],
    ['/etc/passwd', 'absolute'],
    ['C:/x.json', 'absolute'],
    ['a\\..\\x.json', 'contains a backslash'],
    ['a\u0000b.json', 'contains NUL'],
    ['', 'empty'],
    ['a//b.json', 'has an empty or . segment'],
    ['./a.json', 'has an empty or . segment'],
    ['a/', 'has an empty or . segment'],
  ])('refuses the output path %j (%s)', async (path, why) => {
    expect(outputPathProblem(path)).toBe(why);
    const out = await outDir();
    await expect(writeAtomically(out, MARKER, async (w) => w.writeFile(path, 'x'))).rejects.toThrow(why);
    expect(await fs.readdir(dirname(out))).toEqual([]);
  });

  it('refuses to write one path twice, also differing only by case', async () => {
    const out = await outDir();
    await expect(
      writeAtomically(out, MARKER, async (w) => {
        await w.emit('api/v1/skills/Foo/bar/index.json', {});
        await w.emit('api/v1/skills/foo/bar/index.json', {});
      }),
    ).rejects.toThrow('output path "api/v1/skills/foo/bar/index.json" written twice (also "api/v1/skills/Foo/bar/index.json")');
    await expect(
      writeAtomically(out, MARKER, async (w) => {
        await Promise.all([w.emit('same.json', 1), w.emit('same.json', 2)]);
      }),
    ).rejects.toThrow('written twice');
  });

  it('in place over a record, refuses one path twice and a new path that folds to one of this build, not to one it drops', async () => {
    const out = await outDir();
    const first = await writeAtomically(out, MARKER, async (w) => {
      await w.emit('a/Kept.json', 1);
      await w.emit('a/Old.json', 2);
      await w.emit(MARKER, {});
    }, { record: true });
    const record = first.stats.record!;
    const before = await readTree(out);
    const keep = (w: OutputWriter): boolean => w.keep!([['a/Kept.json', record.get('a/Kept.json')!]]);
    // A kept path written again, and a rewritten one kept again.
    await expect(writeAtomically(out, MARKER, async (w) => {
      keep(w);
      await w.emit('a/Kept.json', 3);
    }, { inPlace: record })).rejects.toThrow('output path "a/Kept.json" written twice');
    await expect(writeAtomically(out, MARKER, async (w) => {
      await w.emit('a/Kept.json', 3);
      if (keep(w)) throw new Error('kept a path already written');
    }, { inPlace: record })).rejects.toThrow('written twice');
    // A new path folding to a kept one, whichever comes first.
    await expect(writeAtomically(out, MARKER, async (w) => {
      await w.emit('a/kept.json', 4);
      keep(w);
      await w.emit(MARKER, {});
    }, { inPlace: record })).rejects.toThrow('output path "a/kept.json" written twice (also "a/Kept.json")');
    await expect(writeAtomically(out, MARKER, async (w) => {
      keep(w);
      await w.emit('a/KEPT.json', 4);
      await w.emit(MARKER, {});
    }, { inPlace: record })).rejects.toThrow('output path "a/KEPT.json" written twice (also "a/Kept.json")');
    expect(await readTree(out)).toEqual(before);
    // Folding to a path of the output this build does not write (it is removed): fine.
    await writeAtomically(out, MARKER, async (w) => {
      keep(w);
      await w.emit('a/old.json', 5);
      await w.emit(MARKER, {});
    }, { inPlace: record });
    expect([...(await readTree(out)).keys()].sort()).toEqual(['a/Kept.json', 'a/old.json', MARKER].sort());
  });

  it('in place, refuses a new path that folds to a kept one of another length (outside ASCII)', async () => {
    const out = await outDir();
    // Decomposed "é" and dotted "İ": NFC and lower-casing change their lengths.
    const kept = ['a/e\u0301t\u00e9.json', 'a/\u0130x.json'] as const;
    const first = await writeAtomically(out, MARKER, async (w) => {
      for (const path of kept) await w.emit(path, 1);
      await w.emit(MARKER, {});
    }, { record: true });
    const record = first.stats.record!;
    const keepAll = (w: OutputWriter): boolean => w.keep!(kept.map((path) => [path, record.get(path)!]));
    for (const [fresh, other] of [['a/\u00e9t\u00e9.json', kept[0]], ['a/i\u0307x.json', kept[1]]] as const) {
      expect(fresh.length).not.toBe(other.length);
      await expect(writeAtomically(out, MARKER, async (w) => {
        keepAll(w);
        await w.emit(fresh, 2);
        await w.emit(MARKER, {});
      }, { inPlace: record })).rejects.toThrow(`output path ${JSON.stringify(fresh)} written twice (also ${JSON.stringify(other)})`);
    }
  });

  it('refuses values that are not JSON', async () => {
    const out = await outDir();
    await expect(writeAtomically(out, MARKER, async (w) => w.emit('x.json', undefined))).rejects.toThrow('value is not JSON');
  });

  it('never replaces a folder the build did not write, a file or a link', async () => {
    const out = await outDir();
    await fs.mkdir(out);
    await fs.writeFile(join(out, 'precious.txt'), 'keep me');
    await expect(writeAtomically(out, MARKER, async () => undefined)).rejects.toThrow(
      `output ${out} is not empty and holds no api/v1/manifest.json: refusing to replace a folder the build did not write`,
    );
    expect(await fs.readFile(join(out, 'precious.txt'), 'utf8')).toBe('keep me');

    const file = `${out}-file`;
    await fs.writeFile(file, 'x');
    await expect(writeAtomically(file, MARKER, async () => undefined)).rejects.toThrow('exists and is not a folder');

    const link = `${out}-link`;
    await fs.symlink(out, link);
    await expect(writeAtomically(link, MARKER, async () => undefined)).rejects.toThrow('exists and is not a folder');
    expect(await leftovers(out)).toEqual(['public-file', 'public-link']);
  });

  it('accepts an empty existing folder', async () => {
    const out = await outDir();
    await fs.mkdir(out);
    await writeAtomically(out, MARKER, async (w) => w.emit(MARKER, {}));
    expect([...(await readTree(out)).keys()]).toEqual([MARKER]);
  });

  it('removes staging folders left by a killed build, not those of a running one', async () => {
    const out = await outDir();
    const parent = dirname(out);
    // pid 2^22 + 1 is above Linux's pid_max: no process has it.
    const dead = join(parent, `.staging-public-${2 ** 22 + 1}-abcdef`);
    const alive = join(parent, `.staging-public-${process.ppid}-abcdef`);
    const other = join(parent, '.staging-other-1-abcdef');
    for (const dir of [dead, `${dead}-previous`, alive, other]) await fs.mkdir(dir);
    await writeAtomically(out, MARKER, async (w) => w.emit(MARKER, {}));
    expect((await leftovers(out)).sort()).toEqual([basename(alive), basename(other)].sort());
  });
});

describe('removing the replaced output in the background', () => {
  it('swaps at once and a detached remover removes the old tree; a trash folder whose remover is gone goes with the next build', async () => {
    const out = await outDir();
    await previousBuild(out);
    // A trash folder of a remover that died (pid above Linux's pid_max), one of a live remover.
    const orphan = join(dirname(out), `.trash-public-${2 ** 22 + 1}-abcdef`);
    const busy = join(dirname(out), `.trash-public-${process.ppid}-abcdef`);
    for (const dir of [orphan, busy]) await fs.mkdir(dir);
    await writeAtomically(out, MARKER, async (w) => w.emit(MARKER, { format: 2 }), { removeInBackground: true });
    expect([...(await readTree(out)).keys()]).toEqual([MARKER]);
    // The replaced tree is gone once its remover is done (bounded wait); the orphan went with this build.
    for (let i = 0; i < 200 && (await leftovers(out)).length > 1; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await leftovers(out)).toEqual([basename(busy)]);
  });
});
