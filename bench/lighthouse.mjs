// Lighthouse 12 (mobile preset, the default config) on /, /features and /pricing of the built app served by the real
// server, in Debian Chromium. Prints the four category scores per page. Goal (issue 2 point 11): performance ≥ 95,
// accessibility, best practices and SEO 100.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { ensureBuild } from '../scripts/ensure-build.cjs';
import { startServer } from '../scripts/arb-server.cjs';

const PAGES = ['/', '/features', '/pricing'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

const distDir = process.env.NEXT_DIST_DIR || '.next';
ensureBuild({ distDir, log: (m) => console.error(m) });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-bench-lh-'));
const server = await startServer({ dataDir, distDir, env: { LOG_LEVEL: 'warn', WORKER: 'off' } });
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: CHROME_FLAGS, logLevel: 'error' });
try {
  for (const page of PAGES) {
    const url = `${server.url}${page}`;
    await fetch(url).then((r) => r.arrayBuffer()); // first request warms Next's page cache, as a real visitor would find it
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${result.lhr.runtimeError.message}`);
    const name = page === '/' ? 'home' : page.slice(1).replace(/\//g, '.');
    for (const id of CATEGORIES) {
      const score = result.lhr.categories[id]?.score;
      console.log(`lighthouse.${name}.${id}: ${score == null ? 'n/a' : Math.round(score * 100)} score`);
    }
    // Failing audits explain a score below 100; they go to stderr so the figures stay the only output.
    for (const id of CATEGORIES.slice(1)) {
      for (const ref of result.lhr.categories[id]?.auditRefs ?? []) {
        const audit = result.lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) console.error(`  ${page} ${id}: ${audit.id} — ${audit.title}`);
      }
    }
  }
} finally {
  await chrome.kill();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
