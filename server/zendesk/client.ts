/**
 * Zendesk's Support API, the calls ARB makes: who the token is (users/me), tickets (create, show, search by
 * external_id), and comments (list, add a public comment or an internal note). Basic auth `{email}/token:{api_token}`
 * over HTTPS to https://{subdomain}.zendesk.com (ZENDESK_BASE_URL instead, for tests). Every refusal becomes a
 * ZendeskError whose message says in plain words what happened and what to do; 429 and 5xx carry when to try again.
 */
import { env } from '../env';
import { USER_AGENT } from '../userAgent';

/** Zendesk answers within seconds; a call that takes longer is treated as no answer (tried again later). */
const TIMEOUT_MS = 20_000;

export type ZendeskAccount = { subdomain: string; email: string; apiToken: string };

/** What went wrong, for the caller's decision: auth/forbidden/invalid are for good; rate_limited/unavailable pass. */
export type ZendeskErrorKind = 'auth' | 'forbidden' | 'not_found' | 'invalid' | 'rate_limited' | 'unavailable';

export class ZendeskError extends Error {
  constructor(
    readonly kind: ZendeskErrorKind,
    message: string,
    readonly status: number | null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
  /** Worth trying again later (a rate limit, a 5xx, no answer). */
  get passing(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable';
  }
}

/** A Zendesk subdomain: the `acme` of acme.zendesk.com. */
export const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The account's API host: https://{subdomain}.zendesk.com, or ZENDESK_BASE_URL (tests). */
export function zendeskBase(subdomain: string): string {
  return (env().ZENDESK_BASE_URL ?? `https://${subdomain}.zendesk.com`).replace(/\/$/, '');
}

/** Where an agent opens the ticket in Zendesk. */
export function agentTicketUrl(subdomain: string, ticketId: number): string {
  return `${zendeskBase(subdomain)}/agent/tickets/${ticketId}`;
}

/** Retry-After in seconds (Zendesk sends seconds); null without one. */
function retryAfterOf(header: string | null): number | null {
  if (!header) return null;
  const n = Number(header);
  if (Number.isFinite(n) && n >= 0) return Math.min(3600, Math.ceil(n));
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.min(3600, Math.max(1, Math.ceil((at - Date.now()) / 1000)));
}

/** Zendesk's own words from an error body: `{ error, description, details: { field: [{ description }] } }`. */
function detailsOf(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const b = body as { error?: unknown; description?: unknown; details?: unknown };
  const parts: string[] = [];
  if (b.details && typeof b.details === 'object') {
    for (const [field, list] of Object.entries(b.details as Record<string, unknown>)) {
      for (const d of Array.isArray(list) ? list : []) {
        const text = d && typeof d === 'object' && typeof (d as { description?: unknown }).description === 'string' ? (d as { description: string }).description : null;
        if (text) parts.push(field === 'base' ? text : `${field}: ${text}`);
      }
    }
  }
  if (!parts.length && typeof b.description === 'string') parts.push(b.description);
  if (!parts.length && typeof b.error === 'string') parts.push(b.error);
  if (!parts.length && b.error && typeof b.error === 'object' && typeof (b.error as { message?: unknown }).message === 'string') parts.push((b.error as { message: string }).message);
  return parts.join('; ').slice(0, 500);
}

async function call<T>(account: ZendeskAccount, method: 'GET' | 'POST' | 'PUT', path: string, doing: string, body?: unknown): Promise<T> {
  const auth = Buffer.from(`${account.email}/token:${account.apiToken}`).toString('base64');
  let res: Response;
  try {
    res = await fetch(`${zendeskBase(account.subdomain)}${path}`, {
      method,
      headers: { Authorization: `Basic ${auth}`, Accept: 'application/json', 'User-Agent': USER_AGENT, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new ZendeskError('unavailable', `Zendesk (${account.subdomain}.zendesk.com) ${timedOut ? 'did not answer within 20 seconds' : 'could not be reached'} while ${doing}.`, null);
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (res.ok) {
    if (parsed === null && text) throw new ZendeskError('unavailable', `Zendesk answered something that is not JSON while ${doing}.`, res.status);
    return parsed as T;
  }
  const words = detailsOf(parsed);
  const theirs = words ? ` (Zendesk said: ${words})` : '';
  switch (res.status) {
    case 401:
      throw new ZendeskError('auth', `Zendesk did not accept the e-mail and API token for ${account.subdomain}.zendesk.com${theirs}: check that the token is active (Admin Center → Apps and integrations → Zendesk API) and that the e-mail is the one of the agent it acts as, then connect again.`, 401);
    case 403:
      throw new ZendeskError('forbidden', `Zendesk refused ${account.email} while ${doing}${theirs}: the token must act as an agent or admin who may do this.`, 403);
    case 404:
      throw new ZendeskError('not_found', `Zendesk has no such thing while ${doing}${theirs}: is ${account.subdomain}.zendesk.com the right account?`, 404);
    case 422:
    case 400:
      throw new ZendeskError('invalid', `Zendesk refused the request while ${doing}${theirs}.`, res.status);
    case 429: {
      const after = retryAfterOf(res.headers.get('retry-after')) ?? 60;
      throw new ZendeskError('rate_limited', `Zendesk's request limit for ${account.subdomain}.zendesk.com is reached: tried again in ${after} seconds.`, 429, after);
    }
    default:
      throw new ZendeskError('unavailable', `Zendesk answered ${res.status} while ${doing}${theirs}: tried again shortly.`, res.status, retryAfterOf(res.headers.get('retry-after')));
  }
}

export type ZendeskUser = { id: number; name: string; email: string; role: string };
export type ZendeskTicket = { id: number; status: string; subject: string; external_id: string | null; tags: string[]; requester_id?: number };
export type ZendeskComment = { id: number; author_id: number; public: boolean; body: string; plain_body?: string; created_at: string };

/** The user the token acts as (the credentials' check at connect). */
export async function getMe(account: ZendeskAccount): Promise<ZendeskUser> {
  const r = await call<{ user: ZendeskUser }>(account, 'GET', '/api/v2/users/me.json', 'checking the credentials');
  // An unknown e-mail/token pair answers 200 with the anonymous user (id null) on some accounts: treat it as a 401.
  if (!r?.user || typeof r.user.id !== 'number') {
    throw new ZendeskError('auth', `Zendesk did not recognise ${account.email} with this API token on ${account.subdomain}.zendesk.com: check both, then connect again.`, 401);
  }
  if (r.user.role === 'end-user') {
    throw new ZendeskError('forbidden', `${account.email} is an end user in Zendesk: connect with the token of an agent or admin, who may create tickets and read comments.`, 403);
  }
  return r.user;
}

export type NewTicket = { subject: string; description: string; externalId: string; tags: string[] };

export async function createTicket(account: ZendeskAccount, t: NewTicket): Promise<ZendeskTicket> {
  const r = await call<{ ticket: ZendeskTicket }>(account, 'POST', '/api/v2/tickets.json', 'creating the ticket', {
    ticket: { subject: t.subject, comment: { body: t.description, public: false }, external_id: t.externalId, tags: t.tags },
  });
  return r.ticket;
}

export async function showTicket(account: ZendeskAccount, ticketId: number): Promise<ZendeskTicket> {
  return (await call<{ ticket: ZendeskTicket }>(account, 'GET', `/api/v2/tickets/${ticketId}.json`, 'reading the ticket')).ticket;
}

/** Tickets whose external_id is `externalId` (GET /api/v2/tickets.json?external_id=…). */
export async function ticketsByExternalId(account: ZendeskAccount, externalId: string): Promise<ZendeskTicket[]> {
  const r = await call<{ tickets: ZendeskTicket[] }>(account, 'GET', `/api/v2/tickets.json?external_id=${encodeURIComponent(externalId)}`, 'looking the ticket up');
  return r.tickets ?? [];
}

/** The ticket's comments, oldest first (the first one is its description). */
export async function listComments(account: ZendeskAccount, ticketId: number): Promise<ZendeskComment[]> {
  const r = await call<{ comments: ZendeskComment[] }>(account, 'GET', `/api/v2/tickets/${ticketId}/comments.json?sort_order=asc&per_page=100`, "reading the ticket's comments");
  return r.comments ?? [];
}

/** Adds a comment; `isPublic: false` is an internal note, which only agents see. */
export async function addComment(account: ZendeskAccount, ticketId: number, body: string, isPublic: boolean): Promise<void> {
  await call(account, 'PUT', `/api/v2/tickets/${ticketId}.json`, 'adding a note to the ticket', { ticket: { comment: { body, public: isPublic } } });
}
