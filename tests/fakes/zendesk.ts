/**
 * A loopback Zendesk Support API, as ARB uses it (ZENDESK_BASE_URL = fake.url stands for https://{subdomain}.zendesk.com):
 *   GET  /api/v2/users/me.json                         the token's user (basic auth `{email}/token:{api_token}`)
 *   POST /api/v2/tickets.json                          create (201; 422 RecordInvalid without a subject or comment)
 *   GET  /api/v2/tickets/{id}.json                     show (404 RecordNotFound)
 *   GET  /api/v2/tickets.json?external_id=…            tickets by external_id
 *   GET  /api/v2/tickets/{id}/comments.json            the comments, oldest first (the first is the description)
 *   PUT  /api/v2/tickets/{id}.json                     { ticket: { comment: { body, public }, status? } }
 * with Zendesk's answers: 401 `Couldn't authenticate you` for a wrong token, 403 Forbidden for an end user, 429 with
 * Retry-After past the account's rate (or `failNext`), and any status by `failNext`.
 *
 * What an agent does in Zendesk is a method here (`agentReply`, `solve`), and the triggers the admin set up (`addTrigger`)
 * fire as Zendesk's do: the trigger's JSON body with its placeholders filled, POSTed to the webhook's URL, signed with
 * the webhook's signing secret (X-Zendesk-Webhook-Signature = base64 HMAC-SHA256 of the timestamp + the body, and the
 * timestamp in X-Zendesk-Webhook-Signature-Timestamp).
 *
 *   const zd = createZendesk();
 *   const agent = zd.addUser({ email: 'agent@acme.test', role: 'admin' });
 *   const fake = await startFakeServer([zendeskRoutes(zd)]);      // ZENDESK_BASE_URL = fake.url
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { FakeHandler, RecordedRequest } from './http';
import { json } from './http';

export type ZendeskUser = { id: number; name: string; email: string; role: 'admin' | 'agent' | 'end-user'; token: string };
export type ZendeskComment = { id: number; author_id: number; public: boolean; body: string; plain_body: string; created_at: string };
export type ZendeskTicket = {
  id: number;
  subject: string;
  status: 'new' | 'open' | 'pending' | 'hold' | 'solved' | 'closed';
  external_id: string | null;
  tags: string[];
  requester_id: number;
  created_at: string;
  updated_at: string;
  comments: ZendeskComment[];
};
export type ZendeskTrigger = { url: string; secret: string; body: string; headers?: Record<string, string> };
type Failure = { status: number; headers?: Record<string, string>; body?: unknown };

export type ZendeskFake = {
  users: ZendeskUser[];
  tickets: ZendeskTicket[];
  /** Every ticket create that reached Zendesk (applied), newest last: tests count them to prove no second ticket. */
  creates: Array<{ external_id: string | null; subject: string }>;
  failures: Failure[];
  /** The next `times` API requests answer with this failure. */
  failNext(failure: Failure, times?: number): void;
  /** The next create is applied, then its connection is dropped before the answer (an unknown outcome). */
  dropNextCreateAnswer(): void;
  dropNextCreate: boolean;
  /** Requests per minute per account before 429 (Zendesk's plans: 200–2,500). */
  ratePerMinute: number;
  recent: number[];
  addUser(u: Partial<ZendeskUser> & { email: string }): ZendeskUser;
  triggers: ZendeskTrigger[];
  /** A trigger notifying a webhook: fired for every update of a ticket tagged `arb` (a public comment, a status change). */
  addTrigger(t: ZendeskTrigger): void;
  /** An agent answers on the ticket (a public comment unless `isPublic: false`); the triggers fire. */
  agentReply(ticketId: number, body: string, agent: ZendeskUser, options?: { isPublic?: boolean }): Promise<Response[]>;
  /** An agent solves the ticket; the triggers fire. */
  solve(ticketId: number, agent: ZendeskUser): Promise<Response[]>;
  ticketByExternalId(externalId: string): ZendeskTicket | undefined;
};

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const STATUS_LABEL: Record<string, string> = { new: 'New', open: 'Open', pending: 'Pending', hold: 'On-hold', solved: 'Solved', closed: 'Closed' };

/** Zendesk's signature of a webhook request: base64(HMAC-SHA256(secret, timestamp + body)). */
export function signZendeskWebhook(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(timestamp + body).digest('base64');
}

/** POSTs `body` to `url` as Zendesk's webhook does, signed with `secret` (a timestamp of now unless given). */
export async function sendZendeskWebhook(url: string, secret: string, body: string, options: { timestamp?: string; signature?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const timestamp = options.timestamp ?? now();
  return fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Zendesk Webhook',
      'X-Zendesk-Webhook-Id': '01HZFAKEWEBHOOK',
      'X-Zendesk-Webhook-Invocation-Id': String(Date.now()),
      'X-Zendesk-Webhook-Signature-Timestamp': timestamp,
      'X-Zendesk-Webhook-Signature': options.signature ?? signZendeskWebhook(secret, timestamp, body),
      ...options.headers,
    },
    body,
  });
}

/** A signing secret in Zendesk's shape (what "Reveal secret" shows). */
export const newSigningSecret = () => randomBytes(30).toString('base64url');

/** The trigger's body with Zendesk's placeholders filled for the ticket. */
function render(body: string, t: ZendeskTicket): string {
  return body
    .replaceAll('{{ticket.id}}', String(t.id))
    .replaceAll('{{ticket.status}}', STATUS_LABEL[t.status])
    .replaceAll('{{ticket.external_id}}', t.external_id ?? '')
    .replaceAll('{{ticket.title}}', t.subject.replace(/"/g, '\\"'));
}

export function createZendesk(): ZendeskFake {
  let nextUser = 9_000_000_000 + Math.floor(Math.random() * 1000) * 1000;
  let nextTicket = 100;
  let nextComment = 40_000_000_000;
  const fake: ZendeskFake = {
    users: [],
    tickets: [],
    creates: [],
    failures: [],
    triggers: [],
    dropNextCreate: false,
    ratePerMinute: 700,
    recent: [],
    failNext(failure, times = 1) {
      for (let i = 0; i < times; i++) this.failures.push(failure);
    },
    dropNextCreateAnswer() {
      this.dropNextCreate = true;
    },
    addUser(u) {
      const user: ZendeskUser = { id: ++nextUser, name: u.name ?? u.email.split('@')[0], role: u.role ?? 'admin', token: u.token ?? randomBytes(20).toString('base64url'), email: u.email };
      this.users.push(user);
      return user;
    },
    addTrigger(t) {
      this.triggers.push(t);
    },
    ticketByExternalId(externalId) {
      return this.tickets.find((t) => t.external_id === externalId);
    },
    async agentReply(ticketId, body, agent, options = {}) {
      const t = this.tickets.find((x) => x.id === ticketId)!;
      t.comments.push({ id: ++nextComment, author_id: agent.id, public: options.isPublic ?? true, body, plain_body: body, created_at: now() });
      if (t.status === 'new') t.status = 'open';
      t.updated_at = now();
      // The trigger's conditions: a public comment, or the status changed to solved (an internal note fires nothing).
      return options.isPublic === false ? [] : fire(t);
    },
    async solve(ticketId) {
      const t = this.tickets.find((x) => x.id === ticketId)!;
      t.status = 'solved';
      t.updated_at = now();
      return fire(t);
    },
  };
  // Zendesk's triggers run on a ticket's update; ARB's condition is the tag `arb`.
  const fire = (t: ZendeskTicket) => Promise.all(t.tags.includes('arb') ? fake.triggers.map((tr) => sendZendeskWebhook(tr.url, tr.secret, render(tr.body, t), { headers: tr.headers })) : []);
  Object.assign(fake, {
    _newTicket(user: ZendeskUser, input: { subject: string; comment: { body: string; public?: boolean }; external_id?: string | null; tags?: string[] }): ZendeskTicket {
      const t: ZendeskTicket = {
        id: ++nextTicket,
        subject: input.subject,
        status: 'new',
        external_id: input.external_id ?? null,
        tags: [...new Set((input.tags ?? []).map((x) => x.toLowerCase()))],
        requester_id: user.id,
        created_at: now(),
        updated_at: now(),
        comments: [{ id: ++nextComment, author_id: user.id, public: input.comment.public ?? true, body: input.comment.body, plain_body: input.comment.body, created_at: now() }],
      };
      fake.tickets.push(t);
      return t;
    },
    _comment(t: ZendeskTicket, user: ZendeskUser, c: { body: string; public?: boolean }) {
      t.comments.push({ id: ++nextComment, author_id: user.id, public: c.public ?? true, body: c.body, plain_body: c.body, created_at: now() });
    },
  });
  return fake;
}

const ticketJson = (t: ZendeskTicket) => {
  const { comments, ...rest } = t;
  return { ...rest, url: `https://fake.zendesk.com/api/v2/tickets/${t.id}.json`, description: comments[0]?.body ?? '', type: null, priority: null };
};

/** The basic-auth user, or null (`{email}/token:{token}`). */
function userOf(fake: ZendeskFake, req: RecordedRequest): ZendeskUser | null {
  const m = /^Basic (.+)$/.exec(String(req.headers.authorization ?? ''));
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const sep = decoded.indexOf('/token:');
  if (sep < 0) return null;
  const email = decoded.slice(0, sep).toLowerCase();
  const token = decoded.slice(sep + '/token:'.length);
  return fake.users.find((u) => u.email.toLowerCase() === email && u.token === token) ?? null;
}

const COULD_NOT_AUTHENTICATE = { error: "Couldn't authenticate you" };
const FORBIDDEN = { error: 'Forbidden', description: 'You do not have access to this page. Please contact the account owner of this help desk for further help.' };
const NOT_FOUND = { error: 'RecordNotFound', description: 'Not found' };

export function zendeskRoutes(fake: ZendeskFake): FakeHandler {
  const internals = fake as ZendeskFake & {
    _newTicket: (u: ZendeskUser, input: { subject: string; comment: { body: string; public?: boolean }; external_id?: string | null; tags?: string[] }) => ZendeskTicket;
    _comment: (t: ZendeskTicket, u: ZendeskUser, c: { body: string; public?: boolean }) => void;
  };
  return (req, res) => {
    if (!req.path.startsWith('/api/v2/')) return false;
    const failure = fake.failures.shift();
    if (failure) {
      json(res, failure.status, failure.body ?? { error: 'Failure' }, failure.headers);
      return true;
    }
    const user = userOf(fake, req);
    if (!user) {
      json(res, 401, COULD_NOT_AUTHENTICATE, { 'WWW-Authenticate': 'Basic realm="Web Password"' });
      return true;
    }
    const minuteAgo = Date.now() - 60_000;
    fake.recent = fake.recent.filter((t) => t > minuteAgo);
    if (fake.recent.length >= fake.ratePerMinute) {
      json(res, 429, { error: 'TooManyRequests', description: 'You have made too many requests. Please try again later.' }, { 'Retry-After': String(Math.ceil((fake.recent[0] + 60_000 - Date.now()) / 1000)) });
      return true;
    }
    fake.recent.push(Date.now());
    let body: Record<string, unknown> = {};
    if (req.body) {
      try {
        body = JSON.parse(req.body) as Record<string, unknown>;
      } catch {
        json(res, 400, { error: 'Unprocessable Entity', description: 'Server could not parse JSON' });
        return true;
      }
    }
    if (req.method === 'GET' && req.path === '/api/v2/users/me.json') {
      json(res, 200, { user: { id: user.id, name: user.name, email: user.email, role: user.role, active: true, verified: true, url: `https://fake.zendesk.com/api/v2/users/${user.id}.json` } });
      return true;
    }
    if (user.role === 'end-user') {
      json(res, 403, FORBIDDEN);
      return true;
    }
    if (req.method === 'POST' && req.path === '/api/v2/tickets.json') {
      const t = (body.ticket ?? {}) as { subject?: unknown; comment?: { body?: unknown; public?: unknown }; external_id?: unknown; tags?: unknown };
      const details: Record<string, Array<{ description: string; error: string }>> = {};
      if (!t.comment || typeof t.comment.body !== 'string' || !t.comment.body.trim()) details.description = [{ description: 'Description: cannot be blank', error: 'BlankValue' }];
      if (typeof t.subject === 'string' && t.subject.length > 255) details.subject = [{ description: 'Subject: is too long (maximum is 255 characters)', error: 'TooLong' }];
      if (Object.keys(details).length) {
        json(res, 422, { error: 'RecordInvalid', description: 'Record validation errors', details });
        return true;
      }
      const ticket = internals._newTicket(user, {
        subject: typeof t.subject === 'string' && t.subject ? t.subject : String(t.comment!.body).slice(0, 80),
        comment: { body: String(t.comment!.body), public: t.comment!.public !== false },
        external_id: typeof t.external_id === 'string' ? t.external_id : null,
        tags: Array.isArray(t.tags) ? t.tags.map(String) : [],
      });
      fake.creates.push({ external_id: ticket.external_id, subject: ticket.subject });
      if (fake.dropNextCreate) {
        fake.dropNextCreate = false;
        res.socket?.destroy();
        return true;
      }
      json(res, 201, { ticket: ticketJson(ticket), audit: { ticket_id: ticket.id, events: [] } }, { Location: `https://fake.zendesk.com/api/v2/tickets/${ticket.id}.json` });
      return true;
    }
    if (req.method === 'GET' && req.path === '/api/v2/tickets.json' && req.query.has('external_id')) {
      const found = fake.tickets.filter((t) => t.external_id === req.query.get('external_id'));
      json(res, 200, { tickets: found.map(ticketJson), next_page: null, previous_page: null, count: found.length });
      return true;
    }
    const one = /^\/api\/v2\/tickets\/(\d+)(\/comments)?\.json$/.exec(req.path);
    if (one) {
      const t = fake.tickets.find((x) => x.id === Number(one[1]));
      if (!t) {
        json(res, 404, NOT_FOUND);
        return true;
      }
      if (req.method === 'GET' && one[2]) {
        const list = req.query.get('sort_order') === 'desc' ? [...t.comments].reverse() : t.comments;
        json(res, 200, { comments: list.map((c) => ({ ...c, type: 'Comment', html_body: `<div class="zd-comment"><p>${c.body}</p></div>`, attachments: [] })), next_page: null, previous_page: null, count: list.length });
        return true;
      }
      if (req.method === 'GET') {
        json(res, 200, { ticket: ticketJson(t) });
        return true;
      }
      if (req.method === 'PUT' && !one[2]) {
        const u = (body.ticket ?? {}) as { comment?: { body?: unknown; public?: unknown }; status?: unknown };
        if (u.comment) {
          if (typeof u.comment.body !== 'string' || !u.comment.body.trim()) {
            json(res, 422, { error: 'RecordInvalid', description: 'Record validation errors', details: { base: [{ description: 'Comment: cannot be blank', error: 'BlankValue' }] } });
            return true;
          }
          internals._comment(t, user, { body: u.comment.body, public: u.comment.public !== false });
        }
        if (typeof u.status === 'string') t.status = u.status as ZendeskTicket['status'];
        t.updated_at = now();
        json(res, 200, { ticket: ticketJson(t), audit: { ticket_id: t.id, events: [] } });
        return true;
      }
    }
    return false;
  };
}
