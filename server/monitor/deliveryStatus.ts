import { sql } from 'kysely';

/**
 * A delivery still to be sent. 'sending' is no longer written (an interrupted attempt keeps its status: messages.ts
 * `interrupted`) but rows an earlier version left so are still open.
 */
export const OPEN_STATUSES = ['pending', 'sending', 'retry'] as const;

/**
 * `status in ${OPEN}`: the list inlined as literals, not parameters, so that the planner can use the partial indexes
 * whose predicate is this same list (migration 0002: deliveries_open_by_destination_idx, deliveries_open_due_idx).
 */
export const OPEN = sql`(${sql.join(OPEN_STATUSES.map((s) => sql.lit(s)))})`;

/**
 * SQL: the delivery `alias` has an attempt with no outcome recorded after it (deliveryMarks.ts: the mark leaves the
 * status; an outcome closes the delivery or sets a later next_attempt_at). 'sending': rows an earlier version left.
 */
export const INTERRUPTED = (alias: string) =>
  sql`(${sql.ref(`${alias}.status`)} = 'sending' or (${sql.ref(`${alias}.attempts`)} > 0 and ${sql.ref(`${alias}.last_attempt_at`)} >= ${sql.ref(`${alias}.next_attempt_at`)}))`;
