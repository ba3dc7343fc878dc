// The stores' reply APIs on loopback, as the reply tests use them: App Store Connect and the Google Play Developer API
// (tests/fakes/) behind one server, the env that points ARB at them, and the org-app calls every reply test makes.
import { expect } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fakes/http';
import { appStoreConnectRoutes, createAppStoreConnect, type AppStoreConnectFake } from '../../fakes/appStoreConnect';
import { androidPublisherRoutes, createAndroidPublisher, createServiceAccount, type AndroidPublisherFake, type ServiceAccountKey } from '../../fakes/androidPublisher';
import { call } from '../../helpers/request';
import type { TestApi } from '../../helpers/api';
import { newIp } from './connectWorld';
import type { SignedInUser } from '../../helpers/orgs';

export type ReplyStores = {
  asc: AppStoreConnectFake;
  play: AndroidPublisherFake;
  /** The Play service account the fake trusts (its JSON key is what an organisation saves as credentials). */
  account: ServiceAccountKey;
  server: FakeServer;
  /** APPSTORE_CONNECT_BASE_URL, ANDROID_PUBLISHER_BASE_URL and GOOGLE_OAUTH_TOKEN_URL, for startConnectWorld. */
  env: Record<string, string>;
};

export async function startReplyStores(serviceAccountName: string): Promise<ReplyStores> {
  const account = await createServiceAccount(serviceAccountName);
  const asc = createAppStoreConnect([]);
  const play = createAndroidPublisher([account]);
  const server = await startFakeServer([appStoreConnectRoutes(asc), androidPublisherRoutes(play)]);
  return { asc, play, account, server, env: { APPSTORE_CONNECT_BASE_URL: server.url, ANDROID_PUBLISHER_BASE_URL: server.url, GOOGLE_OAUTH_TOKEN_URL: `${server.url}/token` } };
}

export type AppRef = { store: 'apple_app_store' | 'google_play_store'; appId: string };

/** A signed-in member's request options, from a new address each time (the sign-in rate limits count by address). */
export const as = (u: SignedInUser) => ({ token: u.token, ip: newIp() });

/** Adds the app to the member's organisation (201) and answers its key. */
export async function addOrgApp(api: TestApi, u: SignedInUser, ref: AppRef): Promise<string> {
  const r = await call<{ key: string }>(api, 'POST', '/api/v1/org/apps', { app_id: ref.appId, app_store: ref.store }, as(u));
  expect(r.status, r.text).toBe(201);
  return r.json.data.key;
}

/** Saves the app's store credentials (200). */
export async function saveStoreCredentials(api: TestApi, u: SignedInUser, key: string, body: unknown): Promise<void> {
  const r = await call(api, 'PUT', `/api/v1/org/apps/${encodeURIComponent(key)}/credentials`, body, as(u));
  expect(r.status, r.text).toBe(200);
}
