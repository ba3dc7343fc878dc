/**
 * Moving a person into the organisation that invited them — only ever on their explicit accept (the invitation link's
 * page or the dashboard's banner), never at a sign-in.
 *
 * What happens to the organisation they are in now (decideMove, shown before they accept and checked again inside the
 * move's transaction):
 * - someone else stays to run it (they are not its owner, or it has another owner): they leave it, `member.left` in
 *   its audit log;
 * - they are its only owner and others are in it: refused (409 `only_owner`), it would be left without an owner;
 * - they are alone in it and it holds a running subscription: refused (409 `subscription_active`), cancel it first;
 * - they are alone in it and it holds apps, store credentials, destinations or API keys: deleted with them, but only
 *   when the accept says so (`delete_current`), else 409 `confirm_delete` naming what would go;
 * - they are alone in it and it holds nothing: it is deleted.
 * Every session they had ends in the same transaction; the caller starts a fresh one for the new organisation.
 */
import { getUserById, type User } from '../auth/data';
import { revokeSessionRows } from '../auth/sessionData';
import { forgetRevokedSessions } from '../auth/sessionState';
import { getDb } from '../db/client';
import type { OrgRole } from '../db/types';
import { HttpError, notFound, unauthorized } from '../http/errors';
import { log } from '../log';
import { assertWithinLimit } from '../plans/limits';
import { appsWatchedByOrg, countMembers, deleteOrg, getOrg, markInvitationAccepted, recordAudit } from './data';
import { holdingsOf, lockMemberRows, lockOrgRows, lockUserRow, moveUserRow, openInvitationForEmail, sessionIsLive, type Holdings, type InvitationForInvitee } from './moveData';

/** The organisation someone is in now, as far as moving out of it is concerned. */
export type MoveFacts = { orgName: string; role: OrgRole; members: number; owners: number; holdings: Holdings };

export type MoveOutcome =
  | { kind: 'leaves'; text: string }
  | { kind: 'deletes_empty'; text: string }
  | { kind: 'deletes_holdings'; text: string }
  | { kind: 'blocked'; code: 'only_owner' | 'subscription_active'; text: string };

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "2 apps, store credentials for 1 app and 1 destination", or '' when it holds nothing that would be lost. */
export function holdingWords(h: Holdings): string {
  const parts = [
    h.apps ? count(h.apps, 'app', 'apps') : '',
    h.credentials ? `store credentials for ${count(h.credentials, 'app', 'apps')}` : '',
    h.destinations ? count(h.destinations, 'destination', 'destinations') : '',
    h.apiKeys ? count(h.apiKeys, 'API key', 'API keys') : '',
  ].filter(Boolean);
  return parts.length < 2 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** What joining another organisation does to the one the person is in now (pure: the same rule shown and enforced). */
export function decideMove(f: MoveFacts): MoveOutcome {
  const others = f.members - 1;
  if (f.role !== 'owner' || f.owners > 1) {
    return { kind: 'leaves', text: `You leave ${f.orgName}; it stays with its other ${others === 1 ? 'member' : `${others} members`}.` };
  }
  if (others > 0) {
    return { kind: 'blocked', code: 'only_owner', text: `You are the only owner of ${f.orgName}, which has other members. Make one of them owner first, then accept again.` };
  }
  if (f.holdings.subscription) {
    return { kind: 'blocked', code: 'subscription_active', text: `${f.orgName} has a paid subscription. Cancel it under Billing → Manage billing first, then accept again.` };
  }
  const held = holdingWords(f.holdings);
  if (held) return { kind: 'deletes_holdings', text: `Joining deletes your organisation ${f.orgName} with its ${held}.` };
  return { kind: 'deletes_empty', text: `Your organisation ${f.orgName} has nothing in it yet: it is deleted when you join.` };
}

/** The facts for the organisation `user` is in now, read without locks (for showing; the move reads them again locked). */
export async function moveFactsOf(user: Pick<User, 'org_id' | 'role'>): Promise<MoveFacts> {
  const [org, members, owners, holdings] = await Promise.all([getOrg(user.org_id), countMembers(user.org_id), countMembers(user.org_id, 'owner'), holdingsOf(user.org_id)]);
  return { orgName: org?.name ?? 'your organisation', role: user.role, members, owners, holdings };
}

export const invitationGone = () => new HttpError(404, 'invitation_invalid', 'This invitation has expired, was cancelled or was already used. Ask for a new one.');
const changed = () => new HttpError(409, 'changed', 'Your organisation changed while you were accepting. Reload the page and try again.');

/** The organisation the move deleted (its last member left it), for what follows outside org/: server/flows/orgDeletion.ts afterOrgDeleted. */
export type DeletedByMove = { orgId: string; apps: Awaited<ReturnType<typeof appsWatchedByOrg>> };

export type MoveResult = { user: User; invitation: InvitationForInvitee; moved: boolean; deleted: DeletedByMove | null };

/**
 * Accept the invitation `invitationId` for the user `userId` (whose address it must be): the rules above are checked
 * and the move made in one transaction, so two accepts, or an accept and a deletion, cannot both go ahead on what the
 * other is changing. `deleteCurrent` is the person's explicit choice to delete an organisation that holds things.
 * Called through server/flows/signIn.ts, which lets the engine and the caches go of an organisation the move deleted.
 */
export async function moveByInvitation(input: { userId: string; invitationId: string; deleteCurrent: boolean; sessionId?: string; now?: Date }): Promise<MoveResult> {
  const now = input.now ?? new Date();
  const before = await getUserById(input.userId);
  if (!before) throw unauthorized('Your account no longer exists. Sign in again.');
  const seen = await openInvitationForEmail(input.invitationId, before.email, now);
  if (!seen) throw invitationGone();
  if (seen.org_id === before.org_id) {
    // Already in: the invitation is simply used up.
    await markInvitationAccepted(seen.id, now);
    return { user: before, invitation: seen, moved: false, deleted: null };
  }

  const db = await getDb();
  const done = await db.transaction().execute(async (trx) => {
    const orgs = await lockOrgRows(trx, [seen.org_id, before.org_id]);
    if (!orgs.has(seen.org_id)) throw notFound('The organisation that invited you no longer exists.');
    const user = await lockUserRow(trx, input.userId);
    if (!user) throw unauthorized('Your account no longer exists. Sign in again.');
    // A dashboard accept acts for a session: read from the database here, not the 5 s session cache, so a session an
    // earlier move just ended (in another process, say) cannot move the person a second time.
    if (input.sessionId && !(await sessionIsLive(trx, input.sessionId, user.id, now))) throw unauthorized('Your session has ended. Sign in again.');
    if (user.org_id !== before.org_id) throw changed();
    const invitation = await openInvitationForEmail(seen.id, user.email, now, trx);
    if (!invitation) throw invitationGone();
    const members = await lockMemberRows(trx, user.org_id);
    const outcome = decideMove({
      orgName: orgs.get(user.org_id)?.name ?? 'your organisation',
      role: user.role,
      members: members.length,
      owners: members.filter((m) => m.role === 'owner').length,
      holdings: await holdingsOf(user.org_id, trx),
    });
    if (outcome.kind === 'blocked') throw new HttpError(409, outcome.code, outcome.text);
    if (outcome.kind === 'deletes_holdings' && !input.deleteCurrent) {
      throw new HttpError(409, 'confirm_delete', `${outcome.text} Confirm that you want this to join ${invitation.org_name}.`);
    }
    // Checked again on joining: the plan may have changed (or members joined) since the invitation was sent.
    await assertWithinLimit(invitation.org_id, 'members', { now, db: trx });
    if (!(await markInvitationAccepted(invitation.id, now, trx))) throw invitationGone();
    if (!(await moveUserRow(trx, { userId: user.id, fromOrgId: user.org_id, orgId: invitation.org_id, role: invitation.role }))) throw changed();
    const actor = { userId: user.id, email: user.email };
    if (outcome.kind === 'leaves') {
      await recordAudit({ orgId: user.org_id, actor, action: 'member.left', target: user.email, details: { role: user.role, reason: 'joined_another' } }, trx);
    }
    await recordAudit({ orgId: invitation.org_id, actor, action: 'member.joined', target: user.email, details: { role: invitation.role, invitation: invitation.id } }, trx);
    let deleted: DeletedByMove | null = null;
    if (outcome.kind !== 'leaves') {
      deleted = { orgId: user.org_id, apps: await appsWatchedByOrg(user.org_id, trx) };
      await deleteOrg(user.org_id, trx);
    }
    // Every token of the old membership stops: the caller answers a fresh session for the new organisation.
    const revoked = await revokeSessionRows({ userId: user.id }, now, trx);
    return { invitation, deleted, revoked, outcome: outcome.kind };
  });

  forgetRevokedSessions(done.revoked);
  log.info('member joined through an invitation', { role: done.invitation.role, previous: done.outcome });
  const user = await getUserById(input.userId);
  if (!user) throw unauthorized('Your account no longer exists. Sign in again.');
  return { user, invitation: done.invitation, moved: true, deleted: done.deleted };
}
