/**
 * The job_runs table: which process may start a periodic job's run now. A run is started by ONE UPDATE that moves
 * last_started_at forward only if a full period has passed since the last start and no run holds the job; PostgreSQL
 * re-checks that WHERE on the row after any concurrent update commits, so of all the processes asking at the same
 * moment exactly one gets the row back. A run holds the job until it finishes or its lease ends (a process that died
 * mid-run).
 */
import { sql } from 'kysely';
import { getDb } from './db/client';
import { msInterval } from './db/interval';
import { leaseEnd, leaseRanOut } from './db/lease';

/** The run's start (database time) when this process may run the job now (and it now holds it); otherwise null. */
export async function claimJobRun(name: string, everyMs: number, leaseMs: number, owner: string): Promise<Date | null> {
  const db = await getDb();
  await db.insertInto('job_runs').values({ name }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const r = await sql<{ last_started_at: Date }>`
    update job_runs
       set last_started_at = now(), running_until = ${leaseEnd(leaseMs)}, run_by = ${owner}, runs = runs + 1
     where name = ${name}
       and (last_started_at is null or last_started_at <= now() - ${msInterval(everyMs)})
       and ${leaseRanOut('running_until')}
    returning last_started_at`.execute(db);
  return r.rows[0] ? new Date(r.rows[0].last_started_at) : null;
}

/** The run is over: the job is free for the next period. */
export async function finishJobRun(name: string, owner: string): Promise<void> {
  const db = await getDb();
  await db
    .updateTable('job_runs')
    .set({ running_until: null, last_finished_at: sql`now()` })
    .where('name', '=', name)
    .where('run_by', '=', owner)
    .execute();
}
