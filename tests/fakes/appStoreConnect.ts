/**
 * A loopback App Store Connect API: customer reviews (JSON:API, `include=response`, cursor pagination with absolute
 * `links.next` on Apple's host, like the real one) and customer-review responses. Every request must carry a Bearer
 * JWT that really verifies with the registered public key: ES256, kid → key, iss = issuer id, aud appstoreconnect-v1,
 * lifetime ≤ 20 minutes. Anything else gets Apple's 401 body; a key whose role may not read customer reviews (DEVELOPER,
 * FINANCE, …) gets Apple's 403, and an app the account does not have its 404.
 *
 * Replies (customer-review responses): POST /v1/customerReviewResponses creates the review's one response or replaces
 * it, in PENDING_PUBLISH until Apple publishes it (here: the next reviews listing, or `publishResponses()`), DELETE
 * /v1/customerReviewResponses/{id} removes it, GET /v1/customerReviews/{id}/response reads it. Only the roles that may
 * answer customers (Admin, App Manager, Customer Support) may write; others get the 403. Every answer carries Apple's
 * `X-Rate-Limit: user-hour-lim:…;user-hour-rem:…;` for the key, and past the hourly allowance a 429 with Retry-After.
 *
 *   const key = await createAppStoreConnectKey();
 *   const asc = createAppStoreConnect([key]);
 *   const fake = await startFakeServer([appStoreConnectRoutes(asc)]);   // APPSTORE_CONNECT_BASE_URL = fake.url
 */
import { randomUUID } from 'node:crypto';
import { decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import type { FakeHandler, RecordedRequest } from './http';
import { json } from './http';

/** The key's role in App Store Connect (Users and Access → Integrations), e.g. ADMIN, APP_MANAGER, DEVELOPER, FINANCE. */
export type AppStoreConnectRole = 'ADMIN' | 'APP_MANAGER' | 'CUSTOMER_SUPPORT' | 'DEVELOPER' | 'FINANCE' | 'SALES' | 'MARKETING';
export type AppStoreConnectKey = { issuerId: string; keyId: string; privateKeyPem: string; publicKey: CryptoKey; role: AppStoreConnectRole };

/** The roles whose keys may read customer reviews and write responses to them; the others get Apple's 403. */
const READS_REVIEWS: AppStoreConnectRole[] = ['ADMIN', 'APP_MANAGER', 'CUSTOMER_SUPPORT'];
/** Apple's default hourly allowance per key. */
export const APPLE_HOURLY_LIMIT = 3600;

export async function createAppStoreConnectKey(options: { role?: AppStoreConnectRole } = {}): Promise<AppStoreConnectKey> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const keyId = Array.from({ length: 10 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[Math.floor(Math.random() * 32)]).join('');
  return { issuerId: randomUUID(), keyId, privateKeyPem: await exportPKCS8(privateKey), publicKey, role: options.role ?? 'ADMIN' };
}

export type ConnectReview = {
  id: string;
  rating: number;
  title: string | null;
  body: string;
  reviewerNickname: string;
  createdDate: Date;
  /** ISO alpha-3, as Apple sends it. */
  territory: string;
  response: { id: string; responseBody: string; lastModifiedDate: Date; state: 'PENDING_PUBLISH' | 'PUBLISHED' } | null;
};

type Failure = { status: number; headers?: Record<string, string>; body?: unknown };

export type AppStoreConnectStore = {
  /** An app of the account with no review yet (its review list answers 200 and no data, not 404). */
  addApp(appId: string): void;
  publish(appId: string, review?: Partial<ConnectReview>): ConnectReview;
  reviews(appId: string): ConnectReview[];
  /** The next `times` API requests (any path) answer with this status. */
  failNext(failure: Failure, times?: number): void;
  /** Accepted tokens' claims, newest last (tests check kid/iss/aud). */
  tokens: Array<{ kid: string; iss: string; aud: string; iat: number; exp: number }>;
  /** Every response POST that reached the store (applied), newest last: tests count them to prove no double post. */
  responsePosts: Array<{ reviewId: string; responseBody: string }>;
  /** Pending responses turn PUBLISHED on the next reviews listing (true by default); false keeps them pending. */
  autoPublish: boolean;
  /** Publishes every pending response now. */
  publishResponses(): void;
  /** The next response POST is applied, then its connection is dropped before the answer (an unknown outcome). */
  dropNextResponseAnswer(): void;
  /** The hourly allowance per key (X-Rate-Limit's user-hour-lim) and what each key used this hour. */
  hourlyLimit: number;
  used: Map<string, { hourStart: number; count: number }>;
};

const APPLE = 'https://api.appstoreconnect.apple.com';
const FORBIDDEN = {
  errors: [{ status: '403', code: 'FORBIDDEN_ERROR', title: 'This request is forbidden for security reasons', detail: 'The API key in use does not allow this request' }],
};
const NOT_AUTHORIZED = {
  errors: [
    {
      status: '401',
      code: 'NOT_AUTHORIZED',
      title: 'Authentication credentials are missing or invalid.',
      detail:
        'Provide a properly configured and signed bearer token, and make sure that it has not expired. Learn more about Generating Tokens for API Requests https://developer.apple.com/go/?id=api-generating-tokens',
    },
  ],
};

let seq = 0;
const reviewId = () => `00000029-${(++seq).toString(16).padStart(4, '0')}-4c2d-9e8f-${Date.now().toString(16).padStart(12, '0').slice(-12)}`;

export type AppStoreConnectFake = AppStoreConnectStore & { keys: AppStoreConnectKey[]; failures: Failure[]; data: Map<string, ConnectReview[]>; dropNext: boolean };

export function createAppStoreConnect(keys: AppStoreConnectKey[]): AppStoreConnectFake {
  const data = new Map<string, ConnectReview[]>();
  const failures: Failure[] = [];
  return {
    keys,
    failures,
    data,
    tokens: [],
    responsePosts: [],
    autoPublish: true,
    dropNext: false,
    hourlyLimit: APPLE_HOURLY_LIMIT,
    used: new Map(),
    publishResponses() {
      for (const r of [...data.values()].flat()) if (r.response?.state === 'PENDING_PUBLISH') r.response = { ...r.response, state: 'PUBLISHED' };
    },
    dropNextResponseAnswer() {
      this.dropNext = true;
    },
    addApp(appId) {
      if (!data.has(appId)) data.set(appId, []);
    },
    publish(appId, review = {}) {
      const full: ConnectReview = {
        id: review.id ?? reviewId(),
        rating: review.rating ?? 5,
        title: review.title === undefined ? 'A review' : review.title,
        body: review.body ?? 'Works well.',
        reviewerNickname: review.reviewerNickname ?? 'Reviewer',
        createdDate: review.createdDate ?? new Date(),
        territory: review.territory ?? 'USA',
        response: review.response ?? null,
      };
      data.set(appId, [...(data.get(appId) ?? []), full]);
      return full;
    },
    reviews(appId) {
      return [...(data.get(appId) ?? [])];
    },
    failNext(failure, times = 1) {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
  };
}

function appleTime(d: Date): string {
  return new Date(d.getTime() - 7 * 3600_000).toISOString().slice(0, 19) + '-07:00';
}

/** The key that signed the request's token, when it verifies; null otherwise. */
async function authorize(store: AppStoreConnectFake, req: RecordedRequest): Promise<AppStoreConnectKey | null> {
  const auth = req.headers.authorization ?? '';
  if (!auth.startsWith('Bearer ')) return null;
  const token = auth.slice(7);
  try {
    const { kid, alg } = decodeProtectedHeader(token);
    const key = store.keys.find((k) => k.keyId === kid);
    if (!key || alg !== 'ES256') return null;
    const { payload } = await jwtVerify(token, key.publicKey, {
      algorithms: ['ES256'],
      issuer: key.issuerId,
      audience: 'appstoreconnect-v1',
      requiredClaims: ['iat', 'exp'],
    });
    // Apple refuses tokens that live longer than 20 minutes.
    if (payload.exp! - payload.iat! > 20 * 60) return null;
    store.tokens.push({ kid: kid!, iss: payload.iss!, aud: String(payload.aud), iat: payload.iat!, exp: payload.exp! });
    return key;
  } catch {
    return null;
  }
}

function reviewResource(r: ConnectReview, included: boolean) {
  const self = `${APPLE}/v1/customerReviews/${r.id}`;
  return {
    type: 'customerReviews',
    id: r.id,
    attributes: {
      rating: r.rating,
      title: r.title,
      body: r.body,
      reviewerNickname: r.reviewerNickname,
      createdDate: appleTime(r.createdDate),
      territory: r.territory,
    },
    relationships: {
      response: {
        links: { self: `${self}/relationships/response`, related: `${self}/response` },
        ...(included ? { data: r.response ? { type: 'customerReviewResponses', id: r.response.id } : null } : {}),
      },
    },
    links: { self },
  };
}

function responseResource(r: ConnectReview) {
  const res = r.response!;
  return {
    type: 'customerReviewResponses',
    id: res.id,
    attributes: { responseBody: res.responseBody, lastModifiedDate: appleTime(res.lastModifiedDate), state: res.state },
    relationships: { review: { links: { self: `${APPLE}/v1/customerReviewResponses/${res.id}/relationships/review` } } },
    links: { self: `${APPLE}/v1/customerReviewResponses/${res.id}` },
  };
}

/** Counts the request against the key's hour; the X-Rate-Limit header Apple sends, and whether the allowance is spent. */
function spendAllowance(store: AppStoreConnectFake, key: AppStoreConnectKey): { header: Record<string, string>; retryAfter: number | null } {
  const now = Date.now();
  let u = store.used.get(key.keyId);
  if (!u || now - u.hourStart >= 3600_000) {
    u = { hourStart: now, count: 0 };
    store.used.set(key.keyId, u);
  }
  const over = u.count >= store.hourlyLimit;
  if (!over) u.count++;
  const header = { 'X-Rate-Limit': `user-hour-lim:${store.hourlyLimit};user-hour-rem:${Math.max(0, store.hourlyLimit - u.count)};` };
  return { header, retryAfter: over ? Math.max(1, Math.ceil((u.hourStart + 3600_000 - now) / 1000)) : null };
}

function findReview(store: AppStoreConnectFake, id: string): ConnectReview | undefined {
  return [...store.data.values()].flat().find((r) => r.id === id);
}

const NOT_FOUND = (detail: string) => ({ errors: [{ status: '404', code: 'NOT_FOUND', title: 'The specified resource does not exist', detail }] });

export function appStoreConnectRoutes(store: AppStoreConnectFake): FakeHandler {
  return async (req, res) => {
    const list = /^\/v1\/apps\/(\d+)\/customerReviews$/.exec(req.path);
    const reply = req.path === '/v1/customerReviewResponses';
    const responseOf = /^\/v1\/customerReviews\/([^/]+)\/response$/.exec(req.path);
    const deleteOne = /^\/v1\/customerReviewResponses\/([^/]+)$/.exec(req.path);
    if (!((list && req.method === 'GET') || (reply && req.method === 'POST') || (responseOf && req.method === 'GET') || (deleteOne && req.method === 'DELETE'))) return false;

    const key = await authorize(store, req);
    if (!key) {
      json(res, 401, NOT_AUTHORIZED);
      return true;
    }
    const allowance = spendAllowance(store, key);
    if (allowance.retryAfter !== null) {
      json(res, 429, { errors: [{ status: '429', code: 'RATE_LIMIT_EXCEEDED', title: 'The request rate limit has been reached.', detail: 'We\'ve received too many requests for this API. Please wait and try again or slow down your request rate.' }] }, { ...allowance.header, 'Retry-After': String(allowance.retryAfter) });
      return true;
    }
    if (!READS_REVIEWS.includes(key.role)) {
      json(res, 403, FORBIDDEN, allowance.header);
      return true;
    }
    const failure = store.failures.shift();
    if (failure) {
      json(res, failure.status, failure.body ?? { errors: [{ status: String(failure.status), code: 'FAKE', title: 'Injected failure' }] }, { ...allowance.header, ...failure.headers });
      return true;
    }

    if (list) {
      const appId = list[1];
      if (!store.data.has(appId)) {
        json(res, 404, NOT_FOUND(`There is no resource of type 'apps' with id '${appId}'`), allowance.header);
        return true;
      }
      // Apple publishes pending responses after a while; here, by the next time someone lists the reviews.
      if (store.autoPublish) store.publishResponses();
      const limit = Math.min(Number(req.query.get('limit') ?? 50), 200);
      const offset = Number(Buffer.from(req.query.get('cursor') ?? '', 'base64url').toString() || 0);
      const includeResponse = (req.query.get('include') ?? '').split(',').includes('response');
      const sorted = store.reviews(appId).sort((a, b) =>
        req.query.get('sort') === 'createdDate' ? a.createdDate.getTime() - b.createdDate.getTime() : b.createdDate.getTime() - a.createdDate.getTime(),
      );
      const pageItems = sorted.slice(offset, offset + limit);
      const query = (extra: Record<string, string>) => new URLSearchParams({ ...Object.fromEntries(req.query), ...extra }).toString();
      const links: Record<string, string> = { self: `${APPLE}${req.path}?${query({})}` };
      if (offset + limit < sorted.length) links.next = `${APPLE}${req.path}?${query({ cursor: Buffer.from(String(offset + limit)).toString('base64url') })}`;
      json(
        res,
        200,
        {
          data: pageItems.map((r) => reviewResource(r, includeResponse)),
          ...(includeResponse ? { included: pageItems.filter((r) => r.response).map(responseResource) } : {}),
          links,
          meta: { paging: { total: sorted.length, limit } },
        },
        allowance.header,
      );
      return true;
    }

    if (responseOf) {
      const review = findReview(store, decodeURIComponent(responseOf[1]));
      if (!review) json(res, 404, NOT_FOUND(`There is no resource of type 'customerReviews' with id '${responseOf[1]}'`), allowance.header);
      else if (!review.response) json(res, 404, NOT_FOUND(`There is no resource of type 'customerReviewResponses' for the customer review '${review.id}'`), allowance.header);
      else json(res, 200, { data: responseResource(review), links: { self: `${APPLE}${req.path}` } }, allowance.header);
      return true;
    }

    if (deleteOne) {
      const id = decodeURIComponent(deleteOne[1]);
      const review = [...store.data.values()].flat().find((r) => r.response?.id === id);
      if (!review) {
        json(res, 404, NOT_FOUND(`There is no resource of type 'customerReviewResponses' with id '${id}'`), allowance.header);
        return true;
      }
      review.response = null;
      res.writeHead(204, allowance.header);
      res.end();
      return true;
    }

    const body = JSON.parse(req.body || '{}') as {
      data?: { type?: string; attributes?: { responseBody?: string }; relationships?: { review?: { data?: { type?: string; id?: string } } } };
    };
    const target = body.data?.relationships?.review?.data;
    const text = body.data?.attributes?.responseBody;
    if (body.data?.type !== 'customerReviewResponses' || target?.type !== 'customerReviews' || !target.id || !text || [...text].length > 5970) {
      json(res, 422, { errors: [{ status: '422', code: 'ENTITY_UNPROCESSABLE', title: 'The request entity failed validation.' }] }, allowance.header);
      return true;
    }
    const review = findReview(store, target.id);
    if (!review) {
      json(res, 404, NOT_FOUND(`There is no resource of type 'customerReviews' with id '${target.id}'`), allowance.header);
      return true;
    }
    // One response per review: creating again replaces it, and it waits in PENDING_PUBLISH until Apple publishes it.
    review.response = { id: randomUUID(), responseBody: text, lastModifiedDate: new Date(), state: 'PENDING_PUBLISH' };
    store.responsePosts.push({ reviewId: review.id, responseBody: text });
    if (store.dropNext) {
      store.dropNext = false;
      res.socket?.destroy();
      return true;
    }
    json(res, 201, { data: responseResource(review), links: { self: `${APPLE}/v1/customerReviewResponses` } }, allowance.header);
    return true;
  };
}
