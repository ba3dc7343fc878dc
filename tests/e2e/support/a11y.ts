/**
 * axe-core's serious and critical findings on the page as it is now, in a short form that reads well in a failed
 * `toEqual([])`. The rules are axe's default set: WCAG 2.0/2.1 A and AA and best practices (the rules axe keeps off by
 * default, WCAG 2.2's target-size among them, stay off). Run it inside a test that already visits the page: a second visit
 * only for axe doubles the cost of every route.
 *
 * axe runs in the page itself (what AxeBuilder calls legacy mode): AxeBuilder's default mode collects partial results
 * from every frame, sends them to Node and opens an extra blank page to finish the run there, and our pages have no
 * cross-origin frames, which is all that mode adds. It is run here without AxeBuilder, because its legacy mode puts
 * axe's 1.3 MB unminified source into the page twice per check (once to look for `runPartial`, once per frame); here
 * the same axe-core (the one @axe-core/playwright is made for), minified, goes in once per document: less than half of
 * AxeBuilder's cost per check (measured side by side on the same pages). `resultTypes: ['violations']`: axe still
 * evaluates every rule on every node, but builds selectors and HTML snippets only for the violations (a passing
 * colour-contrast check alone has over a hundred nodes on a page).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { AxeResults, ContextObject, RunOptions } from 'axe-core';

const axeDir = path.dirname(require.resolve('axe-core', { paths: [path.dirname(require.resolve('@axe-core/playwright'))] }));
const AXE_SOURCE = fs.readFileSync(path.join(axeDir, 'axe.min.js'), 'utf8');

type AxeWindow = { axe?: { run(context: ContextObject | Document, options: RunOptions): Promise<AxeResults> } };

/** Lets running finite animations finish (a spinner's never does), for 2 s at most. */
async function animationsSettled(page: Page) {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
}

type Finding = { id: string; impact: AxeResults['violations'][number]['impact']; help: string; nodes: string[]; inToast: boolean };

async function runAxe(page: Page, include: string | undefined): Promise<Finding[]> {
  if (!(await page.evaluate(() => Boolean((window as AxeWindow).axe)))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ include, options }) => {
      const results = await (window as AxeWindow).axe!.run(include ? { include: [[include]] } : document, options);
      return results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
          // react-hot-toast's container: a finding there may be a toast caught fading out.
          inToast: v.nodes.some((n) => typeof n.target[0] === 'string' && document.querySelector(n.target[0])?.closest('[data-rht-toaster]')),
        }));
    },
    { include, options: { resultTypes: ['violations'] } satisfies RunOptions },
  ) as Promise<Finding[]>;
}

export async function seriousViolations(page: Page, include?: string) {
  // What a person reads is the page at rest: a toast still fading in is half transparent, and axe would measure its
  // contrast against what shows through. So running animations are let finish first. A toast may also start fading
  // out while axe runs (a success toast leaves after 2 s): a finding inside the toaster is checked once more after
  // that animation, when the toast is either at rest (and a real finding is found again) or gone.
  await animationsSettled(page);
  let findings = await runAxe(page, include);
  if (findings.some((f) => f.inToast)) {
    await animationsSettled(page);
    findings = await runAxe(page, include);
  }
  return findings.map(({ inToast: _, ...f }) => f);
}
