/**
 * SQL of the AI features: language-model tokens per organisation and month (a column of org_usage_months, the table
 * every monthly allowance is counted in), and the queue of reviews whose sentiment the model re-reads.
 */
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';

const dbOf = async (db?: DB) => db ?? (await getDb());

export async function llmTokensUsed(orgId: string, month: string, db?: DB): Promise<number> {
  const row = await (await dbOf(db))
    .selectFrom('org_usage_months')
    .select('llm_tokens')
    .where('org_id', '=', orgId)
    .where('month', '=', month)
    .executeTakeFirst();
  return Number(row?.llm_tokens ?? 0);
}

/** Adds `tokens` to the organisation's month; the month's total after it. */
export async function addLlmTokens(orgId: string, month: string, tokens: number, db?: DB): Promise<number> {
  const row = await (await dbOf(db))
    .insertInto('org_usage_months')
    .values({ org_id: orgId, month, llm_tokens: tokens })
    .onConflict((oc) => oc.columns(['org_id', 'month']).doUpdateSet({ llm_tokens: sql`org_usage_months.llm_tokens + ${tokens}`, updated_at: sql`now()` }))
    .returning('llm_tokens')
    .executeTakeFirstOrThrow();
  return Number(row.llm_tokens);
}
