/**
 * Data functions for accounts and sign-in (tables orgs, users, login_codes, sign_in_tokens). Every state change that
 * races — a guess, consuming a code or a token — is one conditional UPDATE … RETURNING, so two processes can never
 * both win.
 */
import type { Selectable } from 'kysely';
import { getDb, type DB } from '../db/client';
import type { LoginCodesTable, UsersTable } from '../db/types';
import { newOrgId, newUserId } from './secrets';
import { defaultOrgName } from '@/shared/orgNames';

export type User = Selectable<UsersTable>;
export type Attribution = { utm_source: string | null; utm_medium: string | null; utm_campaign: string | null; referral: string | null };

export const MAX_CODE_ATTEMPTS = 5;

const dbOf = async (db?: DB) => db ?? (await getDb());

// --- login codes ------------------------------------------------------------------------------------------------

export async function createLoginCode(input: { email: string; codeHash: string; expiresAt: Date; requesterHash: string }, db?: DB) {
  return (await dbOf(db))
    .insertInto('login_codes')
    .values({ email: input.email, code_hash: input.codeHash, expires_at: input.expiresAt, requester_hash: input.requesterHash })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

export type LoginCode = Selectable<LoginCodesTable>;

/**
 * The newest code each network asked for `email` within the last day, newest first: a new request replaces only the
 * earlier codes of the same network, so a stranger's request never replaces someone else's pending code.
 */
export async function getLatestLoginCodesPerNetwork(email: string, now: Date, db?: DB): Promise<LoginCode[]> {
  const rows = await (await dbOf(db))
    .selectFrom('login_codes')
    .selectAll()
    .where('email', '=', email)
    .where('created_at', '>', new Date(now.getTime() - 24 * 3600 * 1000))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  const seen = new Set<string>();
  return rows.filter((r) => {
    const network = r.requester_hash ?? '';
    if (seen.has(network)) return false;
    seen.add(network);
    return true;
  });
}

/** Spend one try of a code; undefined when it has no tries left or is already used. Returns the tries used so far. */
export async function recordLoginCodeAttempt(id: number, db?: DB): Promise<number | undefined> {
  const row = await (await dbOf(db))
    .updateTable('login_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', MAX_CODE_ATTEMPTS)
    .where('consumed_at', 'is', null)
    .returning(['attempts'])
    .executeTakeFirst();
  return row ? Number(row.attempts) : undefined;
}

/** Mark a code used; false when another request used it first. */
export async function consumeLoginCode(id: number, now: Date, db?: DB): Promise<boolean> {
  const row = await (await dbOf(db))
    .updateTable('login_codes')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .returning(['id'])
    .executeTakeFirst();
  return !!row;
}

// --- one-time sign-in tokens --------------------------------------------------------------------------------------

export async function createSignInToken(input: { email: string; tokenHash: string; expiresAt: Date }, db?: DB) {
  await (await dbOf(db))
    .insertInto('sign_in_tokens')
    .values({ token_hash: input.tokenHash, email: input.email, expires_at: input.expiresAt })
    .execute();
}

/** Use a token once: the e-mail it was issued for, or undefined when unknown, expired or already used. */
export async function consumeSignInToken(tokenHash: string, now: Date, db?: DB): Promise<string | undefined> {
  const row = await (await dbOf(db))
    .updateTable('sign_in_tokens')
    .set({ consumed_at: now })
    .where('token_hash', '=', tokenHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['email'])
    .executeTakeFirst();
  return row?.email;
}

// --- users and orgs -----------------------------------------------------------------------------------------------

async function getUserByEmail(email: string, db?: DB): Promise<User | undefined> {
  return (await dbOf(db)).selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function getUserById(id: string, db?: DB): Promise<User | undefined> {
  return (await dbOf(db)).selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The user with this e-mail, created with their own org on first sign-in. Attribution is recorded once, at creation
 * (first touch). Two first sign-ins racing for one e-mail end with one user: the loser's org is rolled back.
 */
export async function getOrCreateUser(input: { email: string; attribution: Attribution; now: Date }, db?: DB): Promise<{ user: User; created: boolean }> {
  const existing = await getUserByEmail(input.email, db);
  if (existing) return { user: existing, created: false };
  return (await dbOf(db)).transaction().execute(async (trx) => {
    const orgId = newOrgId();
    await trx.insertInto('orgs').values({ id: orgId, name: defaultOrgName(input.email) }).execute();
    const user = await trx
      .insertInto('users')
      .values({ id: newUserId(), email: input.email, name: null, display_name: null, org_id: orgId, role: 'owner', ...input.attribution, last_sign_in_at: input.now })
      .onConflict((oc) => oc.column('email').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (user) return { user, created: true };
    await trx.deleteFrom('orgs').where('id', '=', orgId).execute();
    const winner = await trx.selectFrom('users').selectAll().where('email', '=', input.email).executeTakeFirstOrThrow();
    return { user: winner, created: false };
  });
}

export async function updateUserLastSignIn(id: string, now: Date, db?: DB): Promise<void> {
  await (await dbOf(db)).updateTable('users').set({ last_sign_in_at: now }).where('id', '=', id).execute();
}

/** The owner of an org (its first owner when there are several). */
export async function getOrgOwner(orgId: string, db?: DB): Promise<User | undefined> {
  return (await dbOf(db))
    .selectFrom('users')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('role', '=', 'owner')
    .orderBy('created_at', 'asc')
    .limit(1)
    .executeTakeFirst();
}

// --- housekeeping -------------------------------------------------------------------------------------------------

/** Delete codes and tokens that can no longer be used (expired a day ago, so recent ones still explain errors). */
export async function deleteExpiredSignInRows(now: Date, db?: DB): Promise<number> {
  const d = await dbOf(db);
  const cutoff = new Date(now.getTime() - 24 * 3600 * 1000);
  const codes = await d.deleteFrom('login_codes').where('expires_at', '<', cutoff).executeTakeFirst();
  const tokens = await d.deleteFrom('sign_in_tokens').where('expires_at', '<', cutoff).executeTakeFirst();
  return Number(codes.numDeletedRows) + Number(tokens.numDeletedRows);
}
