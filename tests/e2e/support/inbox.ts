/**
 * The triage inbox (/dashboard/reviews) as the specs use it: each review is one line (a button) in the region
 * "Reviews"; clicking it shows the whole review, its reply, workflow and notes in the region "Review details".
 */
import { expect, type Page } from '@playwright/test';

export function inbox(page: Page) {
  const reviews = page.getByRole('region', { name: 'Reviews' });
  const details = page.getByRole('region', { name: 'Review details' }).getByRole('article');
  /** The line of the review whose text has `text`. */
  const row = (text: string) => reviews.getByRole('button').filter({ hasText: text });
  /** Makes the review with `text` the current one and answers its detail panel (the article). */
  const open = async (text: string) => {
    await row(text).click();
    const detail = details.filter({ hasText: text });
    await expect(detail).toBeVisible();
    return detail;
  };
  return { reviews, details, row, open };
}
