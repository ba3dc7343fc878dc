/**
 * The app's official API source (App Store Connect, Play Developer API) follows the store credentials organisations
 * stored for the app (org_apps.credentials_enc): it carries the most recently checked ones, or none and rests. Used by
 * every path that changes those credentials: storing, removing, and removing an app that had some.
 */
import type { Transaction } from 'kysely';
import { getDb } from '../db/client';
import type { Database } from '../db/types';
import { decryptSecret } from '../crypto';
import { lockApp } from '../monitor/apps';
import { activateNeededSources, idleUnneededSources } from '../monitor/sourceDemand';
import { clearSourceCredentials, ensureSource } from '../monitor/sources';
import type { SourceCredentials } from '../sources/types';
import { newestAppCredentials } from './data';

/**
 * The app's official source follows the organisations' credentials: it carries the newest ones stored for the app, or
 * none (and rests). Then the app's sources that are (no longer) needed are started or idled at once. In the caller's
 * transaction, under the app's lock, so two organisations changing theirs at once end with the newest.
 */
export async function followStoredCredentials(trx: Transaction<Database>, appKey: string, store: string): Promise<void> {
  await lockApp(trx, appKey);
  const sealed = await newestAppCredentials(appKey, trx);
  if (sealed) {
    const credentials = JSON.parse(decryptSecret(sealed)) as SourceCredentials;
    await ensureSource(trx, { appKey, kind: store === 'apple_app_store' ? 'appstore_connect' : 'play_developer', credentials });
  } else {
    await clearSourceCredentials(trx, appKey);
  }
  await activateNeededSources(trx, [appKey]);
  await idleUnneededSources(trx, [appKey]);
}

/** The same, in a transaction of its own (after an app with credentials left an organisation). */
export async function followStoredCredentialsNow(appKey: string, store: string): Promise<void> {
  await (await getDb()).transaction().execute((trx) => followStoredCredentials(trx, appKey, store));
}
