/**
 * Talking to the stores' public endpoints: one fetch helper with a hard timeout, and one error type whose kind decides
 * the answer people get. A slow or broken store must give a clear 502/503 within APPS_UPSTREAM_TIMEOUT_MS, never a hang.
 */
import { env } from '../env';
import { HttpError, badGateway, badRequest } from '../http/errors';
import type { AppStore } from './types';

export type StoreErrorKind =
  /** Timeout, network failure, 5xx: try again later. */
  | 'unavailable'
  /** 429, 403, Google's captcha page: the store is limiting us. */
  | 'blocked'
  /** The store rejected a parameter (e.g. an unknown App Store country). */
  | 'bad_request'
  /** The answer is not in the shape we know (the store changed its format). */
  | 'format';

export class StoreError extends Error {
  constructor(
    public kind: StoreErrorKind,
    public store: AppStore,
    message: string,
    /** bad_request: the request field the store rejected. */
    public field?: string,
  ) {
    super(message);
  }
}

const STORE_NAME: Record<AppStore, string> = { apple_app_store: 'The App Store', google_play_store: 'Google Play' };
const SEARCH_NAME: Record<AppStore, string> = {
  apple_app_store: 'The App Store search',
  google_play_store: 'The Google Play search',
};

/** What people see when a store fails: names the store, says what to do, never leaks upstream details. */
export function storeHttpError(err: StoreError, action: 'search' | 'details'): HttpError {
  const name = STORE_NAME[err.store];
  switch (err.kind) {
    case 'blocked':
      return new HttpError(503, 'upstream_busy', `${name} is limiting our requests right now. Try again in a minute.`, {
        'Retry-After': '60',
      });
    case 'bad_request':
      return badRequest(`${err.field ?? 'request'}: ${err.message}`);
    case 'format':
      return new HttpError(
        502,
        'upstream_format',
        err.store === 'google_play_store'
          ? "Google Play changed the layout of its pages and we can't read them right now. Try again later."
          : "The App Store answered in a format we can't read right now. Try again later.",
      );
    case 'unavailable':
      return badGateway(
        `${action === 'search' ? SEARCH_NAME[err.store] : name} is not answering right now. Try again in a minute.`,
      );
  }
}

export type UpstreamResponse = { status: number; text: string; location: string | null };

/**
 * GET a store URL. Redirects are not followed (Google answers bursts with a redirect to its captcha page, which
 * the caller must recognise); the caller decides what a 3xx means.
 */
export async function fetchUpstream(store: AppStore, url: string, headers: Record<string, string> = {}): Promise<UpstreamResponse> {
  const timeoutMs = env().APPS_UPSTREAM_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, { headers, redirect: 'manual', signal });
    // The body is read under the same deadline: a store that sends headers and then stalls is still a timeout.
    const text = await res.text();
    return { status: res.status, text, location: res.headers.get('location') };
  } catch (err) {
    const timedOut = signal.aborted;
    throw new StoreError(
      'unavailable',
      store,
      timedOut ? `no answer within ${timeoutMs} ms` : `request failed: ${(err as Error).message}`,
    );
  }
}
