/**
 * Pagefind in the search benchmark: the same skills rendered as HTML pages (name as the page
 * heading, description, the SKILL.md body as headings, paragraphs, lists and code), indexed with
 * Pagefind's Node API, then searched with Pagefind's own browser client (`pagefind.js` from its
 * output, which runs in Node: without `window` it uses no Web Worker, and it loads its WASM with
 * the global `fetch`). A search is `search()` plus `data()` of the first 20 results, the
 * equivalent of our search response carrying 20 summaries.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as pagefind from 'pagefind';
import type { SkillRecord } from '../builder/model.ts';
import { gzipSize } from './bench-http.ts';
import type { Engine } from './bench-engine.ts';
import { toPagefind } from './bench-queries.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Markdown to plain HTML, enough for indexing: headings, fenced code, list items, paragraphs. */
export function markdownToHtml(markdown: string): string {
  const out: string[] = [];
  let code: string[] | undefined;
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) out.push(`<p>${escapeHtml(paragraph.join(' '))}</p>`);
    paragraph = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (code !== undefined) {
      if (line.startsWith('```')) {
        out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
        code = undefined;
      } else code.push(line);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
    if (line.startsWith('```')) {
      flush();
      code = [];
    } else if (heading) {
      flush();
      // The page's own <h1> is the skill name; body headings start at <h2>.
      const level = Math.min(6, heading[1]!.length + 1);
      out.push(`<h${level}>${escapeHtml(heading[2]!)}</h${level}>`);
    } else if (item) {
      flush();
      out.push(`<li>${escapeHtml(item[1]!)}</li>`);
    } else if (line.trim() === '') flush();
    else paragraph.push(line.trim());
  }
  flush();
  if (code !== undefined) out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
  return out.join('\n');
}

/** The HTML page of one skill. */
export function skillPage(skill: SkillRecord): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(skill.name)}</title></head><body>`,
    `<main data-pagefind-body data-pagefind-meta="id:${escapeHtml(skill.id)}, stars:${skill.stars}">`,
    `<h1>${escapeHtml(skill.name)}</h1>`,
    `<p data-pagefind-weight="5" data-pagefind-meta="description">${escapeHtml(skill.description)}</p>`,
    `<article>${markdownToHtml(skill.body)}</article>`,
    '</main></body></html>',
  ].join('\n');
}

/** Index `skills` with Pagefind into `<siteDir>/pagefind`; returns the time taken. */
export async function buildPagefind(skills: readonly SkillRecord[], siteDir: string): Promise<{ ms: number }> {
  const started = performance.now();
  const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
  if (index === undefined) throw new Error(`pagefind: ${errors.join('; ')}`);
  // A few pages in flight keep the Pagefind service busy without holding every page in memory.
  const inFlight = 16;
  for (let i = 0; i < skills.length; i += inFlight) {
    const batch = skills.slice(i, i + inFlight);
    const answers = await Promise.all(
      batch.map((skill) => index.addHTMLFile({ url: `/skills/${skill.owner}/${skill.repo}/`, content: skillPage(skill) })),
    );
    const failed = answers.flatMap((a) => a.errors);
    if (failed.length > 0) throw new Error(`pagefind: ${failed.join('; ')}`);
  }
  const written = await index.writeFiles({ outputPath: join(siteDir, 'pagefind') });
  if (written.errors.length > 0) throw new Error(`pagefind: ${written.errors.join('; ')}`);
  await pagefind.close();
  return { ms: performance.now() - started };
}

interface PagefindModule {
  options(options: Record<string, unknown>): Promise<void>;
  search(term: string): Promise<{ results: Array<{ data(): Promise<unknown> }> } | null>;
}

let imports = 0;

/**
 * The engine over `<siteDir>/pagefind` served at `pagefindUrl`. Every fresh client is a new
 * instance of pagefind.js (imported under a new URL, so no module state is shared).
 */
export async function pagefindEngine(siteDir: string, pagefindUrl: string): Promise<Engine> {
  const script = join(siteDir, 'pagefind', 'pagefind.js');
  const code = await readFile(script);
  return {
    name: 'Pagefind',
    code: { bytes: gzipSize(code), requests: 1 },
    maxQueryLength: 200,
    async fresh(fetch) {
      // pagefind.js calls the global fetch; one client runs at a time in the benchmark.
      globalThis.fetch = fetch;
      const pf = (await import(`${pathToFileURL(script).href}?client=${++imports}`)) as PagefindModule;
      await pf.options({ basePath: pagefindUrl });
      return {
        async run(q) {
          globalThis.fetch = fetch;
          const term = toPagefind(q);
          if (term === '') return 0;
          const found = await pf.search(term);
          const page = found?.results.slice(0, 20) ?? [];
          await Promise.all(page.map((r) => r.data()));
          return page.length;
        },
      };
    },
  };
}
