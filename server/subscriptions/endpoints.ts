/**
 * Reviews by e-mail (CONTRACT.md): validate → call the service → answer.
 *   POST v1/public/reviews          { email, app_id, app_store, country?, weekly_summary? }
 *                                                                            recent reviews now, digest offered (and the
 *                                                                            weekly summary, asked for when ticked)
 *   POST v1/public/send-summary     { email, app_id, app_store, weekly_summary? } a computed summary of recent reviews
 *   POST v1/public/email/confirm    { token }                                digest or weekly summary on / confirmed request sent /
 *                                                                            e-mail destination confirmed
 *   GET  v1/public/email/unsubscribe?token=…                                 who the link is for (the page asks first)
 *   POST v1/public/email/unsubscribe?token=…                                 unsubscribe; RFC 8058 one-click target
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { emailAddress } from '../http/schemas';
import { appRefSchema, withCheckedAppId } from '../apps/params';
import { confirmEmailToken, describeUnsubscribe, requestEmail, unsubscribeWithEmailToken } from './service';

const country = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2}$/, 'must be a two-letter country code, e.g. us')
  .optional();

const weeklySummary = z
  .boolean('weekly_summary must be true or false.')
  .optional()
  .meta({ description: 'Also a weekly summary of the app (every Monday): the e-mail asks for one confirming click; nothing recurring starts without it.' });

const queuedResponse = z.object({ queued: z.literal(true), confirmation_required: z.boolean() });
const token = z.string({ error: 'is required' }).min(20, 'is not a valid link token').max(2048, 'is too long');

export const reviewsByEmailEndpoint = endpoint({
  statuses: [404, 502, 503],
  summary: "E-mail an app's recent reviews (and offer a daily digest)",
  tags: ['email'],
  body: appRefSchema.extend({ email: emailAddress, country, weekly_summary: weeklySummary }).transform(withCheckedAppId),
  response: queuedResponse,
  handler: ({ body, ip }) =>
    requestEmail({
      kind: 'recent_reviews',
      email: body.email as string,
      app: { store: body.app_store, appId: body.app_id },
      country: body.country ?? '',
      ip,
      weeklySummary: body.weekly_summary === true,
    }),
});

export const sendSummaryEndpoint = endpoint({
  statuses: [404, 502, 503],
  summary: "E-mail a summary of an app's recent reviews: counts per rating, average, most mentioned words, latest negative reviews",
  tags: ['email'],
  body: appRefSchema.extend({ email: emailAddress, country, weekly_summary: weeklySummary }).transform(withCheckedAppId),
  response: queuedResponse,
  handler: ({ body, ip }) =>
    requestEmail({ kind: 'summary', email: body.email as string, app: { store: body.app_store, appId: body.app_id }, country: body.country ?? '', ip, weeklySummary: body.weekly_summary === true }),
});

export const confirmEmailEndpoint = endpoint({
  statuses: [404, 409, 503],
  summary: 'Confirm from an e-mail link: turn the daily digest or the weekly summary on, send what an unsubscribed address asked for, or start a new e-mail destination',
  tags: ['email'],
  body: z.object({ token }),
  response: z.object({ action: z.enum(['digest_on', 'weekly_on', 'queued', 'destination_on']), app: z.string(), email: z.string() }),
  handler: ({ body, ip }) => confirmEmailToken(body.token, ip),
});

export const describeUnsubscribeEndpoint = endpoint({
  summary: 'Who an unsubscribe link is for (masked) and whether it was used already',
  tags: ['email'],
  query: z.object({ token }),
  response: z.object({ email: z.string(), unsubscribed: z.boolean() }),
  handler: ({ query }) => describeUnsubscribe(query.token),
});

export const unsubscribeEndpoint = endpoint({
  summary: 'Unsubscribe an address from every ARB review e-mail (one-click, RFC 8058; no sign-in)',
  tags: ['email'],
  // The token is in the query: mail clients POST `List-Unsubscribe=One-Click` as a form (RFC 8058 allows either
  // encoding), which needs no reading. A cross-site form can only do what the link in the e-mail does.
  query: z.object({ token }),
  contentTypes: ['application/x-www-form-urlencoded', 'multipart/form-data'],
  response: z.object({ email: z.string(), unsubscribed: z.literal(true), apps: z.array(z.string()) }),
  handler: ({ query }) => unsubscribeWithEmailToken(query.token),
});
