/**
 * Reviews by e-mail on the built app, with a real SMTP server on loopback.
 * - /get-reviews: give an address → the recent reviews arrive (HTML-escaped) with the offer of a daily digest → turn
 *   the digest on from the link → unsubscribe from the link in the e-mail, without signing in → asking again sends a
 *   confirmation link instead of reviews.
 * - The connect flow with platform E-mail: the address gets ONE confirmation e-mail and the card says to check the
 *   inbox → the e-mailed link, confirmed on its page → the card turns connected, the welcome and the latest reviews
 *   arrive over SMTP, then a new review once.
 */
import { hydratingNavigation } from './fixtures';
import { appWithReviews, choosePlatform, expect, mark, marksIn, searchAndPick, test, uniqueWord } from './support/connectFlow';

// Real polls, deliveries and e-mails on a machine that may be busy: generous time per test.
test.describe.configure({ timeout: 120_000 });
const SLOW = { timeout: 20_000 };

const linkAfter = (text: string, label: string) => {
  const m = new RegExp(`${label}: (http\\S+)`).exec(text);
  if (!m) throw new Error(`no "${label}" link in:\n${text}`);
  return m[1];
};

test('recent reviews by e-mail → daily digest on → unsubscribe → asking again needs confirmation', async ({ page, connect, control, newEmail }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Almanac`, tag, 3);
  await connect.publish(app.app_id, { title: '<b>Bold</b> claim', content: `Click <a href="https://evil.example">here</a> ${mark(tag, 4)}`, rating: 1 });
  const email = newEmail('reader');

  await page.goto('/get-reviews');
  const form = page.locator('#get-reviews-form');
  await searchAndPick(page, app.title);
  await form.getByLabel('Your e-mail').fill(email);
  await form.getByLabel(/Also send me a summary/).check();
  await form.getByRole('button', { name: 'Send me the reviews' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Check your inbox' })).toContainText(`the recent reviews of ${app.title} and a summary are on their way to ${email}`, SLOW);

  const mails = await control.waitForMail(email, { count: 2 });
  const recent = mails.find((m) => m.subject === `Recent reviews of ${app.title}`)!;
  const summary = mails.find((m) => m.subject === `Review summary of ${app.title}`)!;
  expect(marksIn(recent.text, tag)).toEqual([4, 3, 2, 1].map((i) => mark(tag, i)));
  expect(recent.html).toContain('&lt;b&gt;Bold&lt;/b&gt; claim');
  expect(recent.html).not.toContain('href="https://evil.example"');
  expect(summary.text).toContain('Computed from the 4 reviews');

  // The digest offer in the e-mail.
  await page.goto(linkAfter(recent.text, 'Send me a daily digest'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Turn on the daily digest');
  await page.getByRole('button', { name: 'Turn on the daily digest' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'daily digest' })).toContainText(`Your daily digest of ${app.title} is on.`, SLOW);

  // The unsubscribe link: a page that asks, then one click; no sign-in anywhere.
  await page.goto(linkAfter(recent.text, 'Unsubscribe \\(one click, no sign-in\\)'));
  await expect(page.getByText(`Stop all ARB review e-mails to ${email.slice(0, 2)}…@example.com`)).toBeVisible(SLOW);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'unsubscribed' })).toContainText('You are unsubscribed.', SLOW);

  // The form does not mail this address again without its owner's confirmation.
  await page.goto('/get-reviews');
  await searchAndPick(page, app.title);
  await form.getByLabel('Your e-mail').fill(email);
  await form.getByRole('button', { name: 'Send me the reviews' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'confirmation' })).toContainText('so we sent a confirmation link first', SLOW);
  const after = await control.waitForMail(email, { count: 3 });
  expect(after[2].subject).toBe(`Confirm: send recent reviews of ${app.title}?`);
  expect(marksIn(after[2].text, tag)).toEqual([]);
});

test('connect flow, E-mail: one confirmation e-mail, confirmed through its link → welcome and last reviews, then the new review once', async ({ page, context, connect, control, newEmail }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Ledger`, tag, 2);
  const email = newEmail('owner');

  await page.goto('/try-free');
  await searchAndPick(page, app.title);
  await choosePlatform(page, 'E-mail');
  await page.getByLabel('E-mail address for the reviews').fill(email);
  await page.getByRole('button', { name: 'Send reviews to this address' }).click();
  await expect(page.getByRole('heading', { name: `Check ${email} to confirm` })).toBeVisible(SLOW);
  await expect(page.getByText('Waiting for confirmation')).toBeVisible();

  // Exactly one e-mail, with no review in it, until the link is confirmed.
  const [confirmation] = await control.waitForMail(email, { count: 1 });
  expect(confirmation.subject).toBe(`Confirm: e-mail new reviews of ${app.title} to this address?`);
  expect(marksIn(confirmation.text, tag)).toEqual([]);

  // The mailbox opens the link in another tab: the page asks, and only its button confirms.
  const inbox = await context.newPage();
  hydratingNavigation(inbox); // a click before hydration would do nothing
  await inbox.goto(linkAfter(confirmation.text, 'Yes, send me the reviews'));
  await expect(inbox.getByRole('heading', { level: 1 })).toHaveText('Confirm your address');
  expect(await control.waitForMail(email, { count: 0 })).toHaveLength(1);
  await inbox.getByRole('button', { name: 'Yes, send me the reviews' }).click();
  await expect(inbox.getByRole('status').filter({ hasText: 'Confirmed' })).toContainText(`New reviews of ${app.title} will arrive at ${email.slice(0, 2)}…@example.com`, SLOW);
  await inbox.close();

  // The card that was waiting turns connected on its own.
  await expect(page.getByRole('heading', { name: `Sending reviews to ${email.slice(0, 2)}…@example.com` })).toBeVisible(SLOW);
  const mails = await control.waitForMail(email, { count: 4 });
  expect(mails[1].subject).toContain(app.title);
  expect(mails.slice(2).map((m) => marksIn(m.text, tag)[0])).toEqual([mark(tag, 1), mark(tag, 2)]);
  await connect.publish(app.app_id, { content: `Fresh ${mark(tag, 3)}`, rating: 1 });
  const after = await control.waitForMail(email, { count: 5, timeoutMs: 25_000 });
  expect(after.filter((m) => marksIn(m.text, tag).includes(mark(tag, 3)))).toHaveLength(1);
});
