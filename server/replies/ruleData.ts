/**
 * The SQL of replies that rules draft (server/replies/ruleReplies.ts): the review as a rule's reply needs it, the
 * insert that makes "never twice" hold (the one row per organisation × review of migration 0017), the daily cap
 * across rules (reply_rule_days), the approvals list and decisions, and the apps' reply pauses (reply_pauses). The only
 * place with their SQL. Every function takes `db?` last and works inside a caller's transaction.
 */
import { sql, type Selectable, type Transaction } from 'kysely';
import { getDb, type DB } from '../db/client';
import type { Database, ReplyPauseKind, ReplyPausesTable, ReplyState } from '../db/types';
import type { ReplyRow } from './data';
import type { ReviewOfApp } from '../reviews/data';

type Db = DB | Transaction<Database>;
const dbOf = async (db?: Db) => db ?? (await getDb());

/** A review of one of the organisation's apps, with what a rule's reply needs to be drafted and sent. */
export type ReviewForRule = ReviewOfApp & {
  app_id: string;
  language: string | null;
  text_language: string | null;
  reply_text: string | null;
  updated_at: Date;
  credentials_enc: string | null;
  reply_tone: string | null;
};

export async function reviewForRule(orgId: string, reviewId: string, db?: Db): Promise<ReviewForRule | undefined> {
  const r = await sql<ReviewForRule>`
    select r.id::text as id, r.app_key, a.store, a.app_id, a.title as app_title, r.author_name, r.rating, r.title, r.body,
           r.language, r.text_language, r.reply_text, r.updated_at, oa.credentials_enc, oa.reply_tone
      from reviews r
      join org_apps oa on oa.app_key = r.app_key and oa.org_id = ${orgId}
      join apps a on a.key = r.app_key
     where r.id = ${reviewId}::bigint`.execute(await dbOf(db));
  return r.rows[0];
}

export async function templateOfOrg(orgId: string, templateId: string, db?: Db): Promise<{ id: string; app_key: string; name: string; body: string } | undefined> {
  return (await dbOf(db)).selectFrom('reply_templates').select(['id', 'app_key', 'name', 'body']).where('org_id', '=', orgId).where('id', '=', templateId).executeTakeFirst();
}

export type NewRuleReply = {
  id: string;
  orgId: string;
  reviewId: string;
  appKey: string;
  text: string;
  state: 'sending' | 'awaiting_approval';
  ruleId: string;
  ruleName: string;
  mode: 'auto' | 'approval';
  templateId: string;
  draftedBy: 'template' | 'model';
  reviewUpdatedAt: Date;
};

/** The label a rule's reply carries as its author (the inbox's "by"). */
export const ruleLabel = (ruleName: string) => `Rule "${ruleName}"`;

/**
 * Records a rule's reply, only when the review has no reply row of the organisation yet (any state: a reply from a
 * person, a draft, another rule's draft, a rejected one): null otherwise. A sending one is due now; one awaiting
 * approval is never due until approved.
 */
export async function insertRuleReply(n: NewRuleReply, db?: Db): Promise<ReplyRow | null> {
  const due = n.state === 'sending' ? sql`now()` : sql`null`;
  const r = await sql<ReplyRow>`
    insert into replies (id, org_id, review_id, app_key, text, state, author_user_id, author_label, attempts, next_attempt_at, review_updated_at,
                         rule_id, rule_name, rule_mode, template_id, drafted_by)
    values (${n.id}, ${n.orgId}, ${n.reviewId}::bigint, ${n.appKey}, ${n.text}, ${n.state}, null, ${ruleLabel(n.ruleName)}, 0, ${due}, ${n.reviewUpdatedAt},
            ${n.ruleId}, ${n.ruleName}, ${n.mode}, ${n.templateId}, ${n.draftedBy})
    on conflict (org_id, review_id) do nothing
    returning *`.execute(await dbOf(db));
  return r.rows[0] ?? null;
}

/** The UTC day of `now`, as reply_rule_days keys it. */
export const utcDay = (now = new Date()) => now.toISOString().slice(0, 10);

/**
 * Spends one of the app's automatic replies of the UTC day `day` (across rules) in one statement, when fewer than
 * `cap` were spent: false, spending nothing, when the cap is reached.
 */
export async function spendDailyCap(orgId: string, appKey: string, day: string, cap: number, db?: Db): Promise<boolean> {
  if (cap < 1) return false;
  const r = await sql<{ count: number }>`
    insert into reply_rule_days as d (org_id, app_key, day, count) values (${orgId}, ${appKey}, ${day}::date, 1)
    on conflict (org_id, app_key, day) do update set count = d.count + 1 where d.count < ${cap}
    returning count`.execute(await dbOf(db));
  return r.rows.length > 0;
}

export async function dailyCount(orgId: string, appKey: string, day: string, db?: Db): Promise<number> {
  const r = await sql<{ count: number }>`select count from reply_rule_days where org_id = ${orgId} and app_key = ${appKey} and day = ${day}::date`.execute(await dbOf(db));
  return Number(r.rows[0]?.count ?? 0);
}

// ── the approvals list and decisions ─────────────────────────────────────────────────────────────────────────────────

/** A reply with its review and app, as Replies → Awaiting approval lists it. */
export type ListedReply = ReplyRow & {
  store: string;
  app_title: string;
  author_name: string;
  rating: number;
  review_title: string | null;
  review_body: string;
  review_language: string | null;
  review_updated_at_now: Date;
  store_reply_text: string | null;
};

const LISTED = sql`rp.*, a.store, a.title as app_title, r.author_name, r.rating, r.title as review_title, r.body as review_body,
  coalesce(r.text_language, r.language) as review_language, r.updated_at as review_updated_at_now, r.reply_text as store_reply_text`;

/** A reply with its review, its app, and the organisation's link to the app (what LISTED reads). */
const LISTED_FROM = sql`
      from replies rp
      join reviews r on r.id = rp.review_id
      join apps a on a.key = rp.app_key
      join org_apps oa on oa.org_id = rp.org_id and oa.app_key = rp.app_key`;

/**
 * The organisation's replies in `state`, newest first (created_at, then id), `limit` + 1 to tell whether there are
 * more; `startingAfter` is the last reply id of the previous page (of this organisation, else the first page).
 */
export async function listRepliesInState(orgId: string, state: ReplyState, limit: number, startingAfter: string | undefined, db?: Db): Promise<ListedReply[]> {
  const d = await dbOf(db);
  const cursor = startingAfter
    ? sql`and (rp.created_at, rp.id) < (select c.created_at, c.id from replies c where c.id = ${startingAfter} and c.org_id = ${orgId})`
    : sql``;
  const r = await sql<ListedReply>`
    select ${LISTED} ${LISTED_FROM}
     where rp.org_id = ${orgId} and rp.state = ${state} ${cursor}
     order by rp.created_at desc, rp.id desc
     limit ${limit + 1}`.execute(d);
  return r.rows;
}

/** One reply of the organisation (with its review), or undefined: another organisation's id is not found. */
export async function listedReplyOfOrg(orgId: string, id: string, db?: Db): Promise<ListedReply | undefined> {
  const r = await sql<ListedReply>`
    select ${LISTED} ${LISTED_FROM}
     where rp.org_id = ${orgId} and rp.id = ${id}`.execute(await dbOf(db));
  return r.rows[0];
}

export type Decider = { userId: string; label: string };

/**
 * An approval: the draft (or the edited text) becomes a reply due now, sent by the outbox — only while it awaits
 * approval, so of two approvals at once one wins. The approver becomes its author.
 */
export async function approveRow(orgId: string, id: string, text: string, by: Decider, db?: Db): Promise<ReplyRow | null> {
  const r = await sql<ReplyRow>`
    update replies set state = 'sending', text = ${text}, next_attempt_at = now(), attempts = 0, failure = null, lease_until = null,
           author_user_id = ${by.userId}, author_label = ${by.label}, decided_by = ${by.userId}, decided_by_label = ${by.label},
           decided_at = now(), updated_at = now()
     where org_id = ${orgId} and id = ${id} and state = 'awaiting_approval'
    returning *`.execute(await dbOf(db));
  return r.rows[0] ?? null;
}

/** A rejection: kept as rejected (the rule never drafts for the review again), only while it awaits approval. */
export async function rejectRow(orgId: string, id: string, by: Decider, db?: Db): Promise<ReplyRow | null> {
  const r = await sql<ReplyRow>`
    update replies set state = 'rejected', next_attempt_at = null, decided_by = ${by.userId}, decided_by_label = ${by.label},
           decided_at = now(), updated_at = now()
     where org_id = ${orgId} and id = ${id} and state = 'awaiting_approval'
    returning *`.execute(await dbOf(db));
  return r.rows[0] ?? null;
}

// ── pauses ───────────────────────────────────────────────────────────────────────────────────────────────────────────

export type PauseRow = Selectable<ReplyPausesTable>;

/** The app's pause while it holds (a quota's pause ends at `until` by itself). */
export async function activePause(orgId: string, appKey: string, db?: Db): Promise<PauseRow | undefined> {
  const r = await sql<PauseRow>`
    select * from reply_pauses where org_id = ${orgId} and app_key = ${appKey} and (until is null or until > now())`.execute(await dbOf(db));
  return r.rows[0];
}

export async function activePauses(orgId: string, db?: Db): Promise<Array<PauseRow & { app_title: string | null }>> {
  const r = await sql<PauseRow & { app_title: string | null }>`
    select p.*, a.title as app_title from reply_pauses p left join apps a on a.key = p.app_key
     where p.org_id = ${orgId} and (p.until is null or p.until > now())
     order by p.since desc, p.app_key`.execute(await dbOf(db));
  return r.rows;
}

/**
 * Pauses the organisation's automatic replies to `appKey`'s reviews. A refusal of the credentials replaces a quota's
 * pause (it lasts until someone acts); a quota's pause never shortens one for the credentials.
 */
export async function upsertPause(p: { orgId: string; appKey: string; kind: ReplyPauseKind; reason: string; until: Date | null }, db?: Db): Promise<void> {
  await sql`
    insert into reply_pauses as p (org_id, app_key, kind, reason, since, until)
    values (${p.orgId}, ${p.appKey}, ${p.kind}, ${p.reason}, now(), ${p.until})
    on conflict (org_id, app_key) do update
       set kind = excluded.kind, reason = excluded.reason, until = excluded.until,
           since = case when p.until is not null and p.until <= now() then now() else p.since end
     where excluded.kind = 'credentials' or p.kind = 'quota' or (p.until is not null and p.until <= now())`.execute(await dbOf(db));
}

/** Lifts the pause; false when the app had none holding. */
export async function deletePause(orgId: string, appKey: string, db?: Db): Promise<boolean> {
  const r = await sql<{ app_key: string }>`
    delete from reply_pauses where org_id = ${orgId} and app_key = ${appKey} returning app_key, until`.execute(await dbOf(db));
  return r.rows.length > 0;
}
