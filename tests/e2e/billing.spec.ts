// Billing with Stripe, in Chromium against a real server of its own (billing on: STRIPE_SECRET_KEY, a Startup price,
// the webhook secret) pointed at a loopback Stripe whose hosted Checkout page pays and sends the signed
// checkout.session.completed to the server, as Stripe does. A Free owner hits the app limit, follows "Upgrade" from
// the refusal, pays on Checkout, and adds the app in the same session; then the subscription is cancelled (as in
// the portal), the Billing page asks what stays active, the owner swaps the apps, and the other one is paused — both
// still listed, nothing deleted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../scripts/arb-server.cjs';
import { FAKE_WEBHOOK_SECRET, startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { seriousViolations } from './support/a11y';
import { appWithReviews, expect, test, uniqueWord } from './support/connectFlow';
import { hydratingNavigation, waitForHydration } from './support/hydration';
import { signInThroughUi } from './support/signIn';
import { ControlClient } from './support/control';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

let stripe: FakeStripe;
let server: { url: string; stop: () => Promise<void> };
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(360_000); // its own server: a copy of the run's empty embedded database and Next, started beside the busy run
  let webhookUrl = '';
  stripe = await startFakeStripe({
    secretKey: 'sk_test_e2e_billing',
    prices: [{ id: 'price_startup_e2e', type: 'recurring' }],
    hostedCheckout: { webhookUrl: () => webhookUrl },
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-e2e-billing-'));
  server = await startServer({
    dataDir,
    pgliteTemplate: process.env.E2E_PGLITE_TEMPLATE,
    env: {
      ...(JSON.parse(process.env.E2E_WORLD_ENV ?? '{}') as Record<string, string>),
      ALLOW_PRIVATE_WEBHOOKS: '1',
      ALLOW_PRIVATE_WEBHOOKS_IN_PRODUCTION: '1',
      POLL_INTERVAL_SECONDS: '5',
      STRIPE_SECRET_KEY: 'sk_test_e2e_billing',
      STRIPE_API_BASE_URL: stripe.url,
      STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      STRIPE_PRICE_STARTUP: 'price_startup_e2e',
    },
  });
  webhookUrl = `${server.url}/api/v1/stripe/webhook`;
});

test.afterAll(async () => {
  await server?.stop();
  await stripe?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('Free → app limit → Upgrade → Checkout → webhook → the limit is lifted; cancelled → choose what stays → the rest paused, nothing deleted', async ({ browser, connect, newEmail }) => {
  const tag = uniqueWord();
  const apps = [await appWithReviews(connect, `${tag} Abacus`, tag, 1), await appWithReviews(connect, `${tag} Bramble`, tag, 1)];
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  hydratingNavigation(page);
  const control = new ControlClient(process.env.E2E_CONTROL_URL!);
  const owner = await signInThroughUi(page, control, { email: newEmail(), redirectTo: '/dashboard/apps' });
  await page.waitForURL((u) => u.pathname === '/dashboard/apps');

  const addApp = async (title: string) => {
    await page.getByRole('button', { name: 'Add app' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Search the App Store and Google Play').fill(title);
    await dialog.getByRole('list', { name: 'Apps found' }).getByRole('button').filter({ hasText: title }).filter({ hasText: 'App Store' }).click();
    await dialog.getByRole('button', { name: 'Add this app' }).click();
    return dialog;
  };

  // 1. The Free plan allows one app: the second is refused with the plan that lifts it and an Upgrade link.
  await addApp(apps[0].title);
  await expect(page.getByText(`${apps[0].title} added`)).toBeVisible();
  await addApp(apps[1].title);
  await expect(page.getByText('Your Free plan allows 1 app. Upgrade to Startup for 3 apps.')).toBeVisible();
  await page.getByRole('link', { name: 'Upgrade' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/billing');

  // 2. Upgrade → Stripe Checkout (the loopback one) → pay: Stripe's webhook reaches the server before the browser is back.
  const plan = page.getByRole('region', { name: 'Your plan', exact: true });
  await expect(plan).toContainText('Free');
  await page.getByRole('button', { name: 'Upgrade to Startup — $19 a month' }).click();
  await page.waitForURL((u) => u.href.startsWith(`${stripe.url}/c/pay/`));
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL((u) => u.href.startsWith(`${server.url}/dashboard/billing`));
  await waitForHydration(page);
  await expect(plan).toContainText('Startup');
  await expect(plan).toContainText('Active');
  expect(await seriousViolations(page)).toEqual([]);

  // 3. Same session: the second app is added now.
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Apps' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/apps');
  await waitForHydration(page);
  await addApp(apps[1].title);
  await expect(page.getByText(`${apps[1].title} added`)).toBeVisible();

  // 4. Cancelled in Stripe's portal: Stripe says so by webhook. The Free plan keeps the first app, pauses the second.
  const subId = [...stripe.subscriptions.keys()].at(-1)!;
  const cancelled = stripe.signedEvent('customer.subscription.deleted', stripe.setSubscription(subId, { status: 'canceled' }));
  expect((await fetch(`${server.url}/api/v1/stripe/webhook`, { method: 'POST', headers: cancelled.headers, body: cancelled.body })).status).toBe(200);

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Billing' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/billing');
  const step = page.getByRole('region', { name: 'Choose what stays active' });
  await expect(step).toContainText('Your Free plan allows 1 app and 1 channel.');
  const first = step.getByRole('checkbox', { name: new RegExp(apps[0].title) });
  const second = step.getByRole('checkbox', { name: new RegExp(apps[1].title) });
  await expect(first).toBeChecked();
  await expect(second).not.toBeChecked();
  await expect(step).toContainText(`${apps[1].title} (paused)`);
  expect(await seriousViolations(page)).toEqual([]);

  // 5. The owner keeps the second app instead: the first is paused, both stay in the organisation.
  await first.uncheck();
  await second.check();
  await step.getByRole('button', { name: 'Keep these active' }).click();
  await expect(page.getByText('Saved: 1 resumed, 1 paused. Nothing was deleted.')).toBeVisible();
  await expect(step).toContainText(`${apps[0].title} (paused)`);
  await expect(step).toContainText(`${apps[1].title} (active)`);

  const listed = await (await fetch(`${server.url}/api/v1/org/apps`, { headers: { Authorization: `Bearer ${owner.authToken}` } })).json();
  expect((listed.data as Array<{ title: string }>).map((a) => a.title).sort()).toEqual([apps[0].title, apps[1].title].sort());
  await context.close();
});
