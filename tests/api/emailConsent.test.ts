// E-mail destinations need their mailbox's consent, through the real API, the real monitoring engine and a real SMTP
// server: connecting an address sends ONE confirmation e-mail and nothing else until its link is confirmed by POST;
// then the welcome with the latest reviews arrives. Limits count mailboxes (`+tag`, Gmail dots) and recipient domains;
// expired, forged and superseded links are refused in words; unsubscribe links do not carry the address in clear.
import { describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { hitRateLimit } from '@/server/http/rateLimit';
import { pollAppNow, setDestinationPaused } from '@/server/monitor/service';
import { getDestinationStatus } from '@/server/destinations/records';
import { CONNECT_LIMITS, connectDestination } from '@/server/connect/connect';
import { parseConnectionPayload } from '@/server/connect/payload';
import { RESEND_COOLDOWN_MS } from '@/server/connect/emailConsent';
import { signEmailToken } from '@/server/subscriptions/tokens';
import { emailRequestsSettled } from '@/server/subscriptions/service';
import { decodeJwt } from 'jose';
import { call } from '../helpers/request';
import { newOwner } from '../helpers/orgs';
import type { ReceivedMail } from '../fakes/smtp';
import { linkToken, marker, markersIn, newIosApp, newIp, payloadFor, connectWorldWithEngine } from './support/connectWorld';

const t = connectWorldWithEngine({ beforeClose: emailRequestsSettled });

let n = 0;
const uniqueLocal = (base: string) => `${base}${Date.now().toString(36)}${n++}`;
const mailsTo = (address: string) => t.w.smtp.messages.filter((m) => m.envelopeTo.includes(address));

type Connected = {
  destination_id: string;
  status: { status: string; confirmation_sent_at: string | null } & Record<string, unknown>;
  confirmation: { sent: boolean; sent_at: string | null; resend_after: string | null; message: string } | null;
};

function connectEmail(appId: string, email: string, ip = newIp()) {
  return call<Connected>(t.w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'email', payload: payloadFor({ app_id: appId, user_email: email }) }, { ip });
}

function confirm(token: string, ip = newIp()) {
  return call<{ action: string; app: string; email: string }>(t.w.api, 'POST', '/api/v1/public/email/confirm', { token }, { ip });
}

/** The mail's List-Unsubscribe one-click target, POSTed as mail clients do (RFC 8058). */
function oneClickUnsubscribe(mail: ReceivedMail) {
  const url = new URL(/<([^>]+)>/.exec(mail.headers['list-unsubscribe'] ?? '')![1]);
  return call(t.w.api, 'POST', `${url.pathname}${url.search}`, undefined, { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, rawBody: 'List-Unsubscribe=One-Click' });
}

function appWithReviews(count: number, title?: string) {
  const app = newIosApp(t.w, title);
  for (let i = 1; i <= count; i++) {
    t.w.feed.publish(app.appId, 'us', { title: `Review ${i}`, content: `Text ${marker(i)}`, rating: 4, updated: new Date(Date.now() - (count - i + 1) * 3_600_000) });
  }
  return app;
}

async function settle(app: { appId: string }) {
  await pollAppNow({ store: 'apple_app_store', appId: app.appId });
  // Two idle rounds of the in-process engine: whatever was queued had every chance to be sent.
  await new Promise((r) => setTimeout(r, 800));
}

describe('connecting an e-mail address', () => {
  test('sends exactly one confirmation e-mail and no review until the link is confirmed; then the welcome and the latest reviews arrive', async () => {
    const app = appWithReviews(3, 'Consent Garden');
    const email = `${uniqueLocal('owner')}@example.com`;
    const r = await connectEmail(app.appId, email);
    expect(r.status).toBe(200);
    expect(r.json.data.status.status).toBe('pending_confirmation');
    expect(r.json.data.confirmation).toMatchObject({ sent: true, message: expect.stringContaining('to confirm') });

    await expect.poll(() => mailsTo(email).length, { timeout: 10_000 }).toBe(1);
    const [confirmation] = mailsTo(email);
    expect(confirmation.subject).toBe('Confirm: e-mail new reviews of Consent Garden to this address?');
    expect(markersIn(confirmation.text)).toEqual([]);
    expect(confirmation.headers['list-unsubscribe']).toMatch(/^<http/);

    // A review written while the destination waits is not mailed on its own …
    t.w.feed.publish(app.appId, 'us', { content: `While waiting ${marker(4)}`, rating: 2 });
    await settle(app);
    expect(mailsTo(email)).toHaveLength(1);
    const db = await getDb();
    const queued = await db.selectFrom('deliveries').select('id').where('destination_id', '=', r.json.data.destination_id).execute();
    expect(queued).toEqual([]);

    // … the status page says it waits, without the address.
    const status = await call<Record<string, unknown>>(t.w.api, 'GET', `/api/v1/public/destination/${r.json.data.destination_id}`);
    expect(status.json.data).toMatchObject({ status: 'pending_confirmation', confirmation_sent_at: expect.any(String), queued: 0 });
    expect(status.text).not.toContain(email);

    // The link opens a page; only its POST confirms.
    const token = linkToken(confirmation, '/email/confirm');
    const ok = await confirm(token);
    expect(ok.status).toBe(200);
    expect(ok.json.data).toEqual({ action: 'destination_on', app: 'Consent Garden', email: `${email.slice(0, 2)}…@example.com` });

    // … and it is in the welcome, with the latest reviews, as a new connection gets them.
    await expect.poll(() => mailsTo(email).length, { timeout: 10_000 }).toBe(6);
    const after = mailsTo(email);
    expect(after[1].subject).toContain('Consent Garden');
    expect(after.slice(2).map((m) => markersIn(m.text)[0])).toEqual([1, 2, 3, 4].map(marker));
    expect((await getDestinationStatus(r.json.data.destination_id))?.status).toBe('active');

    // Confirming twice changes nothing.
    expect((await confirm(token)).status).toBe(200);
    await settle(app);
    expect(mailsTo(email)).toHaveLength(6);
  });

  test('asking again for a pending address sends no second confirmation within the cooldown, and says so', async () => {
    const app = appWithReviews(1);
    const email = `${uniqueLocal('twice')}@example.com`;
    const first = await connectEmail(app.appId, email);
    const again = await connectEmail(app.appId, email);
    expect(again.status).toBe(200);
    expect(again.json.data.destination_id).toBe(first.json.data.destination_id);
    expect(again.json.data.confirmation).toMatchObject({ sent: false, sent_at: first.json.data.confirmation!.sent_at, message: expect.stringContaining('already sent') });
    expect(Date.parse(again.json.data.confirmation!.resend_after!) - Date.parse(first.json.data.confirmation!.sent_at!)).toBe(RESEND_COOLDOWN_MS);
    await settle(app);
    expect(mailsTo(email)).toHaveLength(1);

    // Once the cooldown is over, asking again sends a new link.
    const db = await getDb();
    await db.updateTable('destinations').set({ confirmation_sent_at: new Date(Date.now() - RESEND_COOLDOWN_MS - 1000) }).where('id', '=', first.json.data.destination_id).execute();
    const later = await connectEmail(app.appId, email);
    expect(later.json.data.confirmation?.sent).toBe(true);
    await expect.poll(() => mailsTo(email).length, { timeout: 10_000 }).toBe(2);
  });

  test('a mail server that refuses: 503 in words, and the next attempt sends the confirmation', async () => {
    const app = appWithReviews(1);
    const email = `${uniqueLocal('outage')}@example.com`;
    t.w.setEnv({ SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      const r = await connectEmail(app.appId, email);
      expect(r.status).toBe(503);
      expect(r.json.error.message).toContain('could not send the confirmation e-mail');
    } finally {
      t.w.setEnv({});
    }
    const retry = await connectEmail(app.appId, email);
    expect(retry.json.data.confirmation?.sent).toBe(true);
    await expect.poll(() => mailsTo(email).length, { timeout: 10_000 }).toBe(1);
  });
});

describe('limits count mailboxes and domains, not spellings', () => {
  test('`+tag` and Gmail-dot variants of one mailbox share its daily limit', async () => {
    const user = uniqueLocal('victim');
    const variants = [`${user}+1@gmail.com`, `${user}+2@gmail.com`, `${user.slice(0, 3)}.${user.slice(3)}@gmail.com`];
    for (const v of variants) expect((await connectEmail(newIosApp(t.w).appId, v)).status).toBe(200);
    const fourth = await connectEmail(newIosApp(t.w).appId, `${user.toUpperCase()}+x@googlemail.com`);
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBeTruthy();
    expect(fourth.json.error.message).toContain('signed up several times today');
  });

  test('addresses at one recipient domain have a limit of their own', async () => {
    const domain = `${uniqueLocal('corp')}.example`;
    for (let i = 0; i < CONNECT_LIMITS.perDomain.limit; i++) await hitRateLimit(CONNECT_LIMITS.perDomain, domain);
    const r = await connectEmail(newIosApp(t.w).appId, `${uniqueLocal('someone')}@${domain.toUpperCase()}`);
    expect(r.status).toBe(429);
    expect(r.json.error.message).toContain('this e-mail domain');
    expect(mailsTo(`someone@${domain}`)).toHaveLength(0);
  });
});

describe('confirmation links', () => {
  async function pendingDestination() {
    const app = appWithReviews(1);
    const email = `${uniqueLocal('link')}@example.com`;
    const r = await connectEmail(app.appId, email);
    await expect.poll(() => mailsTo(email).length, { timeout: 10_000 }).toBe(1);
    return { app, email, id: r.json.data.destination_id, mail: mailsTo(email)[0] };
  }

  test('resuming a pending destination (its owner’s dashboard) cannot start it without the mailbox', async () => {
    const { id } = await pendingDestination();
    await expect(setDestinationPaused(id, false)).rejects.toMatchObject({ status: 409, code: 'pending_confirmation' });
    await expect(setDestinationPaused(id, true)).rejects.toMatchObject({ status: 409 });
    expect((await getDestinationStatus(id))?.status).toBe('pending_confirmation');
  });

  test('an expired link → 400 that says it expired; the destination stays pending', async () => {
    const { id } = await pendingDestination();
    const expired = await signEmailToken({ purpose: 'destination', destinationId: id, generation: 0 }, Math.floor(Date.now() / 1000) - 49 * 3600);
    const r = await confirm(expired);
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain('expired');
    expect((await getDestinationStatus(id))?.status).toBe('pending_confirmation');
  });

  test('a forged link (wrong signature, other audience, other destination) → 4xx; nothing starts', async () => {
    const { id, mail } = await pendingDestination();
    const token = linkToken(mail, '/email/confirm');
    const [h, p, sig] = token.split('.');
    const tampered = `${h}.${p}.${sig.slice(0, -4)}${sig.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const unsubscribe = linkToken(mail, '/email/unsubscribe');
    for (const bad of [tampered, unsubscribe, `${h}.${p}.`]) {
      const r = await confirm(bad);
      expect(r.status, bad).toBe(400);
      expect(r.json.error.message).toContain('not valid');
    }
    const other = await signEmailToken({ purpose: 'destination', destinationId: 'dst_000000000000000000000000', generation: 0 });
    expect((await confirm(other)).status).toBe(404);
    expect((await getDestinationStatus(id))?.status).toBe('pending_confirmation');
  });

  test('a confirmation link clicked after the address unsubscribed is refused and sends nothing', async () => {
    const { app, email, id, mail } = await pendingDestination();
    // The confirmation e-mail's own one-click unsubscribe ("this was not me, stop").
    expect((await oneClickUnsubscribe(mail)).status).toBe(200);
    const r = await confirm(linkToken(mail, '/email/confirm'));
    expect(r.status).toBe(409);
    expect(r.json.error).toMatchObject({ code: 'link_superseded', message: expect.stringContaining('unsubscribed after this link was sent') });
    await settle(app);
    expect(mailsTo(email)).toHaveLength(1);
    expect((await getDestinationStatus(id))?.status).toBe('pending_confirmation');
  });
});

describe('old links cannot undo a later unsubscribe', () => {
  function askReviews(email: string, appId: string) {
    return call(t.w.api, 'POST', '/api/v1/public/reviews', { email, app_id: appId, app_store: 'apple_app_store' }, { ip: newIp() });
  }
  const isUnsubscribed = async (email: string) =>
    Boolean((await (await getDb()).selectFrom('email_recipients').select('unsubscribed_at').where('email', '=', email).executeTakeFirst())?.unsubscribed_at);

  test('a digest offer clicked after unsubscribing is refused; the address stays unsubscribed', async () => {
    const app = appWithReviews(2);
    const email = `${uniqueLocal('digest')}@example.com`;
    expect((await askReviews(email, app.appId)).status).toBe(200);
    await expect.poll(() => mailsTo(email).length, { timeout: 15_000 }).toBe(1);
    const [recent] = mailsTo(email);
    expect((await oneClickUnsubscribe(recent)).status).toBe(200);

    const r = await confirm(linkToken(recent, '/email/confirm'));
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('link_superseded');
    expect(await isUnsubscribed(email)).toBe(true);
  });

  test('a confirmation link clicked after a second unsubscribe does not re-subscribe', async () => {
    const app = appWithReviews(1);
    const email = `${uniqueLocal('again')}@example.com`;
    await askReviews(email, app.appId);
    await expect.poll(() => mailsTo(email).length, { timeout: 15_000 }).toBe(1);
    const first = mailsTo(email)[0];
    const unsubscribeNow = () => oneClickUnsubscribe(first);
    expect((await unsubscribeNow()).status).toBe(200);

    // Asking again while unsubscribed sends a confirmation link; it works once …
    await askReviews(email, app.appId);
    await expect.poll(() => mailsTo(email).length, { timeout: 15_000 }).toBe(2);
    const confirmLink = linkToken(mailsTo(email)[1], '/email/confirm');
    expect((await confirm(confirmLink)).json.data).toMatchObject({ action: 'queued' });
    expect(await isUnsubscribed(email)).toBe(false);
    await expect.poll(() => mailsTo(email).length, { timeout: 15_000 }).toBe(3);

    // … but not after the person unsubscribed again.
    expect((await unsubscribeNow()).status).toBe(200);
    const late = await confirm(confirmLink);
    expect(late.status).toBe(409);
    expect(await isUnsubscribed(email)).toBe(true);
    await emailRequestsSettled();
    expect(mailsTo(email)).toHaveLength(3);
  });
});

describe('a signed-in user’s own address (service level)', () => {
  test('skips the confirmation when asked; anyone else’s address still waits for its mailbox', async () => {
    const app = appWithReviews(2);
    // A real owner: connecting with a session is for the caller's organisation, whose role is read from the database.
    const owner = await newOwner('consent');
    const own = owner.email;
    const auth = { userId: owner.userId, orgId: owner.orgId, email: own, scope: 'full' as const };
    const req = (email: string) => {
      const parsed = parseConnectionPayload('email', payloadFor({ app_id: app.appId, user_email: email }), 'required');
      return { ...parsed, target: parsed.target! };
    };
    const mine = await connectDestination(req(own.replace('@', '+alerts@')), { ip: newIp(), auth, ownAddressConfirmed: true });
    expect(mine.status.status).toBe('active');
    expect(mine.confirmation).toBeNull();
    await expect.poll(() => mailsTo(own.replace('@', '+alerts@')).length, { timeout: 10_000 }).toBe(3); // welcome + 2 reviews

    const someoneElse = `${uniqueLocal('other')}@example.com`;
    const theirs = await connectDestination(req(someoneElse), { ip: newIp(), auth, ownAddressConfirmed: true });
    expect(theirs.status.status).toBe('pending_confirmation');
    const withoutOption = await connectDestination(req(`${uniqueLocal('me2')}@example.com`), { ip: newIp(), auth: { ...auth, email: 'x@example.com' } });
    expect(withoutOption.status.status).toBe('pending_confirmation');
  });
});

describe('unsubscribe links', () => {
  test('carry no address in clear, and still unsubscribe', async () => {
    const { mail, email } = await (async () => {
      const app = appWithReviews(1);
      const address = `${uniqueLocal('private')}@example.com`;
      await connectEmail(app.appId, address);
      await expect.poll(() => mailsTo(address).length, { timeout: 10_000 }).toBe(1);
      return { mail: mailsTo(address)[0], email: address };
    })();
    const token = linkToken(mail, '/email/unsubscribe');
    const claims = JSON.stringify(decodeJwt(token));
    expect(claims).not.toContain(email);
    expect(claims).not.toContain(email.split('@')[0]);
    expect(claims).not.toContain('example.com');
    const seen = await call<{ email: string; unsubscribed: boolean }>(t.w.api, 'GET', `/api/v1/public/email/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(seen.json.data).toEqual({ email: `${email.slice(0, 2)}…@example.com`, unsubscribed: false });
    const done = await call(t.w.api, 'POST', `/api/v1/public/email/unsubscribe?token=${encodeURIComponent(token)}`, {});
    expect(done.status).toBe(200);
  });

  test('links e-mailed before this change (address in the token) keep working', async () => {
    const email = `${uniqueLocal('legacy')}@example.com`;
    const { SignJWT } = await import('jose');
    const { env } = await import('@/server/env');
    const legacy = await new SignJWT({ em: email }).setProtectedHeader({ alg: 'HS256' }).setIssuer('arb-email').setAudience('unsubscribe').setIssuedAt().sign(new TextEncoder().encode(env().AUTH_SECRET));
    const r = await call<{ email: string }>(t.w.api, 'POST', `/api/v1/public/email/unsubscribe?token=${encodeURIComponent(legacy)}`, {});
    expect(r.status).toBe(200);
    expect(r.json.data.email).toBe(`${email.slice(0, 2)}…@example.com`);
  });
});
