/**
 * The rules' SQL: rules (an organisation's, in order), their firings (once per rule × review × version), the queue of
 * reviews to evaluate (filled by the triggers of migration 0040), what the runner reads of those reviews, the
 * references a rule's actions name (checked to be the organisation's), and the one delivery a `notify` action queues.
 * The only place with this SQL. Functions take `db?: DB` last; the runner's pass hands its transaction in.
 */
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';
import { PREPARED } from '../db/preparedStatements';
import { workflowKey } from '../workflow/data';
import { readRule, type Rule, type RuleAction, type RuleConditions } from './schema';

const dbOf = async (db?: DB) => db ?? (await getDb());

const RULE_COLUMNS = ['id', 'org_id', 'name', 'enabled', 'position', 'apps', 'conditions', 'actions', 'stop_after', 'created_at', 'updated_at'] as const;

export type StoredRule = Rule & { unreadable: boolean };

/** The organisation's rules in order (position, then age). */
export async function rulesOf(orgId: string, db?: DB): Promise<StoredRule[]> {
  const rows = await (await dbOf(db)).selectFrom('rules').select(RULE_COLUMNS).where('org_id', '=', orgId).orderBy('position').orderBy('created_at').orderBy('id').execute();
  return rows.map(readRule);
}

/** The enabled rules of these organisations, each organisation's in order. */
export async function enabledRulesOf(orgIds: string[], db?: DB): Promise<Map<string, StoredRule[]>> {
  const out = new Map<string, StoredRule[]>();
  if (orgIds.length === 0) return out;
  const rows = await (await dbOf(db))
    .selectFrom('rules')
    .select(RULE_COLUMNS)
    .where('org_id', 'in', orgIds)
    .where('enabled', '=', true)
    .orderBy('org_id')
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = out.get(row.org_id) ?? [];
    list.push(readCached(row));
    out.set(row.org_id, list);
  }
  return out;
}

/**
 * The runner reads the enabled rules every pass: their conditions and actions are validated once per version of the
 * rule (its updated_at, which every change of them moves), not on every pass.
 */
const parsedRules = new Map<string, { stamp: number; parsed: Pick<StoredRule, 'conditions' | 'actions' | 'unreadable'> }>();
function readCached(row: Parameters<typeof readRule>[0]): StoredRule {
  const stamp = new Date(row.updated_at).getTime();
  const hit = parsedRules.get(row.id);
  if (hit && hit.stamp === stamp) return { ...row, apps: row.apps ?? [], ...hit.parsed };
  const rule = readRule(row);
  if (parsedRules.size > 10_000) parsedRules.clear();
  parsedRules.set(row.id, { stamp, parsed: { conditions: rule.conditions, actions: rule.actions, unreadable: rule.unreadable } });
  return rule;
}

export async function ruleOf(orgId: string, id: string, db?: DB): Promise<StoredRule | undefined> {
  const row = await (await dbOf(db)).selectFrom('rules').select(RULE_COLUMNS).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return row && readRule(row);
}

export async function countRules(orgId: string, db?: DB): Promise<number> {
  const r = await (await dbOf(db)).selectFrom('rules').select((eb) => eb.fn.countAll<string>().as('n')).where('org_id', '=', orgId).executeTakeFirstOrThrow();
  return Number(r.n);
}

export type RuleFields = { name: string; enabled: boolean; apps: string[]; conditions: RuleConditions; actions: RuleAction[]; stop_after: boolean };

/** A new rule, last in the organisation's order. */
export async function insertRule(input: RuleFields & { id: string; orgId: string; createdBy: string }, db?: DB): Promise<StoredRule> {
  const row = await (await dbOf(db))
    .insertInto('rules')
    .values({
      id: input.id,
      org_id: input.orgId,
      name: input.name,
      enabled: input.enabled,
      position: sql<number>`(select coalesce(max(position) + 1, 0) from rules where org_id = ${input.orgId})`,
      apps: input.apps,
      conditions: JSON.stringify(input.conditions),
      actions: JSON.stringify(input.actions),
      stop_after: input.stop_after,
      created_by: input.createdBy,
    })
    .returning(RULE_COLUMNS)
    .executeTakeFirstOrThrow();
  return readRule(row);
}

/** Changes a rule of the organisation; undefined when it has none with this id. */
export async function updateRule(orgId: string, id: string, fields: Partial<RuleFields>, db?: DB): Promise<StoredRule | undefined> {
  const set: Record<string, unknown> = { updated_at: sql`now()` };
  if (fields.name !== undefined) set.name = fields.name;
  if (fields.enabled !== undefined) set.enabled = fields.enabled;
  if (fields.apps !== undefined) set.apps = fields.apps;
  if (fields.conditions !== undefined) set.conditions = JSON.stringify(fields.conditions);
  if (fields.actions !== undefined) set.actions = JSON.stringify(fields.actions);
  if (fields.stop_after !== undefined) set.stop_after = fields.stop_after;
  const row = await (await dbOf(db)).updateTable('rules').set(set).where('org_id', '=', orgId).where('id', '=', id).returning(RULE_COLUMNS).executeTakeFirst();
  return row && readRule(row);
}

/**
 * Puts the rule at `position` (0 first; past the end: last) and numbers the organisation's rules 0, 1, 2… again, in
 * one statement over rows locked in order, so two moves at once leave a consistent order (the second sees the first).
 */
export async function moveRule(orgId: string, id: string, position: number, db?: DB): Promise<boolean> {
  const d = await dbOf(db);
  const run = async (trx: DB) => {
    const rows = await sql<{ id: string }>`select id from rules where org_id = ${orgId} order by position, created_at, id for update`.execute(trx);
    const ids = rows.rows.map((r) => r.id);
    const from = ids.indexOf(id);
    if (from < 0) return false;
    ids.splice(from, 1);
    ids.splice(Math.min(Math.max(0, position), ids.length), 0, id);
    await sql`update rules r set position = v.position from unnest(${ids}::text[], ${ids.map((_, i) => i)}::int[]) as v(id, position)
               where r.id = v.id and r.org_id = ${orgId} and r.position <> v.position`.execute(trx);
    return true;
  };
  return d.isTransaction ? run(d) : d.transaction().execute(run);
}

/** Deletes a rule of the organisation (its firings go with it) and closes the gap in the order. */
export async function deleteRule(orgId: string, id: string, db?: DB): Promise<StoredRule | undefined> {
  const d = await dbOf(db);
  const run = async (trx: DB) => {
    const row = await trx.deleteFrom('rules').where('org_id', '=', orgId).where('id', '=', id).returning(RULE_COLUMNS).executeTakeFirst();
    if (row) await sql`update rules set position = position - 1 where org_id = ${orgId} and position > ${row.position}`.execute(trx);
    return row && readRule(row);
  };
  return d.isTransaction ? run(d) : d.transaction().execute(run);
}

/** How often each rule of the organisation fired in the last 7 days (rules that did not are absent). */
export async function ruleFiringsThisWeek(orgId: string, db?: DB): Promise<Map<string, number>> {
  const r = await sql<{ rule_id: string; n: number }>`
    select f.rule_id, count(*)::int as n from rules r join rule_firings f on f.rule_id = r.id
     where r.org_id = ${orgId} and f.fired_at >= now() - interval '7 days'
     group by f.rule_id`.execute(await dbOf(db));
  return new Map(r.rows.map((x) => [x.rule_id, Number(x.n)]));
}

// ── what a rule's actions name, checked to be the organisation's ───────────────────────────────────────────────────

/** Of `ids`, those that are the organisation's — tags, members, destinations (with their platform), reply templates, apps. */
export async function ownedReferences(
  orgId: string,
  ask: { tags: string[]; users: string[]; destinations: string[]; templates: string[]; apps: string[] },
  db?: DB,
): Promise<{ tags: Set<string>; users: Set<string>; destinations: Map<string, string>; templates: Map<string, { app_key: string }>; apps: Set<string> }> {
  const d = await dbOf(db);
  const none = <T>() => Promise.resolve([] as T[]);
  const [tags, users, destinations, templates, apps] = await Promise.all([
    ask.tags.length ? d.selectFrom('tags').select('id').where('org_id', '=', orgId).where('id', 'in', ask.tags).execute() : none<{ id: string }>(),
    ask.users.length ? d.selectFrom('users').select('id').where('org_id', '=', orgId).where('id', 'in', ask.users).execute() : none<{ id: string }>(),
    ask.destinations.length ? d.selectFrom('destinations').select(['id', 'platform']).where('org_id', '=', orgId).where('id', 'in', ask.destinations).execute() : none<{ id: string; platform: string }>(),
    ask.templates.length ? d.selectFrom('reply_templates').select(['id', 'app_key']).where('org_id', '=', orgId).where('id', 'in', ask.templates).execute() : none<{ id: string; app_key: string }>(),
    ask.apps.length ? d.selectFrom('org_apps').select('app_key as id').where('org_id', '=', orgId).where('app_key', 'in', ask.apps).execute() : none<{ id: string }>(),
  ]);
  return {
    tags: new Set(tags.map((x) => x.id)),
    users: new Set(users.map((x) => x.id)),
    destinations: new Map(destinations.map((x) => [x.id, x.platform])),
    templates: new Map(templates.map((x) => [x.id, { app_key: x.app_key }])),
    apps: new Set(apps.map((x) => x.id)),
  };
}

/** Names of the organisation's tags, members, destinations and templates, for the dry run's sentences. */
export async function referenceNames(orgId: string, db?: DB): Promise<{ tags: Map<string, string>; users: Map<string, string>; destinations: Map<string, string>; templates: Map<string, string> }> {
  const d = await dbOf(db);
  const [tags, users, destinations, templates] = await Promise.all([
    d.selectFrom('tags').select(['id', 'name']).where('org_id', '=', orgId).execute(),
    d.selectFrom('users').select(['id', 'email']).where('org_id', '=', orgId).execute(),
    d.selectFrom('destinations').select(['id', 'platform', 'label']).where('org_id', '=', orgId).execute(),
    d.selectFrom('reply_templates').select(['id', 'name']).where('org_id', '=', orgId).execute(),
  ]);
  return {
    tags: new Map(tags.map((x) => [x.id, x.name])),
    users: new Map(users.map((x) => [x.id, x.email])),
    destinations: new Map(destinations.map((x) => [x.id, x.label ? `${x.label} (${x.platform})` : x.platform])),
    templates: new Map(templates.map((x) => [x.id, x.name])),
  };
}

// ── the queue and what the runner reads ────────────────────────────────────────────────────────────────────────────

export type QueuedReview = { review_id: number; review_version: number; attempts: number };

/**
 * Up to `limit` queued reviews, oldest first, locked for this transaction: another worker's pass skips them (and
 * takes the next ones), so two workers never evaluate one review at once. Must run inside a transaction.
 */
export async function takeQueued(trx: DB, limit: number): Promise<QueuedReview[]> {
  const r = await sql<QueuedReview>`
    ${PREPARED}select review_id, review_version, attempts from rule_queue
     order by queued_at, review_id limit ${limit} for update skip locked`.execute(trx);
  return r.rows.map((x) => ({ review_id: Number(x.review_id), review_version: x.review_version, attempts: x.attempts }));
}

/** Locks one queued review for this transaction; false when it is gone or another worker holds it. */
export async function lockQueued(trx: DB, item: { review_id: number; review_version: number }): Promise<boolean> {
  const r = await sql`select 1 from rule_queue where review_id = ${item.review_id} and review_version = ${item.review_version} for update skip locked`.execute(trx);
  return r.rows.length > 0;
}

/** Whether reviews wait to be evaluated, and whether reply actions wait to run: the idle loop's one cheap question. */
export async function workWaiting(db?: DB): Promise<{ queued: boolean; replies: boolean }> {
  const r = await sql<{ queued: boolean; replies: boolean }>`
    select exists (select 1 from rule_queue) as queued, exists (select 1 from rule_firings where reply_pending) as replies`.execute(await dbOf(db));
  return { queued: r.rows[0]?.queued === true, replies: r.rows[0]?.replies === true };
}

export async function dropQueued(trx: DB, items: Array<{ review_id: number; review_version: number }>): Promise<void> {
  if (items.length === 0) return;
  await sql`${PREPARED}delete from rule_queue q using unnest(${items.map((x) => x.review_id)}::bigint[], ${items.map((x) => x.review_version)}::int[]) as v(id, version)
             where q.review_id = v.id and q.review_version = v.version`.execute(trx);
}

/** One more failed attempt at a queued review; it moves to the back of the queue. */
export async function countFailedAttempt(item: { review_id: number; review_version: number }, db?: DB): Promise<number> {
  const r = await sql<{ attempts: number }>`
    update rule_queue set attempts = attempts + 1, queued_at = now()
     where review_id = ${item.review_id} and review_version = ${item.review_version} returning attempts`.execute(await dbOf(db));
  return r.rows[0]?.attempts ?? 0;
}

/** A review as the runner reads it. */
export type ReviewForRules = {
  id: number;
  version: number;
  app_key: string;
  store: string;
  rating: number;
  title: string | null;
  body: string;
  text_language: string | null;
  language: string | null;
  country: string | null;
  app_version: string | null;
  sentiment: string | null;
  author_name: string;
  updated_at: Date;
  written_at: Date | null;
  reply_text: string | null;
  translations: Array<{ language: string; title: string | null; body: string }>;
};

const REVIEW_SELECT = sql`r.id, r.version, r.app_key, r.store, r.rating, r.title, r.body, r.text_language, r.language, r.country, r.app_version,
  r.sentiment, r.author_name, r.updated_at, r.written_at, r.reply_text,
  coalesce((select jsonb_agg(jsonb_build_object('language', t.language, 'title', t.title, 'body', t.body) order by t.language)
              from review_translations t where t.review_id = r.id and t.review_version = r.version), '[]'::jsonb) as translations`;

type ReviewRow = Omit<ReviewForRules, 'translations'> & { translations: unknown };
const readReview = (r: ReviewRow): ReviewForRules => ({
  ...r,
  id: Number(r.id),
  updated_at: new Date(r.updated_at),
  written_at: r.written_at ? new Date(r.written_at) : null,
  translations: (typeof r.translations === 'string' ? JSON.parse(r.translations) : r.translations) as ReviewForRules['translations'],
});

export async function reviewsForRules(ids: number[], db?: DB): Promise<ReviewForRules[]> {
  if (ids.length === 0) return [];
  const r = await sql<ReviewRow>`${PREPARED}select ${REVIEW_SELECT} from reviews r where r.id = any(${ids}::bigint[])`.execute(await dbOf(db));
  return r.rows.map(readReview);
}

/**
 * The organisations that watch these apps, have an enabled rule and have not paused the app for their plan, with
 * when each added the app: rules act on reviews the store dates from then on (an app's history, stored quietly when
 * it is added, is not new work), and on every edit.
 */
export async function watchersWithRules(appKeys: string[], db?: DB): Promise<Array<{ org_id: string; app_key: string; added_at: Date }>> {
  if (appKeys.length === 0) return [];
  const r = await sql<{ org_id: string; app_key: string; added_at: Date }>`
    ${PREPARED}select oa.org_id, oa.app_key, oa.created_at as added_at from org_apps oa
     where oa.app_key = any(${appKeys}::text[]) and oa.plan_paused_at is null
       and exists (select 1 from rules r where r.org_id = oa.org_id and r.enabled)`.execute(await dbOf(db));
  return r.rows.map((x) => ({ ...x, added_at: new Date(x.added_at) }));
}

/** The tags of these reviews in the organisation. */
export async function tagsOfReviews(orgId: string, reviewIds: number[], db?: DB): Promise<Map<number, Set<string>>> {
  const byKey = await tagsOfReviewsInOrgs([orgId], reviewIds, await dbOf(db));
  const out = new Map<number, Set<string>>();
  for (const id of reviewIds) {
    const tags = byKey.get(workflowKey(orgId, id));
    if (tags) out.set(id, tags);
  }
  return out;
}

/** The tags of these reviews in each of these organisations, by workflowKey (one statement for the pass). */
export async function tagsOfReviewsInOrgs(orgIds: string[], reviewIds: number[], db: DB): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (orgIds.length === 0 || reviewIds.length === 0) return out;
  const r = await sql<{ org_id: string; review_id: number; tag_id: string }>`
    ${PREPARED}select org_id, review_id, tag_id from review_tags where org_id = any(${orgIds}::text[]) and review_id = any(${reviewIds}::bigint[])`.execute(db);
  for (const x of r.rows) {
    const key = workflowKey(x.org_id, Number(x.review_id));
    (out.get(key) ?? out.set(key, new Set()).get(key)!).add(x.tag_id);
  }
  return out;
}

/** What a pass's actions name, each with the organisation it belongs to: tags (and names), members, destinations (and status). */
export type PassReferences = {
  tags: Map<string, { orgId: string; name: string }>;
  users: Map<string, { orgId: string }>;
  destinations: Map<string, { orgId: string; status: string }>;
};

export async function passReferences(ask: { tags: string[]; users: string[]; destinations: string[] }, db: DB): Promise<PassReferences> {
  const out: PassReferences = { tags: new Map(), users: new Map(), destinations: new Map() };
  if (ask.tags.length + ask.users.length + ask.destinations.length === 0) return out;
  const r = await sql<{ kind: 'tag' | 'user' | 'destination'; id: string; org_id: string; extra: string | null }>`
    ${PREPARED}select 'tag' as kind, id, org_id, name as extra from tags where id = any(${ask.tags}::text[])
    union all select 'user', id, org_id, null from users where id = any(${ask.users}::text[]) and org_id is not null
    union all select 'destination', id, org_id, status from destinations where id = any(${ask.destinations}::text[])`.execute(db);
  for (const x of r.rows) {
    if (x.kind === 'tag') out.tags.set(x.id, { orgId: x.org_id, name: x.extra ?? '' });
    else if (x.kind === 'user') out.users.set(x.id, { orgId: x.org_id });
    else out.destinations.set(x.id, { orgId: x.org_id, status: x.extra ?? '' });
  }
  return out;
}

export const firingKey = (f: { ruleId: string; reviewId: number; reviewVersion: number }) => `${f.ruleId}:${f.reviewId}:${f.reviewVersion}`;

/**
 * Of these matches, the firingKeys already recorded (a rule fires once per version of a review). Nearly always none:
 * a review's version is queued once and its queue row locked by the one pass that takes it; this is what keeps a
 * rule from acting twice should a version ever come round again.
 */
export async function firedAlready(rows: Array<{ ruleId: string; reviewId: number; reviewVersion: number }>, db: DB): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const r = await sql<{ rule_id: string; review_id: number; review_version: number }>`
    ${PREPARED}select rule_id, review_id, review_version from rule_firings where review_id = any(${[...new Set(rows.map((x) => x.reviewId))]}::bigint[])`.execute(db);
  const asked = new Set(rows.map(firingKey));
  return new Set(r.rows.map((x) => firingKey({ ruleId: x.rule_id, reviewId: Number(x.review_id), reviewVersion: x.review_version })).filter((k) => asked.has(k)));
}

/**
 * Records the firings with what their actions did (`replyPending`: its reply action runs after the commit,
 * replies.ts), in one statement; how many were new (unique per rule × review × version: the rest already were).
 */
export async function insertFirings(rows: Array<{ orgId: string; ruleId: string; reviewId: number; reviewVersion: number; outcomes: unknown[]; replyPending: boolean }>, db: DB): Promise<number> {
  if (rows.length === 0) return 0;
  const r = await sql`
    ${PREPARED}insert into rule_firings (org_id, rule_id, review_id, review_version, outcomes, reply_pending)
    select v.org_id, v.rule_id, v.review_id, v.review_version, v.outcomes::jsonb, v.pending
      from unnest(${rows.map((x) => x.orgId)}::text[], ${rows.map((x) => x.ruleId)}::text[], ${rows.map((x) => x.reviewId)}::bigint[], ${rows.map((x) => x.reviewVersion)}::int[],
                  ${rows.map((x) => JSON.stringify(x.outcomes))}::text[], ${rows.map((x) => x.replyPending)}::boolean[]) as v(org_id, rule_id, review_id, review_version, outcomes, pending)
    on conflict (rule_id, review_id, review_version) do nothing`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

export type PendingReplyFiring = { id: number; org_id: string; rule_id: string; rule_name: string; review_id: number; outcomes: Array<{ type: string; outcome: string }>; fired_at: Date };

/** Firings whose reply action has not run yet, oldest first. */
export async function pendingReplies(limit: number, db?: DB): Promise<PendingReplyFiring[]> {
  const r = await sql<PendingReplyFiring>`
    select f.id, f.org_id, f.rule_id, r.name as rule_name, f.review_id, f.outcomes, f.fired_at
      from rule_firings f join rules r on r.id = f.rule_id
     where f.reply_pending order by f.id limit ${limit}`.execute(await dbOf(db));
  return r.rows.map((x) => ({
    ...x,
    id: Number(x.id),
    review_id: Number(x.review_id),
    fired_at: new Date(x.fired_at),
    outcomes: (typeof x.outcomes === 'string' ? JSON.parse(x.outcomes) : x.outcomes) as PendingReplyFiring['outcomes'],
  }));
}

/** The reply's outcome, written only by the first to finish it (the firing still pending). */
export async function finishPendingReply(firingId: number, outcomes: unknown[], db?: DB): Promise<boolean> {
  const r = await sql`update rule_firings set outcomes = ${JSON.stringify(outcomes)}::jsonb, reply_pending = false
                       where id = ${firingId} and reply_pending`.execute(await dbOf(db));
  return Number(r.numAffectedRows ?? 0) > 0;
}


/** The firings of a review (newest version first), for tests and the review's history. */
export async function firingsOfReview(orgId: string, reviewId: number, db?: DB): Promise<Array<{ rule_id: string; review_version: number; outcomes: unknown; fired_at: Date }>> {
  const r = await sql<{ rule_id: string; review_version: number; outcomes: unknown; fired_at: Date }>`
    select rule_id, review_version, outcomes, fired_at from rule_firings where org_id = ${orgId} and review_id = ${reviewId}
     order by review_version desc, id`.execute(await dbOf(db));
  return r.rows.map((x) => ({ ...x, outcomes: typeof x.outcomes === 'string' ? JSON.parse(x.outcomes) : x.outcomes }));
}

/**
 * `notify` actions: each review to one destination of the organisation, once per version, through the delivery engine
 * (a delivery row; the worker formats and sends it like any other). `new` for the first version, `updated` for an
 * edit — the kinds and once-key (review, destination, kind, version) the fan-out uses, so a destination that already
 * got the review from its own filters gets nothing twice. The caller checked that each destination is active and the
 * organisation's. One statement; the notifyKeys of the deliveries it queued (the others had them).
 */
export const notifyKey = (x: { destinationId: string; reviewId: number; version: number }) => `${x.destinationId}:${x.reviewId}:${x.version}`;
export const deliveryKindOf = (version: number) => (version === 0 ? 'new' : 'updated');

export async function queueNotifies(rows: Array<{ destinationId: string; reviewId: number; appKey: string; version: number }>, db: DB): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const r = await sql<{ destination_id: string; review_id: number; review_version: number }>`
    ${PREPARED}insert into deliveries (destination_id, review_id, app_key, kind, review_version)
    select * from unnest(${rows.map((x) => x.destinationId)}::text[], ${rows.map((x) => x.reviewId)}::bigint[], ${rows.map((x) => x.appKey)}::text[],
                         ${rows.map((x) => deliveryKindOf(x.version))}::text[], ${rows.map((x) => x.version)}::int[])
    on conflict do nothing
    returning destination_id, review_id, review_version`.execute(db);
  return new Set(r.rows.map((x) => notifyKey({ destinationId: x.destination_id, reviewId: Number(x.review_id), version: x.review_version })));
}

/** The newest `limit` reviews of these apps (the dry run's sample), with what the runner reads of them. */
export async function recentReviews(appKeys: string[], limit: number, db?: DB): Promise<ReviewForRules[]> {
  if (appKeys.length === 0) return [];
  const r = await sql<ReviewRow>`
    select ${REVIEW_SELECT} from (
      select x.* from unnest(${appKeys}::text[]) as k(app_key)
      cross join lateral (select * from reviews r where r.app_key = k.app_key order by r.updated_at desc, r.id desc limit ${limit}) x
    ) r order by r.updated_at desc, r.id desc limit ${limit}`.execute(await dbOf(db));
  return r.rows.map(readReview);
}

/** The organisation's apps (keys). */
export async function appKeysOf(orgId: string, db?: DB): Promise<string[]> {
  const rows = await (await dbOf(db)).selectFrom('org_apps').select('app_key').where('org_id', '=', orgId).orderBy('app_key').execute();
  return rows.map((x) => x.app_key);
}

/** Which of these reviews have a reply: the store shows one, or one was sent through ARB (any state but a draft). */
export async function repliedReviews(orgId: string, reviewIds: number[], db?: DB): Promise<Set<number>> {
  if (reviewIds.length === 0) return new Set();
  const r = await sql<{ id: number }>`
    select r.id from reviews r where r.id = any(${reviewIds}::bigint[]) and r.reply_text is not null
    union
    select p.review_id from replies p where p.org_id = ${orgId} and p.review_id = any(${reviewIds}::bigint[]) and p.state <> 'draft'`.execute(await dbOf(db));
  return new Set(r.rows.map((x) => Number(x.id)));
}
