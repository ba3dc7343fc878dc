/**
 * The stores' official APIs for the end-to-end run: App Store Connect and the Google Play Developer API (with Google's
 * token endpoint) on one loopback host, and control routes that give a test an app of its own with a review and the
 * credentials to read and answer it:
 *
 *   POST /__control/store-apis/ios?title=…   body { body, author } → { app_id, title, review_id, credentials }
 *   POST /__control/store-apis/play?title=…  body { body, author } → { app_id, title, review_id, credentials }
 *   POST /__control/store-apis/ios-review?app_id=…   body { body, author, rating, title? } → { review_id }   a new review, now
 *   GET  /__control/store-apis/replies                                → { app_store: [...], play: [...] } posts received
 *
 * `credentials` is the body of PUT v1/org/apps/{appKey}/credentials.
 */
import { json, startFakeServer, type FakeHandler } from '../../fakes/http';
import { appStoreConnectRoutes, createAppStoreConnect, createAppStoreConnectKey } from '../../fakes/appStoreConnect';
import { androidPublisherRoutes, createAndroidPublisher, createServiceAccount } from '../../fakes/androidPublisher';
import { itunesApp, playApp, type DemoCatalog } from '../../fixtures/catalog';

export type StoreApiFakes = { env: Record<string, string>; control: FakeHandler; close(): Promise<void> };

let nextTrackId = 6_600_000_000;
let nextPackage = 0;

export async function startStoreApiFakes(catalog: DemoCatalog): Promise<StoreApiFakes> {
  const asc = createAppStoreConnect([]);
  const play = createAndroidPublisher([]);
  const server = await startFakeServer([appStoreConnectRoutes(asc), androidPublisherRoutes(play)]);

  const control: FakeHandler = async (req, res) => {
    if (!req.path.startsWith('/__control/store-apis/')) return false;
    const what = req.path.slice('/__control/store-apis/'.length);
    const body = JSON.parse(req.body || '{}') as { body?: string; author?: string; rating?: number; title?: string };
    if (req.method === 'POST' && what === 'ios') {
      const trackId = nextTrackId++;
      const title = req.query.get('title') ?? `E2E Reply App ${trackId}`;
      catalog.itunes.push(itunesApp({ trackId, trackName: title, artistName: 'E2E Studio' }));
      const key = await createAppStoreConnectKey({ role: 'CUSTOMER_SUPPORT' });
      asc.keys.push(key);
      asc.addApp(String(trackId));
      const review = asc.publish(String(trackId), { body: body.body, reviewerNickname: body.author, rating: 2, title: 'Needs work' });
      const credentials = { kind: 'app_store_connect', issuer_id: key.issuerId, key_id: key.keyId, private_key: key.privateKeyPem };
      return json(res, 200, { app_id: String(trackId), title, review_id: review.id, credentials }), true;
    }
    if (req.method === 'POST' && what === 'play') {
      const appId = `com.arbe2e.replies${++nextPackage}x${Date.now().toString(36)}`;
      const title = req.query.get('title') ?? `E2E Reply Android ${nextPackage}`;
      catalog.play.push(playApp({ appId, title }));
      const account = await createServiceAccount(`arb-e2e-${nextPackage}`);
      play.accounts.push(account);
      play.addApp(account, appId);
      const review = play.publish(account, appId, { body: body.body, authorName: body.author, starRating: 3, lastModified: new Date(Date.now() - 60_000) });
      return json(res, 200, { app_id: appId, title, review_id: review.reviewId, credentials: { kind: 'google_play', service_account_json: account.json } }), true;
    }
    if (req.method === 'POST' && what === 'ios-review') {
      const appId = req.query.get('app_id') ?? '';
      if (!asc.reviews(appId).length) return json(res, 404, { error: `no App Store Connect app ${appId} (make it with POST ios first)` }), true;
      const review = asc.publish(appId, { body: body.body, reviewerNickname: body.author, rating: body.rating ?? 1, title: body.title ?? null });
      return json(res, 200, { review_id: review.id }), true;
    }
    if (req.method === 'GET' && what === 'replies') {
      return json(res, 200, { app_store: asc.responsePosts, play: play.replyPosts }), true;
    }
    return json(res, 404, { error: `no control route ${req.method} ${req.path}` }), true;
  };

  return {
    env: { APPSTORE_CONNECT_BASE_URL: server.url, ANDROID_PUBLISHER_BASE_URL: server.url, GOOGLE_OAUTH_TOKEN_URL: `${server.url}/token` },
    control,
    close: () => server.close(),
  };
}

type StoreApp = { app_id: string; title: string; review_id: string; credentials: Record<string, string> };

/** The tests' side of the routes above. */
export class StoreApiControl {
  constructor(private readonly url: string) {}

  private async send<T>(method: 'GET' | 'POST', path: string, params: Record<string, string> = {}, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}/__control/store-apis/${path}?${new URLSearchParams(params)}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = (await res.json()) as T & { error?: string };
    if (!res.ok) throw new Error(`control store-apis/${path}: ${answer.error ?? res.status}`);
    return answer;
  }

  iosApp(title: string, review: { body: string; author: string }): Promise<StoreApp> {
    return this.send('POST', 'ios', { title }, review);
  }

  /** A review written now on an app made by `iosApp` (the next poll of its official source finds it). */
  iosReview(appId: string, review: { body: string; author: string; rating: number; title?: string }): Promise<{ review_id: string }> {
    return this.send('POST', 'ios-review', { app_id: appId }, review);
  }

  playApp(title: string, review: { body: string; author: string }): Promise<StoreApp> {
    return this.send('POST', 'play', { title }, review);
  }

  replies(): Promise<{ app_store: Array<{ reviewId: string; responseBody: string }>; play: Array<{ packageName: string; reviewId: string; replyText: string }> }> {
    return this.send('GET', 'replies');
  }
}
