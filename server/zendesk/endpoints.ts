/**
 * Zendesk over HTTP:
 *   GET/PUT/PATCH/DELETE v1/org/integrations/zendesk   the organisation's connection (PUT, PATCH, DELETE: admins; the
 *                                                       webhook's URL and signing secret are shown to admins only;
 *                                                       the API token is never answered)
 *   POST v1/org/reviews/{id}/ticket                     "Create ticket" on a review (every member may)
 *   POST v1/integrations/zendesk/webhook?key=…          Zendesk's signed webhook (webhook.ts)
 */
import { z } from 'zod';
import { endpoint, type Ctx } from '../http/api';
import { HttpError } from '../http/errors';
import { emailAddress } from '../http/schemas';
import { membershipOf, requireRole } from '../org/membership';
import { reviewIdParam } from '../replies/endpoints';
import { atLeast } from '@/shared/orgRoles';
import { ZENDESK_TRIGGER_BODY, ZENDESK_TRIGGER_NAME } from '@/shared/zendesk';
import { decryptSecret } from '../crypto';
import { SUBDOMAIN } from './client';
import { connectZendesk, disconnectZendesk, notConnected, setWebhookSecret, webhookUrlOf } from './connection';
import { connectionOf, type ConnectionRow, type TicketRow } from './data';
import { requestTicket, ticketNow } from './tickets';
import { handleZendeskWebhook, WEBHOOK_MAX_BYTES } from './webhook';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

const statusShape = z.object({
  connected: z.boolean(),
  subdomain: z.string().nullable(),
  email: z.string().nullable().meta({ description: 'The agent the API token acts as.' }),
  user_name: z.string().nullable(),
  connected_at: z.string().nullable(),
  webhook_url: z.string().nullable().meta({ description: 'Admins only: the URL of the webhook to create in Zendesk.' }),
  signing_secret_set: z.boolean(),
  signing_secret: z.string().nullable().meta({ description: "Admins only: the webhook's signing secret as saved." }),
  last_event_at: z.string().nullable().meta({ description: 'When the last signed event from Zendesk arrived.' }),
  trigger: z.object({ name: z.string(), body: z.string() }).meta({ description: 'The trigger to create in Zendesk, and its JSON body.' }),
});

function statusJson(c: ConnectionRow | undefined, admin: boolean): z.infer<typeof statusShape> {
  let secret: string | null = null;
  if (admin && c?.signing_secret_enc) {
    try {
      secret = decryptSecret(c.signing_secret_enc);
    } catch {
      secret = null;
    }
  }
  return {
    connected: !!c,
    subdomain: c?.subdomain ?? null,
    email: c?.email ?? null,
    user_name: c?.zendesk_user_name ?? null,
    connected_at: iso(c?.updated_at ?? null),
    webhook_url: c && admin ? webhookUrlOf(c) : null,
    signing_secret_set: !!c?.signing_secret_enc,
    signing_secret: secret,
    last_event_at: iso(c?.last_event_at ?? null),
    trigger: { name: ZENDESK_TRIGGER_NAME, body: ZENDESK_TRIGGER_BODY },
  };
}

/** acme, acme.zendesk.com or https://acme.zendesk.com/… → acme. */
const subdomainField = z
  .string('subdomain must be a string.')
  .max(300)
  .transform((v, ctx) => {
    const s = v
      .trim()
      .toLowerCase()
      .replace(/^https?:\/\//, '')
      .replace(/\/.*$/, '')
      .replace(/\.zendesk\.com$/, '');
    if (!SUBDOMAIN.test(s)) {
      ctx.addIssue({ code: 'custom', message: 'the subdomain of your Zendesk, e.g. acme for acme.zendesk.com (letters, digits and dashes).' });
      return z.NEVER;
    }
    return s;
  })
  .meta({ description: 'Your Zendesk subdomain: acme for acme.zendesk.com.', example: 'acme' });

export const getZendeskEndpoint = endpoint({
  summary: "The organisation's Zendesk connection: whether it is connected and, for admins, the webhook's URL and signing secret",
  tags: ['integrations'],
  auth: 'user',
  response: statusShape,
  handler: async ({ auth }) => {
    const m = await membershipOf(auth);
    return statusJson(await connectionOf(m.orgId), atLeast(m.role, 'admin'));
  },
});

export const putZendeskEndpoint = endpoint({
  statuses: [422, 502],
  summary: 'Connect Zendesk (admins): the subdomain, an agent\'s e-mail and API token, checked with GET /api/v2/users/me.json before they are saved; the token is never answered',
  tags: ['integrations'],
  auth: 'user',
  body: z.object({
    subdomain: subdomainField,
    email: emailAddress,
    api_token: z.string('api_token must be a string.').trim().min(1, 'paste the API token (Admin Center → Apps and integrations → Zendesk API).').max(200, 'an API token is at most 200 characters.'),
  }),
  response: statusShape,
  handler: async ({ auth, body }) => {
    const m = await requireRole(auth, 'admin', 'connect Zendesk');
    return statusJson(await connectZendesk(m, { subdomain: body.subdomain, email: body.email, apiToken: body.api_token }), true);
  },
});

export const patchZendeskEndpoint = endpoint({
  statuses: [409],
  summary: "Save the signing secret of the webhook made in Zendesk (admins): ARB then takes the webhook's signed events",
  tags: ['integrations'],
  auth: 'user',
  body: z.object({
    signing_secret: z
      .string('signing_secret must be a string.')
      .trim()
      .min(8, "paste the webhook's signing secret (in Zendesk: the webhook → Signing secret → Reveal secret).")
      .max(200, 'a signing secret is at most 200 characters.')
      .refine((v) => !/\s/.test(v), 'a signing secret has no spaces.'),
  }),
  response: statusShape,
  handler: async ({ auth, body }) => statusJson(await setWebhookSecret(await requireRole(auth, 'admin', 'set up Zendesk'), body.signing_secret), true),
});

export const deleteZendeskEndpoint = endpoint({
  statuses: [404],
  summary: 'Disconnect Zendesk (admins): the token and secret are forgotten; the links to tickets already created stay',
  tags: ['integrations'],
  auth: 'user',
  // A JSON body ({}) as for every other change: a request with no type (what another site's page can send) is refused.
  body: z.object({}, 'send an empty JSON object ({}) as the body.').meta({ description: 'Empty: {}' }),
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth }) => {
    await disconnectZendesk(await requireRole(auth, 'admin', 'disconnect Zendesk'));
    return { ok: true as const };
  },
});

const ticketShape = z.object({
  review_id: z.string(),
  state: z.enum(['queued', 'created', 'failed']).meta({ description: 'queued: being created (tried again after a refusal that passes); failed: see failure.' }),
  ticket_id: z.number().nullable(),
  url: z.string().nullable(),
  status: z.string().nullable().meta({ description: "The ticket's status in Zendesk (new, open, pending, solved…), as last seen." }),
  failure: z.string().nullable(),
  requested_by: z.string(),
});

const ticketJson = (t: TicketRow): z.infer<typeof ticketShape> => ({
  review_id: String(t.review_id),
  state: t.state,
  ticket_id: t.ticket_id === null ? null : Number(t.ticket_id),
  url: t.ticket_url,
  status: t.ticket_status,
  failure: t.failure,
  requested_by: t.requested_by,
});

export const createTicketEndpoint = endpoint({
  statuses: [201, 202, 404, 409, 422],
  summary: "Create the review's Zendesk ticket (one per review: asking again answers the existing one)",
  tags: ['integrations'],
  auth: 'user',
  params: reviewIdParam,
  response: ticketShape,
  handler: async (ctx) => {
    const m = await membershipOf(ctx.auth);
    const { outcome } = await requestTicket({ orgId: m.orgId, reviewId: ctx.params.id, actor: { kind: 'member', userId: m.userId, email: m.email } });
    if (outcome === 'not_connected') throw notConnected();
    const row = (await ticketNow(m.orgId, ctx.params.id))!;
    if (row.state === 'failed') throw new HttpError(422, 'zendesk_refused', row.failure ?? 'Zendesk refused the ticket.');
    (ctx as Ctx<unknown, unknown, unknown>).status = row.state === 'queued' ? 202 : outcome === 'queued' ? 201 : 200;
    return ticketJson(row);
  },
});

export const zendeskWebhookEndpoint = endpoint({
  statuses: [401, 404, 413, 502, 503],
  summary: "Zendesk's webhook (signed with the webhook's signing secret): a public comment on a review's ticket is sent as the review's reply; the ticket solved marks the review done",
  tags: ['integrations'],
  auth: 'none',
  maxBodyBytes: WEBHOOK_MAX_BYTES,
  query: z.object({ key: z.string('key must be a string.').regex(/^zwh_[0-9A-Za-z]{32}$/, "not an ARB webhook key: copy the webhook URL again from ARB's Integrations page.") }),
  response: z.object({ received: z.literal(true), duplicate: z.literal(true).optional(), ignored: z.string().optional() }),
  handler: ({ req, query }) => handleZendeskWebhook(req, query.key),
});
