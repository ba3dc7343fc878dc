/**
 * The OAuth `state`: the connection payload travels through Slack or Discord and comes back, so it is signed
 * (an HS256 JWT of server/signedTokens.ts, 10 minutes) — a state nobody signed, one that was altered, one for the other platform
 * or an expired one is refused. It is also bound to the browser that started the install: the start call sets a
 * random nonce in an HttpOnly cookie and the state carries its hash, so a state lifted from someone else's link
 * cannot finish an install in another browser (OAuth's login-CSRF). An install started from the dashboard (with a
 * session) carries the person's user id: only that person, signed in, can finish it, and the channel is their
 * organisation's; one started without a session stays an anonymous connection whatever session finishes it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { env } from '../env';
import { badRequest } from '../http/errors';
import { nowSeconds, signToken, verifyToken } from '../signedTokens';

import type { OAuthPlatform } from '@/shared/platforms';

export type { OAuthPlatform };

export const OAUTH_STATE_TTL_SECONDS = 600;
export const NONCE_COOKIE = 'arb_oauth_nonce';
const hashNonce = (nonce: string) => createHash('sha256').update(nonce).digest('base64url');

export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function signOAuthState(input: { platform: OAuthPlatform; payload: string; nonce: string; userId?: string }): Promise<string> {
  return signToken(
    'oauth_state',
    { plt: input.platform, pl: input.payload, nh: hashNonce(input.nonce), ...(input.userId ? { usr: input.userId } : {}) },
    { expiresAt: nowSeconds() + OAUTH_STATE_TTL_SECONDS },
  );
}

/** What a verified state carries: the encoded connection payload, and who started it for their organisation. */
export type OAuthStart = { payload: string; userId: string | null };

const START_AGAIN = 'Start again from the ARB page and approve ARB within 10 minutes.';

/** What the state carries; 400 when the state is not ours, expired or from another browser. */
export async function verifyOAuthState(state: string, platform: OAuthPlatform, nonce: string | null): Promise<OAuthStart> {
  const checked = await verifyToken(state, 'oauth_state');
  if (!checked.ok) {
    throw badRequest(checked.expired ? `This connection request has expired. ${START_AGAIN}` : `state: this is not a connection request ARB started. ${START_AGAIN}`, 'invalid_state');
  }
  const claims = checked.claims;
  if (claims.plt !== platform || typeof claims.pl !== 'string' || typeof claims.nh !== 'string') {
    throw badRequest(`state: this connection request was made for another platform. ${START_AGAIN}`, 'invalid_state');
  }
  const given = Buffer.from(nonce ? hashNonce(nonce) : '');
  const expected = Buffer.from(claims.nh);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw badRequest(`This connection was started in another browser, or its cookie was cleared. ${START_AGAIN}`, 'invalid_state');
  }
  return { payload: claims.pl, userId: typeof claims.usr === 'string' ? claims.usr : null };
}

/** Set-Cookie for the nonce: only sent back to the OAuth API routes, never readable by scripts. */
export function nonceCookie(nonce: string): string {
  const secure = env().APP_URL.startsWith('https://') ? '; Secure' : '';
  return `${NONCE_COOKIE}=${nonce}; Path=/api/v1/oauth; Max-Age=${OAUTH_STATE_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}

export function readNonceCookie(req: IncomingMessage): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === NONCE_COOKIE) return part.slice(i + 1).trim() || null;
  }
  return null;
}
