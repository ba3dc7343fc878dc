// Trust at the organisation boundary in Chromium against the real server (issue #29, points 1 and 4): a sign-in shows
// an open invitation in the dashboard and joins only on Accept; an invitation link or a dashboard hand-off link for
// another account than the one this browser is signed in with asks first, and nothing changes until confirmed; a
// hand-off link made in another browser does not sign anyone in here.
import type { Browser, Page } from '@playwright/test';
import { expect, hydratingNavigation, test } from './fixtures';
import { seriousViolations } from './support/a11y';
import { orgIdOfToken, readPersistedAuth } from './support/signIn';
import { defaultOrgName } from '@/shared/orgNames';

const storedEmail = async (page: Page) => (await readPersistedAuth(page))?.state?.authData?.email;
const storedToken = async (page: Page) => (await readPersistedAuth(page))!.state!.authData!.authToken!;

/** A page in a browser of its own (another person's), hydrating like the fixture's. */
async function otherBrowserPage(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  hydratingNavigation(page);
  return { context, page };
}

test('signed in as A, an invitation link for B asks first; nothing changes until B confirms', async ({ page, signIn, newEmail, control, browser, baseURL }) => {
  test.slow();
  const inviter = await otherBrowserPage(browser, baseURL);
  try {
    const owner = await signIn(inviter.page);
    const orgName = `Acme ${Date.now().toString(36)}`;
    const bearer = { Authorization: `Bearer ${await storedToken(inviter.page)}` };
    expect((await inviter.page.request.patch('/api/v1/org', { headers: bearer, data: { name: orgName } })).status()).toBe(200);
    const b = newEmail('invitee-b');
    expect((await inviter.page.request.post('/api/v1/org/invitations', { headers: bearer, data: { email: b, role: 'member' } })).status()).toBe(201);
    const [mail] = await control.waitForMail(b);
    const link = new URL(/https?:\/\/\S+\/join#[\w-]+/.exec(mail.text)![0]);

    const a = await signIn(page);
    await page.goto(`${link.pathname}${link.hash}`);
    await expect(page.getByText(`${owner.email} invites you to ${orgName} as member.`)).toBeVisible();
    await expect(page.getByText(`You are signed in as ${a.email}. Continue as ${b} and join ${orgName}?`)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    // Nothing has changed: this browser is still A's, and the invitation is still open.
    expect(await storedEmail(page)).toBe(a.email);
    const open = await inviter.page.request.get('/api/v1/org/invitations', { headers: bearer });
    expect(((await open.json()) as { data: { email: string }[] }).data.map((i) => i.email)).toEqual([b]);

    await page.getByRole('button', { name: `Continue as ${b} and join` }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Team' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard/team');
    expect(await storedEmail(page)).toBe(b);
    expect(orgIdOfToken(await storedToken(page))).toBe(owner.orgId);
    await expect(page.getByText(/You are member · 2 members/)).toBeVisible();
  } finally {
    await inviter.context.close();
  }
});

test('after a code sign-in the dashboard shows the invitation; it joins only on Accept', async ({ page, signIn, newEmail, control, browser, baseURL }) => {
  test.slow();
  const inviter = await otherBrowserPage(browser, baseURL);
  try {
    const owner = await signIn(inviter.page);
    const bearer = { Authorization: `Bearer ${await storedToken(inviter.page)}` };
    const c = newEmail('invitee-c');
    expect((await inviter.page.request.post('/api/v1/org/invitations', { headers: bearer, data: { email: c, role: 'admin' } })).status()).toBe(201);
    await control.waitForMail(c);

    const me = await signIn(page, { email: c, redirectTo: '/dashboard' });
    await page.waitForURL((u) => u.pathname === '/dashboard');
    expect(me.orgId).not.toBe(owner.orgId);
    const invitations = page.getByRole('region', { name: 'An invitation for you' });
    const ownersOrg = defaultOrgName(owner.email);
    await expect(invitations).toContainText(`${owner.email} invites you to ${ownersOrg} as admin.`);
    await expect(invitations).toContainText('has nothing in it yet: it is deleted when you join.');
    expect(await seriousViolations(page)).toEqual([]);
    expect(orgIdOfToken(await storedToken(page))).toBe(me.orgId);

    await invitations.getByRole('button', { name: `Accept and join ${ownersOrg}` }).click();
    await expect(page.getByText(`You joined ${ownersOrg}`)).toBeVisible();
    await expect(invitations).toHaveCount(0);
    await expect.poll(async () => orgIdOfToken(await storedToken(page))).toBe(owner.orgId);
    // The session it had before ended with the move.
    expect((await page.request.get('/api/v1/org', { headers: { Authorization: `Bearer ${me.authToken}` } })).status()).toBe(401);
  } finally {
    await inviter.context.close();
  }
});

test("a dashboard hand-off link for another account asks first; one made in another browser signs nobody in", async ({ page, signIn, browser, baseURL }) => {
  const b = await signIn(page);
  const bearerB = { Authorization: `Bearer ${await storedToken(page)}` };
  // This browser asked for B's code (its nonce cookie is set), then signed in as A.
  const code = ((await (await page.request.get('/api/v1/auth/token/refresh', { headers: bearerB })).json()) as { data: { token: string } }).data.token;
  const a = await signIn(page);
  await page.goto(`/dashboard?token=home__${code}`);
  await expect(page.getByText(`You are signed in as ${a.email}. Continue as ${b.email}?`)).toBeVisible();
  expect(await storedEmail(page)).toBe(a.email);
  await page.getByRole('button', { name: `Stay signed in as ${a.email}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('banner').getByText(a.email)).toBeVisible();
  expect(await storedEmail(page)).toBe(a.email);

  // B's next code, opened in a browser that never asked for it: refused there, nobody is signed in.
  const foreign = ((await (await page.request.get('/api/v1/auth/token/refresh', { headers: bearerB })).json()) as { data: { token: string } }).data.token;
  const stranger = await otherBrowserPage(browser, baseURL);
  try {
    const handoff = stranger.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/auth/token/handoff');
    await stranger.page.goto(`/dashboard?token=home__${foreign}`);
    const answer = await handoff;
    expect(answer.status()).toBe(401);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('code_other_browser');
    await expect(stranger.page.getByRole('link', { name: 'Sign in' })).toBeVisible();
    expect(await storedEmail(stranger.page)).toBeUndefined();
  } finally {
    await stranger.context.close();
  }
});
