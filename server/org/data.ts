/**
 * Data functions for organisations and their teams (tables orgs, users' membership columns, org_invitations,
 * audit_log). The only place with SQL for them. Accepting an invitation and revoking one are conditional UPDATEs, so
 * two requests can never both win.
 */
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';
import type { OrgRole } from '../db/types';
import { randomId } from '../crypto';

const dbOf = async (db?: DB) => db ?? (await getDb());

export type Org = { id: string; name: string; plan: string; created_at: Date };
export type Member = { id: string; email: string; name: string | null; display_name: string | null; role: OrgRole; created_at: Date; last_sign_in_at: Date | null };
export type Invitation = {
  id: string;
  org_id: string;
  email: string;
  role: Exclude<OrgRole, 'owner'>;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
  /** When its e-mail went out; null when none did (the address had unsubscribed from ARB e-mails). */
  mailed_at: Date | null;
};
export type AuditEntry = {
  id: string;
  actor_user_id: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  created_at: Date;
};

// --- organisations ------------------------------------------------------------------------------------------------

export async function getOrg(id: string, db?: DB): Promise<Org | undefined> {
  return (await dbOf(db)).selectFrom('orgs').select(['id', 'name', 'plan', 'created_at']).where('id', '=', id).executeTakeFirst();
}

export async function renameOrg(id: string, name: string, db?: DB): Promise<void> {
  await (await dbOf(db)).updateTable('orgs').set({ name }).where('id', '=', id).execute();
}

/**
 * Deletes the organisation and, through the foreign keys, everything that is its own: members' accounts and sessions,
 * destinations with their queued deliveries, apps list, invitations, audit log, API keys, usage. Reviews are not its
 * own (apps are shared by every organisation watching them) and stay.
 */
export async function deleteOrg(id: string, db?: DB): Promise<boolean> {
  const r = await (await dbOf(db)).deleteFrom('orgs').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Every app the organisation watches (its apps list and its destinations' apps), and whether it stored store credentials for it. */
export async function appsWatchedByOrg(orgId: string, db?: DB): Promise<Array<{ app_key: string; store: string; has_credentials: boolean }>> {
  const r = await sql<{ app_key: string; store: string; has_credentials: boolean }>`
    select a.key as app_key, a.store, bool_or(w.has_credentials) as has_credentials
      from (select oa.app_key, oa.credentials_enc is not null as has_credentials from org_apps oa where oa.org_id = ${orgId}
            union all
            select da.app_key, false from destination_apps da join destinations d on d.id = da.destination_id where d.org_id = ${orgId}) w
      join apps a on a.key = w.app_key
     group by a.key, a.store`.execute(await dbOf(db));
  return r.rows;
}

// --- members ------------------------------------------------------------------------------------------------------

const memberColumns = ['id', 'email', 'name', 'display_name', 'role', 'created_at', 'last_sign_in_at'] as const;

export async function listMembers(orgId: string, db?: DB): Promise<Member[]> {
  return (await dbOf(db)).selectFrom('users').select(memberColumns).where('org_id', '=', orgId).orderBy('created_at', 'asc').orderBy('id').execute();
}

export async function getMember(orgId: string, userId: string, db?: DB): Promise<Member | undefined> {
  return (await dbOf(db)).selectFrom('users').select(memberColumns).where('org_id', '=', orgId).where('id', '=', userId).executeTakeFirst();
}

export async function countMembers(orgId: string, role?: OrgRole, db?: DB): Promise<number> {
  let q = (await dbOf(db)).selectFrom('users').select((eb) => eb.fn.countAll<string>().as('n')).where('org_id', '=', orgId);
  if (role) q = q.where('role', '=', role);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Change a member's role, only while they are still in `orgId` with `fromRole` (a concurrent change loses). */
export async function setMemberRole(input: { orgId: string; userId: string; fromRole: OrgRole; role: OrgRole }, db?: DB): Promise<boolean> {
  const r = await (await dbOf(db))
    .updateTable('users')
    .set({ role: input.role })
    .where('id', '=', input.userId)
    .where('org_id', '=', input.orgId)
    .where('role', '=', input.fromRole)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Move a user into `orgId` with `role` (joining through an invitation). */
export async function moveUserToOrg(input: { userId: string; orgId: string; role: OrgRole }, db?: DB): Promise<void> {
  await (await dbOf(db)).updateTable('users').set({ org_id: input.orgId, role: input.role }).where('id', '=', input.userId).execute();
}

/**
 * Give a user who leaves or is removed an organisation of their own (as its owner), so they can still sign in. Only
 * while they are still in `fromOrgId`: a concurrent removal does not make two.
 */
/**
 * Moves a member out of `fromOrgId` into a new organisation of their own, as its owner. The old organisation's member
 * rows are locked first and the rule checked under the lock — someone else stays, and an owner stays — so two owners
 * leaving (or removing each other) at once cannot leave it without one. Undefined when the member is no longer there,
 * 'last_owner' / 'only_member' when the move would break the rule.
 */
export async function moveUserToOwnOrg(
  input: { userId: string; fromOrgId: string; name: string },
  db?: DB,
): Promise<string | 'last_owner' | 'only_member' | undefined> {
  return (await dbOf(db)).transaction().execute(async (trx) => {
    const members = (await sql<{ id: string; role: OrgRole }>`select id, role from users where org_id = ${input.fromOrgId} order by id for update`.execute(trx)).rows;
    const me = members.find((u) => u.id === input.userId);
    if (!me) return undefined;
    const others = members.filter((u) => u.id !== input.userId);
    if (others.length === 0) return 'only_member';
    if (me.role === 'owner' && !others.some((u) => u.role === 'owner')) return 'last_owner';
    const orgId = randomId('org');
    await trx.insertInto('orgs').values({ id: orgId, name: input.name }).execute();
    const moved = await trx
      .updateTable('users')
      .set({ org_id: orgId, role: 'owner' })
      .where('id', '=', input.userId)
      .where('org_id', '=', input.fromOrgId)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 1) return orgId;
    await trx.deleteFrom('orgs').where('id', '=', orgId).execute();
    return undefined;
  });
}

// --- invitations --------------------------------------------------------------------------------------------------

const invitationColumns = ['id', 'org_id', 'email', 'role', 'invited_by', 'created_at', 'expires_at', 'mailed_at'] as const;

/**
 * A new open invitation; an open one for the same address and organisation is revoked in the same transaction, unless
 * it was e-mailed after `keepMailedAfter` (the re-invite cooldown). Undefined when an open one stands — kept so, or made
 * by a concurrent call first (org_invitations_open_idx keeps one open per address) — so only one e-mail goes.
 */
export async function replaceInvitation(
  input: { orgId: string; email: string; role: Exclude<OrgRole, 'owner'>; invitedBy: string; tokenHash: string; expiresAt: Date; now: Date; mailedAt: Date | null; keepMailedAfter: Date },
  db?: DB,
): Promise<Invitation | undefined> {
  return (await dbOf(db)).transaction().execute(async (trx) => {
    await trx
      .updateTable('org_invitations')
      .set({ revoked_at: input.now })
      .where('org_id', '=', input.orgId)
      .where('email', '=', input.email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('mailed_at', 'is', null), eb('mailed_at', '<=', input.keepMailedAfter)]))
      .execute();
    return trx
      .insertInto('org_invitations')
      .values({ id: randomId('inv'), org_id: input.orgId, email: input.email, role: input.role, invited_by: input.invitedBy, token_hash: input.tokenHash, expires_at: input.expiresAt, mailed_at: input.mailedAt })
      .onConflict((oc) => oc.columns(['org_id', 'email']).where('accepted_at', 'is', null).where('revoked_at', 'is', null).doNothing())
      .returning(invitationColumns)
      .executeTakeFirst();
  });
}

const openInvitations = async (db: DB | undefined, now: Date) =>
  (await dbOf(db)).selectFrom('org_invitations').select(invitationColumns).where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now);

/** Revoking invitations nobody accepted or revoked yet (expired ones included): the caller says which. */
export const revokeUnanswered = async (db: DB | undefined, now: Date) =>
  (await dbOf(db)).updateTable('org_invitations').set({ revoked_at: now }).where('accepted_at', 'is', null).where('revoked_at', 'is', null);

/** An open invitation with the address of whoever sent it, while they are still a member (null once they are not). */
export type ListedInvitation = Invitation & { invited_by_email: string | null };

export async function listOpenInvitations(orgId: string, now: Date, db?: DB): Promise<ListedInvitation[]> {
  return (await dbOf(db))
    .selectFrom('org_invitations as i')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'i.invited_by').onRef('u.org_id', '=', 'i.org_id'))
    .select(invitationColumns.map((c) => `i.${c}` as const))
    .select('u.email as invited_by_email')
    .where('i.org_id', '=', orgId)
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .where('i.expires_at', '>', now)
    .orderBy('i.created_at', 'desc')
    .execute();
}

/** The open invitation of this address to this organisation (there is at most one: org_invitations_open_idx). */
export async function openInvitationTo(orgId: string, email: string, now: Date, db?: DB): Promise<Invitation | undefined> {
  return (await openInvitations(db, now)).where('org_id', '=', orgId).where('email', '=', email).executeTakeFirst();
}

/** Change the role an open invitation offers, keeping its link; undefined when it is no longer open. */
export async function setInvitationRole(orgId: string, id: string, role: Exclude<OrgRole, 'owner'>, db?: DB): Promise<Invitation | undefined> {
  return (await dbOf(db))
    .updateTable('org_invitations')
    .set({ role })
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning(invitationColumns)
    .executeTakeFirst();
}

/** Revoke every open invitation `userId` sent for `orgId` (they are leaving it); the ones revoked. */
export async function revokeInvitationsSentBy(orgId: string, userId: string, now: Date, db?: DB): Promise<Invitation[]> {
  return (await revokeUnanswered(db, now)).where('org_id', '=', orgId).where('invited_by', '=', userId).returning(invitationColumns).execute();
}

export async function getOpenInvitationByTokenHash(tokenHash: string, now: Date, db?: DB): Promise<Invitation | undefined> {
  return (await openInvitations(db, now)).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** The newest open invitation to this address (from any organisation). */
export async function newestOpenInvitationFor(email: string, now: Date, db?: DB): Promise<Invitation | undefined> {
  return (await openInvitations(db, now)).where('email', '=', email).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
}

export async function revokeInvitation(orgId: string, id: string, now: Date, db?: DB): Promise<Invitation | undefined> {
  return (await revokeUnanswered(db, now)).where('id', '=', id).where('org_id', '=', orgId).returning(invitationColumns).executeTakeFirst();
}

/** Mark accepted; false when it was accepted, revoked or expired in the meantime. */
export async function markInvitationAccepted(id: string, now: Date, db?: DB): Promise<boolean> {
  const r = await (await dbOf(db))
    .updateTable('org_invitations')
    .set({ accepted_at: now })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// --- audit log ----------------------------------------------------------------------------------------------------

export type AuditInput = { orgId: string; actor: { userId: string; email: string } | null; action: string; target?: string | null; details?: Record<string, unknown> };

const auditRow = (entry: AuditInput) => ({
  org_id: entry.orgId,
  actor_user_id: entry.actor?.userId ?? null,
  actor_email: entry.actor?.email ?? null,
  action: entry.action,
  target: entry.target ?? null,
  details: JSON.stringify(entry.details ?? {}),
});

export async function recordAudit(entry: AuditInput, db?: DB): Promise<void> {
  await (await dbOf(db)).insertInto('audit_log').values(auditRow(entry)).execute();
}

/** Several entries in one statement, in the order given (the rules pass writes what it did to many reviews at once). */
export async function recordAudits(entries: AuditInput[], db?: DB): Promise<void> {
  if (entries.length === 0) return;
  await (await dbOf(db)).insertInto('audit_log').values(entries.map(auditRow)).execute();
}

/** Newest first, `limit` entries older than the entry `before` (an id), for cursor paging. */
export async function listAudit(orgId: string, page: { limit: number; before?: string }, db?: DB): Promise<AuditEntry[]> {
  let q = (await dbOf(db))
    .selectFrom('audit_log')
    .select(['id', 'actor_user_id', 'actor_email', 'action', 'target', 'details', 'created_at'])
    .where('org_id', '=', orgId);
  // The cursor's digits as they came (up to 18: more than a JS number holds exactly); the bigint id reads as a number.
  if (page.before) q = q.where('id', '<', sql<number>`${page.before}`);
  const rows = await q.orderBy('id', 'desc').limit(page.limit).execute();
  return rows.map((r) => ({ ...r, id: String(r.id), details: (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as Record<string, unknown> }));
}
