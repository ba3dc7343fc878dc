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

module.exports = { CHROMIUM_PATH, CHROMIUM_ARGS };
