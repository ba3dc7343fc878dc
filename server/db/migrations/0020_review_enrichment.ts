import { sql, type Kysely } from 'kysely';

// What ARB works out about a review on ingest, and what the language model costs each organisation.
// reviews.text_language: the language the review is written in, detected from its title and body (ISO 639-1; null
// when the text is too short or has no letters). reviews.language stays what the store said: Google Play's is the
// device's language, not the text's. reviews.sentiment gains 'mixed' (positive, neutral, negative, mixed) and
// sentiment_method says what produced it: 'rating' (no lexicon for the text's language), 'lexicon' (rating and a
// lexicon together), 'llm' (re-read by the language model).
// review_sentiment_queue: reviews waiting for the language model to re-read their sentiment; rows are added on ingest
// only while an LLM is configured, so ingest without one writes nothing here.
// review_translations: a review's title and body translated to a language, for the review's version it was made from
// (an edit makes it stale), and which service made it.
// org_usage_months.llm_tokens: tokens (prompt + completion) an organisation used this month, against its budget.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('reviews').addColumn('text_language', 'text').addColumn('sentiment_method', 'text').execute();
  await db.schema
    .createTable('review_sentiment_queue')
    .addColumn('review_id', 'bigint', (c) => c.primaryKey().references('reviews.id').onDelete('cascade'))
    .addColumn('queued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('review_translations')
    .addColumn('review_id', 'bigint', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('review_version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('review_translations_pkey', ['review_id', 'language'])
    .execute();
  await db.schema.alterTable('org_usage_months').addColumn('llm_tokens', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table org_usage_months drop column if exists llm_tokens`.execute(db);
  await db.schema.dropTable('review_translations').ifExists().execute();
  await db.schema.dropTable('review_sentiment_queue').ifExists().execute();
  await sql`alter table reviews drop column if exists sentiment_method, drop column if exists text_language`.execute(db);
}
