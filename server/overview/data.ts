/**
 * The SQL behind the /dashboard overview (GET v1/org/overview): the only place with it.
 *
 * - `appFigures`: per app of the organisation, its review counters of the last 60 UTC days from app_review_days (kept
 *   by triggers on reviews, migration 0038): counts and rating sums of the last 7 and 30 days (today included) and of
 *   the periods before them, the 1–2★ and the unanswered ones. At most 60 rows per app, whatever its volume. A review
 *   counts on the day the store last dated it (updated_at, UTC), as in the inbox and the app's stats.
 * - `replyTimes`: the median time from a review to its reply, over the replies of the last 30 days, from the partial
 *   index of replied reviews (migration 0038).
 * - `attention`: what needs someone: open spike alerts of the apps, the organisation's paused, stopped or failing
 *   destinations, and the apps whose store credentials the store refused (the official source paused with the
 *   store's answer, server/monitor/sources.ts recordPollFailure).
 * - `setupState`: what the setup checklist ticks (apps, a channel, someone else in the team).
 */
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';

const DAY_MS = 86_400_000;

export type AppFigureRow = {
  app_key: string;
  title: string;
  store: string;
  icon_url: string | null;
  /** The App Store storefronts the organisation watches (empty for Google Play): the store rating is theirs. */
  countries: string[];
  /** Paused because the plan allows fewer apps (server/plans/pauses.ts). */
  plan_paused: boolean;
  reviews_7d: number;
  rating_sum_7d: number;
  low_7d: number;
  reviews_prev_7d: number;
  rating_sum_prev_7d: number;
  reviews_30d: number;
  rating_sum_30d: number;
  low_30d: number;
  reviews_prev_30d: number;
  rating_sum_prev_30d: number;
  unanswered_30d: number;
  unanswered_low_30d: number;
};

/** The UTC day `n` days before `now`'s, 'YYYY-MM-DD'. */
export const dayBefore = (now: Date, n: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - n * DAY_MS).toISOString().slice(0, 10);

/** The statement (the bench EXPLAINs it). The periods are whole UTC days: the last 7 are today and the 6 before. */
export function appFiguresQuery(orgId: string, now: Date) {
  const today = dayBefore(now, 0);
  const d7 = dayBefore(now, 6);
  const d14 = dayBefore(now, 13);
  const d30 = dayBefore(now, 29);
  const d60 = dayBefore(now, 59);
  return sql<AppFigureRow>`
    select oa.app_key, a.title, a.store, a.icon_url, oa.countries, oa.plan_paused_at is not null as plan_paused, f.*
      from org_apps oa
      join apps a on a.key = oa.app_key
      cross join lateral (
        select coalesce(sum(d.reviews) filter (where d.day >= ${d7}::date), 0)::int as reviews_7d,
               coalesce(sum(d.rating_sum) filter (where d.day >= ${d7}::date), 0)::int as rating_sum_7d,
               coalesce(sum(d.low) filter (where d.day >= ${d7}::date), 0)::int as low_7d,
               coalesce(sum(d.reviews) filter (where d.day >= ${d14}::date and d.day < ${d7}::date), 0)::int as reviews_prev_7d,
               coalesce(sum(d.rating_sum) filter (where d.day >= ${d14}::date and d.day < ${d7}::date), 0)::int as rating_sum_prev_7d,
               coalesce(sum(d.reviews) filter (where d.day >= ${d30}::date), 0)::int as reviews_30d,
               coalesce(sum(d.rating_sum) filter (where d.day >= ${d30}::date), 0)::int as rating_sum_30d,
               coalesce(sum(d.low) filter (where d.day >= ${d30}::date), 0)::int as low_30d,
               coalesce(sum(d.reviews) filter (where d.day < ${d30}::date), 0)::int as reviews_prev_30d,
               coalesce(sum(d.rating_sum) filter (where d.day < ${d30}::date), 0)::int as rating_sum_prev_30d,
               coalesce(sum(d.unanswered) filter (where d.day >= ${d30}::date), 0)::int as unanswered_30d,
               coalesce(sum(d.unanswered_low) filter (where d.day >= ${d30}::date), 0)::int as unanswered_low_30d
          from app_review_days d
         where d.app_key = oa.app_key and d.day >= ${d60}::date and d.day <= ${today}::date) f
     where oa.org_id = ${orgId}
     order by lower(a.title), oa.app_key`;
}

export async function appFigures(orgId: string, now: Date, db?: DB): Promise<AppFigureRow[]> {
  return (await appFiguresQuery(orgId, now).execute(db ?? (await getDb()))).rows;
}

export type ReplyTimeRow = { app_key: string; replies: number; median_seconds: number | null };

/** The newest replies per app the median is taken over (a busy app's month of replies says no more than these). */
export const MEDIAN_MAX_REPLIES = 200;

/**
 * Per app, the replies of the last 30 days (by the reply's date, today included) and the median time from the review
 * to its reply over the newest MEDIAN_MAX_REPLIES of them, from the partial index of replied reviews (0038). The
 * review's time is when it was written (written_at), else its store date; a reply dated before the review (the review
 * was edited after it) says nothing about the reply's speed and is left out.
 */
export function replyTimesQuery(appKeys: string[], now: Date) {
  const from = new Date(`${dayBefore(now, 29)}T00:00:00Z`);
  return sql<ReplyTimeRow>`
    select k.app_key, count(t.seconds)::int as replies,
           (percentile_cont(0.5) within group (order by t.seconds))::float8 as median_seconds
      from unnest(${appKeys}::text[]) as k(app_key)
      left join lateral (
        select extract(epoch from r.reply_updated_at - coalesce(r.written_at, r.updated_at))::float8 as seconds
          from reviews r
         where r.app_key = k.app_key and r.reply_text is not null
           and r.reply_updated_at >= ${from} and r.reply_updated_at <= ${now}
           and r.reply_updated_at >= coalesce(r.written_at, r.updated_at)
         order by r.reply_updated_at desc
         limit ${MEDIAN_MAX_REPLIES}) t on true
     group by k.app_key`;
}

export async function replyTimes(appKeys: string[], now: Date, db?: DB): Promise<ReplyTimeRow[]> {
  if (appKeys.length === 0) return [];
  return (await replyTimesQuery(appKeys, now).execute(db ?? (await getDb()))).rows;
}

export type OpenAlertRow = { id: number; app_key: string; title: string; scope_kind: string; scope_value: string; since: Date; opened_at: Date };

/** The open spike alerts of the organisation's apps, newest first. */
export async function openAlerts(orgId: string, db?: DB): Promise<OpenAlertRow[]> {
  const r = await sql<OpenAlertRow>`
    select e.id, e.app_key, a.title, e.scope_kind, e.scope_value, e.since, e.opened_at
      from org_apps oa
      join apps a on a.key = oa.app_key
      join spike_episodes e on e.app_key = oa.app_key and e.closed_at is null
     where oa.org_id = ${orgId}
     order by e.opened_at desc, e.id desc
     limit 20`.execute(db ?? (await getDb()));
  return r.rows;
}

export type TroubledDestinationRow = {
  id: string;
  platform: string;
  label: string | null;
  target_hint: string;
  status: string;
  status_reason: string | null;
  consecutive_failures: number;
  last_error: string | null;
};

/** The organisation's destinations that do not deliver: paused, stopped, or failing their last attempts. */
export async function troubledDestinations(orgId: string, db?: DB): Promise<TroubledDestinationRow[]> {
  return (db ?? (await getDb()))
    .selectFrom('destinations')
    .select(['id', 'platform', 'label', 'target_hint', 'status', 'status_reason', 'consecutive_failures', 'last_error'])
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('status', 'in', ['paused', 'disabled']), eb.and([eb('status', '=', 'active'), eb('consecutive_failures', '>', 0)])]))
    .orderBy('created_at')
    .limit(20)
    .execute();
}

export type RefusedCredentialsRow = { app_key: string; title: string; credentials_label: string | null; reason: string | null };

/** The organisation's apps whose stored store credentials the store refused: their official source is paused. */
export async function refusedCredentials(orgId: string, db?: DB): Promise<RefusedCredentialsRow[]> {
  const r = await sql<RefusedCredentialsRow>`
    select oa.app_key, a.title, oa.credentials_label, s.status_reason as reason
      from org_apps oa
      join apps a on a.key = oa.app_key
      join monitored_sources s on s.app_key = oa.app_key and s.kind in ('appstore_connect', 'play_developer')
     where oa.org_id = ${orgId} and oa.credentials_enc is not null and s.status = 'paused'
     order by lower(a.title)`.execute(db ?? (await getDb()));
  return r.rows;
}

export type SetupRow = { apps: number; channels: number; members: number; invitations: number };

/** What the setup checklist ticks: apps, destinations (any state), other members and open invitations. */
export async function setupState(orgId: string, db?: DB): Promise<SetupRow> {
  const r = await sql<SetupRow>`
    select (select count(*) from org_apps where org_id = ${orgId})::int as apps,
           (select count(*) from destinations where org_id = ${orgId})::int as channels,
           (select count(*) from users where org_id = ${orgId})::int as members,
           (select count(*) from org_invitations where org_id = ${orgId} and accepted_at is null and revoked_at is null and expires_at > now())::int as invitations`.execute(
    db ?? (await getDb()),
  );
  return r.rows[0];
}
