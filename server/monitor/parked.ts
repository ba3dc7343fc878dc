/**
 * A destination's parked messages — set aside by the delivery worker after their sending was interrupted
 * PARK_AFTER_INTERRUPTIONS times in a row (deliveryWorker.ts) — for the dashboard's list: how many, and why in words.
 * Read through deliveries_parked_idx (migration 0035), an index of the parked rows only.
 */
import { sql } from 'kysely';
import type { DB } from '../db/client';

export type ParkedMessages = Map<string, { count: number; reason: string | null }>;

export async function parkedMessagesOf(db: DB, destinationIds: string[]): Promise<ParkedMessages> {
  const out: ParkedMessages = new Map();
  if (destinationIds.length === 0) return out;
  const r = await sql<{ destination_id: string; n: number; reason: string | null }>`
    select destination_id, count(*)::int as n, max(last_error) as reason from deliveries
     where destination_id = any(${destinationIds}::text[]) and status = 'parked'
     group by destination_id`.execute(db);
  for (const row of r.rows) out.set(row.destination_id, { count: row.n, reason: row.reason });
  return out;
}
