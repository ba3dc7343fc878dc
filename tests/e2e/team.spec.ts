// The Team page in Chromium against the real server and the SMTP fake: an owner renames the organisation and invites
// someone; the invitee opens the e-mail's link, sees who invites them where and as what, confirms, is signed in and
// joined, and sees the team as a member (no managing);
// the owner sees them arrive, and the audit log says who did what. axe runs on the page as each of them sees it.
import { expect, test } from './fixtures';
import { seriousViolations } from './support/a11y';

test('invite a member by e-mail: the link shows the invitation, and confirming signs them in and joins them; roles decide what each one sees', async ({ page, signIn, newEmail, control, browser, baseURL }) => {
  // Two people, two sign-ins and two axe passes: more than one page's budget on a busy 2-core machine.
  test.slow();
  const owner = await signIn(page, { redirectTo: '/dashboard/team' });
  await page.waitForURL((u) => u.pathname === '/dashboard/team');
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await expect(nav.getByRole('link', { name: 'Team' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible();

  await page.getByLabel('Organisation name').fill('Acme Mobile');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Organisation renamed')).toBeVisible();

  const invitee = newEmail('invitee');
  await page.getByLabel('E-mail address').fill(invitee);
  await page.getByLabel('Role').selectOption('member');
  await page.getByRole('button', { name: 'Invite member' }).click();
  await expect(page.getByText(`Invitation sent to ${invitee}`)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Open invitations' })).toContainText(invitee);
  // Checked once the toast has left: it may start fading out while axe runs, and a half-transparent toast fails
  // color-contrast against what shows through (seen once in CI).
  await expect(page.getByText(`Invitation sent to ${invitee}`)).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  const [mail] = await control.waitForMail(invitee);
  expect(mail.subject).toBe(`${owner.email} invited you to join their team on ARB`);
  expect(mail.text).toContain('invited you to join “Acme Mobile” on ARB');
  const link = new URL(/https?:\/\/\S+\/join#[\w-]+/.exec(mail.text)![0]);

  const other = await browser.newContext({ baseURL });
  try {
    const theirs = await other.newPage();
    await theirs.goto(`${link.pathname}${link.hash}`);
    // Nothing happens before they confirm: the page says who invites them where, as what.
    await expect(theirs.getByText(`${owner.email} invites you to Acme Mobile as member.`)).toBeVisible();
    // The token left the address bar before anything could record it.
    expect(new URL(theirs.url()).hash).toBe('');
    expect(await seriousViolations(theirs)).toEqual([]);
    await theirs.getByRole('button', { name: 'Join Acme Mobile' }).click();
    // A join lands on the dashboard, like any sign-in; the Team page is one click away.
    await theirs.waitForURL((u) => u.pathname === '/dashboard');
    await theirs.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Team' }).click();
    await theirs.waitForURL((u) => u.pathname === '/dashboard/team');
    await expect(theirs.getByText(/You are member · 2 members/)).toBeVisible();
    await expect(theirs.getByRole('table', { name: 'Members of the organisation' }).getByRole('cell', { name: owner.email, exact: true })).toBeVisible();
    await expect(theirs.getByRole('button', { name: 'Invite member' })).toHaveCount(0);
    await expect(theirs.getByRole('button', { name: `Remove ${owner.email}` })).toHaveCount(0);
    await expect(theirs.getByRole('heading', { name: 'Audit log' })).toHaveCount(0);
    await expect(theirs.getByText('Welcome to the team')).toHaveCount(0); // the join's toast has left (see above)
    expect(await seriousViolations(theirs)).toEqual([]);
  } finally {
    await other.close();
  }

  await page.reload();
  await expect(page.getByRole('table', { name: 'Members of the organisation' }).getByRole('cell', { name: invitee, exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Open invitations' })).toHaveCount(0);
  const audit = page.getByRole('table', { name: 'Audit log, newest first' });
  await expect(audit.getByRole('row').nth(1)).toContainText('joined as member');
  await expect(audit).toContainText(`invited ${invitee} as member`);
  await expect(audit).toContainText('renamed the organisation');

  // Promote with the keyboard alone: focus the role picker, choose Admin.
  await page.getByLabel(`Role of ${invitee}`).focus();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByText(`${invitee} is now admin`)).toBeVisible();
});

test('a used or broken invitation link says what to do instead', async ({ page }) => {
  await page.goto('/join#not-a-real-invitation-token-at-all');
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toContainText('This invitation has expired, was cancelled or was already used. Ask for a new one.');
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?redirect_to=/dashboard/team');
  expect(new URL(page.url()).hash).toBe('');
});
