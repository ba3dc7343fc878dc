/**
 * The queue's SQL (issue 32): a review's workflow (status, reason, assignee) per organisation, the organisation's tags
 * and the reviews' tags, internal notes, and the deliveries a new tag owes to destinations filtered by it. The only
 * place with their SQL.
 *
 * Every write takes the organisation and the review ids, acts only on reviews of the organisation's apps (org_apps),
 * runs inside the caller's transaction when given one (or its own), and records who did it in the audit log: a member,
 * a rule, or the system (a published reply, an edit).
 *
 * A review with no review_workflow row is `new` — or `replied` when the store shows a reply to it (reviews.replied),
 * so a review first stored with its reply is not new work; a row, once written, says the status itself.
 */
import { sql, type Transaction } from 'kysely';
import { getDb, type DB } from '../db/client';
import { PREPARED } from '../db/preparedStatements';
import type { Database } from '../db/types';
import { randomId } from '../crypto';
import { HttpError, notFound } from '../http/errors';
import { recordAudit, type AuditInput } from '../org/data';
import { matchesFilters, readFilters } from '../monitor/filters';
import { NOT_PLAN_PAUSED } from '../monitor/sourceDemand';
import { wake } from '../monitor/wake';
import type { WorkflowStatus } from '@/shared/workflow';

export type WorkflowActor = { kind: 'member'; userId: string; email: string } | { kind: 'rule'; ruleId: string; ruleName: string } | { kind: 'system'; label: string };

export type TagRef = { id: string; name: string; color: string };

export type ReviewWorkflow = {
  status: WorkflowStatus;
  status_reason: string | null;
  assignee_id: string | null;
  tags: TagRef[];
  notes_count: number;
};

const dbOf = async (db?: DB) => db ?? (await getDb());

/** `fn` inside the caller's transaction, or in one of its own. */
async function inTransaction<T>(db: DB | undefined, fn: (trx: DB) => Promise<T>): Promise<T> {
  const d = await dbOf(db);
  if (d.isTransaction) return fn(d);
  return d.transaction().execute((trx: Transaction<Database>) => fn(trx));
}

/** The SQL of a review's status for organisation `org` (alias `r` of reviews, `w` of its review_workflow row or null). */
export const STATUS_SQL = sql<WorkflowStatus>`coalesce(w.status, case when r.reply_text is not null then 'replied' else 'new' end)`;

/** The audit entry of a change to reviews' workflow: who (a member, or the rule or system named in the details), what, which reviews. */
export function workflowAuditEntry(orgId: string, actor: WorkflowActor, action: string, reviewIds: string[], details: Record<string, unknown>): AuditInput {
  const who = actor.kind === 'member' ? { userId: actor.userId, email: actor.email } : null;
  const by = actor.kind === 'rule' ? { rule_id: actor.ruleId, rule: actor.ruleName } : actor.kind === 'system' ? { by: actor.label } : {};
  return {
    orgId,
    actor: who,
    action,
    target: reviewIds.length === 1 ? reviewIds[0] : `${reviewIds.length} reviews`,
    details: { ...details, ...by, review_ids: reviewIds },
  };
}

async function audit(orgId: string, actor: WorkflowActor, action: string, reviewIds: string[], details: Record<string, unknown>, db: DB): Promise<void> {
  await recordAudit(workflowAuditEntry(orgId, actor, action, reviewIds, details), db);
}

const cleanIds = (ids: readonly string[]) => [...new Set(ids.filter((id) => /^\d{1,18}$/.test(id)))];

/** Which of `reviewIds` are reviews of the organisation's apps. */
export async function ownedReviewIds(orgId: string, reviewIds: readonly string[], db?: DB): Promise<string[]> {
  const ids = cleanIds(reviewIds);
  if (ids.length === 0) return [];
  const r = await sql<{ id: string }>`
    select r.id::text as id from reviews r join org_apps oa on oa.app_key = r.app_key and oa.org_id = ${orgId}
     where r.id = any(${ids}::bigint[])`.execute(await dbOf(db));
  return r.rows.map((x) => x.id);
}

/** Sets the status (and its reason: null unless given) of the organisation's reviews among `reviewIds`; how many changed. */
export async function setStatus(
  p: { orgId: string; reviewIds: string[]; status: WorkflowStatus; reason?: string | null; actor: WorkflowActor },
  db?: DB,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const ids = await ownedReviewIds(p.orgId, p.reviewIds, trx);
    if (ids.length === 0) return 0;
    const reason = p.reason ?? null;
    // Only the reviews whose status or reason changes are written (and counted): setting what is already so is no event.
    const r = await sql<{ id: string }>`
      insert into review_workflow as w (org_id, review_id, status, status_reason, updated_at)
      select ${p.orgId}, r.id, ${p.status}, ${reason}, now() from reviews r
        left join review_workflow x on x.org_id = ${p.orgId} and x.review_id = r.id
       where r.id = any(${ids}::bigint[])
         and (coalesce(x.status, case when r.reply_text is not null then 'replied' else 'new' end) <> ${p.status}
              or x.status_reason is distinct from ${reason} and x.review_id is not null)
       order by r.id
      on conflict (org_id, review_id) do update set status = excluded.status, status_reason = excluded.status_reason, updated_at = now()
      returning w.review_id::text as id`.execute(trx);
    const changed = r.rows.map((x) => x.id);
    if (changed.length) await audit(p.orgId, p.actor, 'review.status_changed', changed, { status: p.status, ...(reason ? { reason } : {}) }, trx);
    return changed.length;
  });
}

/** A member of the organisation now (a removed member is not), or a 422 that says so. */
async function assertMember(orgId: string, userId: string, db: DB): Promise<void> {
  const u = await db.selectFrom('users').select('id').where('id', '=', userId).where('org_id', '=', orgId).executeTakeFirst();
  if (!u) throw new HttpError(422, 'not_a_member', 'assignee_id: that person is not a member of your organisation.');
}

/** Assigns the organisation's reviews among `reviewIds` to a member (null: nobody); how many changed. */
export async function setAssignee(p: { orgId: string; reviewIds: string[]; assigneeId: string | null; actor: WorkflowActor }, db?: DB): Promise<number> {
  return inTransaction(db, async (trx) => {
    if (p.assigneeId !== null) await assertMember(p.orgId, p.assigneeId, trx);
    const ids = await ownedReviewIds(p.orgId, p.reviewIds, trx);
    if (ids.length === 0) return 0;
    const r = await sql<{ id: string }>`
      insert into review_workflow as w (org_id, review_id, status, assignee_id, updated_at)
      select ${p.orgId}, r.id, case when r.reply_text is not null then 'replied' else 'new' end, ${p.assigneeId}, now() from reviews r
        left join review_workflow x on x.org_id = ${p.orgId} and x.review_id = r.id
       where r.id = any(${ids}::bigint[]) and x.assignee_id is distinct from ${p.assigneeId}
       order by r.id
      on conflict (org_id, review_id) do update set assignee_id = excluded.assignee_id, updated_at = now()
      returning w.review_id::text as id`.execute(trx);
    const changed = r.rows.map((x) => x.id);
    if (changed.length) await audit(p.orgId, p.actor, p.assigneeId ? 'review.assigned' : 'review.unassigned', changed, { assignee_id: p.assigneeId }, trx);
    return changed.length;
  });
}

/** The organisation's tags among `tagIds`, or a 404 naming one that is not. */
async function ownTags(orgId: string, tagIds: readonly string[], db: DB): Promise<TagRef[]> {
  const ids = [...new Set(tagIds)];
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('tags').select(['id', 'name', 'color']).where('org_id', '=', orgId).where('id', 'in', ids).execute();
  const found = new Set(rows.map((t) => t.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw notFound(`tag ${missing.slice(0, 40)} is not a tag of your organisation.`);
  return rows;
}

/**
 * Tags the organisation's reviews among `reviewIds`; how many (review, tag) pairs are new. Each new pair is delivered
 * to the organisation's destinations filtered by that tag (deliverTagged), in the same transaction.
 */
export async function addTags(p: { orgId: string; reviewIds: string[]; tagIds: string[]; actor: WorkflowActor }, db?: DB): Promise<number> {
  const added = await inTransaction(db, async (trx) => {
    const tags = await ownTags(p.orgId, p.tagIds, trx);
    const ids = await ownedReviewIds(p.orgId, p.reviewIds, trx);
    if (ids.length === 0 || tags.length === 0) return { pairs: 0, queued: 0 };
    const r = await sql<{ review_id: string; tag_id: string }>`
      insert into review_tags (org_id, review_id, tag_id)
      select ${p.orgId}, r.id, t.id from unnest(${ids}::bigint[]) as r(id) cross join unnest(${tags.map((t) => t.id)}::text[]) as t(id)
       order by 2, 3
      on conflict do nothing
      returning review_id::text, tag_id`.execute(trx);
    if (r.rows.length === 0) return { pairs: 0, queued: 0 };
    const names = new Map(tags.map((t) => [t.id, t.name]));
    const tagged = [...new Set(r.rows.map((x) => x.review_id))];
    await audit(p.orgId, p.actor, 'review.tagged', tagged, { tags: [...new Set(r.rows.map((x) => names.get(x.tag_id)))] }, trx);
    const queued = await deliverTagged(p.orgId, r.rows, trx);
    return { pairs: r.rows.length, queued };
  });
  if (added.queued > 0) wake('deliver');
  return added.pairs;
}

/**
 * "Only reviews tagged X" (a destination's `filters.tags`): a review is delivered when it gets one of those tags — a
 * review is stored untagged, and tagged by a person or a rule after. One 'new' delivery per review and destination
 * (the deliveries' unique key), so a tag removed and added again, or a second matching tag, sends nothing more. As for
 * new reviews, only reviews the store dates at or after the destination started watching the app (tagging old
 * reviews in bulk does not flood a channel), and only when the destination's other filters match too.
 */
async function deliverTagged(orgId: string, pairs: Array<{ review_id: string; tag_id: string }>, db: DB): Promise<number> {
  const tagIds = [...new Set(pairs.map((x) => x.tag_id))];
  const reviewIds = [...new Set(pairs.map((x) => x.review_id))];
  const candidates = await sql<{
    destination_id: string; filters: unknown; subscribed_at: Date; review_id: string; app_key: string;
    rating: number; country: string | null; language: string | null; title: string | null; body: string; updated_at: Date;
  }>`
    select d.id as destination_id, d.filters, da.created_at as subscribed_at, r.id::text as review_id, r.app_key, r.rating,
           r.country, coalesce(r.text_language, nullif(r.language, '')) as language, r.title, r.body, r.updated_at
      from destinations d
      join destination_apps da on da.destination_id = d.id
      join reviews r on r.app_key = da.app_key and r.id = any(${reviewIds}::bigint[])
     where d.org_id = ${orgId} and d.status = 'active' and ${NOT_PLAN_PAUSED}
       and jsonb_typeof(d.filters -> 'tags') = 'array' and (d.filters -> 'tags') ?| ${tagIds}::text[]`.execute(db);
  const tagsOf = new Map<string, Set<string>>();
  for (const x of pairs) (tagsOf.get(x.review_id) ?? tagsOf.set(x.review_id, new Set()).get(x.review_id)!).add(x.tag_id);
  const rows = candidates.rows.filter((c) => {
    const f = readFilters(c.filters);
    // As isNewFor (server/monitor/ingest.ts): at or after the second the destination started watching the app.
    const watching = new Date(c.updated_at).getTime() >= Math.floor(new Date(c.subscribed_at).getTime() / 1000) * 1000;
    return !!f.tags?.some((t) => tagsOf.get(c.review_id)?.has(t)) && watching && matchesFilters({ ...f, tags: undefined }, c);
  });
  if (rows.length === 0) return 0;
  const r = await sql`
    insert into deliveries (destination_id, review_id, app_key, kind, review_version)
    select * from unnest(${rows.map((x) => x.destination_id)}::text[], ${rows.map((x) => x.review_id)}::bigint[], ${rows.map((x) => x.app_key)}::text[],
                         ${rows.map(() => 'new')}::text[], ${rows.map(() => 0)}::int[])
    on conflict do nothing`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

// ── the rules pass (server/rules/actions.ts): one statement for many reviews ─────────────────────────────────────
// The pass has already checked what these name: the reviews are of apps the organisation watches (its watchers), the
// tags and members the organisation's. It writes the audit entries itself, one per rule and change.

/** Where an (organisation, review) pair's workflow stands (`stored`: it has a review_workflow row). */
export type WorkflowState = { status: WorkflowStatus; reason: string | null; assigneeId: string | null; stored: boolean };

export const workflowKey = (orgId: string, reviewId: number | string) => `${orgId}:${reviewId}`;

/** The workflow of these (organisation, review) pairs, by workflowKey. */
export async function workflowStates(pairs: Array<{ orgId: string; reviewId: number }>, db: DB): Promise<Map<string, WorkflowState>> {
  const out = new Map<string, WorkflowState>();
  if (pairs.length === 0) return out;
  const r = await sql<{ org_id: string; review_id: string; status: WorkflowStatus; status_reason: string | null; assignee_id: string | null; stored: boolean }>`
    ${PREPARED}select p.org_id, r.id::text as review_id, ${STATUS_SQL} as status, w.status_reason, w.assignee_id, w.review_id is not null as stored
      from unnest(${pairs.map((p) => p.orgId)}::text[], ${pairs.map((p) => p.reviewId)}::bigint[]) as p(org_id, review_id)
      join reviews r on r.id = p.review_id
      left join review_workflow w on w.org_id = p.org_id and w.review_id = r.id`.execute(db);
  for (const x of r.rows) out.set(workflowKey(x.org_id, x.review_id), { status: x.status, reason: x.status_reason, assigneeId: x.assignee_id, stored: x.stored === true });
  return out;
}

/** Each pair to its status with no reason, where that changes it (as setStatus); the workflowKeys written. */
export async function writeStatuses(rows: Array<{ orgId: string; reviewId: number; status: WorkflowStatus }>, db: DB): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const r = await sql<{ org_id: string; review_id: string }>`
    ${PREPARED}insert into review_workflow as w (org_id, review_id, status, status_reason, updated_at)
    select v.org_id, v.review_id, v.status, null, now()
      from unnest(${rows.map((x) => x.orgId)}::text[], ${rows.map((x) => x.reviewId)}::bigint[], ${rows.map((x) => x.status)}::text[]) as v(org_id, review_id, status)
     order by 1, 2
    on conflict (org_id, review_id) do update set status = excluded.status, status_reason = null, updated_at = now()
     where w.status is distinct from excluded.status or w.status_reason is not null
    returning w.org_id, w.review_id::text as review_id`.execute(db);
  return new Set(r.rows.map((x) => workflowKey(x.org_id, x.review_id)));
}

/** Each pair to its assignee (null: nobody), where that changes it (as setAssignee); the workflowKeys written. */
export async function writeAssignees(rows: Array<{ orgId: string; reviewId: number; assigneeId: string | null }>, db: DB): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const r = await sql<{ org_id: string; review_id: string }>`
    ${PREPARED}insert into review_workflow as w (org_id, review_id, status, assignee_id, updated_at)
    select v.org_id, r.id, case when r.reply_text is not null then 'replied' else 'new' end, v.assignee_id, now()
      from unnest(${rows.map((x) => x.orgId)}::text[], ${rows.map((x) => x.reviewId)}::bigint[], ${rows.map((x) => x.assigneeId)}::text[]) as v(org_id, review_id, assignee_id)
      join reviews r on r.id = v.review_id
     order by 1, 2
    on conflict (org_id, review_id) do update set assignee_id = excluded.assignee_id, updated_at = now()
     where w.assignee_id is distinct from excluded.assignee_id
    returning w.org_id, w.review_id::text as review_id`.execute(db);
  return new Set(r.rows.map((x) => workflowKey(x.org_id, x.review_id)));
}

/**
 * Tags reviews of the organisation, pair by pair: the pairs that are new, each delivered to the destinations filtered
 * by its tag (deliverTagged), and how many deliveries that queued.
 */
export async function insertTagPairs(orgId: string, pairs: Array<{ reviewId: number; tagId: string }>, db: DB): Promise<{ added: Array<{ review_id: string; tag_id: string }>; queued: number }> {
  if (pairs.length === 0) return { added: [], queued: 0 };
  const r = await sql<{ review_id: string; tag_id: string }>`
    ${PREPARED}insert into review_tags (org_id, review_id, tag_id)
    select ${orgId}, v.review_id, v.tag_id from unnest(${pairs.map((p) => p.reviewId)}::bigint[], ${pairs.map((p) => p.tagId)}::text[]) as v(review_id, tag_id)
     order by 2, 3
    on conflict do nothing
    returning review_id::text, tag_id`.execute(db);
  if (r.rows.length === 0) return { added: [], queued: 0 };
  return { added: r.rows, queued: await deliverTagged(orgId, r.rows, db) };
}

/** Removes tags from the organisation's reviews among `reviewIds`; how many (review, tag) pairs were removed. */
export async function removeTags(p: { orgId: string; reviewIds: string[]; tagIds: string[]; actor: WorkflowActor }, db?: DB): Promise<number> {
  return inTransaction(db, async (trx) => {
    const tags = await ownTags(p.orgId, p.tagIds, trx);
    const ids = await ownedReviewIds(p.orgId, p.reviewIds, trx);
    if (ids.length === 0 || tags.length === 0) return 0;
    const r = await sql<{ review_id: string; tag_id: string }>`
      delete from review_tags where org_id = ${p.orgId} and review_id = any(${ids}::bigint[]) and tag_id = any(${tags.map((t) => t.id)}::text[])
      returning review_id::text, tag_id`.execute(trx);
    if (r.rows.length) {
      const names = new Map(tags.map((t) => [t.id, t.name]));
      await audit(p.orgId, p.actor, 'review.untagged', [...new Set(r.rows.map((x) => x.review_id))], { tags: [...new Set(r.rows.map((x) => names.get(x.tag_id)))] }, trx);
    }
    return r.rows.length;
  });
}

/** An internal note on one of the organisation's reviews (404 for a review that is not). */
export async function addNote(p: { orgId: string; reviewId: string; text: string; actor: WorkflowActor }, db?: DB): Promise<{ id: string }> {
  return inTransaction(db, async (trx) => {
    const [own] = await ownedReviewIds(p.orgId, [p.reviewId], trx);
    if (!own) throw notFound('No such review in your organisation.');
    const id = randomId('note');
    const label = p.actor.kind === 'member' ? p.actor.email : p.actor.kind === 'rule' ? `Rule ${p.actor.ruleName}` : p.actor.label;
    await trx
      .insertInto('review_notes')
      .values({ id, org_id: p.orgId, review_id: Number(own), author_user_id: p.actor.kind === 'member' ? p.actor.userId : null, author_label: label, text: p.text })
      .execute();
    await audit(p.orgId, p.actor, 'review.note_added', [own], { note_id: id }, trx);
    return { id };
  });
}

/** The workflow of the organisation's reviews among `reviewIds` (a review of another organisation is absent). */
export async function workflowOfReviews(orgId: string, reviewIds: string[], db?: DB): Promise<Map<string, ReviewWorkflow>> {
  const out = new Map<string, ReviewWorkflow>();
  const ids = cleanIds(reviewIds);
  if (ids.length === 0) return out;
  const r = await sql<{ id: string; status: WorkflowStatus; status_reason: string | null; assignee_id: string | null; tags: TagRef[] | string; notes_count: number }>`
    select r.id::text as id, ${STATUS_SQL} as status, w.status_reason, w.assignee_id,
           coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) order by lower(t.name), t.id)
                       from review_tags rt join tags t on t.id = rt.tag_id where rt.org_id = ${orgId} and rt.review_id = r.id), '[]') as tags,
           (select count(*)::int from review_notes n where n.org_id = ${orgId} and n.review_id = r.id) as notes_count
      from reviews r
      join org_apps oa on oa.app_key = r.app_key and oa.org_id = ${orgId}
      left join review_workflow w on w.org_id = ${orgId} and w.review_id = r.id
     where r.id = any(${ids}::bigint[])`.execute(await dbOf(db));
  for (const x of r.rows) {
    out.set(x.id, { status: x.status, status_reason: x.status_reason, assignee_id: x.assignee_id, tags: typeof x.tags === 'string' ? JSON.parse(x.tags) : x.tags, notes_count: x.notes_count });
  }
  return out;
}

// ── what a published reply and an edit change (server/workflow/edits.ts) ───────────────────────────────────────────

/**
 * The (organisation, review) pairs among `reviewIds` that the store now shows a reply to and whose row says another
 * status (a review without a row reads `replied` already: STATUS_SQL).
 */
export async function shownRepliesToMark(reviewIds: number[], db: DB): Promise<Array<{ org_id: string; review_id: string }>> {
  if (reviewIds.length === 0) return [];
  const r = await sql<{ org_id: string; review_id: string }>`
    select w.org_id, w.review_id::text as review_id from review_workflow w join reviews r on r.id = w.review_id
     where w.review_id = any(${reviewIds}::bigint[]) and r.reply_text is not null and w.status <> 'replied'
     order by 1, 2`.execute(db);
  return r.rows;
}

/**
 * The (organisation, review) pairs an edit sends back to needs_reply: replied or done (by its row, or replied by the
 * store showing a reply when it has no row), for every organisation watching the review's app.
 */
export async function editedCandidates(reviewIds: number[], db: DB): Promise<Array<{ org_id: string; review_id: string }>> {
  if (reviewIds.length === 0) return [];
  const r = await sql<{ org_id: string; review_id: string }>`
    select oa.org_id, r.id::text as review_id
      from reviews r
      join org_apps oa on oa.app_key = r.app_key
      left join review_workflow w on w.org_id = oa.org_id and w.review_id = r.id
     where r.id = any(${reviewIds}::bigint[]) and ${STATUS_SQL} in ('replied', 'done')
     order by 1, 2`.execute(db);
  return r.rows;
}

/** The tag ids of `reviewIds` (any organisation's: tag ids are unique), for the fan-out of edited reviews. */
export async function tagIdsOfReviews(reviewIds: number[], db: DB): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (reviewIds.length === 0) return out;
  const r = await sql<{ review_id: string; tag_id: string }>`
    select review_id::text, tag_id from review_tags where review_id = any(${reviewIds}::bigint[])`.execute(db);
  for (const x of r.rows) (out.get(Number(x.review_id)) ?? out.set(Number(x.review_id), []).get(Number(x.review_id))!).push(x.tag_id);
  return out;
}

// ── tags ────────────────────────────────────────────────────────────────────────────────────────────────────────────

export type TagRow = TagRef & { created_at: Date; reviews: number };

export async function listTags(orgId: string, db?: DB): Promise<TagRow[]> {
  const r = await sql<TagRow>`
    select t.id, t.name, t.color, t.created_at, (select count(*)::int from review_tags rt where rt.tag_id = t.id) as reviews
      from tags t where t.org_id = ${orgId} order by lower(t.name), t.id`.execute(await dbOf(db));
  return r.rows;
}

export async function countTags(orgId: string, db?: DB): Promise<number> {
  const r = await (await dbOf(db)).selectFrom('tags').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId).executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function tagById(orgId: string, id: string, db?: DB): Promise<TagRef | undefined> {
  return (await dbOf(db)).selectFrom('tags').select(['id', 'name', 'color']).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

/** Which of `ids` are tag ids of the organisation. */
export async function ownTagIds(orgId: string, ids: string[], db?: DB): Promise<string[]> {
  const wanted = [...new Set(ids.filter((i) => i.startsWith('tag_')))];
  if (wanted.length === 0) return [];
  const rows = await (await dbOf(db)).selectFrom('tags').select('id').where('org_id', '=', orgId).where('id', 'in', wanted).execute();
  return rows.map((t) => t.id);
}

/** The organisation's tags named `names` (any case), by their lower-case name. */
export async function tagsByName(orgId: string, names: string[], db?: DB): Promise<Map<string, TagRef>> {
  const out = new Map<string, TagRef>();
  if (names.length === 0) return out;
  const r = await sql<TagRef>`select id, name, color from tags where org_id = ${orgId} and lower(name) = any(${names.map((n) => n.toLowerCase())}::text[])`.execute(await dbOf(db));
  for (const t of r.rows) out.set(t.name.toLowerCase(), t);
  return out;
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';
const nameTaken = (name: string) => new HttpError(409, 'tag_exists', `A tag named "${name}" exists already.`);

/** A new tag (409 when the organisation has one of that name, whatever its case). */
export async function insertTag(t: { orgId: string; name: string; color: string; actor: WorkflowActor }, db?: DB): Promise<TagRow> {
  const d = await dbOf(db);
  const id = randomId('tag');
  try {
    await d.insertInto('tags').values({ id, org_id: t.orgId, name: t.name, color: t.color }).execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(t.name);
    throw err;
  }
  await audit(t.orgId, t.actor, 'tag.created', [], { tag_id: id, name: t.name }, d);
  return { id, name: t.name, color: t.color, created_at: new Date(), reviews: 0 };
}

export async function updateTag(orgId: string, id: string, fields: { name?: string; color?: string }, actor: WorkflowActor, db?: DB): Promise<TagRef | undefined> {
  const d = await dbOf(db);
  let row: TagRef | undefined;
  try {
    row = await d.updateTable('tags').set(fields).where('org_id', '=', orgId).where('id', '=', id).returning(['id', 'name', 'color']).executeTakeFirst();
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(fields.name ?? '');
    throw err;
  }
  if (row) await audit(orgId, actor, 'tag.changed', [], { tag_id: id, ...fields }, d);
  return row;
}

/** Deletes a tag (and so its place on every review); false when the organisation has no such tag. */
export async function deleteTag(orgId: string, id: string, actor: WorkflowActor, db?: DB): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const r = await trx.deleteFrom('tags').where('org_id', '=', orgId).where('id', '=', id).returning(['name']).executeTakeFirst();
    if (!r) return false;
    await audit(orgId, actor, 'tag.deleted', [], { tag_id: id, name: r.name }, trx);
    return true;
  });
}

/** Reviews of app `appKey` per tag of the organisation and ISO week (Monday, UTC) of the review's date, since `since`. */
export async function tagCountsByWeek(orgId: string, appKey: string, since: Date, db?: DB): Promise<Array<{ tag_id: string; week: string; reviews: number }>> {
  const r = await sql<{ tag_id: string; week: string; reviews: number }>`
    select rt.tag_id, to_char(date_trunc('week', r.updated_at at time zone 'UTC'), 'YYYY-MM-DD') as week, count(*)::int as reviews
      from review_tags rt join reviews r on r.id = rt.review_id
     where rt.org_id = ${orgId} and r.app_key = ${appKey} and r.updated_at >= ${since}
     group by 1, 2 order by 2, 1`.execute(await dbOf(db));
  return r.rows;
}

// ── one review's detail ─────────────────────────────────────────────────────────────────────────────────────────────

export type NoteRow = { id: string; author_user_id: string | null; author_label: string; text: string; created_at: Date };

export async function notesOf(orgId: string, reviewId: string, db?: DB): Promise<NoteRow[]> {
  const r = await sql<NoteRow>`
    select id, author_user_id, author_label, text, created_at from review_notes
     where org_id = ${orgId} and review_id = ${reviewId}::bigint order by created_at, id`.execute(await dbOf(db));
  return r.rows;
}

export type VersionRow = { version: number; rating: number; title: string | null; body: string; updated_at: Date };

/** The review's earlier versions (its edits), oldest first. */
export async function versionsOf(reviewId: string, db?: DB): Promise<VersionRow[]> {
  const r = await sql<VersionRow>`
    select version, rating, title, body, updated_at from review_versions where review_id = ${reviewId}::bigint order by version`.execute(await dbOf(db));
  return r.rows;
}

/** The members by id (e-mail and name), for showing assignees; absent when no longer a member. */
export async function membersById(orgId: string, ids: string[], db?: DB): Promise<Map<string, { id: string; email: string; name: string | null }>> {
  const out = new Map<string, { id: string; email: string; name: string | null }>();
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return out;
  const rows = await (await dbOf(db))
    .selectFrom('users')
    .select(['id', 'email', sql<string | null>`coalesce(display_name, name)`.as('name')])
    .where('org_id', '=', orgId)
    .where('id', 'in', wanted)
    .execute();
  for (const u of rows) out.set(u.id, u);
  return out;
}
