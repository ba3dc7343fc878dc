/**
 * axe-core's serious and critical findings on the page as it is now (WCAG 2.x A/AA and best practices), in a short
 * form that reads well in a failed `toEqual([])`. Run it inside a test that already visits the page: a second visit
 * only for axe doubles the cost of every route.
 *
 * Two settings keep one check at about a third of AxeBuilder's default cost, with the same findings:
 * - legacy mode runs `axe.run` in the page itself. The default mode collects partial results from every frame, sends
 *   them to Node and opens an extra blank page to finish the run there; our pages have no cross-origin frames, which is
 *   all that mode adds.
 * - `resultTypes: ['violations']`: axe still evaluates every rule on every node, but builds selectors and HTML
 *   snippets only for the violations (a passing colour-contrast check alone has over a hundred nodes on a page).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export async function seriousViolations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page }).withTags(TAGS).options({ resultTypes: ['violations'] }).setLegacyMode(true);
  if (include) builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}
