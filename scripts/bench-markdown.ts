/**
 * `npm run bench:markdown`: the demo page's Markdown parser (site/markdown.ts) against markdown-it
 * (html off), on adversarial 1 MiB documents and a real-looking SKILL.md, plus the minified
 * bundle size of each. Prints a Markdown table for BENCHMARKS.md.
 */
import { build } from 'esbuild';
import MarkdownIt from 'markdown-it';
import { parseMarkdown } from '../site/markdown.ts';
import { HOSTILE_MARKDOWN as DOCS } from './hostile-markdown.ts';

const md = new MarkdownIt({ html: false });
/** Median of 5 runs, ms. */
function time(f: () => void): number {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    f();
    runs.push(performance.now() - started);
  }
  return runs.sort((a, b) => a - b)[2]!;
}
async function bundleSize(contents: string): Promise<number> {
  const result = await build({ stdin: { contents, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, minify: true, write: false, format: 'esm', platform: 'browser', logLevel: 'silent' });
  return result.outputFiles[0]!.contents.length;
}

console.log('| 1 MiB-class document | ours (ms, median of 5) | markdown-it (ms) |');
console.log('|---|---:|---:|');
for (const [name, text] of Object.entries(DOCS)) {
  console.log(`| ${name} (${(text.length / 1024 / 1024).toFixed(2)} MiB) | ${time(() => parseMarkdown(text)).toFixed(0)} | ${time(() => md.parse(text, {})).toFixed(0)} |`);
}
const ours = await bundleSize(`export { parseMarkdown } from './site/markdown.ts';`);
const theirs = await bundleSize(`import MarkdownIt from 'markdown-it'; export const md = new MarkdownIt({ html: false });`);
console.log(`\nMinified bundle: ours ${(ours / 1024).toFixed(1)} KiB (parser; the DOM renderer in site/render.ts adds ~1 KiB), markdown-it ${(theirs / 1024).toFixed(1)} KiB (parser and HTML renderer).`);
