import { sql, type Kysely } from 'kysely';

// rule_queue without its foreign key to reviews (issue 32, bench/rules.ts): the triggers of 0040 queue a poll's whole
// batch in the statement that stores it, and the key made that one check of `reviews` (a row lock of the review) per
// queued review, inside the poll's statement. Nothing needs it: a pass reads the queued reviews and drops the rows of
// reviews that are gone (server/rules/plan.ts skips them, runner.ts deletes their rows), so a deleted review's queue
// row lives until the next pass, a quarter of a second.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rule_queue drop constraint if exists rule_queue_review_id_fkey`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from rule_queue q where not exists (select 1 from reviews r where r.id = q.review_id)`.execute(db);
  await sql`alter table rule_queue add constraint rule_queue_review_id_fkey foreign key (review_id) references reviews (id) on delete cascade`.execute(db);
}
