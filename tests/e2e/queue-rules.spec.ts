// The support queue's rules end to end (issue 32), in Chromium against the real server, its engine and the loopback
// App Store Connect fake: an owner makes the tag "billing" and the rule "1★ mentioning refund → tag billing, draft the
// refund template for approval" on the Rules page; a 1★ review about a refund written after that is tagged by the
// rule and its draft waits on Replies → Awaiting approval; the owner edits the draft and approves it; App Store
// Connect receives exactly one reply, with the edited text, and the inbox shows the review replied once a poll finds
// the reply published. A 2★ review the app already had is left alone.
import { seriousViolations } from './support/a11y';
import { expect, test, uniqueWord } from './support/connectFlow';
import { StoreApiControl } from './support/storeApis';

// Real polls every 5 s: one brings the new review, the next confirms the reply.
test.describe.configure({ timeout: 150_000 });

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

test('a rule tags a new 1★ refund review and drafts its reply; approved with an edit, one reply reaches App Store Connect and the review is replied', async ({ page, signIn }) => {
  const stores = new StoreApiControl(process.env.E2E_CONTROL_URL!);
  const word = uniqueWord();
  const marker = `${word.toLowerCase()}q`;
  const app = await stores.iosApp(`${word} Wallet`, { body: `Fine but slow ${marker}old`, author: 'Early Bird' });
  const owner = await signIn(page, { redirectTo: '/dashboard/rules' });
  await page.waitForURL((u) => u.pathname === '/dashboard/rules');

  // The app read through App Store Connect, and the template the rule drafts from (the composer saves templates; its
  // own flow is covered by tests/e2e/replies.spec.ts and the component tests).
  const appKey = `apple_app_store__${app.app_id}`;
  const added = await page.request.post('/api/v1/org/apps', { headers: bearer(owner.authToken), data: { app_id: app.app_id, app_store: 'apple_app_store' } });
  expect(added.status(), await added.text()).toBe(201);
  const saved = await page.request.put(`/api/v1/org/apps/${encodeURIComponent(appKey)}/credentials`, { headers: bearer(owner.authToken), data: app.credentials });
  expect(saved.status(), await saved.text()).toBe(200);
  const template = await page.request.post('/api/v1/org/reply-templates', {
    headers: bearer(owner.authToken),
    data: { app_key: appKey, name: 'Refund', body: 'Sorry {author}: write to refunds@example.com and we refund you at once.' },
  });
  expect(template.status(), await template.text()).toBe(201);
  await page.reload();

  // 1. The tag.
  await page.getByLabel('New tag name').fill('billing');
  await page.getByRole('button', { name: 'Add tag' }).click();
  await expect(page.getByText('Tag "billing" added')).toBeVisible();

  // 2. The rule: 1★, mentions "refund"; tag billing, then draft the Refund template for approval.
  await page.getByRole('button', { name: 'New rule' }).click();
  const editor = page.getByRole('form', { name: 'New rule' });
  await editor.getByRole('textbox', { name: 'Name', exact: true }).fill('1★ refunds to billing');
  await editor.getByRole('group', { name: 'Rating' }).getByRole('checkbox', { name: '1★' }).check();
  await editor.getByRole('textbox', { name: 'Mentions any of' }).fill('refund');
  await editor.getByRole('button', { name: 'Add an action' }).click();
  await editor.getByRole('combobox', { name: 'Action 1' }).selectOption({ label: 'Tag it' });
  await editor.getByRole('combobox', { name: 'Tag', exact: true }).selectOption({ label: 'billing' });
  await editor.getByRole('button', { name: 'Add an action' }).click();
  await editor.getByRole('combobox', { name: 'Action 2' }).selectOption({ label: 'Reply from a template' });
  await editor.getByRole('combobox', { name: 'Template' }).selectOption({ label: `Refund (${app.title})` });
  await expect(editor.getByRole('combobox', { name: 'Mode' })).toHaveValue('approval');
  expect(await seriousViolations(page)).toEqual([]);
  await editor.getByRole('button', { name: 'Add rule' }).click();
  await expect(page.getByText('Rule "1★ refunds to billing" saved')).toBeVisible();
  const rule = page.getByRole('listitem', { name: '1★ refunds to billing' });
  await expect(rule).toContainText('When 1★ · mentions “refund” (every app)');
  await expect(rule).toContainText('Then tag billing, then draft the reply “Refund” for approval, at most 20 a day');

  // 3. A 1★ review about a refund, written now: the next poll stores it, the rule tags it and drafts its reply.
  const text = `Charged twice, I want a refund ${marker}new`;
  const written = await stores.iosReview(app.app_id, { body: text, author: 'Dana', rating: 1, title: 'Double charge' });
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Reviews' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/reviews');
  const reviews = page.getByRole('region', { name: 'Reviews' });
  const row = reviews.getByRole('listitem').filter({ hasText: `${marker}new` });
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText('billing', { timeout: 2000 });
  }).toPass({ timeout: 40_000 });
  // The review the app had before the rule is not a 1★ refund: untouched.
  await expect(reviews.getByRole('listitem').filter({ hasText: `${marker}old` })).not.toContainText('billing');

  // 4. Replies → Awaiting approval: the draft is the template filled in; edited, then approved.
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Replies' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/replies');
  const draft = page.getByRole('list', { name: 'Drafts awaiting approval' }).getByRole('listitem').filter({ hasText: `${marker}new` });
  await expect(draft).toContainText('drafted by rule “1★ refunds to billing” from its template');
  const box = draft.getByLabel('Reply (public, under your developer name)');
  await expect(box).toHaveValue('Sorry Dana: write to refunds@example.com and we refund you at once.');
  expect(await seriousViolations(page)).toEqual([]);
  const edited = `Sorry Dana, we refunded the second charge today ${marker}`;
  await box.fill(edited);
  await draft.getByRole('button', { name: 'Approve edited reply' }).click();
  await expect(page.getByText('Approved and sent to the store')).toBeVisible();
  await expect(page.getByText('No reply awaits approval.')).toBeVisible();

  // 5. Exactly one reply reached App Store Connect, with the edited text.
  const posted = await stores.replies();
  expect(posted.app_store.filter((p) => p.reviewId === written.review_id).map((p) => p.responseBody)).toEqual([edited]);

  // 6. The next poll finds the reply published: the review is replied, and shows the reply.
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Reviews' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/reviews');
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText('Replied', { timeout: 2000 });
  }).toPass({ timeout: 40_000 });
  await row.getByRole('button').filter({ hasText: `${marker}new` }).click();
  const details = page.getByRole('region', { name: 'Review details' });
  await expect(details).toContainText(edited);
  await expect(details.getByLabel('Status')).toHaveValue('replied');
  expect((await stores.replies()).app_store.filter((p) => p.reviewId === written.review_id)).toHaveLength(1);
});
