// An app's words and summary on its dashboard page, against a loopback API: each term links to its reviews in the
// inbox (same app, same days, the term as the search), a plan without the feature says so with an Upgrade link, and a
// summary asked for is shown with its label — extractive at once, or an AI summary asked for again until written.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import SummaryPanel from '@/components/dashboard/insights/SummaryPanel';
import TermsPanel from '@/components/dashboard/insights/TermsPanel';
import { render } from '@/tests/helpers/render';
import { fail, notPreflight, ok, route } from './support/apiFake';
import { signedInWithApiFake } from './support/signedIn';
import type { ApiData } from '@/lib/api/openapi';

const KEY = 'apple_app_store__284882215';
const BASE = `/api/v1/org/apps/${KEY}`;

type Term = ApiData<'/api/v1/org/apps/{appKey}/terms', 'get'>['top'][number];
type Summary = ApiData<'/api/v1/org/apps/{appKey}/reviews/summary', 'post'>;
const term = (t: string, reviews: number, previous: number, more: Partial<Term> = {}): Term => ({
  term: t, key: t, kind: t.includes(' ') ? 'phrase' : 'word', forms: [t], reviews, share: reviews / 40, previous_reviews: previous, previous_share: previous / 40, z: 3, p_value: 0.001,
  low_reviews: 0, low_share: 0, sentiment: { positive: 0, neutral: 0, negative: 0, mixed: 0 }, review_ids: ['11'], search: t.includes(' ') ? `"${t}"` : t, ...more,
});
const crashes = term('crashes', 12, 2, {
  key: 'crash', forms: ['crashes', 'crash', 'crashing'], search: 'crashes or crash or crashing', low_reviews: 12, low_share: 1, sentiment: { positive: 0, neutral: 0, negative: 11, mixed: 1 },
});
const terms = {
  app: { key: KEY, title: 'Lantern', store: 'apple_app_store' },
  from: '2026-03-11', to: '2026-03-20', reviews: 40, capped: false,
  previous: { from: '2026-03-01', to: '2026-03-10', reviews: 40, capped: false },
  rising: [term('battery drain', 15, 0), crashes], falling: [term('offline mode', 0, 20)], critical: [crashes], top: [term('music selection', 25, 20)],
};

const figures = (reviews: number, average: number): Summary['content']['figures'] => ({ reviews, average_rating: average, distribution: [1, 2, 3, 4, 5].map((rating) => ({ rating, reviews: 0 })), positive: 0, neutral: 0, negative: 0, mixed: 0, unclassified: reviews });
const quote = { review_id: '11', rating: 1, text: 'Battery drain since the last update', version: '2.0', why: 'uses “battery drain”, rising' };
const summary = (over: Partial<Summary> = {}, content: Partial<Summary['content']> = {}): Summary => ({
  id: 'sum_000000000000000000000001', app_key: KEY, status: 'ready', method: 'extractive', label: 'extractive summary', from: '2026-03-11', to: '2026-03-20',
  text: '…', citations: ['11'], note: 'AI answers aren’t enabled on this server, so this summary is made of the reviews’ own figures and sentences.', created_at: new Date().toISOString(), completed_at: null,
  content: {
    previous: { from: '2026-03-01', to: '2026-03-10' }, figures: figures(40, 2.88), previous_figures: figures(40, 4.5), rating_change: -1.62, versions: [],
    terms: { rising: [term('battery drain', 15, 0)], falling: [], top: [] }, quotes: [quote], overview: null, changes: null, themes: [], read: null, ...content,
  },
  ...over,
});

const api = signedInWithApiFake('ana@example.com', 'org_7');

describe('Words and topics', () => {
  test('each term links to its reviews in the inbox: the same app, the days it was counted in, the term as the search', async () => {
    await api.start([route('GET', `${BASE}/terms`, ok(terms))]);
    render(<TermsPanel appKey={KEY} from="2026-03-11" to="2026-03-20" />);
    const drain = await screen.findByRole('link', { name: 'battery drain' });
    expect(drain.getAttribute('href')).toBe(`/dashboard/reviews?app=${encodeURIComponent(KEY)}&q=%22battery+drain%22&from=2026-03-11&to=2026-03-20`);
    // A falling term's reviews are in the previous period.
    expect(screen.getByRole('link', { name: 'offline mode' }).getAttribute('href')).toContain('from=2026-03-01&to=2026-03-10');
    expect(screen.getByText('15 reviews (38 %), 0 (0 %) before')).toBeTruthy();
    // A word's forms are one term, searched together; critical terms say how many of their reviews are 1–2★, and every
    // term the sentiment of its reviews.
    const critical = screen.getByRole('region', { name: 'Critical' });
    const crash = within(critical).getByRole('link', { name: 'crashes' });
    expect(crash.getAttribute('href')).toBe(`/dashboard/reviews?app=${encodeURIComponent(KEY)}&q=crashes+or+crash+or+crashing&from=2026-03-11&to=2026-03-20`);
    expect(critical.textContent).toContain('12 of its 12 reviews rated 1–2★ · 11 negative, 1 mixed · also “crash”, “crashing”');
    expect(within(screen.getByRole('region', { name: 'Rising' })).getByText(/12 reviews \(30 %\), 2 \(5 %\) before · 11 negative, 1 mixed/)).toBeTruthy();
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
    await api.start([route('POST', `${BASE}/reviews/summary`, ok(summary())), route('GET', `${BASE}/reviews/summary/sum_000000000000000000000001`, ok(summary()))]);
    const { user } = render(<SummaryPanel appKey={KEY} period={{ from: '2026-03-11', to: '2026-03-20' }} />);
    await user.click(screen.getByRole('button', { name: 'Summarise these days' }));
    expect(await screen.findByText('extractive summary')).toBeTruthy();
    expect(screen.getByText(/AI answers aren’t enabled on this server/)).toBeTruthy();
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
      route('POST', `${BASE}/reviews/summary`, ok(pending)),
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
