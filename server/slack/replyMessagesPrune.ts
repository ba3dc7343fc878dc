/**
 * Where a review's Slack message is (slack_reply_messages, kept at a Reply click) is needed only to update that
 * message when the review's reply is published (published.ts). Once the last click is a month old and nothing is left
 * to show — no reply of the destination's organisation to that review still on its way to the store (sending,
 * pending_publish) or published and not shown yet — the row is deleted; a new click keeps it again.
 */
import { sql } from 'kysely';
import type { DB } from '../db/client';
import { msInterval } from '../db/interval';

/** A kept message whose last Reply click is older than this, with nothing left to show, is forgotten. */
export const REPLY_MESSAGE_KEEP_MS = 30 * 24 * 3600_000;

/** Deletes the messages nothing will update any more, `batch` per statement; resolves with how many. */
export async function pruneSlackReplyMessages(db: DB, opts: { batch?: number; keepMs?: number } = {}): Promise<number> {
  const batch = opts.batch ?? 1000;
  let deleted = 0;
  for (;;) {
    const r = await sql<{ n: number }>`
      with old as (
        select m.destination_id, m.review_id from slack_reply_messages m
         where coalesce(m.response_url_at, m.created_at) < now() - ${msInterval(opts.keepMs ?? REPLY_MESSAGE_KEEP_MS)}
           and not exists (
             select 1 from replies rp join destinations d on d.id = m.destination_id
              where rp.org_id = d.org_id and rp.review_id = m.review_id
                and (rp.state in ('sending', 'pending_publish')
                     or (rp.state = 'published' and rp.published_at is not null
                         and (m.shown_published_at is null or m.shown_published_at < rp.published_at))))
         limit ${batch}),
      gone as (
        delete from slack_reply_messages m using old
         where m.destination_id = old.destination_id and m.review_id = old.review_id
        returning 1)
      select count(*)::int as n from gone`.execute(db);
    const n = r.rows[0]?.n ?? 0;
    deleted += n;
    if (n < batch) return deleted;
  }
}
