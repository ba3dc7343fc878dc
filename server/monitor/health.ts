/**
 * What /api/health reports: is the database answering, how deep is the delivery queue and how old is its oldest
 * message (the number to alert on: it grows when delivery falls behind), the sources' state, and this process's
 * engine counters since start.
 */
import { sql } from 'kysely';
import { getDb } from '../db/client';
import { OPEN } from './deliveryStatus';
import { serviceUnavailable } from '../http/errors';
import { counters, type Counters } from './counters';
import { log } from '../log';
import { countCurrentFormatErrors } from './formatErrors';

export type Health = {
  status: 'ok';
  database: 'ok';
  queue: { depth: number; due: number; oldest_pending_age_seconds: number | null };
  /** format_errors: sources whose last answer was a payload we could not read (a store format change). */
  sources: { active: number; due: number; paused: number; format_errors: number };
  counters: Counters;
};

export async function getHealth(): Promise<Health> {
  let queue: { depth: number; due: number; oldest: Date | null };
  let sources: { active: number; due: number; paused: number; format_errors: number };
  try {
    const db = await getDb();
    const q = await sql<{ depth: number; due: number; oldest: Date | null }>`
      select count(*)::int as depth,
             count(*) filter (where next_attempt_at <= now())::int as due,
             min(created_at) as oldest
        from deliveries where status in ${OPEN}`.execute(db);
    const s = await sql<{ active: number; due: number; paused: number }>`
      select count(*) filter (where status = 'active')::int as active,
             count(*) filter (where status = 'active' and next_poll_at <= now())::int as due,
             count(*) filter (where status <> 'active')::int as paused
        from monitored_sources`.execute(db);
    queue = q.rows[0];
    sources = { ...s.rows[0], format_errors: await countCurrentFormatErrors(db) };
  } catch (err) {
    // The driver's text can name hosts, ports, users or SQL: it goes to the log, the answer says what it means.
    log.error('health check: the database query failed', { err });
    throw serviceUnavailable('The database is not answering.');
  }
  return {
    status: 'ok',
    database: 'ok',
    queue: {
      depth: queue.depth,
      due: queue.due,
      oldest_pending_age_seconds: queue.oldest ? Math.max(0, Math.round((Date.now() - new Date(queue.oldest).getTime()) / 1000)) : null,
    },
    sources,
    counters: counters(),
  };
}
