/**
 * Tokens for API tests that need a signed-in user without going through the e-mail code: the org and user rows are
 * made when missing, and a real session is started (server/auth/session.ts), so the tokens are the ones the API
 * issues and revoking works on them.
 */
import { getDb } from '@/server/db/client';
import { getUserById } from '@/server/auth/data';
import { startSession, type SessionAnswer } from '@/server/auth/session';
import { signBillingToken } from '@/server/auth/tokens';

export type TestUser = { userId: string; orgId: string; email: string };

async function ensureUser(user: TestUser) {
  const db = await getDb();
  await db.insertInto('orgs').values({ id: user.orgId, name: user.email }).onConflict((oc) => oc.column('id').doNothing()).execute();
  await db
    .insertInto('users')
    .values({ id: user.userId, email: user.email, name: null, display_name: null, org_id: user.orgId, role: 'owner', utm_source: null, utm_medium: null, utm_campaign: null, referral: null, last_sign_in_at: null })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return (await getUserById(user.userId))!;
}

/** A new session of `user` (created when missing): its access and refresh tokens. */
export async function sessionFor(user: TestUser): Promise<SessionAnswer> {
  return startSession(await ensureUser(user));
}

/** The access token of a new session of `user`. */
export async function accessTokenFor(user: TestUser): Promise<string> {
  return (await sessionFor(user)).authToken;
}

/** A billing-only token, as crm-exchange issues, for `user`'s org (the user is created when missing). */
export async function billingTokenFor(user: TestUser): Promise<string> {
  await ensureUser(user);
  return signBillingToken({ userId: user.userId, orgId: user.orgId });
}
