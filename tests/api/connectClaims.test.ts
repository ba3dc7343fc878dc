// Trust at the organisation boundary, for connections, through the real routes, a real database (PGlite and
// PostgreSQL) and the real SMTP fake:
//  - a connection made without an account is claimed at sign-in only with proof that it is the person's: the claim
//    cookie of the browser that made it, or — for an e-mail destination — its confirmation link; never because the
//    address typed into the connect payload is the one signing in;
//  - a connect never returns another organisation's destination: existing ones are looked up within the caller's
//    scope (its organisation, or anonymous connections only), otherwise the answer is that of a new one.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { signToken } from '@/server/signedTokens';
import { setDestinationPaused } from '@/server/monitor/service';
import { call } from '../helpers/request';
import { signInWithCode } from '../helpers/emailSignIn';
import { claimCookieHeader } from '../helpers/claimCookie';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { accessTokenFor } from '../helpers/session';
import { linkToken, newIosApp, newIp, payloadFor, startConnectWorld, type ConnectWorld } from './support/connectWorld';

let w: ConnectWorld;
beforeAll(async () => {
  w = await startConnectWorld();
}, 60_000);
afterAll(async () => {
  await w?.close();
});

let n = 0;
const unique = (base: string) => `${base}-${Date.now().toString(36)}${n++}@example.com`;

type Connected = { destination_id: string; created: boolean; status: { status: string; label: string | null } & Record<string, unknown> };

function connect(platform: string, payload: string, opts: { token?: string; cookie?: string } = {}) {
  return call<Connected>(w.api, 'POST', '/api/v1/oauth/platform/connect', { platform, payload }, { ip: newIp(), ...(opts.token ? { token: opts.token } : {}), headers: opts.cookie ? { Cookie: opts.cookie } : {} });
}

const orgOf = async (id: string) => (await (await getDb()).selectFrom('destinations').select('org_id').where('id', '=', id).executeTakeFirstOrThrow()).org_id;
const orgOfUser = async (email: string) => (await (await getDb()).selectFrom('users').select('org_id').where('email', '=', email).executeTakeFirstOrThrow()).org_id;
const destinationsOf = async (token: string) => (await call<Array<{ id: string }>>(w.api, 'GET', '/api/v1/org/destinations', undefined, { token, ip: newIp() })).json.data.map((d) => d.id);

describe('claiming connections made without an account', () => {
  test('the address typed into the payload claims nothing; the claim cookie of the browser that made it does', async () => {
    const victim = unique('victim');
    const app = newIosApp(w);
    // A stranger connects their own channel and types someone else's address.
    const made = await connect('discord', payloadFor({ app_id: app.appId, webhook_url: w.chat.hook('discord').url, user_email: victim }));
    expect(made.status, made.text).toBe(200);
    const cookie = claimCookieHeader(made.headers);
    expect(cookie).toMatch(/^arb_connect_claim=/);

    // The owner of that address signs in (in another browser: no cookie): nothing of the stranger's joins their organisation.
    const signedIn = await signInWithCode(w, victim, newIp());
    expect(await destinationsOf(signedIn.authToken)).toEqual([]);
    expect(await orgOf(made.json.data.destination_id)).toBeNull();

    // The stranger signs in from their browser, with any address: the cookie proves the connection is theirs.
    const maker = unique('maker');
    const own = await signInWithCode(w, maker, newIp(), { cookie });
    expect(await destinationsOf(own.authToken)).toEqual([made.json.data.destination_id]);
    expect(await orgOf(made.json.data.destination_id)).toBe(await orgOfUser(maker));

    // Claimed once: the same cookie signing in to another organisation takes nothing away.
    const later = await signInWithCode(w, unique('later'), newIp(), { cookie });
    expect(await destinationsOf(later.authToken)).toEqual([]);
    expect(await orgOf(made.json.data.destination_id)).toBe(await orgOfUser(maker));
  });

  test('one browser’s cookie names each connection it made; an altered or foreign token claims nothing', async () => {
    const [a, b] = [newIosApp(w), newIosApp(w)];
    const first = await connect('slack', payloadFor({ app_id: a.appId, webhook_url: w.chat.hook('slack').url }));
    const second = await connect('msteams', payloadFor({ app_id: b.appId, webhook_url: w.chat.hook('msteams').url }), { cookie: claimCookieHeader(first.headers) });
    const cookie = claimCookieHeader(second.headers);

    // A token with the right claims but signed for another purpose, and one whose claims were changed, prove nothing.
    const foreign = await signToken('oauth_state', { dst: [first.json.data.destination_id] }, { expiresAt: null });
    const [head, , sig] = cookie.split('=')[1].split('.');
    const altered = `${head}.${Buffer.from(JSON.stringify({ dst: [first.json.data.destination_id], iss: 'arb-connect', aud: 'claim' })).toString('base64url')}.${sig}`;
    for (const bad of [foreign, altered]) {
      const s = await signInWithCode(w, unique('forger'), newIp(), { cookie: `arb_connect_claim=${bad}` });
      expect(await destinationsOf(s.authToken)).toEqual([]);
    }

    const owner = await signInWithCode(w, unique('both'), newIp(), { cookie });
    expect((await destinationsOf(owner.authToken)).sort()).toEqual([first.json.data.destination_id, second.json.data.destination_id].sort());
  });

  test('the cookie claims into the organisation the person is in now: a member removed before signing in takes it to their own', async () => {
    const owner = await newOwner('claims-a');
    const member = await memberOf(owner, 'member', 'leaving');
    const made = await connect('discord', payloadFor({ app_id: newIosApp(w).appId, webhook_url: w.chat.hook('discord').url, user_email: owner.email }));
    const removed = await call(w.api, 'DELETE', `/api/v1/org/members/${member.userId}`, undefined, { token: owner.token, ip: newIp() });
    expect(removed.status, removed.text).toBe(200);
    await signInWithCode(w, member.email, newIp(), { cookie: claimCookieHeader(made.headers) });
    const now = await orgOfUser(member.email);
    expect(now).not.toBe(owner.orgId);
    expect(await orgOf(made.json.data.destination_id)).toBe(now);
    expect(await destinationsOf(owner.token)).toEqual([]);
  });

  test('an e-mail destination is claimed by its confirmation link: signing in with the address claims it only once the mailbox confirmed', async () => {
    const address = unique('mailbox');
    const made = await connect('email', payloadFor({ app_id: newIosApp(w).appId, user_email: address }));
    expect(made.status, made.text).toBe(200);
    expect(made.json.data.status.status).toBe('pending_confirmation');

    // Not confirmed: signing in with the address (no cookie) is only a typed address for this destination.
    const before = await signInWithCode(w, address, newIp());
    expect(await destinationsOf(before.authToken)).toEqual([]);

    await expect.poll(() => w.smtp.messages.filter((m) => m.envelopeTo.includes(address) && /^Confirm/.test(m.subject)).length, { timeout: 10_000 }).toBe(1);
    const mail = w.smtp.messages.find((m) => m.envelopeTo.includes(address) && /^Confirm/.test(m.subject))!;
    const confirmed = await call(w.api, 'POST', '/api/v1/public/email/confirm', { token: linkToken(mail, '/email/confirm') }, { ip: newIp() });
    expect(confirmed.status, confirmed.text).toBe(200);

    // Someone else signing in claims nothing; the mailbox's owner signing in claims it.
    const other = await signInWithCode(w, unique('other'), newIp());
    expect(await destinationsOf(other.authToken)).toEqual([]);
    const after = await signInWithCode(w, address, newIp());
    expect(await destinationsOf(after.authToken)).toEqual([made.json.data.destination_id]);
  });
});

describe('a connect never returns another organisation’s destination', () => {
  let a: SignedInUser;
  let appId: string;
  let hookUrl: string;
  let ofA: Connected;

  beforeAll(async () => {
    a = await newOwner('scope-a');
    appId = newIosApp(w).appId;
    hookUrl = w.chat.hook('slack').url;
    const r = await connect('slack', payloadFor({ app_id: appId, webhook_url: hookUrl }), { token: a.token });
    expect(r.status, r.text).toBe(200);
    ofA = r.json.data;
    await setDestinationPaused(ofA.destination_id, true); // A's own state, which nobody else may see
  });

  test('organisation B’s admin connecting A’s webhook gets a new destination of B, not A’s id or status', async () => {
    const b = await newOwner('scope-b');
    const r = await connect('slack', payloadFor({ app_id: appId, webhook_url: hookUrl }), { token: b.token });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({ created: true, status: { status: 'active' } });
    expect(r.json.data.destination_id).not.toBe(ofA.destination_id);
    expect(await orgOf(r.json.data.destination_id)).toBe(b.orgId);
    expect(await orgOf(ofA.destination_id)).toBe(a.orgId);
    // Connecting again finds B's own.
    const again = await connect('slack', payloadFor({ app_id: appId, webhook_url: hookUrl }), { token: b.token });
    expect(again.json.data).toMatchObject({ created: false, destination_id: r.json.data.destination_id });
  });

  test('without an account, A’s webhook or address gives a new anonymous connection', async () => {
    const r = await connect('slack', payloadFor({ app_id: appId, webhook_url: hookUrl }));
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({ created: true, status: { status: 'active' } });
    expect(r.json.data.destination_id).not.toBe(ofA.destination_id);
    expect(await orgOf(r.json.data.destination_id)).toBeNull();

    const mailApp = newIosApp(w).appId;
    const mine = await connect('email', payloadFor({ app_id: mailApp, user_email: a.email }), { token: a.token }); // own address: active at once
    expect(mine.json.data.status.status).toBe('active');
    const anon = await connect('email', payloadFor({ app_id: mailApp, user_email: a.email }));
    expect(anon.json.data).toMatchObject({ created: true, status: { status: 'pending_confirmation' } });
    expect(anon.json.data.destination_id).not.toBe(mine.json.data.destination_id);
  });

  test('a member removed from A connecting A’s webhook gets their own new destination', async () => {
    const admin = await memberOf(a, 'admin', 'gone');
    expect((await call(w.api, 'DELETE', `/api/v1/org/members/${admin.userId}`, undefined, { token: a.token, ip: newIp() })).status).toBe(200);
    const own = await orgOfUser(admin.email);
    const token = await accessTokenFor({ userId: admin.userId, orgId: own, email: admin.email });
    const r = await connect('slack', payloadFor({ app_id: appId, webhook_url: hookUrl }), { token });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.created).toBe(true);
    expect(r.json.data.destination_id).not.toBe(ofA.destination_id);
    expect(await orgOf(r.json.data.destination_id)).toBe(own);
  });
});
