/**
 * The review inbox of an organisation: its apps' reviews, newest first, filtered, searched and cursor-paged, each in
 * the one review shape (the public API's fields plus the dashboard's), and the CSV export of the same view.
 */
import type { ServerResponse } from 'node:http';
import { notFound } from '../http/errors';
import type { Membership } from '../org/membership';
import { orgAppKeys } from '../orgApps/data';
import { storeUrlOf } from '../monitor/apps';
import type { AppStore } from '../sources/types';
import type { ReplyStateName } from '@/shared/replies';
import { csvRecord } from './csv';
import { decodeCursor, encodeCursor } from './cursor';
import { inboxCount, inboxPage, readsFromQueueRows, type InboxQuery, type InboxRow } from './data';
import { ticketsOfReviews, type TicketLink } from '../zendesk/tickets';
import { ownTagIds, tagsByName } from '../workflow/data';
import type { WorkflowStatus } from '@/shared/workflow';
import type { InboxFilters } from './filterQuery';

/** What the inbox's queries take: the inbox query's parsed filters (filterQuery.ts). */
export type { InboxFilters };

/** The query of `filters` over the caller's apps; an app named in the filter that is not theirs is a 404. */
async function scoped(m: Membership, f: InboxFilters): Promise<Omit<InboxQuery, 'limit' | 'after'>> {
  const own = await orgAppKeys(m.orgId);
  let keys = own;
  if (f.app?.length) {
    const mine = new Set(own);
    const foreign = f.app.find((k) => !mine.has(k));
    if (foreign) throw notFound(`app: ${foreign} is not an app of your organisation.`);
    keys = [...new Set(f.app)];
  }
  if (f.store) keys = keys.filter((k) => k.startsWith(`${f.store}__`));
  let tagIds: string[] | undefined;
  if (f.tag?.length) {
    // A tag by its id (tag_…) or its name, any case; one that is not the organisation's is a 404 like a foreign app.
    const byName = await tagsByName(m.orgId, f.tag);
    const own = new Set((await ownTagIds(m.orgId, f.tag)));
    const found = f.tag.map((t) => (own.has(t) ? t : byName.get(t.toLowerCase())?.id));
    const missing = f.tag.find((_, i) => !found[i]);
    if (missing !== undefined) throw notFound(`tag: ${missing} is not a tag of your organisation.`);
    tagIds = [...new Set(found.filter((t): t is string => !!t))];
  }
  const assignees = f.assignee?.length
    ? { ids: [...new Set(f.assignee.filter((a) => a !== 'none').map((a) => (a === 'me' ? m.userId : a)))], none: f.assignee.includes('none') }
    : undefined;
  return {
    statuses: f.status,
    tagIds,
    assignees,
    appKeys: keys,
    ratings: f.rating,
    countries: f.country,
    languages: f.language,
    sentiments: f.sentiment,
    replied: f.replied,
    q: f.q,
    reviewId: f.review,
    from: f.from,
    to: f.to,
    orgId: m.orgId,
  };
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The organisation's reply through ARB: its state, text, failure, who and when, and whether the review moved on since. */
function ownReply(r: InboxRow) {
  if (!r.own_reply_state) return null;
  return {
    state: r.own_reply_state as ReplyStateName,
    text: r.own_reply_text ?? '',
    failure: r.own_reply_state === 'failed' ? r.own_reply_failure : null,
    by: r.own_reply_by,
    at: iso(r.own_reply_at)!,
    edited_after_reply: !!r.own_reply_review_updated_at && new Date(r.updated_at).getTime() > new Date(r.own_reply_review_updated_at).getTime(),
  };
}

const tagsOf = (r: InboxRow) => (typeof r.tags === 'string' ? (JSON.parse(r.tags) as Array<{ id: string; name: string; color: string }>) : (r.tags ?? []));

/** A review as the dashboard, the exports and the public API show it. */
export function reviewJson(r: InboxRow) {
  const own = ownReply(r);
  return {
    id: r.id,
    app_key: r.app_key,
    app_id: r.app_id,
    app_store: r.store,
    title: r.app_title,
    author_display_name: r.author_name,
    content_title: r.title,
    content_body: r.body,
    content_rating: r.rating,
    content_updated_at: iso(r.updated_at)!,
    written_at: iso(r.written_at),
    reply_text: r.reply_text,
    replied_at: iso(r.reply_updated_at),
    reply_state: own?.state ?? (r.reply_text ? ('published' as const) : ('none' as const)),
    reply: own,
    country: r.country,
    language: r.language,
    store_permalink: r.permalink ?? storeUrlOf({ store: r.store as AppStore, app_id: r.app_id, store_url: null }),
    sentiment: r.sentiment,
    version: r.app_version,
    edited: r.version > 0,
    previous_rating: r.previous_rating,
    tags: tagsOf(r),
  };
}

export type InboxReview = ReturnType<typeof reviewJson>;

/** A review in the dashboard's inbox: the public review and its place in the organisation's queue (server/workflow). */
export function inboxReviewJson(r: InboxRow, ticket: TicketLink | null = null) {
  const status = (r.wf_status ?? (r.reply_text !== null ? 'replied' : 'new')) as WorkflowStatus;
  return {
    ...reviewJson(r),
    status,
    status_reason: r.wf_reason,
    assignee: r.wf_assignee_id && r.wf_assignee_email ? { id: r.wf_assignee_id, email: r.wf_assignee_email } : null,
    notes_count: r.notes_count,
    ticket,
  };
}

/** One page: the reviews, whether more follow, and the cursor of the next page. */
export async function inboxOf(m: Membership, f: InboxFilters, page: { limit: number; startingAfter?: string }) {
  const after = page.startingAfter ? decodeCursor(page.startingAfter) : undefined;
  const query = await scoped(m, f);
  // A view the queue's rows hold (a tag, an assignee…) is counted first: the count stops at 1,001, and when the view is
  // smaller the page is read from those rows at once — a rare tag's walk of the newest reviews would find nothing.
  // Otherwise both at once.
  const [rows, count] = readsFromQueueRows(query)
    ? await inboxCount(query).then(async (c) => [await inboxPage({ ...query, after, limit: page.limit + 1 }, undefined, { few: !c.estimate }), c] as const)
    : await Promise.all([inboxPage({ ...query, after, limit: page.limit + 1 }), inboxCount(query)]);
  const data = rows.slice(0, page.limit);
  const last = data.at(-1);
  const tickets = data.length ? await ticketsOfReviews(m.orgId, data.map((r) => String(r.id))) : new Map<string, TicketLink>();
  return {
    total: count.total,
    total_is_estimate: count.estimate,
    data: data.map((r) => inboxReviewJson(r, tickets.get(String(r.id)) ?? null)),
    has_more: rows.length > page.limit,
    next_cursor: rows.length > page.limit && last ? encodeCursor({ us: last.position_us, id: last.id }) : null,
  };
}

/** The most rows one export holds (docs: API and README): the newest of the view. */
export const EXPORT_MAX_ROWS = 50_000;
const EXPORT_BATCH = 1000;

const CSV_COLUMNS = [
  'id', 'app', 'app_store', 'app_id', 'rating', 'previous_rating', 'edited', 'title', 'body', 'author', 'country', 'language',
  'version', 'updated_at', 'sentiment', 'reply', 'replied_at', 'store_permalink', 'status', 'tags',
] as const;

function csvRow(v: ReturnType<typeof inboxReviewJson>): string {
  return csvRecord([
    v.id, v.title, v.app_store, v.app_id, v.content_rating, v.previous_rating, v.edited, v.content_title, v.content_body, v.author_display_name,
    v.country, v.language, v.version, v.content_updated_at, v.sentiment, v.reply_text, v.replied_at, v.store_permalink,
    v.status, v.tags.map((t) => t.name).join(', '),
  ]);
}

const drained = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

/**
 * Streams the view as CSV, newest first, batch by batch (the cursor of the list), at most EXPORT_MAX_ROWS rows. The
 * first batch is read before anything is sent, so a bad filter still gets its JSON error; a client that goes away
 * stops the export.
 */
export async function exportCsv(m: Membership, f: InboxFilters, res: ServerResponse, now = new Date()): Promise<void> {
  const query = await scoped(m, f);
  let rows = await inboxPage({ ...query, limit: EXPORT_BATCH });
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Disposition', `attachment; filename="reviews-${now.toISOString().slice(0, 10)}.csv"`);
  // A byte-order mark, so spreadsheet programs read the file as UTF-8 (reviews are in every language).
  res.write(`\ufeff${csvRecord([...CSV_COLUMNS])}`);
  let sent = 0;
  while (rows.length > 0 && !res.destroyed) {
    const batch = rows.slice(0, EXPORT_MAX_ROWS - sent);
    if (!res.write(batch.map((r) => csvRow(inboxReviewJson(r))).join(''))) await drained(res);
    sent += batch.length;
    const last = rows.at(-1)!;
    if (rows.length < EXPORT_BATCH || sent >= EXPORT_MAX_ROWS) break;
    rows = await inboxPage({ ...query, after: { us: last.position_us, id: last.id }, limit: EXPORT_BATCH });
  }
  res.end();
}
