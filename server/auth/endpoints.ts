/** The sign-in and session calls of the API (CONTRACT.md "HTTP API"): validate → authorize → service → answer. */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { emailAddress } from '../http/schemas';
import { confirmSignInCode, requestSignInCode } from './emailSignIn';
import { ORG_ID_PATTERN } from './secrets';
import { readClaimCookie } from '../connect/claimCookie';
import { handoffNonceCookie, handoffNonceFor, readHandoffNonce } from './handoffNonce';
import { createHandoffCode, exchangeHandoffCode, exchangeOrgIdForBillingToken, logout, logoutEverywhere, renewAccessToken } from './session';
import { exchangeInvitationToken, exchangeSignInToken } from '../flows/signIn';

const captchaToken = z
  .string('captcha_token must be a string.')
  .max(8192)
  .meta({ description: 'hCaptcha response token (may be empty when the server has no HCAPTCHA_SECRET).' });

const attributionValue = z
  .string()
  .max(500)
  .nullish()
  .transform((v) => (v && v.trim() ? v.trim() : null));

const sessionAnswer = z.object({
  authToken: z.string().meta({ description: 'Access token (15 minutes) for Authorization: Bearer.' }),
  refreshToken: z.string().meta({ description: 'For POST v1/auth/token/renew; ends with the session (logout, 30 days).' }),
  email: z.string(),
  name: z.string().optional(),
  displayName: z.string().optional(),
});

export const emailSignIn = endpoint({
  statuses: [502],
  summary: 'E-mail a 6-digit sign-in code',
  tags: ['auth'],
  body: z.object({ email: emailAddress, captcha_token: captchaToken }),
  response: z.object({ sent: z.literal(true) }),
  handler: async ({ body, ip }) => {
    await requestSignInCode({ email: body.email, captchaToken: body.captcha_token, ip });
    return { sent: true } as const;
  },
});

export const emailSignInConfirm = endpoint({
  statuses: [401],
  summary: 'Check a sign-in code and get a one-time sign-in token',
  tags: ['auth'],
  body: z.object({
    email: emailAddress,
    code: z
      .string('code must be a string.')
      .max(64)
      .transform((v) => v.replace(/\s+/g, ''))
      .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from the e-mail.')),
    captcha_token: captchaToken,
  }),
  response: z.object({ token: z.string() }),
  handler: async ({ body, ip }) => ({
    token: await confirmSignInCode({ email: body.email, code: body.code, captchaToken: body.captcha_token, ip }),
  }),
});

const oneTimeToken = z.string('token must be a string.').min(1, 'token is missing.').max(200);

/** First-touch attribution the browser kept (utm_*, referral), recorded when the sign-in creates the account. */
const attributionMetadata = z
  .object({
    utm_source: attributionValue,
    utm_medium: attributionValue,
    utm_campaign: attributionValue,
    referral: attributionValue,
  })
  .nullish()
  .transform((m) => ({
    utm_source: m?.utm_source ?? null,
    utm_medium: m?.utm_medium ?? null,
    utm_campaign: m?.utm_campaign ?? null,
    referral: m?.referral ?? null,
  }));

export const tokenExchange = endpoint({
  statuses: [401],
  summary: 'Turn a one-time sign-in token into an auth token (creates the account on first sign-in)',
  tags: ['auth'],
  body: z.object({ token: oneTimeToken, metadata: attributionMetadata }),
  response: sessionAnswer,
  // The claim cookie of the browser signing in: the connections it made without an account become the organisation's.
  handler: ({ body, ip, req }) => exchangeSignInToken({ token: body.token, attribution: body.metadata, ip, claimToken: readClaimCookie(req) }),
});

export const invitationExchange = endpoint({
  statuses: [401, 402, 404, 409],
  summary: "Accept an invitation through its e-mail's link: signs the invited address in and joins (after the page showed POST v1/invitations/preview)",
  tags: ['auth'],
  body: z.object({
    token: oneTimeToken,
    metadata: attributionMetadata,
    delete_current: z
      .boolean('delete_current must be true or false.')
      .optional()
      .meta({ description: 'The invitee chose to delete the organisation they are alone in, with what it holds (otherwise 409 confirm_delete).' }),
  }),
  response: sessionAnswer,
  handler: ({ body, ip, req }) =>
    exchangeInvitationToken({ token: body.token, attribution: body.metadata, ip, deleteCurrent: body.delete_current, claimToken: readClaimCookie(req) }),
});

export const tokenRefresh = endpoint({
  summary: 'A one-time dashboard hand-off code (60 seconds) for /dashboard?token=home__<code>',
  tags: ['auth'],
  auth: 'user',
  response: z.object({ token: z.string() }),
  // The code is bound to this browser: its nonce cookie (kept if it has one, so two tabs asking in turn both work).
  handler: async ({ auth, req, setHeader }) => {
    const nonce = handoffNonceFor(req);
    const token = await createHandoffCode(auth!, nonce);
    setHeader('Set-Cookie', handoffNonceCookie(nonce));
    return { token };
  },
});

export const tokenHandoff = endpoint({
  statuses: [401],
  summary: "Exchange the dashboard's one-time hand-off code for the session's tokens",
  tags: ['auth'],
  body: z.object({ code: z.string('code must be a string.').min(1, 'code is missing.').max(200) }),
  response: sessionAnswer,
  handler: ({ body, ip, req }) => exchangeHandoffCode({ code: body.code, nonce: readHandoffNonce(req), ip }),
});

export const tokenRenew = endpoint({
  statuses: [401],
  summary: 'A new access token for a live session',
  tags: ['auth'],
  body: z.object({ refresh_token: z.string('refresh_token must be a string.').min(1, 'refresh_token is missing.').max(4096) }),
  response: z.object({ authToken: z.string() }),
  handler: ({ body, ip }) => renewAccessToken({ refreshToken: body.refresh_token, ip }),
});

export const authLogout = endpoint({
  statuses: [401],
  summary: 'End this sign-in: every token of its session stops working',
  tags: ['auth'],
  // The bearer access token names the session; when it has run out (an idle tab), the refresh token in the body does.
  auth: 'optional',
  body: z
    .object({ refresh_token: z.string('refresh_token must be a string.').max(4096).optional() })
    .nullish()
    .meta({ description: 'Optional: the refresh token, for when the access token has expired.' }),
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, body }) => {
    await logout({ auth, refreshToken: body?.refresh_token });
    return { ok: true as const };
  },
});

export const authLogoutEverywhere = endpoint({
  summary: 'Sign out everywhere: every session of the user ends, this one included',
  tags: ['auth'],
  auth: 'user',
  response: z.object({ ok: z.literal(true), sessions: z.number().meta({ description: 'How many sessions were ended.' }) }),
  handler: async ({ auth }) => ({ ok: true as const, sessions: await logoutEverywhere(auth!) }),
});

export const crmExchange = endpoint({
  statuses: [404],
  summary: "Exchange an org id (from a /subscribe link) for a token that can only start a checkout, and the owner's masked e-mail",
  tags: ['auth', 'billing'],
  body: z.object({
    org_id: z
      .string('org_id must be a string.')
      .regex(ORG_ID_PATTERN, "org_id must be 'org_' followed by at least 20 letters and digits."),
  }),
  response: z.object({ authToken: z.string(), email: z.string().meta({ description: 'Masked: o***@example.com' }) }),
  handler: ({ body, ip }) => exchangeOrgIdForBillingToken({ orgId: body.org_id, ip }),
});
