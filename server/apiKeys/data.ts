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

export type ActiveKey = { id: string; org_id: string; last_used_at: Date | null; plan: string; plan_status: string };

/** The working key with this hash: its id, its organisation and that organisation's plan columns, in one query. */
export async function findActiveKeyByHash(keyHash: string, db?: DB): Promise<ActiveKey | undefined> {
  return (await dbOf(db))
    .selectFrom('api_keys')
    .innerJoin('orgs', 'orgs.id', 'api_keys.org_id')
    .select(['api_keys.id', 'api_keys.org_id', 'api_keys.last_used_at', 'orgs.plan', 'orgs.plan_status'])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

export type KeyCallCount = { count: number; windowEndsAt: Date; apiCalls: number | null };

/**
 * One public-API call in ONE statement: the key's hit in its fixed-window rate counter (rate_limits, the same row and
 * rule as hitRateLimit) and, when that hit is within `limit` and `countUsage` (the plan includes the API), the
 * organisation's month of calls (org_usage_months.api_calls). A refused hit is counted in the window (so a caller that
 * keeps trying is not locked out longer) but not as a call. `apiCalls` is the month's count after it, null when not
 * counted.
 */
export async function countKeyCall(
  q: { rateKey: string; limit: number; windowSeconds: number; orgId: string; month: string; countUsage: boolean; now: Date },
  db?: DB,
): Promise<KeyCallCount> {
  const windowEnd = new Date(q.now.getTime() + q.windowSeconds * 1000);
  const r = await sql<{ count: number | string; window_ends_at: Date; api_calls: number | null }>`
    with hit as (
      insert into rate_limits as rl (key, count, window_ends_at) values (${q.rateKey}, 1, ${windowEnd})
      on conflict (key) do update
        set count = case when rl.window_ends_at <= ${q.now} then 1 else rl.count + 1 end,
            window_ends_at = case when rl.window_ends_at <= ${q.now} then ${windowEnd} else rl.window_ends_at end
      returning count, window_ends_at),
    used as (
      insert into org_usage_months as u (org_id, month, api_calls)
        select ${q.orgId}, ${q.month}, 1 from hit where hit.count <= ${q.limit} and ${q.countUsage}
      on conflict (org_id, month) do update set api_calls = u.api_calls + 1, updated_at = now()
      returning api_calls)
    select hit.count, hit.window_ends_at, (select api_calls from used) as api_calls from hit`.execute(await dbOf(db));
  const row = r.rows[0];
  return { count: Number(row.count), windowEndsAt: new Date(row.window_ends_at), apiCalls: row.api_calls === null ? null : Number(row.api_calls) };
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
