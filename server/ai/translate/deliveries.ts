/**
 * Translations for the messages a destination receives (its `translate_to`): the reviews of one queue batch
 * translated in one call (and cached per review and language, so a retried or re-sent message asks nobody again).
 *
 * A message never waits for a translation: without the plan's translation feature, without a translator, or when
 * the translator fails (down, over the organisation's language-model budget), the review goes out untranslated and
 * the reason is logged. A review already written in the destination's language gets no translation line.
 */
import { log } from '../../log';
import { assertFeature } from '../../plans/features';
import { translateReviews, translatorsFromEnv, type ReviewTranslation } from './index';

export type DeliveryTranslations = Map<number, ReviewTranslation>;

/**
 * Translations being made in this process, by review and language: the destinations of one review are sent to in
 * parallel, and each would otherwise ask the translator for the same review before the first answer is cached.
 */
const inFlight = new Map<string, Promise<ReviewTranslation | undefined>>();

async function translateOnce(ids: number[], language: string, orgId: string): Promise<Array<ReviewTranslation | undefined>> {
  const key = (id: number) => `${language}:${id}`;
  const missing = ids.filter((id) => !inFlight.has(key(id)));
  if (missing.length) {
    const call = translateReviews(missing, language, { orgId });
    for (const id of missing) {
      const one = call.then((all) => all.find((t) => t.reviewId === id));
      inFlight.set(key(id), one);
      void one.catch(() => undefined).finally(() => inFlight.delete(key(id)));
    }
  }
  return Promise.all(ids.map((id) => inFlight.get(key(id)) ?? Promise.resolve(undefined)));
}

/** The translations into `language` of `reviewIds` for organisation `orgId`'s destination; those it could make. */
export async function translationsForDelivery(orgId: string | null, language: string, reviewIds: number[]): Promise<DeliveryTranslations> {
  const out: DeliveryTranslations = new Map();
  const ids = [...new Set(reviewIds)];
  // Only an organisation's admins set translate_to, and translation is a feature of its plan.
  if (!orgId || !ids.length || !translatorsFromEnv().length) return out;
  try {
    await assertFeature(orgId, 'translation');
  } catch {
    return out;
  }
  try {
    for (const t of await translateOnce(ids, language, orgId)) if (t && t.provider !== 'original') out.set(t.reviewId, t);
  } catch (err) {
    log.warn('reviews sent without their translation', { language, reviews: ids.length, err: (err as Error).message });
  }
  return out;
}
