// Lighthouse 12 (mobile preset, the default config) on /, /features and /pricing of the built app served by the real
// server, in Debian Chromium, between two audits of a bare Next.js page built with the same `next` (the floor:
// floor, pages, floor in one run). Lighthouse's simulated throttling scales the CPU time it observes, so on a shared
// machine the absolute figures drift with the load; the floor audited before and after the pages shows what the
// machine allowed during the run, and the pages are judged against it.
//
// Goal per page, against the mean of the two floor audits: performance within 5 points, Total Blocking Time ≤ 1.5 ×,
// Largest Contentful Paint ≤ 1.3 ×; accessibility, best practices and SEO 100.
//
// Output (stdout): `name: value unit` lines — the four scores, FCP/LCP/TBT and the main thread's CPU time per audit
// (thread time: steadier than the wall-time scores, the figure to compare changes by, but not load-proof — at load
// 7–25 one run's two floor audits read 205 and 308 ms — so judge a change by A/B runs back to back, more than once),
// both floors, and each page's ratios to the floor. The pages' traces start with a document commit the floor's lack
// (3–4 ms of thread time before the first paint, in about half the audits on Nov 28; 16–22 ms in Nov 25's): their Cross-Origin-Opener-Policy header makes Chromium swap to a
// new browsing context group when Lighthouse navigates from about:blank (a visitor arriving from another site pays
// that either way; the floor sends no such header). Diagnostics (what blocks the first paint, the largest element, the
// main thread's work) go to stderr. LIGHTHOUSE_REPORTS=<dir> also writes each full report as JSON there, with the Chromium trace it was computed
// from (<name>.trace.json, opens in Chrome DevTools' Performance panel).
//
// The app's start-up scripts carry V8's compile hint (scripts/compile-hints.cjs, added after `next build`); the floor's
// do not (it is Next as it ships). Before the hint, the pages' longest task was the Turbopack runtime's evaluation of
// the modules, 34–76 ms of CPU vs the floor's 28–50, and most of it was not the modules' code: a trace with V8's compile
// events (disabled-by-default-v8.compile) put 68 of its 90 ms on /pricing in lazy compilation (294 V8.CompileCode,
// 42 ms of them parsing). With the hint that task is 7–12 ms of CPU, the hydration tasks after it under 12 ms, and
// the pages' main thread 0.76–1.56 × the floor's instead of 1.33–2.18 × (Nov 28, eight alternating runs each: README).
// At the machine's normal load (1.2–2.5, Nov 28 late) every page met the goal in 6 runs of 6: TBT 0.08–1.49 ×, LCP
// 1.00–1.24 ×, −3 to +2.5 points; at load 2.6–7.1 all three together in 4 of 9.
//
// History, as the README's benchmark table recorded it until 2026-12-02 (docs/BENCHMARKS.md keeps the latest
// row; the figures above may repeat part of it):
//   Lighthouse mobile on /, /features, /pricing vs a bare Next page audited before and after them in the same run
//   (`bench/lighthouse.mjs`) — goal within 5 points, TBT ≤ 1.5 ×, LCP ≤ 1.3 × the floor's. met in every run at the
//   machine's normal load (6 of 6), not when other work crowds its two cores. Nov 28, late, the same build, load
//   1.2–2.5, 6 runs: floor 97.5–98.5 (TBT 134–175 ms, LCP 0.69–0.77 s); / 99–100 (+0.5 to +1.5 points), TBT 0.18–1.01
//   ×, LCP 1.07–1.24 ×; /features 99–100 (+0.5 to +2.5), TBT 0.20–0.66 ×, LCP 1.00–1.12 ×; /pricing 95–100 (−3 to
//   +1.5), TBT 0.08–1.49 ×, LCP 1.02–1.18 ×; main-thread CPU 0.92–1.40 × the floor's; accessibility, best practices
//   and SEO 100 on every page in every run. Earlier the same day, at load 2.6–7.1: met by all three pages in 4 of 9
//   runs (before the compile hint: none of 8). That round, shared machine (load 2.8–7.1, another engineer's CPU
//   benchmarks on the same two cores), the build whose start-up scripts carry V8's compile hint
//   (`scripts/compile-hints.cjs`: after) and the same build without it (before), audited alternately, 8 runs each (one
//   more after-run lost to Lighthouse's NO_NAVSTART), then a ninth after-run from a clean `.next` build at load
//   4.2–2.6. After: floor 92.0–98.5 (TBT 0.13–0.36 s, LCP 0.67–0.91 s, CPU 96–153 ms); / +5 / +5.5 / +3 / +3.5 / +1 /
//   +2 / +1.5 / −5 / +1.5 points, TBT 0.53 / 0.36 / 0.33 / 0.27 / 0.92 / 0.26 / 0.87 / 1.55 / 0.52 ×, LCP 1.18 / 0.98
//   / 0.86 / 1.11 / 0.93 / 0.99 / 0.92 / 1.21 / 1.23 ×; /features +5 / +6.5 / 0 / +3.5 / −5 / −2 / +1.5 / −8 / +1.5,
//   TBT 0.52 / 0.16 / 0.96 / 0.10 / 1.63 / 1.51 / 0.85 / 1.91 / 0.60 ×, LCP 1.08 / 0.89 / 0.88 / 1.13 / 1.15 / 1.01 /
//   0.97 / 1.11 / 1.18 ×; /pricing +6 / +3.5 / +2 / −1.5 / +4 / +2 / +4.5 / +6 / −1.5, TBT 0.47 / 0.63 / 0.57 / 1.19 /
//   0.25 / 0.11 / 0.40 / 0.06 / 1.55 ×, LCP 1.50 / 0.97 / 1.00 / 1.23 / 0.98 / 0.98 / 0.99 / 1.07 / 1.17 ×;
//   main-thread CPU 0.76–1.56 × the floor's; goal met by / 8 times of 9, /features 6, /pricing 7 (misses: /features'
//   TBT at load 4.8–7.1, 7.1–4.5 and 4.6–5.4, /'s in the last of those, /pricing's LCP once, its first layout
//   stretched by the load, and its TBT in the ninth run, 194 ms against a floor of 125, from the tasks of its first
//   layout, which the simulation counts after its first paint). Before: / +7 to −15 points (met twice), /features +2
//   to −7.5 (met 3 times), /pricing +1 to −20 (once), TBT 0.50–7.26 ×, LCP 0.66–1.33 ×, CPU 1.33–2.18 ×.
//   Accessibility, best practices, SEO 100. What the long task was: the Turbopack runtime's evaluation of the modules
//   (34–61 ms of CPU on the pages vs 28–55 on the floor), and most of it V8 compiling each module's function lazily on
//   the main thread when first called (on /pricing 68 of 90 ms, in a trace with V8's compile events), not the modules'
//   code and not hydration (React's own later tasks). With the hint Chromium compiles those scripts on its background
//   parsing thread: that task is 7–12 ms of CPU and no task after the first paint is longer; hydration ends as soon
//   after the first paint as before (210–670 ms observed vs 240–600). The floor, Next as it ships, has no hint. The
//   round before (toasts and modals loaded only when asked for, four runs): / met the goal twice, /features once,
//   /pricing three times. What is left: the first style and layout (14–24 ms CPU vs 2–3, before the first paint) and
//   the after-paint loader's task, whose wall time the load stretches several times (docs/DEVELOPING.md)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { ensureBuild } from '../scripts/ensure-build.cjs';
import { startServer } from '../scripts/arb-server.cjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.cjs';
import { buildFloorApp, startFloorServer } from './lib/floorApp.mjs';

const PAGES = ['/', '/features', '/pricing'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const GOAL = { performancePoints: 5, tbtRatio: 1.5, lcpRatio: 1.3 };
const reportDir = process.env.LIGHTHOUSE_REPORTS;

const distDir = process.env.NEXT_DIST_DIR || '.next';
ensureBuild({ distDir, log: (m) => console.error(m) });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-bench-lh-'));
let server;
let floorApp;
let floor;
let chrome;

function diagnostics(name, lhr) {
  const a = lhr.audits;
  const items = (id) => a[id]?.details?.items ?? [];
  const ms = (n) => `${Math.round(n)} ms`;
  const blocking = items('render-blocking-resources').map((i) => `${new URL(i.url).pathname} (${ms(i.wastedMs ?? 0)})`);
  console.error(`  ${name}: render-blocking: ${blocking.join(', ') || 'none'}`);
  const lcpEl = items('largest-contentful-paint-element')[0]?.items?.[0]?.node;
  if (lcpEl) console.error(`  ${name}: LCP element: ${lcpEl.nodeLabel ?? ''} <${lcpEl.selector ?? ''}>`);
  const phases = items('largest-contentful-paint-element')[1]?.items;
  if (phases) console.error(`  ${name}: LCP phases: ${phases.map((p) => `${p.phase} ${ms(p.timing)}`).join(', ')}`);
  const work = items('mainthread-work-breakdown').map((i) => `${i.groupLabel} ${ms(i.duration)}`);
  console.error(`  ${name}: main thread: ${work.join(', ')}`);
  const boot = items('bootup-time')
    .slice(0, 4)
    .map((i) => `${i.url.replace(/^https?:\/\/[^/]+/, '')} ${ms(i.scripting)} script`);
  console.error(`  ${name}: bootup: ${boot.join(', ')}`);
  const long = items('long-tasks').map((i) => `${i.url.replace(/^https?:\/\/[^/]+/, '')} @${ms(i.startTime)} ${ms(i.duration)}`);
  console.error(`  ${name}: long tasks: ${long.join(', ') || 'none'}`);
}

/**
 * The page's main-thread CPU time from the trace (the thread time of its top-level tasks from navigation start): unlike
 * Lighthouse's figures, which use the tasks' wall time and so count every moment another process held the CPU, this
 * barely moves with the machine's load, so a change's effect shows even when the scores are noise.
 */
function mainThreadCpu(trace) {
  const events = trace?.traceEvents ?? [];
  const nav = events.find((e) => e.name === 'navigationStart' && /^https?:/.test(e.args?.data?.documentLoaderURL ?? ''));
  if (!nav) return { total: NaN, afterFcp: NaN };
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === nav.pid && e.ts >= nav.ts)?.ts ?? Infinity;
  let total = 0;
  let afterFcp = 0;
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || e.pid !== nav.pid || e.tid !== nav.tid || e.ts < nav.ts) continue;
    const cpu = (e.tdur ?? e.dur) / 1000;
    total += cpu;
    if (e.ts >= fcp) afterFcp += cpu;
  }
  return { total, afterFcp };
}

async function audit(name, url) {
  await fetch(url).then((r) => r.arrayBuffer()); // first request warms the server's page cache, as a real visitor would find it
  let result;
  // A busy machine sometimes loses the trace (NO_NAVSTART, NO_FCP): that is Lighthouse's hiccup, not the page's, so one
  // more try; a second failure is reported.
  for (let attempt = 1; ; attempt += 1) {
    result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (!result.lhr.runtimeError) break;
    if (attempt === 2) throw new Error(`Lighthouse failed on ${url}: ${result.lhr.runtimeError.message}`);
    console.error(`  ${name}: ${result.lhr.runtimeError.code}, running Lighthouse again`);
  }
  const { lhr } = result;
  if (reportDir) {
    fs.mkdirSync(reportDir, { recursive: true });
    fs.writeFileSync(path.join(reportDir, `${name}.json`), result.report);
    if (result.artifacts.Trace) fs.writeFileSync(path.join(reportDir, `${name}.trace.json`), JSON.stringify(result.artifacts.Trace));
  }
  const scores = {};
  for (const id of CATEGORIES) {
    const score = lhr.categories[id]?.score;
    scores[id] = score == null ? null : Math.round(score * 100);
    console.log(`lighthouse.${name}.${id}: ${scores[id] ?? 'n/a'} score`);
  }
  const value = (id) => lhr.audits[id]?.numericValue ?? NaN;
  const m = { fcp: value('first-contentful-paint'), lcp: value('largest-contentful-paint'), tbt: value('total-blocking-time') };
  console.log(`lighthouse.${name}.fcp: ${Math.round(m.fcp)} ms`);
  console.log(`lighthouse.${name}.lcp: ${Math.round(m.lcp)} ms`);
  console.log(`lighthouse.${name}.tbt: ${Math.round(m.tbt)} ms`);
  const cpu = mainThreadCpu(result.artifacts.Trace);
  m.cpu = cpu.total;
  console.log(`lighthouse.${name}.main_thread_cpu: ${Math.round(cpu.total)} ms`);
  console.log(`lighthouse.${name}.main_thread_cpu.after_fcp: ${Math.round(cpu.afterFcp)} ms`);
  // The machine's speed as Lighthouse measured it (a busy machine scores lower), and the failing audits behind any
  // score below 100: on stderr, so the figures stay the only output.
  console.error(
    `  ${name}: CLS ${lhr.audits['cumulative-layout-shift']?.displayValue ?? 'n/a'}, SI ${lhr.audits['speed-index']?.displayValue ?? 'n/a'}; ` +
      `benchmarkIndex ${lhr.environment.benchmarkIndex}`,
  );
  for (const id of CATEGORIES.slice(1)) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1) console.error(`  ${name} ${id}: ${a.id} — ${a.title}`);
    }
  }
  diagnostics(name, lhr);
  return { ...m, performance: scores.performance, others: CATEGORIES.slice(1).map((id) => scores[id]) };
}

const pageName = (page) => (page === '/' ? 'home' : page.slice(1).replace(/\//g, '.'));

try {
  floorApp = buildFloorApp();
  [server, floor] = await Promise.all([
    startServer({ dataDir, distDir, env: { LOG_LEVEL: 'warn', WORKER: 'off' } }),
    startFloorServer(floorApp.dir),
  ]);
  chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: [...CHROMIUM_ARGS], logLevel: 'error' });

  const floorBefore = await audit('floor.before', `${floor.url}/`);
  const pages = [];
  for (const page of PAGES) pages.push([pageName(page), await audit(pageName(page), `${server.url}${page}`)]);
  const floorAfter = await audit('floor.after', `${floor.url}/`);

  const mean = (k) => (floorBefore[k] + floorAfter[k]) / 2;
  const ref = { performance: mean('performance'), tbt: mean('tbt'), lcp: mean('lcp'), cpu: mean('cpu') };
  console.log(`lighthouse.floor.performance: ${ref.performance.toFixed(1)} score`);
  console.log(`lighthouse.floor.tbt: ${Math.round(ref.tbt)} ms`);
  console.log(`lighthouse.floor.lcp: ${Math.round(ref.lcp)} ms`);
  console.log(`lighthouse.floor.main_thread_cpu: ${Math.round(ref.cpu)} ms`);
  let allMet = true;
  for (const [name, r] of pages) {
    const points = r.performance - ref.performance;
    // A floor with no blocking time at all makes any ratio infinite; the ratio is then taken against 1 ms.
    const tbtRatio = r.tbt / Math.max(ref.tbt, 1);
    const lcpRatio = r.lcp / ref.lcp;
    console.log(`lighthouse.${name}.performance.vs_floor: ${points >= 0 ? '+' : ''}${points.toFixed(1)} points`);
    console.log(`lighthouse.${name}.tbt.ratio: ${tbtRatio.toFixed(2)} x`);
    console.log(`lighthouse.${name}.lcp.ratio: ${lcpRatio.toFixed(2)} x`);
    console.log(`lighthouse.${name}.main_thread_cpu.ratio: ${(r.cpu / ref.cpu).toFixed(2)} x`);
    const missed = [
      points < -GOAL.performancePoints && `performance ${points.toFixed(1)} points (goal ≥ -${GOAL.performancePoints})`,
      tbtRatio > GOAL.tbtRatio && `TBT ${tbtRatio.toFixed(2)}× (goal ≤ ${GOAL.tbtRatio}×)`,
      lcpRatio > GOAL.lcpRatio && `LCP ${lcpRatio.toFixed(2)}× (goal ≤ ${GOAL.lcpRatio}×)`,
      r.others.some((s) => s !== 100) && `accessibility/best practices/SEO ${r.others.join('/')} (goal 100)`,
    ].filter(Boolean);
    if (missed.length) allMet = false;
    console.error(`${name}: ${missed.length ? `MISSED — ${missed.join('; ')}` : 'goal met'}`);
  }
  console.error(allMet ? 'every page meets the goal against the floor of this run' : 'some pages miss the goal against the floor of this run');
} finally {
  await chrome?.kill();
  await floor?.stop();
  floorApp?.remove();
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
