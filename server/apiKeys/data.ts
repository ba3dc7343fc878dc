/**
 * Data functions of API keys (table api_keys): the only place with their SQL. Revoking and the last-used stamp are
 * conditional UPDATEs, so a revoked key stays revoked and a stamp never moves back. The public API's hot path reads them
 * through caches and writes its counts in batches (caller.ts, callCounts.ts).
 */
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';

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

/** A key as the lists show it: with the address of whoever created it, while they are still a member (null once they are not). */
export type ListedApiKey = ApiKeyRow & { created_by_email: string | null };

/** The organisation's keys that still work, newest first; only those `createdBy` made when given. */
export async function listActiveApiKeys(orgId: string, db?: DB, filter: { createdBy?: string } = {}): Promise<ListedApiKey[]> {
  let q = (await dbOf(db))
    .selectFrom('api_keys as k')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'k.created_by').onRef('u.org_id', '=', 'k.org_id'))
    .select(columns.map((c) => `k.${c}` as const))
    .select('u.email as created_by_email')
    .where('k.org_id', '=', orgId)
    .where('k.revoked_at', 'is', null);
  if (filter.createdBy) q = q.where('k.created_by', '=', filter.createdBy);
  return q.orderBy('k.created_at', 'desc').orderBy('k.id').execute();
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

export type ActiveKey = { id: string; org_id: string; last_used_at: Date | null };

/** The working key with this hash: its id, its organisation and when it was last used. */
export async function findActiveKeyByHash(keyHash: string, db?: DB): Promise<ActiveKey | undefined> {
  return (await dbOf(db)).selectFrom('api_keys').select(['id', 'org_id', 'last_used_at']).where('key_hash', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst();
}

export type OrgApiState = { plan: string; plan_status: string; past_due_since: Date | null; api_calls: number };

/** The organisation's plan columns and its public-API calls in `month`, in one query; undefined when it is gone. */
export async function findOrgApiState(orgId: string, month: string, db?: DB): Promise<OrgApiState | undefined> {
  const r = await sql<OrgApiState>`
    select o.plan, o.plan_status, o.past_due_since, coalesce(u.api_calls, 0)::int as api_calls
      from orgs o left join org_usage_months u on u.org_id = o.id and u.month = ${month}
     where o.id = ${orgId}`.execute(await dbOf(db));
  const row = r.rows[0];
  return row && { ...row, api_calls: Number(row.api_calls) };
}

/**
 * Reserves `want` hits of a key's fixed-window rate counter (rate_limits, the row and rule hitRateLimit would use) in
 * one statement: the window's count after adding them, and when it ends. A new window starts when the stored one has
 * ended. The count may pass the limit (the caller grants only what was under it), so everyone reading it later sees
 * the window spent.
 */
export async function reserveKeyCalls(q: { rateKey: string; want: number; windowSeconds: number; now: Date }, db?: DB): Promise<{ count: number; windowEndsAt: Date }> {
  const windowEnd = new Date(q.now.getTime() + q.windowSeconds * 1000);
  const r = await sql<{ count: number | string; window_ends_at: Date }>`
    insert into rate_limits as rl (key, count, window_ends_at) values (${q.rateKey}, ${q.want}, ${windowEnd})
    on conflict (key) do update
      set count = case when rl.window_ends_at <= ${q.now} then ${q.want} else rl.count + ${q.want} end,
          window_ends_at = case when rl.window_ends_at <= ${q.now} then ${windowEnd} else rl.window_ends_at end
    returning count, window_ends_at`.execute(await dbOf(db));
  const row = r.rows[0];
  return { count: Number(row.count), windowEndsAt: new Date(row.window_ends_at) };
}

export type MonthCalls = { orgId: string; month: string; calls: number };

/**
 * Adds public-API calls to organisations' months in one statement; the months' counts after it. An organisation
 * deleted meanwhile is skipped (its usage went with it), so one gone organisation cannot keep the others unwritten.
 */
export async function addApiCalls(rows: readonly MonthCalls[], db?: DB): Promise<MonthCalls[]> {
  if (rows.length === 0) return [];
  const r = await sql<{ org_id: string; month: string; api_calls: number }>`
    insert into org_usage_months as u (org_id, month, api_calls)
    select c.org_id, c.month, c.n
      from unnest(${rows.map((x) => x.orgId)}::text[], ${rows.map((x) => x.month)}::text[], ${rows.map((x) => x.calls)}::int[]) as c(org_id, month, n)
      join orgs o on o.id = c.org_id
    on conflict (org_id, month) do update set api_calls = u.api_calls + excluded.api_calls, updated_at = now()
    returning u.org_id, u.month, u.api_calls`.execute(await dbOf(db));
  return r.rows.map((x) => ({ orgId: x.org_id, month: x.month, calls: Number(x.api_calls) }));
}

/** Stamps keys as last used at the given times, never moving a stamp back (revoked keys keep theirs too). */
export async function stampKeysUsed(rows: ReadonlyArray<{ id: string; at: Date }>, db?: DB): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    update api_keys k set last_used_at = v.at
      from unnest(${rows.map((x) => x.id)}::text[], ${rows.map((x) => x.at.toISOString())}::timestamptz[]) as v(id, at)
     where k.id = v.id and (k.last_used_at is null or k.last_used_at < v.at)`.execute(await dbOf(db));
}
