/**
 * The organisation and its team: rename, list members and open invitations, change roles, remove, leave, read the
 * audit log. Every change is recorded in the audit log in the same breath as it is made.
 *
 * Someone who leaves or is removed keeps their account: they get an organisation of their own (as its owner) and every
 * session they had ends at once, so no token of theirs still speaks for the old organisation. An organisation always
 * keeps at least one owner. They leave nothing behind that still acts for it unseen: their open invitations are
 * revoked, and the API keys they created that still work are listed for whoever removed them (and on the Team page),
 * to revoke with one click — a key belongs to the organisation, so it is not revoked on its own.
 * (Deleting the organisation: deletion.ts.)
 */
import { HttpError, forbidden, notFound } from '../http/errors';
import { log } from '../log';
import { revokeSessionRows } from '../auth/sessionData';
import { forgetRevokedSessions } from '../auth/sessionState';
import type { ListedApiKey } from '../apiKeys/data';
import { workingKeysCreatedBy } from '../apiKeys/service';
import {
  countMembers,
  getMember,
  getOrg,
  listAudit,
  listMembers,
  listOpenInvitations,
  moveUserToOwnOrg,
  recordAudit,
  renameOrg,
  setMemberRole,
  type AuditEntry,
  type Invitation,
  type ListedInvitation,
  type Member,
  type Org,
} from './data';
import { revokeInvitationsOf } from './invitations';
import type { Membership } from './membership';
import { canManageMember, type OrgRole } from '@/shared/orgRoles';
import { defaultOrgName } from '@/shared/orgNames';

const conflict = (code: string, message: string) => new HttpError(409, code, message);
const actorOf = (m: Membership) => ({ userId: m.userId, email: m.email });

export async function organisationOf(m: Membership): Promise<Org & { role: OrgRole; members: number }> {
  const org = await getOrg(m.orgId);
  if (!org) throw notFound('This organisation no longer exists.');
  return { ...org, role: m.role, members: await countMembers(m.orgId) };
}

export async function renameOrganisation(m: Membership, name: string): Promise<void> {
  const org = await getOrg(m.orgId);
  if (!org) throw notFound('This organisation no longer exists.');
  if (org.name === name) return;
  await renameOrg(m.orgId, name);
  await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'org.renamed', details: { from: org.name, to: name } });
}

export const membersOf = (m: Membership): Promise<Member[]> => listMembers(m.orgId);

/** The invitations still open (the caller's role was checked by requireRole). */
export const openInvitationsOf = (m: Membership, now = new Date()): Promise<ListedInvitation[]> => listOpenInvitations(m.orgId, now);

/** What someone who left had made that outlived them: the invitations revoked with their leaving, the keys that still work. */
export type Departure = { revokedInvitations: Invitation[]; workingKeys: ListedApiKey[] };

/** The member `userId` of the caller's organisation, or a 404 (someone of another organisation is not found here). */
async function memberOrNotFound(m: Membership, userId: string): Promise<Member> {
  const member = await getMember(m.orgId, userId);
  if (!member) throw notFound('There is no such member in this organisation.');
  return member;
}

async function assertAnotherOwner(orgId: string, message: string): Promise<void> {
  if ((await countMembers(orgId, 'owner')) < 2) throw conflict('last_owner', message);
}

export async function changeMemberRole(m: Membership, userId: string, role: OrgRole): Promise<Member> {
  const target = await memberOrNotFound(m, userId);
  if (target.role === role) return target;
  if (!canManageMember(m.role, target.role, role)) {
    throw forbidden(role === 'owner' || target.role === 'owner' ? 'Only an owner can make or unmake owners.' : 'Only an admin or the owner can change roles.');
  }
  if (target.role === 'owner') await assertAnotherOwner(m.orgId, 'This is the only owner. Make someone else owner first.');
  if (!(await setMemberRole({ orgId: m.orgId, userId, fromRole: target.role, role }))) {
    throw conflict('changed', 'This member changed in the meantime. Reload the team and try again.');
  }
  await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'member.role_changed', target: target.email, details: { from: target.role, to: role } });
  return { ...target, role };
}

async function moveOut(member: Member, fromOrgId: string): Promise<void> {
  const own = await moveUserToOwnOrg({ userId: member.id, fromOrgId, name: defaultOrgName(member.email) });
  // Checked again under the members' row locks: the checks before were made without them.
  if (own === 'last_owner') throw conflict('last_owner', 'This is the only owner left. Make someone else owner first.');
  if (own === 'only_member') throw conflict('only_member', 'This is the only member of this organisation: there is nobody to leave it to.');
  if (!own) throw conflict('changed', 'This member changed in the meantime. Reload the team and try again.');
  forgetRevokedSessions(await revokeSessionRows({ userId: member.id }, new Date()));
}

export async function removeMember(m: Membership, userId: string): Promise<Departure> {
  if (userId === m.userId) throw new HttpError(400, 'use_leave', 'To leave the organisation yourself, use Leave.');
  const target = await memberOrNotFound(m, userId);
  if (!canManageMember(m.role, target.role)) {
    throw forbidden(target.role === 'owner' ? 'Only an owner can remove an owner.' : 'Only an admin or the owner can remove members.');
  }
  if (target.role === 'owner') await assertAnotherOwner(m.orgId, 'This is the only owner. Make someone else owner first.');
  // Before the move: nobody may join on their invitation while they are on their way out.
  const revokedInvitations = await revokeInvitationsOf(m, target);
  await moveOut(target, m.orgId);
  await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'member.removed', target: target.email, details: { role: target.role } });
  log.info('member removed', { role: target.role });
  return { revokedInvitations, workingKeys: await workingKeysCreatedBy(m.orgId, target.id) };
}

export async function leaveOrganisation(m: Membership): Promise<Departure> {
  const me = await memberOrNotFound(m, m.userId);
  if ((await countMembers(m.orgId)) < 2) {
    throw conflict('only_member', 'You are the only member of this organisation: there is nobody to leave it to.');
  }
  if (me.role === 'owner') await assertAnotherOwner(m.orgId, 'You are the only owner. Make someone else owner before you leave.');
  const revokedInvitations = await revokeInvitationsOf(m, me);
  await moveOut(me, m.orgId);
  await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'member.left', target: me.email, details: { role: me.role } });
  // The admins who stay see these on the Team page ("API keys of former members").
  return { revokedInvitations, workingKeys: await workingKeysCreatedBy(m.orgId, me.id) };
}

export async function auditLogOf(m: Membership, page: { limit: number; before?: string }): Promise<{ data: AuditEntry[]; has_more: boolean }> {
  const rows = await listAudit(m.orgId, { limit: page.limit + 1, before: page.before });
  return { data: rows.slice(0, page.limit), has_more: rows.length > page.limit };
}

