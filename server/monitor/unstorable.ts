/**
 * Defence in depth for the ingest: a review the database refuses must not fail its poll, and every later poll, for the
 * other reviews. The adapters clean store text of what PostgreSQL refuses (server/sources/cleanText.ts); this is for
 * whatever still gets through (a value no rule foresaw: a date out of PostgreSQL's range, a new kind of bad text).
 *
 * When an ingest fails with a data error (SQLSTATE class 22, a NOT NULL or CHECK violation, or a value the driver
 * cannot even serialise), the poll's reviews are tried in a transaction that is always rolled back, halves first
 * (a bad review among 500 costs about 18 tries), until the reviews refused on their own are found. The ingest then
 * runs again without them; each is logged at error level with its source, its store id and the database's reason.
 * An error no single review causes (the database is down, a bug of ours) is not about a review: it is thrown as it
 * was, and the poll fails as any other does.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../db/client';
import type { Database } from '../db/types';
import type { NormalizedReview } from '../sources/types';

export type RefusedReview = { review: NormalizedReview; reason: string };

/** The statement that stores `rows` (the ingest's insert), run inside the trial transaction. */
export type TrialStatement = (trx: Transaction<Database>, rows: NormalizedReview[]) => Promise<unknown>;

/** SQLSTATEs that are about the values sent, not the database: data exceptions, a NOT NULL or CHECK violation. */
export function isDataError(err: unknown): boolean {
  // The drivers serialise parameters before sending: an invalid Date is a RangeError there (PGlite; pg warns that it
  // will throw too), never a database error.
  if (err instanceof RangeError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code === '23502' || code === '23514');
}

const ROLLBACK = Symbol('trial rolled back');

/** The error storing `rows` raises, or null when they store (nothing is kept either way). */
async function trial(db: DB, rows: NormalizedReview[], statement: TrialStatement): Promise<unknown> {
  try {
    await db.transaction().execute(async (trx) => {
      await statement(trx, rows);
      throw ROLLBACK;
    });
    return null;
  } catch (err) {
    return err === ROLLBACK ? null : err;
  }
}

async function refusedAmong(db: DB, rows: NormalizedReview[], statement: TrialStatement): Promise<RefusedReview[]> {
  const err = await trial(db, rows, statement);
  if (err === null) return [];
  if (!isDataError(err)) throw err; // not about these values: the caller's error stands
  if (rows.length === 1) return [{ review: rows[0], reason: err instanceof Error ? err.message : String(err) }];
  const half = Math.ceil(rows.length / 2);
  return [...(await refusedAmong(db, rows.slice(0, half), statement)), ...(await refusedAmong(db, rows.slice(half), statement))];
}

/**
 * The reviews of a failed ingest that the database refuses on their own, with its reason; empty when `failure` is no
 * data error or no single review causes it (then the caller rethrows `failure`).
 */
export async function findRefusedReviews(db: DB, failure: unknown, reviews: NormalizedReview[], statement: TrialStatement): Promise<RefusedReview[]> {
  if (!isDataError(failure) || reviews.length === 0) return [];
  try {
    return await refusedAmong(db, reviews, statement);
  } catch {
    return [];
  }
}
