/**
 * The dashboard's destination calls: validate → who is calling, with which role → service → answer.
 *   GET    v1/org/destinations             every destination of the organisation, with its state (members)
 *   PATCH  v1/org/destinations/{id}        { paused?, filters?, apps?, translate_to?, spike_alerts?, weekly_summaries? } (admins)
 *   DELETE v1/org/destinations/{id}        (admins)
 *   POST   v1/org/destinations/{id}/test   a test message now, answering what the platform said (admins)
 * A destination of another organisation is not found (404), whatever the caller's role.
 */
import { z } from 'zod';
import { ALL_PLATFORMS } from '@/shared/platforms';
import { endpoint } from '../http/api';
import { membershipOf, requireRole } from '../org/membership';
import { changeDestination, listDestinations, removeDestination, rotateDestinationSecret, sendTestMessage } from './service';

const DESTINATION_ID = /^dst_[0-9A-Za-z]{24}$/;
const APP_KEY = /^(apple_app_store__\d{1,20}|google_play_store__[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+)$/;

const idParam = z.object({ id: z.string() }).transform(({ id }, ctx) => {
  if (!DESTINATION_ID.test(id)) ctx.addIssue({ code: 'custom', message: 'not a destination id (dst_ followed by 24 letters and digits).', path: ['id'] });
  return { id };
});

/** The filters an admin may set; each list empty or absent means "all". Words for each mistake. */
const filtersBody = z
  .object(
    {
      ratings: z
        .array(z.number('ratings must be whole numbers from 1 to 5.').int('ratings must be whole numbers from 1 to 5.').min(1, 'ratings must be 1 to 5.').max(5, 'ratings must be 1 to 5.'), 'ratings must be a list of star ratings.')
        .max(5, 'ratings: at most 5 values.')
        .optional(),
      countries: z
        .array(z.string('countries must be two-letter codes like "us".').trim().toLowerCase().regex(/^[a-z]{2}$/, 'countries must be two-letter codes like "us".'), 'countries must be a list.')
        .max(300, 'countries: at most 300 values.')
        .optional(),
      languages: z
        .array(
          z
            .string('languages must be codes like "en" or "pt-br".')
            .trim()
            .toLowerCase()
            .regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, 'languages must be codes like "en" or "pt-br".'),
          'languages must be a list.',
        )
        .max(100, 'languages: at most 100 values.')
        .optional(),
      keywords: z
        .array(
          z
            .string('keywords must be words or phrases.')
            .trim()
            .min(1, 'keywords cannot be empty.')
            .max(100, 'keywords can be at most 100 characters each.')
            .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'keywords cannot contain control characters.'),
          'keywords must be a list.',
        )
        .max(50, 'keywords: at most 50.')
        .optional(),
      tags: z
        .array(z.string('tags must be tag ids.').regex(/^tag_[0-9A-Za-z]{24}$/, 'tags must be tag ids (tag_ followed by 24 letters and digits).'), 'tags must be a list of tag ids.')
        .max(50, 'tags: at most 50.')
        .optional()
        .meta({ description: 'Only reviews with one of these tags: each is posted when it is tagged.' }),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys' ? 'filters can only have ratings, countries, languages, keywords and tags.' : 'filters must be an object with ratings, countries, languages, keywords and tags.',
    },
  )
  .strict();

const appShape = z.object({ app_key: z.string(), app_id: z.string(), app_store: z.string(), title: z.string(), icon_url: z.string().nullable() });
const destinationShape = z.object({
  id: z.string(),
  platform: z.enum(ALL_PLATFORMS),
  platform_name: z.string(),
  label: z.string().nullable().meta({ description: 'Channel name when known.' }),
  target: z.string().meta({ description: 'Where it posts, redacted (host and last characters, or the first letters of an address): never the secret URL.' }),
  apps: z.array(appShape),
  filters: z.object({
    ratings: z.array(z.number()).optional(),
    countries: z.array(z.string()).optional(),
    languages: z.array(z.string()).optional(),
    keywords: z.array(z.string()).optional(),
    tags: z.array(z.string()).optional(),
  }),
  translate_to: z.string().nullable().meta({ description: 'The language each review message is translated into (shown under the review), or null.' }),
  spike_alerts: z.boolean().meta({ description: 'Whether spike alerts (a surge of 1–2★ reviews or a drop of the average rating) for its apps are posted here too.' }),
  weekly_summaries: z.boolean().meta({ description: 'Whether the weekly summary of each of its apps (every Monday, UTC, for the week before) is posted here too. Needs the plan feature summaries.' }),
  status: z.enum(['active', 'paused', 'disabled', 'pending_confirmation']),
  status_reason: z.string().nullable(),
  cause: z.enum(['owner', 'unsubscribed', 'receiver_refused', 'rate_limited', 'anonymous_expired', 'plan_limit']).nullable(),
  fix: z.string().nullable().meta({ description: 'How to get it going again, in plain words (null while active).' }),
  warning: z.string().nullable(),
  last_delivery_at: z.string().nullable(),
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
  first_message: z.enum(['not_yet', 'delivered', 'failed']).meta({ description: '"delivered" once a message got through (only then is it active in fact); "failed" while none has and the last attempt failed.' }),
  first_delivery_problem: z.string().nullable().meta({ description: 'While first_message is "failed": what happened and what to check, in words.' }),
  parked: z.number().int().meta({ description: 'Messages set aside because the worker stopped while sending each of them several times in a row.' }),
  parked_reason: z.string().nullable(),
  created_at: z.string(),
});

export const listOrgDestinations = endpoint({
  summary: "The organisation's destinations with their state, last delivery and last error (no secrets)",
  tags: ['org'],
  auth: 'user',
  response: z.array(destinationShape),
  handler: async ({ auth }) => listDestinations(await membershipOf(auth)),
});

export const updateOrgDestination = endpoint({
  statuses: [402, 404, 409],
  summary: 'Pause or resume a destination, or change its filters, apps, translation language, spike alerts or weekly summaries (admins and owners)',
  tags: ['org'],
  auth: 'user',
  params: idParam,
  body: z
    .object(
      {
        paused: z.boolean('paused must be true or false.').optional(),
        filters: filtersBody.optional(),
        apps: z
          .array(z.string('apps must be app keys like apple_app_store__123456789.').regex(APP_KEY, 'apps must be app keys like apple_app_store__123456789.'), 'apps must be a list.')
          .min(1, 'apps: a destination watches at least one app.')
          .max(100, 'apps: at most 100.')
          .optional(),
        translate_to: z
          .string('translate_to must be a language code like "en", or null.')
          .trim()
          .toLowerCase()
          .regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, 'translate_to must be a language code like "en", or null.')
          .nullable()
          .optional(),
        spike_alerts: z.boolean('spike_alerts must be true or false.').optional(),
        weekly_summaries: z.boolean('weekly_summaries must be true or false.').optional(),
      },
      {
        error: (iss) =>
          iss.code === 'unrecognized_keys' ? 'Only paused, filters, apps, translate_to, spike_alerts and weekly_summaries can be changed.' : 'The body must be a JSON object.',
      },
    )
    .strict()
    .refine((b) => Object.values(b).some((v) => v !== undefined), 'Nothing to change: send paused, filters, apps, translate_to, spike_alerts or weekly_summaries.'),
  response: destinationShape,
  handler: async ({ auth, params, body }) => changeDestination(await requireRole(auth, 'admin', 'change destinations'), params.id, body),
});

export const deleteOrgDestinationEndpoint = endpoint({
  statuses: [404],
  summary: 'Delete a destination: it stops receiving reviews at once, its queue is dropped (admins and owners)',
  tags: ['org'],
  auth: 'user',
  params: idParam,
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, params }) => {
    await removeDestination(await requireRole(auth, 'admin', 'delete destinations'), params.id);
    return { ok: true as const };
  },
});

export const testOrgDestination = endpoint({
  statuses: [404, 409],
  summary: 'Send a test message now, formatted like a review, and answer what the platform said (admins and owners; a few per destination)',
  tags: ['org'],
  auth: 'user',
  params: idParam,
  response: z.object({
    ok: z.boolean(),
    status: z.number().meta({ description: "The platform's HTTP status (250 for a mail server's yes; 0 when no answer came)." }),
    message: z.string().meta({ description: 'What the platform said, in plain words.' }),
  }),
  handler: async ({ auth, params }) => sendTestMessage(await requireRole(auth, 'admin', 'send test messages'), params.id),
});

export const rotateOrgDestinationSecret = endpoint({
  statuses: [404, 409],
  summary: 'Make a new signing secret for a Webhook destination (admins and owners): shown in this answer only; the old one still signs, next to it, for a day',
  tags: ['org'],
  auth: 'user',
  params: idParam,
  response: z.object({
    signing_secret: z.string().meta({ description: '`whsec_` + base64: the key of the Standard Webhooks signature.' }),
    previous_secret_expires_at: z.string().meta({
      description: 'Until then every message carries two signatures (`v1,<new> v1,<old>`), so the endpoint verifies with either secret while it is updated.',
    }),
  }),
  handler: async ({ auth, params }) => rotateDestinationSecret(await requireRole(auth, 'admin', 'rotate signing secrets'), params.id),
});
