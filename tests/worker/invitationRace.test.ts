// The races of moving between organisations across two server processes on one PostgreSQL (issue #29, point 1): each
// round sends the two sides of a race to two different API processes at the same moment.
// - Two co-owners of one team each accept an invitation elsewhere: exactly one goes, the team keeps an owner (without
//   the move's row locks both would count two owners and both leave).
// - Two co-owners leave the team at once: one goes, the other is told they are the last owner (the leave's check is
//   made again under the members' row locks, moveUserToOwnOrg).
// - One person accepts two invitations: exactly one organisation gains them.
// - An accept and the inviting organisation's deletion: the invitee's account survives either way (before, the
//   deletion's foreign keys took the account of whoever had just joined).
// PostgreSQL only: the embedded database is single-process by design.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomBytes } from 'node:crypto';
import { setEnvForTests } from '@/server/env';
import { randomId } from '@/server/crypto';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { createTestDb, type TestDb } from '../helpers/testDb';
import { call } from '../helpers/request';
import type { TestApi } from '../helpers/api';
import { spawnWorker, type WorkerChild } from './helpers/processes';

const isPostgres = process.env.ARB_TEST_DB === 'postgres';
const ROUNDS = 6;

describe.skipIf(!isPostgres)('invitation moves across two API processes on PostgreSQL', () => {
  let db: TestDb;
  let restore: () => void = () => {};
  const children: WorkerChild[] = [];
  const apis: TestApi[] = [];

  async function listening(child: WorkerChild): Promise<TestApi> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const m = /listening (\d+)/.exec(child.output());
      if (m) return { url: `http://127.0.0.1:${m[1]}`, close: async () => {} };
      if (child.proc.exitCode !== null || Date.now() > deadline) throw new Error(`API process did not start:\n${child.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    db = await createTestDb();
    restore = setEnvForTests({ STRIPE_SECRET_KEY: undefined });
    const childEnv = { DATABASE_URL: db.url!, LOG_LEVEL: 'warn', TRUST_PROXY: '1', STRIPE_SECRET_KEY: '' };
    children.push(spawnWorker('tests/worker/helpers/apiProcess.ts', childEnv), spawnWorker('tests/worker/helpers/apiProcess.ts', childEnv));
    for (const c of children) apis.push(await listening(c));
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGTERM');
    await Promise.all(children.map((c) => c.exited));
    restore();
    await db.close();
  });

  /** An open invitation of `org` to `email`, written as inviteMember writes it (no e-mail needed here). */
  async function invitation(org: SignedInUser, email: string): Promise<string> {
    const id = randomId('inv');
    await db.db
      .insertInto('org_invitations')
      .values({ id, org_id: org.orgId, email, role: 'member', invited_by: org.userId, token_hash: randomBytes(16).toString('hex'), expires_at: new Date(Date.now() + 86_400_000) })
      .execute();
    return id;
  }

  const accept = (api: TestApi, who: SignedInUser, id: string) => call(api, 'POST', `/api/v1/invitations/${id}/accept`, {}, { token: who.token });
  const userRow = (email: string) => db.db.selectFrom('users').select(['org_id', 'role']).where('email', '=', email).executeTakeFirst();

  test('two co-owners leaving one team at once, each through its own process: exactly one goes', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const team = await newOwner('pair');
      const second = await memberOf(team, 'member', 'second');
      await db.db.updateTable('users').set({ role: 'owner' }).where('email', '=', second.email).execute();
      await memberOf(team, 'member', 'staying');
      const [x, z] = [await newOwner('x'), await newOwner('z')];
      const [ix, iz] = [await invitation(x, team.email), await invitation(z, second.email)];
      const answers = await Promise.all([accept(apis[0], team, ix), accept(apis[1], second, iz)]);
      expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.json.error.code).toBe('only_owner');
      const owners = await db.db.selectFrom('users').select('email').where('org_id', '=', team.orgId).where('role', '=', 'owner').execute();
      expect(owners, `round ${round}`).toHaveLength(1);
    }
  });

  test('two co-owners leaving one team at once, each through its own process: one goes, the team keeps an owner', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const team = await newOwner('leavers');
      const second = await memberOf(team, 'member', 'second');
      await db.db.updateTable('users').set({ role: 'owner' }).where('email', '=', second.email).execute();
      await memberOf(team, 'member', 'staying');
      const answers = await Promise.all([
        call(apis[0], 'POST', '/api/v1/org/leave', {}, { token: team.token }),
        call(apis[1], 'POST', '/api/v1/org/leave', {}, { token: second.token }),
      ]);
      expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.json.error.code).toBe('last_owner');
      const owners = await db.db.selectFrom('users').select('email').where('org_id', '=', team.orgId).where('role', '=', 'owner').execute();
      expect(owners, `round ${round}`).toHaveLength(1);
    }
  });

  test('one person accepting two invitations at once through two processes joins one organisation', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const solo = await newOwner('twice');
      const [x, z] = [await newOwner('x'), await newOwner('z')];
      const [ix, iz] = [await invitation(x, solo.email), await invitation(z, solo.email)];
      const answers = await Promise.all([accept(apis[0], solo, ix), accept(apis[1], solo, iz)]);
      expect(answers.filter((a) => a.status === 200), answers.map((a) => a.text).join('\n')).toHaveLength(1);
      const winner = answers[0].status === 200 ? x : z;
      expect((await userRow(solo.email))!.org_id).toBe(winner.orgId);
      const joins = await db.db.selectFrom('audit_log').select('org_id').where('action', '=', 'member.joined').where('target', '=', solo.email).execute();
      expect(joins.map((j) => j.org_id), `round ${round}`).toEqual([winner.orgId]);
    }
  });

  test("an accept in one process and the inviting organisation's deletion in the other: the invitee's account survives", async () => {
    const outcomes = new Set<number>();
    for (let round = 0; round < ROUNDS; round++) {
      const acme = await newOwner('acme');
      const solo = await newOwner('racer');
      const id = await invitation(acme, solo.email);
      const name = (await db.db.selectFrom('orgs').select('name').where('id', '=', acme.orgId).executeTakeFirstOrThrow()).name;
      const [joined, deleted] = await Promise.all([
        accept(apis[round % 2], solo, id),
        call(apis[(round + 1) % 2], 'DELETE', '/api/v1/org', { confirm: name }, { token: acme.token }),
      ]);
      expect(deleted.status, deleted.text).toBe(200);
      expect([200, 404], joined.text).toContain(joined.status);
      outcomes.add(joined.status);
      const row = await userRow(solo.email);
      expect(row, `round ${round}: the invitee's account is gone`).toMatchObject({ role: 'owner' });
      expect(row!.org_id).not.toBe(acme.orgId);
      expect(await db.db.selectFrom('orgs').select('id').where('id', '=', row!.org_id).executeTakeFirst()).toBeDefined();
    }
    // Which side wins varies from round to round; both must keep the account (the set says which were seen).
    expect(outcomes.size).toBeGreaterThanOrEqual(1);
  });
});
