/**
 * Review translation: one `Translator` from the environment — LibreTranslate (LIBRETRANSLATE_URL), DeepL
 * (DEEPL_API_KEY), Google Translate v2 (GOOGLE_TRANSLATE_API_KEY), the first one set — with the language model as the
 * fallback (alone when none is set, or when the service fails). Translations are cached per (review, language) in
 * review_translations, for the review's version they were made from: an edit is translated again.
 */
import { env } from '../../env';
import { log } from '../../log';
import { reviewTextsAndTranslations, storeTranslations } from '../data';
import { llmConfig } from '../llm/config';
import { deepl } from './deepl';
import { googleTranslate } from './google';
import { libreTranslate } from './libreTranslate';
import { llmTranslator } from './llm';
import { TranslationError, type Translator } from './types';
import { TRANSLATION_NOT_CONFIGURED } from '@/shared/ai';

export { TranslationError, type Language, type Translator } from './types';

export { TRANSLATION_NOT_CONFIGURED };

function serviceFromEnv(): Translator | null {
  const e = env();
  if (e.LIBRETRANSLATE_URL) return libreTranslate(e.LIBRETRANSLATE_URL, e.LIBRETRANSLATE_API_KEY);
  if (e.DEEPL_API_KEY) return deepl(e.DEEPL_API_KEY, e.DEEPL_API_BASE_URL);
  if (e.GOOGLE_TRANSLATE_API_KEY) return googleTranslate(e.GOOGLE_TRANSLATE_API_KEY, e.GOOGLE_TRANSLATE_BASE_URL);
  return null;
}

/** The translators to try, in order: the configured service, then the language model; empty when neither is set. */
export function translatorsFromEnv(orgId?: string | null): Translator[] {
  return [serviceFromEnv(), llmConfig() ? llmTranslator(orgId) : null].filter((t): t is Translator => !!t);
}

/** `translate` with each translator in turn: the first that answers, and its name. */
async function translateWithFallback(translators: Translator[], texts: string[], target: string, source?: string): Promise<{ out: string[]; by: Translator['name'] }> {
  for (const [i, t] of translators.entries()) {
    try {
      return { out: await t.translate(texts, target, source), by: t.name };
    } catch (err) {
      if (i === translators.length - 1) throw err;
      log.warn('translation failed, trying the next translator', { translator: t.name, next: translators[i + 1].name, err: (err as Error).message });
    }
  }
  throw new TranslationError(TRANSLATION_NOT_CONFIGURED, 503);
}

/** One translator for callers of the interface (the language model answers when the service fails), or null (then
 * say TRANSLATION_NOT_CONFIGURED). `orgId` pays for the model's tokens. */
export function translatorFromEnv(orgId?: string | null): Translator | null {
  const translators = translatorsFromEnv(orgId);
  if (translators.length < 2) return translators[0] ?? null;
  return { ...translators[0], translate: async (texts, target, source) => (await translateWithFallback(translators, texts, target, source)).out };
}

export type ReviewTranslation = { reviewId: number; language: string; title: string | null; body: string; provider: string };

/** The reviews' title and body in `language`: cached ones as they are, the rest translated (one call) and cached. */
export async function translateReviews(reviewIds: number[], language: string, opts: { orgId?: string | null } = {}): Promise<ReviewTranslation[]> {
  const target = language.toLowerCase();
  const { reviews, cached } = await reviewTextsAndTranslations(reviewIds, target);
  const done = new Map(cached.map((c) => [c.review_id, { reviewId: c.review_id, language: target, title: c.title, body: c.body, provider: c.provider }]));
  const missing = reviews.filter((r) => !done.has(r.id));
  if (missing.length) {
    const translators = translatorsFromEnv(opts.orgId);
    if (!translators.length) throw new TranslationError(TRANSLATION_NOT_CONFIGURED, 503);
    const rows: Parameters<typeof storeTranslations>[0] = [];
    // One call per source language, so a service that takes one source per request is given the right one.
    const bySource = new Map<string, typeof missing>();
    for (const r of missing) bySource.set(r.text_language ?? '', [...(bySource.get(r.text_language ?? '') ?? []), r]);
    for (const [source, group] of bySource) {
      if (source === target) {
        for (const r of group) rows.push({ review_id: r.id, language: target, review_version: r.version, title: r.title, body: r.body, provider: 'original' });
        continue;
      }
      const texts = group.flatMap((r) => [r.title ?? '', r.body]);
      const { out, by } = await translateWithFallback(translators, texts, target, source || undefined);
      group.forEach((r, i) => rows.push({ review_id: r.id, language: target, review_version: r.version, title: r.title ? out[2 * i] : null, body: out[2 * i + 1], provider: by }));
    }
    await storeTranslations(rows);
    for (const r of rows) done.set(r.review_id, { reviewId: r.review_id, language: target, title: r.title, body: r.body, provider: r.provider });
  }
  return reviewIds.filter((id) => done.has(id)).map((id) => done.get(id)!);
}
