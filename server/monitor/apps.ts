/**
 * Apps the engine knows about. An app's key is `${store}__${appId}` — the same form the customer API uses in its paths —
 * so any module can address an app without a lookup.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/client';
import type { Database } from '../db/types';
import { APP_ID_HINT, isAppStoreAppId, isPlayPackageName } from '@/shared/appIds';
import { badRequest } from '../http/errors';
import type { AppStore } from '../sources/types';
import type { AppInfo } from '../destinations/types';

export type AppRef = { store: AppStore; appId: string };
export type AppRow = { key: string; store: AppStore; app_id: string; title: string; icon_url: string | null; store_url: string | null; developer: string | null };


export function appKey(ref: AppRef): string {
  return `${ref.store}__${ref.appId}`;
}

export function validateAppRef(ref: AppRef): AppRef {
  if (ref.store === 'apple_app_store') {
    if (!isAppStoreAppId(ref.appId)) throw badRequest(`app_id ${APP_ID_HINT.apple_app_store}.`);
  } else if (ref.store === 'google_play_store') {
    if (!isPlayPackageName(ref.appId)) throw badRequest(`app_id ${APP_ID_HINT.google_play_store}.`);
  } else {
    throw badRequest('app_store: must be apple_app_store or google_play_store.');
  }
  return ref;
}

export type EnsureAppInput = AppRef & { title: string; iconUrl?: string | null; storeUrl?: string | null; developer?: string | null };

/** Creates the app or refreshes its title/icon (a store rename shows up in the next message). */
export async function ensureAppRow(db: DB | Transaction<Database>, input: EnsureAppInput): Promise<AppRow> {
  validateAppRef(input);
  const title = input.title.trim().slice(0, 300) || input.appId;
  const row = await db
    .insertInto('apps')
    .values({
      key: appKey(input),
      store: input.store,
      app_id: input.appId,
      title,
      icon_url: input.iconUrl ?? null,
      store_url: input.storeUrl ?? null,
      developer: input.developer ?? null,
    })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        title,
        icon_url: sql`coalesce(excluded.icon_url, apps.icon_url)`,
        store_url: sql`coalesce(excluded.store_url, apps.store_url)`,
        developer: sql`coalesce(excluded.developer, apps.developer)`,
        updated_at: sql`now()`,
      }),
    )
    .returning(['key', 'store', 'app_id', 'title', 'icon_url', 'store_url', 'developer'])
    .executeTakeFirstOrThrow();
  return row as AppRow;
}

export function storeUrlOf(app: Pick<AppRow, 'store' | 'app_id' | 'store_url'>): string {
  if (app.store_url) return app.store_url;
  return app.store === 'apple_app_store'
    ? `https://apps.apple.com/app/id${app.app_id}`
    : `https://play.google.com/store/apps/details?id=${encodeURIComponent(app.app_id)}`;
}

export function appInfoOf(app: Pick<AppRow, 'store' | 'app_id' | 'title' | 'icon_url' | 'store_url'>): AppInfo {
  return { appId: app.app_id, store: app.store, title: app.title, iconUrl: app.icon_url, storeUrl: storeUrlOf(app) };
}

/**
 * The app's row lock as every writer of its reviews and subscriptions takes it: an update that bumps the app's write
 * count, which tells a poll that read the app's reviews and destinations without the lock whether anyone wrote them
 * since (ingest.ts). `ifSeq`: only if the count is still this one (no row otherwise). Returns the app's key.
 */
export function appLockSql(key: string, ifSeq?: string) {
  const unchanged = ifSeq === undefined ? sql`` : sql` and write_seq = ${ifSeq}::bigint`;
  return sql<{ key: string }>`update apps set write_seq = write_seq + 1 where key = ${key}${unchanged} returning key`;
}

/** Serializes everything that decides "which destination gets which review" for one app (ingest vs. new destination). */
export async function lockApp(trx: Transaction<Database>, key: string): Promise<boolean> {
  return (await appLockSql(key).execute(trx)).rows.length > 0;
}

/** The titles of these apps (for words like "Reviews of Quiet Hours"). */
export async function appTitles(db: DB | Transaction<Database>, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  return (await db.selectFrom('apps').select('title').where('key', 'in', keys).execute()).map((a) => a.title);
}
