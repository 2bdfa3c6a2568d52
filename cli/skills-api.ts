/**
 * `skills-api`, the one command line of the package (bin/skills-api.js; the npm scripts are thin
 * aliases of it). One parser (commander), one set of flag names and messages:
 *
 *   build, start, dev, serve   the content folder → the static tree → the HTTP server
 *   import                     git repositories → the content folder
 *   bundle                     one offline file with the whole directory
 *   deploy                     a build output → S3-compatible object storage (S3, R2, MinIO)
 *   search, show, list, categories, mcp   read a directory (below)
 *
 * Every query goes through the typed client, so it answers exactly what the API answers, from one
 * of four sources:
 *
 *   --url URL          a canonical API server (`skills-api serve`, `npm start`, an edge Worker)
 *   --static-url URL   a static host of the built tree (the client runs the handler itself)
 *   --bundle FILE      an offline bundle (`skills-api bundle --out FILE`)
 *   --dir DIR          a built output folder
 *
 * With none of them: `./skills.bundle` when it exists, else `./public` when it is a build output.
 * Readable output by default (aligned columns, search matches emphasized on a terminal); `--json`
 * prints the API's JSON. Exit codes: 0 success, 1 failure (API error, unreachable server, bad
 * bundle, content problems), 2 wrong command line.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { BuildReport } from '../builder/build.ts';
import type { Problem } from '../builder/model.ts';
import { GENERATOR } from '../builder/package-info.ts';
import { formatProblem } from '../builder/problems.ts';
import { BundleError } from '../src/bundle.ts';
import { createClient, type SkillsClient } from '../src/client.ts';
import { isApiError } from '../src/errors.ts';
import { checkManifest, type Manifest } from '../src/manifest.ts';
import { MANIFEST_PATH, MAX_LIMIT, ORDERS, SORTS } from '../src/paths.ts';
import { normalizeBase } from '../builder/site.ts';
import { readBundleFile } from '../src/node/bundle-file.ts';
import { builtManifest, folder, readManifest, readPort, readRateLimit, startupLine, UsageError, versionLine } from './cli.ts';
import { formatCategories, formatCategory, formatSearch, formatSkill, formatSkillList, type OutputOptions } from '../src/node/cli-output.ts';
import { fsBytesLoader, fsLoader } from '../src/node/fs-loader.ts';
import { progress } from './progress.ts';
import type { DeployFlags } from './deploy-command.ts';
import type { RunningServer, ServerOptions } from '../src/node/server.ts';
import { sanitize, styleFor } from '../src/node/terminal-text.ts';

// The build, the server and the MCP SDK are imported by the commands that use them, so a query
// starts fast.

export { UsageError };

/** Bundle used when no source is given and it exists. */
export const DEFAULT_BUNDLE = 'skills.bundle';
/** Output folder used when no source is given, no default bundle exists and it is a build output. */
export const DEFAULT_DIR = 'public';
/** Content folder the building commands read by default. */
export const DEFAULT_CONTENT = 'content';

/** Where the CLI writes; `process` by default, replaceable in tests. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
}

interface SourceOptions {
  url?: string;
  staticUrl?: string;
  bundle?: string;
  dir?: string;
}

/** The package's version (package.json). */
const VERSION = GENERATOR.version;

/** What the commands share: where they write, how they print, and the source they read. */
interface CliContext {
  io: CliIo;
  /** The source the last query opened, named in error messages. */
  source: string;
  print(text: string): void;
  /** How readable output is styled and cut for the terminal. */
  output(): OutputOptions;
  /** Open the client of a command's source options, remembering the source for error messages. */
  open(options: SourceOptions): Promise<SkillsClient>;
}

/** Run the CLI with `args` (after the program name); resolves the exit code. */
export async function main(args: readonly string[], io: CliIo = process): Promise<number> {
  const cli: CliContext = {
    io,
    source: 'the directory',
    print: (text) => io.stdout.write(text),
    // Lines are cut to a terminal's width; a pipe, or a terminal of unknown width (0), gets them whole.
    output: () => ({ style: styleFor(io.stdout, io.env), width: io.stdout.isTTY === true && io.stdout.columns ? io.stdout.columns : undefined }),
    open: async (options) => {
      const [client, name] = await openSource(options);
      cli.source = name;
      return client;
    },
  };

  const program = new Command('skills-api')
    .description('The Skills Directory API from a terminal: build, serve, bundle, search and browse skills, or serve them to an agent over MCP.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      `\nSources (search, show, list, categories, mcp): --url, --static-url, --bundle or --dir;\nby default ./${DEFAULT_BUNDLE} if it exists, else ./${DEFAULT_DIR} if it is a build output.`,
    );

  // The order of registration is the order of `--help`.
  addQueryCommands(program, cli);
  addBuildCommands(program, cli);
  addServeCommands(program, cli);
  addPublishCommands(program, cli);
  addMcpCommand(program, cli);

  // `nosuch --help` names an unknown command: Commander would answer the program's help (exit 0)
  // before looking at the command, so the help flags are dropped and its own error is given.
  const known = (name: string) => name === 'help' || program.commands.some((command) => command.name() === name || command.aliases().includes(name));
  const first = args[0];
  const parsed = first !== undefined && !first.startsWith('-') && !known(first) ? args.filter((arg) => arg !== '--help' && arg !== '-h') : args;
  try {
    await program.parseAsync([...parsed], { from: 'user' });
    return 0;
  } catch (error) {
    return report(error, cli.source, io);
  }
}


/** search, show, list, categories: one query each through the typed client, printed readable or as JSON. */
function addQueryCommands(program: Command, { io, print, output, open }: CliContext): void {
  withSource(program.command('search').description('search skills (query syntax: terms, "a phrase", name:term, -term, prefix*)'))
    .argument('<query...>', 'the search query (several words are joined with spaces)')
    .option('--category <slug>', 'only skills of this category')
    .option('--platform <id>', 'only skills for this platform')
    .option('--min-stars <n>', 'only skills with at least n stars', integer('--min-stars', 0))
    .option('--has-index', 'only skills with a .claude-plugin/marketplace.json')
    .option('--no-has-index', 'only skills without one')
    .option('--page <n>', 'page of results', integer('--page', 1))
    .option('--limit <n>', 'results per page (default 20)', integer('--limit', 1, MAX_LIMIT))
    // `-docx` is an exclusion of the query, not an option; an unknown `--option` is still refused.
    .allowUnknownOption()
    .action(async (words: string[], o: SourceOptions & { category?: string; platform?: string; minStars?: number; hasIndex?: boolean; page?: number; limit?: number; json?: boolean }) => {
      const unknown = words.find((word) => word.startsWith('--'));
      if (unknown !== undefined) throw new UsageError(`unknown option '${unknown.split('=')[0]}'`);
      const client = await open(o);
      const body = await client.searchSkills({ q: words.join(' '), category: o.category, platform: o.platform, minStars: o.minStars, hasIndex: o.hasIndex, page: o.page, limit: o.limit });
      print(o.json ? json(body) : formatSearch(body, output()));
    });

  withSource(program.command('show').description('show one skill (its facts and install commands, or its SKILL.md)'))
    .argument('<owner/repo>', 'the skill id')
    .option('--content', 'print the raw SKILL.md instead')
    .option('--stats', 'add usage statistics (with --json: print only them)')
    .action(async (id: string, o: SourceOptions & { content?: boolean; stats?: boolean; json?: boolean }) => {
      const match = /^([^/]+)\/([^/]+)$/.exec(id);
      if (match === null) throw new UsageError(`expected a skill id owner/repo, got ${JSON.stringify(id)}`);
      if (o.content && o.stats) throw new UsageError('--content and --stats cannot be combined');
      const [, owner, repo] = match as unknown as [string, string, string];
      const client = await open(o);
      if (o.content) {
        const body = await client.getSkillContent(owner, repo);
        // Byte for byte into a file or a pipe; on a terminal without the characters that could
        // drive it, and ending the line so the prompt starts on its own.
        const raw = body.data.content;
        const terminal = io.stdout.isTTY === true ? `${sanitize(raw)}${raw.endsWith('\n') ? '' : '\n'}` : raw;
        print(o.json ? json(body) : terminal);
        return;
      }
      if (o.json && o.stats) {
        print(json(await client.getSkillStats(owner, repo)));
        return;
      }
      const detail = await client.getSkill(owner, repo);
      if (o.json) print(json(detail));
      else print(formatSkill(detail.data, output(), o.stats ? (await client.getSkillStats(owner, repo)).data : undefined));
    });

  withSource(program.command('list').description('list skills, paged, sorted and filtered'))
    .option('--category <slug>', 'only skills of this category')
    .option('--platform <id>', 'only skills for this platform')
    .addOption(new Option('--sort <key>', 'sort key (default stars)').choices(SORTS))
    .addOption(new Option('--order <order>', 'sort order (default desc)').choices(ORDERS))
    .option('--page <n>', 'page', integer('--page', 1))
    .option('--limit <n>', 'skills per page (default 20)', integer('--limit', 1, MAX_LIMIT))
    .action(async (o: SourceOptions & { category?: string; platform?: string; sort?: (typeof SORTS)[number]; order?: (typeof ORDERS)[number]; page?: number; limit?: number; json?: boolean }) => {
      const client = await open(o);
      const body = await client.listSkills({ category: o.category, platform: o.platform, sort: o.sort, order: o.order, page: o.page, limit: o.limit });
      print(o.json ? json(body) : formatSkillList(body, output()));
    });

  withSource(program.command('categories').description('list categories, or show one with its top skills'))
    .argument('[slug]', 'a category to show')
    .option('--locale <code>', 'language (en, de, fr, ja, ko, zh-TW, ...)')
    .action(async (slug: string | undefined, o: SourceOptions & { locale?: string; json?: boolean }) => {
      const client = await open(o);
      if (slug === undefined) {
        const body = await client.listCategories({ locale: o.locale });
        print(o.json ? json(body) : formatCategories(body.data, output()));
      } else {
        const body = await client.getCategory(slug, { locale: o.locale });
        print(o.json ? json(body) : formatCategory(body.data, output()));
      }
    });
}

/** build and bundle: the content folder into the static tree, and the tree into one offline file. */
function addBuildCommands(program: Command, { io }: CliContext): void {
  withContent(program.command('build').description('build a content folder into the static tree (replaced only when the build succeeds)'))
    .option('--incremental', 're-use what did not change (build cache, hard links); same bytes as a clean build')
    .option('--cache-dir <dir>', 'build cache folder of --incremental (default node_modules/.cache/skills-api)')
    .option('--base <path>', 'URL path the output is served under, e.g. /my-repo/ (default /)', basePath)
    .option('--bundle <file>', 'also write an offline bundle of the output')
    .action(async (o: BuildFlags & { bundle?: string }) => {
      await build(o, io);
      if (o.bundle !== undefined) await bundle(o.out, o.bundle, io);
    });

  program
    .command('bundle')
    .description('write an offline bundle: one file with the whole directory, search index included')
    .requiredOption('--out <file>', `bundle file to write, e.g. ${DEFAULT_BUNDLE}`)
    .option('--dir <dir>', 'bundle this build output instead of building')
    .option('--content <dir>', 'content folder to build', DEFAULT_CONTENT)
    .option('--skip-invalid', 'build the valid skills and list the invalid ones')
    .action(async (o: { out: string; dir?: string; content: string; skipInvalid?: boolean }) => {
      if (o.dir !== undefined) {
        await bundle(o.dir, o.out, io);
        return;
      }
      const temporary = await mkdtemp(join(tmpdir(), 'skills-api-bundle-'));
      try {
        const out = join(temporary, 'out');
        await build({ content: o.content, out, ...(o.skipInvalid ? { skipInvalid: true } : {}) }, io, true);
        await bundle(out, o.out, io);
      } finally {
        await rm(temporary, { recursive: true, force: true });
      }
    });
}

/** serve, start, dev: the HTTP server over a build output (built first by start and dev). */
function addServeCommands(program: Command, { io }: CliContext): void {
  withServer(
    program
      .command('serve')
      .description('serve a build output (the canonical API and its static files), or the API of a bundle')
      .option('--dir <dir>', 'build output to serve', DEFAULT_DIR)
      .option('--bundle <file>', 'serve the API from a bundle instead (no static files)'),
  ).action(async (o: ServerFlags & { dir: string; bundle?: string }) => {
    await serve(o, io);
  });

  withServer(
    withContent(program.command('start').description(
        "build the content folder when the output is missing or was built from other content (its manifest's contentHash differs), then serve it",
      )),
  ).action(async (o: ServerFlags & BuildFlags) => {
    await start(o, io);
  });

  withServer(
    withContent(
      program.command('dev').description('start, then watch the content folder: rebuild incrementally on every change and reload the demo page'),
    ).option('--cache-dir <dir>', 'build cache folder (default node_modules/.cache/skills-api)'),
  ).action(async (o: ServerFlags & BuildFlags) => {
    const { runDev } = await import('./dev.ts');
    const options = serverOptions(o, io);
    await runDev({
      ...options,
      content: o.content,
      out: o.out,
      prepare: async () => {
        try {
          return (await freshManifest(o, io)).skillCount;
        } catch (error) {
          // While editing, content with problems is expected: the last good build stays served.
          const existing = await readManifest(o.out);
          if (!(error instanceof ContentProblems) || existing === undefined) throw error;
          io.stdout.write(`${error.message}\nServing the last good build in ${folder(o.out)}; fix the content and save again.\n`);
          return existing.skillCount;
        }
      },
      rebuild: async () => {
        io.stdout.write(`${folder(o.content)} changed: rebuilding\n`);
        await build({ ...o, incremental: true }, io);
      },
      print: (text) => io.stdout.write(text),
      until: untilSignal,
    });
  });
}

/** import and deploy: git repositories into the content folder, a build output into object storage. */
function addPublishCommands(program: Command, { io }: CliContext): void {
  program
    .command('import')
    .description('import git repositories of skills into a content folder (then build it)')
    .argument('[source...]', 'git URLs, local work trees, or GitHub owner/repo')
    .option('--sources <file>', 'a JSON or YAML list of repositories with per-repository settings')
    .option('--out <dir>', 'content folder to write', DEFAULT_CONTENT)
    .option('--cache-dir <dir>', 'clones and GitHub answers (default node_modules/.cache/skills-api/import)')
    .option('--github-meta <dir>', 'saved GitHub repository answers: <dir>/<owner>/<repo>.json')
    .option('--github-api [url]', 'ask the GitHub API for repository metadata (default https://api.github.com; token from GITHUB_TOKEN)')
    .option('--include-internal', 'also import skills whose front matter says metadata.internal: true')
    .option('--prune', 'remove the skills of repositories not given in this run')
    .option('--report <file>', 'write a JSON report: every SKILL.md found, with its id or why it was skipped')
    .option('--date <day>', 'the day recorded in star histories, YYYY-MM-DD (default today, UTC)', (value) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw new InvalidArgumentError('--date must be a day YYYY-MM-DD');
      return value;
    })
    .action(async (sources: string[], o: ImportFlags) => {
      const { importCommand } = await import('./import-command.ts');
      await importCommand(sources, o, io);
    });

  program
    .command('deploy')
    .description('publish a build output to S3-compatible object storage (AWS S3, Cloudflare R2, MinIO): changed objects only, the manifest last')
    .argument('<dir>', 'the build output folder, e.g. public')
    .requiredOption('--to <url>', 's3://<bucket>[/<prefix>]')
    .option('--endpoint <url>', 'S3-compatible endpoint, e.g. https://<account>.r2.cloudflarestorage.com (default AWS_ENDPOINT_URL, else AWS)', (value: string) => httpUrl('--endpoint', value))
    .option('--dry-run', 'list what would be uploaded and deleted; change nothing')
    .option('--concurrency <n>', 'uploads at once (default 16)', integer('--concurrency', 1))
    .action(async (dir: string, o: DeployFlags) => {
      const { deployCommand } = await import('./deploy-command.ts').catch((error: NodeJS.ErrnoException) => {
        // The S3 client is an optional peer dependency: a client-only install does not pull it in.
        if (error.code === 'ERR_MODULE_NOT_FOUND' && error.message.includes('@aws-sdk/client-s3')) {
          throw new Error('skills-api deploy needs the AWS SDK S3 client, an optional peer dependency: npm install @aws-sdk/client-s3', { cause: error });
        }
        throw error;
      });
      await deployCommand(dir, o, io);
    });
}

/** mcp: the directory to an agent over stdio (the optional MCP SDK loaded on use). */
function addMcpCommand(program: Command, cli: CliContext): void {
  withSource(program.command('mcp').description('serve the directory to an AI agent over MCP (stdio): tools, resources, a prompt and its skills (the Skills Extension)'), false).action(async (o: SourceOptions) => {
    const client = await cli.open(o);
    const { serveMcpStdio } = await import('../src/node/mcp.ts').catch((error: NodeJS.ErrnoException) => {
      // The MCP SDK is an optional peer dependency: a client-only install does not pull it in.
      if (error.code === 'ERR_MODULE_NOT_FOUND' && error.message.includes('@modelcontextprotocol/sdk')) {
        throw new Error('skills-api mcp needs the MCP SDK, an optional peer dependency: npm install @modelcontextprotocol/sdk', { cause: error });
      }
      throw error;
    });
    await serveMcpStdio(client, VERSION, cli.source);
  });
}

/** Add the source options (and `--json`) to a query command. */
function withSource(command: Command, jsonOption = true): Command {
  command
    .option('--url <url>', 'a canonical API server, e.g. http://localhost:3000')
    .option('--static-url <url>', 'a static host of the built tree')
    .option('--bundle <file>', 'an offline bundle file')
    .option('--dir <dir>', 'a built output folder');
  return jsonOption ? command.option('--json', "print the API's JSON") : command;
}

/** The client of the chosen source and a name for it in messages. */
async function openSource(options: SourceOptions): Promise<[SkillsClient, string]> {
  const given = (['url', 'staticUrl', 'bundle', 'dir'] as const).filter((key) => options[key] !== undefined);
  if (given.length > 1) throw new UsageError('give one source: --url, --static-url, --bundle or --dir');
  if (options.url !== undefined) return [createClient({ baseUrl: httpUrl('--url', options.url) }), options.url];
  if (options.staticUrl !== undefined) return [createClient({ staticBaseUrl: httpUrl('--static-url', options.staticUrl) }), options.staticUrl];
  if (options.bundle !== undefined) return [createClient({ bundle: await readBundleFile(options.bundle) }), options.bundle];
  if (options.dir !== undefined) {
    const dir = await builtDir(options.dir);
    return [createClient({ loader: fsLoader(dir), bytes: fsBytesLoader(dir) }), options.dir];
  }
  if (existsSync(DEFAULT_BUNDLE)) return [createClient({ bundle: await readBundleFile(DEFAULT_BUNDLE) }), DEFAULT_BUNDLE];
  if (existsSync(join(DEFAULT_DIR, MANIFEST_PATH))) return [createClient({ loader: fsLoader(DEFAULT_DIR), bytes: fsBytesLoader(DEFAULT_DIR) }), DEFAULT_DIR];
  throw new UsageError(
    `no directory to read: pass --url URL, --bundle FILE or --dir DIR, or create ./${DEFAULT_BUNDLE} with: skills-api bundle --out ${DEFAULT_BUNDLE}`,
  );
}

/** `dir` when it holds a build's manifest (checked), else a clear error. */
async function builtDir(dir: string): Promise<string> {
  await builtManifest(dir);
  return dir;
}

/** `value` when it is an http(s) URL, else a usage error naming `flag`. */
function httpUrl(flag: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`${flag} must be an http(s) URL, got ${JSON.stringify(value)}`);
  return value;
}

/** A commander parser for a port number. */
function port(flag: string): (value: string) => number {
  return (value) => {
    if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError(`${flag} must be a port number from 0 to 65535`);
    return Number(value);
  };
}

/** A commander parser for `--base`: a URL path such as `/` or `/my-repo/`. */
function basePath(value: string): string {
  try {
    return normalizeBase(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** A commander parser for an integer option ≥ `min`. */
function integer(flag: string, min: number, max?: number): (value: string) => number {
  return (value) => {
    if (!/^\d{1,15}$/.test(value) || Number(value) < min || (max !== undefined && Number(value) > max)) {
      throw new InvalidArgumentError(max === undefined ? `${flag} must be a whole number ≥ ${min}` : `${flag} must be a whole number from ${min} to ${max}`);
    }
    return Number(value);
  };
}

/** The flags of the commands that build. */
interface BuildFlags {
  content: string;
  out: string;
  skipInvalid?: boolean;
  incremental?: boolean;
  cacheDir?: string;
  base?: string;
}

/** The flags of `import`. */
export interface ImportFlags {
  sources?: string;
  out: string;
  cacheDir?: string;
  githubMeta?: string;
  githubApi?: string | true;
  includeInternal?: boolean;
  prune?: boolean;
  report?: string;
  date?: string;
}

/** The flags of the commands that serve. */
interface ServerFlags {
  port?: number;
  host?: string;
  rateLimit?: string;
  maxSearches?: number;
}

/** Add the content and output flags of the commands that build. */
function withContent(command: Command): Command {
  return command
    .option('--content <dir>', 'content folder', DEFAULT_CONTENT)
    .option('--out <dir>', 'output folder', DEFAULT_DIR)
    .option('--skip-invalid', 'build the valid skills and list the invalid ones');
}

/** Add the server flags, with the same names and messages on every command that serves. */
function withServer(command: Command): Command {
  return command
    .option('--port <n>', 'port (default PORT, else 3000; 0 picks a free one)', port('--port'))
    .option('--host <address>', 'interface to listen on (default every interface)')
    .option('--rate-limit <rate>', 'API requests allowed per client: N/s, N/min or N/h (default no limit)', (value) => {
      try {
        readRateLimit(value);
      } catch (error) {
        throw new InvalidArgumentError((error as Error).message);
      }
      return value;
    })
    .option('--max-searches <n>', 'searches answered at once; more wait in line, others (lists, skills) never do (default 1; 0: no limit)', (value) => {
      if (!/^\d{1,4}$/.test(value)) throw new InvalidArgumentError('--max-searches must be a whole number from 0 to 9999');
      return Number(value);
    });
}

/** Steps `runBuild` reports through `onProgress` (load, tree, search index, site + swap). */
const BUILD_STEPS = 4;

/**
 * Build with a progress bar of the build's steps on a terminal; content problems fail the command
 * (each listed), skipped folders are listed. Resolves the build's report.
 */
async function build(o: BuildFlags, io: CliIo, quiet = false): Promise<BuildReport> {
  // In a thread with a larger young generation (cli/build-thread.ts).
  const { buildInThread } = await import('./build-thread.ts');
  const line = progress(io.stderr, `Building ${folder(o.content)}`);
  const steps: string[] = [];
  let report: BuildReport;
  try {
    report = await buildInThread({
      contentDir: o.content,
      outDir: o.out,
      skipInvalid: o.skipInvalid === true,
      incremental: o.incremental === true,
      ...(o.cacheDir === undefined ? {} : { cacheDir: o.cacheDir }),
      ...(o.base === undefined ? {} : { base: o.base }),
      // A step starts: the bar shows how many of the build's steps are behind it.
      onProgress: (step) => {
        if (!steps.includes(step)) steps.push(step);
        line.update(Math.min(steps.length - 1, BUILD_STEPS), BUILD_STEPS);
      },
    });
    line.update(BUILD_STEPS, BUILD_STEPS);
  } catch (error) {
    if (error instanceof Error && error.name === 'BuildError') throw new ContentProblems(o, (error as Error & { problems: Problem[] }).problems);
    throw new Error(`build failed, ${folder(o.out)} left unchanged: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    line.stop();
  }
  if (!quiet) {
    const reused = report.reused > 0 ? `, ${report.reused} unchanged files re-used` : '';
    const cached = report.fromCache > 0 ? `, ${report.fromCache} unchanged skills from the cache` : '';
    io.stdout.write(`Built ${report.skills} skills from ${folder(o.content)} into ${folder(o.out)}: ${report.files} files${reused}${cached}, ${size(report.bytes)} in ${(report.ms / 1000).toFixed(1)} s\n`);
  }
  if (report.skipped.length > 0) {
    io.stderr.write(`Skipped ${report.skipped.length} invalid skill folder(s):\n${report.problems.map((p) => `  ${formatProblem(p)}\n`).join('')}`);
  }
  return report;
}

/** The content has problems: nothing was written. Listed one per line by `report`. */
class ContentProblems extends Error {
  constructor(
    readonly flags: Pick<BuildFlags, 'content' | 'out'>,
    readonly problems: readonly Problem[],
    /** A last line saying what to do. */
    readonly hint?: string,
  ) {
    super(`build failed, ${folder(flags.out)} left unchanged: ${problems.length} problem(s) in ${folder(flags.content)}\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
    this.name = 'ContentProblems';
  }
}

/** Bundle a build output with a progress bar on a terminal. */
async function bundle(dir: string, file: string, io: CliIo): Promise<void> {
  const manifest = await builtManifest(dir);
  const { writeBundle } = await import('../builder/bundle.ts');
  const bar = progress(io.stderr, `Bundling ${dir}`);
  let stats;
  try {
    stats = await writeBundle(dir, file, { onProgress: (done, total) => bar.update(done, total) });
  } finally {
    bar.stop();
  }
  io.stdout.write(`Wrote ${file}: ${manifest.skillCount} skills, ${stats.files} files, ${size(stats.compressedBytes)} (${size(stats.bytes)} of JSON)\n`);
}

/** Resolves on the first SIGINT or SIGTERM (Ctrl-C, `docker stop`, systemd). */
function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

/** Start the server, turning a port in use into a message that says what to do. */
async function listen(options: ServerOptions): Promise<RunningServer> {
  const { startServer } = await import('../src/node/server.ts');
  return startServer(options).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    throw new Error(`port ${options.port} is already in use: choose another with --port or PORT`, { cause: error });
  });
}

/** The `startServer` options of the server flags. */
function serverOptions(o: ServerFlags, io: CliIo): Omit<ServerOptions, 'dir'> & { port: number } {
  const rateLimit = readRateLimit(o.rateLimit);
  return {
    port: o.port ?? readPort(undefined, io.env['PORT']),
    ...(o.host === undefined ? {} : { host: o.host }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    // 0 lifts the limit: as many at once as arrive.
    ...(o.maxSearches === undefined ? {} : { searchLimit: { max: o.maxSearches === 0 ? Number.MAX_SAFE_INTEGER : o.maxSearches } }),
  };
}

/** Serve a build output, or a bundle's API, until SIGINT/SIGTERM. */
async function serve(o: ServerFlags & { dir: string; bundle?: string }, io: CliIo): Promise<void> {
  const options = serverOptions(o, io);
  let empty: string | undefined;
  try {
    let running: RunningServer;
    let line: string;
    if (o.bundle !== undefined) {
      const [{ createHandler }, { cachedLoader }, { bundleBytesLoader, bundleLoader }] = await Promise.all([import('../src/handler.ts'), import('../src/loader.ts'), import('../src/bundle.ts')]);
      const loaded = await readBundleFile(o.bundle);
      const handler = createHandler(cachedLoader(bundleLoader(loaded), { maxEntries: 2000 }), {
        bytes: bundleBytesLoader(loaded),
        onError: (error, request) => io.stderr.write(`500 on ${request.url}: ${String(error)}\n`),
      });
      // A bundle has no static files: the server gets an empty folder for them.
      empty = await mkdtemp(join(tmpdir(), 'skills-api-serve-'));
      running = await listen({ ...options, dir: empty, handler });
      const manifest = checkManifest(JSON.parse(loaded.files.get(MANIFEST_PATH) ?? 'null'));
      line = startupLine(running.url, manifest.skillCount, o.bundle);
    } else {
      const manifest = await builtManifest(o.dir);
      running = await listen({ ...options, dir: o.dir });
      line = `${startupLine(running.url, manifest.skillCount, folder(o.dir))}${versionLine(GENERATOR, manifest)}`;
    }
    io.stdout.write(line);
    await untilSignal();
    await running.close();
  } finally {
    if (empty !== undefined) await rm(empty, { recursive: true, force: true });
  }
}

/**
 * Serve the output folder, building it first when it has no build yet or was built from other
 * content than the content folder holds now (the manifest's `contentHash`); says which.
 */
async function start(o: ServerFlags & BuildFlags, io: CliIo): Promise<void> {
  const options = serverOptions(o, io);
  const manifest = await freshManifest(o, io);
  const running = await listen({ ...options, dir: o.out });
  io.stdout.write(`${startupLine(running.url, manifest.skillCount, folder(o.out))}${versionLine(GENERATOR, manifest)}`);
  await untilSignal();
  await running.close();
}

/**
 * The manifest of an output that matches the content folder: the existing one when the content
 * is unchanged (or missing: the output is served as it is), else a new build's. Prints what it did.
 */
export async function freshManifest(o: BuildFlags, io: CliIo): Promise<Manifest> {
  const { contentFingerprint } = await import('../builder/load-content.ts');
  const [existing, fingerprint] = await Promise.all([readManifest(o.out), contentFingerprint(o.content)]);
  if (existing !== undefined && (fingerprint === undefined || existing.contentHash === fingerprint)) {
    const why = fingerprint === undefined ? `no content folder ${folder(o.content)}` : `${folder(o.content)} unchanged`;
    io.stdout.write(`Serving the existing build in ${folder(o.out)} (${why})\n`);
    return existing;
  }
  if (existing !== undefined) io.stdout.write(`${folder(o.content)} changed since ${folder(o.out)} was built: rebuilding\n`);
  try {
    return (await build(o, io)).manifest;
  } catch (error) {
    if (error instanceof ContentProblems && existing === undefined) {
      throw new ContentProblems(o, error.problems, 'Fix these, or start with --skip-invalid to leave those skills out.');
    }
    throw error;
  }
}

/** Print one clear message for a failure; resolve the exit code. */
function report(error: unknown, source: string, io: CliIo): number {
  const fail = (message: string, code: number) => {
    io.stderr.write(`skills-api: ${message}\n`);
    return code;
  };
  if (error instanceof CommanderError) {
    // Commander printed the message (or the help) already.
    return error.exitCode === 0 ? 0 : 2;
  }
  if (error instanceof UsageError) return fail(`${error.message}\n(add --help for usage)`, 2);
  if (isApiError(error)) return fail(`${error.code} (${error.status}): ${error.message}`, 1);
  if (error instanceof ContentProblems) {
    return fail(`${error.message}${error.hint === undefined ? '' : `\n${error.hint}`}`, 1);
  }
  if (error instanceof BundleError) return fail(`bad bundle: ${error.message}`, 1);
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    return fail(`cannot reach ${source}${cause === undefined ? '' : `: ${cause}`}`, 1);
  }
  return fail(error instanceof Error ? error.message : String(error), 1);
}

/** The API's JSON, indented, one trailing newline. */
function json(body: unknown): string {
  return `${JSON.stringify(body, null, 2)}\n`;
}

/** A byte count in KiB or MiB. */
function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}
