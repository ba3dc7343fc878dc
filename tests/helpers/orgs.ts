/**
 * Organisations for API tests that check who may do what: a new organisation with its owner signed in, and more
 * people in it with a given role. The rows are written directly (no invitation e-mail), and each person gets a real
 * session, so the tokens are the ones the API issues.
 */
import { getDb } from '@/server/db/client';
import type { OrgRole } from '@/shared/orgRoles';
import { sessionFor, type TestUser } from './session';

export type SignedInUser = TestUser & { token: string };

let n = 0;
const uniq = () => `${Date.now().toString(36)}${++n}`;

/** A new organisation with its owner signed in. */
export async function newOwner(name = 'owner'): Promise<SignedInUser> {
  const id = uniq();
  const user = { userId: `usr_${name}${id}`, orgId: `org_${name}${id}ABCDEFGHIJKLMNOP`, email: `${name}-${id}@example.com` };
  return { ...user, token: (await sessionFor(user)).authToken };
}

/** A new person in `owner`'s organisation with `role`, signed in. */
export async function memberOf(owner: TestUser, role: Exclude<OrgRole, 'owner'>, name: string = role): Promise<SignedInUser> {
  const id = uniq();
  const user = { userId: `usr_${name}${id}`, orgId: owner.orgId, email: `${name}-${id}@example.com` };
  const { authToken } = await sessionFor(user);
  const db = await getDb();
  await db.updateTable('users').set({ role }).where('id', '=', user.userId).execute();
  return { ...user, token: authToken };
}
