/** The footer's four groups and their links; /ask-arb's dark, taller footer. */
import { expect, test } from './fixtures';
import { backgroundOf, classify } from './support/colors';

const normalize = (href: string) => (href.length > 1 && href.endsWith('/') ? href.slice(0, -1) : href);

const GROUPS: Record<string, string[]> = {
  Product: ['/platform/slack', '/platform/microsoft-teams', '/platform/mattermost', '/platform/discord', '/platform/webex', '/platform/google-chat', '/platform/telegram', '/pricing', '/faq'],
  Company: ['/privacy', '/terms'],
  Explore: ['/ask-arb', '/get-reviews', '/blog'],
};

test('the footer has the four groups of docs/PRODUCT.md with their links', async ({ page }) => {
  await page.goto('/pricing');
  const footer = page.getByRole('contentinfo');
  const nav = footer.getByRole('navigation', { name: 'Footer' });
  const group = (title: string) => nav.locator('div').filter({ has: page.getByRole('heading', { name: title, exact: true }) }).last();

  for (const [title, hrefs] of Object.entries(GROUPS)) {
    const links = await group(title).getByRole('link').evaluateAll((els) => els.map((a) => a.getAttribute('href') ?? ''));
    expect(links.map(normalize), title).toEqual(hrefs);
  }
  await expect(group('Explore').getByRole('link', { name: 'AskARB', exact: true })).toHaveAttribute('href', /^\/ask-arb\/?$/);

  const touch = await group('Get in touch').getByRole('link').evaluateAll((els) => els.map((a) => a.getAttribute('href') ?? ''));
  expect(touch).toHaveLength(2);
  expect(touch.some((h) => /^https:\/\/(www\.)?(linkedin|twitter|x|facebook|instagram|youtube)\.com\//.test(h)), 'a social media link').toBe(true);
  expect(touch.map(normalize)).toContain('/contact');
});

test('the footer links lead to pages that exist', async ({ page, request }) => {
  await page.goto('/faq');
  const hrefs = await page
    .getByRole('contentinfo')
    .getByRole('link')
    .evaluateAll((els) => els.map((a) => a.getAttribute('href') ?? '').filter((h) => h.startsWith('/')));
  for (const href of hrefs) expect((await request.get(href)).status(), href).toBe(200);
});

test('/ask-arb has a black page and a taller dark footer; other pages are light', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/pricing');
  const light = page.getByRole('contentinfo');
  expect(classify(await backgroundOf(light))).not.toBe('black');
  expect(classify(await backgroundOf(page.locator('body')))).toBe('white');
  const lightHeight = (await light.boundingBox())!.height;

  await page.goto('/ask-arb');
  const dark = page.getByRole('contentinfo');
  expect(classify(await backgroundOf(dark))).toBe('black');
  expect(classify(await backgroundOf(page.locator('body')))).toBe('black');
  expect((await dark.boundingBox())!.height).toBeGreaterThan(lightHeight);
});

test('footer and page links of a freshly loaded page navigate in the app, without reloading it', async ({ page }) => {
  // The footer and the static sections keep their server HTML while hydrating (StaticContent): their links must still
  // behave as the app's links do — the router takes them, the page is not loaded again.
  await page.goto('/pricing');
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ', exact: true }).click();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  await page.goto('/features');
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  await page.getByRole('main').getByRole('link', { name: 'See plans and prices' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByRole('list', { name: 'Plans' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});
