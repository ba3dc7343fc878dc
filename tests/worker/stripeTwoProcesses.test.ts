// Two server processes on one PostgreSQL receive, at the same moment, Stripe's webhooks for two different live
// subscriptions of the same organisation (two Checkout tabs, both paid): exactly one is kept, the other is refused,
// cancelled once through the Stripe fake, and the owner gets one e-mail. The fake holds both processes' reads of the
// subscriptions until both have asked, so both decide from an organisation without a subscription and race to store
// theirs (server/billing/sync.ts: a compare-and-set on the stored subscription id; the loser decides again).
// PostgreSQL only: the embedded database is single-process by design. The in-process race, on both databases, is in
// tests/api/billingTrust.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { setEnvForTests } from '@/server/env';
import { newOwner } from '../helpers/orgs';
import { createTestDb, type TestDb } from '../helpers/testDb';
import { FAKE_WEBHOOK_SECRET, startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { startFakeSmtp, type FakeSmtp } from '../fakes/smtp';
import { spawnWorker, type WorkerChild } from './helpers/processes';

const isPostgres = process.env.ARB_TEST_DB === 'postgres';

describe.skipIf(!isPostgres)('two server processes, two live subscriptions of one organisation at once', () => {
  let db: TestDb;
  let stripe: FakeStripe;
  let smtp: FakeSmtp;
  let restore: () => void = () => {};
  const children: WorkerChild[] = [];
  const urls: string[] = [];

  /** The port a child printed once it listens. */
  async function listening(child: WorkerChild): Promise<string> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const port = /listening (\d+)/i.exec(child.output())?.[1];
      if (port) return `http://127.0.0.1:${port}`;
      if (child.proc.exitCode !== null) throw new Error(`the API process exited: ${child.output()}`);
      if (Date.now() > deadline) throw new Error(`the API process did not start: ${child.output()}`);
      await sleep(100);
    }
  }

  beforeAll(async () => {
    db = await createTestDb();
    stripe = await startFakeStripe({ secretKey: 'sk_test_race', prices: [{ id: 'price_startup_race', type: 'recurring' }, { id: 'price_business_race', type: 'recurring' }] });
    smtp = await startFakeSmtp();
    const settings = {
      STRIPE_SECRET_KEY: 'sk_test_race',
      STRIPE_API_BASE_URL: stripe.url,
      STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      STRIPE_PRICE_STARTUP: 'price_startup_race',
      STRIPE_PRICE_BUSINESS: 'price_business_race',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'ARB <billing@arb.test>',
      APP_URL: 'http://arb.test',
    };
    restore = setEnvForTests(settings);
    const childEnv = { ...settings, DATABASE_URL: db.url!, LOG_LEVEL: 'warn' };
    children.push(spawnWorker('tests/worker/helpers/apiProcess.ts', childEnv), spawnWorker('tests/worker/helpers/apiProcess.ts', childEnv));
    for (const c of children) urls.push(await listening(c));
  }, 180_000);

  afterAll(async () => {
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGTERM');
    for (const c of children) await Promise.race([c.exited, sleep(10_000)]);
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    restore();
    await stripe.close();
    await smtp.close();
    await db.close();
  });

  const post = (base: string, path: string, init: { body: string; headers: Record<string, string> }) => fetch(`${base}${path}`, { method: 'POST', ...init });

  test('exactly one is kept, the other cancelled through Stripe, the owner told once', async () => {
    const owner = await newOwner('tworace');
    // Two Checkout tabs, opened (through the first process) while the organisation had no subscription.
    for (const plan of ['startup', 'business']) {
      const r = await post(urls[0], '/api/v1/org/billing/purchase', {
        body: JSON.stringify({ price_id: plan }),
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${owner.token}` },
      });
      expect(r.status, await r.text()).toBe(200);
    }
    const completed = stripe.sessions.slice(-2).map((s) => stripe.completeCheckout(s.id));
    const subs = completed.map((c) => c.subscription as string);

    // Both processes read their subscription from Stripe at the same moment, then race.
    stripe.holdSubscriptionReads(2);
    const answers = await Promise.all(completed.map((c, i) => post(urls[i], '/api/v1/stripe/webhook', stripe.signedEvent('checkout.session.completed', c))));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);

    const org = await db.db.selectFrom('orgs').select(['plan', 'plan_status', 'stripe_subscription_id']).where('id', '=', owner.orgId).executeTakeFirstOrThrow();
    expect(subs).toContain(org.stripe_subscription_id);
    const refused = subs.find((s) => s !== org.stripe_subscription_id)!;
    expect(org.plan_status).toBe('active');
    expect(stripe.cancellations.map((c) => c.id)).toEqual([refused]);
    expect(stripe.subscriptions.get(org.stripe_subscription_id!)!.status).toBe('active');
    expect(stripe.subscriptions.get(refused)!.status).toBe('canceled');
    const rows = await db.db.selectFrom('refused_subscriptions').select(['subscription_id', 'kept_subscription_id', 'cancelled_at']).where('org_id', '=', owner.orgId).execute();
    expect(rows).toEqual([{ subscription_id: refused, kept_subscription_id: org.stripe_subscription_id, cancelled_at: expect.any(Date) }]);
    const [mail] = await smtp.waitForMessages(1);
    expect(mail.to).toContain(owner.email);
    expect(mail.subject).toBe('A second ARB subscription was cancelled');

    // Stripe's news of the cancellation, to both processes at once: nothing changes, nobody is told twice.
    const deleted = stripe.subscriptions.get(refused)!;
    const again = await Promise.all(urls.map((u) => post(u, '/api/v1/stripe/webhook', stripe.signedEvent('customer.subscription.deleted', deleted))));
    expect(again.map((a) => a.status)).toEqual([200, 200]);
    expect((await db.db.selectFrom('orgs').select('stripe_subscription_id').where('id', '=', owner.orgId).executeTakeFirstOrThrow()).stripe_subscription_id).toBe(org.stripe_subscription_id);
    expect(stripe.cancellations).toHaveLength(1);
    expect(smtp.messages).toHaveLength(1);
  }, 120_000);
});
