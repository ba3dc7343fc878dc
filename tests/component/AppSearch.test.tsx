import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { notPreflight, ok, route, startApiFake, type ApiFake } from './support/apiFake';
import { json, type RecordedRequest } from '@/tests/fakes/http';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import SearchHero from '@/components/search/SearchHero';
import { useConnectionStore } from '@/stores/connection';

const APPLE = [
  { app_id: '324684580', app_store: 'apple_app_store', title: 'Spotify: Music and Podcasts', developer: 'Spotify', icon: 'https://icons.example/spotify.png' },
  { app_id: '1017492454', app_store: 'apple_app_store', title: 'Spot Hero', developer: 'SpotHero' },
];
const GOOGLE = [{ app_id: 'com.spotify.music', app_store: 'google_play_store', title: 'Spotify: Music and Podcasts', developer: 'Spotify AB' }];

const isSearch = (r: RecordedRequest) => notPreflight(r) && r.path === '/api/search';
const searchBody = (r: RecordedRequest) => JSON.parse(r.body) as { query: string; country: string; app_store: string };

let fake: ApiFake;
let aborted: string[];

// The page downloads the search code (React Query, the HTTP client) with the first search; here that code is
// compiled once up front, so the timings below measure the search and not the test runner's first compile.
beforeAll(async () => {
  await Promise.all([import('@/components/search/LiveSearch'), import('@/components/search/LinkedApp'), import('@/lib/api/apps')]);
}, 60_000);

beforeEach(async () => {
  resetStores();
  aborted = [];
  fake = await startApiFake([
    route('POST', '/api/search', (req, res) => {
      const { query, app_store } = searchBody(req);
      if (query.startsWith('slow')) {
        // Never answers: the test expects the browser to give up on it.
        res.on('close', () => aborted.push(`${query}/${app_store}`));
        return new Promise<void>(() => undefined);
      }
      if (query === 'broken') return json(res, 502, { error: { code: 'upstream', message: 'The store did not answer.' } });
      if (query === 'spotplay' && app_store === 'google_play_store') return json(res, 502, { error: { code: 'upstream', message: 'Google Play did not answer.' } });
      return json(res, 200, { data: app_store === 'apple_app_store' ? APPLE : GOOGLE });
    }),
    route('GET', '/api/v1/apps/event', ok({ ok: true })),
    route('GET', '/api/v1/public/app-details', (req, res) =>
      req.query.get('app_id') === '324684580'
        ? json(res, 200, { data: { app_id: '324684580', app_store: 'apple_app_store', title: 'Spotify: Music and Podcasts', developer: 'Spotify' } })
        : json(res, 404, { error: { code: 'not_found', message: 'No such app.' } }),
    ),
  ]);
  vi.stubEnv('NEXT_PUBLIC_SEARCH_BASE', fake.apiBase);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  fake.restore();
  await fake.close();
});

/** Waits for the results; generous, since a busy machine running many test files at once is slow to answer. */
const resultsList = () => screen.findByRole('listbox', { name: 'Apps found' }, { timeout: 5000 });

const hero = <SearchHero heading="Every new review in your team chat" lead="ARB posts reviews." source="home" />;

describe('home search', () => {
  test('is a searchbox named "Search your app"', () => {
    render(hero);
    expect(screen.getByRole('searchbox', { name: 'Search your app' })).toBeInTheDocument();
  });

  test('typing is debounced: one search per store for the whole word, both stores, country us', async () => {
    const { user } = render(hero);
    await user.type(screen.getByRole('searchbox', { name: 'Search your app' }), 'spotify');
    expect(await resultsList()).toBeInTheDocument();
    const requests = fake.requests.filter(isSearch).map(searchBody);
    expect(requests).toHaveLength(2);
    expect(requests).toEqual(
      expect.arrayContaining([
        { query: 'spotify', country: 'us', app_store: 'apple_app_store' },
        { query: 'spotify', country: 'us', app_store: 'google_play_store' },
      ]),
    );
  });

  test('a new query aborts the request of the previous one', async () => {
    const { user } = render(hero);
    const box = screen.getByRole('searchbox', { name: 'Search your app' });
    await user.type(box, 'slow');
    await fake.waitForRequests(2, isSearch);
    await user.clear(box);
    await user.type(box, 'spot');
    expect(await resultsList()).toBeInTheDocument();
    await waitFor(() => expect(aborted.sort()).toEqual(['slow/apple_app_store', 'slow/google_play_store']));
  });

  test('results show icon, title, developer and store, both stores interleaved', async () => {
    const { user } = render(hero);
    await user.type(screen.getByRole('searchbox', { name: 'Search your app' }), 'spot');
    const options = within(await resultsList()).getAllByRole('option');
    expect(options).toHaveLength(3);
    expect(options[0]).toHaveTextContent(/^Spotify: Music and Podcasts\s*Spotify\s*App Store$/);
    expect(options[1]).toHaveTextContent(/Spotify: Music and Podcasts\s*Spotify AB\s*Google Play$/);
    expect(options[2]).toHaveTextContent(/Spot Hero\s*SpotHero\s*App Store$/);
    expect(options[0].querySelector('img')).toHaveAttribute('src', 'https://icons.example/spotify.png');
    expect(screen.getByRole('status')).toHaveTextContent('3 apps found');
  });

  test('arrow keys and Enter choose an app: stored, app_selected sent, shown as selected', async () => {
    const { user } = render(hero);
    const box = screen.getByRole('searchbox', { name: 'Search your app' });
    await user.type(box, 'spot');
    await resultsList();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    const second = screen.getAllByRole('option')[1];
    expect(second).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', second.id);
    await user.keyboard('{Enter}');
    expect(useConnectionStore.getState().selectedAppDetails).toMatchObject({ id: 'com.spotify.music', store: 'google_play_store', title: 'Spotify: Music and Podcasts' });
    expect(box).toHaveValue('Spotify: Music and Podcasts');
    expect(screen.queryByRole('listbox')).toBeNull();
    const card = screen.getByRole('region', { name: 'Selected app' });
    expect(card).toHaveTextContent('Spotify AB · Google Play');
    const [event] = await fake.waitForRequests(1, (r) => r.path === '/api/v1/apps/event');
    expect(Object.fromEntries(event.query)).toEqual({ event: 'app_selected', app_id: 'com.spotify.music', app_store: 'google_play_store' });
  });

  test('a click chooses too, and Escape closes the list', async () => {
    const { user } = render(hero);
    const box = screen.getByRole('searchbox', { name: 'Search your app' });
    await user.type(box, 'spot');
    await resultsList();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.type(box, 'i');
    await user.click(within(await resultsList()).getByText('Spot Hero'));
    expect(useConnectionStore.getState().selectedAppDetails?.title).toBe('Spot Hero');
    await fake.waitForRequests(1, (r) => r.path === '/api/v1/apps/event');
  });

  test('a failing Google Play search says so under the App Store results', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = render(hero);
    await user.type(screen.getByRole('searchbox', { name: 'Search your app' }), 'spotplay');
    const options = within(await resultsList()).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([expect.stringMatching(/App Store$/), expect.stringMatching(/App Store$/)]);
    const note = await screen.findByText('Google Play search failed, so its apps are missing here. Try again in a moment.', { selector: 'p' });
    expect(screen.getByRole('listbox').compareDocumentPosition(note) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('status')).toHaveTextContent('2 apps found. Use the arrow keys to choose. Google Play search failed');
    consoleError.mockRestore();
  });

  test('an icon that fails to load falls back to the app’s initial', async () => {
    const { user } = render(hero);
    await user.type(screen.getByRole('searchbox', { name: 'Search your app' }), 'spot');
    const first = within(await resultsList()).getAllByRole('option')[0];
    const img = first.querySelector('img')!;
    expect(img).toHaveAttribute('src', 'https://icons.example/spotify.png');
    fireEvent.error(img);
    await waitFor(() => expect(first.querySelector('img')).toBeNull());
    expect(first.querySelector('[aria-hidden="true"]')).toHaveTextContent(/^S$/);
    expect(first).toHaveTextContent(/Spotify: Music and Podcasts/);
  });

  test('a failed search says so instead of "no apps"', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = render(hero);
    await user.type(screen.getByRole('searchbox', { name: 'Search your app' }), 'broken');
    expect(await screen.findByText('Search is not available right now. Please try again in a moment.', { selector: 'p' }, { timeout: 5000 })).toBeInTheDocument();
    consoleError.mockRestore();
  });
});

describe('app from the link', () => {
  test('with app_id and app_store the app is fetched, selected, the banner shown and the search text set', async () => {
    render(hero, { url: '/?app_id=324684580&app_store=apple_app_store' });
    const box = screen.getByRole('searchbox', { name: 'Search your app' });
    await waitFor(() => expect(box).toHaveValue('Spotify: Music and Podcasts'));
    expect(useConnectionStore.getState()).toMatchObject({
      selectedAppDetails: { id: '324684580', store: 'apple_app_store', title: 'Spotify: Music and Podcasts' },
      showSignupBanner: true,
    });
    const banner = screen.getByRole('complementary', { name: 'Sign up' });
    expect(within(banner).getByRole('link', { name: 'Sign up free' })).toHaveAttribute(
      'href',
      `/login?redirect_to=${encodeURIComponent('/?app_id=324684580&app_store=apple_app_store')}`,
    );
    expect(fake.requests.filter(isSearch)).toHaveLength(0);
    await fake.waitForRequests(1, (r) => r.path === '/api/v1/apps/event');
  });

  test('an app already selected is kept', async () => {
    useConnectionStore.setState({ selectedAppDetails: { id: 'x', store: 'google_play_store', title: 'Chosen' } });
    render(hero, { url: '/?app_id=324684580&app_store=apple_app_store' });
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.requests.filter((r) => r.path === '/api/v1/public/app-details')).toHaveLength(0);
    expect(useConnectionStore.getState().selectedAppDetails?.title).toBe('Chosen');
  });

  test('an unknown store or a missing app changes nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { unmount } = render(hero, { url: '/?app_id=1&app_store=amazon' });
    unmount();
    render(hero, { url: '/?app_id=999&app_store=apple_app_store' });
    await fake.waitForRequests(1, (r) => r.path === '/api/v1/public/app-details');
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(useConnectionStore.getState().selectedAppDetails).toBeNull();
    expect(fake.requests.filter((r) => r.path === '/api/v1/public/app-details')).toHaveLength(1);
    warn.mockRestore();
  });
});
