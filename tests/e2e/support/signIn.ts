/**
 * Signing in the way a person does: /login → e-mail → the 6-digit code from the e-mail the SMTP fake received →
 * Sign in → redirected. Captcha is off in the e2e server (no hCaptcha script can load offline), so the form sends an
 * empty captcha token, which the server accepts only because HCAPTCHA_SECRET is unset.
 */
import { expect, type Page } from '@playwright/test';
import type { ControlClient } from './control';

export type SignedInUser = { email: string; authToken: string; orgId: string };

export const AUTH_STORAGE_KEY = 'arb-storage';

type PersistedAuth = { state?: { authData?: { authToken?: string; refreshToken?: string; email?: string; name?: string | null; displayName?: string | null } } };

export async function readPersistedAuth(page: Page): Promise<PersistedAuth | null> {
  const raw = await page.evaluate((key) => window.localStorage.getItem(key), AUTH_STORAGE_KEY);
  return raw ? (JSON.parse(raw) as PersistedAuth) : null;
}

/** The org id the server put in the session token (a JWT: the payload is readable, only its signature is secret). */
export function orgIdOfToken(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { org?: unknown };
  if (typeof payload.org !== 'string') throw new Error('the auth token carries no org id');
  return payload.org;
}

let networks = 0;
/** A documentation-range address (RFC 5737) of its own for each sign-in of this worker process. */
const newNetwork = () => `198.51.${(process.pid + networks) % 256}.${++networks % 256}`;

export async function requestCode(page: Page, email: string, loginUrl = '/login'): Promise<void> {
  // The server trusts X-Forwarded-For in the end-to-end run (globalSetup.ts): this page is one visitor's network.
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': newNetwork() });
  await page.goto(loginUrl);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByLabel('Sign-in code')).toBeVisible();
}

export async function signInThroughUi(page: Page, control: ControlClient, { email, redirectTo }: { email: string; redirectTo?: string }): Promise<SignedInUser> {
  const loginUrl = redirectTo === undefined ? '/login' : `/login?${new URLSearchParams({ redirect_to: redirectTo })}`;
  const sentBefore = (await control.waitForMail(email, { count: 0 })).length;
  await requestCode(page, email, loginUrl);
  const code = await control.signInCode(email, sentBefore + 1);
  await page.getByLabel('Sign-in code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
  const auth = await readPersistedAuth(page);
  const authToken = auth?.state?.authData?.authToken;
  if (!authToken) throw new Error(`signed in as ${email}, but ${AUTH_STORAGE_KEY} holds no auth token`);
  return { email, authToken, orgId: orgIdOfToken(authToken) };
}
