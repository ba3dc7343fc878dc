/**
 * Data functions of API keys (table api_keys): the only place with their SQL. Revoking and the last-used stamp are
 * conditional UPDATEs, so a revoked key stays revoked and concurrent uses write the stamp at most once per interval.
 */
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';
import { msInterval } from '../db/interval';

const dbOf = async (db?: DB) => db ?? (await getDb());

export type ApiKeyRow = { id: string; name: string; prefix: string; created_by: string | null; created_at: Date; last_used_at: Date | null };

const columns = ['id', 'name', 'prefix', 'created_by', 'created_at', 'last_used_at'] as const;

export async function insertApiKey(input: { id: string; orgId: string; name: string; prefix: string; keyHash: string; createdBy: string }, db?: DB): Promise<ApiKeyRow> {
  return (await dbOf(db))
    .insertInto('api_keys')
    .values({ id: input.id, org_id: input.orgId, name: input.name, prefix: input.prefix, key_hash: input.keyHash, created_by: input.createdBy })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

/** The organisation's keys that still work, newest first. */
export async function listActiveApiKeys(orgId: string, db?: DB): Promise<ApiKeyRow[]> {
  return (await dbOf(db)).selectFrom('api_keys').select(columns).where('org_id', '=', orgId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').orderBy('id').execute();
}

export async function countActiveApiKeys(orgId: string, db?: DB): Promise<number> {
  const r = await (await dbOf(db))
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('org_id', '=', orgId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Revokes a key of the organisation that still works; undefined when it has none with this id. */
export async function revokeApiKey(orgId: string, id: string, db?: DB): Promise<ApiKeyRow | undefined> {
  return (await dbOf(db))
    .updateTable('api_keys')
    .set({ revoked_at: sql`now()` })
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .where('revoked_at', 'is', null)
    .returning(columns)
    .executeTakeFirst();
}

/** The working key with this hash: its id and organisation. */
export async function findActiveKeyByHash(keyHash: string, db?: DB): Promise<{ id: string; org_id: string; last_used_at: Date | null } | undefined> {
  return (await dbOf(db)).selectFrom('api_keys').select(['id', 'org_id', 'last_used_at']).where('key_hash', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst();
}

/** Stamps the key as used now, unless it was stamped less than `everyMs` ago (one write per interval, not per request). */
export async function touchApiKey(id: string, everyMs: number, db?: DB): Promise<void> {
  await (await dbOf(db))
    .updateTable('api_keys')
    .set({ last_used_at: sql`now()` })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<Date>`now() - ${msInterval(everyMs)}`)]))
    .execute();
}
