/**
 * The owner deletes the organisation: after typing its name, and once no paid subscription is running (it is
 * cancelled in the payment provider's portal first, so nobody is charged for an organisation that is gone). Every
 * member's session ends; the foreign keys take their accounts, the destinations with their queued deliveries, the
 * apps list with its store credentials, invitations, audit log, API keys and usage. Reviews stay: apps are shared by
 * every organisation watching them.
 *
 * Afterwards the engine lets go of what only this organisation needed: an app's official-API source stops using the
 * credentials that went (it takes another organisation's, or rests), and sources nobody needs any more stop polling.
 */
import { getDb } from '../db/client';
import { HttpError, notFound } from '../http/errors';
import { log } from '../log';
import { revokeSessionRows } from '../auth/sessionData';
import { forgetRevokedSessions } from '../auth/sessionState';
import { idleUnneededSources } from '../monitor/sourceDemand';
import { followStoredCredentialsNow } from '../orgApps/officialSource';
import { getOrgPlan } from '../plans/data';
import { hasLiveSubscription } from '../plans/plans';
import { appsWatchedByOrg, deleteOrg, getOrg, listMembers } from './data';
import type { Membership } from './membership';
import { forgetOrgApiKeys } from '../apiKeys/keyState';

export async function deleteOrganisation(m: Membership, confirmName: string): Promise<void> {
  const org = await getOrg(m.orgId);
  if (!org) throw notFound('This organisation no longer exists.');
  if (confirmName.trim() !== org.name) throw new HttpError(400, 'confirmation_mismatch', `Type the organisation's name, ${org.name}, exactly to confirm.`);
  const plan = await getOrgPlan(m.orgId);
  if (plan && hasLiveSubscription(plan)) {
    throw new HttpError(409, 'subscription_active', 'This organisation still has a paid subscription. Cancel it under Billing → Manage billing first, then delete the organisation.');
  }
  const members = await listMembers(m.orgId);
  const apps = await appsWatchedByOrg(m.orgId);
  const now = new Date();
  for (const u of members) forgetRevokedSessions(await revokeSessionRows({ userId: u.id }, now));
  if (!(await deleteOrg(m.orgId))) throw notFound('This organisation no longer exists.');
  forgetOrgApiKeys(m.orgId);
  for (const a of apps) if (a.has_credentials) await followStoredCredentialsNow(a.app_key, a.store);
  const idled = await idleUnneededSources(await getDb(), apps.map((a) => a.app_key));
  log.warn('organisation deleted by its owner', { orgId: m.orgId, userId: m.userId, members: members.length, apps: apps.length, idledSources: idled });
}
