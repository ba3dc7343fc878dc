/**
 * The home search against the real server and the fake stores — debounced search of both stores,
 * results with icon, title, developer and store, the previous request aborted by a newer query, choosing an app (the
 * app_selected event is stored), and preselection from ?app_id&app_store.
 */
import type { Page, Request } from '@playwright/test';
import { DEMO_APPS } from '../fixtures/catalog';
import { expect, test } from './fixtures';
import { SLOW_SEARCH_TERM } from './support/control';

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search your app' });
const results = (page: Page) => page.getByRole('listbox', { name: 'Apps found' }).getByRole('option');
const isSearch = (r: Request) => new URL(r.url()).pathname === '/api/search' && r.method() === 'POST';
/** A 1×1 PNG: this machine cannot reach the stores' icon CDNs, and an icon that fails to load shows the app's initial. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

test('typing searches both stores once (debounced) and lists icon, title, developer and store', async ({ page, control }) => {
  const sent: Array<{ query: string; app_store: string }> = [];
  page.on('request', (r) => {
    if (isSearch(r)) sent.push(r.postDataJSON());
  });
  await page.route(/^https:\/\/[^/]*(mzstatic\.com|googleusercontent\.com)\//, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PNG }));
  await page.goto('/');
  // The page's clock stands still while the five keys are typed, so the debounce sees one burst however long a busy
  // machine takes between two keystrokes; then time runs again and the 250 ms wait ends once.
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
  await searchBox(page).pressSequentially('habit', { delay: 40 });
  await page.clock.resume();

  const streaklyIos = results(page).filter({ hasText: DEMO_APPS.streakly.title }).filter({ hasText: 'App Store' });
  await expect(streaklyIos).toHaveCount(1);
  await expect(streaklyIos).toContainText('Brightloop Labs');
  await expect(streaklyIos.locator('img')).toHaveAttribute('src', /^https:\/\/[^/]*mzstatic\.com\//);
  const gardenPlay = results(page).filter({ hasText: DEMO_APPS.habitGarden.title });
  await expect(gardenPlay).toContainText('Google Play');
  await expect(gardenPlay).toContainText('Sproutworks');
  await expect(gardenPlay.locator('img')).toHaveAttribute('src', /^https:\/\/play-lh\.googleusercontent\.com\//);
  await expect(results(page).filter({ hasText: DEMO_APPS.habitJournal.title })).toContainText('App Store');
  await expect(results(page).filter({ hasText: DEMO_APPS.ledgerleaf.title })).toHaveCount(0);

  // Five keystrokes, one search per store, for the whole word.
  expect(sent.map((s) => s.query)).toEqual(['habit', 'habit']);
  expect(sent.map((s) => s.app_store).sort()).toEqual(['apple_app_store', 'google_play_store']);
  // The answers came from the stores (through the real server), not from anywhere else.
  expect((await control.requests('itunes', { path: '/search', count: 1 })).some((r) => r.query.term === 'habit')).toBe(true);
  expect((await control.requests('play', { path: '/store/search', count: 1 })).some((r) => r.query.q === 'habit')).toBe(true);
});

test('a newer query aborts the request of the previous one', async ({ page }) => {
  const failed: string[] = [];
  page.on('requestfailed', (r) => {
    if (isSearch(r)) failed.push(`${r.postDataJSON().query}: ${r.failure()?.errorText}`);
  });
  await page.goto('/');
  const slowSent = page.waitForRequest((r) => isSearch(r) && r.postDataJSON().query === SLOW_SEARCH_TERM);
  await searchBox(page).fill(SLOW_SEARCH_TERM);
  await slowSent;
  await searchBox(page).fill('trailmate');
  await expect(results(page).filter({ hasText: DEMO_APPS.trailmate.title }).first()).toBeVisible();
  await expect.poll(() => failed).toEqual([`${SLOW_SEARCH_TERM}: net::ERR_ABORTED`, `${SLOW_SEARCH_TERM}: net::ERR_ABORTED`]);
});

test('choosing a result selects the app and records the app_selected event', async ({ page }) => {
  await page.goto('/');
  await searchBox(page).fill('streakly');
  const event = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/apps/event');
  await results(page).filter({ hasText: 'Google Play' }).first().click();
  const res = await event;
  const params = new URL(res.url()).searchParams;
  expect(Object.fromEntries(params)).toEqual({ event: 'app_selected', app_id: DEMO_APPS.streakly.play, app_store: 'google_play_store' });
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ data: { ok: true } });

  await expect(searchBox(page)).toHaveValue(DEMO_APPS.streakly.title);
  await expect(page.getByRole('listbox', { name: 'Apps found' })).toHaveCount(0);
  const selected = page.getByRole('region', { name: 'Selected app' });
  await expect(selected).toContainText(DEMO_APPS.streakly.title);
  await expect(selected).toContainText('Google Play');
});

test('the keyboard chooses too: arrow down, Enter', async ({ page }) => {
  await page.goto('/');
  await searchBox(page).fill('calmwave');
  await expect(results(page).first()).toBeVisible();
  const event = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/apps/event');
  await searchBox(page).press('ArrowDown');
  await expect(results(page).first()).toHaveAttribute('aria-selected', 'true');
  await searchBox(page).press('Enter');
  expect((await event).status()).toBe(200);
  await expect(searchBox(page)).toHaveValue(DEMO_APPS.calmwave.title);
});

test('a link with app_id and app_store preselects the app, fills the search text and shows the signup banner', async ({ page, control }) => {
  const event = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/apps/event');
  await page.goto(`/?app_id=${DEMO_APPS.ledgerleaf.ios}&app_store=apple_app_store`);
  await expect(searchBox(page)).toHaveValue(DEMO_APPS.ledgerleaf.title);
  const banner = page.getByRole('complementary', { name: 'Sign up' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(DEMO_APPS.ledgerleaf.title);
  await expect(page.getByRole('region', { name: 'Selected app' })).toContainText('Ledgerleaf Inc.');
  expect(new URL((await event).url()).searchParams.get('app_id')).toBe(DEMO_APPS.ledgerleaf.ios);
  const lookups = await control.requests('itunes', { path: '/lookup', count: 1 });
  expect(lookups.some((r) => r.query.id === DEMO_APPS.ledgerleaf.ios)).toBe(true);

  // The banner is a toggle: Dismiss hides it, the selection stays.
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toHaveCount(0);
  await expect(searchBox(page)).toHaveValue(DEMO_APPS.ledgerleaf.title);
});

test('a Google Play link preselects too; an unknown app leaves the page as it was', async ({ page }) => {
  await page.goto(`/try-free?app_id=${DEMO_APPS.trailmate.play}&app_store=google_play_store`);
  await expect(searchBox(page)).toHaveValue(DEMO_APPS.trailmate.title);
  await expect(page.getByRole('complementary', { name: 'Sign up' })).toBeVisible();

  const details = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/public/app-details');
  await page.goto('/?app_id=com.example.does.not.exist&app_store=google_play_store');
  expect((await details).status()).toBe(404);
  await expect(searchBox(page)).toHaveValue('');
  await expect(page.getByRole('complementary', { name: 'Sign up' })).toHaveCount(0);
});
