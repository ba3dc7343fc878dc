/**
 * Figures of the shared database, read when Prometheus scrapes (never on a timer): the sources due and overdue, the
 * delivery queue's depth and the age of its oldest undelivered message. Every process reads the same rows, so every
 * process reports the same values: alert on max() across them, not sum() (docs/OPERATIONS.md).
 * A failed read is logged and leaves the gauge unset for that scrape (Prometheus then sees the series missing, which
 * an `absent()` rule catches), rather than failing the whole scrape.
 */
import { sql } from 'kysely';
import client from 'prom-client';
import { getDb } from '../db/client';
import { OPEN } from '../monitor/deliveryStatus';
import { log } from '../log';

/** A source whose poll is this late counts as overdue: the engine polls due sources within seconds when it keeps up. */
export const OVERDUE_AFTER_SECONDS = 300;

type DbFigures = { due: number; overdue: number; depth: number; oldestAgeSeconds: number };

async function readFigures(): Promise<DbFigures> {
  const db = await getDb();
  const s = await sql<{ due: number; overdue: number }>`
    select count(*) filter (where next_poll_at <= now())::int as due,
           count(*) filter (where next_poll_at <= now() - make_interval(secs => ${OVERDUE_AFTER_SECONDS}))::int as overdue
      from monitored_sources where status = 'active'`.execute(db);
  const q = await sql<{ depth: number; oldest: Date | string | null }>`
    select count(*)::int as depth, min(created_at) as oldest from deliveries where status in ${OPEN}`.execute(db);
  const oldest = q.rows[0].oldest;
  return {
    due: s.rows[0].due,
    overdue: s.rows[0].overdue,
    depth: q.rows[0].depth,
    oldestAgeSeconds: oldest ? Math.max(0, (Date.now() - new Date(oldest).getTime()) / 1000) : 0,
  };
}

/** Registers the database gauges on `registry`; one read of the database serves all four per scrape. */
export function registerDatabaseGauges(registry: client.Registry): void {
  let pending: Promise<DbFigures | null> | null = null;
  // The four collect() calls of one scrape run together: they share one read.
  const figures = () =>
    (pending ??= readFigures()
      .catch((err: unknown) => {
        log.warn('metrics: the database figures could not be read', { err: (err as Error).message });
        return null;
      })
      .finally(() => setTimeout(() => (pending = null), 0)));
  const gauge = (name: string, help: string, pick: (f: DbFigures) => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const f = await figures();
        if (f) this.set(pick(f));
        else this.reset();
      },
    });
  gauge('arb_sources_due', 'Active store sources whose next poll time has come (the same value from every process).', (f) => f.due);
  gauge('arb_sources_overdue', `Active store sources whose poll is more than ${OVERDUE_AFTER_SECONDS} s late (the same value from every process).`, (f) => f.overdue);
  gauge('arb_delivery_queue_depth', 'Messages not yet delivered: pending, sending or waiting to retry (the same value from every process).', (f) => f.depth);
  gauge('arb_delivery_oldest_undelivered_age_seconds', 'Age of the oldest message not yet delivered; 0 when the queue is empty (the same value from every process).', (f) => f.oldestAgeSeconds);
}
