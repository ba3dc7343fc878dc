/**
 * Replies and reply templates over HTTP:
 *   POST/DELETE v1/org/reviews/{id}/reply { text }          (dashboard; every member may reply)
 *   POST v1/apps/{store}__{appId}/reviews/{id}/reply { text } (public API, arb_ key)
 *   GET/POST v1/org/reply-templates · PATCH/DELETE v1/org/reply-templates/{id}
 * The answer of a reply is the reply as it stands after the first attempt: 200 when the store took it (pending_publish
 * or published), 202 while it waits for another attempt (sending); a refusal the sender must act on is a 422 whose
 * message says what to do (and the reply stays recorded as failed with the same words).
 */
import { z } from 'zod';
import { endpoint, type Ctx } from '../http/api';
import { HttpError, notFound } from '../http/errors';
import { displayName } from '../http/schemas';
import { membershipOf, type Membership } from '../org/membership';
import { parseAppKey } from '../orgApps/endpoints';
import { listActiveApiKeys } from '../apiKeys/data';
import type { ApiKeyCaller } from '../apiKeys/caller';
import type { ReplyRow, TemplateRow } from './data';
import { reviewForReply } from './data';
import { REPLY_STATES } from '@/shared/replies';
import { removeReply, saveDraft, sendReply, type ReplyActor } from './service';
import { addTemplate, changeTemplate, removeTemplate, templatesOf } from './templates';

const APP_KEY_WORDS = 'must be {app_store}__{app_id}, e.g. apple_app_store__284882215 or google_play_store__com.example.app.';
/** An app key ({app_store}__{app_id}), normalised. */
const appKeyField = z.string().transform((v, ctx) => {
  const key = parseAppKey(v);
  if (key === null) {
    ctx.addIssue({ code: 'custom', message: APP_KEY_WORDS });
    return z.NEVER;
  }
  return key;
});

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
/** Longer than any store allows: the store's own limit is checked with the review's store known. */
const TEXT_MAX = 10_000;

export const reviewIdParam = z.object({ id: z.string() }).transform(({ id }, ctx) => {
  if (!/^\d{1,18}$/.test(id)) ctx.addIssue({ code: 'custom', message: 'not a review id (digits).', path: ['id'] });
  return { id };
});

const replyBody = z.object({
  text: z.string('text must be a string.').max(TEXT_MAX, `a reply can be at most ${TEXT_MAX.toLocaleString('en-US')} characters (App Store 5,970, Google Play 350).`),
  draft: z.boolean('draft must be true or false.').optional().meta({ description: 'true: keep the text as a draft, send nothing.' }),
});

export const replyShape = z.object({
  id: z.string(),
  review_id: z.string(),
  state: z.enum(REPLY_STATES),
  text: z.string(),
  failure: z.string().nullable().meta({ description: 'Why it failed (state failed), or what it waits for (state sending), in plain words.' }),
  by: z.string(),
  replied_at: z.string().meta({ description: 'When it was sent to the store (or last changed, while not sent yet).' }),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
});

export const replyJson = (r: ReplyRow): z.infer<typeof replyShape> => ({
  id: r.id,
  review_id: String(r.review_id),
  state: r.state,
  text: r.text,
  failure: r.failure,
  by: r.author_label,
  replied_at: iso(r.sent_at ?? r.updated_at)!,
  attempts: r.attempts,
  next_attempt_at: r.state === 'sending' ? iso(r.next_attempt_at) : null,
});

/** The reply's answer: 200 taken, 202 waiting for another attempt, 422 refused (with the plain reason). */
export function answer(ctx: Ctx<unknown, unknown, unknown>, r: ReplyRow) {
  if (r.state === 'failed') throw new HttpError(422, 'reply_failed', r.failure ?? 'The store refused the reply.');
  ctx.status = r.state === 'sending' ? 202 : 200;
  return replyJson(r);
}

const personActor = (m: Membership): ReplyActor => ({ orgId: m.orgId, userId: m.userId, label: m.email, audit: { userId: m.userId, email: m.email } });

async function keyActor(k: ApiKeyCaller): Promise<ReplyActor> {
  const name = (await listActiveApiKeys(k.orgId)).find((x) => x.id === k.keyId)?.name ?? k.keyId;
  return { orgId: k.orgId, userId: null, label: `API key ${name}`, audit: null };
}

export const replyToReviewEndpoint = endpoint({
  statuses: [202, 402, 404, 409, 422, 502],
  summary: 'Reply to a review through the store (App Store Connect or the Google Play Developer API; replaces an earlier reply), or keep a draft',
  tags: ['replies'],
  auth: 'user',
  params: reviewIdParam,
  body: replyBody,
  response: replyShape,
  handler: async (ctx) => {
    const actor = personActor(await membershipOf(ctx.auth));
    if (ctx.body.draft) return replyJson(await saveDraft(actor, ctx.params.id, ctx.body.text));
    return answer(ctx as Ctx<unknown, unknown, unknown>, await sendReply(actor, ctx.params.id, ctx.body.text));
  },
});

export const removeReplyEndpoint = endpoint({
  statuses: [404, 409, 502],
  summary: "Delete the review's reply from the App Store (Google Play has no delete: send a new reply instead)",
  tags: ['replies'],
  auth: 'user',
  params: reviewIdParam,
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, params }) => {
    await removeReply(personActor(await membershipOf(auth)), params.id);
    return { ok: true as const };
  },
});

export const publicReplyEndpoint = endpoint({
  statuses: [202, 404, 409, 422, 502],
  summary: 'Reply to one of the app\'s reviews through the store (same rules and answers as the dashboard\'s reply)',
  tags: ['public API'],
  auth: 'api_key',
  params: z.object({ appKey: z.string(), id: z.string() }).transform(({ appKey, id }, ctx) => {
    const key = parseAppKey(appKey);
    if (key === null) ctx.addIssue({ code: 'custom', message: APP_KEY_WORDS, path: ['appKey'] });
    if (!/^\d{1,18}$/.test(id)) ctx.addIssue({ code: 'custom', message: 'not a review id (digits).', path: ['id'] });
    return { appKey: key ?? appKey, id };
  }),
  body: replyBody,
  response: replyShape,
  handler: async (ctx) => {
    const caller = ctx.apiKey!;
    const review = await reviewForReply(caller.orgId, ctx.params.id);
    if (!review || review.app_key !== ctx.params.appKey) throw notFound(`${ctx.params.appKey} has no review ${ctx.params.id} among this API key's organisation's apps. GET /api/v1/apps/${ctx.params.appKey}/reviews lists them.`);
    const actor = await keyActor(caller);
    if (ctx.body.draft) return replyJson(await saveDraft(actor, ctx.params.id, ctx.body.text));
    return answer(ctx as Ctx<unknown, unknown, unknown>, await sendReply(actor, ctx.params.id, ctx.body.text));
  },
});

// ── templates ───────────────────────────────────────────────────────────────────────────────────────────────────────

const TEMPLATE_ID = /^tpl_[0-9A-Za-z]{24}$/;
const templateIdParam = z.object({ id: z.string() }).transform(({ id }, ctx) => {
  if (!TEMPLATE_ID.test(id)) ctx.addIssue({ code: 'custom', message: 'not a template id (tpl_ followed by 24 letters and digits).', path: ['id'] });
  return { id };
});
const templateShape = z.object({ id: z.string(), app_key: z.string(), name: z.string(), body: z.string(), created_at: z.string(), updated_at: z.string() });
const templateJson = (t: TemplateRow): z.infer<typeof templateShape> => ({ id: t.id, app_key: t.app_key, name: t.name, body: t.body, created_at: iso(t.created_at)!, updated_at: iso(t.updated_at)! });
const templateText = z
  .string('body must be a string.')
  .trim()
  .min(1, 'write the template text.')
  .max(TEXT_MAX, `a template can be at most ${TEXT_MAX.toLocaleString('en-US')} characters.`)
  .meta({ description: 'The reply text; {author} and {app} are replaced by the reviewer\'s name and the app\'s title.' });

export const listTemplatesEndpoint = endpoint({
  summary: "The organisation's reply templates, of one app (`app`) or all",
  tags: ['replies'],
  auth: 'user',
  query: z.object({ app: appKeyField.optional() }),
  response: z.array(templateShape),
  handler: async ({ auth, query }) => (await templatesOf(await membershipOf(auth), query.app)).map(templateJson),
});

export const createTemplateEndpoint = endpoint({
  statuses: [201, 404],
  summary: 'Save a reply template for an app',
  tags: ['replies'],
  auth: 'user',
  body: z.object({
    app_key: appKeyField,
    name: displayName('Give the template a name, e.g. "Thanks for the kind words".'),
    body: templateText,
  }),
  response: templateShape,
  handler: async (ctx) => {
    const t = await addTemplate(await membershipOf(ctx.auth), { appKey: ctx.body.app_key, name: ctx.body.name, body: ctx.body.body });
    ctx.status = 201;
    return templateJson(t);
  },
});

export const changeTemplateEndpoint = endpoint({
  statuses: [404],
  summary: "Change a reply template's name or text",
  tags: ['replies'],
  auth: 'user',
  params: templateIdParam,
  body: z
    .object({ name: displayName('The name cannot be empty.').optional(), body: templateText.optional() })
    .refine((b) => b.name !== undefined || b.body !== undefined, { message: 'Send a name, a body or both.' }),
  response: templateShape,
  handler: async ({ auth, params, body }) => templateJson(await changeTemplate(await membershipOf(auth), params.id, body)),
});

export const deleteTemplateEndpoint = endpoint({
  statuses: [404],
  summary: 'Delete a reply template',
  tags: ['replies'],
  auth: 'user',
  params: templateIdParam,
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, params }) => {
    await removeTemplate(await membershipOf(auth), params.id);
    return { ok: true as const };
  },
});
