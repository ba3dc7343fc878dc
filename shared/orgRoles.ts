/**
 * Who may do what in an organisation. Pure: the services ask these questions with roles read from the database on
 * every request (never from a token, so a role change or a removal applies to the very next call).
 *
 * owner > admin > member. Members read and reply; admins also manage apps, destinations, API keys and the team;
 * owners also billing, ownership and deletion. Nobody manages someone ranked above them, and only an owner makes owners.
 */
export type OrgRole = 'owner' | 'admin' | 'member';
export const ORG_ROLES: readonly OrgRole[] = ['owner', 'admin', 'member'];
export const INVITABLE_ROLES = ['admin', 'member'] as const;

const RANK: Record<OrgRole, number> = { member: 1, admin: 2, owner: 3 };

export function atLeast(role: OrgRole, minimum: OrgRole): boolean {
  return RANK[role] >= RANK[minimum];
}

/** Invite, remove and change the roles of others: admins and owners. */
export const canManageTeam = (role: OrgRole) => atLeast(role, 'admin');

/** Whether `actor` may change `target`'s membership (remove them, or give them `newRole`). */
export function canManageMember(actor: OrgRole, target: OrgRole, newRole?: OrgRole): boolean {
  if (!canManageTeam(actor)) return false;
  if (RANK[target] > RANK[actor]) return false;
  if (newRole && RANK[newRole] > RANK[actor]) return false;
  // An admin cannot demote or remove an owner (ranked above), and making or unmaking owners is for owners only.
  if ((target === 'owner' || newRole === 'owner') && actor !== 'owner') return false;
  return true;
}

/** The roles `actor` may give `target` (their current one included), or none when `actor` may not change them. */
export function assignableRoles(actor: OrgRole, target: OrgRole): OrgRole[] {
  return canManageMember(actor, target) ? ORG_ROLES.filter((r) => canManageMember(actor, target, r)) : [];
}

export function roleLabel(role: OrgRole): string {
  return role === 'owner' ? 'Owner' : role === 'admin' ? 'Admin' : 'Member';
}
