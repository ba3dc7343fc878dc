// /get-reviews (issue 31): its "Prefer a team channel?" heading once — the Markdown's section — and the chat tools'
// cards under a heading of their own; the page as getStaticProps builds it from content/landing/get-reviews.md.
import { screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import GetReviewsPage, { getStaticProps } from '@/pages/get-reviews';
import { render } from '@/tests/helpers/render';

describe('/get-reviews', () => {
  test('every heading once, "Prefer a team channel?" included', async () => {
    const { props } = await getStaticProps();
    render(<GetReviewsPage {...props} />, { url: '/get-reviews' });
    expect(screen.getAllByRole('heading', { name: 'Prefer a team channel?' })).toHaveLength(1);
    expect(screen.getAllByRole('heading', { name: 'Chat tools ARB posts to' })).toHaveLength(1);
    const names = screen.getAllByRole('heading').map((h) => h.textContent?.trim());
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });
});
