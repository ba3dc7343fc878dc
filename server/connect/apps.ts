/**
 * Registers the app a visitor picked with the monitoring engine, with its title and icon read from its store (the
 * welcome and every e-mail name it). A store outage does not block a connection to an app ARB already knows.
 */
import { getAppDetails } from '../apps/details';
import { StoreError, storeHttpError } from '../apps/upstream';
import { getDb } from '../db/client';
import { notFound } from '../http/errors';
import { ensureApp, type AppRef } from '../monitor/service';

export type RegisteredApp = { app_id: string; app_store: AppRef['store']; title: string; icon: string | null };

/** `storefront`: where to look the app up first (iOS); an app missing there is looked up in the US store. */
export async function registerApp(ref: AppRef, storefront = 'us'): Promise<RegisteredApp> {
  const { store, appId } = ref;
  let details;
  try {
    details = await getAppDetails({ appId, appStore: store, country: storefront });
    // Available elsewhere but not in the chosen storefront: still the same app (its feed there is just empty).
    if (!details && storefront !== 'us') details = await getAppDetails({ appId, appStore: store, country: 'us' });
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    const db = await getDb();
    const known = await db.selectFrom('apps').select(['app_id', 'store', 'title', 'icon_url']).where('store', '=', store).where('app_id', '=', appId).executeTakeFirst();
    if (!known) throw storeHttpError(err, 'details');
    return { app_id: known.app_id, app_store: store, title: known.title, icon: known.icon_url };
  }
  if (!details) {
    throw notFound(`We couldn't find the app ${appId} on ${store === 'apple_app_store' ? 'the App Store' : 'Google Play'}. Search for it again and pick it from the list.`);
  }
  const row = await ensureApp({ store, appId, title: details.title, iconUrl: details.icon, storeUrl: details.store_url, developer: details.developer });
  return { app_id: row.app_id, app_store: store, title: row.title, icon: row.icon_url };
}
