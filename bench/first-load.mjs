// First Load JS and CSS per route, gzipped, read from the build manifest, next to the same figure for a bare Next.js
// page built in the same run (the framework's floor). Budget: every marketing route's JS
// ≤ 1.35 × floor, CSS ≤ 25 kB gz; every dashboard route's JS ≤ 2.5 × floor (what a page loads later, on first use —
// a drawer, a chart — is not first load and not counted).
//
// A route's first load = the unique files of build-manifest `pages[route]` ∪ `pages['/_app']` ∪ rootMainFiles ∪
// polyfillFiles: what the browser must fetch before the page is interactive. Each file is gzipped at level 9.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ensureBuild, root } from '../scripts/ensure-build.cjs';
import { buildFloorApp } from './lib/floorApp.mjs';

const BUDGET_RATIO = 1.35;
const BUDGET_CSS_KB = 25;
const BUDGET_DASHBOARD_RATIO = 2.5;
const DASHBOARD = /^\/dashboard(\/|$)/;
// Routes of the app (sign-in, joining by invitation, billing, the connect flow, e-mail links, linking a Slack user, the dashboard) and
// framework internals: outside the marketing budget, still printed.
const NOT_MARKETING = /^\/(_app|_error|_document|404|500|api|dashboard|login|join|subscribe|connect|email|slack)(\/|$)/;
// Pages that answer text, not HTML (robots.txt, sitemap.xml): no JavaScript ever loads for them.
const NOT_HTML = /\.[a-z]+$/;

const gzCache = new Map();
function gzipSize(file) {
  if (!gzCache.has(file)) gzCache.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length);
  return gzCache.get(file);
}

function firstLoad(distDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'build-manifest.json'), 'utf8'));
  const shared = [...(manifest.pages['/_app'] ?? []), ...(manifest.rootMainFiles ?? []), ...(manifest.polyfillFiles ?? [])];
  const out = new Map();
  for (const [route, files] of Object.entries(manifest.pages)) {
    if (route === '/_app' || route === '/_error' || route === '/_document' || NOT_HTML.test(route)) continue;
    const unique = [...new Set([...files, ...shared])];
    const sum = (ext) => unique.filter((f) => f.endsWith(ext)).reduce((n, f) => n + gzipSize(path.join(distDir, f)), 0);
    out.set(route, { js: sum('.js'), css: sum('.css') });
  }
  return out;
}

const kB = (bytes) => (bytes / 1000).toFixed(1);

const distDir = process.env.NEXT_DIST_DIR || '.next';
ensureBuild({ distDir, log: (m) => console.error(m) });
const floorApp = buildFloorApp();
try {
  const floor = firstLoad(floorApp.distDir).get('/').js;
  const routes = firstLoad(path.join(root, distDir));
  console.log(`firstload.js.floor: ${kB(floor)} kB`);
  let worst = { ratio: 0, route: '' };
  let worstCss = { css: 0, route: '' };
  let worstDashboard = { ratio: 0, route: '' };
  for (const [route, { js, css }] of [...routes].sort(([a], [b]) => a.localeCompare(b))) {
    const ratio = js / floor;
    console.log(`firstload.js.${route}: ${kB(js)} kB`);
    console.log(`firstload.css.${route}: ${kB(css)} kB`);
    console.log(`firstload.js.${route}.ratio: ${ratio.toFixed(2)} x`);
    if (DASHBOARD.test(route) && ratio > worstDashboard.ratio) worstDashboard = { ratio, route };
    if (NOT_MARKETING.test(route)) continue;
    if (ratio > worst.ratio) worst = { ratio, route };
    if (css > worstCss.css) worstCss = { css, route };
  }
  console.log(`firstload.js.marketing.worst_ratio: ${worst.ratio.toFixed(2)} x`);
  console.log(`firstload.css.marketing.worst: ${kB(worstCss.css)} kB`);
  console.log(`firstload.js.dashboard.worst_ratio: ${worstDashboard.ratio.toFixed(2)} x`);
  // Which route is worst, and whether the budget holds, go to stderr: the figures above are the bench's output.
  console.error(
    `worst marketing JS: ${worst.route} ${worst.ratio.toFixed(2)}× floor (budget ${BUDGET_RATIO}×) ${worst.ratio <= BUDGET_RATIO ? 'OK' : 'OVER BUDGET'}; ` +
      `worst CSS: ${worstCss.route} ${kB(worstCss.css)} kB (budget ${BUDGET_CSS_KB} kB) ${worstCss.css / 1000 <= BUDGET_CSS_KB ? 'OK' : 'OVER BUDGET'}; ` +
      `worst dashboard JS: ${worstDashboard.route} ${worstDashboard.ratio.toFixed(2)}× floor (budget ${BUDGET_DASHBOARD_RATIO}×) ${worstDashboard.ratio <= BUDGET_DASHBOARD_RATIO ? 'OK' : 'OVER BUDGET'}`,
  );
} finally {
  floorApp.remove();
}
