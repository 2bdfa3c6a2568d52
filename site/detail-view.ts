/**
 * The view of one skill (`#/skills/:owner/:repo`): its facts, install commands, SKILL.md, files,
 * quality signals, integrity and statistics.
 */
import { siteBasePath } from '../src/browser-api.ts';
import { apiFetch } from '../src/page-api.ts';
import type { SkillContent, SkillDetail, SkillStats } from '../src/schemas.ts';
import { starChart } from './chart.ts';
import { append, h, renderMarkdown } from './render.ts';
import { badge, bytes, categoryNames, chips, compact, count, date, get, number, platformName, t } from './page-common.ts';

/** Render the skill `owner/repo` into `view` (its detail, stats and SKILL.md asked at once). */
export async function detailView(view: HTMLElement, owner: string, repo: string): Promise<void> {
  const path = `skills/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  const [detailBody, stats, content, names] = await Promise.all([
    get<{ data: SkillDetail }>(path),
    get<{ data: SkillStats }>(`${path}/stats`).then((b) => b.data, () => null),
    get<{ data: SkillContent }>(`${path}/content`).then((b) => b.data, () => null),
    categoryNames(),
  ]);
  const skill = detailBody.data;
  document.title = `${skill.name} · ${t.brand}`;

  const rendered = h('article', { class: 'markdown' }, renderMarkdown(skill.content));
  const filesPanel = skill.files === undefined ? null : skillFilesPanel(skill);
  // Links in SKILL.md to the skill's own files (`reference.md`, `scripts/x.py`) open them here.
  if (filesPanel !== null) linkSiblingFiles(rendered, skill, filesPanel);
  const raw = h('pre', { class: 'raw', hidden: true, tabindex: '0' }, content?.content ?? skill.content);
  const tab = (label: string, show: HTMLElement, hide: HTMLElement): HTMLButtonElement => {
    const button = h('button', {
      type: 'button',
      role: 'tab',
      'aria-selected': show === rendered ? 'true' : 'false',
      onclick: () => {
        show.hidden = false;
        hide.hidden = true;
        for (const other of button.parentElement!.children) other.setAttribute('aria-selected', other === button ? 'true' : 'false');
      },
    }, label);
    return button;
  };

  append(view, [
    h('nav', { class: 'crumbs', 'aria-label': t.breadcrumb }, h('a', { href: '#/' }, t.navSkills), ' / ', skill.owner, ' / ', skill.repo),
    h(
      'header',
      { class: 'detail-head' },
      avatar(skill.author),
      h('div', { class: 'title' }, h('h1', null, skill.name), h('p', { class: 'id' }, `${skill.id} · ${t.byAuthor(skill.author.name)}`)),
      h('div', { class: 'big-stars', title: count(skill.stars, t.starCount), 'aria-label': count(skill.stars, t.starCount) }, h('span', { class: 'star', 'aria-hidden': 'true' }, '★'), ` ${number(skill.stars)}`),
    ),
    h('p', { class: 'lede' }, skill.description),
    h(
      'div',
      { class: 'detail-grid' },
      h(
        'div',
        { class: 'detail-main' },
        h(
          'section',
          { class: 'panel install' },
          h('h2', null, t.install),
          // From the directory itself: the discovery index the build writes for this skill.
          skill.files === undefined ? null : installRow('directory', `npx skills add ${directoryUrl()}skills/${skill.owner}/${skill.repo}`, t.fromDirectory),
          ...Object.entries(skill.installCommands).map(([platform, command]) => installRow(platform, command)),
        ),
        h(
          'section',
          { class: 'panel readme' },
          h('div', { class: 'panel-head' }, h('h2', null, 'SKILL.md'), h('div', { class: 'tabs', role: 'tablist' }, tab(t.rendered, rendered, raw), tab(t.raw, raw, rendered))),
          rendered,
          raw,
          content === null ? null : h('p', { class: 'fineprint' }, `${bytes(content.size)} · sha256 ${content.sha.slice(0, 12)}…`),
        ),
        filesPanel,
      ),
      h(
        'aside',
        { class: 'detail-side' },
        h(
          'section',
          { class: 'panel facts' },
          h('h2', null, t.about),
          h(
            'dl',
            null,
            ...fact(t.stars, number(skill.stars)),
            ...fact(t.forks, number(skill.forks)),
            ...fact(t.watchers, number(skill.watchers)),
            ...fact(t.openIssues, number(skill.openIssues)),
            ...fact(t.license, skill.license),
            ...fact(t.created, date(skill.createdAt)),
            ...fact(t.updated, date(skill.updatedAt)),
            ...fact(t.lastPush, date(skill.pushedAt)),
            ...fact(t.platforms, skill.platforms.map(platformName).join(', ')),
          ),
          chips(skill.categories, names),
        ),
        skill.source === undefined ? null : sourcePanel(skill.source),
        skill.archive === undefined ? null : integrityPanel(skill),
        skill.checks === undefined ? null : checksPanel(skill.checks),
        stats === null ? null : statsPanel(stats),
      ),
    ),
  ]);
}

/** Where an imported skill lives: the repository (linked when it is a web address), folder, commit, plugin. */
function sourcePanel(source: NonNullable<SkillDetail['source']>): HTMLElement {
  const web = /^https?:\/\//.test(source.repository);
  const tree = web && source.repository.startsWith('https://github.com/') ? `${source.repository}/tree/${source.commit}/${source.path === '.' ? '' : source.path}` : undefined;
  return h(
    'section',
    { class: 'panel source' },
    h('h2', null, t.source),
    h(
      'dl',
      null,
      h('dt', null, t.repository),
      h('dd', null, web ? h('a', { href: source.repository, rel: 'noopener nofollow' }, ...breakAtSlashes(source.repository.replace(/^https?:\/\/(www\.)?/, ''))) : source.repository),
      h('dt', null, t.folder),
      h('dd', null, tree === undefined ? h('code', null, source.path) : h('a', { href: tree, rel: 'noopener nofollow' }, h('code', null, source.path))),
      h('dt', null, t.commit),
      h('dd', null, h('code', { title: source.commit }, source.commit.slice(0, 12))),
      ...(source.plugin === undefined ? [] : [h('dt', null, t.plugin), h('dd', null, `${source.plugin.name}@${source.plugin.marketplace}`)]),
    ),
  );
}

/** Profile names as people know them. */
const profileName = (profile: string): string => ({ agentskills: t.profileSpec, 'claude-code': 'Claude Code', 'claude-ai': t.profileUpload, codex: 'Codex' })[profile] ?? profile;

/** The text of an HTML-escaped excerpt (shown as text, never parsed as markup). */
function unescapeExcerpt(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
}

/** Quality signals: a badge per profile, flags and copies, the details in an expandable list. Advice: "review". */
function checksPanel(checks: NonNullable<SkillDetail['checks']>): HTMLElement {
  const profiles = Object.entries(checks.profiles);
  const serious = checks.flags.filter((f) => f.severity !== 'low');
  const problems = profiles.flatMap(([profile, result]) => result.problems.map((p) => h('li', null, h('strong', null, profileName(profile)), `: ${p.message}`)));
  return h(
    'section',
    { class: 'panel checks' },
    h('h2', null, t.checks),
    h(
      'ul',
      { class: 'check-badges', 'aria-label': t.loadsIn },
      ...profiles.map(([profile, result]) =>
        h('li', { class: result.pass ? 'pass' : 'review', title: result.pass ? t.passes : count(result.problems.length, t.toReview) }, `${result.pass ? '✓' : '!'} ${profileName(profile)}`),
      ),
    ),
    checks.duplicateOf === undefined ? null : h('p', { class: 'copy-of' }, `${t.copyOf} `, h('a', { href: `#/skills/${checks.duplicateOf}` }, checks.duplicateOf)),
    checks.similar === undefined ? null : h('p', { class: 'copy-of' }, `${t.similarTo} `, ...checks.similar.flatMap((id, i) => [i > 0 ? ', ' : '', h('a', { href: `#/skills/${id}` }, id)])),
    h('p', { class: 'flag-count' }, serious.length === 0 ? t.noFlags : count(serious.length, t.flagsToReview)),
    problems.length === 0 && checks.flags.length === 0
      ? null
      : h(
          'details',
          null,
          h('summary', null, t.details),
          problems.length === 0 ? null : h('ul', { class: 'problems' }, ...problems),
          checks.flags.length === 0
            ? null
            : h(
                'ul',
                { class: 'flags' },
                ...checks.flags.map((f) =>
                  h('li', { class: `severity-${f.severity}` }, h('strong', null, t.severity[f.severity] ?? f.severity), ` ${f.message}${f.line > 0 ? ` (${t.atLine(number(f.line))})` : ''}`, h('code', null, unescapeExcerpt(f.excerpt))),
                ),
              ),
        ),
  );
}

function fact(label: string, value: string): HTMLElement[] {
  return [h('dt', null, label), h('dd', null, value)];
}

function avatar(author: SkillDetail['author']): HTMLElement {
  const fallback = badge(author.name, author.name, 'avatar');
  let url: URL | undefined;
  try {
    url = new URL(author.avatar);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:') return fallback;
  const image = h('img', { src: url.href, alt: '', class: 'avatar', width: 56, height: 56, loading: 'lazy', referrerpolicy: 'no-referrer' });
  image.addEventListener('error', () => image.replaceWith(fallback), { once: true });
  return image;
}

/** The URL of the site the page is served from (origin and base path, ending in `/`). */
function directoryUrl(): string {
  return `${location.origin}${siteBasePath()}`;
}

/** `text` with a line-break opportunity after each `/`, so long paths wrap there and not mid-word. */
function breakAtSlashes(text: string): (string | HTMLElement)[] {
  return text.split('/').flatMap((part, i) => (i === 0 ? [part] : ['/', h('wbr'), part]));
}

/** The URL of one file of a skill (each path segment encoded), or its archive. */
function fileUrl(skill: SkillDetail, path: string): string {
  return `${siteBasePath()}api/v1/skills/${encodeURIComponent(skill.owner)}/${encodeURIComponent(skill.repo)}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** Files shown as text in the page: up to 256 KB. */
const MAX_VIEW_BYTES = 256 * 1024;

/**
 * Every file of the skill's folder: path, size, a view of a text file (fetched when opened,
 * through the same API as everything else), and the folder's archive to download.
 */
function skillFilesPanel(skill: SkillDetail): HTMLElement {
  const files = skill.files ?? [];
  const rows = files.map((file) => {
    const body = h('pre', { class: 'file-text', tabindex: '0' });
    const details = h('details', { class: 'file', 'data-path': file.path }, h('summary', null, h('code', null, ...breakAtSlashes(file.path)), h('span', { class: 'size' }, bytes(file.size))), body);
    let loaded = false;
    details.addEventListener('toggle', () => {
      if (!details.open || loaded) return;
      loaded = true;
      if (file.size > MAX_VIEW_BYTES) {
        body.replaceChildren(h('a', { href: fileUrl(skill, file.path), download: file.path.split('/').pop() }, t.binaryFile));
        return;
      }
      body.textContent = t.loading;
      void apiFetch(fileUrl(skill, file.path).slice(`${siteBasePath()}api/v1/`.length))
        .then((response) => (response.ok ? response.arrayBuffer() : Promise.reject(new Error(String(response.status)))))
        .then((buffer) => {
          const data = new Uint8Array(buffer);
          let text: string | undefined;
          try {
            text = data.includes(0) ? undefined : new TextDecoder('utf-8', { fatal: true }).decode(data);
          } catch {
            text = undefined;
          }
          if (text !== undefined) body.textContent = text;
          else body.replaceChildren(h('a', { href: fileUrl(skill, file.path), download: file.path.split('/').pop() }, t.binaryFile));
        })
        .catch(() => (body.textContent = t.failures.DEFAULT![0]));
    });
    return h('li', null, details);
  });
  return h(
    'section',
    { class: 'panel files' },
    h('div', { class: 'panel-head' }, h('h2', null, t.files), h('span', { class: 'fineprint' }, count(files.length, t.fileCount))),
    h('ul', { class: 'file-list' }, ...rows),
    skill.archive === undefined ? null : h('p', null, h('a', { href: `${siteBasePath()}api/v1/skills/${encodeURIComponent(skill.owner)}/${encodeURIComponent(skill.repo)}/archive.tar.gz`, download: `${skill.repo}.tar.gz`, class: 'download' }, t.downloadArchive), ` · ${bytes(skill.archive.size)}`),
  );
}

/** Relative links of the rendered SKILL.md that name a file of the skill open that file in the files panel. */
function linkSiblingFiles(rendered: HTMLElement, skill: SkillDetail, panel: HTMLElement): void {
  const paths = new Set((skill.files ?? []).map((f) => f.path));
  for (const link of rendered.querySelectorAll('a[data-href]')) {
    const href = link.getAttribute('data-href') ?? '';
    let path: string;
    try {
      path = decodeURIComponent(href.replace(/^\.\//, '').split(/[?#]/)[0]!);
    } catch {
      continue;
    }
    if (!paths.has(path)) continue;
    link.setAttribute('href', fileUrl(skill, path));
    link.addEventListener('click', (event) => {
      const details = [...panel.querySelectorAll<HTMLDetailsElement>('details.file')].find((d) => d.dataset.path === path);
      if (details === undefined) return;
      event.preventDefault();
      details.open = true;
      details.scrollIntoView({ block: 'start' });
      details.querySelector('summary')?.focus();
    });
  }
}

/** What the directory serves, to check an install against: the commit and the archive's SHA-256. */
function integrityPanel(skill: SkillDetail): HTMLElement {
  return h(
    'section',
    { class: 'panel integrity' },
    h('h2', null, t.integrity),
    h(
      'dl',
      null,
      ...(skill.source === undefined ? [] : [h('dt', null, t.commit), h('dd', null, h('code', { class: 'hash' }, skill.source.commit))]),
      h('dt', null, t.archiveSha),
      h('dd', null, h('code', { class: 'hash' }, skill.archive!.sha256)),
    ),
  );
}

function installRow(platform: string, command: string, label = platformName(platform)): HTMLElement {
  const code = h('code', null, command);
  const copy = t.copy;
  const button = h('button', { type: 'button', class: 'copy', 'aria-label': t.copyCommand(label) }, copy);
  // Said aloud by screen readers when the copy is done (the button's own text changes too).
  const status = h('span', { class: 'visually-hidden', role: 'status' });
  button.addEventListener('click', () => {
    const done = (text: string): void => {
      button.textContent = text;
      status.textContent = text;
      setTimeout(() => (button.textContent = copy), 1500);
    };
    // `navigator.clipboard` is missing outside secure contexts.
    (navigator.clipboard?.writeText(command) ?? Promise.reject(new Error('no clipboard'))).then(
      () => done(t.copied),
      () => {
        // No clipboard access (permissions, insecure context): select the text for a manual copy.
        getSelection()?.selectAllChildren(code);
        done(t.pressCopy);
      },
    );
  });
  return h('div', { class: 'install-row', 'data-platform': platform }, h('span', { class: 'platform' }, label), h('div', { class: 'command', tabindex: '0', role: 'group', 'aria-label': label }, code), button, status);
}

function statsPanel(stats: SkillStats): HTMLElement {
  return h(
    'section',
    { class: 'panel stats' },
    h('h2', null, t.usage),
    h(
      'div',
      { class: 'numbers' },
      ...[
        [t.views, stats.views],
        [t.installs, stats.installs],
        [t.favorites, stats.favorites],
      ].map(([label, value]) => h('div', null, h('strong', null, compact(value as number)), h('span', null, label as string))),
    ),
    h('h3', null, t.starHistory),
    stats.starHistory.length === 0 ? h('p', { class: 'empty' }, t.noStarHistory) : starChart(stats.starHistory, compact),
  );
}
