// An app's words and summary on its dashboard page, against a loopback API: each term links to its reviews in the
// inbox (same app, same days, the term as the search), a plan without the feature says so with an Upgrade link, and a
// summary asked for is shown with its label — extractive at once, or an AI summary asked for again until written.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import SummaryPanel from '@/components/dashboard/insights/SummaryPanel';
import TermsPanel from '@/components/dashboard/insights/TermsPanel';
import { render } from '@/tests/helpers/render';
import { fail, notPreflight, ok, driftedOk, route } from './support/apiFake';
import { signedInWithApiFake } from './support/signedIn';

const KEY = 'apple_app_store__284882215';
const BASE = `/api/v1/org/apps/${KEY}`;

const term = (t: string, reviews: number, previous: number) => ({
  term: t, kind: t.includes(' ') ? 'phrase' : 'word', reviews, share: reviews / 40, previous_reviews: previous, previous_share: previous / 40, z: 3, review_ids: ['11'], search: t.includes(' ') ? `"${t}"` : t,
});
const terms = {
  app: { key: KEY, title: 'Lantern', store: 'apple_app_store' },
  from: '2026-03-11', to: '2026-03-20', reviews: 40, capped: false,
  previous: { from: '2026-03-01', to: '2026-03-10', reviews: 40, capped: false },
  rising: [term('battery drain', 15, 0)], falling: [term('offline mode', 0, 20)], top: [term('music selection', 25, 20)],
};

const figures = (reviews: number, average: number) => ({ reviews, average_rating: average, distribution: [1, 2, 3, 4, 5].map((rating) => ({ rating, reviews: 0 })), positive: 0, neutral: 0, negative: 0 });
const quote = { review_id: '11', rating: 1, text: 'Battery drain since the last update', version: '2.0', why: 'uses “battery drain”, rising' };
const summary = (over: Record<string, unknown> = {}, content: Record<string, unknown> = {}) => ({
  id: 'sum_000000000000000000000001', app_key: KEY, status: 'ready', method: 'extractive', label: 'extractive summary', from: '2026-03-11', to: '2026-03-20',
  text: '…', citations: ['11'], note: 'No language model is configured on this server (LLM_BASE_URL), so this is the extractive summary.', created_at: new Date().toISOString(), completed_at: null,
  content: {
    previous: { from: '2026-03-01', to: '2026-03-10' }, figures: figures(40, 2.88), previous_figures: figures(40, 4.5), rating_change: -1.62, versions: [],
    terms: { rising: [term('battery drain', 15, 0)], falling: [], top: [] }, quotes: [quote], overview: null, changes: null, themes: [], read: null, ...content,
  },
  ...over,
});

const api = signedInWithApiFake('ana@example.com', 'org_7');

describe('Words and topics', () => {
  test('each term links to its reviews in the inbox: the same app, the days it was counted in, the term as the search', async () => {
    await api.start([route('GET', `${BASE}/terms`, driftedOk(terms))]);
    render(<TermsPanel appKey={KEY} from="2026-03-11" to="2026-03-20" />);
    const drain = await screen.findByRole('link', { name: 'battery drain' });
    expect(drain.getAttribute('href')).toBe(`/dashboard/reviews?app=${encodeURIComponent(KEY)}&q=%22battery+drain%22&from=2026-03-11&to=2026-03-20`);
    // A falling term's reviews are in the previous period.
    expect(screen.getByRole('link', { name: 'offline mode' }).getAttribute('href')).toContain('from=2026-03-01&to=2026-03-10');
    expect(screen.getByText('15 reviews (38 %), 0 (0 %) before')).toBeTruthy();
    const asked = api.fake!.requests.filter(notPreflight).find((r) => r.path === `${BASE}/terms`)!;
    expect(asked.query.get('from')).toBe('2026-03-11');
  });

  test('a plan without trends: the server’s words and an Upgrade link', async () => {
    await api.start([route('GET', `${BASE}/terms`, fail(402, 'plan_limit', 'Your Free plan does not include rating and sentiment trends.'))]);
    render(<TermsPanel appKey={KEY} />);
    expect((await screen.findByRole('alert')).textContent).toContain('does not include rating and sentiment trends');
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/dashboard/billing');
  });
});

describe('Summary', () => {
  test('an extractive summary, labelled, its quotes opening their reviews', async () => {
    await api.start([route('POST', `${BASE}/reviews/summary`, driftedOk(summary())), route('GET', `${BASE}/reviews/summary/sum_000000000000000000000001`, driftedOk(summary()))]);
    const { user } = render(<SummaryPanel appKey={KEY} period={{ from: '2026-03-11', to: '2026-03-20' }} />);
    await user.click(screen.getByRole('button', { name: 'Summarise these days' }));
    expect(await screen.findByText('extractive summary')).toBeTruthy();
    expect(screen.getByText(/No language model is configured/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'review 11' }).getAttribute('href')).toBe('/dashboard/reviews?review=11');
    const posted = api.fake!.requests.filter(notPreflight).find((r) => r.method === 'POST')!;
    expect(JSON.parse(posted.body)).toEqual({ from: '2026-03-11', to: '2026-03-20' });
  });

  test('an AI summary is asked for again until written, then shows its themes with counts and cited quotes', async () => {
    let gets = 0;
    const pending = summary({ status: 'pending', method: 'llm', label: 'summary in progress', note: null, citations: [] });
    const done = summary(
      { method: 'llm', label: 'AI summary', note: null },
      { overview: 'Battery complaints arrived with 2.0.', read: 40, themes: [{ title: 'Battery drain', summary: 'It empties fast.', reviews: 15, review_ids: ['11'], quotes: [quote] }] },
    );
    await api.start([
      route('POST', `${BASE}/reviews/summary`, driftedOk(pending)),
      route('GET', `${BASE}/reviews/summary/sum_000000000000000000000001`, (req, res) => ok(++gets < 2 ? pending : done)(req, res)),
    ]);
    const { user } = render(<SummaryPanel appKey={KEY} period={{ from: '2026-03-11', to: '2026-03-20' }} />);
    await user.click(screen.getByRole('button', { name: 'Summarise these days' }));
    expect(await screen.findByText('A language model is writing the summary…')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('AI summary')).toBeTruthy(), { timeout: 8000 });
    expect(screen.getByText(/15 of 40 reviews read/)).toBeTruthy();
    expect(screen.getByText('Battery complaints arrived with 2.0.')).toBeTruthy();
  }, 15_000);
});
