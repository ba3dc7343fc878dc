// Triage in the inbox, in Chromium against the real server and the loopback App Store feed: an owner's app with four
// reviews (newest first: r4, r3, r2, r1). The owner assigns one to themselves and filters by assignee "Me", moves with
// j/k and marks one done with e (still done after a reload, found by the status filter), selects two and tags them with
// the bulk bar (found by the tag filter), and adds a note that the detail panel shows, also after a reload. Each filter
// shows the view's count and lives in the URL. axe runs on the inbox with the bulk bar and the "?" overlay open.
import { seriousViolations } from './support/a11y';
import { appWithReviews, expect, mark, test, uniqueWord } from './support/connectFlow';
import { inbox } from './support/inbox';

// A real poll (every 5 s in the e2e server) brings the reviews in.
test.describe.configure({ timeout: 120_000 });

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

test('filters by assignee, status and tag with the count; j/k/e marks done for good; bulk tag; a note in the detail panel', async ({ page, signIn, connect }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Triage`, tag, 4);
  const owner = await signIn(page, { redirectTo: '/dashboard/reviews' });
  await page.waitForURL((u) => u.pathname === '/dashboard/reviews');
  const added = await page.request.post('/api/v1/org/apps', { headers: bearer(owner.authToken), data: { app_id: app.app_id, app_store: 'apple_app_store' } });
  expect(added.status(), await added.text()).toBe(201);
  const tagName = `${tag} sync`;
  const created = await page.request.post('/api/v1/org/tags', { headers: bearer(owner.authToken), data: { name: tagName, color: '#2563eb' } });
  expect(created.status(), await created.text()).toBe(201);

  const queue = inbox(page);
  const filters = page.getByRole('region', { name: 'Search and filters' });
  const count = filters.getByRole('status');
  await expect(async () => {
    await page.reload();
    for (const i of [1, 2, 3, 4]) await expect(queue.row(mark(tag, i))).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 40_000 });
  await expect(count).toHaveText('4 reviews');
  const rowOf = (i: number) => queue.row(mark(tag, i));
  const pick = async (filter: string, option: string) => {
    await filters.getByRole('combobox', { name: filter, exact: true }).click();
    await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
    await page.keyboard.press('Escape');
  };

  // 1. Assigned to me: the detail panel's Assignee, then the filter "Me" finds that one review only.
  const r2 = await queue.open(mark(tag, 2));
  await r2.getByLabel('Assignee').selectOption({ label: `${owner.email} (you)` });
  await expect(r2.getByLabel('Assignee')).toHaveValue(/.+/);
  await pick('Assignee', 'Me');
  await page.waitForURL((u) => u.searchParams.get('assignee') === 'me');
  await expect(count).toHaveText('1 review');
  await expect(rowOf(2)).toBeVisible();
  await expect(rowOf(1)).toHaveCount(0);
  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await page.waitForURL((u) => !u.searchParams.has('assignee'));
  await expect(count).toHaveText('4 reviews');

  // 2. The keyboard: j and k move the current review, e marks it done and moves on.
  await rowOf(4).click();
  await expect(rowOf(4)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('j');
  await expect(rowOf(3)).toHaveAttribute('aria-current', 'true');
  await expect(rowOf(3)).toBeFocused();
  await page.keyboard.press('j');
  await expect(rowOf(2)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('k');
  await expect(rowOf(3)).toHaveAttribute('aria-current', 'true');
  await expect(queue.details).toContainText(mark(tag, 3));
  await page.keyboard.press('e');
  await expect(page.getByText('Marked done')).toBeVisible();
  await expect(rowOf(3)).toContainText('Done');
  await expect(rowOf(2)).toHaveAttribute('aria-current', 'true');
  // Saved: after a reload it is still done, and the status filter finds it alone.
  await page.reload();
  await expect(rowOf(3)).toContainText('Done');
  await expect((await queue.open(mark(tag, 3))).getByLabel('Status', { exact: true })).toHaveValue('done');
  await pick('Status', 'Done');
  await page.waitForURL((u) => u.searchParams.get('status') === 'done');
  await expect(count).toHaveText('1 review');
  await expect(rowOf(3)).toBeVisible();
  await expect(rowOf(4)).toHaveCount(0);
  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await page.waitForURL((u) => !u.searchParams.has('status'));

  // 3. Two selected, one tag for both from the bulk bar; the tag filter finds exactly those.
  const checkbox = (i: number) => queue.reviews.getByRole('listitem').filter({ hasText: mark(tag, i) }).getByRole('checkbox');
  await checkbox(1).check();
  await checkbox(4).check();
  const bulk = page.getByRole('group', { name: 'Bulk actions' });
  await expect(bulk).toContainText('2 selected');
  expect(await seriousViolations(page)).toEqual([]);
  await bulk.getByLabel('Add tag').selectOption({ label: tagName });
  await expect(page.getByText('2 reviews changed')).toBeVisible();
  await expect(rowOf(1)).toContainText(tagName);
  await expect(rowOf(4)).toContainText(tagName);
  await expect(rowOf(2)).not.toContainText(tagName);
  await bulk.getByRole('button', { name: 'Clear selection' }).click();
  await expect(bulk).toHaveCount(0);
  await pick('Tag', tagName);
  await page.waitForURL((u) => Boolean(u.searchParams.get('tag')));
  await expect(count).toHaveText('2 reviews');
  await expect(rowOf(1)).toBeVisible();
  await expect(rowOf(4)).toBeVisible();
  await expect(rowOf(2)).toHaveCount(0);
  // The view is its address: a reload shows the same two.
  await page.reload();
  await expect(count).toHaveText('2 reviews');
  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await page.waitForURL((u) => !u.searchParams.has('tag'));

  // 4. A note: shown in the detail panel with its author, and still there after a reload.
  const r1 = await queue.open(mark(tag, 1));
  await r1.getByLabel('Add a note').fill(`Asked support to call back ${tag}`);
  await r1.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByText('Note added')).toBeVisible();
  await expect(r1).toContainText(`Asked support to call back ${tag}`);
  await expect(r1).toContainText(owner.email);
  await page.reload();
  await expect(await queue.open(mark(tag, 1))).toContainText(`Asked support to call back ${tag}`);

  // 5. "?" shows the keys in a dialog; Escape closes it.
  await rowOf(1).focus();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Mark the review done');
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
});
