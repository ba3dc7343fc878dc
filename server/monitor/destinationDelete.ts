/**
 * Deleting destinations under their apps' locks. A destination's rows go by cascade (its apps, its deliveries), and a
 * poll of one of its apps that read the destination before the delete would then insert deliveries for a destination
 * that no longer exists: a foreign-key error, and the whole poll failed. Taking each app's lock first (apps.ts
 * lockApp, the ingest's own lock, which bumps the app's write count) orders the two: a poll that locked first finishes
 * and its deliveries go with the destination; a poll after the delete does not see it; a poll that read without the
 * lock (ingest.ts storeWithoutLock) finds the write count changed and takes the locked path. The locks are taken in
 * app-key order, as every other taker of several app locks does, so two of them never wait on each other.
 */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../db/client';
import type { Database } from '../db/types';
import { lockApp } from './apps';

type Trx = Transaction<Database>;

/** The app keys of these destinations, sorted (the lock order). */
async function appKeysOf(trx: Trx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await trx.selectFrom('destination_apps').select('app_key').distinct().where('destination_id', 'in', ids).orderBy('app_key').execute();
  return rows.map((r) => r.app_key);
}

/**
 * Deletes the destinations `ids` that `condition` (SQL over the destinations row, e.g. "of this organisation", "still
 * pending") still allows once their apps are locked; resolves with the ids deleted. In the caller's transaction when
 * given one.
 */
export async function deleteDestinationsLocked(db: DB | Trx, ids: string[], condition: RawBuilder<boolean> = sql<boolean>`true`): Promise<string[]> {
  if (ids.length === 0) return [];
  const run = async (trx: Trx) => {
    const locked = new Set<string>();
    // An app added to one of them meanwhile (the dashboard) is locked too: read again until nothing new appears.
    for (;;) {
      const fresh = (await appKeysOf(trx, ids)).filter((k) => !locked.has(k));
      if (fresh.length === 0) break;
      for (const key of fresh) {
        await lockApp(trx, key);
        locked.add(key);
      }
    }
    const deleted = await trx.deleteFrom('destinations').where('id', 'in', ids).where(condition).returning('id').execute();
    return deleted.map((r) => r.id);
  };
  return db.isTransaction ? run(db as Trx) : (db as DB).transaction().execute(run);
}
