// The delivery worker's grouped reads and writes (server/monitor/deliveryMarks.ts, deliveryQueue.ts) keep the per-
// destination rules when several destinations share one statement: a 'sending' mark is only written while the lease is
// ours, the previous success is recorded even when it is not, and a destination is only given back by its holder.
// Marks asked for in the same tick share a statement; a lone mark takes the one-row form — both are checked.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sql } from 'kysely';
import { createDestination, ensureApp, pollAppNow } from '@/server/monitor/service';
import { claimDestinations, type ClaimedDestination } from '@/server/monitor/deliveryWorker';
import { createDeliveryMarks } from '@/server/monitor/deliveryMarks';
import { createQueueLoader } from '@/server/monitor/deliveryQueue';
import { marker, startWorld, type World } from './helpers/world';

const APP = { store: 'apple_app_store' as const, appId: '6000001' };
let w: World;
let held: ClaimedDestination[] = [];

type Row = { id: number; status: string; attempts: number; worker: string | null; last_status: number | null };
const queueOf = async (destinationId: string) =>
  (await sql<Row>`select id, status, attempts, worker, last_status from deliveries where destination_id = ${destinationId} order by id`.execute(w.db.db)).rows;
type DestRow = { lease_owner: string | null; lease_until: Date | null; last_delivery_at: Date | null; next_send_at: Date; pace_tat: Date | null };
const destination = async (id: string) =>
  (await sql<DestRow>`select lease_owner, lease_until, last_delivery_at, next_send_at, pace_tat from destinations where id = ${id}`.execute(w.db.db)).rows[0];

beforeAll(async () => {
  w = await startWorld();
  await ensureApp({ ...APP, title: 'Lantern Notes' });
  for (let i = 0; i < 3; i++) await createDestination({ platform: 'slack', url: w.chat.hook('slack').url, apps: [APP], welcomeCount: 0 });
  await pollAppNow(APP); // the welcome intros
  for (let i = 1; i <= 3; i++) w.feed.publish(APP.appId, 'us', { content: `review ${marker(i)}`, updated: new Date(Date.now() + 1000 + i) });
  await pollAppNow(APP); // + 3 reviews each: 4 open deliveries per destination
  held = await claimDestinations(w.db.db, 'w1', 10, 60_000);
}, 60_000);

afterAll(async () => {
  await w.close();
});

test('queues read together come back per destination, in id order, the same as read alone', async () => {
  expect(held).toHaveLength(3);
  const load = createQueueLoader(w.db.db, 100);
  const together = await Promise.all(held.map((d) => load(d.id)));
  for (const [i, d] of held.entries()) {
    const alone = await load(d.id);
    expect(together[i].map((x) => x.id)).toEqual(alone.map((x) => x.id));
    expect(alone.map((x) => x.id)).toEqual((await queueOf(d.id)).map((x) => x.id));
    expect(alone.map((x) => x.kind)).toEqual(['welcome', 'new', 'new', 'new']);
  }
});

test('grouped marks: sending only under our lease, the previous success recorded either way', async () => {
  const [a, b, c] = held;
  const marks = createDeliveryMarks(w.db.db, 'w1', 60_000);
  const [qa, qb, qc] = [await queueOf(a.id), await queueOf(b.id), await queueOf(c.id)];

  // One mark on its own (the one-row form): B's first message.
  expect(await marks.sending(b.id, qb[0].id, null)).toBe(true);
  // C's first message is sent, then another worker takes C over (our lease ran out during a slow answer).
  expect(await marks.sending(c.id, qc[0].id, null)).toBe(true);
  await sql`update destinations set lease_owner = 'w2', lease_until = now() + interval '1 minute' where id = ${c.id}`.execute(w.db.db);
  const cBefore = await destination(c.id);

  // Three marks in the same tick share a statement.
  const results = await Promise.all([
    marks.sending(a.id, qa[0].id, null),
    marks.sending(b.id, qb[1].id, { id: qb[0].id, status: 200 }),
    marks.sending(c.id, qc[1].id, { id: qc[0].id, status: 200 }),
  ]);
  expect(results).toEqual([true, true, false]);

  const [ra, rb, rc] = [await queueOf(a.id), await queueOf(b.id), await queueOf(c.id)];
  // A 'sending' mark counts the attempt and leaves the status: the queue read sees an attempt without an outcome.
  expect(ra[0]).toMatchObject({ status: 'pending', attempts: 1, worker: 'w1' });
  expect(rb.slice(0, 2)).toMatchObject([{ status: 'delivered', last_status: 200 }, { status: 'pending', attempts: 1 }]);
  expect(rc.slice(0, 2)).toMatchObject([{ status: 'delivered', last_status: 200 }, { status: 'pending', attempts: 0 }]);
  // Were this worker to die now, the next one would find A's and B's attempts without an outcome, and C's next untried.
  const load = createQueueLoader(w.db.db, 100);
  expect((await load(a.id))[0]).toMatchObject({ id: qa[0].id, interrupted: true });
  expect((await load(b.id))[0]).toMatchObject({ id: qb[1].id, interrupted: true });
  expect((await load(c.id))[0]).toMatchObject({ id: qc[1].id, interrupted: false });

  const cAfter = await destination(c.id);
  expect(cAfter.lease_owner).toBe('w2'); // untouched lease…
  expect(cAfter.lease_until).toEqual(cBefore.lease_until);
  expect(cAfter.last_delivery_at).not.toBeNull(); // …but the success shows on the status page
  expect((await destination(b.id)).last_delivery_at).not.toBeNull();
});

test('grouped release: gives back only what is ours, with the last success, pace and due time', async () => {
  const [a, , c] = held;
  const marks = createDeliveryMarks(w.db.db, 'w1', 60_000);
  const [qa, qc] = [await queueOf(a.id), await queueOf(c.id)];
  const paceTat = Date.now() + 3_000;
  const notBefore = Date.now() + 60_000;
  // A gives back its destination with its last success; so does C, whose lease w2 has taken meanwhile.
  await Promise.all([
    marks.release(a.id, { id: qa[0].id, status: 200 }, paceTat, notBefore),
    marks.release(c.id, { id: qc[0].id, status: 201 }, paceTat, notBefore),
  ]);

  const da = await destination(a.id);
  expect(da).toMatchObject({ lease_owner: null, lease_until: null });
  expect(da.pace_tat?.getTime()).toBe(paceTat);
  expect(da.next_send_at.getTime()).toBe(notBefore);
  expect((await queueOf(a.id))[0]).toMatchObject({ status: 'delivered', last_status: 200 });
  expect((await queueOf(c.id))[0]).toMatchObject({ status: 'delivered', last_status: 201 });
  const dc = await destination(c.id);
  expect(dc.lease_owner).toBe('w2'); // not ours to give back: lease, pace and due time untouched
  expect(dc.pace_tat).toBeNull();
  expect(dc.next_send_at.getTime()).toBeLessThan(notBefore);

  // A was given back but is not due for a minute, B is still held by w1, C by w2: nothing for a third worker.
  expect(await claimDestinations(w.db.db, 'w3', 10, 60_000)).toEqual([]);
});
