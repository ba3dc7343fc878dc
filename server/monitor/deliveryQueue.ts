/**
 * Reads a held destination's open deliveries, in queue order, with everything a message is built from (app, review,
 * the versions an edit announces). The destinations a claim hands out all read their queues at the same moment, so the
 * reads are grouped (grouped.ts): one statement for every destination asking at that moment instead of one each.
 */
import { sql } from 'kysely';
import type { DB } from '../db/client';
import { INTERRUPTED, OPEN } from './deliveryStatus';
import { grouped } from './grouped';
import { PREPARED } from '../db/preparedStatements';
import type { OpenDelivery } from './messages';

/**
 * Up to `limit` open deliveries per destination, oldest first (the welcome intro before the reviews it announces).
 * Every step is an index lookup, whatever the size of `deliveries` (it keeps every delivery ever made):
 * tests/worker/queueRead.test.ts checks the plan.
 */
export function queueRead(destinationIds: string[], limit: number) {
  return sql<OpenDelivery & { destination_id: string }>`${PREPARED}
    select q.* from unnest(${destinationIds}::text[]) as dd(id)
    cross join lateral (
      select x.destination_id, x.id, x.webhook_id, x.kind, x.review_version, x.status, x.attempts, x.next_attempt_at, x.first_attempt_at,
             -- An attempt whose outcome was never recorded (deliveryMarks.ts; 'sending' from earlier versions).
             ${INTERRUPTED('x')} as interrupted, x.interrupted_sends,
             x.created_at, x.app_key, x.review_id,
             a.store as app_store, a.app_id, a.title as app_title, a.icon_url as app_icon_url, a.store_url as app_store_url,
             r.store_review_id, r.country, coalesce(r.text_language, nullif(r.language, '')) as language, r.author_name, r.title, r.body, r.rating, r.app_version,
             r.written_at, r.updated_at, r.reply_text, r.reply_updated_at, r.permalink, r.sentiment, r.sentiment_score,
             va.rating as at_rating, va.title as at_title, va.body as at_body, va.updated_at as at_updated_at,
             vp.rating as prev_rating, vp.title as prev_title, vp.body as prev_body,
             -- The destination's organisation's tags on the review (server/workflow): one probe of review_tags' key.
             case when x.review_id is not null then (
               select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) order by lower(t.name), t.id)
                 from destinations dt join review_tags rt on rt.org_id = dt.org_id and rt.review_id = x.review_id join tags t on t.id = rt.tag_id
                where dt.id = x.destination_id)
             end as tags,
             x.alert_episode_id, e.since as alert_since, e.details as alert_details,
             x.weekly_summary_id::int as weekly_summary_id, to_char(ws.week_start, 'YYYY-MM-DD') as summary_week_start, ws.method as summary_method,
             ws.content as summary_content, ws.note as summary_note,
             -- The recent reviews queued with this intro (same transaction, so the same created_at). They are still
             -- open while the intro is (a queue goes out in order), and asking only among open deliveries lets the
             -- open-queue index find them: without it, every intro read scanned the whole table.
             case when x.kind = 'welcome' then (
               select count(*)::int from deliveries w
                where w.destination_id = x.destination_id and w.status in ${OPEN} and w.app_key = x.app_key and w.kind = 'new'
                  and w.created_at = x.created_at)
             end as welcome_recent,
             -- A review queued with a welcome intro (same transaction, so the same created_at): one of the recent
             -- reviews the welcome shows, labelled "Recent review", not "New review". One probe of the intro's unique
             -- index (destination, app), which leads with the destination: the intro may have been sent already.
             case when x.kind = 'new' then exists (
               select 1 from deliveries i
                where i.destination_id = x.destination_id and i.app_key = x.app_key and i.review_id is null
                  and i.alert_episode_id is null and i.weekly_summary_id is null and i.created_at = x.created_at)
             else false end as welcome_review
        from deliveries x
        join apps a on a.key = x.app_key
        left join reviews r on r.id = x.review_id
        left join spike_episodes e on e.id = x.alert_episode_id
        left join weekly_summaries ws on ws.id = x.weekly_summary_id
        left join review_versions va on x.kind = 'updated' and va.review_id = x.review_id and va.version = x.review_version
        left join review_versions vp on x.kind = 'updated' and vp.review_id = x.review_id and vp.version = x.review_version - 1
       where x.destination_id = dd.id and x.status in ${OPEN}
       order by x.id
       limit ${limit}) q
    order by q.id`;
}

async function loadQueues(db: DB, destinationIds: string[], limit: number): Promise<OpenDelivery[][]> {
  const r = await queueRead(destinationIds, limit).execute(db);
  const byDestination = new Map<string, OpenDelivery[]>(destinationIds.map((id) => [id, []]));
  for (const row of r.rows) byDestination.get(row.destination_id)!.push(row);
  return destinationIds.map((id) => byDestination.get(id)!);
}

/** `load(destinationId)`: its next `limit` open deliveries, read together with other destinations asking meanwhile. */
export function createQueueLoader(db: DB, limit: number): (destinationId: string) => Promise<OpenDelivery[]> {
  return grouped<string, OpenDelivery[]>((ids) => loadQueues(db, ids, limit), (id) => id);
}
