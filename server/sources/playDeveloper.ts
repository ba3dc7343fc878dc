/**
 * Google Play reviews through the Google Play Developer API, with the owner's service account:
 *   service-account JSON → OAuth access token (JWT bearer grant, RS256, scope androidpublisher) at GOOGLE_OAUTH_TOKEN_URL
 *   GET {ANDROID_PUBLISHER_BASE_URL}/androidpublisher/v3/applications/{package}/reviews?maxResults=100&token=…
 * The API only returns reviews created or modified in the last 7 days, newest modification first. An edited review comes
 * back with the same reviewId and a newer lastModified: the engine records it as an edit, keyed on the id.
 */
import { isPlayPackageName } from '@/shared/appIds';
import { importPKCS8, SignJWT } from 'jose';
import { env } from '../env';
import { cleanReview } from './cleanText';
import { isPastWatermark, newestFirstUnique, parseJson, sourceFetch } from './http';
import {
  SourceError,
  type NormalizedReview,
  type PollOptions,
  type PollResult,
  type SourceAdapter,
  type SourceConfig,
  type SourceCredentials,
} from './types';

const SERVICE = 'The Google Play Developer API';
/** Names the token endpoint in its SourceErrors' messages (the credentials check tells its refusals apart by it). */
export const TOKEN_SERVICE = 'Google sign-in (OAuth token endpoint)';
export const ANDROID_PUBLISHER_SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
export const PLAY_PAGE_SIZE = 100;
const DEFAULT_MAX_PAGES = 10;
export const PLAY_REPLY_MAX_CHARS = 350;

export type ServiceAccount = { client_email: string; private_key: string; private_key_id?: string; project_id?: string };

type Timestamp = { seconds?: string | number; nanos?: number };
export type PlayReviewResource = {
  reviewId?: string;
  authorName?: string;
  comments?: Array<{
    userComment?: {
      text?: string;
      lastModified?: Timestamp;
      starRating?: number;
      reviewerLanguage?: string;
      device?: string;
      androidOsVersion?: number;
      appVersionCode?: number;
      appVersionName?: string;
      thumbsUpCount?: number;
      thumbsDownCount?: number;
    };
    developerComment?: { text?: string; lastModified?: Timestamp };
  }>;
};
export type PlayReviewsDocument = { reviews?: PlayReviewResource[]; tokenPagination?: { nextPageToken?: string } };

export function parseServiceAccount(credentials: SourceCredentials | undefined): ServiceAccount {
  if (credentials?.kind !== 'play_developer') {
    throw new SourceError('The Google Play Developer API needs a service-account JSON key', true);
  }
  let parsed: Partial<ServiceAccount> & { type?: string };
  try {
    parsed = JSON.parse(credentials.serviceAccountJson) as typeof parsed;
  } catch {
    throw new SourceError('The service-account key is not valid JSON: upload the .json file Google Cloud gave you', true);
  }
  if (!parsed.client_email || !parsed.private_key || (parsed.type && parsed.type !== 'service_account')) {
    throw new SourceError('That JSON is not a service-account key (it needs client_email and private_key)', true);
  }
  return parsed as ServiceAccount;
}

const tokenCache = new Map<string, { token: string; expiresAt: number }>();

/**
 * An access token for the service account, cached until a minute before it expires. The assertion's audience and the
 * endpoint are GOOGLE_OAUTH_TOKEN_URL, never the `token_uri` inside the uploaded JSON: a key file must not be able to
 * send our requests to a host of its choosing.
 */
export async function googleAccessToken(account: ServiceAccount, signal?: AbortSignal): Promise<string> {
  const tokenUrl = env().GOOGLE_OAUTH_TOKEN_URL;
  const cacheKey = `${tokenUrl}|${account.client_email}|${account.private_key_id ?? ''}`;
  const cached = tokenCache.get(cacheKey);
  if (cached && cached.expiresAt - 60_000 > Date.now()) return cached.token;

  let key: CryptoKey;
  try {
    key = await importPKCS8(account.private_key, 'RS256');
  } catch {
    throw new SourceError('The private key in the service-account JSON could not be read', true);
  }
  const iat = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ scope: ANDROID_PUBLISHER_SCOPE })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(account.private_key_id ? { kid: account.private_key_id } : {}) })
    .setIssuer(account.client_email)
    .setAudience(tokenUrl)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(key);
  const res = await sourceFetch(tokenUrl, {
    method: 'POST',
    service: TOKEN_SERVICE,
    signal,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
    permanentStatuses: [400], // invalid_grant: revoked key, deleted account, wrong clock is not ours to retry
  });
  const body = parseJson<{ access_token?: string; expires_in?: number }>(res.text, TOKEN_SERVICE);
  if (!body.access_token) throw new SourceError(`${TOKEN_SERVICE} answered without an access token`, false);
  tokenCache.set(cacheKey, { token: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 });
  return body.access_token;
}

/** Tests: forget cached access tokens. */
export function clearGoogleTokenCache(): void {
  tokenCache.clear();
}

function toDate(t: Timestamp | undefined): Date | null {
  if (!t || t.seconds === undefined) return null;
  const ms = Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** Play joins the title and the body with a tab; a review without a title has no tab (or an empty part before it). */
export function splitUserComment(text: string): { title: string | null; body: string } {
  const tab = text.indexOf('\t');
  if (tab === -1) return { title: null, body: text.trim() };
  const title = text.slice(0, tab).trim();
  return { title: title || null, body: text.slice(tab + 1).trim() };
}

export function playReviewUrl(packageName: string, reviewId: string): string {
  return `https://play.google.com/store/apps/details?id=${encodeURIComponent(packageName)}&reviewId=${encodeURIComponent(reviewId)}`;
}

export function parsePlayReviews(doc: PlayReviewsDocument, packageName: string): NormalizedReview[] {
  const out: NormalizedReview[] = [];
  for (const r of doc.reviews ?? []) {
    const user = r.comments?.find((c) => c.userComment)?.userComment;
    const developer = r.comments?.find((c) => c.developerComment)?.developerComment;
    const updatedAt = toDate(user?.lastModified);
    const rating = Number(user?.starRating);
    if (!r.reviewId || !user || !updatedAt || !(rating >= 1 && rating <= 5)) continue;
    const { title, body } = splitUserComment(user.text ?? '');
    out.push(cleanReview({
      store: 'google_play_store',
      appId: packageName,
      storeReviewId: r.reviewId,
      country: null, // the API does not say
      language: user.reviewerLanguage ? user.reviewerLanguage.replace('_', '-') : null,
      authorName: r.authorName ?? '',
      title,
      body,
      rating,
      appVersion: user.appVersionName || null,
      createdAt: null, // only the last modification is known
      updatedAt,
      replyText: developer?.text ?? null,
      replyUpdatedAt: toDate(developer?.lastModified),
      permalink: playReviewUrl(packageName, r.reviewId),
    }));
  }
  return out;
}

export function validPackageName(appId: string): string {
  const pkg = appId.trim();
  if (!isPlayPackageName(pkg)) {
    throw new SourceError(`"${appId}" is not an Android package name (like com.example.app)`, true);
  }
  return pkg;
}

function reviewsUrl(packageName: string): string {
  const base = env().ANDROID_PUBLISHER_BASE_URL.replace(/\/$/, '');
  return `${base}/androidpublisher/v3/applications/${encodeURIComponent(packageName)}/reviews`;
}

export const playDeveloperAdapter: SourceAdapter = {
  kind: 'play_developer',
  async poll(config: SourceConfig, options: PollOptions = {}): Promise<PollResult> {
    const account = parseServiceAccount(config.credentials);
    const pkg = validPackageName(config.appId);
    const since = options.since ?? null;
    const maxPages = Math.max(options.maxPages ?? DEFAULT_MAX_PAGES, 1);
    const accessToken = await googleAccessToken(account, options.signal);

    const collected: NormalizedReview[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    let reachedWatermark = false;
    do {
      const query = new URLSearchParams({ maxResults: String(PLAY_PAGE_SIZE) });
      if (pageToken) query.set('token', pageToken);
      const res = await sourceFetch(`${reviewsUrl(pkg)}?${query}`, {
        service: SERVICE,
        signal: options.signal,
        headers: { Authorization: `Bearer ${accessToken}` },
        permanentStatuses: [404], // no such package in this developer account
      });
      pages++;
      const doc = parseJson<PlayReviewsDocument>(res.text, SERVICE);
      const reviews = parsePlayReviews(doc, pkg);
      collected.push(...reviews);
      pageToken = doc.tokenPagination?.nextPageToken || undefined;
      if (reviews.some((r) => isPastWatermark(r.updatedAt, since))) {
        reachedWatermark = true;
        break;
      }
    } while (pageToken && pages < maxPages);

    const complete = since == null || reachedWatermark || !pageToken;
    return { reviews: newestFirstUnique(collected), complete };
  },
};

/** How long the credentials check waits for Google: someone is looking at a spinning button meanwhile. */
const CHECK_TIMEOUT_MS = 15_000;

/**
 * The credentials check before a service account is saved: the token exchange, then one request that reads this
 * package's newest review, exactly what the engine's polls will need. Resolves when both succeed; otherwise the
 * SourceError carries Google's status (400 from the token endpoint: a refused key; 401/403: no access to reviews; 404:
 * no such package in the account).
 */
export async function checkPlayDeveloperAccess(credentials: SourceCredentials, packageName: string, options: { signal?: AbortSignal } = {}): Promise<void> {
  const account = parseServiceAccount(credentials);
  const pkg = validPackageName(packageName);
  const accessToken = await googleAccessToken(account, options.signal);
  await sourceFetch(`${reviewsUrl(pkg)}?maxResults=1`, {
    service: SERVICE,
    signal: options.signal,
    timeoutMs: CHECK_TIMEOUT_MS,
    headers: { Authorization: `Bearer ${accessToken}` },
    permanentStatuses: [404],
  });
}

export type PlayReply = { replyText: string; lastEdited: Date | null };

/** The developer reply Google Play shows under one review now (GET …/reviews/{reviewId}), or null when it has none. */
export async function currentPlayReply(credentials: SourceCredentials, packageName: string, reviewId: string, options: { signal?: AbortSignal } = {}): Promise<string | null> {
  const account = parseServiceAccount(credentials);
  const pkg = validPackageName(packageName);
  const accessToken = await googleAccessToken(account, options.signal);
  const res = await sourceFetch(`${reviewsUrl(pkg)}/${encodeURIComponent(reviewId)}`, {
    service: SERVICE,
    signal: options.signal,
    headers: { Authorization: `Bearer ${accessToken}` },
    permanentStatuses: [404],
  });
  const doc = parseJson<PlayReviewResource>(res.text, SERVICE);
  return doc.comments?.find((c) => c.developerComment)?.developerComment?.text ?? null;
}

/** The body of POST …/reviews/{reviewId}:reply (pure). Text only: Play shows markup as typed. */
export const playReplyBody = (replyText: string) => ({ replyText });

/** Publishes (or replaces) the developer reply: POST …/reviews/{reviewId}:reply {replyText}, at most 350 characters. */
export async function replyToReview(
  credentials: SourceCredentials,
  packageName: string,
  reviewId: string,
  text: string,
  options: { signal?: AbortSignal } = {},
): Promise<PlayReply> {
  const account = parseServiceAccount(credentials);
  const pkg = validPackageName(packageName);
  const replyText = text.trim();
  if (!replyText) throw new SourceError('A reply cannot be empty', true, 400);
  if ([...replyText].length > PLAY_REPLY_MAX_CHARS) {
    throw new SourceError(`A Google Play reply can be at most ${PLAY_REPLY_MAX_CHARS} characters`, true, 400);
  }
  const accessToken = await googleAccessToken(account, options.signal);
  const res = await sourceFetch(`${reviewsUrl(pkg)}/${encodeURIComponent(reviewId)}:reply`, {
    method: 'POST',
    service: SERVICE,
    signal: options.signal,
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(playReplyBody(replyText)),
    permanentStatuses: [400, 404],
  });
  const doc = parseJson<{ result?: { replyText?: string; lastEdited?: Timestamp } }>(res.text, SERVICE);
  return { replyText: doc.result?.replyText ?? replyText, lastEdited: toDate(doc.result?.lastEdited) };
}
