// Reviews by e-mail through the API, received by a real SMTP server on loopback: recent reviews (HTML-escaped, with the
// digest offer and working unsubscribe links), the daily digest (one e-mail a day at most, only new reviews), the
// summary (honest, recountable figures), unsubscribe without signing in, and the abuse limits.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { getDb } from '@/server/db/client';
import { hitRateLimit, ipRateKey } from '@/server/http/rateLimit';
import { emailRequestsSettled, EMAIL_LIMITS, processEmailRequests, runDueDigests } from '@/server/subscriptions/service';
import { call } from '../helpers/request';
import type { ReceivedMail } from '../fakes/smtp';
import { linkToken, marker, markersIn, newIosApp, newIp, newPlayApp, startConnectWorld, type ConnectWorld } from './support/connectWorld';

let w: ConnectWorld;

beforeAll(async () => {
  w = await startConnectWorld();
}, 60_000);

afterAll(async () => {
  await emailRequestsSettled();
  await w.close();
});

let email: string;
let counter = 0;
beforeEach(() => {
  email = `reader-${Date.now()}-${counter++}@example.com`;
});

const mailsTo = (address: string) => w.smtp.messages.filter((m) => m.envelopeTo.includes(address));

async function nextMailTo(address: string, n: number): Promise<ReceivedMail> {
  await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(n);
  return mailsTo(address)[n - 1];
}

function ask(path: '/api/v1/public/reviews' | '/api/v1/public/send-summary', body: Record<string, unknown>, ip = newIp()) {
  return call<{ queued: boolean; confirmation_required: boolean }>(w.api, 'POST', path, body, { ip });
}

function appWithReviews(n: number, title?: string) {
  const app = newIosApp(w, title);
  for (let i = 1; i <= n; i++) {
    w.feed.publish(app.appId, 'us', { title: `Title ${i}`, content: `Body ${marker(i)}`, rating: (i % 5) + 1, updated: new Date(Date.now() - (n - i + 1) * 3_600_000) });
  }
  return app;
}

describe('POST /api/v1/public/reviews', () => {
  test('e-mails the 10 most recent reviews, newest first, HTML-escaped, with the digest offer and unsubscribe links', async () => {
    const app = appWithReviews(12, 'Orbit <Planner> & Co');
    w.feed.publish(app.appId, 'us', { title: '<script>alert(1)</script>', content: `Hacked? <img src=x onerror=alert(2)> ${marker(50)}`, rating: 1 });
    const r = await ask('/api/v1/public/reviews', { email: email.toUpperCase(), app_id: app.appId, app_store: 'apple_app_store' });
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ queued: true, confirmation_required: false });

    const mail = await nextMailTo(email, 1);
    expect(mail.subject).toBe('Recent reviews of Orbit <Planner> & Co');
    expect(markersIn(mail.text)).toEqual([50, 12, 11, 10, 9, 8, 7, 6, 5, 4].map(marker));
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(mail.html).not.toMatch(/<script|<img/);
    expect(mail.html).toContain('Orbit &lt;Planner&gt; &amp; Co');
    expect(mail.text).toContain('Send me a daily digest: http');
    expect(mail.headers['list-unsubscribe']).toMatch(/^<http:\/\/[^>]+\/api\/v1\/public\/email\/unsubscribe\?token=[^>]+>$/);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.html).toMatch(/href="http:\/\/[^"]+\/email\/unsubscribe\?token=/);
  });

  test('an app without reviews says so honestly', async () => {
    const app = newIosApp(w, 'Empty Nest');
    expect((await ask('/api/v1/public/reviews', { email, app_id: app.appId, app_store: 'apple_app_store' })).status).toBe(200);
    const mail = await nextMailTo(email, 1);
    expect(mail.text).toContain('Empty Nest has no written reviews on App Store, United States yet');
  });

  test('a chosen storefront only: reviews from elsewhere are not in it', async () => {
    const app = newIosApp(w);
    w.feed.publish(app.appId, 'de', { content: `Toll ${marker(3)}` });
    w.feed.publish(app.appId, 'us', { content: `Great ${marker(4)}` });
    await ask('/api/v1/public/reviews', { email, app_id: app.appId, app_store: 'apple_app_store', country: 'DE' });
    const mail = await nextMailTo(email, 1);
    expect(markersIn(mail.text)).toEqual([marker(3)]);
    expect(mail.text).toContain('Germany');
  });

  test('Google Play apps too', async () => {
    const app = newPlayApp(w, 'Pocket Fern');
    w.play.publish(app.appId, 'en', { text: `Nice ${marker(8)}`, score: 4 });
    await ask('/api/v1/public/reviews', { email, app_id: app.appId, app_store: 'google_play_store' });
    const mail = await nextMailTo(email, 1);
    expect(mail.subject).toBe('Recent reviews of Pocket Fern');
    expect(markersIn(mail.text)).toEqual([marker(8)]);
  });

  test('bad input is a clear 400; an unknown app is a 404', async () => {
    const bad = await ask('/api/v1/public/reviews', { email: 'nope', app_id: '123', app_store: 'apple_app_store' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^email: /);
    const badId = await ask('/api/v1/public/reviews', { email, app_id: 'com.x.y', app_store: 'apple_app_store' });
    expect(badId.status).toBe(400);
    expect(badId.json.error.message).toMatch(/app_id/);
    const badCountry = await ask('/api/v1/public/reviews', { email, app_id: '123', app_store: 'apple_app_store', country: 'usa' });
    expect(badCountry.status).toBe(400);
    const unknown = await ask('/api/v1/public/reviews', { email, app_id: '1888888888', app_store: 'apple_app_store' });
    expect(unknown.status).toBe(404);
  });

  test('per-address limit: the 6th request of the day → 429 with Retry-After', async () => {
    const app = newIosApp(w);
    for (let i = 0; i < EMAIL_LIMITS.reviewsPerAddress.limit; i++) await hitRateLimit(EMAIL_LIMITS.reviewsPerAddress, email);
    const r = await ask('/api/v1/public/reviews', { email, app_id: app.appId, app_store: 'apple_app_store' });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(3600);
    expect(r.json.error.message).toMatch(/Try again tomorrow/);
  });

  test('per-network limit → 429', async () => {
    const ip = newIp();
    for (let i = 0; i < EMAIL_LIMITS.reviewsPerIp.limit; i++) await hitRateLimit(EMAIL_LIMITS.reviewsPerIp, ipRateKey(ip));
    const r = await ask('/api/v1/public/reviews', { email, app_id: '123', app_store: 'apple_app_store' }, ip);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBeTruthy();
  });
});

describe('the daily digest', () => {
  test('turned on from the e-mail link, it sends only reviews first seen since, at most once a day, nothing on quiet days', async () => {
    const app = appWithReviews(3, 'Daybook');
    await ask('/api/v1/public/reviews', { email, app_id: app.appId, app_store: 'apple_app_store' });
    const first = await nextMailTo(email, 1);

    const confirm = await call<{ action: string; app: string; email: string }>(w.api, 'POST', '/api/v1/public/email/confirm', { token: linkToken(first, '/email/confirm') });
    expect(confirm.status).toBe(200);
    expect(confirm.json.data).toEqual({ action: 'digest_on', app: 'Daybook', email: `${email.slice(0, 2)}…@example.com` });

    const db = await getDb();
    const key = `apple_app_store__${app.appId}`;
    // A day passes: two new reviews are stored (settled), and the digest is due.
    w.feed.publish(app.appId, 'us', { content: `New ${marker(20)}`, rating: 1 });
    w.feed.publish(app.appId, 'us', { content: `New ${marker(21)}`, rating: 5 });
    await db.updateTable('monitored_sources').set({ next_poll_at: new Date(), last_success_at: null }).where('app_key', '=', key).execute();
    const { pollAppNow } = await import('@/server/monitor/service');
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    // First seen in the order written (one poll stores both at once; ties would fall to the order of the ids, which
    // follows the feed's order for reviews of the same second).
    await sql`update reviews set first_seen_at = now() - interval '11 minutes' where app_key = ${key} and body = ${`New ${marker(20)}`}`.execute(db);
    await sql`update reviews set first_seen_at = now() - interval '10 minutes' where app_key = ${key} and body = ${`New ${marker(21)}`}`.execute(db);
    await sql`update reviews set first_seen_at = now() - interval '2 hours' where app_key = ${key} and body not like 'New %'`.execute(db);
    await sql`update email_subscriptions set digest_cursor = now() - interval '1 hour' where email = ${email}`.execute(db);
    await sql`update email_recipients set next_digest_at = now() - interval '1 second' where email = ${email}`.execute(db);

    expect(await runDueDigests()).toMatchObject({ sent: 1 });
    const digest = await nextMailTo(email, 2);
    expect(digest.subject).toMatch(/^2 reviews of Daybook since /);
    expect(markersIn(digest.text)).toEqual([marker(20), marker(21)]);
    expect(digest.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    // Same day, even with more new reviews: nothing more.
    w.feed.publish(app.appId, 'us', { content: `Later ${marker(22)}` });
    await runDueDigests();
    expect(mailsTo(email)).toHaveLength(2);
    const recipient = await db.selectFrom('email_recipients').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(recipient.next_digest_at!.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);

    // The next day with nothing new since the last digest: no e-mail.
    await sql`update email_recipients set next_digest_at = now() - interval '1 second' where email = ${email}`.execute(db);
    expect(await runDueDigests()).toMatchObject({ sent: 0, empty: 1 });
    expect(mailsTo(email)).toHaveLength(2);
  });

  test('one address following two apps gets one digest with both', async () => {
    const a = appWithReviews(1, 'Alpha Notes');
    const b = appWithReviews(1, 'Beta Steps');
    for (const app of [a, b]) await ask('/api/v1/public/reviews', { email, app_id: app.appId, app_store: 'apple_app_store' });
    const mails = [await nextMailTo(email, 1), await nextMailTo(email, 2)];
    for (const m of mails) expect((await call(w.api, 'POST', '/api/v1/public/email/confirm', { token: linkToken(m, '/email/confirm') })).status).toBe(200);
    const db = await getDb();
    for (const app of [a, b]) w.feed.publish(app.appId, 'us', { content: `Fresh ${marker(60)}` });
    const { pollAppNow } = await import('@/server/monitor/service');
    for (const app of [a, b]) {
      await db.updateTable('monitored_sources').set({ last_success_at: null }).where('app_key', '=', `apple_app_store__${app.appId}`).execute();
      await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    }
    await sql`update reviews set first_seen_at = now() - interval '10 minutes' where body like 'Fresh %'`.execute(db);
    await sql`update email_subscriptions set digest_cursor = now() - interval '1 hour' where email = ${email}`.execute(db);
    await sql`update email_recipients set next_digest_at = now() - interval '1 second' where email = ${email}`.execute(db);
    await runDueDigests();
    const digest = await nextMailTo(email, 3);
    expect(digest.subject).toMatch(/^2 reviews of 2 apps since /);
    expect(digest.text).toContain('Alpha Notes');
    expect(digest.text).toContain('Beta Steps');
    await runDueDigests();
    expect(mailsTo(email)).toHaveLength(3);
  });

  test('a confirm link that was tampered with or expired is refused', async () => {
    const bad = await call(w.api, 'POST', '/api/v1/public/email/confirm', { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_token');
    expect((await call(w.api, 'POST', '/api/v1/public/email/confirm', {})).status).toBe(400);
  });
});

describe('unsubscribe', () => {
  test('one-click POST from the List-Unsubscribe header works without signing in, and stops the digest', async () => {
    const app = appWithReviews(1, 'Stillwater');
    await ask('/api/v1/public/reviews', { email, app_id: app.appId, app_store: 'apple_app_store' });
    const first = await nextMailTo(email, 1);
    await call(w.api, 'POST', '/api/v1/public/email/confirm', { token: linkToken(first, '/email/confirm') });

    const target = new URL(first.headers['list-unsubscribe'].slice(1, -1));
    // What a mail provider sends (RFC 8058): a form POST, no cookies, no sign-in.
    const res = await fetch(`${w.api.url}${target.pathname}${target.search}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { unsubscribed: boolean; apps: string[] } }).data).toMatchObject({ unsubscribed: true, apps: ['Stillwater'] });

    const db = await getDb();
    const rec = await db.selectFrom('email_recipients').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(rec.unsubscribed_at).not.toBeNull();
    expect(rec.next_digest_at).toBeNull();
    await sql`update email_recipients set next_digest_at = now() - interval '1 second' where email = ${email}`.execute(db);
    await runDueDigests();
    expect(mailsTo(email)).toHaveLength(1);
  });

  test('the page link: GET tells who it is for (masked) and changes nothing; POST unsubscribes', async () => {
    const app = appWithReviews(1);
    await ask('/api/v1/public/reviews', { email, app_id: app.appId, app_store: 'apple_app_store' });
    const token = linkToken(await nextMailTo(email, 1), '/email/unsubscribe');
    const path = `/api/v1/public/email/unsubscribe?token=${encodeURIComponent(token)}`;
    const info = await call<{ email: string; unsubscribed: boolean }>(w.api, 'GET', path);
    expect(info.json.data).toEqual({ email: `${email.slice(0, 2)}…@example.com`, unsubscribed: false });
    expect((await call(w.api, 'POST', path, {})).status).toBe(200);
    expect((await call<{ unsubscribed: boolean }>(w.api, 'GET', path)).json.data.unsubscribed).toBe(true);
    expect((await call(w.api, 'POST', path, {})).status).toBe(200); // twice is fine
  });

  test('a forged unsubscribe token is refused', async () => {
    const r = await call(w.api, 'POST', '/api/v1/public/email/unsubscribe?token=eyJhbGciOiJIUzI1NiJ9.eyJlbSI6ImFAYi5jIn0.AAAAAAAAAAAAAAAA', {});
    expect(r.status).toBe(400);
    expect((await call(w.api, 'GET', '/api/v1/public/email/unsubscribe')).status).toBe(400);
  });

  test('an unsubscribed address is not mailed reviews again by the form: it gets one confirmation link, and reviews only after clicking it', async () => {
    const app = appWithReviews(2, 'Second Chance');
    await ask('/api/v1/public/reviews', { email, app_id: app.appId, app_store: 'apple_app_store' });
    const first = await nextMailTo(email, 1);
    const target = new URL(first.headers['list-unsubscribe'].slice(1, -1));
    await fetch(`${w.api.url}${target.pathname}${target.search}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });

    const again = await ask('/api/v1/public/reviews', { email, app_id: app.appId, app_store: 'apple_app_store' });
    expect(again.json.data).toEqual({ queued: true, confirmation_required: true });
    const confirmation = await nextMailTo(email, 2);
    expect(confirmation.subject).toBe('Confirm: send recent reviews of Second Chance?');
    expect(markersIn(confirmation.text)).toEqual([]);

    // Asking again the same day sends no second confirmation.
    await ask('/api/v1/public/reviews', { email, app_id: app.appId, app_store: 'apple_app_store' });
    await emailRequestsSettled();
    await processEmailRequests();
    expect(mailsTo(email)).toHaveLength(2);

    const ok = await call<{ action: string }>(w.api, 'POST', '/api/v1/public/email/confirm', { token: linkToken(confirmation, '/email/confirm') }, { ip: newIp() });
    expect(ok.json.data.action).toBe('queued');
    const reviews = await nextMailTo(email, 3);
    expect(reviews.subject).toBe('Recent reviews of Second Chance');
    expect(markersIn(reviews.text)).toEqual([marker(2), marker(1)]);
  });
});

describe('POST /api/v1/public/send-summary', () => {
  test('counts per rating, the average, the most mentioned phrases and the latest negative reviews, computed from the reviews', async () => {
    const app = newIosApp(w, 'Ledger Owl');
    const reviews: Array<[number, string]> = [
      [1, 'Sync fails every morning, I lost my data'],
      [2, 'The sync fails again after the update'],
      [1, 'Crashes on launch since the update'],
      [5, 'Beautiful design, dark mode is perfect'],
      [4, 'Love the dark mode and the widgets'],
      [5, 'Perfect budgeting tool'],
    ];
    reviews.forEach(([rating, content], i) => w.feed.publish(app.appId, 'us', { content, rating, title: `T${i}`, updated: new Date(Date.now() - (reviews.length - i) * 60_000) }));
    const r = await ask('/api/v1/public/send-summary', { email, app_id: app.appId, app_store: 'apple_app_store' });
    expect(r.status).toBe(200);
    const mail = await nextMailTo(email, 1);
    expect(mail.subject).toBe('Review summary of Ledger Owl');
    expect(mail.text).toContain('Computed from the 6 reviews of Ledger Owl');
    expect(mail.text).toContain('Average rating: 3.00 out of 5'); // (1+2+1+5+4+5)/6
    expect(mail.text).toMatch(/★★★★★ {2}2 \(33%\)/);
    expect(mail.text).toMatch(/★☆☆☆☆ {2}2 \(33%\)/);
    expect(mail.text).toMatch(/★★★☆☆ {2}0 \(0%\)/);
    expect(mail.text).toContain('“sync fails” (2 reviews)');
    expect(mail.text).toContain('“dark mode” (2 reviews)');
    expect(mail.text).toContain('“update” (2 reviews)');
    const negative = mail.text.slice(mail.text.indexOf('Latest negative reviews'));
    expect(negative.indexOf('Crashes on launch')).toBeLessThan(negative.indexOf('The sync fails again'));
    expect(negative).not.toContain('Beautiful design');
    expect(mail.headers['list-unsubscribe']).toBeTruthy();
  });

  test('per-address limit → 429', async () => {
    for (let i = 0; i < EMAIL_LIMITS.summaryPerAddress.limit; i++) await hitRateLimit(EMAIL_LIMITS.summaryPerAddress, email);
    const r = await ask('/api/v1/public/send-summary', { email, app_id: '123', app_store: 'apple_app_store' });
    expect(r.status).toBe(429);
  });
});
