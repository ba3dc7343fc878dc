/**
 * The SQL of moving a person between organisations (accepting an invitation, an organisation deleted under its
 * members) and of the invitee's side of invitations. Every move runs in one transaction that locks, in this order,
 * the organisations' rows (by id), then the mover's row, then the rows of the people staying behind: deleting an
 * organisation takes its row first too, so a join and a deletion, or two people leaving one team, run one after the
 * other and the second sees what the first did.
 */
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';
import type { OrgRole } from '../db/types';
import { randomId } from '../crypto';
import { recordAudit, revokeUnanswered } from './data';
import { revokeSessionRows } from '../auth/sessionData';
import { defaultOrgName } from '@/shared/orgNames';

const dbOf = async (db?: DB) => db ?? (await getDb());

export type MovingUser = { id: string; email: string; org_id: string; role: OrgRole };
/** What an organisation holds that would be lost with it (its audit log and usage are not counted). */
export type Holdings = { subscription: boolean; apps: number; credentials: number; destinations: number; apiKeys: number };
/** An open invitation as its invitee sees it: who invites them where. */
export type InvitationForInvitee = {
  id: string;
  org_id: string;
  org_name: string;
  email: string;
  role: Exclude<OrgRole, 'owner'>;
  inviter_email: string | null;
  expires_at: Date;
};

/** The account of this address, if there is one (its organisation and role). */
export async function userByEmail(email: string, db?: DB): Promise<MovingUser | undefined> {
  return (await dbOf(db)).selectFrom('users').select(['id', 'email', 'org_id', 'role']).where('email', '=', email).executeTakeFirst();
}

/** Lock the rows of these organisations, in id order (the order every mover and deleter uses); those that exist. */
export async function lockOrgRows(trx: DB, ids: string[]): Promise<Map<string, { id: string; name: string }>> {
  const sorted = [...new Set(ids)].sort();
  const r = await sql<{ id: string; name: string }>`select id, name from orgs where id in (${sql.join(sorted)}) order by id for update`.execute(trx);
  return new Map(r.rows.map((o) => [o.id, o]));
}

export async function lockUserRow(trx: DB, userId: string): Promise<MovingUser | undefined> {
  const r = await sql<MovingUser>`select id, email, org_id, role from users where id = ${userId} for update`.execute(trx);
  return r.rows[0];
}

/** Whether the session `sessionId` of `userId` is neither revoked nor over, read from its row under the move's lock. */
export async function sessionIsLive(trx: DB, sessionId: string, userId: string, now: Date): Promise<boolean> {
  const r = await sql<{ ok: boolean }>`select true as ok from auth_sessions
    where id = ${sessionId} and user_id = ${userId} and revoked_at is null and expires_at > ${now} for update`.execute(trx);
  return r.rows.length === 1;
}

/** Lock every member's row of `orgId`: a role change, removal or leave waits until the move is decided. */
export async function lockMemberRows(trx: DB, orgId: string): Promise<Array<{ id: string; role: OrgRole }>> {
  const r = await sql<{ id: string; role: OrgRole }>`select id, role from users where org_id = ${orgId} order by id for update`.execute(trx);
  return r.rows;
}

/** A subscription still running (or due) counts as held whether or not billing is on here now: nobody may strand it. */
export async function holdingsOf(orgId: string, db?: DB): Promise<Holdings> {
  const r = await sql<{ apps: string; credentials: string; destinations: string; api_keys: string; subscription: boolean | null }>`
    select (select count(*) from org_apps where org_id = ${orgId}) as apps,
           (select count(*) from org_apps where org_id = ${orgId} and credentials_enc is not null) as credentials,
           (select count(*) from destinations where org_id = ${orgId}) as destinations,
           (select count(*) from api_keys where org_id = ${orgId} and revoked_at is null) as api_keys,
           (select stripe_subscription_id is not null and plan_status not in ('canceled', 'incomplete_expired') from orgs where id = ${orgId}) as subscription`.execute(await dbOf(db));
  const row = r.rows[0];
  return {
    subscription: !!row.subscription,
    apps: Number(row.apps),
    credentials: Number(row.credentials),
    destinations: Number(row.destinations),
    apiKeys: Number(row.api_keys),
  };
}

const inviteeColumns = sql<InvitationForInvitee>`i.id, i.org_id, o.name as org_name, i.email, i.role, u.email as inviter_email, i.expires_at`;

/** The open invitations to `email`, newest first, with the inviting organisation's name and the inviter (while a member there). */
export async function openInvitationsForEmail(email: string, now: Date, db?: DB): Promise<InvitationForInvitee[]> {
  const r = await sql<InvitationForInvitee>`
    select ${inviteeColumns}
      from org_invitations i
      join orgs o on o.id = i.org_id
      left join users u on u.id = i.invited_by and u.org_id = i.org_id
     where i.email = ${email} and i.accepted_at is null and i.revoked_at is null and i.expires_at > ${now}
     order by i.created_at desc, i.id`.execute(await dbOf(db));
  return r.rows;
}

/** One open invitation to `email` by id (another address's invitation is not found). */
export async function openInvitationForEmail(id: string, email: string, now: Date, db?: DB): Promise<InvitationForInvitee | undefined> {
  const r = await sql<InvitationForInvitee>`
    select ${inviteeColumns}
      from org_invitations i
      join orgs o on o.id = i.org_id
      left join users u on u.id = i.invited_by and u.org_id = i.org_id
     where i.id = ${id} and i.email = ${email} and i.accepted_at is null and i.revoked_at is null and i.expires_at > ${now}`.execute(await dbOf(db));
  return r.rows[0];
}

/** The invitee says no: the invitation is revoked (once); undefined when it was no longer open. */
export async function declineInvitationRow(id: string, email: string, now: Date, db?: DB): Promise<{ org_id: string; role: string } | undefined> {
  return (await revokeUnanswered(db, now)).where('id', '=', id).where('email', '=', email).returning(['org_id', 'role']).executeTakeFirst();
}

/** Move the (locked) user from `fromOrgId` into `orgId` with `role`. */
export async function moveUserRow(trx: DB, input: { userId: string; fromOrgId: string; orgId: string; role: OrgRole }): Promise<boolean> {
  const r = await trx
    .updateTable('users')
    .set({ org_id: input.orgId, role: input.role })
    .where('id', '=', input.userId)
    .where('org_id', '=', input.fromOrgId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export type MovedOut = { id: string; email: string; role: OrgRole; orgId: string };

/**
 * Delete the organisation `orgId` under its row lock, after giving every member but `deleterId` an organisation of
 * their own (as its owner, with `member.left` in its audit log saying where they came from): their accounts stay; the
 * deleter's goes with the organisation. Every member's sessions are revoked in the same transaction (`revokedSessions`,
 * for the caller to forget). Null when the organisation was already gone.
 */
export async function deleteOrgMovingOthersOut(
  input: { orgId: string; deleter: { userId: string; email: string }; now: Date },
  db?: DB,
): Promise<{ orgName: string; movedOut: MovedOut[]; revokedSessions: string[] } | null> {
  return (await dbOf(db)).transaction().execute(async (trx) => {
    const org = (await lockOrgRows(trx, [input.orgId])).get(input.orgId);
    if (!org) return null;
    const others = (await sql<{ id: string; email: string; role: OrgRole }>`
      select id, email, role from users where org_id = ${input.orgId} and id <> ${input.deleter.userId} order by id for update`.execute(trx)).rows;
    const movedOut: MovedOut[] = [];
    const revokedSessions = await revokeSessionRows({ userId: input.deleter.userId }, input.now, trx);
    for (const u of others) {
      revokedSessions.push(...(await revokeSessionRows({ userId: u.id }, input.now, trx)));
      const own = randomId('org');
      await trx.insertInto('orgs').values({ id: own, name: defaultOrgName(u.email) }).execute();
      await moveUserRow(trx, { userId: u.id, fromOrgId: input.orgId, orgId: own, role: 'owner' });
      await recordAudit(
        { orgId: own, actor: input.deleter, action: 'member.left', target: u.email, details: { role: u.role, organisation: org.name, reason: 'organisation_deleted' } },
        trx,
      );
      movedOut.push({ id: u.id, email: u.email, role: u.role, orgId: own });
    }
    await trx.deleteFrom('orgs').where('id', '=', input.orgId).execute();
    return { orgName: org.name, movedOut, revokedSessions };
  });
}
