/**
 * The replies' SQL: the one row per (organisation, review), its claim by one sender at a time, the outbox of replies
 * due, their confirmation by a poll, reply templates, and the stores' allowances. The only place with their SQL.
 */
import { sql, type Selectable, type Transaction } from 'kysely';
import { getDb, type DB } from '../db/client';
import { leaseEnd, leaseRanOut } from '../db/lease';
import type { Database, RepliesTable, ReplyState } from '../db/types';

type Db = DB | Transaction<Database>;
const dbOf = async (db?: Db) => db ?? (await getDb());

export type ReplyRow = Selectable<RepliesTable>;

/** A review of one of the organisation's apps, with what a reply needs (and the organisation's sealed credentials). */
export type ReviewForReply = {
  id: string;
  app_key: string;
  store: string;
  app_id: string;
  app_title: string;
  store_review_id: string;
  author_name: string;
  updated_at: Date;
  credentials_enc: string | null;
};

export async function reviewForReply(orgId: string, reviewId: string, db?: Db): Promise<ReviewForReply | undefined> {
  const r = await sql<ReviewForReply>`
    select r.id::text as id, r.app_key, a.store, a.app_id, a.title as app_title, r.store_review_id, r.author_name, r.updated_at,
           oa.credentials_enc
      from reviews r
      join org_apps oa on oa.app_key = r.app_key and oa.org_id = ${orgId}
      join apps a on a.key = r.app_key
     where r.id = ${reviewId}::bigint`.execute(await dbOf(db));
  return r.rows[0];
}

export type NewSending = {
  /** sending: due now; draft: kept, never sent until sent as a reply. */
  state?: 'sending' | 'draft';
  id: string;
  orgId: string;
  reviewId: string;
  appKey: string;
  text: string;
  authorUserId: string | null;
  authorLabel: string;
  reviewUpdatedAt: Date;
};

/**
 * Records a reply to send now (or replaces the review's reply): state sending, due now, no attempt yet — or a draft,
 * never due. Returns null while another sender holds the row (a send in flight), so a replacement never races a send.
 */
export async function upsertSending(n: NewSending, db?: Db): Promise<ReplyRow | null> {
  const state = n.state ?? 'sending';
  const due = state === 'sending' ? sql`now()` : sql`null`;
  const r = await sql<ReplyRow>`
    insert into replies (id, org_id, review_id, app_key, text, state, author_user_id, author_label, attempts, next_attempt_at, review_updated_at)
    values (${n.id}, ${n.orgId}, ${n.reviewId}::bigint, ${n.appKey}, ${n.text}, ${state}, ${n.authorUserId}, ${n.authorLabel}, 0, ${due}, ${n.reviewUpdatedAt})
    on conflict (org_id, review_id) do update
       set text = excluded.text, state = excluded.state, author_user_id = excluded.author_user_id, author_label = excluded.author_label,
           attempts = 0, next_attempt_at = excluded.next_attempt_at, lease_until = null, failure = null, review_updated_at = excluded.review_updated_at,
           updated_at = now(), sent_at = null, published_at = null
     where ${leaseRanOut('replies.lease_until')}
    returning *`.execute(await dbOf(db));
  return r.rows[0] ?? null;
}

export async function replyOf(orgId: string, reviewId: string, db?: Db): Promise<ReplyRow | undefined> {
  return (await dbOf(db)).selectFrom('replies').selectAll().where('org_id', '=', orgId).where('review_id', '=', Number(reviewId)).executeTakeFirst();
}

export async function replyById(id: string, db?: Db): Promise<ReplyRow | undefined> {
  return (await dbOf(db)).selectFrom('replies').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Takes the reply for one send attempt: only a row still sending, due, and not held by another sender. The lease
 * outlives any store call (their timeouts are 20 s); a sender that dies mid-call frees the row when it runs out, and
 * the next attempt sees `attempts` > 1 and checks the store before posting again.
 */
export async function claimReply(id: string, leaseSeconds: number, db?: Db): Promise<ReplyRow | null> {
  const r = await sql<ReplyRow>`
    update replies set lease_until = ${leaseEnd(leaseSeconds * 1000)}, attempts = attempts + 1, updated_at = now()
     where id = ${id} and state = 'sending' and ${leaseRanOut()}
       and (next_attempt_at is null or next_attempt_at <= now())
    returning *`.execute(await dbOf(db));
  return r.rows[0] ?? null;
}

export type ReplyOutcome =
  | { state: 'pending_publish' | 'published'; storeResponseId: string | null; text: string }
  | { state: 'sending'; retryInSeconds: number; note: string; countAttempt: boolean }
  | { state: 'failed'; failure: string };

/** Records what the attempt came to and frees the row; only the holder of the lease (same attempt) may. */
export async function finishAttempt(row: Pick<ReplyRow, 'id' | 'attempts'>, o: ReplyOutcome, db?: Db): Promise<ReplyRow | null> {
  const d = await dbOf(db);
  const base = sql`lease_until = null, updated_at = now()`;
  const set =
    o.state === 'failed'
      ? sql`${base}, state = 'failed', failure = ${o.failure}, next_attempt_at = null`
      : o.state === 'sending'
        ? sql`${base}, failure = ${o.note}, next_attempt_at = now() + ${o.retryInSeconds} * interval '1 second'${o.countAttempt ? sql`` : sql`, attempts = attempts - 1`}`
        : sql`${base}, state = ${o.state}, failure = null, sent_at = now(), store_response_id = ${o.storeResponseId},
              published_at = ${o.state === 'published' ? sql`now()` : sql`null`},
              next_attempt_at = ${o.state === 'published' ? sql`null` : sql`now() + ${PENDING_CHECK_SECONDS} * interval '1 second'`}`;
  const r = await sql<ReplyRow>`
    update replies set ${set} where id = ${row.id} and state = 'sending' and attempts = ${row.attempts} returning *`.execute(d);
  return r.rows[0] ?? null;
}

/**
 * When to ask the store whether a pending reply is published, if no poll said so first (the poll only reads the
 * newest reviews: a reply to an older one is confirmed this way). `next_attempt_at` of a pending_publish row.
 */
export const PENDING_CHECK_SECONDS = 10 * 60;


/** Takes a pending reply for one look at the store (a lease, as for sending). */
export async function claimPending(id: string, leaseSeconds: number, db?: Db): Promise<ReplyRow | null> {
  const r = await sql<ReplyRow>`
    update replies set lease_until = ${leaseEnd(leaseSeconds * 1000)}
     where id = ${id} and state = 'pending_publish' and next_attempt_at <= now() and ${leaseRanOut()}
    returning *`.execute(await dbOf(db));
  return r.rows[0] ?? null;
}

/** Records the look: published, or the next look later (`laterSeconds`). */
export async function finishPendingCheck(id: string, published: boolean, laterSeconds: number, db?: Db): Promise<void> {
  await sql`
    update replies set lease_until = null, updated_at = now(),
           ${published ? sql`state = 'published', published_at = now(), next_attempt_at = null` : sql`next_attempt_at = now() + ${laterSeconds} * interval '1 second'`}
     where id = ${id} and state = 'pending_publish'`.execute(await dbOf(db));
}

/** Replies in `state` whose next step is due and that nobody holds, oldest first: sends to retry, pending ones to look up. */
export async function dueIds(state: 'sending' | 'pending_publish', limit: number, db?: Db): Promise<string[]> {
  const r = await sql<{ id: string }>`
    select id from replies
     where state = ${state} and next_attempt_at <= now() and ${leaseRanOut()}
     order by next_attempt_at limit ${limit}`.execute(await dbOf(db));
  return r.rows.map((x) => x.id);
}

/**
 * A poll stored the reviews' replies as the store shows them: each reply of ours waiting to be published whose text the
 * store now shows is published. Called inside the ingest transaction.
 */
export async function confirmPublished(trx: Transaction<Database>, reviewIds: number[]): Promise<number> {
  if (reviewIds.length === 0) return 0;
  const r = await sql`
    update replies rp set state = 'published', published_at = now(), updated_at = now(), next_attempt_at = null
      from reviews r
     where r.id = rp.review_id and rp.review_id = any(${reviewIds}::bigint[]) and rp.state = 'pending_publish'
       and btrim(r.reply_text) = btrim(rp.text)`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}

export async function deleteReplyRow(id: string, db?: Db): Promise<void> {
  await (await dbOf(db)).deleteFrom('replies').where('id', '=', id).execute();
}

export async function setReplyState(id: string, state: ReplyState, failure: string | null, db?: Db): Promise<void> {
  await (await dbOf(db)).updateTable('replies').set({ state, failure, lease_until: null, next_attempt_at: null, updated_at: sql`now()` }).where('id', '=', id).execute();
}

// ── allowances ──────────────────────────────────────────────────────────────────────────────────────────────────────

export async function allowanceOf(key: string, db?: Db): Promise<{ remaining: number; resets_at: Date } | undefined> {
  return (await dbOf(db)).selectFrom('store_allowances').select(['remaining', 'resets_at']).where('key', '=', key).executeTakeFirst();
}

/** What the store said is left (App Store Connect's X-Rate-Limit), until `resetsAt`. */
export async function setAllowance(key: string, remaining: number, resetsAt: Date, db?: Db): Promise<void> {
  await (await dbOf(db))
    .insertInto('store_allowances')
    .values({ key, remaining, resets_at: resetsAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ remaining, resets_at: resetsAt, updated_at: sql`now()` }))
    .execute();
}

/**
 * Spends one request of a counted allowance (Play's replies a day per app) in one statement: a new window starts with
 * `limit` when the last one ended. Returns false, spending nothing, when the window's allowance is gone.
 */
export async function spendAllowance(key: string, limit: number, windowEnd: Date, db?: Db): Promise<boolean> {
  const r = await sql<{ remaining: number }>`
    insert into store_allowances as s (key, remaining, resets_at) values (${key}, ${limit - 1}, ${windowEnd})
    on conflict (key) do update
       set remaining = case when s.resets_at <= now() then ${limit - 1} else s.remaining - 1 end,
           resets_at = case when s.resets_at <= now() then ${windowEnd} else s.resets_at end,
           updated_at = now()
     where s.resets_at <= now() or s.remaining > 0
    returning remaining`.execute(await dbOf(db));
  return r.rows.length > 0;
}

// ── templates ───────────────────────────────────────────────────────────────────────────────────────────────────────

export type TemplateRow = { id: string; app_key: string; name: string; body: string; created_at: Date; updated_at: Date };

export async function listTemplates(orgId: string, appKey?: string, db?: Db): Promise<TemplateRow[]> {
  let q = (await dbOf(db)).selectFrom('reply_templates').select(['id', 'app_key', 'name', 'body', 'created_at', 'updated_at']).where('org_id', '=', orgId);
  if (appKey) q = q.where('app_key', '=', appKey);
  return q.orderBy('app_key').orderBy('name').orderBy('id').execute();
}

export async function countTemplates(orgId: string, appKey: string, db?: Db): Promise<number> {
  const r = await (await dbOf(db)).selectFrom('reply_templates').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId).where('app_key', '=', appKey).executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function insertTemplate(t: { id: string; orgId: string; appKey: string; name: string; body: string; createdBy: string }, db?: Db): Promise<TemplateRow> {
  return (await dbOf(db))
    .insertInto('reply_templates')
    .values({ id: t.id, org_id: t.orgId, app_key: t.appKey, name: t.name, body: t.body, created_by: t.createdBy })
    .returning(['id', 'app_key', 'name', 'body', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
}

export async function updateTemplate(orgId: string, id: string, fields: { name?: string; body?: string }, db?: Db): Promise<TemplateRow | undefined> {
  return (await dbOf(db))
    .updateTable('reply_templates')
    .set({ ...fields, updated_at: sql`now()` })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .returning(['id', 'app_key', 'name', 'body', 'created_at', 'updated_at'])
    .executeTakeFirst();
}

export async function deleteTemplate(orgId: string, id: string, db?: Db): Promise<boolean> {
  const r = await (await dbOf(db)).deleteFrom('reply_templates').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
