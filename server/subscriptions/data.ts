/**
 * Data layer of reviews by e-mail (tables of migration 0003): recipients (one row per address, the unsubscribe flag and
 * the digest schedule), subscriptions (address × app × storefront) and the outbox of one-off e-mails.
 * Claims are leases taken with FOR UPDATE SKIP LOCKED, so any number of processes can work the same tables.
 */
import { sql, type Selectable } from 'kysely';
import { getDb } from '../db/client';
import { msInterval as ms } from '../db/interval';
import { claimRows, leaseEnd, leaseRanOut } from '../db/lease';
import type { EmailRequestKind, EmailSubscriptionsTable } from '../db/types';
import { randomId } from '../crypto';

export type SubscriptionRow = Selectable<EmailSubscriptionsTable>;

export async function isAddressUnsubscribed(email: string): Promise<boolean> {
  const db = await getDb();
  const row = await db.selectFrom('email_recipients').select('unsubscribed_at').where('email', '=', email).executeTakeFirst();
  return Boolean(row?.unsubscribed_at);
}

/** The address's unsubscribe generation (0 for an address never seen): e-mail links carry the one they were made in. */
export async function addressGeneration(email: string): Promise<number> {
  const db = await getDb();
  const row = await db.selectFrom('email_recipients').select('generation').where('email', '=', email).executeTakeFirst();
  return row?.generation ?? 0;
}

/** The subscription for address × app × storefront, created on first request. */
export async function saveSubscription(input: { email: string; appKey: string; country: string; ip: string | null }): Promise<SubscriptionRow> {
  const db = await getDb();
  await db.insertInto('email_recipients').values({ email: input.email }).onConflict((oc) => oc.column('email').doNothing()).execute();
  const inserted = await db
    .insertInto('email_subscriptions')
    .values({ id: randomId('esub'), email: input.email, app_key: input.appKey, country: input.country, created_ip: input.ip })
    .onConflict((oc) => oc.columns(['email', 'app_key', 'country']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return inserted;
  return db
    .selectFrom('email_subscriptions')
    .selectAll()
    .where('email', '=', input.email)
    .where('app_key', '=', input.appKey)
    .where('country', '=', input.country)
    .executeTakeFirstOrThrow();
}

export async function getSubscription(id: string): Promise<SubscriptionRow | null> {
  const db = await getDb();
  return (await db.selectFrom('email_subscriptions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function enqueueEmailRequest(subscriptionId: string, kind: EmailRequestKind): Promise<number> {
  const db = await getDb();
  const row = await db.insertInto('email_requests').values({ subscription_id: subscriptionId, kind }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export type ClaimedEmailRequest = {
  id: number;
  kind: EmailRequestKind;
  attempts: number;
  subscription_id: string;
  email: string;
  country: string;
  app_key: string;
  app_store: 'apple_app_store' | 'google_play_store';
  app_id: string;
  app_title: string;
  app_icon_url: string | null;
  app_store_url: string | null;
  digest_status: 'offered' | 'active' | 'off';
  weekly_status: 'off' | 'offered' | 'active';
  /** kind 'weekly_summary': the stored summary it sends. */
  weekly_summary_id: number | null;
};

/** Due requests, leased for `leaseMs`: a process that dies mid-send leaves a lease that expires, and the next one sends. */
export async function claimEmailRequests(limit: number, leaseMs: number): Promise<ClaimedEmailRequest[]> {
  const db = await getDb();
  const r = await sql<ClaimedEmailRequest>`
    with claimed as (${claimRows({
      table: 'email_requests',
      alias: 'r',
      key: 'id',
      set: sql`lease_until = ${leaseEnd(leaseMs)}, attempts = r.attempts + 1`,
      where: sql`status = 'pending' and next_attempt_at <= now() and ${leaseRanOut()}`,
      orderBy: sql`next_attempt_at`,
      limit,
      returning: sql`r.id, r.kind, r.attempts, r.subscription_id, r.weekly_summary_id`,
    })})
    select c.id, c.kind, c.attempts, c.subscription_id, s.email, s.country, s.app_key, s.digest_status, s.weekly_status,
           c.weekly_summary_id::int as weekly_summary_id,
           a.store as app_store, a.app_id, a.title as app_title, a.icon_url as app_icon_url, a.store_url as app_store_url
      from claimed c
      join email_subscriptions s on s.id = c.subscription_id
      join apps a on a.key = s.app_key`.execute(db);
  return r.rows.map((row) => ({ ...row, id: Number(row.id) }));
}

export async function markEmailRequestSent(id: number): Promise<void> {
  const db = await getDb();
  await db.updateTable('email_requests').set({ status: 'sent', sent_at: sql`now()`, lease_until: null, last_error: null }).where('id', '=', id).execute();
}

/** `retryInMs` null: give up (status failed); else try again then. */
export async function markEmailRequestFailed(id: number, error: string, retryInMs: number | null): Promise<void> {
  const db = await getDb();
  await db
    .updateTable('email_requests')
    .set(
      retryInMs === null
        ? { status: 'failed', lease_until: null, last_error: error }
        : { next_attempt_at: sql`now() + ${ms(retryInMs)}`, lease_until: null, last_error: error },
    )
    .where('id', '=', id)
    .execute();
}

export async function markEmailRequestCancelled(id: number, why: string): Promise<void> {
  const db = await getDb();
  await db.updateTable('email_requests').set({ status: 'cancelled', lease_until: null, last_error: why }).where('id', '=', id).execute();
}

/**
 * Every unsubscribe link: the address is flagged (the public form then asks for confirmation before mailing it again),
 * every digest and weekly summary of the address stops, one-off e-mails not sent yet are cancelled, and the address moves to a new
 * generation, so no link made before now (digest offer, confirmation) can turn the e-mails back on.
 */
export async function unsubscribeAddress(email: string): Promise<{ alreadyUnsubscribed: boolean; apps: string[] }> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('email_recipients').select('unsubscribed_at').where('email', '=', email).forUpdate().executeTakeFirst();
    await trx
      .insertInto('email_recipients')
      .values({ email, unsubscribed_at: new Date(), next_digest_at: null, generation: 1 })
      .onConflict((oc) =>
        oc.column('email').doUpdateSet({
          unsubscribed_at: sql`coalesce(email_recipients.unsubscribed_at, now())`,
          next_digest_at: null,
          generation: sql`email_recipients.generation + 1`,
        }),
      )
      .execute();
    const subs = await trx
      .updateTable('email_subscriptions')
      .set({ digest_status: 'off', weekly_status: 'off', updated_at: sql`now()` })
      .where('email', '=', email)
      .returning('app_key')
      .execute();
    await trx
      .updateTable('email_requests')
      .set({ status: 'cancelled', last_error: 'The recipient unsubscribed.' })
      .where('status', '=', 'pending')
      .where('subscription_id', 'in', trx.selectFrom('email_subscriptions').select('id').where('email', '=', email))
      .execute();
    const titles = subs.length
      ? (await trx.selectFrom('apps').select('title').where('key', 'in', subs.map((s) => s.app_key)).execute()).map((a) => a.title)
      : [];
    return { alreadyUnsubscribed: Boolean(before?.unsubscribed_at), apps: titles };
  });
}

/** A confirmed request from the mailbox itself lifts the unsubscribe flag. */
export async function clearUnsubscribe(email: string): Promise<void> {
  const db = await getDb();
  await db.updateTable('email_recipients').set({ unsubscribed_at: null }).where('email', '=', email).execute();
}

/**
 * Turns the daily digest on for one subscription. Its first digest holds reviews first seen from now on (`cursor`
 * is kept when the digest was on before), and the address's next digest is due in a day unless one is already planned.
 */
export async function activateDigest(subscriptionId: string): Promise<SubscriptionRow> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const sub = await trx
      .updateTable('email_subscriptions')
      .set({ digest_status: 'active', digest_confirmed_at: sql`coalesce(digest_confirmed_at, now())`, digest_cursor: sql`coalesce(digest_cursor, now())`, updated_at: sql`now()` })
      .where('id', '=', subscriptionId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('email_recipients')
      .set({ unsubscribed_at: null, next_digest_at: sql`coalesce(next_digest_at, now() + interval '1 day')` })
      .where('email', '=', sub.email)
      .execute();
    return sub;
  });
}

/** Where the next digest starts: set when the recent reviews were e-mailed, so the digest does not repeat them. */
export async function setDigestCursor(subscriptionId: string, at: Date): Promise<void> {
  const db = await getDb();
  await db.updateTable('email_subscriptions').set({ digest_cursor: at }).where('id', '=', subscriptionId).where('digest_cursor', 'is', null).execute();
}

// ── digests ─────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Addresses whose digest is due, each moved a day ahead in the same statement. That move is what makes "at most one
 * digest a day" hold across processes and crashes: whoever claims the address sends today's digest, nobody else can
 * claim it before tomorrow.
 */
export async function claimDueDigests(limit: number): Promise<Array<{ email: string; last_digest_at: Date | null }>> {
  const db = await getDb();
  const r = await claimRows<{ email: string; last_digest_at: Date | null }>({
    table: 'email_recipients',
    alias: 'r',
    key: 'email',
    set: sql`next_digest_at = now() + interval '1 day'`,
    where: sql`next_digest_at is not null and next_digest_at <= now() and unsubscribed_at is null`,
    orderBy: sql`next_digest_at`,
    limit,
    returning: sql`r.email, r.last_digest_at`,
  }).execute(db);
  return r.rows;
}

export type DigestSubscription = SubscriptionRow & {
  app_store: 'apple_app_store' | 'google_play_store';
  app_id: string;
  app_title: string;
  app_icon_url: string | null;
  app_store_url: string | null;
};

export async function activeDigestSubscriptions(email: string): Promise<DigestSubscription[]> {
  const db = await getDb();
  return (await db
    .selectFrom('email_subscriptions as s')
    .innerJoin('apps as a', 'a.key', 's.app_key')
    .selectAll('s')
    .select(['a.store as app_store', 'a.app_id', 'a.title as app_title', 'a.icon_url as app_icon_url', 'a.store_url as app_store_url'])
    .where('s.email', '=', email)
    .where('s.digest_status', '=', 'active')
    .orderBy('s.created_at')
    .execute()) as DigestSubscription[];
}

export async function recordDigestSent(email: string, cursors: Array<{ subscriptionId: string; cursor: Date }>): Promise<void> {
  const db = await getDb();
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('email_recipients').set({ last_digest_at: sql`now()` }).where('email', '=', email).execute();
    for (const c of cursors) await trx.updateTable('email_subscriptions').set({ digest_cursor: c.cursor }).where('id', '=', c.subscriptionId).execute();
  });
}

/** The digest could not be sent: try again soon (nothing was delivered, so the day's one e-mail is still owed). */
export async function retryDigestSoon(email: string, inMs: number): Promise<void> {
  const db = await getDb();
  await db.updateTable('email_recipients').set({ next_digest_at: sql`now() + ${ms(inMs)}` }).where('email', '=', email).execute();
}

/** No digest left on for this address: stop scheduling it. */
export async function stopDigestSchedule(email: string): Promise<void> {
  const db = await getDb();
  await db.updateTable('email_recipients').set({ next_digest_at: null }).where('email', '=', email).execute();
}
