// server/db/lease.ts, the lease helper of the outboxes and queues outside the delivery engine: a claim takes only due
// rows nobody holds (or whose holder's lease ran out), the first `limit` by its order, and sets their lease; a claim
// running while another one's transaction still holds rows takes different rows instead of waiting (PostgreSQL: the
// embedded database has one connection). On both databases.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sql } from 'kysely';
import { claimRows, leaseEnd, leaseRanOut, leaseTakenAtRanOut } from '@/server/db/lease';
import { createTestDb, type TestDb } from '../helpers/testDb';

let t: TestDb;
const table = `lease_probe_${process.pid}`;

beforeAll(async () => {
  t = await createTestDb();
  await sql`create table ${sql.table(table)} (id int primary key, due_at timestamptz not null, lease_until timestamptz, taken_at timestamptz, claims int not null default 0)`.execute(t.db);
}, 60_000);

afterAll(async () => {
  await sql`drop table if exists ${sql.table(table)}`.execute(t.db);
  await t.close();
});

/** Rows 1…n, due in id order (row 1 the longest), none held. */
async function rows(n: number) {
  await sql`delete from ${sql.table(table)}`.execute(t.db);
  await sql`insert into ${sql.table(table)} (id, due_at) select i, now() - (100 - i) * interval '1 minute' from generate_series(1, ${n}) i`.execute(t.db);
}

const claim = (limit: number, leaseMs = 60_000, db = t.db) =>
  claimRows<{ id: number; claims: number }>({
    table,
    alias: 'p',
    key: 'id',
    set: sql`lease_until = ${leaseEnd(leaseMs)}, claims = p.claims + 1`,
    where: sql`due_at <= now() and ${leaseRanOut()}`,
    orderBy: sql`due_at`,
    limit,
    returning: sql`p.id, p.claims`,
  })
    .execute(db)
    .then((r) => r.rows.map((x) => x.id).sort((a, b) => a - b));

test('a claim takes the first due rows nobody holds, sets their lease, and a held row waits until its lease runs out', async () => {
  await rows(5);
  await sql`update ${sql.table(table)} set due_at = now() + interval '1 hour' where id = 5`.execute(t.db);
  expect(await claim(2)).toEqual([1, 2]);
  expect(await claim(10)).toEqual([3, 4]); // 1 and 2 are held; 5 is not due
  expect(await claim(10)).toEqual([]);
  // A holder that died: its lease ran out, the row is claimable again (and counted as a second claim).
  await sql`update ${sql.table(table)} set lease_until = now() - interval '1 second' where id = 2`.execute(t.db);
  expect(await claim(10)).toEqual([2]);
  const held = await sql<{ id: number; claims: number; held: boolean }>`
    select id, claims, lease_until > now() + interval '50 seconds' as held from ${sql.table(table)} where id <= 4 order by id`.execute(t.db);
  expect(held.rows).toEqual([
    { id: 1, claims: 1, held: true },
    { id: 2, claims: 2, held: true },
    { id: 3, claims: 1, held: true },
    { id: 4, claims: 1, held: true },
  ]);
});

test('a lease recorded as the time it was taken runs out that long after it', async () => {
  await rows(3);
  await sql`update ${sql.table(table)} set taken_at = now() - interval '10 minutes' where id = 1`.execute(t.db);
  await sql`update ${sql.table(table)} set taken_at = now() - interval '1 minute' where id = 2`.execute(t.db);
  const free = await sql<{ id: number }>`
    select id from ${sql.table(table)} where ${leaseTakenAtRanOut('taken_at', 3 * 60_000)} order by id`.execute(t.db);
  expect(free.rows.map((r) => r.id)).toEqual([1, 3]);
});

test.skipIf(process.env.ARB_TEST_DB !== 'postgres')('a claim skips the rows another claim is still taking instead of waiting for it', async () => {
  await rows(6);
  let second: number[] = [];
  await t.db.transaction().execute(async (trx) => {
    expect(await claim(3, 60_000, trx)).toEqual([1, 2, 3]); // locked until this transaction ends
    second = await claim(3); // another connection, meanwhile
  });
  expect(second).toEqual([4, 5, 6]);
});
