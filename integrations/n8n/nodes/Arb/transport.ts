/**
 * The calls every ARB node makes: one authenticated request to the public API (the credential's base URL, the key as
 * a bearer token through n8n's own credential handling), and the pages of one app's reviews, newest first, followed by
 * `starting_after` = the last review's id while `has_more` says there is more.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestMethods, ILoadOptionsFunctions, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export type ArbContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** A review as the public API answers it (the fields the nodes read; the rest passes through untouched). */
export type ArbReview = IDataObject & { id: string; content_updated_at: number | string };

export type ArbPage<T> = { data: T[]; has_more: boolean };

export type ReviewFilters = { country?: string; rating?: string; from?: number; to?: number };

export const PAGE_MAX = 100;

/**
 * The JSON body of one authenticated call to the ARB server. A 4xx/5xx becomes n8n's error for it (NodeApiError, with
 * its HTTP code) whose message is ARB's own words ("… is not an app of this API key's organisation. GET /api/v1/apps
 * lists its apps."), rather than n8n's generic one for the status.
 */
export async function arbRequest<T>(ctx: ArbContext, method: IHttpRequestMethods, path: string, qs?: IDataObject, body?: IDataObject): Promise<T> {
  const credentials = await ctx.getCredentials<{ baseUrl: string }>('arbApi');
  try {
    return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'arbApi', {
      method,
      baseURL: String(credentials.baseUrl ?? '').replace(/\/+$/, ''),
      url: path,
      qs: qs && dropEmpty(qs),
      body,
      json: true,
      headers: { Accept: 'application/json' },
    })) as T;
  } catch (error) {
    const said = arbErrorOf(error);
    const wrapped = new NodeApiError(ctx.getNode(), error as JsonObject);
    if (said) {
      wrapped.description = wrapped.message;
      wrapped.message = `ARB: ${said.message}${said.code ? ` (${said.code})` : ''}`;
    }
    throw wrapped;
  }
}

/** ARB's `{ error: { code, message } }`, wherever n8n's request helpers left the answer's body on the error. */
function arbErrorOf(error: unknown): { code?: string; message: string } | undefined {
  const e = error as { cause?: { response?: { data?: unknown } }; response?: { data?: unknown; body?: unknown }; context?: { data?: unknown } };
  for (const candidate of [e?.cause?.response?.data, e?.response?.data, e?.response?.body, e?.context?.data]) {
    let value = candidate;
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value) as unknown;
      } catch {
        continue;
      }
    }
    const said = (value as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    if (typeof said?.message === 'string') return { code: typeof said.code === 'string' ? said.code : undefined, message: said.message };
  }
  return undefined;
}

/** One page of an app's reviews, newest first. */
export async function reviewsPage(ctx: ArbContext, appId: string, filters: ReviewFilters, limit: number, startingAfter?: string): Promise<ArbPage<ArbReview>> {
  return await arbRequest<ArbPage<ArbReview>>(ctx, 'GET', `/api/v1/apps/${encodeURIComponent(appId)}/reviews`, { ...filters, limit, starting_after: startingAfter });
}

/**
 * Every review of the app matching `filters`, newest first, at most `max` of them (Infinity: all), read 100 per page
 * and followed by `starting_after` while the server says `has_more`.
 */
export async function allReviews(ctx: ArbContext, appId: string, filters: ReviewFilters, max = Infinity): Promise<ArbReview[]> {
  const got: ArbReview[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const page = await reviewsPage(ctx, appId, filters, Math.min(PAGE_MAX, max - got.length), startingAfter);
    got.push(...page.data);
    if (!page.has_more || page.data.length === 0 || got.length >= max) return got;
    startingAfter = String(page.data[page.data.length - 1].id);
  }
}

/** Unix seconds of a review's content_updated_at: integer seconds as the API answers now, or an ISO date from older servers. */
export function reviewSecond(review: ArbReview): number {
  const v = review.content_updated_at;
  if (typeof v === 'number') return Math.floor(v);
  if (/^\d+$/.test(v)) return Number(v);
  return Math.floor(Date.parse(v) / 1000);
}

/**
 * Unix seconds of a date a user gave: an ISO date (n8n's date picker, an expression), unix seconds, a JavaScript Date
 * or a Luxon DateTime (what `$now` is). Undefined for empty; NaN for anything else, which the caller refuses.
 */
export function toUnixSeconds(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return Math.floor(value);
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  if (typeof value === 'object' && typeof (value as { toMillis?: unknown }).toMillis === 'function') {
    return Math.floor((value as { toMillis(): number }).toMillis() / 1000);
  }
  const s = String(value).trim();
  if (/^\d+$/.test(s)) return Number(s);
  return Math.floor(Date.parse(s) / 1000);
}

/** "us, GB" → "us,gb"; empty → undefined. */
export function commaList(value: unknown): string | undefined {
  const list = (Array.isArray(value) ? value.map(String) : String(value ?? '').split(','))
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return list.length ? list.join(',') : undefined;
}

function dropEmpty(qs: IDataObject): IDataObject {
  return Object.fromEntries(Object.entries(qs).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
