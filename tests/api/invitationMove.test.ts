// Trust at the organisation boundary (issue #29, points 1 and 7), through the real routes, a real database (PGlite and
// PostgreSQL) and the real SMTP fake: a sign-in never moves anyone into another organisation; an open invitation is
// shown (GET v1/invitations, the link's preview) and joined only on an explicit accept, which refuses to strand an
// organisation (the only owner of a team, a running subscription) and asks before deleting one that holds things;
// the move records member.left / member.joined, ends every old session and answers a fresh one for the new
// organisation; deleting an organisation keeps the accounts of the people who joined it from elsewhere. The races of
// the move are run here in one process (on PostgreSQL with real concurrency); tests/worker/invitationRace.test.ts runs
// them across two server processes.
import { describe, expect, test } from 'vitest';
import { verifyAuthToken } from '@/server/auth/tokens';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { billingTokenFor } from '../helpers/session';
import { setUpMailApi } from '../helpers/apiWorld';
import { signInWithCode } from '../helpers/emailSignIn';
import { call } from '../helpers/request';

const w = setUpMailApi('invitation-move', { HCAPTCHA_SECRET: undefined, STRIPE_SECRET_KEY: undefined, TRUST_PROXY: '1' });

let n = 0;
const nextIp = () => `198.19.${Math.floor(++n / 250)}.${(n % 250) + 1}`;
const uniq = () => `${Date.now().toString(36)}${++n}`;

type Session = { authToken: string; refreshToken: string; email: string; organisation?: string };
type Shown = { id: string; organisation: string; inviter: string | null; email: string; role: string; outcome: { kind: string; text: string } | null };

const get = <T>(path: string, token: string) => call<T>(w.api, 'GET', path, undefined, { token, ip: nextIp() });
const send = <T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, token: string | undefined, body?: unknown) =>
  call<T>(w.api, method, path, body ?? (method === 'DELETE' ? undefined : {}), { token, ip: nextIp() });

async function invite(owner: { token: string }, email: string, role = 'member'): Promise<string> {
  const r = await send<{ id: string }>('POST', '/api/v1/org/invitations', owner.token, { email, role });
  expect(r.status, r.text).toBe(201);
  return r.json.data.id;
}

/** The token in the newest invitation e-mail to `email`. */
async function linkToken(email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = w.smtp.messages.filter((m) => m.envelopeTo.includes(email) && /invited you/.test(m.subject)).at(-1);
    if (mail) return /\/join#([\w-]+)/.exec(mail.text)![1];
    if (Date.now() > deadline) throw new Error(`no invitation e-mail for ${email}`);
    await w.smtp.waitForMessages(w.smtp.messages.length + 1, deadline - Date.now()).catch(() => undefined);
  }
}

const accept = (token: string, id: string, body?: unknown) => send<Session>('POST', `/api/v1/invitations/${id}/accept`, token, body);
const orgOf = async (token: string) => (await get<{ id: string; name: string; role: string; members: number }>('/api/v1/org', token)).json.data;
const auditOf = async (token: string) => (await get<{ action: string; target: string; details: Record<string, unknown> }[]>('/api/v1/org/audit-log?limit=100', token)).json.data;
const orgExists = async (id: string) => !!(await w.db.db.selectFrom('orgs').select('id').where('id', '=', id).executeTakeFirst());
const userRow = (email: string) => w.db.db.selectFrom('users').select(['id', 'org_id', 'role']).where('email', '=', email).executeTakeFirst();

async function named(owner: SignedInUser, name: string): Promise<SignedInUser> {
  expect((await send('PATCH', '/api/v1/org', owner.token, { name })).status).toBe(200);
  return owner;
}

describe('a sign-in never moves anyone', () => {
  test('a code sign-in with an invited address stays home; the invitation is shown, and the accept moves with fresh tokens', async () => {
    const acme = await named(await newOwner('acme'), `Acme ${uniq()}`);
    const solo = await newOwner('solo');
    const id = await invite(acme, solo.email);

    const signedIn = await signInWithCode(w, solo.email, nextIp());
    expect((await orgOf(signedIn.authToken)).id).toBe(solo.orgId);
    expect((await orgOf(acme.token)).members).toBe(1);

    const shown = await get<Shown[]>('/api/v1/invitations', signedIn.authToken);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.json.data).toEqual([
      {
        id,
        organisation: (await orgOf(acme.token)).name,
        inviter: acme.email,
        email: solo.email,
        role: 'member',
        expires_at: expect.any(String),
        outcome: { kind: 'deletes_empty', text: `Your organisation ${solo.email} has nothing in it yet: it is deleted when you join.` },
      },
    ]);

    const joined = await accept(signedIn.authToken, id);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.json.data.organisation).toBe((await orgOf(acme.token)).name);
    // The tokens of the old membership stop at once; the answer's speak for the new organisation.
    for (const old of [solo.token, signedIn.authToken]) expect((await get('/api/v1/org', old)).status).toBe(401);
    expect((await call(w.api, 'POST', '/api/v1/auth/token/renew', { refresh_token: signedIn.refreshToken }, { ip: nextIp() })).status).toBe(401);
    expect((await verifyAuthToken(joined.json.data.authToken))!.orgId).toBe(acme.orgId);
    expect(await orgOf(joined.json.data.authToken)).toMatchObject({ id: acme.orgId, role: 'member', members: 2 });
    // The empty organisation it left is gone, not stranded without anyone in it.
    expect(await orgExists(solo.orgId)).toBe(false);
    expect((await auditOf(acme.token)).map((e) => e.action)).toEqual(['member.joined', 'member.invited', 'org.renamed']);
    expect((await get<Shown[]>('/api/v1/invitations', joined.json.data.authToken)).json.data).toEqual([]);
    expect((await accept(joined.json.data.authToken, id)).status).toBe(404);
  });

  test('a member of a team leaves it for another only by accepting: member.left in the old audit log, the old team stays', async () => {
    const team = await named(await newOwner('team'), `Team ${uniq()}`);
    const member = await memberOf(team, 'admin');
    const other = await named(await newOwner('other'), `Other ${uniq()}`);
    const id = await invite(other, member.email);

    const shown = (await get<Shown[]>('/api/v1/invitations', member.token)).json.data;
    expect(shown.map((i) => [i.id, i.outcome])).toEqual([[id, { kind: 'leaves', text: `You leave ${(await orgOf(team.token)).name}; it stays with its other member.` }]]);
    const joined = await accept(member.token, id);
    expect(joined.status, joined.text).toBe(200);
    expect((await get('/api/v1/org', member.token)).status).toBe(401);
    expect(await orgOf(joined.json.data.authToken)).toMatchObject({ id: other.orgId, role: 'member' });
    const left = (await auditOf(team.token))[0];
    expect(left).toMatchObject({ action: 'member.left', target: member.email, details: { role: 'admin', reason: 'joined_another' } });
    expect(await orgOf(team.token)).toMatchObject({ id: team.orgId, members: 1 });
  });
});

describe('never strand an organisation', () => {
  test('the only owner of a team with members is refused, by the dashboard and by the link, and nothing changes', async () => {
    const team = await newOwner('lead');
    await memberOf(team, 'member');
    const other = await newOwner('other');
    const id = await invite(other, team.email);
    const shown = (await get<Shown[]>('/api/v1/invitations', team.token)).json.data[0];
    expect(shown.outcome).toMatchObject({ kind: 'blocked' });

    const refused = await accept(team.token, id);
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: 'only_owner', message: expect.stringMatching(/only owner of .*which has other members/) });
    const byLink = await call(w.api, 'POST', '/api/v1/auth/invitation', { token: await linkToken(team.email) }, { ip: nextIp() });
    expect(byLink.status).toBe(409);
    expect(byLink.json.error.code).toBe('only_owner');
    expect(byLink.json.data).toBeUndefined(); // nobody signed in
    expect((await orgOf(team.token)).id).toBe(team.orgId); // the session was not ended either
    expect((await get<{ id: string }[]>('/api/v1/org/invitations', other.token)).json.data.map((i) => i.id)).toEqual([id]);
  });

  test('a solo owner whose organisation holds things is asked first; a running subscription is refused; deletion only on their say', async () => {
    const acme = await newOwner('acme');
    const solo = await named(await newOwner('shop'), `Shop ${uniq()}`);
    const db = w.db.db;
    const appKey = `apple_app_store__${1_800_000_000 + Math.floor(Math.random() * 1e8)}`;
    await db.insertInto('apps').values({ key: appKey, store: 'apple_app_store', app_id: appKey.split('__')[1], title: 'Shop app', icon_url: null, store_url: null, developer: null }).execute();
    await db.insertInto('org_apps').values({ org_id: solo.orgId, app_key: appKey, countries: ['us'], added_by: solo.userId, added_by_email: solo.email }).execute();
    await db.insertInto('destinations').values({ id: `dst_mv${uniq()}`, org_id: solo.orgId, platform: 'slack', target_enc: 'x', target_hash: `h${uniq()}`, target_hint: 'hooks.slack.com …abcd', filters: '{}' }).execute();
    expect((await send('POST', '/api/v1/org/api-keys', solo.token, { name: 'CI' })).status).toBe(201);
    const id = await invite(acme, solo.email);

    const shown = (await get<Shown[]>('/api/v1/invitations', solo.token)).json.data[0];
    const says = `Joining deletes your organisation ${(await orgOf(solo.token)).name} with its 1 app, 1 destination and 1 API key.`;
    expect(shown.outcome).toEqual({ kind: 'deletes_holdings', text: says });
    const asked = await accept(solo.token, id);
    expect(asked.status).toBe(409);
    expect(asked.json.error).toEqual({ code: 'confirm_delete', message: `${says} Confirm that you want this to join ${acme.email}.` });

    // A paid subscription is never left behind, even when the person says so.
    await db.updateTable('orgs').set({ plan: 'startup', plan_status: 'active', stripe_subscription_id: `sub_${uniq()}` }).where('id', '=', solo.orgId).execute();
    const paid = await accept(solo.token, id, { delete_current: true });
    expect(paid.status).toBe(409);
    expect(paid.json.error.code).toBe('subscription_active');
    expect((await get<Shown[]>('/api/v1/invitations', solo.token)).json.data[0].outcome?.kind).toBe('blocked');
    expect(await userRow(solo.email)).toMatchObject({ org_id: solo.orgId, role: 'owner' });

    await db.updateTable('orgs').set({ plan_status: 'canceled' }).where('id', '=', solo.orgId).execute();
    expect((await accept(solo.token, id, { delete_current: 'yes' })).status).toBe(400);
    const joined = await accept(solo.token, id, { delete_current: true });
    expect(joined.status, joined.text).toBe(200);
    expect(await orgExists(solo.orgId)).toBe(false);
    for (const table of ['org_apps', 'destinations', 'api_keys'] as const) {
      const left = await db.selectFrom(table).select((e) => e.fn.countAll<number>().as('n')).where('org_id', '=', solo.orgId).executeTakeFirstOrThrow();
      expect(Number(left.n), table).toBe(0);
    }
    expect(await userRow(solo.email)).toMatchObject({ org_id: acme.orgId, role: 'member' });
  });
});

describe('accepting, declining and previewing', () => {
  test('decline closes the invitation; its organisation’s audit log says so', async () => {
    const acme = await newOwner('acme');
    const solo = await newOwner('solo');
    const id = await invite(acme, solo.email, 'admin');
    const r = await send('POST', `/api/v1/invitations/${id}/decline`, solo.token);
    expect(r.status, r.text).toBe(200);
    expect((await get<unknown[]>('/api/v1/org/invitations', acme.token)).json.data).toEqual([]);
    expect((await auditOf(acme.token))[0]).toMatchObject({ action: 'invitation.declined', target: solo.email, details: { role: 'admin' } });
    expect((await accept(solo.token, id)).status).toBe(404);
    expect((await send('POST', `/api/v1/invitations/${id}/decline`, solo.token)).status).toBe(404);
    expect((await orgOf(solo.token)).id).toBe(solo.orgId);
  });

  test("nobody accepts or declines what is not theirs: another address's invitation is not found, a removed member is signed out", async () => {
    const acme = await newOwner('acme');
    const invitee = await newOwner('invitee');
    const stranger = await newOwner('stranger');
    const id = await invite(acme, invitee.email);
    for (const path of [`/api/v1/invitations/${id}/accept`, `/api/v1/invitations/${id}/decline`]) {
      expect((await send('POST', path, stranger.token)).status, path).toBe(404);
      expect((await send('POST', path, undefined)).status, path).toBe(401);
      expect((await send('POST', path, await billingTokenFor(invitee))).status, path).toBe(403);
    }
    expect((await get<Shown[]>('/api/v1/invitations', stranger.token)).json.data).toEqual([]);
    expect((await send('POST', '/api/v1/invitations/not-an-id/accept', invitee.token)).status).toBe(400);

    // Removed from a team, the person's old tokens accept nothing.
    const team = await newOwner('team');
    const removed = await memberOf(team, 'member');
    const removedId = (await w.db.db.selectFrom('users').select('id').where('email', '=', removed.email).executeTakeFirstOrThrow()).id;
    const otherId = await invite(acme, removed.email);
    expect((await send('DELETE', `/api/v1/org/members/${removedId}`, team.token)).status).toBe(200);
    expect((await accept(removed.token, otherId)).status).toBe(401);
    expect((await userRow(removed.email))!.org_id).not.toBe(acme.orgId);
    expect((await get<{ id: string }[]>('/api/v1/org/invitations', acme.token)).json.data.map((i) => i.id).sort()).toEqual([id, otherId].sort());
  });

  test("the link's preview shows the organisation, role and what happens, and changes nothing", async () => {
    const acme = await named(await newOwner('acme'), `Acme ${uniq()}`);
    const fresh = `fresh-${uniq()}@example.com`;
    await invite(acme, fresh, 'admin');
    const token = await linkToken(fresh);
    const preview = await call<Shown & { account: boolean }>(w.api, 'POST', '/api/v1/invitations/preview', { token }, { ip: nextIp() });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json.data).toMatchObject({ organisation: (await orgOf(acme.token)).name, inviter: acme.email, email: fresh, role: 'admin', account: false, outcome: null });
    expect(await userRow(fresh)).toBeUndefined();
    expect((await get<unknown[]>('/api/v1/org/invitations', acme.token)).json.data).toHaveLength(1);

    const member = await memberOf(await newOwner('team'), 'member');
    await invite(acme, member.email);
    const theirs = await call<Shown & { account: boolean }>(w.api, 'POST', '/api/v1/invitations/preview', { token: await linkToken(member.email) }, { ip: nextIp() });
    expect(theirs.json.data).toMatchObject({ account: true, outcome: { kind: 'leaves' } });
    expect((await get('/api/v1/org', member.token)).status).toBe(200);

    const bad = await call(w.api, 'POST', '/api/v1/invitations/preview', { token: 'not-a-real-invitation-token-at-all' }, { ip: nextIp() });
    expect(bad.status).toBe(401);
    expect(bad.json.error.message).toMatch(/expired, was cancelled or was already used/);
    expect((await call(w.api, 'POST', '/api/v1/invitations/preview', {}, { ip: nextIp() })).status).toBe(400);

    // Confirmed on the page: the link signs in and joins, and ends the sessions the person had.
    const joined = await call<Session>(w.api, 'POST', '/api/v1/auth/invitation', { token: await linkToken(member.email) }, { ip: nextIp() });
    expect(joined.status, joined.text).toBe(200);
    expect((await get('/api/v1/org', member.token)).status).toBe(401);
    expect((await orgOf(joined.json.data.authToken)).id).toBe(acme.orgId);
  });
});

describe('deleting an organisation', () => {
  test('keeps the accounts of the people who joined it from elsewhere: each gets an organisation of their own, sessions end', async () => {
    const acme = await named(await newOwner('acme'), `Doomed ${uniq()}`);
    const solo = await newOwner('joiner');
    const id = await invite(acme, solo.email, 'admin');
    const joined = await accept(solo.token, id);
    expect(joined.status, joined.text).toBe(200);
    const orgName = (await orgOf(acme.token)).name;

    const deleted = await send('DELETE', '/api/v1/org', acme.token, { confirm: orgName });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await userRow(acme.email)).toBeUndefined(); // the deleter said so for their own account
    const kept = await userRow(solo.email);
    expect(kept).toMatchObject({ role: 'owner' });
    expect(kept!.org_id).not.toBe(acme.orgId);
    expect((await get('/api/v1/org', joined.json.data.authToken)).status).toBe(401);

    const back = await signInWithCode(w, solo.email, nextIp());
    expect(await orgOf(back.authToken)).toMatchObject({ id: kept!.org_id, role: 'owner', members: 1 });
    expect((await auditOf(back.authToken))[0]).toMatchObject({
      action: 'member.left',
      target: solo.email,
      details: { role: 'admin', organisation: orgName, reason: 'organisation_deleted' },
    });
  });
});

describe('races of the move (one process; concurrent on PostgreSQL)', () => {
  test('two co-owners leaving one team at once: exactly one goes, the team keeps an owner', async () => {
    const team = await newOwner('pair');
    const second = await memberOf(team, 'member', 'second');
    await w.db.db.updateTable('users').set({ role: 'owner' }).where('email', '=', second.email).execute();
    await memberOf(team, 'member', 'staying');
    const x = await newOwner('x');
    const z = await newOwner('z');
    const [ix, iz] = [await invite(x, team.email), await invite(z, second.email)];
    const answers = await Promise.all([accept(team.token, ix), accept(second.token, iz)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.json.error.code).toBe('only_owner');
    const owners = await w.db.db.selectFrom('users').select('email').where('org_id', '=', team.orgId).where('role', '=', 'owner').execute();
    expect(owners).toHaveLength(1);
  });

  test('one person accepting two invitations at once joins one organisation', async () => {
    const solo = await newOwner('twice');
    const x = await newOwner('x');
    const z = await newOwner('z');
    const [ix, iz] = [await invite(x, solo.email), await invite(z, solo.email)];
    const answers = await Promise.all([accept(solo.token, ix), accept(solo.token, iz)]);
    expect(answers.filter((a) => a.status === 200), answers.map((a) => a.text).join('\n')).toHaveLength(1);
    // The loser either saw the move (409) or its session already ended with it (401).
    expect([401, 409]).toContain(answers.find((a) => a.status !== 200)!.status);
    const row = await userRow(solo.email);
    const winner = answers.findIndex((a) => a.status === 200) === 0 ? x : z;
    expect(row!.org_id).toBe(winner.orgId);
    const joins = await w.db.db.selectFrom('audit_log').select('org_id').where('action', '=', 'member.joined').where('target', '=', solo.email).execute();
    expect(joins.map((j) => j.org_id)).toEqual([winner.orgId]);
  });

  test('an accept and the inviting organisation’s deletion at once: the invitee keeps their account either way', async () => {
    for (let round = 0; round < 3; round++) {
      const acme = await named(await newOwner('acme'), `Race ${uniq()}`);
      const solo = await newOwner('racer');
      const id = await invite(acme, solo.email);
      const [joined, deleted] = await Promise.all([accept(solo.token, id), send('DELETE', '/api/v1/org', acme.token, { confirm: (await orgOf(acme.token)).name })]);
      expect(deleted.status, deleted.text).toBe(200);
      expect([200, 404]).toContain(joined.status);
      const row = await userRow(solo.email);
      expect(row, `round ${round}: ${joined.text}`).toMatchObject({ role: 'owner' });
      expect(await orgExists(row!.org_id)).toBe(true);
      expect(row!.org_id).not.toBe(acme.orgId);
    }
  });
});
