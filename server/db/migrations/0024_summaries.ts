import { sql, type Kysely } from 'kysely';

// Review summaries an organisation asked for (GET v1/org/apps/{appKey}/reviews/summary/{id}): one row per request,
// for one app and a span of UTC days. `content` holds the figures, terms, quotes and (with a language model) themes as
// shown; `citations` the review ids it quotes. A summary written by the model is `pending` until done; `claimed_at`
// lets the periodic job take over one whose process stopped halfway.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('review_summaries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('app_key', 'text', (c) => c.notNull().references('apps.key').onDelete('cascade'))
    .addColumn('from_day', 'date', (c) => c.notNull())
    .addColumn('to_day', 'date', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('extractive', 'llm')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'ready', 'failed')`))
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('citations', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('note', 'text')
    .addColumn('requested_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await sql`create index review_summaries_org_app_idx on review_summaries (org_id, app_key, created_at desc)`.execute(db);
  await sql`create index review_summaries_pending_idx on review_summaries (created_at) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('review_summaries').ifExists().execute();
}
