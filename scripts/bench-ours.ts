/**
 * Our engine in the search benchmark: the runtime handler (src/handler.ts) over a `fetchLoader`
 * (src/loader.ts) pointed at the built tree on the local server, asked the canonical search URL.
 * Its runtime code is those two entry points bundled and minified with esbuild.
 */
import { fileURLToPath } from 'node:url';
import { createHandler } from '../src/handler.ts';
import { fetchLoader } from '../src/loader.ts';
import { bundledCodeSize, type Engine } from './bench-engine.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** The engine over the tree served at `treeUrl` (the URL of the output folder). */
export async function oursEngine(treeUrl: string): Promise<Engine> {
  const code = await bundledCodeSize(
    `export { createHandler } from './src/handler.ts';\nexport { fetchLoader } from './src/loader.ts';\n`,
    REPO,
  );
  return {
    name: 'ours',
    code: { bytes: code.gzip, requests: 1 },
    async fresh(fetch) {
      // A 500 answer hides its cause; keep it for the report.
      let cause = '';
      const handler = createHandler(fetchLoader(treeUrl, fetch), { onError: (error) => (cause = `: ${(error as Error).message}`) });
      return {
        async run(q) {
          const response = await handler(new Request(`http://bench.local/api/v1/skills/search?q=${encodeURIComponent(q)}`));
          const body = (await response.json()) as { data?: unknown[]; error?: { code: string } };
          if (!response.ok) throw new Error(`${response.status} ${body.error?.code ?? ''}${response.status === 500 ? cause : ''}`);
          return body.data?.length ?? 0;
        },
      };
    },
  };
}
