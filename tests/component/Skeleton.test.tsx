// The dashboard's loading placeholder is what screen readers meet while a page loads: a named, indeterminate progress
// bar that axe-core (the same rules the e2e checks run) finds nothing wrong with. A name on a plain div is an ARIA
// error (aria-prohibited-attr), which the e2e axe checks caught whenever a skeleton was on screen during the check.
import { createRequire } from 'node:module';
import path from 'node:path';
import { render, screen } from '@testing-library/react';
import type { AxeResults, RunOptions } from 'axe-core';
import { expect, test } from 'vitest';
import { Skeleton } from '@/components/dashboard/common';

// The axe-core @axe-core/playwright is made for (tests/e2e/support/a11y.ts loads the same one).
const load = createRequire(import.meta.url);
const axe = load(path.join(path.dirname(load.resolve('axe-core', { paths: [path.dirname(load.resolve('@axe-core/playwright'))] })), 'axe.js')) as {
  run(context: Element, options: RunOptions): Promise<AxeResults>;
};

test('a skeleton is a named progress bar, busy, with no ARIA violation', async () => {
  const { container } = render(<Skeleton rows={2} label="Loading members" />);
  const bar = screen.getByRole('progressbar', { name: 'Loading members' });
  expect(bar).toHaveAttribute('aria-busy', 'true');
  const results = await axe.run(container, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] }, rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } });
  expect(results.violations.map((v) => v.id)).toEqual([]);
});
