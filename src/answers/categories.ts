/** Answers of the category routes (src/endpoints.ts). */
import { LOCALE_QUERY, type AnswerContext, type LIST_QUERY } from '../endpoints.ts';
import { ApiError } from '../errors.ts';
import { answerList, readListQuery } from '../lists.ts';
import type { Manifest } from '../manifest.ts';
import { readQuery } from '../param-spec.ts';
import { quote } from '../params.ts';
import { DEFAULT_LOCALE, categoriesPath, categoryPath } from '../paths.ts';
import { envelope } from './files.ts';

type LocaleContext<P extends string> = AnswerContext<P, typeof LOCALE_QUERY>;

/** `GET /api/v1/categories`. */
export async function listCategories({ load, manifest, query }: LocaleContext<'/'>) {
  const path = categoriesPath(resolveLocale(query().locale, manifest));
  return { json: envelope(await load(path), path) };
}

/** `GET /api/v1/categories/:slug`: an unknown slug is NOT_FOUND before any parameter is read. */
export async function getCategory({ load, manifest, query, path: { slug } }: LocaleContext<'/:slug'>) {
  knownCategory(manifest, slug);
  const path = categoryPath(slug, resolveLocale(query().locale, manifest));
  return { json: envelope(await load(path), path) };
}

/** `GET /api/v1/categories/:slug/skills`: the list with the category as one more filter. */
export async function listCategorySkills({ load, manifest, url, path: { slug } }: AnswerContext<'/:slug', typeof LIST_QUERY>) {
  knownCategory(manifest, slug);
  return { json: await answerList(load, manifest, readListQuery(url.searchParams, manifest, slug)) };
}

function knownCategory(manifest: Manifest, slug: string): void {
  if (!manifest.categories.includes(slug)) throw new ApiError('NOT_FOUND', `No category ${quote(slug)}`);
}

/**
 * The locale to answer in: `locale` must be well-formed (else INVALID_PARAMS); it is matched
 * case-insensitively against the built locales, dropping subtags from the end (`de-AT` → `de`),
 * and falls back to `en` when nothing matches (docs/api.md "Parameters").
 */
export function readLocale(params: URLSearchParams, manifest: Pick<Manifest, 'locales'>): string {
  return resolveLocale(readQuery(LOCALE_QUERY, params, null).locale, manifest);
}

function resolveLocale(locale: string, manifest: Pick<Manifest, 'locales'>): string {
  for (let tag = locale.toLowerCase(); ; tag = tag.slice(0, tag.lastIndexOf('-'))) {
    const found = manifest.locales.find((known) => known.toLowerCase() === tag);
    if (found !== undefined) return found;
    if (!tag.includes('-')) return DEFAULT_LOCALE;
  }
}
