/**
 * The owner deletes the organisation: after typing its name, and once no paid subscription is running (it is
 * cancelled in the payment provider's portal first, so nobody is charged for an organisation that is gone). The
 * foreign keys take the deleter's account, the destinations with their queued deliveries, the apps list with its store
 * credentials, invitations, audit log, API keys and usage. Reviews stay: apps are shared by every organisation
 * watching them.
 *
 * The other members keep their accounts: each one joined from elsewhere and never agreed to lose it. In the same
 * transaction that deletes the organisation (under its row lock, so someone joining at that moment is either moved
 * out too or finds the organisation gone) each gets an organisation of their own, as its owner, with `member.left` in
 * its audit log naming the one deleted; every session of every member ends.
 *
 * Afterwards the engine lets go of what only this organisation needed: an app's official-API source stops using the
 * credentials that went (it takes another organisation's, or rests), and sources nobody needs any more stop polling.
 * A flow (server/flows/): the organisation's rows are org/'s, the subscription check plans/', the rest the engine's,
 * the credentials' and the key cache's.
 */
import { getDb } from '../db/client';
import { HttpError, notFound } from '../http/errors';
import { log } from '../log';
import { forgetRevokedSessions } from '../auth/sessionState';
import { idleUnneededSources } from '../monitor/sourceDemand';
import { followStoredCredentialsNow } from '../orgApps/officialSource';
import { getOrgPlan } from '../plans/data';
import { hasLiveSubscription } from '../plans/plans';
import { appsWatchedByOrg, getOrg } from '../org/data';
import type { Membership } from '../org/membership';
import type { DeletedByMove } from '../org/move';
import { deleteOrgMovingOthersOut } from '../org/moveData';
import { forgetOrgApiKeys } from '../apiKeys/keyState';

/** What the engine and the caches let go of once an organisation is gone (deleted here, or by its last member joining elsewhere). */
export async function afterOrgDeleted(orgId: string, apps: DeletedByMove['apps']): Promise<void> {
  forgetOrgApiKeys(orgId);
  for (const a of apps) if (a.has_credentials) await followStoredCredentialsNow(a.app_key, a.store);
  await idleUnneededSources(await getDb(), apps.map((a) => a.app_key));
}

export async function deleteOrganisation(m: Membership, confirmName: string): Promise<{ movedOut: number }> {
  const org = await getOrg(m.orgId);
  if (!org) throw notFound('This organisation no longer exists.');
  if (confirmName.trim() !== org.name) throw new HttpError(400, 'confirmation_mismatch', `Type the organisation's name, ${org.name}, exactly to confirm.`);
  const plan = await getOrgPlan(m.orgId);
  if (plan && hasLiveSubscription(plan)) {
    throw new HttpError(409, 'subscription_active', 'This organisation still has a paid subscription. Cancel it under Billing → Manage billing first, then delete the organisation.');
  }
  const apps = await appsWatchedByOrg(m.orgId);
  const now = new Date();
  const done = await deleteOrgMovingOthersOut({ orgId: m.orgId, deleter: { userId: m.userId, email: m.email }, now });
  if (!done) throw notFound('This organisation no longer exists.');
  // Ended in the deleting transaction: at once in this process, in others within the session cache's 5 s.
  forgetRevokedSessions(done.revokedSessions);
  await afterOrgDeleted(m.orgId, apps);
  // Which organisation and owner: debug only (docs/SECURITY.md, Logs); the warning says that one was deleted.
  log.warn('organisation deleted by its owner', { movedOut: done.movedOut.length, apps: apps.length });
  log.debug('organisation deleted by its owner', { orgId: m.orgId, userId: m.userId });
  return { movedOut: done.movedOut.length };
}
