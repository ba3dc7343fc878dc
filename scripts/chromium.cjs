// The system Chromium and the flags every headless run here starts it with: the end-to-end tests
// (playwright.config.ts) and the Lighthouse benchmark (bench/lighthouse.mjs) measure and test the same browser.
//
// CommonJS on purpose: Playwright loads its TypeScript config as CommonJS, and an .mjs bench imports it as well.
'use strict';

/** Debian's chromium package: never `playwright install`, no download at test time. */
const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  // The suite runs as root (it installs Debian packages), and Chromium's sandbox refuses to start as root.
  '--no-sandbox',
  '--disable-gpu',
  // Nothing of the browser's own on the side (updates, sync, first-run pages): runs need no internet, and the
  // pages under test are the only work the browser does.
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/**
 * What Playwright passes as --disable-features (chromiumSwitches of playwright-core 1.65). Chromium keeps only the LAST
 * --disable-features it is given, so a list of ours must repeat these and replace Playwright's switch.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The browser's own UI that a headless test never shows: Chromium 156 gives every window (and every Playwright page is
 * one) two WebUI renderers for its omnibox popup, ~0.85 s of CPU per page beside the page's own ~1 s.
 */
const UNSEEN_BROWSER_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Playwright's launchOptions for the end-to-end tests. */
const PLAYWRIGHT_LAUNCH_OPTIONS = {
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_ARGS, `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNSEEN_BROWSER_UI].join(',')}`],
  ignoreDefaultArgs: [`--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(',')}`],
};

module.exports = { CHROMIUM_PATH, CHROMIUM_ARGS, PLAYWRIGHT_LAUNCH_OPTIONS, UNSEEN_BROWSER_UI };
