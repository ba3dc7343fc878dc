/**
 * The queue over HTTP (issue 32). Every member may triage (as every member may reply); renaming and deleting a tag is
 * for admins and the owner. A review, tag or member of another organisation is not found (404).
 *   GET/PATCH  v1/org/reviews/{id}          the review with its queue, tags, notes and edits · { status?, assignee_id?, tags_add?, tags_remove? }
 *   GET/POST   v1/org/reviews/{id}/notes    internal notes · { text }
 *   POST       v1/org/reviews/bulk          { ids (≤ 500), set: { status?, assignee_id?, tags_add?, tags_remove? } }, one transaction
 *   GET/POST   v1/org/tags                  { name, color } · PATCH/DELETE v1/org/tags/{id}
 *   GET        v1/org/apps/{appKey}/tags    reviews per tag per week (?weeks=, default 12)
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { HttpError, notFound } from '../http/errors';
import { membershipOf, requireRole, type Membership } from '../org/membership';
import { appKeyParam } from '../orgApps/endpoints';
import { getOrgAppCountries, orgAppKeys } from '../orgApps/data';
import { getDb } from '../db/client';
import { inboxPage } from '../reviews/data';
import { inboxReviewJson } from '../reviews/inbox';
import { ticketsOfReviews } from '../zendesk/tickets';
import { reviewIdParam } from '../replies/endpoints';
import { inboxReviewSchema, reviewTagSchema } from '@/shared/review';
import { BULK_MAX_IDS, NOTE_MAX_CHARS, TAG_COLOR_PATTERN, TAG_NAME_MAX, TAGS_MAX, WORKFLOW_STATUSES } from '@/shared/workflow';
import {
  addNote, addTags, countTags, deleteTag, insertTag, listTags, notesOf, ownedReviewIds, removeTags, setAssignee, setStatus, tagCountsByWeek,
  updateTag, versionsOf, type WorkflowActor,
} from './data';

const iso = (d: Date) => new Date(d).toISOString();
const actorOf = (m: Membership): WorkflowActor => ({ kind: 'member', userId: m.userId, email: m.email });

const TAG_ID = /^tag_[0-9A-Za-z]{24}$/;
const tagIdField = z.string('tag ids must be strings.').regex(TAG_ID, 'not a tag id (tag_ followed by 24 letters and digits).');
const tagIdParam = z.object({ id: z.string() }).transform(({ id }, ctx) => {
  if (!TAG_ID.test(id)) ctx.addIssue({ code: 'custom', message: 'not a tag id (tag_ followed by 24 letters and digits).', path: ['id'] });
  return { id };
});

/** What a PATCH or a bulk change sets; at least one field. */
const changeFields = {
  status: z.enum(WORKFLOW_STATUSES, 'status must be new, needs_reply, replied or done.').optional(),
  assignee_id: z.string('assignee_id must be a member id or null.').regex(/^[A-Za-z0-9_-]{1,64}$/, 'assignee_id must be a member id or null.').nullable().optional(),
  tags_add: z.array(tagIdField, 'tags_add must be a list of tag ids.').max(20, 'tags_add: at most 20 tags.').optional(),
  tags_remove: z.array(tagIdField, 'tags_remove must be a list of tag ids.').max(20, 'tags_remove: at most 20 tags.').optional(),
};
const changeSchema = z
  .object(changeFields, { error: (iss) => (iss.code === 'unrecognized_keys' ? 'Only status, assignee_id, tags_add and tags_remove can be set.' : 'The body must be a JSON object.') })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Nothing to change: send status, assignee_id, tags_add or tags_remove.');
type Change = z.output<typeof changeSchema>;

/** Applies a change to reviews that are all the organisation's, in one transaction; how many things changed. */
async function applyChange(m: Membership, ids: string[], c: Change): Promise<number> {
  const actor = actorOf(m);
  return (await getDb()).transaction().execute(async (trx) => {
    const own = new Set(await ownedReviewIds(m.orgId, ids, trx));
    const foreign = ids.find((id) => !own.has(id));
    if (foreign) throw notFound(`Review ${foreign} is not a review of your organisation: nothing was changed.`);
    let changed = 0;
    if (c.status) changed += await setStatus({ orgId: m.orgId, reviewIds: ids, status: c.status, actor }, trx);
    if (c.assignee_id !== undefined) changed += await setAssignee({ orgId: m.orgId, reviewIds: ids, assigneeId: c.assignee_id, actor }, trx);
    if (c.tags_add?.length) changed += await addTags({ orgId: m.orgId, reviewIds: ids, tagIds: c.tags_add, actor }, trx);
    if (c.tags_remove?.length) changed += await removeTags({ orgId: m.orgId, reviewIds: ids, tagIds: c.tags_remove, actor }, trx);
    return changed;
  });
}

const noteShape = z.object({ id: z.string(), text: z.string(), by: z.string(), by_user_id: z.string().nullable(), created_at: z.string() });
const noteJson = (n: Awaited<ReturnType<typeof notesOf>>[number]) => ({ id: n.id, text: n.text, by: n.author_label, by_user_id: n.author_user_id, created_at: iso(n.created_at) });

const reviewDetailShape = inboxReviewSchema.extend({
  notes: z.array(noteShape).meta({ description: 'Internal notes, oldest first: never sent to a store.' }),
  history: z
    .array(z.object({ version: z.number().int(), rating: z.number(), title: z.string().nullable(), body: z.string(), updated_at: z.string() }))
    .meta({ description: 'The earlier versions of the review (its edits), oldest first.' }),
});

async function reviewDetail(m: Membership, id: string) {
  const [row] = await inboxPage({ appKeys: await orgAppKeys(m.orgId), reviewId: id, limit: 1, orgId: m.orgId });
  if (!row) throw notFound('No such review in your organisation.');
  const [notes, versions, tickets] = await Promise.all([notesOf(m.orgId, id), versionsOf(id), ticketsOfReviews(m.orgId, [id])]);
  return {
    ...inboxReviewJson(row, tickets.get(id) ?? null),
    notes: notes.map(noteJson),
    history: versions.map((v) => ({ version: v.version, rating: v.rating, title: v.title, body: v.body, updated_at: iso(v.updated_at) })),
  };
}

export const getReviewEndpoint = endpoint({
  statuses: [404],
  summary: 'One review with its place in the queue (status, assignee, tags), its internal notes, its edits and its reply',
  tags: ['reviews'],
  auth: 'user',
  params: reviewIdParam,
  response: reviewDetailShape,
  handler: async ({ auth, params }) => reviewDetail(await membershipOf(auth), params.id),
});

export const patchReviewEndpoint = endpoint({
  statuses: [404, 422],
  summary: "Change a review's status, assignee or tags (every member may); answers the review as GET does",
  tags: ['reviews'],
  auth: 'user',
  params: reviewIdParam,
  body: changeSchema,
  response: reviewDetailShape,
  handler: async ({ auth, params, body }) => {
    const m = await membershipOf(auth);
    await applyChange(m, [params.id], body);
    return reviewDetail(m, params.id);
  },
});

export const listNotesEndpoint = endpoint({
  statuses: [404],
  summary: "A review's internal notes, oldest first (never sent to a store)",
  tags: ['reviews'],
  auth: 'user',
  params: reviewIdParam,
  response: z.array(noteShape),
  handler: async ({ auth, params }) => {
    const m = await membershipOf(auth);
    if ((await ownedReviewIds(m.orgId, [params.id])).length === 0) throw notFound('No such review in your organisation.');
    return (await notesOf(m.orgId, params.id)).map(noteJson);
  },
});

export const addNoteEndpoint = endpoint({
  statuses: [201, 404],
  summary: 'Add an internal note to a review (with its author and time; never sent to a store)',
  tags: ['reviews'],
  auth: 'user',
  params: reviewIdParam,
  body: z.object({
    text: z
      .string('text must be a string.')
      .trim()
      .min(1, 'text: write the note.')
      .max(NOTE_MAX_CHARS, `text: a note can be at most ${NOTE_MAX_CHARS.toLocaleString('en-US')} characters.`),
  }),
  response: noteShape,
  handler: async (ctx) => {
    const m = await membershipOf(ctx.auth);
    const { id } = await addNote({ orgId: m.orgId, reviewId: ctx.params.id, text: ctx.body.text, actor: actorOf(m) });
    const note = (await notesOf(m.orgId, ctx.params.id)).find((n) => n.id === id)!;
    ctx.status = 201;
    return noteJson(note);
  },
});

export const bulkReviewsEndpoint = endpoint({
  statuses: [404, 422],
  summary: `Change the status, assignee or tags of up to ${BULK_MAX_IDS} reviews at once, in one transaction (all or nothing; audit-logged)`,
  tags: ['reviews'],
  auth: 'user',
  body: z.object({
    ids: z
      .array(z.string('ids must be review ids (digits).').regex(/^\d{1,18}$/, 'ids must be review ids (digits).'), 'ids must be a list of review ids.')
      .min(1, 'ids: name at least one review.')
      .max(BULK_MAX_IDS, `ids: at most ${BULK_MAX_IDS} reviews at once.`),
    set: changeSchema,
  }),
  response: z.object({ reviews: z.number().int(), changed: z.number().int().meta({ description: 'Statuses, assignees and tags that changed.' }) }),
  maxBodyBytes: 64 * 1024,
  handler: async ({ auth, body }) => {
    const ids = [...new Set(body.ids)];
    const changed = await applyChange(await membershipOf(auth), ids, body.set);
    return { reviews: ids.length, changed };
  },
});

// ── tags ────────────────────────────────────────────────────────────────────────────────────────────────────────────

const tagName = z
  .string('name must be a string.')
  .trim()
  .min(1, 'name: give the tag a name.')
  .max(TAG_NAME_MAX, `name: at most ${TAG_NAME_MAX} characters.`)
  .refine((v) => !/[\u0000-\u001f\u007f,]/.test(v), 'name cannot contain commas or control characters.');
const tagColor = z.string('color must be #rrggbb.').regex(TAG_COLOR_PATTERN, 'color must be #rrggbb, e.g. #d93025.').transform((c) => c.toLowerCase());
const tagShape = reviewTagSchema.extend({ reviews: z.number().int().meta({ description: 'Reviews with this tag.' }), created_at: z.string() });

export const listTagsEndpoint = endpoint({
  summary: "The organisation's tags, by name, with how many reviews have each",
  tags: ['reviews'],
  auth: 'user',
  response: z.array(tagShape),
  handler: async ({ auth }) => (await listTags((await membershipOf(auth)).orgId)).map((t) => ({ ...t, created_at: iso(t.created_at) })),
});

export const createTagEndpoint = endpoint({
  statuses: [201, 409, 422],
  summary: 'Create a tag (every member may); names are unique in the organisation whatever their case',
  tags: ['reviews'],
  auth: 'user',
  body: z.object({ name: tagName, color: tagColor }),
  response: tagShape,
  handler: async (ctx) => {
    const m = await membershipOf(ctx.auth);
    if ((await countTags(m.orgId)) >= TAGS_MAX) throw new HttpError(422, 'too_many_tags', `An organisation can have at most ${TAGS_MAX} tags: delete one first.`);
    const t = await insertTag({ orgId: m.orgId, name: ctx.body.name, color: ctx.body.color, actor: actorOf(m) });
    ctx.status = 201;
    return { ...t, created_at: iso(t.created_at) };
  },
});

export const updateTagEndpoint = endpoint({
  statuses: [404, 409],
  summary: 'Rename a tag or change its colour (admins and owners)',
  tags: ['reviews'],
  auth: 'user',
  params: tagIdParam,
  body: z
    .object({ name: tagName.optional(), color: tagColor.optional() }, { error: (iss) => (iss.code === 'unrecognized_keys' ? 'Only name and color can be changed.' : 'The body must be a JSON object.') })
    .strict()
    .refine((b) => b.name !== undefined || b.color !== undefined, 'Nothing to change: send name or color.'),
  response: reviewTagSchema,
  handler: async ({ auth, params, body }) => {
    const m = await requireRole(auth, 'admin', 'rename or recolour tags');
    const t = await updateTag(m.orgId, params.id, body, actorOf(m));
    if (!t) throw notFound('No such tag in your organisation.');
    return t;
  },
});

export const deleteTagEndpoint = endpoint({
  statuses: [404],
  summary: 'Delete a tag, and so take it off every review (admins and owners)',
  tags: ['reviews'],
  auth: 'user',
  params: tagIdParam,
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, params }) => {
    const m = await requireRole(auth, 'admin', 'delete tags');
    if (!(await deleteTag(m.orgId, params.id, actorOf(m)))) throw notFound('No such tag in your organisation.');
    return { ok: true as const };
  },
});

const WEEK_MS = 7 * 86_400_000;

export const appTagWeeksEndpoint = endpoint({
  statuses: [404],
  summary: "An app's reviews per tag per week (ISO weeks, Monday, UTC, by the review's date)",
  tags: ['apps'],
  auth: 'user',
  params: appKeyParam,
  query: z.object({
    weeks: z.coerce.number('weeks must be a number.').int('weeks must be a whole number.').min(1, 'weeks must be 1 to 104.').max(104, 'weeks must be 1 to 104.').default(12),
  }),
  response: z.object({
    weeks: z.array(z.string()).meta({ description: 'The Mondays (YYYY-MM-DD) of the weeks counted, oldest first.' }),
    tags: z.array(reviewTagSchema.extend({ counts: z.array(z.number().int()).meta({ description: 'Reviews per week, in the order of weeks.' }) })),
  }),
  handler: async ({ auth, params, query }) => {
    const m = await membershipOf(auth);
    if (!(await getOrgAppCountries(m.orgId, params.appKey))) throw notFound('This app is not in your organisation. Add it on the Apps page first.');
    const now = new Date();
    const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7)));
    const weeks = Array.from({ length: query.weeks }, (_, i) => new Date(monday.getTime() - (query.weeks - 1 - i) * WEEK_MS).toISOString().slice(0, 10));
    const [tags, counts] = await Promise.all([listTags(m.orgId), tagCountsByWeek(m.orgId, params.appKey, new Date(`${weeks[0]}T00:00:00Z`))]);
    const at = new Map(counts.map((c) => [`${c.tag_id} ${c.week}`, c.reviews]));
    return { weeks, tags: tags.map((t) => ({ id: t.id, name: t.name, color: t.color, counts: weeks.map((w) => at.get(`${t.id} ${w}`) ?? 0) })) };
  },
});
