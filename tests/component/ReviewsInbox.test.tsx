/**
 * /dashboard/reviews, the triage inbox, against a loopback API: a compact row per review with the count of the view
 * over them and the search words marked; the keyboard (j/k move the current review, e marks it done, ? lists the keys,
 * keys typed into a field stay there); two selected reviews tagged at once from the bulk bar. Everything the page and
 * the current review's detail ask for is answered in the API's shapes; a request nobody answers fails the test.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { afterEach, describe, expect, test } from 'vitest';
import { json, type FakeHandler } from '@/tests/fakes/http';
import { notPreflight, ok, route } from './support/apiFake';
import { member, org, orgApp } from './support/answers';
import { signedInWithApiFake } from './support/signedIn';
import { render } from '@/tests/helpers/render';
import ReviewsPage from '@/components/dashboard/reviews/ReviewsPage';
import { INBOX_KEYS } from '@/components/dashboard/reviews/queue';
import type { ApiData } from '@/lib/api/openapi';
import type { paths } from '@/lib/api/schema';
import { ZENDESK_TRIGGER_BODY, ZENDESK_TRIGGER_NAME } from '@/shared/zendesk';

const api = signedInWithApiFake();

type InboxAnswer = paths['/api/v1/org/reviews']['get']['responses'][200]['content']['application/json'];
type InboxReview = InboxAnswer['data'][number];
type Detail = ApiData<'/api/v1/org/reviews/{id}', 'get'>;

const APP = orgApp({ app_id: 'com.example.garden', app_store: 'google_play_store', title: 'Pocket Garden' });
const billing = { id: 'tag_aaaaaaaaaaaaaaaaaaaaaaaa', name: 'billing', color: '#dc2626' };
const bugs = { id: 'tag_bbbbbbbbbbbbbbbbbbbbbbbb', name: 'bugs', color: '#2563eb' };
const ana = member('usr_ana', 'ana@example.com', 'owner', true);

function review(id: string, over: Partial<InboxReview>): InboxReview {
  return {
    id,
    app_key: APP.key,
    app_id: APP.app_id,
    app_store: APP.app_store,
    title: APP.title,
    author_display_name: 'Someone',
    content_title: null,
    content_body: '',
    content_rating: 3,
    content_updated_at: '2030-01-02T09:00:00.000Z',
    written_at: '2030-01-02T09:00:00.000Z',
    reply_text: null,
    replied_at: null,
    reply_state: 'none',
    reply: null,
    country: 'us',
    language: 'en',
    store_permalink: `https://play.google.com/store/apps/details?id=${APP.app_id}&reviewId=${id}`,
    sentiment: null,
    version: '2.4.1',
    edited: false,
    previous_rating: null,
    tags: [],
    status: 'new',
    status_reason: null,
    assignee: null,
    notes_count: 0,
    ticket: null,
    ...over,
  };
}

const REVIEWS: InboxReview[] = [
  review('101', { author_display_name: 'Rin', content_rating: 1, content_title: 'Charged twice', content_body: 'I want a refund for the second charge.', tags: [billing] }),
  review('102', {
    author_display_name: 'Ola',
    content_rating: 2,
    content_body: 'Refund please, the app crashes on start.',
    status: 'needs_reply',
    status_reason: 'edited after your reply',
    assignee: { id: ana.id, email: ana.email },
    notes_count: 1,
    tags: [bugs],
  }),
  review('103', { author_display_name: 'Kim', content_rating: 5, content_title: 'Lovely', content_body: 'My garden grows every day.', status: 'done' }),
  review('104', { author_display_name: 'Lee', content_rating: 3, content_body: 'Refunded? No, but support answered fast.' }),
];

const detailOf = (r: InboxReview): Detail => ({
  ...r,
  notes: r.notes_count ? [{ id: 'note_1', text: 'Asked billing to look.', by: ana.email, by_user_id: ana.id, created_at: '2030-01-02T10:00:00.000Z' }] : [],
  history: [],
});

const zendeskOff: ApiData<'/api/v1/org/integrations/zendesk', 'get'> = {
  connected: false,
  subdomain: null,
  email: null,
  user_name: null,
  connected_at: null,
  webhook_url: null,
  signing_secret_set: false,
  signing_secret: null,
  last_event_at: null,
  trigger: { name: ZENDESK_TRIGGER_NAME, body: ZENDESK_TRIGGER_BODY },
};

/** What the inbox's frame asks for besides the reviews: the apps, tags, members, the organisation and Zendesk. */
const frame = (): FakeHandler[] => [
  route('GET', '/api/v1/org/apps', ok([APP])),
  route('GET', '/api/v1/org/tags', ok([billing, bugs].map((t) => ({ ...t, reviews: 1, created_at: '2030-01-01T00:00:00.000Z' })))),
  route('GET', '/api/v1/org/members', ok([ana])),
  route('GET', '/api/v1/org', ok(org('owner'))),
  route('GET', '/api/v1/org/integrations/zendesk', ok(zendeskOff)),
];

/**
 * The reviews as a store the fake keeps: GET lists them (one page, with these counts), GET and PATCH one answer it
 * whole (a PATCH's status kept).
 */
function inbox(reviews: InboxReview[], counts: Pick<InboxAnswer, 'has_more' | 'next_cursor' | 'total' | 'total_is_estimate'>): FakeHandler {
  const byId = new Map(reviews.map((r) => [r.id, r]));
  return (req, res) => {
    if (req.method === 'GET' && req.path === '/api/v1/org/reviews') {
      const page: InboxAnswer = { data: [...byId.values()], ...counts };
      json(res, 200, page);
      return true;
    }
    const one = /^\/api\/v1\/org\/reviews\/(\d+)$/.exec(req.path);
    const r = one ? byId.get(one[1]) : undefined;
    if (!r || (req.method !== 'GET' && req.method !== 'PATCH')) return false;
    if (req.method === 'PATCH') {
      const change = JSON.parse(req.body) as { status?: InboxReview['status'] };
      if (change.status) byId.set(r.id, { ...r, status: change.status, status_reason: null });
    }
    json(res, 200, { data: detailOf(byId.get(r.id)!) });
    return true;
  };
}

/** Requests no handler answered, kept to fail the test (the page would have shown an error for them). */
let unanswered: string[] = [];
const noOneElse: FakeHandler = (req, res) => {
  unanswered.push(`${req.method} ${req.path}`);
  json(res, 404, { error: { code: 'not_found', message: `nothing answers ${req.method} ${req.path} here` } });
  return true;
};
afterEach(() => {
  expect(unanswered).toEqual([]);
  unanswered = [];
});

const sent = (method: string, path: string) => api.fake!.requests.filter(notPreflight).filter((r) => r.method === method && r.path === path);

async function openInbox(url = '/dashboard/reviews', counts: Parameters<typeof inbox>[1] = { has_more: false, next_cursor: null, total: REVIEWS.length, total_is_estimate: false }, reviews = REVIEWS) {
  await api.start([...frame(), inbox(reviews, counts), route('POST', '/api/v1/org/reviews/bulk', ok({ reviews: 2, changed: 2 })), noOneElse]);
  const rendered = render(
    <>
      <ReviewsPage />
      <Toaster />
    </>,
    { url, pathname: '/dashboard/reviews' },
  );
  const list = await screen.findByRole('region', { name: 'Reviews' });
  await within(list).findAllByRole('listitem');
  return { ...rendered, list };
}

/** The row of the review by this author. */
const rowOf = (list: HTMLElement, author: string) => within(list).getAllByRole('listitem').find((li) => li.textContent?.includes(`${author} · `))!;
const press = (key: string, target: Element = document.activeElement ?? document.body) => fireEvent.keyDown(target, { key });

describe('/dashboard/reviews', () => {
  test('a compact row per review: stars, status, text, tags, author and app; the count over them; the search words marked', async () => {
    const { list } = await openInbox('/dashboard/reviews?q=refund');
    expect(sent('GET', '/api/v1/org/reviews')[0].query.get('q')).toBe('refund');
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    expect(await screen.findByText('4 reviews')).toHaveAttribute('role', 'status');

    const rin = rowOf(list, 'Rin');
    expect(within(rin).getByRole('img', { name: '1 out of 5 stars' })).toBeInTheDocument();
    expect(rin).toHaveTextContent('New');
    expect(rin).toHaveTextContent('Charged twice I want a refund for the second charge.');
    expect(rin).toHaveTextContent('billing');
    expect(rin).toHaveTextContent('Rin · Pocket Garden ·');
    expect(rowOf(list, 'Ola')).toHaveTextContent('Needs reply');
    expect(rowOf(list, 'Kim')).toHaveTextContent('Done');

    // The server's search is by whole words, any case: "Refund" is marked, "Refunded" is not.
    expect([...rin.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['refund']);
    expect([...rowOf(list, 'Ola').querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Refund']);
    expect(rowOf(list, 'Lee').querySelector('mark')).toBeNull();
    expect(rowOf(list, 'Kim').querySelector('mark')).toBeNull();

    // The first review is the current one, shown whole beside the list with its queue and its notes.
    expect(within(list).getByRole('button', { current: true })).toHaveTextContent('Charged twice');
    const detail = screen.getByRole('region', { name: 'Review details' });
    expect(within(detail).getByRole('article', { name: '1-star review by Rin' })).toBeInTheDocument();
    expect(within(detail).getByLabelText('Status')).toHaveValue('new');
    expect(await within(detail).findByText('No notes yet.')).toBeInTheDocument();
  });

  test.each([
    ['one review', { has_more: false, next_cursor: null, total: 1, total_is_estimate: false }, REVIEWS.slice(0, 1), '1 review'],
    ['beyond the cap of the count', { has_more: true, next_cursor: 'cur_2', total: 1001, total_is_estimate: true }, REVIEWS, '1,000+ reviews'],
  ] as const)('the count line: %s', async (_, counts, reviews, words) => {
    await openInbox('/dashboard/reviews', counts, [...reviews]);
    expect(await screen.findByText(words)).toHaveAttribute('role', 'status');
  });

  test('keys: j and k move the current review, e marks it done (PATCH), ? lists every key; keys typed in a field stay there', async () => {
    const { list } = await openInbox();
    const current = () => within(list).getByRole('button', { current: true });
    expect(current()).toHaveTextContent('Charged twice');

    press('j');
    expect(current()).toHaveTextContent('Refund please');
    expect(current()).toHaveFocus();
    press('j');
    expect(current()).toHaveTextContent('My garden grows');
    press('k');
    expect(current()).toHaveTextContent('Refund please');
    // The detail follows: Ola's review, her status's reason and her note.
    const detail = screen.getByRole('region', { name: 'Review details' });
    expect(within(detail).getByRole('article', { name: '2-star review by Ola' })).toBeInTheDocument();
    expect(within(detail).getByText('Edited after your reply')).toBeInTheDocument();
    expect(await within(detail).findByText('Asked billing to look.')).toBeInTheDocument();

    // Typing in the search box or a note is typing, not moving.
    const search = await screen.findByRole('searchbox', { name: 'Search reviews' });
    press('j', search);
    press('e', search);
    press('j', within(detail).getByLabelText('Add a note'));
    expect(current()).toHaveTextContent('Refund please');
    expect(sent('PATCH', '/api/v1/org/reviews/102')).toHaveLength(0);

    press('e', current());
    const [patch] = await api.fake!.waitForRequests(1, (r) => r.method === 'PATCH');
    expect(patch.path).toBe('/api/v1/org/reviews/102');
    expect(JSON.parse(patch.body)).toEqual({ status: 'done' });
    expect(current()).toHaveTextContent('My garden grows');
    expect(await screen.findByText('Marked done')).toBeInTheDocument();
    await waitFor(() => expect(rowOf(list, 'Ola')).toHaveTextContent('Done'));

    press('?', current());
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const k of INBOX_KEYS) {
      const entry = within(help).getByText(k.what).closest('div')!;
      expect([...entry.querySelectorAll('kbd')].map((kbd) => kbd.textContent)).toEqual(k.keys);
    }
    expect(within(help).getAllByRole('definition')).toHaveLength(INBOX_KEYS.length);
    // The dialog has the keyboard while it is open.
    press('j', help);
    expect(current()).toHaveTextContent('My garden grows');
    fireEvent.keyDown(help, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
  });

  test('two selected: the bulk bar says so, and a tag chosen there goes to both in one request', async () => {
    const { list, user } = await openInbox();
    expect(screen.queryByRole('group', { name: 'Bulk actions' })).toBeNull();
    await user.click(within(list).getByRole('checkbox', { name: 'Select the review by Rin' }));
    await user.click(within(list).getByRole('checkbox', { name: 'Select the review by Kim' }));
    const bulk = screen.getByRole('group', { name: 'Bulk actions' });
    expect(bulk).toHaveTextContent('2 selected');

    await user.selectOptions(within(bulk).getByLabelText('Add tag'), 'bugs');
    const [post] = await api.fake!.waitForRequests(1, (r) => r.method === 'POST' && r.path === '/api/v1/org/reviews/bulk');
    expect(JSON.parse(post.body)).toEqual({ ids: ['101', '103'], set: { tags_add: [bugs.id] } });
    expect(await screen.findByText('2 reviews changed')).toBeInTheDocument();

    await user.click(within(bulk).getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('group', { name: 'Bulk actions' })).toBeNull();
  });
});
