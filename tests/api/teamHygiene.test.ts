// Trust at the organisation boundary, through the real routes, a real database (PGlite and PostgreSQL) and the real
// SMTP fake: someone who leaves an organisation takes their open invitations with them and the keys they made are
// listed for revoking; invitation e-mails follow ARB's e-mail rules (unsubscribe, per-mailbox and per-domain caps
// across organisations, List-Unsubscribe, no organisation name in the subject, a re-invite cooldown); organisation
// names read as names.
import { describe, expect, test } from 'vitest';
import { verifyApiKey } from '@/server/apiKeys/service';
import { INVITATION_LIMITS } from '@/server/org/invitations';
import { setUpMailApi } from '../helpers/apiWorld';
import { signInWithCode } from '../helpers/emailSignIn';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';

const w = setUpMailApi('team-hygiene', { HCAPTCHA_SECRET: undefined, STRIPE_SECRET_KEY: undefined, TRUST_PROXY: '1' });

let n = 0;
const nextIp = () => `198.18.${Math.floor(++n / 250) + 20}.${(n % 250) + 1}`;
const uniq = () => `${Date.now().toString(36)}${++n}`;

type Mail = { sent: boolean; sent_at: string | null; resend_after: string | null; message: string };
type Invitation = { id: string; email: string; role: string; created_by: string | null; mailed_at: string | null; mail: Mail };
type Key = { id: string; name: string; prefix: string; created_by: string | null; key: string };
type Departure = { ok: true; revoked_invitations: { id: string; email: string; role: string }[]; api_keys: Omit<Key, 'key'>[] };

const get = <T>(path: string, u: { token: string }) => call<T>(w.api, 'GET', path, undefined, { token: u.token, ip: nextIp() });
const send = <T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, u: { token: string }, body?: unknown) => call<T>(w.api, method, path, body, { token: u.token, ip: nextIp() });
const invite = (u: SignedInUser, email: string, role = 'member') => send<Invitation>('POST', '/api/v1/org/invitations', u, { email, role });
const mailsTo = (email: string) => w.smtp.messages.filter((m) => m.envelopeTo.includes(email));

async function newMailTo(email: string, before: number) {
  const deadline = Date.now() + 10_000;
  while (mailsTo(email).length <= before) {
    if (Date.now() > deadline) throw new Error(`no new e-mail for ${email}`);
    await w.smtp.waitForMessages(w.smtp.messages.length + 1, deadline - Date.now()).catch(() => undefined);
  }
  return mailsTo(email).at(-1)!;
}

const linkToken = (mail: { text: string }) => /\/join#([\w-]+)/.exec(mail.text)![1];
const openLink = (token: string) => call<{ authToken: string }>(w.api, 'POST', '/api/v1/auth/invitation', { token }, { ip: nextIp() });
/** As if the invitation e-mail to `email` had gone `minutes` ago (the cooldown is measured from it). */
const mailedMinutesAgo = (email: string, minutes: number) =>
  w.db.db.updateTable('org_invitations').set({ mailed_at: new Date(Date.now() - minutes * 60_000) }).where('email', '=', email).execute();
const createKey = async (u: SignedInUser, name: string) => {
  const r = await send<Key>('POST', '/api/v1/org/api-keys', u, { name });
  expect(r.status, r.text).toBe(201);
  return r.json.data;
};

describe('someone leaving leaves nothing behind', () => {
  test('a removed admin’s invitations are revoked (their link stops working) and the keys they made are listed for the remover, who revokes them', async () => {
    const owner = await newOwner('alpha');
    const admin = await memberOf(owner, 'admin');
    const other = await newOwner('beta');
    const otherAdmin = await memberOf(other, 'admin');

    const invitee = `invitee-${uniq()}@example.com`;
    const sent = await invite(admin, invitee);
    expect(sent.status, sent.text).toBe(201);
    const link = linkToken(await newMailTo(invitee, 0));
    const theirKey = await createKey(admin, 'Zapier');
    const ownersKey = await createKey(owner, 'CI');
    // The other organisation's admin invites and makes a key too: nothing of it may move.
    const elsewhere = `elsewhere-${uniq()}@example.com`;
    expect((await invite(otherAdmin, elsewhere)).status).toBe(201);
    const otherKey = await createKey(otherAdmin, 'Other');

    // Before: both lists say who made each.
    const invitations = await get<Invitation[]>('/api/v1/org/invitations', owner);
    expect(invitations.json.data.map((i) => [i.email, i.created_by])).toEqual([[invitee, admin.email]]);
    const keysBefore = await get<Key[]>('/api/v1/org/api-keys', owner);
    expect(Object.fromEntries(keysBefore.json.data.map((k) => [k.name, k.created_by]))).toEqual({ CI: owner.email, Zapier: admin.email });

    // A stranger cannot remove them, nor revoke the organisation's keys.
    expect((await send('DELETE', `/api/v1/org/members/${admin.userId}`, other)).status).toBe(404);
    expect((await send('DELETE', `/api/v1/org/api-keys/${theirKey.id}`, other)).status).toBe(404);

    const removed = await send<Departure>('DELETE', `/api/v1/org/members/${admin.userId}`, owner);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json.data.revoked_invitations).toEqual([{ id: sent.json.data.id, email: invitee, role: 'member' }]);
    expect(removed.json.data.api_keys).toEqual([expect.objectContaining({ id: theirKey.id, name: 'Zapier', prefix: theirKey.prefix, created_by: null })]);
    expect(removed.text).not.toContain(theirKey.key);

    // The removed admin's link no longer works, and signing in with the address shows no invitation.
    const opened = await openLink(link);
    expect(opened.status).toBe(401);
    expect(opened.json.error.message).toMatch(/expired, was cancelled or was already used/);
    const signedIn = await signInWithCode(w, invitee, nextIp());
    expect((await get<unknown[]>('/api/v1/invitations', { token: signedIn.authToken })).json.data).toEqual([]);
    expect((await get<Invitation[]>('/api/v1/org/invitations', owner)).json.data).toEqual([]);

    // The key still works until someone revokes it: it is listed as a former member's, revoked with the usual call.
    const keysAfter = await get<Key[]>('/api/v1/org/api-keys', owner);
    expect(Object.fromEntries(keysAfter.json.data.map((k) => [k.name, k.created_by]))).toEqual({ CI: owner.email, Zapier: null });
    expect(await verifyApiKey(theirKey.key)).toMatchObject({ keyId: theirKey.id });
    expect((await send('DELETE', `/api/v1/org/api-keys/${theirKey.id}`, owner)).status).toBe(200);
    expect(await verifyApiKey(theirKey.key)).toBeNull();
    expect(await verifyApiKey(ownersKey.key)).toMatchObject({ keyId: ownersKey.id });

    const audit = await get<{ action: string; target: string; actor_email: string; details: Record<string, unknown> }[]>('/api/v1/org/audit-log?limit=100', owner);
    expect(audit.json.data.find((e) => e.action === 'invitation.revoked')).toMatchObject({
      target: invitee,
      actor_email: owner.email,
      details: { reason: 'inviter_left', inviter: admin.email },
    });

    // The other organisation is untouched.
    expect((await get<Invitation[]>('/api/v1/org/invitations', other)).json.data.map((i) => [i.email, i.created_by])).toEqual([[elsewhere, otherAdmin.email]]);
    expect(await verifyApiKey(otherKey.key)).toMatchObject({ keyId: otherKey.id });
  });

  test('an admin who leaves takes their invitations; the keys they made stay, listed to the admins as a former member’s', async () => {
    const owner = await newOwner('gamma');
    const admin = await memberOf(owner, 'admin');
    const invitee = `left-behind-${uniq()}@example.com`;
    expect((await invite(admin, invitee, 'admin')).status).toBe(201);
    const link = linkToken(await newMailTo(invitee, 0));
    const key = await createKey(admin, 'Nightly export');

    const left = await send<Departure>('POST', '/api/v1/org/leave', admin, {});
    expect(left.status, left.text).toBe(200);
    expect(left.json.data.revoked_invitations.map((i) => i.email)).toEqual([invitee]);
    expect(left.json.data.api_keys.map((k) => k.id)).toEqual([key.id]);
    expect((await openLink(link)).status).toBe(401);
    expect((await get<Key[]>('/api/v1/org/api-keys', owner)).json.data).toEqual([expect.objectContaining({ id: key.id, created_by: null })]);
  });
});

describe('invitation e-mails', () => {
  test('carry List-Unsubscribe and an unsubscribe link, and never the organisation’s name in the subject', async () => {
    const owner = await newOwner('zeta');
    expect((await send('PATCH', '/api/v1/org', owner, { name: 'Zebra Games' })).status).toBe(200);
    const email = `headers-${uniq()}@example.com`;
    expect((await invite(owner, email)).status).toBe(201);
    const mail = await newMailTo(email, 0);
    expect(mail.subject).toBe(`${owner.email} invited you to join their team on ARB`);
    expect(mail.subject).not.toContain('Zebra');
    expect(mail.text).toContain('invited you to join “Zebra Games” on ARB');
    expect(mail.headers['list-unsubscribe']).toMatch(/^<http:\/\/[^>]+\/api\/v1\/public\/email\/unsubscribe\?token=[^>]+>$/);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toMatch(/Unsubscribe from all ARB e-mails, invitations included \(one click, no sign-in\): http\S+\/email\/unsubscribe\?token=/);
    expect(mail.html).toMatch(/<a href="http[^"]+\/email\/unsubscribe\?token=[^"]+"[^>]*>Unsubscribe<\/a>/);

    // A name from before the rule (or one set around it) that looks like a web address is not shown at all.
    await w.db.db.updateTable('orgs').set({ name: 'www.paypal-help.example' }).where('id', '=', owner.orgId).execute();
    const second = `legacy-${uniq()}@example.com`;
    expect((await invite(owner, second)).status).toBe(201);
    const legacy = await newMailTo(second, 0);
    expect(legacy.text).toContain('invited you to join their team on ARB');
    expect(`${legacy.subject}\n${legacy.text}\n${legacy.html}`).not.toContain('paypal');
  });

  test('an address that unsubscribed gets no invitation e-mail: the admin is told, and the invitation waits for its sign-in', async () => {
    const a = await newOwner('delta');
    const b = await newOwner('epsilon');
    const email = `unsub-${uniq()}@example.com`;
    expect((await invite(a, email)).status).toBe(201);
    const mail = await newMailTo(email, 0);
    const oneClick = new URL(/<([^>]+)>/.exec(mail.headers['list-unsubscribe'])![1]);
    const unsubscribed = await call(w.api, 'POST', `${oneClick.pathname}${oneClick.search}`, undefined, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      rawBody: 'List-Unsubscribe=One-Click',
      ip: nextIp(),
    });
    expect(unsubscribed.status, unsubscribed.text).toBe(200);

    const mailsBefore = mailsTo(email).length;
    const refused = await invite(b, email, 'admin');
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.error.code).toBe('address_unsubscribed');
    expect(refused.json.error.message).toBe(
      `${email} has unsubscribed from ARB e-mails, so no invitation e-mail was sent. The invitation is open for 7 days: ask them to sign in to ARB with this address, where it waits for them to accept.`,
    );
    // Asking again changes nothing and still sends nothing.
    expect((await invite(b, email, 'admin')).status).toBe(409);
    const open = await get<Invitation[]>('/api/v1/org/invitations', b);
    expect(open.json.data).toEqual([expect.objectContaining({ email, role: 'admin', mailed_at: null, created_by: b.email })]);

    const signedIn = await signInWithCode(w, email, nextIp());
    const waiting = await get<{ id: string; role: string }[]>('/api/v1/invitations', { token: signedIn.authToken });
    expect(waiting.json.data.find((i) => i.id === open.json.data[0].id)).toMatchObject({ role: 'admin' });
    const accepted = await send<{ authToken: string }>('POST', `/api/v1/invitations/${open.json.data[0].id}/accept`, { token: signedIn.authToken }, {});
    expect(accepted.status, accepted.text).toBe(200);
    expect((await get<{ id: string; role: string }>('/api/v1/org', { token: accepted.json.data.authToken })).json.data).toMatchObject({ id: b.orgId, role: 'admin' });
    expect(mailsTo(email).filter((m) => /invited you/.test(m.subject))).toHaveLength(mailsBefore);
    expect(mailsBefore).toBe(1);
  });

  test('one mailbox gets at most 3 invitation e-mails a day, counted across organisations and spellings', async () => {
    const a = await newOwner('eta');
    const b = await newOwner('theta');
    const local = `capped${uniq()}`;
    const plain = `${local}@gmail.com`;
    const dotted = `${local.slice(0, 3)}.${local.slice(3)}+team@googlemail.com`;
    expect((await invite(a, plain)).status).toBe(201);
    expect((await invite(b, dotted)).status).toBe(201);
    await mailedMinutesAgo(plain, 11);
    expect((await invite(a, plain, 'admin')).status).toBe(201);

    await mailedMinutesAgo(dotted, 11);
    const fourth = await invite(b, dotted, 'admin');
    expect(fourth.status, fourth.text).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(80_000);
    expect(fourth.json.error.message).toBe(`${dotted} has been sent as many invitation e-mails today as ARB sends one address in a day. Try again tomorrow.`);
    const mailbox = w.smtp.messages.filter((m) => m.envelopeTo.some((to) => to === plain || to === dotted) && /invited you/.test(m.subject));
    expect(mailbox).toHaveLength(3);
    // Another mailbox is not held back by it.
    expect((await invite(b, `${local}x@gmail.com`)).status).toBe(201);
  });

  test('addresses at one domain get a capped number of invitation e-mails an hour, across organisations', async () => {
    const a = await newOwner('iota');
    const b = await newOwner('kappa');
    const domain = `d${uniq()}.example`;
    // As if other organisations had used all but one of this hour's e-mails to the domain.
    const { name, limit, windowSeconds } = INVITATION_LIMITS.perDomainHourly;
    await w.db.db.insertInto('rate_limits').values({ key: `${name}:${domain}`, count: limit - 1, window_ends_at: new Date(Date.now() + windowSeconds * 1000) }).execute();
    expect((await invite(a, `one@${domain}`)).status).toBe(201);
    const refused = await invite(b, `two@${domain}`);
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.error.message).toBe(`ARB has sent as many invitation e-mails to addresses at ${domain} this hour as it sends to one domain. Try again in an hour.`);
    expect(mailsTo(`two@${domain}`)).toHaveLength(0);
    expect((await invite(b, `two@other-${domain}`)).status).toBe(201);
  });

  test('inviting again within 10 minutes answers the open invitation without another e-mail, and says when one may go', async () => {
    const owner = await newOwner('lambda');
    const other = await newOwner('mu');
    const email = `again-${uniq()}@example.com`;
    const first = await invite(owner, email);
    expect(first.status).toBe(201);
    expect(first.json.data.mail).toMatchObject({ sent: true, message: `The invitation e-mail went to ${email}.` });
    const firstMail = await newMailTo(email, 0);

    const again = await invite(owner, email, 'admin');
    expect(again.status, again.text).toBe(200);
    expect(again.json.data).toMatchObject({ id: first.json.data.id, role: 'admin', created_by: owner.email });
    expect(again.json.data.mail.sent).toBe(false);
    const sentAt = Date.parse(again.json.data.mail.sent_at!);
    expect(Date.parse(again.json.data.mail.resend_after!) - sentAt).toBe(10 * 60_000);
    expect(again.json.data.mail.message).toMatch(new RegExp(`^The invitation e-mail went to ${email} at \\d\\d:\\d\\d UTC\\. It can be sent again after \\d\\d:\\d\\d UTC\\.$`));
    expect(mailsTo(email)).toHaveLength(1);
    // Another organisation's invitation is its own: it is e-mailed.
    expect((await invite(other, email)).status).toBe(201);
    await newMailTo(email, 1);

    // The first link still works for the role now offered; past the cooldown a new e-mail (and link) goes.
    await mailedMinutesAgo(email, 11);
    const later = await invite(owner, email, 'admin');
    expect(later.status).toBe(201);
    expect(later.json.data.id).not.toBe(first.json.data.id);
    expect(linkToken(await newMailTo(email, 2))).not.toBe(linkToken(firstMail));
    const audit = await get<{ action: string; details: Record<string, unknown> }[]>('/api/v1/org/audit-log?limit=100', owner);
    expect(audit.json.data.map((e) => e.action)).toEqual(['member.invited', 'invitation.role_changed', 'member.invited']);
  });

  test('two invites of one address at once send one e-mail, and neither is a 500', async () => {
    const owner = await newOwner('xi');
    const email = `twice-${uniq()}@example.com`;
    const answers = await Promise.all([invite(owner, email), invite(owner, email)]);
    expect(answers.map((r) => r.status).filter((s) => s === 201), answers.map((r) => r.text).join('\n')).toHaveLength(1);
    for (const r of answers) expect([200, 201, 409]).toContain(r.status);
    await newMailTo(email, 0);
    expect((await get<Invitation[]>('/api/v1/org/invitations', owner)).json.data).toHaveLength(1);
    expect(mailsTo(email)).toHaveLength(1);
  });
});

describe('organisation names', () => {
  test('read as names: no web addresses, no odd characters, at most 60 characters, each refusal in words', async () => {
    const owner = await newOwner('nu');
    const rename = (name: string) => send<{ name: string }>('PATCH', '/api/v1/org', owner, { name });
    for (const [name, message] of [
      ['paypal-help.com', /cannot look like a web address/],
      ['Visit www.example', /cannot look like a web address/],
      ['https://evil.example', /letters, digits, spaces and these marks only/],
      ['Acme\u202Eevil', /letters, digits, spaces and these marks only/],
      ['Acme <b>', /letters, digits, spaces and these marks only/],
      ['x'.repeat(61), /at most 60 characters/],
      ['  ', /Enter a name/],
    ] as const) {
      const r = await rename(name);
      expect(r.status, name).toBe(400);
      expect(r.json.error.message, name).toMatch(message);
    }
    for (const name of ['Acme & Co. (EU)', 'Café Zürich', 'J.P. Morgan', '東京アプリ']) {
      const r = await rename(name);
      expect(r.status, `${name}: ${r.text}`).toBe(200);
    }
    expect((await get<{ name: string }>('/api/v1/org', owner)).json.data.name).toBe('東京アプリ');
  });
});
