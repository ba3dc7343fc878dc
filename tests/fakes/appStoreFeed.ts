/**
 * A loopback App Store customer-reviews feed (the RSS feed's JSON variant), with a mutable in-memory store so a test
 * can publish reviews while the app polls, and switches for the feed's real traps:
 *   - a page with exactly one entry carries it as an object, not an array (always, like the real feed);
 *   - `appEntry`: page 1 starts with an entry describing the app itself (`im:name`, `im:image`, …);
 *   - `emptyPageOnce(appId, country, page)`: that page answers without entries the next N times (the intermittent glitch);
 *   - `noEntryDates`: entries carry no `updated` of their own, only the feed has one (Apple's feed in 2018–2020);
 *   - `noFeedDate`: the feed itself carries no `updated` either (with `noEntryDates`: nothing on the page has a date).
 *
 *   const feed = createAppStoreFeed();
 *   const fake = await startFakeServer([appStoreFeedRoutes(feed)]);   // ITUNES_BASE_URL = fake.url
 *   feed.publish('123', 'us', { title: 'Great', content: 'Love it', rating: 5 });
 */
import type { FakeHandler } from './http';
import { json } from './http';

export type FeedReview = {
  id: string;
  title: string;
  content: string;
  author: string;
  rating: number;
  version: string;
  updated: Date;
  voteSum: number;
  voteCount: number;
};

type AppFeed = { name: string; reviews: FeedReview[] };

export type AppStoreFeedStore = {
  /** Adds a review (defaults filled in, `updated` defaults to now) and returns it. */
  publish(appId: string, country: string, review?: Partial<FeedReview>): FeedReview;
  /** Changes a review in place (an edit on the store bumps `updated`). */
  edit(appId: string, country: string, id: string, changes: Partial<Omit<FeedReview, 'id'>>): FeedReview;
  /** The next `times` requests for that page answer a feed without entries. */
  emptyPageOnce(appId: string, country: string, page: number, times?: number): void;
  setAppName(appId: string, country: string, name: string): void;
  reviews(appId: string, country: string): FeedReview[];
  /** The feed document for one page, exactly as the route serves it (consumes a pending empty-page trap). */
  page(appId: string, country: string, page: number): unknown;
  traps: { appEntry: boolean; noEntryDates: boolean; noFeedDate: boolean };
  /** Number of page requests served, by `${appId}/${country}/${page}`. */
  hits: Map<string, number>;
};

let nextId = 11_000_000_000;

/** Apple writes the feed's times in Cupertino local time: 2024-05-01T10:11:12-07:00. */
export function feedTime(date: Date): string {
  return new Date(date.getTime() - 7 * 3600_000).toISOString().slice(0, 19) + '-07:00';
}

export function createAppStoreFeed(options: { appEntry?: boolean; noEntryDates?: boolean } = {}): AppStoreFeedStore {
  const apps = new Map<string, AppFeed>();
  const empties = new Map<string, number>();
  const hits = new Map<string, number>();
  const keyOf = (appId: string, country: string) => `${appId}/${country.toLowerCase()}`;
  const app = (appId: string, country: string) => {
    const key = keyOf(appId, country);
    let feed = apps.get(key);
    if (!feed) {
      feed = { name: `App ${appId}`, reviews: [] };
      apps.set(key, feed);
    }
    return feed;
  };
  const store: AppStoreFeedStore = {
    traps: { appEntry: options.appEntry ?? false, noEntryDates: options.noEntryDates ?? false, noFeedDate: false },
    hits,
    publish(appId, country, review = {}) {
      const full: FeedReview = {
        id: review.id ?? String(nextId++),
        title: review.title ?? 'A review',
        content: review.content ?? 'Works well.',
        author: review.author ?? 'Reviewer',
        rating: review.rating ?? 5,
        version: review.version ?? '1.0.0',
        updated: review.updated ?? new Date(),
        voteSum: review.voteSum ?? 0,
        voteCount: review.voteCount ?? 0,
      };
      app(appId, country).reviews.push(full);
      return full;
    },
    edit(appId, country, id, changes) {
      const review = app(appId, country).reviews.find((r) => r.id === id);
      if (!review) throw new Error(`fake feed: no review ${id}`);
      Object.assign(review, { updated: new Date() }, changes);
      return review;
    },
    emptyPageOnce(appId, country, page, times = 1) {
      empties.set(`${keyOf(appId, country)}/${page}`, times);
    },
    setAppName(appId, country, name) {
      app(appId, country).name = name;
    },
    reviews(appId, country) {
      return [...(apps.get(keyOf(appId, country))?.reviews ?? [])];
    },
    page: pageDocument,
  };

  function pageDocument(appId: string, country: string, page: number): unknown {
    const key = keyOf(appId, country);
    const feed = apps.get(key);
    const sorted = [...(feed?.reviews ?? [])].sort((a, b) => b.updated.getTime() - a.updated.getTime());
    const lastPage = Math.min(10, Math.max(1, Math.ceil(sorted.length / 50)));
    const emptyLeft = empties.get(`${key}/${page}`) ?? 0;
    if (emptyLeft > 0) empties.set(`${key}/${page}`, emptyLeft - 1);
    const entries: unknown[] =
      emptyLeft > 0 ? [] : sorted.slice((page - 1) * 50, page * 50).map((r) => reviewEntry(r, appId, country, store.traps.noEntryDates));
    if (emptyLeft === 0 && page === 1 && store.traps.appEntry && feed) entries.unshift(appEntryOf(appId, country, feed.name));
    return feedDocument(appId, country, page, lastPage, entries, !store.traps.noFeedDate);
  }
  return store;
}

function reviewEntry(r: FeedReview, appId: string, country: string, undated = false) {
  return {
    author: { uri: { label: `https://itunes.apple.com/${country}/reviews/id${900000000 + (Number(r.id) % 1000)}` }, name: { label: r.author }, label: '' },
    // The 2018–2020 feed had no per-entry date; the key is absent, as it was.
    ...(undated ? {} : { updated: { label: feedTime(r.updated) } }),
    'im:rating': { label: String(r.rating) },
    'im:version': { label: r.version },
    id: { label: r.id },
    title: { label: r.title },
    content: { label: r.content, attributes: { type: 'text' } },
    link: { attributes: { rel: 'related', href: `https://itunes.apple.com/${country}/review?id=${appId}&type=Purple%20Software` } },
    'im:voteSum': { label: String(r.voteSum) },
    'im:contentType': { attributes: { term: 'Application', label: 'Application' } },
    'im:voteCount': { label: String(r.voteCount) },
  };
}

function appEntryOf(appId: string, country: string, name: string) {
  const href = `https://apps.apple.com/${country}/app/${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/id${appId}?uo=2`;
  return {
    'im:name': { label: name },
    rights: { label: `© ${name} Inc.` },
    'im:price': { label: 'Get', attributes: { amount: '0.00', currency: 'USD' } },
    'im:image': [
      { label: `https://is1-ssl.mzstatic.com/image/thumb/Purple/v4/${appId}/AppIcon-53x53bb.png`, attributes: { height: '53' } },
      { label: `https://is1-ssl.mzstatic.com/image/thumb/Purple/v4/${appId}/AppIcon-75x75bb.png`, attributes: { height: '75' } },
      { label: `https://is1-ssl.mzstatic.com/image/thumb/Purple/v4/${appId}/AppIcon-100x100bb.png`, attributes: { height: '100' } },
    ],
    'im:artist': { label: `${name} Inc.`, attributes: { href: `https://apps.apple.com/${country}/developer/id${appId}1?uo=2` } },
    title: { label: `${name} - ${name} Inc.` },
    link: { attributes: { rel: 'alternate', type: 'text/html', href } },
    id: { label: href, attributes: { 'im:id': appId, 'im:bundleId': `com.example.${appId}` } },
    'im:contentType': { attributes: { term: 'Application', label: 'Application' } },
    category: { attributes: { 'im:id': '6005', term: 'Social Networking', scheme: `https://apps.apple.com/${country}/genre/id6005?uo=2`, label: 'Social Networking' } },
    'im:releaseDate': { label: '2015-03-10T01:12:41-07:00', attributes: { label: 'March 10, 2015' } },
  };
}

function feedDocument(appId: string, country: string, page: number, lastPage: number, entries: unknown[], dated = true) {
  const pageUrl = (p: number, fmt = 'json') =>
    `https://itunes.apple.com/${country}/rss/customerreviews/page=${p}/id=${appId}/sortby=mostrecent/${fmt}`;
  const feed: Record<string, unknown> = {
    author: { name: { label: 'iTunes Store' }, uri: { label: 'http://www.apple.com/uk/itunes/' } },
    ...(dated ? { updated: { label: feedTime(new Date()) } } : {}),
    rights: { label: 'Copyright 2008 Apple Inc.' },
    title: { label: 'iTunes Store: Customer Reviews' },
    icon: { label: 'http://itunes.apple.com/favicon.ico' },
    link: [
      { attributes: { rel: 'alternate', type: 'text/html', href: `https://apps.apple.com/WebObjects/MZStore.woa/wa/viewGrouping?cc=${country}&id=1000` } },
      { attributes: { rel: 'self', href: pageUrl(page) } },
      { attributes: { rel: 'first', href: `${pageUrl(1, 'xml')}?urlDesc=/customerreviews/id=${appId}/sortby=mostrecent/json` } },
      { attributes: { rel: 'last', href: `${pageUrl(lastPage, 'xml')}?urlDesc=/customerreviews/id=${appId}/sortby=mostrecent/json` } },
      { attributes: { rel: 'previous', href: `${pageUrl(Math.max(1, page - 1), 'xml')}?urlDesc=/customerreviews/id=${appId}/sortby=mostrecent/json` } },
      { attributes: { rel: 'next', href: `${pageUrl(Math.min(lastPage, page + 1), 'xml')}?urlDesc=/customerreviews/id=${appId}/sortby=mostrecent/json` } },
    ],
    id: { label: pageUrl(page) },
  };
  // The real feed's quirks: no `entry` key at all when empty, an object instead of an array for one entry.
  if (entries.length === 1) feed.entry = entries[0];
  else if (entries.length > 1) feed.entry = entries;
  return { feed };
}

const FEED_PATH = /^\/([a-z]{2})\/rss\/customerreviews\/page=(\d+)\/id=(\d+)\/sortby=mostrecent\/json$/;

export function appStoreFeedRoutes(store: AppStoreFeedStore): FakeHandler {
  return (req, res) => {
    const m = FEED_PATH.exec(req.path);
    if (req.method !== 'GET' || !m) return false;
    const [, country, pageText, appId] = m;
    const page = Number(pageText);
    const hitKey = `${appId}/${country}/${page}`;
    store.hits.set(hitKey, (store.hits.get(hitKey) ?? 0) + 1);
    if (page < 1 || page > 10) {
      json(res, 400, { error: 'CustomerReviews RSS page depth is limited to 10' });
      return true;
    }
    json(res, 200, store.page(appId, country, page));
    return true;
  };
}
