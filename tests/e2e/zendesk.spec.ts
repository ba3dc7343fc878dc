// Zendesk end to end (issue 32), in Chromium against the real server and the loopback Zendesk and App Store Connect
// fakes: an owner connects Zendesk on the Integrations page with an agent's token, creates in "Zendesk" the webhook to
// the URL the setup page shows and saves its signing secret there; "Create ticket" on a review makes its ticket and
// shows the link; an agent's public comment on the ticket fires the signed webhook, and exactly one reply, the
// comment's text, reaches App Store Connect and shows under the review; solving the ticket marks the review done.
import { seriousViolations } from './support/a11y';
import { expect, test, uniqueWord } from './support/connectFlow';
import { StoreApiControl } from './support/storeApis';
import { ZendeskControl } from './support/zendeskWorld';

// A real poll (every 5 s) brings the review, the next one confirms the reply.
test.describe.configure({ timeout: 150_000 });

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

test('connect Zendesk, create a ticket from a review, an agent answers it: one reply reaches App Store Connect; solved, the review is done', async ({ page, signIn }) => {
  const stores = new StoreApiControl(process.env.E2E_CONTROL_URL!);
  const zendesk = new ZendeskControl(process.env.E2E_CONTROL_URL!);
  const word = uniqueWord();
  const marker = `${word.toLowerCase()}z`;
  const app = await stores.iosApp(`${word} Tickets`, { body: `Login fails after the update ${marker}`, author: 'Sam R' });
  const agent = await zendesk.agent();
  const owner = await signIn(page, { redirectTo: '/dashboard/integrations' });
  await page.waitForURL((u) => u.pathname === '/dashboard/integrations');

  // The app read through App Store Connect (the Apps page's own flows are covered by dashboardStory and the API tests).
  const appKey = `apple_app_store__${app.app_id}`;
  const added = await page.request.post('/api/v1/org/apps', { headers: bearer(owner.authToken), data: { app_id: app.app_id, app_store: 'apple_app_store' } });
  expect(added.status(), await added.text()).toBe(201);
  const saved = await page.request.put(`/api/v1/org/apps/${encodeURIComponent(appKey)}/credentials`, { headers: bearer(owner.authToken), data: app.credentials });
  expect(saved.status(), await saved.text()).toBe(200);

  // 1. Connect: the server checks the token with Zendesk (users/me) before saving it.
  await expect(page.getByRole('status').filter({ hasText: 'Not connected.' })).toBeVisible();
  await page.getByLabel('Zendesk subdomain (acme for acme.zendesk.com)').fill('acme');
  await page.getByLabel('Agent e-mail address').fill(agent.email);
  await page.getByLabel(/^API token/).fill(agent.api_token);
  await page.getByRole('button', { name: 'Connect Zendesk' }).click();
  await expect(page.getByText(/^Connected to acme\.zendesk\.com as Agent \d+ \(/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // 2. In Zendesk: a webhook to the URL the setup page shows, and its trigger; its signing secret saved in ARB.
  const webhookUrl = (await page.getByLabel('Webhook URL').textContent())!.trim();
  expect(webhookUrl).toMatch(/\/api\/v1\/integrations\/zendesk\/webhook\?key=zwh_[0-9A-Za-z]{32}$/);
  const secret = await zendesk.webhook(webhookUrl);
  await page.getByLabel(/^Webhook signing secret/).fill(secret);
  await page.getByRole('button', { name: 'Save signing secret' }).click();
  await expect(page.getByText('Signing secret saved: ARB now takes the webhook’s events')).toBeVisible();
  await expect(page.getByLabel(/^Webhook signing secret \(saved/)).toBeVisible();

  // 3. The review in the inbox: "Create ticket" makes its ticket in Zendesk and shows the link.
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Reviews' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/reviews');
  const reviews = page.getByRole('region', { name: 'Reviews' });
  const row = reviews.getByRole('listitem').filter({ hasText: marker });
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 40_000 });
  await row.getByRole('button').filter({ hasText: marker }).click();
  const details = page.getByRole('region', { name: 'Review details' });
  await details.getByRole('button', { name: 'Create ticket' }).click();
  await expect(details.getByRole('status').filter({ hasText: 'Ticket created in Zendesk.' })).toBeVisible();
  const link = details.getByRole('link', { name: /^Zendesk ticket #\d+/ });
  const ticketId = Number(/#(\d+)/.exec((await link.textContent())!)![1]);
  expect(await link.getAttribute('href')).toMatch(new RegExp(`/agent/tickets/${ticketId}$`));
  const ticket = await zendesk.ticket(ticketId);
  expect(ticket.tags).toContain('arb');
  expect(ticket.comments[0].body).toContain(`Login fails after the update ${marker}`);
  expect(await seriousViolations(page)).toEqual([]);
  // After a reload the review still shows its ticket (the inbox answers it), not "Create ticket" again.
  await page.reload();
  await row.getByRole('button').filter({ hasText: marker }).click();
  await expect(details.getByRole('link', { name: new RegExp(`^Zendesk ticket #${ticketId}\\b`) })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Create ticket' })).toHaveCount(0);

  // 4. An agent's public comment fires the signed webhook: its text is the review's one reply on the App Store.
  const answer = `Hi Sam, 2.3.1 fixes the login, sorry for the trouble ${marker}`;
  const replied = await zendesk.reply(ticketId, agent, answer);
  expect(replied.webhook_statuses.length).toBeGreaterThan(0);
  expect(replied.webhook_statuses.every((s) => s === 200)).toBe(true);
  const posted = await stores.replies();
  expect(posted.app_store.filter((p) => p.reviewId === app.review_id).map((p) => p.responseBody)).toEqual([answer]);
  // ARB notes on the ticket how it went (an internal note).
  const noted = await zendesk.ticket(ticketId);
  expect(noted.comments.at(-1)).toMatchObject({ public: false, body: expect.stringMatching(/^Published on the App Store/) });

  // The next poll finds the reply published: the inbox shows it under the review, which is replied.
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText('Replied', { timeout: 2000 });
  }).toPass({ timeout: 40_000 });
  await row.getByRole('button').filter({ hasText: marker }).click();
  await expect(details).toContainText(answer);

  // 5. The ticket solved: the review is done.
  const solved = await zendesk.solve(ticketId, agent);
  expect(solved.webhook_statuses.every((s) => s === 200)).toBe(true);
  await page.reload();
  await expect(row).toContainText('Done');
  await row.getByRole('button').filter({ hasText: marker }).click();
  await expect(details.getByLabel('Status')).toHaveValue('done');
  // Still one reply: the solve's webhook sent nothing again.
  expect((await stores.replies()).app_store.filter((p) => p.reviewId === app.review_id)).toHaveLength(1);
});
