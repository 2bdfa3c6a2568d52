/**
 * Feeds for people (docs/api.md "Changes"): `feed.json` (JSON Feed 1.1) and `feed.xml` (Atom,
 * RFC 4287) at the site root, the latest `FEED_ITEMS` skills added or updated according to the
 * change log, newest first, one item per skill (its latest change). A skill since removed, or
 * left out by `--skip-invalid`, has no item. Each item links to the skill's page of the demo site
 * and to its API URL, both under the build's base path (path-absolute: the build does not know
 * the host name). Deterministic: the feeds depend only on the log, the skills and the base.
 */
import { createHash } from 'node:crypto';
import type { ChangeEntry } from '../src/schemas.ts';
import { API_PREFIX } from '../src/paths.ts';
import type { SkillRecord } from './model.ts';

/** Files the build writes at the site root. */
export const JSON_FEED_PATH = 'feed.json';
export const ATOM_FEED_PATH = 'feed.xml';
/** Items per feed. */
export const FEED_ITEMS = 50;

const TITLE = 'Skills Directory: new and updated skills';

/** One item: the change and the skill as built now. */
interface FeedItem {
  entry: ChangeEntry;
  skill: SkillRecord;
  page: string;
  api: string;
  /** A stable id of the item: this change (its cursor), so a skill changed back to an earlier state is a new item. */
  uid: string;
}

/** The latest added or updated skills that the build holds, newest first, one per skill. */
function feedItems(entries: readonly ChangeEntry[], skills: readonly SkillRecord[], base: string): FeedItem[] {
  const byId = new Map(skills.map((skill) => [skill.id, skill]));
  const seen = new Set<string>();
  const items: FeedItem[] = [];
  for (let i = entries.length - 1; i >= 0 && items.length < FEED_ITEMS; i--) {
    const entry = entries[i]!;
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    const skill = byId.get(entry.id);
    if (entry.change === 'removed' || skill === undefined) continue;
    const path = `${encodeURIComponent(skill.owner)}/${encodeURIComponent(skill.repo)}`;
    items.push({ entry, skill, page: `${base}#/skills/${path}`, api: `${base}${API_PREFIX}/skills/${path}`, uid: uuidUrn(`${entry.cursor}\n${entry.id}\n${entry.sha256}`) });
  }
  return items;
}

/** The JSON Feed 1.1 document (https://jsonfeed.org/version/1.1). */
export function jsonFeed(entries: readonly ChangeEntry[], skills: readonly SkillRecord[], base: string): string {
  const items = feedItems(entries, skills, base);
  return `${JSON.stringify(
    {
      version: 'https://jsonfeed.org/version/1.1',
      title: TITLE,
      home_page_url: base,
      feed_url: `${base}${JSON_FEED_PATH}`,
      description: 'Skills added to or updated in the directory, newest first. The full history is the change log at /api/v1/changes.',
      language: 'en',
      items: items.map(({ entry, skill, page, api, uid }) => ({
        id: uid,
        url: page,
        external_url: api,
        title: itemTitle(entry, skill),
        content_text: skill.description,
        summary: skill.description,
        date_published: entry.at,
        authors: [{ name: skill.author.name }],
        tags: skill.categories,
        _skills_api: { id: skill.id, change: entry.change, cursor: entry.cursor, sha256: entry.sha256, api_url: api },
      })),
    },
    null,
    2,
  )}\n`;
}

/** The Atom feed (RFC 4287), every text escaped and stripped of characters XML 1.0 cannot hold. */
export function atomFeed(entries: readonly ChangeEntry[], skills: readonly SkillRecord[], base: string): string {
  const items = feedItems(entries, skills, base);
  // Atom requires `updated`: the newest change, or the epoch for an empty log.
  const updated = entries.at(-1)?.at ?? '1970-01-01T00:00:00.000Z';
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${uuidUrn(`skills-api feed\n${base}`)}</id>`,
    `  <title>${text(TITLE)}</title>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>Skills Directory</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${attr(`${base}${ATOM_FEED_PATH}`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${attr(base)}"/>`,
    ...items.flatMap(({ entry, skill, page, api, uid }) => [
      '  <entry>',
      `    <id>${uid}</id>`,
      `    <title>${text(itemTitle(entry, skill))}</title>`,
      `    <updated>${entry.at}</updated>`,
      `    <author><name>${text(skill.author.name)}</name></author>`,
      `    <link rel="alternate" type="text/html" href="${attr(page)}"/>`,
      `    <link rel="related" type="application/json" href="${attr(api)}"/>`,
      ...skill.categories.map((slug) => `    <category term="${attr(slug)}"/>`),
      `    <summary>${text(skill.description)}</summary>`,
      '  </entry>',
    ]),
    '</feed>',
  ];
  return `${lines.join('\n')}\n`;
}

function itemTitle(entry: ChangeEntry, skill: SkillRecord): string {
  return `${skill.name} (${skill.id}) ${entry.change === 'added' ? 'added' : 'updated'}`;
}

/** Characters XML 1.0 cannot hold at all (controls other than tab, LF, CR; lone surrogates; U+FFFE/U+FFFF). */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Element text: those characters dropped, `&` and `<` (and `>`, for `]]>`) escaped. */
export function text(value: string): string {
  return value.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A double-quoted attribute value: as `text`, plus `"`, and tab/LF/CR kept through normalization. */
function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** A `urn:uuid:` made from a SHA-256 of `seed` (version 8 bits set): stable, and a valid IRI for Atom's ids. */
function uuidUrn(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
