/**
 * A loopback Google OAuth token endpoint and Google Play Developer API (reviews list + reply).
 * - POST /token: the JWT-bearer grant. The assertion must verify (RS256) with the service account's public key, name
 *   the account as `iss`, carry the androidpublisher scope, and have this endpoint's URL as `aud` — else Google's
 *   400 invalid_grant. Issues opaque access tokens.
 * - GET /androidpublisher/v3/applications/{package}/reviews: Bearer token required; only reviews modified in the last
 *   7 days, newest modification first, `maxResults` + `tokenPagination.nextPageToken`.
 * - POST …/reviews/{reviewId}:reply {replyText}: stores (or replaces) the developer comment, at most 350 characters,
 *   answering `{ result: { replyText, lastEdited } }`; the next listing shows it as the review's developerComment.
 *   Google's per-app quota of reply POSTs a day (2,000) answers 429 RESOURCE_EXHAUSTED past it.
 *
 *   const account = await createServiceAccount();
 *   const play = createAndroidPublisher([account]);
 *   play.publish(account, 'com.example.app', { title: 'Nice', body: 'Works', starRating: 5 });
 *   const fake = await startFakeServer([androidPublisherRoutes(play)]);
 *   // ANDROID_PUBLISHER_BASE_URL = fake.url, GOOGLE_OAUTH_TOKEN_URL = fake.url + '/token'
 */
import { randomBytes } from 'node:crypto';
import { decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import type { FakeHandler } from './http';
import { json } from './http';

export type ServiceAccountKey = { clientEmail: string; privateKeyId: string; json: string; publicKey: CryptoKey };

export async function createServiceAccount(name = 'arb-reviews'): Promise<ServiceAccountKey> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const privateKeyId = randomBytes(20).toString('hex');
  const clientEmail = `${name}@arb-test-123456.iam.gserviceaccount.com`;
  const file = {
    type: 'service_account',
    project_id: 'arb-test-123456',
    private_key_id: privateKeyId,
    private_key: await exportPKCS8(privateKey),
    client_email: clientEmail,
    client_id: '109876543210987654321',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
    universe_domain: 'googleapis.com',
  };
  return { clientEmail, privateKeyId, json: JSON.stringify(file, null, 2), publicKey };
}

export type PlayDeveloperReview = {
  reviewId: string;
  authorName: string;
  title: string | null;
  body: string;
  starRating: number;
  reviewerLanguage: string;
  appVersionName: string | null;
  appVersionCode: number | null;
  lastModified: Date;
  developerComment: { text: string; lastModified: Date } | null;
};

type Failure = { status: number; body?: unknown; headers?: Record<string, string> };

export type AndroidPublisherFake = {
  /** An app of the account's developer account with no review yet. */
  addApp(account: ServiceAccountKey, packageName: string): void;
  publish(account: ServiceAccountKey, packageName: string, review?: Partial<PlayDeveloperReview>): PlayDeveloperReview;
  /** An edit on the store: same reviewId, new text or rating, newer lastModified. */
  edit(packageName: string, reviewId: string, changes: Partial<Omit<PlayDeveloperReview, 'reviewId'>>): PlayDeveloperReview;
  reviews(packageName: string): PlayDeveloperReview[];
  failNext(failure: Failure, times?: number): void;
  /** Grants issued by the token endpoint (tests count them to prove caching). */
  grants: Array<{ iss: string; scope: string; aud: string }>;
  accounts: ServiceAccountKey[];
  packages: Map<string, { owner: string; reviews: PlayDeveloperReview[] }>;
  failures: Failure[];
  accessTokens: Map<string, string>;
  /** Every reply POST that reached the store (applied), newest last. */
  replyPosts: Array<{ packageName: string; reviewId: string; replyText: string }>;
  /** Reply POSTs allowed per app a day, and what each app used today. */
  dailyReplyLimit: number;
  repliesToday: Map<string, { day: string; count: number }>;
};

/** Google's default quota of reply POSTs per app a day. */
export const PLAY_DAILY_REPLY_LIMIT = 2000;

let seq = 0;

export function createAndroidPublisher(accounts: ServiceAccountKey[]): AndroidPublisherFake {
  const packages = new Map<string, { owner: string; reviews: PlayDeveloperReview[] }>();
  const failures: Failure[] = [];
  return {
    accounts,
    packages,
    failures,
    grants: [],
    accessTokens: new Map(),
    replyPosts: [],
    dailyReplyLimit: PLAY_DAILY_REPLY_LIMIT,
    repliesToday: new Map(),
    addApp(account, packageName) {
      if (!packages.has(packageName)) packages.set(packageName, { owner: account.clientEmail, reviews: [] });
    },
    publish(account, packageName, review = {}) {
      const full: PlayDeveloperReview = {
        reviewId: review.reviewId ?? `gp:AOqpTOH${(++seq).toString(36)}${randomBytes(8).toString('hex')}`,
        authorName: review.authorName ?? 'A Google user',
        title: review.title === undefined ? null : review.title,
        body: review.body ?? 'Works well.',
        starRating: review.starRating ?? 5,
        reviewerLanguage: review.reviewerLanguage ?? 'en',
        appVersionName: review.appVersionName === undefined ? '2.4.1' : review.appVersionName,
        appVersionCode: review.appVersionCode === undefined ? 20401 : review.appVersionCode,
        lastModified: review.lastModified ?? new Date(),
        developerComment: review.developerComment ?? null,
      };
      const pkg = packages.get(packageName) ?? { owner: account.clientEmail, reviews: [] };
      pkg.reviews.push(full);
      packages.set(packageName, pkg);
      return full;
    },
    edit(packageName, reviewId, changes) {
      const review = packages.get(packageName)?.reviews.find((r) => r.reviewId === reviewId);
      if (!review) throw new Error(`fake play: no review ${reviewId}`);
      Object.assign(review, { lastModified: new Date() }, changes);
      return review;
    },
    reviews(packageName) {
      return [...(packages.get(packageName)?.reviews ?? [])];
    },
    failNext(failure, times = 1) {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
  };
}

const timestamp = (d: Date) => ({ seconds: String(Math.floor(d.getTime() / 1000)), nanos: (d.getTime() % 1000) * 1e6 });

function reviewResource(r: PlayDeveloperReview) {
  const comments: unknown[] = [
    {
      userComment: {
        // Title and body joined by a tab, as the API does; no tab when there is no title.
        text: r.title ? `${r.title}\t${r.body}` : r.body,
        lastModified: timestamp(r.lastModified),
        starRating: r.starRating,
        reviewerLanguage: r.reviewerLanguage,
        device: 'a53x',
        androidOsVersion: 34,
        ...(r.appVersionCode != null ? { appVersionCode: r.appVersionCode } : {}),
        ...(r.appVersionName != null ? { appVersionName: r.appVersionName } : {}),
        thumbsUpCount: 0,
        thumbsDownCount: 0,
        deviceMetadata: { productName: 'a53x (Galaxy A53 5G)', manufacturer: 'Samsung', deviceClass: 'phone', screenWidthPx: 1080, screenHeightPx: 2400, nativePlatform: 'arm64-v8a,armeabi-v7a,armeabi', screenDensityDpi: 450, glEsVersion: 196610, ramMb: 5640 },
      },
    },
  ];
  if (r.developerComment) comments.push({ developerComment: { text: r.developerComment.text, lastModified: timestamp(r.developerComment.lastModified) } });
  return { reviewId: r.reviewId, authorName: r.authorName, comments };
}

/** Google's JWT-bearer grant: the assertion must verify with the account's key and be addressed to this endpoint. */
async function grant(store: AndroidPublisherFake, assertion: string, audience: string): Promise<{ token: string } | { error: string }> {
  try {
    const { alg, kid } = decodeProtectedHeader(assertion);
    const unverified = JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss?: string };
    const account = store.accounts.find((a) => a.clientEmail === unverified.iss);
    if (!account || alg !== 'RS256') return { error: 'Invalid grant: account not found' };
    if (kid && kid !== account.privateKeyId) return { error: 'Invalid JWT Signature.' };
    const { payload } = await jwtVerify(assertion, account.publicKey, {
      algorithms: ['RS256'],
      audience,
      issuer: account.clientEmail,
      requiredClaims: ['iat', 'exp'],
    });
    if (payload.exp! - payload.iat! > 3600) {
      return { error: 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.' };
    }
    const scope = String(payload.scope ?? '');
    store.grants.push({ iss: account.clientEmail, scope, aud: String(payload.aud) });
    const token = `ya29.c.${randomBytes(24).toString('base64url')}`;
    // A token without the androidpublisher scope authenticates but is not allowed to read reviews.
    store.accessTokens.set(token, scope.split(' ').includes('https://www.googleapis.com/auth/androidpublisher') ? account.clientEmail : '');
    return { token };
  } catch {
    return { error: 'Invalid JWT Signature.' };
  }
}

const googleError = (code: number, status: string, message: string) => ({ error: { code, message, status } });

export function androidPublisherRoutes(store: AndroidPublisherFake): FakeHandler {
  return async (req, res) => {
    if (req.method === 'POST' && req.path === '/token') {
      const form = new URLSearchParams(req.body);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return false;
      const outcome = await grant(store, form.get('assertion') ?? '', `http://${req.headers.host}/token`);
      if ('error' in outcome) json(res, 400, { error: 'invalid_grant', error_description: outcome.error });
      else json(res, 200, { access_token: outcome.token, expires_in: 3599, token_type: 'Bearer' });
      return true;
    }

    const list = /^\/androidpublisher\/v3\/applications\/([^/]+)\/reviews$/.exec(req.path);
    const reply = /^\/androidpublisher\/v3\/applications\/([^/]+)\/reviews\/([^/]+):reply$/.exec(req.path);
    if (!((list && req.method === 'GET') || (reply && req.method === 'POST'))) return false;

    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const owner = store.accessTokens.get(bearer);
    if (owner === undefined) {
      json(res, 401, googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.'));
      return true;
    }
    if (owner === '') {
      json(res, 403, googleError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.'));
      return true;
    }
    const failure = store.failures.shift();
    if (failure) {
      json(res, failure.status, failure.body ?? googleError(failure.status, 'UNAVAILABLE', 'Injected failure'), failure.headers);
      return true;
    }
    const packageName = decodeURIComponent((list ?? reply)![1]);
    const pkg = store.packages.get(packageName);
    if (!pkg) {
      json(res, 404, googleError(404, 'NOT_FOUND', `Package not found: ${packageName}.`));
      return true;
    }
    if (pkg.owner !== owner) {
      json(res, 403, googleError(403, 'PERMISSION_DENIED', 'The caller does not have permission'));
      return true;
    }

    if (list) {
      const weekAgo = Date.now() - 7 * 24 * 3600_000;
      const visible = pkg.reviews
        .filter((r) => r.lastModified.getTime() >= weekAgo && r.body)
        .sort((a, b) => b.lastModified.getTime() - a.lastModified.getTime());
      const max = Math.min(Number(req.query.get('maxResults') ?? 10), 100);
      const offset = req.query.get('token') ? Number(Buffer.from(req.query.get('token')!, 'base64url').toString('utf8')) : 0;
      const page = visible.slice(offset, offset + max);
      const more = offset + max < visible.length;
      json(res, 200, {
        pageInfo: { totalResults: visible.length, resultPerPage: max, startIndex: offset },
        ...(page.length ? { reviews: page.map(reviewResource) } : {}),
        ...(more ? { tokenPagination: { nextPageToken: Buffer.from(String(offset + max)).toString('base64url') } } : {}),
      });
      return true;
    }

    const reviewId = decodeURIComponent(reply![2]);
    const review = pkg.reviews.find((r) => r.reviewId === reviewId);
    const replyText = (JSON.parse(req.body || '{}') as { replyText?: string }).replyText ?? '';
    if (!review) {
      json(res, 404, googleError(404, 'NOT_FOUND', 'Review not found.'));
      return true;
    }
    if (!replyText || [...replyText].length > 350) {
      json(res, 400, googleError(400, 'INVALID_ARGUMENT', 'Reply text is too long or empty.'));
      return true;
    }
    const day = new Date().toISOString().slice(0, 10);
    const used = store.repliesToday.get(packageName);
    const count = used?.day === day ? used.count : 0;
    if (count >= store.dailyReplyLimit) {
      json(res, 429, googleError(429, 'RESOURCE_EXHAUSTED', `Quota exceeded for quota metric 'Reply requests' and limit 'Reply requests per day' of service 'androidpublisher.googleapis.com'.`));
      return true;
    }
    store.repliesToday.set(packageName, { day, count: count + 1 });
    store.replyPosts.push({ packageName, reviewId, replyText });
    review.developerComment = { text: replyText.replace(/<[^>]*>/g, ''), lastModified: new Date() };
    json(res, 200, { result: { replyText: review.developerComment.text, lastEdited: timestamp(review.developerComment.lastModified) } });
    return true;
  };
}
