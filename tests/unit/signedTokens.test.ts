// One HS256 helper signs every token ARB makes; a token is accepted only for the purpose it was signed for, through
// the helper and through each caller's own verify function. Tokens made the way they were before the helper existed
// (refresh tokens in browsers, unsubscribe links in old e-mails) stay valid.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signBillingToken, signRefreshToken, verifyAuthToken, verifyRefreshToken } from '@/server/auth/tokens';
import { newNonce, signOAuthState, verifyOAuthState } from '@/server/connect/state';
import { setEnvForTests } from '@/server/env';
import { TOKEN_PURPOSES, nowSeconds, signToken, verifyToken } from '@/server/signedTokens';
import { signEmailToken, verifyEmailToken } from '@/server/subscriptions/tokens';

const AUTH_SECRET = 'x'.repeat(40);
let restore: () => void;
beforeAll(() => {
  restore = setEnvForTests({ AUTH_SECRET, ENCRYPTION_KEY: 'ab'.repeat(32) });
});
afterAll(() => restore());

const inAnHour = () => nowSeconds() + 3600;

describe('signToken / verifyToken', () => {
  test.each(TOKEN_PURPOSES)('a %s token is accepted for its own purpose and refused for every other', async (purpose) => {
    const token = await signToken(purpose, { sub: 'u1' }, { expiresAt: inAnHour() });
    expect(await verifyToken(token, purpose)).toMatchObject({ ok: true, purpose });
    for (const other of TOKEN_PURPOSES.filter((p) => p !== purpose)) {
      expect(await verifyToken(token, other), `${purpose} as ${other}`).toEqual({ ok: false, expired: false });
    }
  });

  test('claims cannot override the purpose’s issuer, audience or typ', async () => {
    const token = await signToken('email_digest', { iss: 'arb', aud: 'unsubscribe', typ: 'access' }, { expiresAt: inAnHour() });
    expect(await verifyToken(token, 'email_digest')).toMatchObject({ ok: true });
    expect(await verifyToken(token, ['access', 'email_unsubscribe'])).toEqual({ ok: false, expired: false });
  });

  test('expired is said only of a token of the purpose asked for; a forged signature is refused', async () => {
    const old = await signToken('oauth_state', {}, { issuedAt: nowSeconds() - 7200, expiresAt: nowSeconds() - 3600 });
    expect(await verifyToken(old, 'oauth_state')).toEqual({ ok: false, expired: true });
    expect(await verifyToken(old, 'email_confirm')).toEqual({ ok: false, expired: false });
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('arb-oauth').setAudience('oauth-state').sign(new TextEncoder().encode('y'.repeat(40)));
    expect(await verifyToken(forged, 'oauth_state')).toEqual({ ok: false, expired: false });
  });

  test('a token without expiry is signed only when asked (unsubscribe links) and then never expires', async () => {
    const token = await signToken('email_unsubscribe', { em: 'a@example.com' }, { expiresAt: null, issuedAt: nowSeconds() - 10 * 365 * 86_400 });
    expect(await verifyToken(token, 'email_unsubscribe')).toMatchObject({ ok: true, claims: { em: 'a@example.com' } });
  });
});

describe('each caller refuses the other kinds', () => {
  test('an OAuth state is not an unsubscribe, digest or destination link, nor a sign-in', async () => {
    const state = await signOAuthState({ platform: 'slack', payload: 'p', nonce: newNonce() });
    for (const purpose of ['unsubscribe', 'digest', 'confirm', 'destination'] as const) {
      expect(await verifyEmailToken(state, purpose)).toEqual({ ok: false, expired: false });
    }
    expect(await verifyAuthToken(state)).toBeNull();
    expect(await verifyRefreshToken(state)).toBeNull();
  });

  test('an unsubscribe link is not an OAuth state, a digest confirmation or a sign-in', async () => {
    const link = await signEmailToken({ purpose: 'unsubscribe', email: 'ana@example.com' });
    expect((await verifyEmailToken(link, 'unsubscribe')).ok).toBe(true);
    const nonce = newNonce();
    await expect(verifyOAuthState(link, 'slack', nonce)).rejects.toThrow(/not a connection request ARB started/);
    expect(await verifyEmailToken(link, 'digest')).toEqual({ ok: false, expired: false });
    expect(await verifyRefreshToken(link)).toBeNull();
  });

  test('a refresh token is not an access or billing token; a billing token is not a refresh token', async () => {
    const refresh = await signRefreshToken({ userId: 'u1', sessionId: 's1', expiresAt: new Date(Date.now() + 86_400_000) });
    expect(await verifyRefreshToken(refresh)).toEqual({ userId: 'u1', sessionId: 's1' });
    expect(await verifyAuthToken(refresh)).toBeNull();
    const billing = await signBillingToken({ userId: 'u1', orgId: 'o1' });
    expect(await verifyAuthToken(billing)).toEqual({ userId: 'u1', orgId: 'o1', email: '', scope: 'billing' });
    expect(await verifyRefreshToken(billing)).toBeNull();
    expect(await verifyEmailToken(billing, 'unsubscribe')).toEqual({ ok: false, expired: false });
  });
});

describe('tokens issued before the helper stay valid', () => {
  const key = () => new TextEncoder().encode(AUTH_SECRET);

  test('a refresh token as sign-in made it (issuer arb, typ refresh, no audience)', async () => {
    const token = await new SignJWT({ typ: 'refresh', sid: 's9' }).setProtectedHeader({ alg: 'HS256' }).setSubject('u9').setIssuer('arb').setIssuedAt().setExpirationTime(inAnHour()).sign(key());
    expect(await verifyRefreshToken(token)).toEqual({ userId: 'u9', sessionId: 's9' });
  });

  test('an unsubscribe link of an old e-mail (issuer arb-email, audience unsubscribe, address in clear, no expiry)', async () => {
    const token = await new SignJWT({ em: 'old@example.com' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('arb-email').setAudience('unsubscribe').setIssuedAt(nowSeconds() - 400 * 86_400).sign(key());
    expect(await verifyEmailToken(token, 'unsubscribe')).toEqual({ ok: true, value: { purpose: 'unsubscribe', email: 'old@example.com' } });
  });

  test('a sign-in token from before sessions (no typ) is still refused', async () => {
    const token = await new SignJWT({ scope: 'billing', org: 'o1' }).setProtectedHeader({ alg: 'HS256' }).setSubject('u1').setIssuer('arb').setIssuedAt().setExpirationTime(inAnHour()).sign(key());
    expect(await verifyAuthToken(token)).toBeNull();
  });
});
