/**
 * Who is calling, in which organisation, with which role: read from the database on every call (not from the token),
 * so a role change, a removal or a move to another organisation applies to the very next request.
 */
import type { AuthClaims } from '../auth/tokens';
import { getUserById } from '../auth/data';
import { forbidden, unauthorized } from '../http/errors';
import { atLeast, roleLabel, type OrgRole } from '@/shared/orgRoles';

export type Membership = { userId: string; email: string; orgId: string; role: OrgRole };

export async function membershipOf(auth: AuthClaims | null): Promise<Membership> {
  if (!auth || auth.scope !== 'full') throw unauthorized();
  const user = await getUserById(auth.userId);
  if (!user) throw unauthorized('Your account no longer exists. Sign in again.');
  return { userId: user.id, email: user.email, orgId: user.org_id, role: user.role };
}

/** The caller's membership when their role is at least `minimum`; a 403 that names the role needed otherwise. */
export async function requireRole(auth: AuthClaims | null, minimum: OrgRole, doing: string): Promise<Membership> {
  const m = await membershipOf(auth);
  if (!atLeast(m.role, minimum)) {
    const who = minimum === 'owner' ? 'the owner' : 'an admin or the owner';
    throw forbidden(`Only ${who} of this organisation can ${doing}. You are ${m.role === 'admin' ? 'an' : 'a'} ${roleLabel(m.role).toLowerCase()}.`);
  }
  return m;
}
