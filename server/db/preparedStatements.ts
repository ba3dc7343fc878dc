/**
 * PostgreSQL: the review engine's hot statements go as named prepared statements, so the server parses and plans each
 * once per connection instead of on every call. Measured with pg_stat_statements in bench/deliver.ts: reading the held
 * destinations' queues (a seven-table join) cost 6.1 ms of planning for 4.2 ms of execution per call, the delivery
 * marks 0.5 ms of planning for 1.4 ms; planning was two fifths of the database's time in a delivery run. Prepared,
 * the marks were planned 19 times in 482 calls.
 *
 * Which: statements written with PREPARED at their start (sql`${PREPARED}select …`), and only those: the engine's
 * statements run thousands of times an hour with plans that do not depend on the values (a queue, a lease, a batch of
 * ids), while the API's reads — text search, filters over a million reviews — need a plan made for their values, which
 * a generic plan of a prepared statement would not be. PostgreSQL still chooses per statement (plan_cache_mode
 * `auto`): custom plans for the first five calls of a connection, then a generic plan only if it is about as cheap.
 * A schema change makes it plan again by itself. At most MAX_PREPARED texts per process (a marked statement whose
 * text changed with its input must not grow the server's plan cache without bound); past that they go unnamed.
 *
 * DATABASE_PREPARED_STATEMENTS=false turns this off, for a connection pooler in transaction mode that cannot carry
 * prepared statements (PgBouncer before 1.21, or without max_prepared_statements). PGlite ignores the mark: its
 * statements are in-process, with no round trip to save.
 */
import { createHash } from 'node:crypto';
import { sql, type PostgresCursor, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult } from 'kysely';
import type pg from 'pg';

const MARK = '/* prepared */ ';
/** Put first in a statement's SQL to have it prepared on PostgreSQL. */
export const PREPARED = sql.raw(MARK);

/** Distinct statement texts prepared by one process (each connection prepares a text the first time it runs it). */
export const MAX_PREPARED = 100;

export type StatementNames = { nameFor(text: string, parameterCount: number): string | undefined; size(): number };

export function statementNames(maxPrepared = MAX_PREPARED): StatementNames {
  const names = new Map<string, string>();
  return {
    nameFor(text, parameterCount) {
      // Without parameters a statement keeps the simple protocol (one message, nothing to plan twice).
      if (parameterCount === 0 || !text.startsWith(MARK)) return undefined;
      let name = names.get(text);
      if (name === undefined && names.size < maxPrepared) {
        // A name from the text itself: the same text is the same statement on every connection, and two texts cannot
        // share a name (node-postgres refuses a name reused for another text).
        name = `arb_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
        names.set(text, name);
      }
      return name;
    },
    size: () => names.size,
  };
}

/** The pool as Kysely sees it, its clients sending marked statements by name. */
export function preparingPool(pool: pg.Pool, names: StatementNames = statementNames()): PostgresPool {
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    function query<R>(sqlText: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query(sqlOrCursor: string | PostgresCursor<unknown>, parameters: ReadonlyArray<unknown> = []): unknown {
      // Kysely's streaming path hands a cursor (pg-cursor), which node-postgres runs as it is.
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as unknown as pg.Submittable);
      const values = [...parameters];
      const name = names.nameFor(sqlOrCursor, values.length);
      return name ? client.query({ name, text: sqlOrCursor, values }) : client.query(sqlOrCursor, values);
    }
    return { query, release: () => client.release() };
  };
  // One wrapper per pooled connection: Kysely keeps its own state per client object it is handed.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}
