/**
 * Replies that rules drafted, over HTTP (server/replies/ruleReplies.ts):
 *   GET  v1/org/replies?state=awaiting_approval&limit&starting_after   the organisation's replies in a state, newest first
 *   POST v1/org/replies/{id}/approve { text? }   the draft (or the edited text, checked against the store's limit) is
 *                                                sent through the outbox: 200 taken, 202 waiting, 422 refused
 *   POST v1/org/replies/{id}/reject              kept as rejected, never sent
 *   GET  v1/org/reply-pauses                     apps whose automatic replies are paused, and why
 *   DELETE v1/org/reply-pauses/{appKey}          lifts a pause (admins and owners)
 * Every member may list, approve and reject: approving a reply is replying, which is a member's work
 * (shared/orgRoles.ts); lifting a pause follows fixing the app's store credentials, which admins manage.
 */
import { z } from 'zod';
import { endpoint, pageAnswer, type Ctx } from '../http/api';
import { membershipOf, requireRole } from '../org/membership';
import { parseAppKey } from '../orgApps/endpoints';
import { REPLY_MAX_CHARS, REPLY_STATES, type ReplyStore } from '@/shared/replies';
import { answer, replyJson, replyShape } from './endpoints';
import type { ListedReply } from './ruleData';
import { approveReply, approverOf, listedReplyOrNotFound, rejectReply, repliesInState } from './ruleReplies';
import { liftPause, pausesOf } from './pauses';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const REPLY_ID = /^rpl_[0-9A-Za-z]{24}$/;

const replyIdParam = z.object({ id: z.string() }).transform(({ id }, ctx) => {
  if (!REPLY_ID.test(id)) ctx.addIssue({ code: 'custom', message: 'not a reply id (rpl_ followed by 24 letters and digits).', path: ['id'] });
  return { id };
});

const listedShape = replyShape.extend({
  created_at: z.string(),
  rule: z.object({ id: z.string(), name: z.string(), mode: z.enum(['auto', 'approval']) }).nullable().meta({ description: 'The rule that drafted it; null for a reply a person wrote.' }),
  drafted_by: z.enum(['template', 'model']).nullable().meta({ description: "What wrote a rule's draft: its template filled in, or the language model with the template as its guide." }),
  template_id: z.string().nullable(),
  decided_by: z.string().nullable().meta({ description: 'Who approved or rejected it (an e-mail address).' }),
  decided_at: z.string().nullable(),
  max_characters: z.number().meta({ description: "The store's limit for this reply (App Store 5,970, Google Play 350)." }),
  review: z.object({
    app_key: z.string(),
    app_title: z.string(),
    app_store: z.string(),
    author_display_name: z.string(),
    content_rating: z.number(),
    content_title: z.string().nullable(),
    content_body: z.string(),
    language: z.string().nullable(),
    content_updated_at: z.string(),
    reply_text: z.string().nullable().meta({ description: 'The reply the store shows now (written anywhere), if any.' }),
  }),
});

const listedJson = (r: ListedReply): z.input<typeof listedShape> => ({
  ...replyJson(r),
  created_at: iso(r.created_at)!,
  rule: r.rule_id ? { id: r.rule_id, name: r.rule_name ?? '', mode: r.rule_mode ?? 'approval' } : null,
  drafted_by: r.drafted_by,
  template_id: r.template_id,
  decided_by: r.decided_by_label,
  decided_at: iso(r.decided_at),
  max_characters: REPLY_MAX_CHARS[r.store as ReplyStore] ?? REPLY_MAX_CHARS.google_play_store,
  review: {
    app_key: r.app_key,
    app_title: r.app_title,
    app_store: r.store,
    author_display_name: r.author_name,
    content_rating: r.rating,
    content_title: r.review_title,
    content_body: r.review_body,
    language: r.review_language,
    content_updated_at: iso(r.review_updated_at_now)!,
    reply_text: r.store_reply_text,
  },
});

export const listRepliesEndpoint = endpoint({
  summary: "The organisation's replies in one state (default awaiting_approval: rules' drafts waiting for a person), newest first",
  tags: ['replies'],
  auth: 'user',
  query: z.object({
    state: z.enum(REPLY_STATES, `state must be one of ${REPLY_STATES.join(', ')}.`).default('awaiting_approval'),
    limit: z.coerce.number('limit must be a number.').int('limit must be a whole number.').min(1, 'limit must be 1 to 100.').max(100, 'limit must be 1 to 100.').default(25),
    starting_after: z.string().regex(REPLY_ID, 'starting_after must be the id of a reply (rpl_…).').optional(),
  }),
  response: z.array(listedShape),
  paged: true,
  handler: async ({ auth, query }) => {
    const page = await repliesInState(await membershipOf(auth), query.state, query.limit, query.starting_after);
    return pageAnswer(page.data.map(listedJson), page.has_more);
  },
});

export const approveReplyEndpoint = endpoint({
  statuses: [202, 402, 404, 409, 422, 502],
  summary: "Approve a rule's draft reply (optionally with an edited text): it is sent through the store as any reply",
  tags: ['replies'],
  auth: 'user',
  params: replyIdParam,
  body: z.object({
    text: z
      .string('text must be a string.')
      .max(10_000, 'a reply can be at most 10,000 characters (App Store 5,970, Google Play 350).')
      .optional()
      .meta({ description: "The reply to send instead of the draft (checked against the store's limit)." }),
  }),
  response: listedShape,
  handler: async (ctx) => {
    const m = await membershipOf(ctx.auth);
    const row = await approveReply(approverOf(m), ctx.params.id, ctx.body.text);
    answer(ctx as Ctx<unknown, unknown, unknown>, row);
    return listedJson(await listedReplyOrNotFound(m.orgId, row.id));
  },
});

export const rejectReplyEndpoint = endpoint({
  statuses: [404, 409],
  summary: "Reject a rule's draft reply: it is never sent, and the rule drafts no other for that review",
  tags: ['replies'],
  auth: 'user',
  params: replyIdParam,
  response: listedShape,
  handler: async ({ auth, params }) => {
    const m = await membershipOf(auth);
    const row = await rejectReply(approverOf(m), params.id);
    return listedJson(await listedReplyOrNotFound(m.orgId, row.id));
  },
});

const pauseShape = z.object({
  app_key: z.string(),
  app_title: z.string().nullable(),
  kind: z.enum(['credentials', 'quota']),
  reason: z.string().meta({ description: "Why the store refused the app's replies, in plain words." }),
  since: z.string(),
  until: z.string().nullable().meta({ description: "When the pause ends by itself (a quota's reset); null: until it is lifted." }),
});

export const listReplyPausesEndpoint = endpoint({
  summary: 'Apps whose automatic replies are paused because the store refused a reply (credentials, quota), and why',
  tags: ['replies'],
  auth: 'user',
  response: z.array(pauseShape),
  handler: async ({ auth }) => pausesOf(await membershipOf(auth)),
});

export const liftReplyPauseEndpoint = endpoint({
  statuses: [404],
  summary: "Resume an app's automatic replies once its store credentials are fixed (admins and owners)",
  tags: ['replies'],
  auth: 'user',
  params: z.object({ appKey: z.string() }).transform(({ appKey }, ctx) => {
    const key = parseAppKey(appKey);
    if (key === null) ctx.addIssue({ code: 'custom', message: 'must be {app_store}__{app_id}, e.g. apple_app_store__284882215.', path: ['appKey'] });
    return { appKey: key ?? appKey };
  }),
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, params }) => {
    await liftPause(await requireRole(auth, 'admin', 'resume automatic replies'), params.appKey);
    return { ok: true as const };
  },
});
