/**
 * The dashboard hand-off code is bound to the browser that asked for it, as the OAuth state is (server/connect/state.ts):
 * GET v1/auth/token/refresh sets a random nonce in an HttpOnly cookie (or keeps the one the browser already has, so two
 * tabs asking in turn both keep working) and the code is stored with the nonce's hash; POST v1/auth/token/handoff
 * accepts the code only with that cookie. A `/dashboard?token=home__…` link made in one browser and opened in
 * another — someone sending you a link to their own session (login CSRF) — is refused there.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { env } from '../env';

export const HANDOFF_NONCE_COOKIE = 'arb_handoff_nonce';
/** Longer than a code lives (60 s), renewed with every code, short enough not to outlive the visit. */
export const HANDOFF_NONCE_SECONDS = 300;
const NONCE_SHAPE = /^[A-Za-z0-9_-]{24,64}$/;

export const hashHandoffNonce = (nonce: string): string => createHash('sha256').update(nonce).digest('base64url');

/** The nonce the browser sent, or null when it sent none (or something that is not one of ours). */
export function readHandoffNonce(req: Pick<IncomingMessage, 'headers'>): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === HANDOFF_NONCE_COOKIE) {
      const value = part.slice(i + 1).trim();
      return NONCE_SHAPE.test(value) ? value : null;
    }
  }
  return null;
}

/** The browser's nonce when it has one, else a new one. */
export const handoffNonceFor = (req: Pick<IncomingMessage, 'headers'>): string => readHandoffNonce(req) ?? randomBytes(24).toString('base64url');

/** Set-Cookie for the nonce: sent back only to the two token routes, never readable by scripts. */
export function handoffNonceCookie(nonce: string): string {
  const secure = env().APP_URL.startsWith('https://') ? '; Secure' : '';
  return `${HANDOFF_NONCE_COOKIE}=${nonce}; Path=/api/v1/auth/token; Max-Age=${HANDOFF_NONCE_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}
