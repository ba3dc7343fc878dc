/**
 * The claim cookie: proof, at sign-in, that connections made without an account are the signing-in person's because
 * this browser made them. Each anonymous connection that creates a destination adds its id to a signed token
 * (server/monitor/anonymous.ts claimToken: at most 20 connections, valid ANONYMOUS_CONNECTION_DAYS + 60 days) kept in an
 * HttpOnly cookie that only the API sees (the connect calls that add to it, and the sign-in calls that read it). A
 * typed e-mail address claims nothing; another browser signing in with the same address has no cookie.
 */
import type { IncomingMessage } from 'node:http';
import { env } from '../env';
import { claimToken, claimTokenDays } from '../monitor/anonymous';

export const CLAIM_COOKIE = 'arb_connect_claim';

/** The value of cookie `name` in the request, or null. */
function readCookie(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim() || null;
  }
  return null;
}

/** The claim token this browser holds (unverified: the claim checks it). */
export function readClaimCookie(req: IncomingMessage): string | null {
  return readCookie(req, CLAIM_COOKIE);
}

/** Set-Cookie adding `destinationId` to the connections this browser made; never readable by scripts. */
export async function claimCookieWith(req: IncomingMessage, destinationId: string): Promise<string> {
  const token = await claimToken([destinationId], readClaimCookie(req));
  const secure = env().APP_URL.startsWith('https://') ? '; Secure' : '';
  return `${CLAIM_COOKIE}=${token}; Path=/api/v1; Max-Age=${claimTokenDays() * 86_400}; HttpOnly; SameSite=Lax${secure}`;
}
