/**
 * An organisation's store credentials for one of its apps: checked with one real call to the store
 * (credentialsCheck.ts), sealed with ENCRYPTION_KEY, never sent back (the list shows the kind, a label and when they
 * were checked), recorded in the audit log without the secret.
 *
 * With credentials, the engine reads the app through the store's official API (every territory, edits, published
 * replies): the app's official source carries a sealed copy, and while it is active the app's public sources rest
 * (sourceDemand.ts), for every organisation watching the app. The source always carries the most recently checked
 * credentials any organisation stored for the app; when the last ones go (removed, or the app removed), the official
 * source rests and the public sources come back. A review read by both sides of a switch stays one review
 * (monitor/sameReviews.ts).
 */
import { getDb } from '../db/client';
import { encryptSecret } from '../crypto';
import { badRequest, notFound } from '../http/errors';
import { log } from '../log';
import { wake } from '../monitor/wake';
import { recordAudit } from '../org/data';
import type { Membership } from '../org/membership';
import { checkStoreAccess } from './credentialsCheck';
import { credentialsLabel, sourceCredentialsOf, STORE_OF_KIND, type CredentialsBody } from './credentialsInput';
import { clearOrgAppCredentials, listOrgApps, saveOrgAppCredentials, type OrgAppRow } from './data';
import { followStoredCredentials } from './officialSource';
import { orgAppOrNotFound } from './service';
import { forgetOrgApps } from '../publicApi/appsCache';

const STORE_NAMES = { apple_app_store: 'App Store', google_play_store: 'Google Play' } as const;

/** Checks the credentials against the store, then stores them for the organisation's app (admins; the caller checked). */
export async function setAppCredentials(m: Membership, key: string, body: CredentialsBody): Promise<OrgAppRow> {
  const app = await orgAppOrNotFound(m, key);
  if (STORE_OF_KIND[body.kind] !== app.store) {
    const other = body.kind === 'app_store_connect' ? 'google_play' : 'app_store_connect';
    throw badRequest(`kind: "${body.kind}" credentials are for ${STORE_NAMES[STORE_OF_KIND[body.kind]]} apps, and ${app.title} is a ${STORE_NAMES[app.store as keyof typeof STORE_NAMES]} app: use "${other}".`);
  }
  const credentials = sourceCredentialsOf(body);
  await checkStoreAccess(app, credentials);

  const label = credentialsLabel(body);
  const db = await getDb();
  await db.transaction().execute(async (trx) => {
    if (!(await saveOrgAppCredentials(m.orgId, key, { kind: body.kind, sealed: encryptSecret(JSON.stringify(credentials)), label }, trx))) {
      throw notFound('This app is not in your organisation. Add it on the Apps page first.');
    }
    await followStoredCredentials(trx, key, app.store);
  });
  forgetOrgApps(m.orgId);
  wake('poll');
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'app.credentials_set', target: app.title, details: { app: key, kind: body.kind, label } });
  log.info('store credentials saved', { app: key, kind: body.kind });
  return (await listOrgApps(m.orgId, key))[0];
}

/** Forgets the organisation's credentials for its app; the engine goes back to what the others' allow. */
export async function removeAppCredentials(m: Membership, key: string): Promise<void> {
  const app = await orgAppOrNotFound(m, key);
  const db = await getDb();
  const removed = await db.transaction().execute(async (trx) => {
    if (!(await clearOrgAppCredentials(m.orgId, key, trx))) return false;
    await followStoredCredentials(trx, key, app.store);
    return true;
  });
  if (!removed) throw notFound('There are no store credentials stored for this app.');
  forgetOrgApps(m.orgId);
  wake('poll');
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'app.credentials_removed', target: app.title, details: { app: key, kind: app.credentials_kind, label: app.credentials_label } });
  log.info('store credentials removed', { app: key, kind: app.credentials_kind });
}
