/**
 * The two stores' reply calls behind one shape, and what their refusals mean in plain words. The HTTP itself lives in
 * the source adapters (server/sources/appStoreConnect.ts, playDeveloper.ts: tokens, request bodies, parsing); this
 * module decides what an answer means for a reply: sent, try again (when), or failed (why, and what to do).
 */
import {
  currentResponse as ascCurrentResponse,
  deleteResponse as ascDeleteResponse,
  replyToReview as ascReply,
  type AppStoreRateLimit,
} from '../sources/appStoreConnect';
import { replyToReview as playReply, TOKEN_SERVICE } from '../sources/playDeveloper';
import { SourceError, type SourceCredentials } from '../sources/types';
import type { ReplyStore } from '@/shared/replies';

export type ReplyTarget = {
  store: ReplyStore;
  /** iOS app id or Android package name. */
  appId: string;
  /** The store's own review id. */
  storeReviewId: string;
  credentials: SourceCredentials;
};

export type StoreSent = {
  responseId: string | null;
  /** The store shows it already (App Store response PUBLISHED); otherwise the next poll confirms it. */
  published: boolean;
  text: string;
  rateLimit: AppStoreRateLimit | null;
};

/** What to do after a refusal: try again (after `afterSeconds`, or the backoff when null) or give up with a reason. */
export type StoreRefusal =
  | { kind: 'retry'; afterSeconds: number | null; reason: string; rateLimited: boolean }
  | { kind: 'failed'; reason: string };

/** Who the credentials are, for the words of a refusal: the App Store Connect key id, the service account's address. */
export function credentialsName(credentials: SourceCredentials): string {
  if (credentials.kind === 'appstore_connect') return credentials.keyId.trim();
  try {
    return (JSON.parse(credentials.serviceAccountJson) as { client_email?: string }).client_email ?? 'the service account';
  } catch {
    return 'the service account';
  }
}

/** The key whose allowance a reply spends: App Store Connect counts per API key, Play per app. */
export function allowanceKey(target: Pick<ReplyTarget, 'store' | 'appId' | 'credentials'>): string {
  return target.store === 'apple_app_store' ? `appstore_connect:${credentialsName(target.credentials)}` : `play:${target.appId}`;
}

export async function sendToStore(target: ReplyTarget, text: string): Promise<StoreSent> {
  if (target.store === 'apple_app_store') {
    const r = await ascReply(target.credentials, target.storeReviewId, text);
    return { responseId: r.id || null, published: r.state === 'PUBLISHED', text: r.responseBody, rateLimit: r.rateLimit };
  }
  const r = await playReply(target.credentials, target.appId, target.storeReviewId, text);
  return { responseId: null, published: false, text: r.replyText, rateLimit: null };
}

/**
 * The reply the store holds now, when it can be read: App Store Connect's one response per review. Google Play has no
 * read of a single reply here, and needs none: its reply call replaces the reply, so sending the same text again
 * leaves one reply with that text.
 */
export async function storeHasReply(target: ReplyTarget, text: string): Promise<StoreSent | null> {
  if (target.store !== 'apple_app_store') return null;
  const r = await ascCurrentResponse(target.credentials, target.storeReviewId);
  if (!r || r.responseBody.trim() !== text.trim()) return null;
  return { responseId: r.id || null, published: r.state === 'PUBLISHED', text: r.responseBody, rateLimit: r.rateLimit };
}

/** Removes the reply from the store: App Store Connect only (Google Play has no delete). */
export async function removeFromStore(target: ReplyTarget, responseId: string | null): Promise<void> {
  if (target.store !== 'apple_app_store') return;
  let id = responseId;
  if (!id) id = (await ascCurrentResponse(target.credentials, target.storeReviewId))?.id ?? null;
  if (id) await ascDeleteResponse(target.credentials, id);
}

function header(err: SourceError, name: string): string | undefined {
  const v = err.headers?.[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Retry-After as seconds (a number of seconds or an HTTP date), null when absent or unreadable. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : Math.max(0, Math.ceil((t - now) / 1000));
}

/** The store's own words after "answered 403: ", when it gave some. */
const storeWords = (err: SourceError, service: string) => {
  const i = err.message.indexOf(': ');
  return i === -1 ? '' : ` (${service} said: ${err.message.slice(i + 2)})`;
};

const CREDENTIALS_WHERE = 'on the Apps page, under Store credentials';

/** What a failed reply call means, in words for the person who sent it. Pure. */
export function classifyStoreError(target: Pick<ReplyTarget, 'store' | 'credentials'>, err: unknown): StoreRefusal {
  if (!(err instanceof SourceError)) return { kind: 'retry', afterSeconds: null, reason: `Sending failed unexpectedly: ${(err as Error)?.message ?? err}`, rateLimited: false };
  const status = err.status;
  const who = credentialsName(target.credentials);
  const said = storeWords(err, target.store === 'apple_app_store' ? 'App Store Connect' : 'Google');
  if (status === 429) {
    const after = retryAfterSeconds(header(err, 'retry-after'));
    const words =
      target.store === 'apple_app_store'
        ? `App Store Connect's hourly request allowance for key ${who} is used up`
        : "Google Play's daily reply quota for this app is used up";
    // Without Retry-After: Apple's allowance is hourly (try again in a minute, then back off); Play's quota is daily.
    return { kind: 'retry', afterSeconds: after ?? (target.store === 'apple_app_store' ? 60 : 3600), reason: `${words}: the reply waits and is sent when it allows.`, rateLimited: true };
  }
  if (target.store === 'apple_app_store') {
    if (status === 401) return { kind: 'failed', reason: `App Store Connect no longer accepts key ${who} (it was revoked, or the issuer id changed): save a working key ${CREDENTIALS_WHERE}, then send the reply again.${said}` };
    if (status === 403) {
      return {
        kind: 'failed',
        reason: `This App Store Connect key's role can't reply to reviews: give key ${who} the Admin, App Manager or Customer Support role (App Store Connect → Users and Access → Integrations), or save a key with one of those roles ${CREDENTIALS_WHERE}.${said}`,
      };
    }
    if (status === 404) return { kind: 'failed', reason: `App Store Connect no longer has this review (the reviewer may have deleted it), so it can't be answered.${said}` };
    if (status === 409 || status === 422 || status === 400) return { kind: 'failed', reason: `App Store Connect refused this reply's text.${said}` };
  } else {
    if (err.message.startsWith(TOKEN_SERVICE)) {
      if (err.permanent) return { kind: 'failed', reason: `Google no longer accepts the service-account key of ${who} (it was deleted or disabled): save a working key ${CREDENTIALS_WHERE}, then send the reply again.${said}` };
    } else {
      if (status === 401 || status === 403) {
        return {
          kind: 'failed',
          reason: `The service account ${who} may not reply to this app's reviews: in Play Console → Users and permissions, give it the "Reply to reviews" permission for this app.${said}`,
        };
      }
      if (status === 404) return { kind: 'failed', reason: `Google Play no longer lists this review (only reviews with text from the last week can be answered through the API).${said}` };
      if (status === 400) return { kind: 'failed', reason: `Google Play refused this reply's text (at most 350 characters, plain text).${said}` };
    }
  }
  if (err.permanent && status !== undefined && status < 500) return { kind: 'failed', reason: `The store refused the reply.${said}` };
  const service = target.store === 'apple_app_store' ? 'App Store Connect' : 'Google Play';
  return { kind: 'retry', afterSeconds: null, reason: status ? `${service} answered ${status}: the reply is tried again shortly.` : `${service} could not be reached: the reply is tried again shortly.`, rateLimited: false };
}
