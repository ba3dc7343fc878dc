/**
 * The AI features of the review inbox over HTTP (every member of the organisation may use them):
 *   POST v1/org/reviews/{id}/translate { language }   the review's title and body in that language (cached per review)
 *   GET  v1/org/reviews/{id}/draft-reply              the tone its app drafts in, and whether a language model is set
 *   POST v1/org/reviews/{id}/draft-reply { tone? }    a draft reply written by the language model; nothing is sent
 * Plan features: translation, and replies for drafts (402 naming the plan). Without a translator or a language model
 * the answer is a 503 whose message says which settings turn it on (the dashboard shows those words).
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { HttpError, notFound } from '../http/errors';
import { log } from '../log';
import { membershipOf } from '../org/membership';
import { assertFeature } from '../plans/features';
import { reviewIdParam } from '../replies/endpoints';
import { DRAFTS_NOT_CONFIGURED, REPLY_TONES } from '@/shared/ai';
import { REPLY_MAX_CHARS, type ReplyStore } from '@/shared/replies';
import { orgReview, setReplyTone, type OrgReview } from './data';
import { draftLanguage, draftReply, toneOf } from './drafts';
import { llmConfig } from './llm/config';
import { LlmError } from './llm/errors';
import { TranslationError, translateReviews } from './translate';

/** A translator's or the language model's failure as the API's answer: what to configure, or what went wrong. */
export function aiHttpError(err: unknown, context: Record<string, unknown>): unknown {
  if (err instanceof TranslationError) {
    if (err.status === 503) return new HttpError(503, 'translation_not_configured', err.message);
    log.warn('translation failed', { ...context, err: err.message });
    return new HttpError(502, 'translation_failed', `The translation failed: ${err.message}`);
  }
  if (err instanceof LlmError) {
    if (err.code === 'not_configured') return new HttpError(503, 'llm_not_configured', DRAFTS_NOT_CONFIGURED);
    if (err.code === 'budget') return new HttpError(429, 'llm_budget', err.message);
    log.warn('language model failed', { ...context, code: err.code, err: err.message });
    return new HttpError(502, 'llm_failed', `The language model did not answer: ${err.message}`);
  }
  return err;
}

async function reviewOfCaller(orgId: string, id: string): Promise<OrgReview> {
  const review = await orgReview(orgId, id);
  if (!review) throw notFound("No such review among your organisation's apps.");
  return review;
}

const translationShape = z.object({
  review_id: z.string(),
  language: z.string(),
  title: z.string().nullable(),
  body: z.string(),
  provider: z.enum(['libretranslate', 'deepl', 'google', 'llm', 'original']).meta({ description: 'Who translated it; original: the review is written in that language already.' }),
});

export const translateReviewEndpoint = endpoint({
  statuses: [402, 404, 502, 503],
  summary: "A review's title and body in another language (translated once, then answered from the cache until the review is edited)",
  tags: ['reviews'],
  auth: 'user',
  params: reviewIdParam,
  body: z.object({
    language: z
      .string('language must be a language code like "en".')
      .trim()
      .toLowerCase()
      .regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, 'language must be a language code like "en".')
      .meta({ description: 'The language to translate into (ISO 639-1, e.g. "en").' }),
  }),
  response: translationShape,
  handler: async ({ auth, params, body }) => {
    const m = await membershipOf(auth);
    const review = await reviewOfCaller(m.orgId, params.id);
    await assertFeature(m.orgId, 'translation');
    try {
      const [t] = await translateReviews([review.id], body.language, { orgId: m.orgId });
      return { review_id: String(t.reviewId), language: t.language, title: t.title, body: t.body, provider: t.provider as z.infer<typeof translationShape>['provider'] };
    } catch (err) {
      throw aiHttpError(err, { orgId: m.orgId, reviewId: review.id, language: body.language });
    }
  },
});

const toneField = z.enum(REPLY_TONES, `tone must be one of ${REPLY_TONES.join(', ')}.`);

export const draftInfoEndpoint = endpoint({
  statuses: [404],
  summary: "What a reply draft for the review would be: its app's tone, the review's language, the store's limit, and whether a language model is configured",
  tags: ['replies'],
  auth: 'user',
  params: reviewIdParam,
  response: z.object({
    tone: toneField,
    language: z.string(),
    max: z.number().meta({ description: "The store's limit in characters." }),
    language_model: z.boolean().meta({ description: 'false: drafting needs a language model; `not_configured` says which settings.' }),
    not_configured: z.string().nullable(),
  }),
  handler: async ({ auth, params }) => {
    const m = await membershipOf(auth);
    const review = await reviewOfCaller(m.orgId, params.id);
    const configured = !!llmConfig();
    return { tone: toneOf(review), language: draftLanguage(review), max: REPLY_MAX_CHARS[review.store as ReplyStore], language_model: configured, not_configured: configured ? null : DRAFTS_NOT_CONFIGURED };
  },
});

export const draftReplyEndpoint = endpoint({
  statuses: [402, 404, 502, 503],
  summary: "Draft a reply to the review with the language model, in the review's language and the app's tone (a tone given is kept for the app); nothing is sent",
  tags: ['replies'],
  auth: 'user',
  params: reviewIdParam,
  body: z.object({ tone: toneField.optional().meta({ description: "The tone to write in, kept as the app's tone from now on; the app's tone when absent." }) }),
  response: z.object({
    text: z.string(),
    tone: toneField,
    language: z.string(),
    characters: z.number(),
    max: z.number(),
    trimmed: z.boolean().meta({ description: "true: the model's reply was over the store's limit even when asked again, and was cut to fit." }),
  }),
  handler: async ({ auth, params, body }) => {
    const m = await membershipOf(auth);
    const review = await reviewOfCaller(m.orgId, params.id);
    await assertFeature(m.orgId, 'replies');
    const tone = body.tone ?? toneOf(review);
    if (body.tone && body.tone !== review.reply_tone) await setReplyTone(m.orgId, review.app_key, body.tone);
    try {
      return await draftReply(m.orgId, review, tone);
    } catch (err) {
      throw aiHttpError(err, { orgId: m.orgId, reviewId: review.id });
    }
  },
});
