// The signed-in app as one story, in Chromium against the real server, its engine and the loopback fakes (App Store
// feed and search, Slack's webhook, SMTP): an owner signs in, adds an app by searching for it, connects Slack for it
// from the dashboard; a review written after that reaches both the inbox and the Slack receiver; search and a rating
// filter (picked with the keyboard) find it and stay in the URL; the owner invites a member, who signs in from the
// e-mail, sees the same inbox and the destination, but has no way to delete it (and the API refuses). axe runs on
// each page as each of them sees it.
import { seriousViolations } from './support/a11y';
import { appWithReviews, connectSlackFromDashboard, expect, mark, test, uniqueWord } from './support/connectFlow';
import { inbox } from './support/inbox';

// A real poll (every 5 s in the e2e server) between the app and the review showing, and two people signing in.
test.describe.configure({ timeout: 180_000 });

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

test('sign in, add an app, connect Slack, a new review reaches inbox and Slack, filters find it, a member sees it but cannot delete the destination', async ({ page, signIn, connect, control, newEmail, browser, baseURL }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Ledger`, tag, 2);
  const hook = await connect.newHook('slack');
  const owner = await signIn(page, { redirectTo: '/dashboard/apps' });
  await page.waitForURL((u) => u.pathname === '/dashboard/apps');
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await expect(nav.getByRole('link', { name: 'Apps' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('No apps yet')).toBeVisible();

  // 1. Add the app by searching the stores.
  await page.getByRole('button', { name: 'Add app' }).click();
  const addApp = page.getByRole('dialog');
  await addApp.getByLabel('Search the App Store and Google Play').fill(app.title);
  await addApp.getByRole('list', { name: 'Apps found' }).getByRole('button').filter({ hasText: app.title }).filter({ hasText: 'App Store' }).click();
  await expect(addApp.getByRole('combobox', { name: 'App Store countries' })).toContainText('United States');
  await addApp.getByRole('button', { name: 'Add this app' }).click();
  await expect(page.getByText(`${app.title} added`)).toBeVisible();
  await expect(page.getByRole('table', { name: "Your organisation's apps" }).getByRole('rowheader')).toContainText(app.title);
  expect(await seriousViolations(page)).toEqual([]);

  // 2. Connect Slack from the dashboard with the home page's flow: the welcome reaches the receiver.
  await nav.getByRole('link', { name: 'Destinations' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/destinations');
  const addDestination = await connectSlackFromDashboard(page, app.title, hook.url);
  const welcome = await connect.delivered(hook.id, 3);
  expect(welcome[0].raw).toContain(app.title);
  await addDestination.getByRole('button', { name: 'Close' }).click();
  const slack = page.getByRole('article', { name: /^Slack · / });
  await expect(slack).toContainText(app.title);
  await expect(slack).toContainText('Active');
  expect(await seriousViolations(page)).toEqual([]);

  // 3. A review written now: the next poll stores it once and delivers it once, to the inbox and to Slack.
  await connect.publish(app.app_id, { title: 'Crash on sync', content: `Sync crashes every time ${mark(tag, 9)}`, rating: 1 });
  const atSlack = await connect.delivered(hook.id, 4, 60_000);
  expect(atSlack[3].raw).toContain(mark(tag, 9));
  expect(atSlack[3].body).toMatchObject({ blocks: expect.any(Array) });
  await nav.getByRole('link', { name: 'Reviews' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/reviews');
  const queue = inbox(page);
  const reviews = queue.reviews;
  await expect(async () => {
    await page.reload();
    await expect(reviews.getByText(mark(tag, 9))).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await expect(reviews.getByText(`Text ${mark(tag, 1)}`)).toBeVisible();
  const card = await queue.open(mark(tag, 9));
  await expect(card.getByRole('img', { name: '1 out of 5 stars' })).toBeVisible();
  await expect(card).toContainText('Crash on sync');
  await expect(card).toContainText('United States');

  // 4. Search and a rating filter find it; the view lives in the URL, so a reload (or a shared link) shows the same.
  await page.getByRole('searchbox', { name: 'Search reviews' }).fill('crashes');
  await page.waitForURL((u) => u.searchParams.get('q') === 'crashes');
  await expect(reviews.getByText(`Text ${mark(tag, 1)}`)).toHaveCount(0);
  await expect(reviews.getByText(mark(tag, 9))).toBeVisible();
  const rating = page.getByRole('combobox', { name: 'Rating' });
  await rating.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('option', { name: '1 star', exact: true }).click();
  await page.keyboard.press('Escape');
  await page.waitForURL((u) => u.searchParams.get('rating') === '1' && u.searchParams.get('q') === 'crashes');
  const view = new URL(page.url());
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search reviews' })).toHaveValue('crashes');
  await expect(page.getByRole('combobox', { name: 'Rating' })).toContainText('1 star');
  await expect(reviews.getByText(mark(tag, 9))).toBeVisible();
  await expect(reviews.getByText(`Text ${mark(tag, 2)}`)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  expect(await seriousViolations(page)).toEqual([]);

  // 5. Invite a member; the e-mail's link shows the invitation, and confirming signs them in and joins them.
  await nav.getByRole('link', { name: 'Team' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/team');
  const invitee = newEmail('member');
  await page.getByLabel('E-mail address').fill(invitee);
  await page.getByLabel('Role').selectOption('member');
  await page.getByRole('button', { name: 'Invite member' }).click();
  await expect(page.getByText(`Invitation sent to ${invitee}`)).toBeVisible();
  const [mail] = await control.waitForMail(invitee);
  const link = new URL(/https?:\/\/\S+\/join#[\w-]+/.exec(mail.text)![0]);
  const destinationId = await slackDestinationId(page, owner.authToken);

  const other = await browser.newContext({ baseURL });
  try {
    const theirs = await other.newPage();
    await theirs.goto(`${link.pathname}${link.hash}`);
    // The link's page shows the invitation; joining is the invitee's click.
    await theirs.getByRole('button', { name: /^Join / }).click();
    await theirs.waitForURL((u) => u.pathname === '/dashboard');

    // The owner's shared view opens the same inbox for the member.
    await theirs.goto(`${view.pathname}${view.search}`);
    const theirQueue = inbox(theirs);
    const theirReviews = theirQueue.reviews;
    await expect(theirReviews.getByText(mark(tag, 9))).toBeVisible();
    await expect(await theirQueue.open(mark(tag, 9))).toContainText('Crash on sync');
    await expect(theirReviews.getByText(`Text ${mark(tag, 1)}`)).toHaveCount(0);

    // The destination: visible, but no way to delete it, and the API refuses too.
    await theirs.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Destinations' }).click();
    await theirs.waitForURL((u) => u.pathname === '/dashboard/destinations');
    const theirSlack = theirs.getByRole('article', { name: /^Slack · / });
    await expect(theirSlack).toContainText(app.title);
    await expect(theirs.getByText('Only admins and the owner can add or change destinations. You are a member.')).toBeVisible();
    await expect(theirs.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await expect(theirs.getByRole('button', { name: 'Add destination' })).toHaveCount(0);
    expect(await seriousViolations(theirs)).toEqual([]);
    const memberToken = await theirs.evaluate(() => (JSON.parse(localStorage.getItem('arb-storage') ?? '{}') as { state?: { authData?: { authToken?: string } } }).state?.authData?.authToken ?? '');
    const refused = await theirs.request.delete(`/api/v1/org/destinations/${destinationId}`, { headers: bearer(memberToken) });
    expect(refused.status()).toBe(403);
    await theirs.reload();
    await expect(theirSlack).toBeVisible();
  } finally {
    await other.close();
  }

  // Still there for the owner, and still delivering nothing twice.
  await page.goto('/dashboard/destinations');
  await expect(page.getByRole('article', { name: /^Slack · / })).toContainText('Active');
  expect((await connect.delivered(hook.id, 4)).filter((d) => d.raw.includes(mark(tag, 9)))).toHaveLength(1);
});

async function slackDestinationId(page: import('@playwright/test').Page, token: string): Promise<string> {
  const res = await page.request.get('/api/v1/org/destinations', { headers: bearer(token) });
  expect(res.status(), await res.text()).toBe(200);
  const { data } = (await res.json()) as { data: Array<{ id: string; platform: string }> };
  const slack = data.filter((d) => d.platform === 'slack');
  expect(slack).toHaveLength(1);
  return slack[0].id;
}
