// The organisation and its team through the real routes, a real database (PGlite and PostgreSQL) and the real SMTP
// fake: rename, invitations (the link joins once confirmed; a code sign-in only shows them), roles, removal, leaving,
// the audit log, and that nobody reaches another organisation's people.
import { describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { newOwner } from '../helpers/orgs';
import { setUpMailApi } from '../helpers/apiWorld';
import { signInWithCode } from '../helpers/emailSignIn';
import { call } from '../helpers/request';

const w = setUpMailApi('team', { HCAPTCHA_SECRET: undefined, STRIPE_SECRET_KEY: undefined, TRUST_PROXY: '1' });

let n = 0;
const nextIp = () => `198.18.${Math.floor(++n / 250)}.${(n % 250) + 1}`;
const uniq = () => `${Date.now().toString(36)}${++n}`;

type Member = { id: string; email: string; role: string; you: boolean };
type Invitation = { id: string; email: string; role: string };

const get = <T>(path: string, token: string) => call<T>(w.api, 'GET', path, undefined, { token, ip: nextIp() });
const send = <T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, token: string, body?: unknown) =>
  call<T>(w.api, method, path, body, { token, ip: nextIp() });

/** The token in the newest invitation e-mail to `email` (from the link's fragment). */
async function invitationLinkToken(email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = w.smtp.messages.filter((m) => m.envelopeTo.includes(email) && /invited you/.test(m.subject)).at(-1);
    if (mail) {
      const m = /\/join#([\w-]+)/.exec(mail.text);
      if (!m) throw new Error(`no link in: ${mail.text}`);
      return m[1];
    }
    if (Date.now() > deadline) throw new Error(`no invitation e-mail for ${email}`);
    await w.smtp.waitForMessages(w.smtp.messages.length + 1, deadline - Date.now()).catch(() => undefined);
  }
}

async function invite(owner: { token: string }, email: string, role = 'member') {
  const r = await send<Invitation>('POST', '/api/v1/org/invitations', owner.token, { email, role });
  expect(r.status, r.text).toBe(201);
  return r.json.data;
}

async function joinByLink(email: string) {
  const token = await invitationLinkToken(email);
  return call<{ authToken: string; email: string }>(w.api, 'POST', '/api/v1/auth/invitation', { token }, { ip: nextIp() });
}

async function auditActions(token: string): Promise<string[]> {
  const r = await get<{ action: string }[]>('/api/v1/org/audit-log?limit=100', token);
  expect(r.status, r.text).toBe(200);
  return r.json.data.map((e) => e.action);
}

describe('the organisation', () => {
  test("GET v1/org names the caller's organisation and role; admins rename it, members may not", async () => {
    const owner = await newOwner();
    const org = await get<{ id: string; role: string; members: number }>('/api/v1/org', owner.token);
    expect(org.status).toBe(200);
    expect(org.json.data).toMatchObject({ id: owner.orgId, role: 'owner', members: 1, plan: expect.any(String) });

    const renamed = await send('PATCH', '/api/v1/org', owner.token, { name: '  Acme Mobile  ' });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await get<{ name: string }>('/api/v1/org', owner.token)).json.data.name).toBe('Acme Mobile');

    await invite(owner, `member-${uniq()}@example.com`);
    const member = await joinByLink(w.smtp.messages.at(-1)!.envelopeTo[0]);
    const denied = await send('PATCH', '/api/v1/org', member.json.data.authToken, { name: 'Mine now' });
    expect(denied.status).toBe(403);
    expect(denied.json.error.message).toMatch(/Only an admin or the owner of this organisation can rename it/);
    expect((await get<{ name: string }>('/api/v1/org', owner.token)).json.data.name).toBe('Acme Mobile');

    const empty = await send('PATCH', '/api/v1/org', owner.token, { name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.json.error.message).toMatch(/Enter a name/);
  });

  test('without a signed-in session every team call is 401', async () => {
    for (const [method, path] of [['GET', '/api/v1/org'], ['GET', '/api/v1/org/members'], ['POST', '/api/v1/org/leave'], ['GET', '/api/v1/org/audit-log']] as const) {
      const r = await call(w.api, method, path, method === 'POST' ? {} : undefined, { ip: nextIp() });
      expect(r.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('invitations', () => {
  test('the e-mail link signs the invitee in and joins them, once; the audit log records both steps', async () => {
    const owner = await newOwner();
    const email = `bob-${uniq()}@example.com`;
    const inv = await invite(owner, email, 'admin');
    expect(inv).toMatchObject({ email, role: 'admin', id: expect.stringMatching(/^inv_/) });
    const mail = w.smtp.messages.filter((m) => m.envelopeTo.includes(email)).at(-1)!;
    expect(mail.subject).toBe(`${owner.email} invited you to join their team on ARB`);
    expect(mail.text).toMatch(/as admin/);
    // Only the keyed hash of the link's token is stored.
    const token = await invitationLinkToken(email);
    const row = await w.db.db.selectFrom('org_invitations').selectAll().where('id', '=', inv.id).executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(token);

    const open = await get<Invitation[]>('/api/v1/org/invitations', owner.token);
    expect(open.json.data.map((i) => i.email)).toEqual([email]);

    const joined = await joinByLink(email);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.json.data.email).toBe(email);
    const bob = joined.json.data.authToken;
    const org = await get<{ id: string; role: string; members: number }>('/api/v1/org', bob);
    expect(org.json.data).toMatchObject({ id: owner.orgId, role: 'admin', members: 2 });
    const members = await get<Member[]>('/api/v1/org/members', bob);
    expect(members.json.data.map((m) => [m.email, m.role, m.you])).toEqual([
      [owner.email, 'owner', false],
      [email, 'admin', true],
    ]);

    const again = await call(w.api, 'POST', '/api/v1/auth/invitation', { token }, { ip: nextIp() });
    expect(again.status).toBe(401);
    expect(again.json.error.message).toMatch(/expired, was cancelled or was already used/);
    expect((await get<Invitation[]>('/api/v1/org/invitations', owner.token)).json.data).toEqual([]);
    expect(await auditActions(owner.token)).toEqual(['member.joined', 'member.invited']);
  });

  test('signing in with the invited address by the usual code does not join: the invitation is shown, and accepting joins', async () => {
    const owner = await newOwner();
    const email = `carol-${uniq()}@example.com`;
    await invite(owner, email);
    const carol = await signInWithCode(w, email, nextIp());
    const own = await get<{ id: string; role: string }>('/api/v1/org', carol.authToken);
    expect(own.json.data.id).not.toBe(owner.orgId);
    const shown = await get<{ id: string; organisation: string }[]>('/api/v1/invitations', carol.authToken);
    expect(shown.json.data.map((i) => i.organisation)).toEqual([owner.email]);
    const joined = await send<{ authToken: string }>('POST', `/api/v1/invitations/${shown.json.data[0].id}/accept`, carol.authToken, {});
    expect(joined.status, joined.text).toBe(200);
    const org = await get<{ id: string; role: string }>('/api/v1/org', joined.json.data.authToken);
    expect(org.json.data).toMatchObject({ id: owner.orgId, role: 'member' });
  });

  test('inviting again replaces the open invitation: the first link stops working', async () => {
    const owner = await newOwner();
    const email = `dan-${uniq()}@example.com`;
    await invite(owner, email);
    const first = await invitationLinkToken(email);
    // Past the re-invite cooldown (tests/api/teamHygiene.test.ts): another e-mail may go.
    await w.db.db.updateTable('org_invitations').set({ mailed_at: new Date(Date.now() - 11 * 60_000) }).where('email', '=', email).execute();
    const before = w.smtp.messages.length;
    await invite(owner, email, 'admin');
    await w.smtp.waitForMessages(before + 1);
    const second = await invitationLinkToken(email);
    expect(second).not.toBe(first);
    expect((await call(w.api, 'POST', '/api/v1/auth/invitation', { token: first }, { ip: nextIp() })).status).toBe(401);
    const joined = await call<{ authToken: string }>(w.api, 'POST', '/api/v1/auth/invitation', { token: second }, { ip: nextIp() });
    expect(joined.status).toBe(200);
    expect((await get<{ role: string }>('/api/v1/org', joined.json.data.authToken)).json.data.role).toBe('admin');
  });

  test('a cancelled invitation neither opens by link nor joins at sign-in; members already in get 409', async () => {
    const owner = await newOwner();
    const email = `erin-${uniq()}@example.com`;
    const inv = await invite(owner, email);
    const token = await invitationLinkToken(email);
    expect((await send('DELETE', `/api/v1/org/invitations/${inv.id}`, owner.token)).status).toBe(200);
    expect((await send('DELETE', `/api/v1/org/invitations/${inv.id}`, owner.token)).status).toBe(404);
    expect((await call(w.api, 'POST', '/api/v1/auth/invitation', { token }, { ip: nextIp() })).status).toBe(401);
    const erin = await signInWithCode(w, email, nextIp());
    expect((await get<{ id: string }>('/api/v1/org', erin.authToken)).json.data.id).not.toBe(owner.orgId);

    const again = await send('POST', '/api/v1/org/invitations', owner.token, { email: owner.email.toUpperCase(), role: 'member' });
    expect(again.status).toBe(409);
    expect(again.json.error.message).toBe(`${owner.email} is already a member of this organisation.`);
    expect(await auditActions(owner.token)).toEqual(['invitation.revoked', 'member.invited']);
  });

  test('the only owner of a team is not moved out of it: the link says what to do, a code sign-in keeps them home', async () => {
    const a = await newOwner('alpha');
    const b = await newOwner('beta');
    await invite(b, `b-member-${uniq()}@example.com`);
    expect((await joinByLink(w.smtp.messages.at(-1)!.envelopeTo[0])).status).toBe(200);

    await invite(a, b.email);
    const refused = await joinByLink(b.email);
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toMatch(/only owner of .*, which has other members/);
    const signedIn = await signInWithCode(w, b.email, nextIp());
    expect((await get<{ id: string }>('/api/v1/org', signedIn.authToken)).json.data.id).toBe(b.orgId);
    expect((await get<Invitation[]>('/api/v1/org/invitations', a.token)).json.data.map((i) => i.email)).toEqual([b.email]);
  });

  test('bad input is a 400 that names the field', async () => {
    const owner = await newOwner();
    const badRole = await send('POST', '/api/v1/org/invitations', owner.token, { email: 'x@example.com', role: 'owner' });
    expect(badRole.status).toBe(400);
    expect(badRole.json.error.message).toMatch(/role must be admin or member/);
    const badEmail = await send('POST', '/api/v1/org/invitations', owner.token, { email: 'not-an-address', role: 'member' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.json.error.message).toMatch(/valid e-mail/);
    expect((await send('DELETE', '/api/v1/org/invitations/nope', owner.token)).status).toBe(400);
    expect((await send('PATCH', '/api/v1/org/members/usr_x', owner.token, { role: 'boss' })).status).toBe(400);
    expect((await get('/api/v1/org/audit-log?limit=1000', owner.token)).status).toBe(400);
    expect((await get('/api/v1/org/audit-log?before=abc', owner.token)).status).toBe(400);
  });
});

describe('roles, removal and leaving', () => {
  /** An org with an owner, an admin and a member, each signed in. */
  async function team() {
    const owner = await newOwner();
    const people: Record<'admin' | 'member', { token: string; id: string; email: string }> = {} as never;
    for (const role of ['admin', 'member'] as const) {
      const email = `${role}-${uniq()}@example.com`;
      await invite(owner, email, role);
      const joined = await joinByLink(email);
      expect(joined.status, joined.text).toBe(200);
      const members = await get<Member[]>('/api/v1/org/members', joined.json.data.authToken);
      people[role] = { token: joined.json.data.authToken, id: members.json.data.find((m) => m.you)!.id, email };
    }
    const ownerId = (await get<Member[]>('/api/v1/org/members', owner.token)).json.data.find((m) => m.you)!.id;
    return { owner: { ...owner, id: ownerId }, ...people };
  }

  test('members read the team but cannot manage it; admins manage members and admins but not owners', async () => {
    const t = await team();
    const asMember = await send('POST', '/api/v1/org/invitations', t.member.token, { email: `x-${uniq()}@example.com`, role: 'member' });
    expect(asMember.status).toBe(403);
    expect(asMember.json.error.message).toBe('Only an admin or the owner of this organisation can invite members. You are a member.');
    expect((await send('DELETE', `/api/v1/org/members/${t.admin.id}`, t.member.token)).status).toBe(403);
    expect((await get('/api/v1/org/audit-log', t.member.token)).status).toBe(403);
    expect((await get('/api/v1/org/invitations', t.member.token)).status).toBe(403);
    expect((await get<Member[]>('/api/v1/org/members', t.member.token)).json.data).toHaveLength(3);

    const makeOwner = await send('PATCH', `/api/v1/org/members/${t.member.id}`, t.admin.token, { role: 'owner' });
    expect(makeOwner.status).toBe(403);
    expect(makeOwner.json.error.message).toBe('Only an owner can make or unmake owners.');
    expect((await send('PATCH', `/api/v1/org/members/${t.owner.id}`, t.admin.token, { role: 'member' })).status).toBe(403);
    expect((await send('DELETE', `/api/v1/org/members/${t.owner.id}`, t.admin.token)).status).toBe(403);

    const promoted = await send<Member>('PATCH', `/api/v1/org/members/${t.member.id}`, t.admin.token, { role: 'admin' });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.json.data.role).toBe('admin');
    // The new role applies to the very next call with the token they already hold.
    expect((await get('/api/v1/org/audit-log', t.member.token)).status).toBe(200);
  });

  test('an organisation keeps an owner: the only owner cannot step down, be removed or leave; a second owner can', async () => {
    const t = await team();
    const demote = await send('PATCH', `/api/v1/org/members/${t.owner.id}`, t.owner.token, { role: 'admin' });
    expect(demote.status).toBe(409);
    expect(demote.json.error.message).toMatch(/only owner/);
    const leave = await send('POST', '/api/v1/org/leave', t.owner.token, {});
    expect(leave.status).toBe(409);
    expect(leave.json.error.message).toMatch(/only owner/);

    expect((await send('PATCH', `/api/v1/org/members/${t.admin.id}`, t.owner.token, { role: 'owner' })).status).toBe(200);
    expect((await send('PATCH', `/api/v1/org/members/${t.owner.id}`, t.admin.token, { role: 'member' })).status).toBe(200);
    expect((await get<{ role: string }>('/api/v1/org', t.owner.token)).json.data.role).toBe('member');
  });

  test('a removed member keeps their account in an organisation of their own, and their tokens stop at once', async () => {
    const t = await team();
    const removed = await send('DELETE', `/api/v1/org/members/${t.member.id}`, t.admin.token);
    expect(removed.status, removed.text).toBe(200);
    expect((await get('/api/v1/org', t.member.token)).status).toBe(401);
    expect((await get<Member[]>('/api/v1/org/members', t.owner.token)).json.data.map((m) => m.email)).not.toContain(t.member.email);

    const back = await signInWithCode(w, t.member.email, nextIp());
    const own = await get<{ id: string; role: string; members: number }>('/api/v1/org', back.authToken);
    expect(own.json.data).toMatchObject({ role: 'owner', members: 1 });
    expect(own.json.data.id).not.toBe(t.owner.orgId);
    expect((await send('DELETE', `/api/v1/org/members/${t.admin.id}`, t.admin.token)).status).toBe(400);

    const actions = await auditActions(t.owner.token);
    expect(actions[0]).toBe('member.removed');
    const entry = (await get<{ action: string; actor_email: string; target: string }[]>('/api/v1/org/audit-log?limit=1', t.owner.token)).json.data[0];
    expect(entry).toMatchObject({ action: 'member.removed', actor_email: t.admin.email, target: t.member.email });
  });

  test('leaving ends the leaver’s sessions; the only member has nobody to leave it to', async () => {
    const t = await team();
    expect((await send('POST', '/api/v1/org/leave', t.admin.token, {})).status).toBe(200);
    expect((await get('/api/v1/org', t.admin.token)).status).toBe(401);
    expect((await auditActions(t.owner.token))[0]).toBe('member.left');
    // The leaver's own new organisation is named after their e-mail's domain, not the address (issue 31).
    const own = await w.db.db.selectFrom('users').innerJoin('orgs', 'orgs.id', 'users.org_id').select('orgs.name').where('users.email', '=', t.admin.email).executeTakeFirstOrThrow();
    expect(own.name).toBe('Example');

    const alone = await newOwner('solo');
    const r = await send('POST', '/api/v1/org/leave', alone.token, {});
    expect(r.status).toBe(409);
    expect(r.json.error.message).toMatch(/only member/);
  });

  test("nobody reaches another organisation's members or invitations: they are not found there", async () => {
    const t = await team();
    const stranger = await newOwner('stranger');
    const inv = await invite(t.owner, `pending-${uniq()}@example.com`);
    expect((await send('DELETE', `/api/v1/org/members/${t.member.id}`, stranger.token)).status).toBe(404);
    expect((await send('PATCH', `/api/v1/org/members/${t.member.id}`, stranger.token, { role: 'admin' })).status).toBe(404);
    expect((await send('DELETE', `/api/v1/org/invitations/${inv.id}`, stranger.token)).status).toBe(404);
    expect((await get<Member[]>('/api/v1/org/members', stranger.token)).json.data.map((m) => m.email)).toEqual([stranger.email]);
    expect((await get<unknown[]>('/api/v1/org/audit-log', stranger.token)).json.data).toEqual([]);
  });

  test('the owner deletes the organisation after typing its name: destinations and keys go, members keep their accounts elsewhere, sessions end, others stay', async () => {
    const t = await team();
    const other = await newOwner('bystander');
    const db = await getDb();
    const orgName = `Doomed ${uniq()}`;
    expect((await send('PATCH', '/api/v1/org', t.owner.token, { name: orgName })).status).toBe(200);
    await db.insertInto('destinations').values({ id: `dst_del${uniq()}`, org_id: t.owner.orgId, platform: 'slack', target_enc: 'x', target_hash: `h${uniq()}`, target_hint: 'hooks.slack.com …abcd', filters: '{}' }).execute();
    expect((await send('POST', '/api/v1/org/api-keys', t.owner.token, { name: 'CI' })).status).toBe(201);
    // An app only this organisation watches, with its feed polled: nobody needs that feed once the organisation goes.
    const appKey = `apple_app_store__${1_900_000_000 + Math.floor(Math.random() * 1e8)}`;
    await db.insertInto('apps').values({ key: appKey, store: 'apple_app_store', app_id: appKey.split('__')[1], title: 'Doomed app', icon_url: null, store_url: null, developer: null }).execute();
    await db.insertInto('org_apps').values({ org_id: t.owner.orgId, app_key: appKey, countries: ['us'], added_by: t.owner.userId, added_by_email: t.owner.email }).execute();
    await db.insertInto('monitored_sources').values({ app_key: appKey, kind: 'appstore_feed', country: 'us' }).execute();

    for (const who of [t.admin, t.member]) {
      const refused = await send('DELETE', '/api/v1/org', who.token, { confirm: orgName });
      expect(refused.status).toBe(403);
      expect(refused.json.error.message).toMatch(/^Only the owner of this organisation can delete the organisation\./);
    }
    const mistyped = await send('DELETE', '/api/v1/org', t.owner.token, { confirm: orgName.toLowerCase() });
    expect(mistyped.status).toBe(400);
    expect(mistyped.json.error).toEqual({ code: 'confirmation_mismatch', message: `Type the organisation's name, ${orgName}, exactly to confirm.` });
    expect((await send('DELETE', '/api/v1/org', t.owner.token, {})).status).toBe(400);

    // A paid subscription still running is cancelled first: nobody is charged for an organisation that is gone.
    w.setEnv({ STRIPE_SECRET_KEY: 'sk_test_delete' });
    try {
      await db.updateTable('orgs').set({ plan: 'startup', plan_status: 'active', stripe_subscription_id: `sub_${uniq()}` }).where('id', '=', t.owner.orgId).execute();
      const paying = await send('DELETE', '/api/v1/org', t.owner.token, { confirm: orgName });
      expect(paying.status).toBe(409);
      expect(paying.json.error.code).toBe('subscription_active');
      await db.updateTable('orgs').set({ plan_status: 'canceled' }).where('id', '=', t.owner.orgId).execute();
    } finally {
      w.setEnv();
    }

    const deleted = await send('DELETE', '/api/v1/org', t.owner.token, { confirm: ` ${orgName} ` });
    expect(deleted.status, deleted.text).toBe(200);
    for (const who of [t.owner, t.admin, t.member]) expect((await get('/api/v1/org', who.token)).status).toBe(401);
    // The people who joined it keep their accounts, each in an organisation of their own (invitationMove.test.ts).
    const kept = await db.selectFrom('users').select(['email', 'org_id', 'role']).where('email', 'in', [t.admin.email, t.member.email]).execute();
    expect(kept.map((u) => u.role)).toEqual(['owner', 'owner']);
    expect(await db.selectFrom('users').select('id').where('email', '=', t.owner.email).executeTakeFirst()).toBeUndefined();
    for (const table of ['users', 'destinations', 'api_keys', 'audit_log', 'org_invitations'] as const) {
      const left = await db.selectFrom(table).select((e) => e.fn.countAll<number>().as('n')).where('org_id', '=', t.owner.orgId).executeTakeFirstOrThrow();
      expect(Number(left.n), table).toBe(0);
    }
    expect(await db.selectFrom('orgs').select('id').where('id', '=', t.owner.orgId).executeTakeFirst()).toBeUndefined();
    expect((await get('/api/v1/org', other.token)).status).toBe(200);
    expect(await db.selectFrom('monitored_sources').select('status').where('app_key', '=', appKey).executeTakeFirstOrThrow()).toEqual({ status: 'idle' });
  });

  test('the audit log pages newest first with a cursor', async () => {
    const owner = await newOwner();
    for (const name of ['One', 'Two', 'Three']) expect((await send('PATCH', '/api/v1/org', owner.token, { name })).status).toBe(200);
    const first = await get<{ id: string; details: { to: string } }[]>('/api/v1/org/audit-log?limit=2', owner.token);
    const page1 = first.json as unknown as { data: { id: string; details: { to: string } }[]; has_more: boolean };
    expect(page1.data.map((e) => e.details.to)).toEqual(['Three', 'Two']);
    expect(page1.has_more).toBe(true);
    const second = (await get<{ details: { to: string } }[]>(`/api/v1/org/audit-log?limit=2&before=${page1.data[1].id}`, owner.token)).json as unknown as {
      data: { details: { to: string } }[];
      has_more: boolean;
    };
    expect(second.data.map((e) => e.details.to)).toEqual(['One']);
    expect(second.has_more).toBe(false);
  });
});
