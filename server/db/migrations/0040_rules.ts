import { sql, type Kysely } from 'kysely';

// Rules (server/rules/README.md): what an organisation's new and edited reviews are checked against, in order, and
// what each match does.
// - rules: one row per rule of an organisation. `position` orders them (0 first; renumbered on every move, so it is
//   dense); `apps` empty means every app of the organisation; `conditions` and `actions` are the JSON the API takes
//   (server/rules/schema.ts), checked before they are stored; `stop_after`: no later rule runs on a review this one
//   matched.
// - rule_firings: one row per (rule × review × review version) that matched, with what each action did. Unique, so a
//   rule fires once per version of a review whatever runs it again (two workers, a retry after a crash); an edit is a
//   new version and is evaluated again. `fired_at` counts "fired this week"; `reply_pending`: its reply action runs
//   after the pass commits (drafting may call a language model, never inside a transaction).
// - rule_queue: reviews to evaluate, filled by triggers on `reviews` in the statement that stores them (a new review,
//   or an edit: `version` changed), only while some organisation watching the review's app has an enabled rule, and
//   drained by the background job `rules` (server/rules/jobs.ts) within a second. Statement-level triggers with
//   transition tables, like those of 0018 and 0038 (which share the captured rows): a poll's batch is one INSERT …
//   SELECT, not one call per review, and a database without enabled rules pays one probe of a partial index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rules')
    .addColumn('id', 'text', (c) => c.primaryKey()) // rul_ + random
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('apps', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('conditions', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('actions', 'jsonb', (c) => c.notNull())
    .addColumn('stop_after', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('rules_org_position_idx').on('rules').columns(['org_id', 'position']).execute();
  // "Is any rule enabled, and whose?": the triggers' question.
  await sql`create index rules_enabled_org_idx on rules (org_id) where enabled`.execute(db);

  await db.schema
    .createTable('rule_firings')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('rule_id', 'text', (c) => c.notNull().references('rules.id').onDelete('cascade'))
    .addColumn('review_id', 'bigint', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('review_version', 'integer', (c) => c.notNull())
    .addColumn('outcomes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // A reply action still to run: drafting may call a language model, so it runs after the pass's commit, outside
    // any transaction (server/rules/replies.ts), and a pass after a crash finds what was left.
    .addColumn('reply_pending', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('fired_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('rule_firings_once_key', ['rule_id', 'review_id', 'review_version'])
    .execute();
  await db.schema.createIndex('rule_firings_rule_time_idx').on('rule_firings').columns(['rule_id', 'fired_at']).execute();
  await db.schema.createIndex('rule_firings_review_idx').on('rule_firings').column('review_id').execute();
  await sql`create index rule_firings_reply_pending_idx on rule_firings (id) where reply_pending`.execute(db);

  await db.schema
    .createTable('rule_queue')
    .addColumn('review_id', 'bigint', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('review_version', 'integer', (c) => c.notNull())
    .addColumn('queued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('rule_queue_pkey', ['review_id', 'review_version'])
    .execute();
  await db.schema.createIndex('rule_queue_order_idx').on('rule_queue').columns(['queued_at', 'review_id']).execute();

  await sql`create function rule_queue_add() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from rules where enabled) then
        return null;
      end if;
      if tg_op = 'INSERT' then
        insert into rule_queue (review_id, review_version)
          select n.id, n.version from new_rows n
           where n.app_key in (select oa.app_key from org_apps oa join rules r on r.org_id = oa.org_id and r.enabled)
          on conflict do nothing;
      else
        insert into rule_queue (review_id, review_version)
          select n.id, n.version from new_rows n join old_rows o on o.id = n.id
           where n.version <> o.version
             and n.app_key in (select oa.app_key from org_apps oa join rules r on r.org_id = oa.org_id and r.enabled)
          on conflict do nothing;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger reviews_rules_insert after insert on reviews referencing new table as new_rows
            for each statement execute function rule_queue_add()`.execute(db);
  await sql`create trigger reviews_rules_update after update on reviews referencing old table as old_rows new table as new_rows
            for each statement execute function rule_queue_add()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists reviews_rules_insert on reviews`.execute(db);
  await sql`drop trigger if exists reviews_rules_update on reviews`.execute(db);
  await sql`drop function if exists rule_queue_add()`.execute(db);
  await db.schema.dropTable('rule_queue').ifExists().execute();
  await db.schema.dropTable('rule_firings').ifExists().execute();
  await db.schema.dropTable('rules').ifExists().execute();
}
