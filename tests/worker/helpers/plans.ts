import { sql, type RawBuilder } from 'kysely';
import type { DB } from '@/server/db/client';

export type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };

/**
 * Every node of a statement's plan (not run), as PostgreSQL (or PGlite) plans it with sequential scans priced out of
 * reach: a Seq Scan left in it means no index can answer that part, however large the table grows.
 */
export async function planWithoutSeqScans(db: DB, statement: RawBuilder<unknown>): Promise<PlanNode[]> {
  const plan = await db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const r = await sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>`explain (format json) ${statement}`.execute(trx);
    return r.rows[0]['QUERY PLAN'][0].Plan;
  });
  const walk = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(walk)];
  return walk(plan);
}

/** The relations a plan reads whole. */
export const seqScans = (nodes: PlanNode[]) => nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']);

/** The indexes of `table` a plan uses (named after their table, as ours are). */
export const indexesOf = (nodes: PlanNode[], table: string) =>
  [...new Set(nodes.flatMap((n) => (n['Index Name']?.startsWith(`${table}_`) ? [n['Index Name']] : [])))].sort();
