/**
 * The browser the end-to-end tests run in: Debian's Chromium with Playwright's switches, and none of the browser's own
 * UI that a headless test never shows (scripts/chromium.cjs). Chromium keeps only the last --disable-features it is
 * given, so the one it got must carry Playwright's list and ours.
 */
import { UNSEEN_BROWSER_UI } from '../../scripts/chromium.cjs';
import { expect, test } from './fixtures';

test('one --disable-features with Playwright’s list and the browser UI nobody sees; no browser UI opened for a page', async ({ browser, page }) => {
  const context = await browser.newContext(); // a page without the fixture's wait for React: this one has none
  const version = await context.newPage();
  await version.goto('chrome://version');
  const commandLine = (await version.locator('#command_line').textContent()) ?? '';
  await context.close();
  const disabled = commandLine.split(/\s+/).filter((a) => a.startsWith('--disable-features='));
  expect(disabled).toHaveLength(1);
  const features = disabled[0].slice('--disable-features='.length).split(',');
  expect(features).toEqual(expect.arrayContaining(['PaintHolding', 'HttpsUpgrades', ...UNSEEN_BROWSER_UI]));
  await page.goto('/terms');
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] });
  expect(targetInfos.filter((t) => t.type === 'browser_ui').map((t) => t.url)).toEqual([]);
  await cdp.detach();
});
