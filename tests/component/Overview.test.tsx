/**
 * The /dashboard overview against a loopback API answering in the endpoint's shape: a new organisation sees the setup
 * checklist (its done steps ticked, the others links to where they are done); an organisation with apps sees a card
 * per app with "Store rating" and "Review average" apart, the terms as inbox links, and "Needs attention" with a link
 * per item; terms still being counted are asked for again.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { notPreflight, ok, route } from './support/apiFake';
import { signedInWithApiFake } from './support/signedIn';
import { json } from '@/tests/fakes/http';
import { render } from '@/tests/helpers/render';
import OverviewPage from '@/components/dashboard/overview/OverviewPage';
import type { Overview } from '@/lib/api/overview';

const api = signedInWithApiFake();

const period = (o: Partial<Overview['apps'][number]['review_average']['last_7_days']> = {}) => ({
  from: '2026-11-26', to: '2026-12-02', reviews: 0, average: null, previous_reviews: 0, previous_average: null, change: null, low: 0, low_share: null, ...o,
});
const KEY = 'apple_app_store__111';
const app = (o: Partial<Overview['apps'][number]> = {}): Overview['apps'][number] => ({
  key: KEY, title: 'Habit Hero', store: 'apple_app_store', icon_url: null, paused: false,
  store_rating: { rating: 4.6, ratings_count: 18000, change_7d: 0.1, as_of: '2026-12-02T04:00:00Z' },
  review_average: {
    last_7_days: period({ reviews: 12, average: 2.7, previous_reviews: 10, previous_average: 4.1, change: -1.4, low: 7, low_share: 0.58 }),
    last_30_days: period({ from: '2026-11-03', reviews: 70, average: 3.5, previous_reviews: 60, previous_average: 3.6, change: -0.1, low: 20, low_share: 0.29 }),
  },
  unanswered_30d: 14, unanswered_negative_30d: 6,
  reply_time: { median_seconds: 3 * 3600, replies: 9 },
  terms: { rising: [{ term: 'crashes on open', reviews: 12, previous_reviews: 2, href: `/dashboard/reviews?app=${KEY}&q=%22crashes%20on%20open%22&from=2026-11-26` }], critical: [] },
  links: { reviews: `/dashboard/reviews?app=${KEY}`, trends: `/dashboard/apps/${KEY}`, unanswered: `/dashboard/reviews?app=${KEY}&replied=false&from=2026-11-03` },
  ...o,
});
const overview = (o: Partial<Overview> = {}): Overview => ({
  generated_at: '2026-12-02T05:00:00Z', setup: { apps: true, channel: true, team: true, complete: true }, apps: [app()], attention: [], terms_pending: false, ...o,
});

describe('/dashboard overview', () => {
  test('a new organisation: the three-step checklist, each step a link until it is done', async () => {
    await api.start([route('GET', '/api/v1/org/overview', ok(overview({ apps: [], setup: { apps: false, channel: false, team: true, complete: false } })))]);
    render(<OverviewPage />, { url: '/dashboard' });
    const steps = within(await screen.findByRole('region', { name: 'Get started' })).getAllByRole('listitem');
    expect(steps).toHaveLength(3);
    expect(within(steps[0]).getByRole('link', { name: 'Add an app' })).toHaveAttribute('href', '/dashboard/apps');
    expect(within(steps[1]).getByRole('link', { name: 'Connect a channel' })).toHaveAttribute('href', '/dashboard/destinations');
    expect(within(steps[2]).queryByRole('link')).toBeNull();
    expect(steps[2]).toHaveTextContent('Invite the team (done)');
    expect(screen.getByText('1 of 3 steps done.')).toBeInTheDocument();
  });

  test('a card per app: store rating and review average apart, terms and attention items as links', async () => {
    const attention = [{ kind: 'unanswered_negative' as const, title: '6 unanswered 1–2★ reviews of Habit Hero', detail: 'From the last 30 days.', href: `/dashboard/reviews?app=${KEY}&rating=1,2&replied=false`, action: 'Reply', app_key: KEY }];
    await api.start([route('GET', '/api/v1/org/overview', ok(overview({ attention })))]);
    render(<OverviewPage />, { url: '/dashboard' });
    const card = await screen.findByRole('article', { name: 'Habit Hero' });
    const figure = (label: string) => within(card).getByText(label).nextElementSibling as HTMLElement;
    expect(figure('Store rating')).toHaveTextContent('4.6★18,000 ratings in the store+0.10 in 7 days');
    expect(figure('Review average, 7 days')).toHaveTextContent('2.70★12 reviews−1.40 vs the 7 days before');
    expect(figure('Review average, 30 days')).toHaveTextContent('3.50★70 reviews−0.10 vs the 30 days before');
    expect(figure('1–2★ share, 30 days')).toHaveTextContent('29 %7 days: 58 %');
    expect(figure('Unanswered, 30 days')).toHaveTextContent('146 of them 1–2★');
    expect(figure('Median time to reply')).toHaveTextContent('3 h');
    expect(within(card).getByRole('link', { name: /^crashes on open: 12 reviews this week/ })).toHaveAttribute('href', app().terms!.rising[0].href);
    const needs = screen.getByRole('region', { name: 'Needs attention' });
    expect(within(needs).getByRole('link', { name: 'Reply: 6 unanswered 1–2★ reviews of Habit Hero' })).toHaveAttribute('href', attention[0].href);
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
  });

  test('terms still being counted: the card says so, and the overview is asked for again', async () => {
    let calls = 0;
    await api.start([
      route('GET', '/api/v1/org/overview', (_req, res) => {
        calls++;
        json(res, 200, { data: calls === 1 ? overview({ apps: [app({ terms: null })], terms_pending: true }) : overview() });
      }),
    ]);
    render(<OverviewPage />, { url: '/dashboard' });
    expect(await screen.findByText('Counting the words of this week’s reviews…')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: /^crashes on open/ })).toBeInTheDocument(), { timeout: 8000 });
    expect(api.fake!.requests.filter(notPreflight).filter((r) => r.path === '/api/v1/org/overview')).toHaveLength(2);
  }, 15_000);
});
